"""What the frames a person received show: cards of other seats sent before they were shown, one
frame of a kind."""

from __future__ import annotations

import random

from pokerroom.engine.actions import Action, ActionKind
from pokerroom.engine.hand import Hand, Phase
from pokerroom.table import Table
from tests.helpers.hands import deal, spec


def leaked(frames: list[dict], me: int | None) -> list[tuple[int, list[str]]]:
    """Seats other than mine whose cards were sent before they were shown."""
    out = []
    for frame in frames:
        if frame.get("type") != "table":
            continue
        for seat in frame["seats"]:
            if seat.get("cards") and seat["seat"] != frame.get("you") and not seat.get("shown"):
                out.append((seat["seat"], seat["cards"]))
    return out


def pick(table: Table, rng: random.Random) -> Action:
    assert table.hand is not None
    legal = table.hand.legal_actions()
    roll = rng.random()
    if roll < 0.15 and legal.call_amount:
        return Action(ActionKind.FOLD)
    if roll < 0.4 and legal.max_raise_to is not None:
        high = roll < 0.25  # all in (no limit) or the most the structure allows
        return Action(ActionKind.BET_OR_RAISE, legal.max_raise_to if high else legal.min_raise_to)
    return Action(ActionKind.CHECK_OR_CALL)


def hilo_all_in_hand() -> Hand:
    """Omaha Hi-Lo at $1/$2, three players all in preflop with $6, $14 and $50: a side pot
    and the main pot, each split high and low, the cards shown before the board is out."""
    game = spec("omaha_hilo", "fixed_limit", sb=100, bb=200)
    holes = ["As2d9c9h", "KhKcQdJd", "3c4dTsTh"]
    hand = deal([600, 1400, 5000], game=game, hole=holes, board="5h6s8cKsQh")
    while hand.phase is Phase.BETTING and hand.actor is not None:  # raise while one can
        legal = hand.legal_actions()
        if legal.min_raise_to is not None:
            hand.apply(Action(ActionKind.BET_OR_RAISE, legal.min_raise_to))
        else:
            hand.apply(Action(ActionKind.CHECK_OR_CALL, 0))
    return hand
