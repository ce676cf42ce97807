"""What one player (or a spectator) may see of a hand (S-VIEW-1, R-SHOW-8).

A viewer sees the board, every stack and bet, their own hole cards, and the
cards other players have shown at showdown -- never a hand that was folded or
mucked, and never another player's cards before they are shown.
"""

from __future__ import annotations

from typing import Final, final

from pokerroom.cards import Card
from pokerroom.engine.actions import LegalActions, RunoutChoice, ShowdownChoice
from pokerroom.engine.hand import Hand

# Plain classes with final attributes, not frozen dataclasses: mypyc compiles them to
# native classes whose attributes cannot be set after ``__init__`` (frozen all the same),
# built a hundred times faster than a frozen dataclass, whose generated ``__init__`` mypyc
# leaves interpreted, calling ``object.__setattr__`` once per field. A view is built for
# every frame a table sends.


@final
class SeatView:
    def __init__(
        self,
        *,
        position: int,
        seat: int,
        name: str,
        stack: int,
        bet: int,
        folded: bool,
        all_in: bool,
        cards: tuple[Card, ...] | None,  # None: face down (or not this viewer's to see)
        card_count: int,
        shown: bool,
        mucked: bool,
    ) -> None:
        self.position: Final = position
        self.seat: Final = seat
        self.name: Final = name
        self.stack: Final = stack
        self.bet: Final = bet
        self.folded: Final = folded
        self.all_in: Final = all_in
        self.cards: Final = cards
        self.card_count: Final = card_count
        self.shown: Final = shown
        self.mucked: Final = mucked

    def __repr__(self) -> str:
        return f"SeatView(seat={self.seat}, stack={self.stack}, cards={self.cards})"


@final
class HandView:
    def __init__(
        self,
        *,
        viewer: int | None,  # a position, or None for a spectator
        game: str,
        phase: str,
        street: str,
        board: tuple[Card, ...],
        pots: tuple[int, ...],  # main pot first, current bets included
        seats: tuple[SeatView, ...],
        button_seat: int,
        actor_seat: int | None,
        legal: LegalActions | None,  # only when the viewer is the one to act
        showdown: ShowdownChoice | None,
        rake: int,
        second_board: tuple[Card, ...] = (),  # R-RIT-1: the second run's whole board
        runout: RunoutChoice | None = None,  # R-RIT-1: the viewer is asked to run it twice
    ) -> None:
        self.viewer: Final = viewer
        self.game: Final = game
        self.phase: Final = phase
        self.street: Final = street
        self.board: Final = board
        self.pots: Final = pots
        self.seats: Final = seats
        self.button_seat: Final = button_seat
        self.actor_seat: Final = actor_seat
        self.legal: Final = legal
        self.showdown: Final = showdown
        self.rake: Final = rake
        self.second_board: Final = second_board
        self.runout: Final = runout

    def __repr__(self) -> str:
        return f"HandView(viewer={self.viewer}, phase={self.phase!r}, street={self.street!r})"


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
        second_board=hand.second_board_cards() if hand.second_board else (),
        runout=hand.runout_choice() if is_actor else None,
    )
