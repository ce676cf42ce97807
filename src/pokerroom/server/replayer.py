"""A finished hand as the frames of the browser's replayer, as one player may see it.

The hand is stepped through again from its setup and log (``Hand.steps``, the one replay),
and every frame is built from ``view_for(hand, viewer)``, the view the table's own frames
and ``viewer_hand`` are built from: a card hidden from the viewer is in no frame
(S-EXPORT-1), and shown cards appear only once shown (R-SHOW-8).
"""

from __future__ import annotations

from typing import Any

from pokerroom.engine.events import (
    ActionTaken,
    BoardDealt,
    CardsShown,
    Event,
    ForcedBet,
    ForcedBetKind,
    HandMucked,
    Move,
    PotAwarded,
    PotShare,
    RakeTaken,
    UncalledBetReturned,
)
from pokerroom.engine.hand import Hand, Phase
from pokerroom.engine.pots import build_pots
from pokerroom.engine.views import view_for
from pokerroom.history.record import cancel_reason
from pokerroom.history.viewer import ViewerHand
from pokerroom.server.views import hand_result, note_action

_FORCED = {
    ForcedBetKind.SMALL_BLIND: "posts the small blind",
    ForcedBetKind.BIG_BLIND: "posts the big blind",
    ForcedBetKind.ANTE: "posts an ante",
    ForcedBetKind.BIG_BLIND_ANTE: "posts the big blind ante",
    ForcedBetKind.STRADDLE: "straddles",
    ForcedBetKind.LIVE_POST: "posts",
    ForcedBetKind.DEAD_POST: "posts dead",
}


def money(cents: int) -> str:
    """Play money as players read it: 1920 -> "$19.20", 200 -> "$2"."""
    whole, part = divmod(cents, 100)
    return f"${whole:,}" if part == 0 else f"${whole:,}.{part:02d}"


def narrate(hand: Hand, event: Event) -> str | None:
    """One line of what happened, or None for events a viewer does not read."""

    def who(position: int) -> str:
        return hand.names[position] or f"seat {hand.seats[position]}"

    if isinstance(event, ForcedBet):
        return f"{who(event.position)} {_FORCED.get(event.what, 'posts')} {money(event.amount)}"
    if isinstance(event, ActionTaken):
        verb = {
            Move.FOLD: "folds",
            Move.CHECK: "checks",
            Move.CALL: f"calls {money(event.added)}",
            Move.BET: f"bets {money(event.to)}",
            Move.RAISE: f"raises to {money(event.to)}",
        }[event.action]
        return f"{who(event.position)} {verb}" + (" and is all-in" if event.all_in else "")
    if isinstance(event, BoardDealt):
        return f"{event.street.title()}: {' '.join(str(c) for c in event.cards)}"
    if isinstance(event, UncalledBetReturned):
        return f"{money(event.amount)} uncalled, returned to {who(event.position)}"
    if isinstance(event, CardsShown):
        cards = " ".join(str(c) for c in event.cards)
        named = ", ".join(filter(None, (event.high, event.low and f"low {event.low}")))
        return f"{who(event.position)} shows {cards}" + (f" ({named})" if named else "")
    if isinstance(event, HandMucked):
        return f"{who(event.position)} mucks"
    if isinstance(event, RakeTaken):
        return f"rake {money(event.amount)}"
    if isinstance(event, PotAwarded):
        pot = "the main pot" if event.pot == 0 else f"side pot {event.pot}"
        share = "" if event.share is PotShare.WHOLE else f" ({event.share} half)"
        names = ", ".join(f"{who(p)} wins {money(a)}" for p, a in event.winners)
        return f"{names} from {pot}{share}" + (f" with {event.hand}" if event.hand else "")
    return None


def _frame(
    hand: Hand, viewer: int | None, lines: list[str], last: dict[int, dict[str, Any]]
) -> dict[str, Any]:
    view = view_for(hand, viewer)
    over = hand.is_over
    # The pots in the middle without this round's bets (in front of the seats), as the
    # table's own frames count them (server/views.py).
    collected = build_pots(
        [live - bet for live, bet in zip(hand.live, hand.bets, strict=True)],
        sum(hand.dead),
        [hand.in_hand(i) for i in range(hand.n)],
    )
    return {
        "lines": lines,
        "street": view.street,
        "board": [str(c) for c in view.board],
        "pots": list(view.pots) if not over else [],
        "collected": [p.amount for p in collected if p.amount] if not over else [],
        "actor": view.actor_seat if not over else None,
        "seats": [
            {
                "seat": s.seat,
                "name": s.name,
                "stack": s.stack,
                "bet": s.bet if not hand.is_over else 0,
                "folded": s.folded,
                "cards": None if s.cards is None else [str(c) for c in s.cards],
                "card_count": s.card_count,
                "you": s.position == viewer,
                "all_in": s.stack == 0 and not s.folded and not over,
                "last_action": None if over else last.get(s.seat),
            }
            for s in view.seats
        ],
        # The end as the table showed it: shown hands (never a mucked one) and the awards.
        "result": (
            hand_result("", 0, hand=hand, events=hand.events).model_dump(mode="json")
            if over and hand.phase is not Phase.CANCELLED
            else None
        ),
    }


def replay_frames(view: ViewerHand) -> dict[str, Any]:
    """Every step of a finished hand as ``view``'s viewer saw it."""
    viewer = view.viewer
    if viewer is not None and not 0 <= viewer < view.hand.n:  # EVERYONE: not a player's view
        raise ValueError(f"the replayer shows a hand to a player or a spectator, not {viewer}")
    ended = view.hand
    steps = Hand.steps(ended.setup, ended.log)
    hand = next(steps)
    frames = []
    seen = 0
    last: dict[int, dict[str, Any]] = {}  # seat -> what it did last this street
    blinds: dict[ForcedBetKind, int] = {}

    def lines() -> list[str]:
        nonlocal seen, last
        new = hand.events[seen:]
        seen = len(hand.events)
        for e in new:
            if isinstance(e, (ActionTaken, ForcedBet, BoardDealt)):
                last = note_action(last, e)
            if isinstance(e, ForcedBet):
                blinds.setdefault(e.what, e.seat)
        return [line for e in new if (line := narrate(hand, e)) is not None]

    def frame() -> dict[str, Any]:
        return _frame(hand, viewer, lines(), last)

    frames.append(frame())
    for _ in steps:
        frames.append(frame())
    reason = cancel_reason(ended)
    if reason is not None and not hand.is_over:
        hand.cancel(reason)
        frames.append(frame())
    return {
        "game": hand.spec.name,
        "button": hand.seats[hand.button],
        "small_blind_seat": blinds.get(ForcedBetKind.SMALL_BLIND),
        "big_blind_seat": blinds.get(ForcedBetKind.BIG_BLIND),
        "frames": [f for n, f in enumerate(frames) if n == 0 or f["lines"]],
    }
