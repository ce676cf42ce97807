"""Private games (R-PRIV-1): games players host, found by invite link or code."""
