"""Tables in the store: a table's hands and their end, the floor's acts, the room's store object."""
