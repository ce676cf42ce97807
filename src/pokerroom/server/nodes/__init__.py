"""Only with several nodes: the Redis bus, remote tables, leases, liveness and their lobby."""
