"""The wire: frame models, errors and their codes, encoding, a connection's outbox and writer."""
