"""One table's task and its parts, and the room that holds the tables."""
