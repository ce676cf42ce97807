"""Storage: accounts, the double-entry chip ledger, hands -- on SQLite or PostgreSQL."""
