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
    BombPot,
    CardsShown,
    Event,
    ForcedBet,
    ForcedBetKind,
    HandMucked,
    Move,
    PotAwarded,
    PotShare,
    RakeTaken,
    RunoutAnswered,
    SecondBoardDealt,
    UncalledBetReturned,
)
from pokerroom.engine.hand import Hand, Phase
from pokerroom.engine.pots import build_pots
from pokerroom.engine.views import view_for
from pokerroom.history.record import cancel_reason
from pokerroom.history.viewer import EVERYONE, ViewerHand
from pokerroom.server.sockets import protocol
from pokerroom.server.tables.views import hand_result, high_name, note_action, pot_hand

_FORCED = {
    ForcedBetKind.SMALL_BLIND: "small_blind",
    ForcedBetKind.BIG_BLIND: "big_blind",
    ForcedBetKind.ANTE: "ante",
    ForcedBetKind.BIG_BLIND_ANTE: "big_blind_ante",
    ForcedBetKind.STRADDLE: "straddle",
    ForcedBetKind.LIVE_POST: "live_post",
    ForcedBetKind.DEAD_POST: "dead_post",
}
_MOVES = {
    Move.FOLD: "fold",
    Move.CHECK: "check",
    Move.CALL: "call",
    Move.BET: "bet",
    Move.RAISE: "raise",
}
# Each line of the replayer as a key of the client's catalogues (src/pokerroom/web/i18n) with
# its English text here, the same as en.json's (a test checks): "{amount}" is chips (shown as
# money), "{street}" a street's name, "{winners}" a list of {who, amount} ("replay.wins" each).
LINES = {
    "replay.small_blind": "{who} posts the small blind {amount}",
    "replay.big_blind": "{who} posts the big blind {amount}",
    "replay.ante": "{who} posts an ante {amount}",
    "replay.big_blind_ante": "{who} posts the big blind ante {amount}",
    "replay.straddle": "{who} straddles {amount}",
    "replay.live_post": "{who} posts {amount}",
    "replay.dead_post": "{who} posts dead {amount}",
    "replay.fold": "{who} folds",
    "replay.check": "{who} checks",
    "replay.call": "{who} calls {amount}",
    "replay.bet": "{who} bets {amount}",
    "replay.raise": "{who} raises to {amount}",
    "replay.call_all_in": "{who} calls {amount} and is all-in",
    "replay.bet_all_in": "{who} bets {amount} and is all-in",
    "replay.raise_all_in": "{who} raises to {amount} and is all-in",
    "replay.board": "{street}: {cards}",
    # the table options (R-BOMB-1, R-RIT-1)
    "replay.bomb_pot": "Bomb pot: {amount} from each player",
    "replay.run_twice": "{who} agrees to run it twice",
    "replay.run_once": "{who} runs it once",
    "replay.run_timeout": "{who} does not answer: run it once",
    "replay.second_board": "Second run, {street}: {cards}",
    "replay.on_run": "{line} on run {run}",
    "replay.uncalled": "{amount} uncalled, returned to {who}",
    "replay.shows": "{who} shows {cards}",
    "replay.shows_high": "{who} shows {cards} ({high})",
    "replay.shows_low": "{who} shows {cards} (low {low})",
    "replay.shows_high_low": "{who} shows {cards} ({high}, low {low})",
    "replay.mucks": "{who} mucks",
    "replay.rake": "rake {amount}",
    "replay.wins": "{who} wins {amount}",
    "replay.main_pot": "{winners} from the main pot",
    "replay.main_pot_high": "{winners} from the main pot (high half)",
    "replay.main_pot_low": "{winners} from the main pot (low half)",
    "replay.side_pot": "{winners} from side pot {pot}",
    "replay.side_pot_high": "{winners} from side pot {pot} (high half)",
    "replay.side_pot_low": "{winners} from side pot {pot} (low half)",
    "replay.with_hand": "{line} with {hand}",
    "replay.with_low": "{line}, low {low}",
    "street.preflop": "Preflop",
    "street.flop": "Flop",
    "street.turn": "Turn",
    "street.river": "River",
}
Line = tuple[str, dict[str, Any]]


def money(cents: int) -> str:
    """Play money as players read it: 1920 -> "$19.20", 200 -> "$2"."""
    whole, part = divmod(cents, 100)
    return f"${whole:,}" if part == 0 else f"${whole:,}.{part:02d}"


def english(key: str, params: dict[str, Any]) -> str:
    """A line in English, as the client's English catalogue writes it."""
    shown: dict[str, Any] = {}
    for name, value in params.items():
        if name == "amount":
            value = money(value)
        elif name == "street":
            value = LINES.get(f"street.{value}", value)
        elif name == "winners":
            value = ", ".join(english("replay.wins", winner) for winner in value)
        elif name == "line":
            value = english(*value)
        elif name in ("high", "hand"):
            value = protocol.HandName.model_validate(value).english()
        shown[name] = value
    return LINES[key].format(**shown)


def narration(hand: Hand, event: Event) -> Line | None:
    """One line of what happened as a catalogue key and its parameters, or None for events a
    viewer does not read."""

    def who(position: int) -> str:
        return hand.names[position] or f"seat {hand.seats[position]}"

    if isinstance(event, ForcedBet):
        kind = _FORCED.get(event.what, "live_post")
        return f"replay.{kind}", {"who": who(event.position), "amount": event.amount}
    if isinstance(event, ActionTaken):
        move = _MOVES[event.action]
        params: dict[str, Any] = {"who": who(event.position)}
        if event.action in (Move.CALL, Move.BET, Move.RAISE):
            params["amount"] = event.added if event.action is Move.CALL else event.to
        return f"replay.{move}" + ("_all_in" if event.all_in else ""), params
    if isinstance(event, BoardDealt):
        cards = " ".join(str(c) for c in event.cards)
        return "replay.board", {"street": event.street, "cards": cards}
    if isinstance(event, SecondBoardDealt):
        cards = " ".join(str(c) for c in event.cards)
        return "replay.second_board", {"street": event.street, "cards": cards}
    if isinstance(event, BombPot):
        return "replay.bomb_pot", {"amount": event.amount}
    if isinstance(event, RunoutAnswered):
        answer = "run_twice" if event.agreed else "run_timeout" if event.timed_out else "run_once"
        return f"replay.{answer}", {"who": who(event.position)}
    if isinstance(event, UncalledBetReturned):
        return "replay.uncalled", {"amount": event.amount, "who": who(event.position)}
    if isinstance(event, CardsShown):
        params = {"who": who(event.position), "cards": " ".join(str(c) for c in event.cards)}
        high = high_name(event.cards, hand.board_cards()) if event.high else None
        if high is not None:
            params["high"] = high.model_dump(mode="json")
        if event.low:
            params["low"] = event.low
        suffix = "_high" * bool(event.high) + "_low" * bool(event.low)
        return f"replay.shows{suffix}", params
    if isinstance(event, HandMucked):
        return "replay.mucks", {"who": who(event.position)}
    if isinstance(event, RakeTaken):
        return "replay.rake", {"amount": event.amount}
    if isinstance(event, PotAwarded):
        pot = "replay.main_pot" if event.pot == 0 else "replay.side_pot"
        share = "" if event.share is PotShare.WHOLE else f"_{event.share}"
        winners = [{"who": who(p), "amount": a} for p, a in event.winners]
        line: Line = (pot + share, {"winners": winners, "pot": event.pot})
        named, low = pot_hand(hand, event)
        if named is not None:
            line = ("replay.with_hand", {"line": line, "hand": named.model_dump(mode="json")})
        if low:
            line = ("replay.with_low", {"line": line, "low": low})
        return ("replay.on_run", {"line": line, "run": event.run}) if event.run else line
    return None


def narrate(hand: Hand, event: Event) -> str | None:
    """One line of what happened in English, or None for events a viewer does not read."""
    found = narration(hand, event)
    return None if found is None else english(*found)


def _frame(
    hand: Hand, viewer: int | None, items: list[Line], last: dict[int, dict[str, Any]]
) -> dict[str, Any]:
    everyone = viewer == EVERYONE  # the floor's replay: every hand, mucked ones included
    view = view_for(hand, None if everyone else viewer)
    over = hand.is_over
    # The pots in the middle without this round's bets (in front of the seats), as the
    # table's own frames count them (server/tables/views.py).
    collected = build_pots(
        [live - bet for live, bet in zip(hand.live, hand.bets, strict=True)],
        sum(hand.dead),
        [hand.in_hand(i) for i in range(hand.n)],
    )
    return {
        "lines": [english(*item) for item in items],
        # the same lines for the client's language: {"key": ..., "params": ...} (LINES)
        "items": [{"key": key, "params": params} for key, params in items],
        "street": view.street,
        "board": [str(c) for c in view.board],
        "second_board": [str(c) for c in view.second_board],  # R-RIT-1: run twice
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
                "cards": [str(c) for c in hand.hole_cards(s.position)]
                if everyone
                else None
                if s.cards is None
                else [str(c) for c in s.cards],
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
    """Every step of a finished hand as ``view``'s viewer saw it (EVERYONE: the floor, who
    sees every card)."""
    viewer = view.viewer
    if viewer not in (None, EVERYONE) and not 0 <= viewer < view.hand.n:
        raise ValueError(
            f"the replayer shows a hand to a player, a spectator or the floor, not {viewer}"
        )
    ended = view.hand
    steps = Hand.steps(ended.setup, ended.log)
    hand = next(steps)
    frames = []
    seen = 0
    last: dict[int, dict[str, Any]] = {}  # seat -> what it did last this street
    blinds: dict[ForcedBetKind, int] = {}

    def lines() -> list[Line]:
        nonlocal seen, last
        new = hand.events[seen:]
        seen = len(hand.events)
        for e in new:
            if isinstance(e, (ActionTaken, ForcedBet, BoardDealt)):
                last = note_action(last, e)
            if isinstance(e, ForcedBet):
                blinds.setdefault(e.what, e.seat)
        return [line for e in new if (line := narration(hand, e)) is not None]

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
