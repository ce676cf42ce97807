"""Tournaments in the room: each event's runner, its hall, deals, buys, exports and tables."""
