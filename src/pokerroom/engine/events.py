"""Frozen events: everything that happens in a hand, in order (DESIGN principle 3).

Positions count from the first player left of the button (0) to the button
(last), as in PHH; ``seat`` is the table seat number, for people and messages.
"""

from __future__ import annotations

from typing import ClassVar

from pokerroom.cards import Card
from pokerroom.records import record


@record
class Event:
    kind: ClassVar[str] = "event"
    #: Events whose content only some viewers may see (S-VIEW-1).
    private: ClassVar[bool] = False


@record
class HandStarted(Event):
    kind: ClassVar[str] = "hand_started"
    game: str  # PHH code, e.g. "NT"
    seats: tuple[int, ...]  # by position
    stacks: tuple[int, ...]  # by position, before any post
    button_seat: int


@record
class ForcedBet(Event):
    """An ante, blind, straddle or a new/returning player's post (R-SEAT-2..4)."""

    kind: ClassVar[str] = "forced_bet"
    position: int
    seat: int
    what: str  # ante, small_blind, big_blind, straddle, big_blind_ante, live_post, dead_post
    amount: int
    dead: bool  # dead money goes to the pot, not towards the player's bet
    all_in: bool


@record
class HoleCardsDealt(Event):
    kind: ClassVar[str] = "hole_cards_dealt"
    private: ClassVar[bool] = True
    position: int
    seat: int
    cards: tuple[Card, ...]


@record
class ActionTaken(Event):
    kind: ClassVar[str] = "action"
    position: int
    seat: int
    action: str  # fold, check, call, bet, raise
    added: int  # chips moved from the stack by this action
    to: int  # the player's total bet in this round afterwards
    all_in: bool
    timed_out: bool = False


@record
class PlayerProtected(Event):
    """R-TIME-2 all-in protection: the player stays in for what they put in, and acts no more."""

    kind: ClassVar[str] = "protected"
    position: int
    seat: int


@record
class BoardDealt(Event):
    kind: ClassVar[str] = "board_dealt"
    street: str  # flop, turn, river
    cards: tuple[Card, ...]


@record
class UncalledBetReturned(Event):
    kind: ClassVar[str] = "uncalled_bet_returned"
    position: int
    seat: int
    amount: int


@record
class CardsShown(Event):
    kind: ClassVar[str] = "cards_shown"
    position: int
    seat: int
    cards: tuple[Card, ...]
    high: str  # "Full House, Kings over Sevens"
    low: str  # "8-6-4-2-A" or "" (hi-lo games)


@record
class HandMucked(Event):
    kind: ClassVar[str] = "mucked"
    position: int
    seat: int


@record
class RakeTaken(Event):
    kind: ClassVar[str] = "rake"
    amount: int
    pot: int  # the pot it was computed on


@record
class PotAwarded(Event):
    kind: ClassVar[str] = "pot_awarded"
    pot: int  # 0 = main pot, 1.. = side pots
    amount: int
    share: str  # whole, high, low
    winners: tuple[tuple[int, int], ...]  # (position, chips)
    hand: str  # the winning hand's name, "" when uncontested


@record
class HandEnded(Event):
    kind: ClassVar[str] = "hand_ended"
    stacks: tuple[int, ...]  # by position


@record
class HandCancelled(Event):
    """R-DECK-5: the hand could not be completed; every committed chip went back."""

    kind: ClassVar[str] = "hand_cancelled"
    refunds: tuple[int, ...]  # by position
    stacks: tuple[int, ...]
    reason: str
