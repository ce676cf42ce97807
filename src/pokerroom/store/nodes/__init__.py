"""Several nodes in the store: table leases and their fence, heartbeats, adoption."""
