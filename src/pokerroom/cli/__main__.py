"""``python -m pokerroom.cli``: the same as the ``pokerroom`` command."""

from pokerroom.cli.app import main

main()
