"""Tournaments: a pure coordinator above the tables (no I/O; time and randomness
passed in), the places and prizes, and an in-process simulation with random-policy bots."""

from pokerroom.tournament.coordinator import Tournament
from pokerroom.tournament.events import TournamentError
from pokerroom.tournament.places import Place

__all__ = ["Place", "Tournament", "TournamentError"]
