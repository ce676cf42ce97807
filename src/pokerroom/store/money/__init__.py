"""Money: the double-entry chip ledger and its transfers."""
