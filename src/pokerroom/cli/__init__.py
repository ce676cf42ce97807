"""The ``pokerroom`` command line."""

from pokerroom.cli.app import app, main

__all__ = ["app", "main"]
