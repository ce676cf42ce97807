"""Several nodes in the store: table leases and their fence, a node's heartbeat and adoption, tournaments' leases."""
