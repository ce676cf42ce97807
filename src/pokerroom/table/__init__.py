"""The table: hand after hand -- seats, button, blinds, buy-ins, sitting out and time."""

from pokerroom.table.errors import TableError
from pokerroom.table.seats import PreAction, Seat, SeatStatus
from pokerroom.table.table import Table

__all__ = ["PreAction", "Seat", "SeatStatus", "Table", "TableError"]
