"""What several test modules share, one concept a module: test modules import from here, never
from each other's ``test_*.py``."""
