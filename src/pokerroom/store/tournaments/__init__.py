"""Tournaments in the store: an event's statements and the runner's store object."""
