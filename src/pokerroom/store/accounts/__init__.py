"""Accounts in the store: sign-up, log-in, sessions and preferences."""
