"""Accounts in the server: sign-in tokens and a player's preferences."""
