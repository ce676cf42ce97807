"""What one player (or a spectator) may see of a hand (S-VIEW-1, R-SHOW-8).

A viewer sees the board, every stack and bet, their own hole cards, and the
cards other players have shown at showdown -- never a hand that was folded or
mucked, and never another player's cards before they are shown.
"""

from __future__ import annotations

from dataclasses import dataclass

from pokerroom.cards import Card
from pokerroom.engine.actions import LegalActions, ShowdownChoice
from pokerroom.engine.hand import Hand


@dataclass(frozen=True, slots=True)
class SeatView:
    position: int
    seat: int
    name: str
    stack: int
    bet: int
    folded: bool
    all_in: bool
    cards: tuple[Card, ...] | None  # None: face down (or not this viewer's to see)
    card_count: int
    shown: bool
    mucked: bool


@dataclass(frozen=True, slots=True)
class HandView:
    viewer: int | None  # a position, or None for a spectator
    game: str
    phase: str
    street: str
    board: tuple[Card, ...]
    pots: tuple[int, ...]  # main pot first, current bets included
    seats: tuple[SeatView, ...]
    button_seat: int
    actor_seat: int | None
    legal: LegalActions | None  # only when the viewer is the one to act
    showdown: ShowdownChoice | None
    rake: int


def _visible(hand: Hand, viewer: int | None, i: int) -> bool:
    return i == viewer or hand.shown[i]


def view_for(hand: Hand, viewer: int | None) -> HandView:
    """The hand as ``viewer`` (a position) sees it; ``None`` is a spectator."""
    seats = tuple(
        SeatView(
            position=i,
            seat=hand.seats[i],
            name=hand.names[i],
            stack=hand.stacks[i],
            bet=hand.bets[i],
            folded=hand.folded[i],
            all_in=hand.all_in[i],
            cards=hand.hole_cards(i) if _visible(hand, viewer, i) else None,
            card_count=len(hand.hole[i]),
            shown=hand.shown[i],
            mucked=hand.mucked[i],
        )
        for i in range(hand.n)
    )
    is_actor = viewer is not None and viewer == hand.actor
    return HandView(
        viewer=viewer,
        game=hand.spec.phh_code,
        phase=hand.phase.value,
        street=hand.street_name,
        board=hand.board_cards(),
        pots=tuple(p.amount for p in hand.pots()),
        seats=seats,
        button_seat=hand.seats[hand.button],
        actor_seat=hand.seats[hand.actor] if hand.actor is not None else None,
        legal=hand.legal_actions() if is_actor else None,
        showdown=hand.showdown_choice() if is_actor else None,
        rake=hand.rake,
    )
