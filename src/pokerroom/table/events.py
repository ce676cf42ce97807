"""Frozen table events: everything that happens between and around hands (DESIGN 3)."""

from __future__ import annotations

from typing import ClassVar, Final

from pokerroom.cards import Card
from pokerroom.engine.events import Event


class SeatTaken(Event):
    kind: ClassVar[str] = "seat_taken"
    __match_args__: ClassVar[tuple[str, ...]] = ("seat", "player", "name", "stack")

    def __init__(self, seat: int, player: str, name: str, stack: int) -> None:
        self.seat: Final = seat
        self.player: Final = player
        self.name: Final = name
        self.stack: Final = stack


class SeatLeft(Event):
    kind: ClassVar[str] = "seat_left"
    __match_args__: ClassVar[tuple[str, ...]] = ("seat", "player", "stack", "reason")

    def __init__(self, seat: int, player: str, stack: int, reason: str) -> None:
        self.seat: Final = seat
        self.player: Final = player
        self.stack: Final = stack  # chips taken off the table
        self.reason: Final = reason  # left, busted, moved


class ChipsAdded(Event):
    """A top-up or rebuy between hands (R-STAKE-1)."""

    kind: ClassVar[str] = "chips_added"
    __match_args__: ClassVar[tuple[str, ...]] = ("seat", "amount", "stack")

    def __init__(self, seat: int, amount: int, stack: int) -> None:
        self.seat: Final = seat
        self.amount: Final = amount
        self.stack: Final = stack


class SeatStatusChanged(Event):
    kind: ClassVar[str] = "seat_status"
    __match_args__: ClassVar[tuple[str, ...]] = ("seat", "status", "reason")

    def __init__(self, seat: int, status: str, reason: str) -> None:
        self.seat: Final = seat
        self.status: Final = status  # playing, sitting_out, waiting, busted
        self.reason: Final = reason


class BlindMissed(Event):
    """R-SEAT-3 (big: ML marker) or R-SEAT-4 (small: MS marker)."""

    kind: ClassVar[str] = "blind_missed"
    __match_args__: ClassVar[tuple[str, ...]] = ("seat", "blind")

    def __init__(self, seat: int, blind: str) -> None:
        self.seat: Final = seat
        self.blind: Final = blind  # big, small


class ButtonDrawn(Event):
    """R-BTN-2 draw: one card each; the highest (ties by suit, R-DECK-4) is first to act."""

    kind: ClassVar[str] = "button_drawn"
    __match_args__: ClassVar[tuple[str, ...]] = ("cards", "first_seat")

    def __init__(self, cards: tuple[tuple[int, Card], ...], first_seat: int) -> None:
        self.cards: Final = cards  # (seat, card)
        self.first_seat: Final = first_seat


class HandStarting(Event):
    kind: ClassVar[str] = "hand_starting"
    __match_args__: ClassVar[tuple[str, ...]] = (
        "number",
        "button_seat",
        "small_blind_seat",
        "big_blind_seat",
        "seats",
        "fresh",
    )

    def __init__(
        self,
        number: int,
        button_seat: int,
        small_blind_seat: int | None,
        big_blind_seat: int,
        seats: tuple[int, ...],
        fresh: bool,
    ) -> None:
        self.number: Final = number
        self.button_seat: Final = button_seat  # may be an empty seat: a dead button
        self.small_blind_seat: Final = (
            small_blind_seat  # None: no small blind this hand (dead small blind)
        )
        self.big_blind_seat: Final = big_blind_seat
        self.seats: Final = seats  # dealt in, in position order (first left of the button first)
        self.fresh: Final = (
            fresh  # the first hand of a new (or restarted) rotation: nobody owes a blind
        )


class HandFinished(Event):
    kind: ClassVar[str] = "hand_finished"
    __match_args__: ClassVar[tuple[str, ...]] = ("number", "stacks", "rake", "cancelled")

    def __init__(
        self, number: int, stacks: tuple[tuple[int, int], ...], rake: int, cancelled: bool
    ) -> None:
        self.number: Final = number
        self.stacks: Final = stacks  # (seat, stack)
        self.rake: Final = rake
        self.cancelled: Final = cancelled


class TimerStarted(Event):
    kind: ClassVar[str] = "timer_started"
    __match_args__: ClassVar[tuple[str, ...]] = ("seat", "deadline", "warning_at", "time_bank")

    def __init__(self, seat: int, deadline: float, warning_at: float, time_bank: float) -> None:
        self.seat: Final = seat
        self.deadline: Final = deadline
        self.warning_at: Final = warning_at
        self.time_bank: Final = time_bank


class TimerWarning(Event):
    kind: ClassVar[str] = "timer_warning"
    __match_args__: ClassVar[tuple[str, ...]] = ("seat", "seconds_left")

    def __init__(self, seat: int, seconds_left: float) -> None:
        self.seat: Final = seat
        self.seconds_left: Final = seconds_left


class TimeBankUsed(Event):
    kind: ClassVar[str] = "time_bank_used"
    __match_args__: ClassVar[tuple[str, ...]] = ("seat", "seconds", "deadline")

    def __init__(self, seat: int, seconds: float, deadline: float) -> None:
        self.seat: Final = seat
        self.seconds: Final = seconds
        self.deadline: Final = deadline


class TimerExpired(Event):
    kind: ClassVar[str] = "timer_expired"
    __match_args__: ClassVar[tuple[str, ...]] = ("seat",)

    def __init__(self, seat: int) -> None:
        self.seat: Final = seat


class ConnectionChanged(Event):
    kind: ClassVar[str] = "connection"
    __match_args__: ClassVar[tuple[str, ...]] = ("seat", "connected", "extra_seconds")

    def __init__(self, seat: int, connected: bool, extra_seconds: float) -> None:
        self.seat: Final = seat
        self.connected: Final = connected
        self.extra_seconds: Final = (
            extra_seconds  # R-TIME-3: granted on a reconnect within the player's time
        )


class WaitingListChanged(Event):
    kind: ClassVar[str] = "waiting_list"
    __match_args__: ClassVar[tuple[str, ...]] = ("players",)

    def __init__(self, players: tuple[str, ...]) -> None:
        self.players: Final = players


class SeatOffered(Event):
    kind: ClassVar[str] = "seat_offered"
    __match_args__: ClassVar[tuple[str, ...]] = ("seat", "player")

    def __init__(self, seat: int, player: str) -> None:
        self.seat: Final = seat
        self.player: Final = player


class PassedOver(Event):
    """A player taken off the waiting list without a seat: the offered seat was not taken in
    time, or the server found them unable to buy in."""

    kind: ClassVar[str] = "passed_over"
    __match_args__: ClassVar[tuple[str, ...]] = ("player", "seat", "reason")

    def __init__(self, player: str, seat: int, reason: str) -> None:
        self.player: Final = player
        self.seat: Final = seat
        self.reason: Final = reason
