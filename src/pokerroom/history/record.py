"""A finished hand as the room stores it: the one record every export is read back from.

A hand is stored once, as what rebuilds it: its ``HandSetup`` (the game, the house, the
players and stacks, the deck, the blinds and posts), its log of actions, and its result
(the stacks after it, the rake, and the reason if it was cancelled). Reading it back is
``Hand.replay`` of the setup and log, checked against the result; the PHH text, the
PokerStars text, the replayer and every per-player view are derived from the hand it gives
(through ``viewer_hand``, S-EXPORT-1), so what is read back is exactly what was stored
(S-AUDIT-1: the hand replays to the same final stacks, or reading it fails).

``version`` 1 is this record; a hand interrupted by a crash stores only the reason it was
cancelled (no setup: it never ended). ``version`` 0 wraps the PHH text a hand was stored as
before records (store migration 0007), read back through PHH.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from pokerroom.engine.errors import HandError
from pokerroom.engine.events import HandCancelled
from pokerroom.engine.hand import Hand, Phase
from pokerroom.history.phh import PHHError, load_text, replay
from pokerroom.rules.errors import RulesError
from pokerroom.rules.game import GameSpec
from pokerroom.rules.house import HouseOptions, parse_house
from pokerroom.table.snapshot import (
    house_json,
    json_text,
    log_from_json,
    log_json,
    setup_from_json,
    setup_json,
    spec_from_json,
    spec_json,
)

VERSION = 1


class RecordError(ValueError):
    """A stored hand that cannot be read back, with the reason."""


@cache
def _game_text(spec: GameSpec) -> str:
    return json.dumps(spec_json(spec))


@cache
def _house_text(house: HouseOptions) -> str:
    return json.dumps(house_json(house))


def hand_record(hand: Hand) -> str:
    """The record of a hand that is over (complete or cancelled), as JSON text.

    Written when the hand ends, on the table's own path: the game and house, the same for
    every hand at a table, are written to text once each and reused.
    """
    if not hand.is_over:
        raise RecordError(f"a hand is recorded when it is over, not {hand.phase.value}")
    cancelled = cancel_reason(hand)
    rest = json_text(
        {
            "setup": setup_json(hand.setup),
            "log": log_json(hand.log),
            "result": {"stacks": hand.stacks, "rake": hand.rake, "cancelled": cancelled},
        }
    )
    game, house = _game_text(hand.spec), _house_text(hand.house)
    return f'{{"version": {VERSION}, "game": {game}, "house": {house}, {rest[1:]}'


def cancel_reason(hand: Hand) -> str | None:
    """Why a cancelled hand was cancelled (R-DECK-5); None for a hand that was not."""
    if hand.phase is not Phase.CANCELLED:
        return None
    last = hand.events[-1]
    return last.reason if isinstance(last, HandCancelled) else ""


def interrupted_record(reason: str) -> str:
    """The record of a hand cut off before it ended (a crash): only why it was cancelled."""
    return json.dumps({"version": VERSION, "result": {"cancelled": reason}})


def phh_record(phh: str) -> str:
    """A hand stored as PHH text before records (``version`` 0)."""
    return json.dumps({"version": 0, "phh": phh})


def read_record(text: str) -> Hand:
    """The hand a record holds, rebuilt by ``Hand.replay`` and checked against its result."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(f"not a hand record: {error}") from None
    if not isinstance(data, dict):
        raise RecordError("not a hand record: not a JSON object")
    version = data.get("version")
    try:
        if version == VERSION:
            return _read(data)
        if version == 0:
            return _read_phh(data)
    except (HandError, RulesError, KeyError, TypeError, ValueError) as error:
        if isinstance(error, RecordError):
            raise
        raise RecordError(f"the hand does not replay: {type(error).__name__}: {error}") from None
    raise RecordError(f"a hand record of version {version!r}; this room reads 0 and {VERSION}")


def _read(data: dict[str, Any]) -> Hand:
    result = data["result"]
    if "setup" not in data:
        raise RecordError(f"the hand was interrupted ({result['cancelled']}): nothing to replay")
    spec = spec_from_json(data["game"])
    raw_house = data["house"]
    house = parse_house(raw_house, raw_house.get("name", "stored"))
    hand = Hand.replay(setup_from_json(data["setup"], spec, house), log_from_json(data["log"]))
    if result["cancelled"] is not None:
        hand.cancel(result["cancelled"])
    if not hand.is_over:
        raise RecordError("the log ends before the hand does")
    if hand.stacks != result["stacks"] or hand.rake != result["rake"]:
        raise RecordError(
            f"the hand replays to stacks {hand.stacks} and rake {hand.rake}, but ended with"
            f" {result['stacks']} and rake {result['rake']}"
        )
    return hand


def _read_phh(data: dict[str, Any]) -> Hand:
    try:
        replayed = replay(load_text(data["phh"])[0])
    except PHHError as error:
        raise RecordError(f"the hand's PHH does not replay: {error}") from None
    if replayed.expected is not None and replayed.expected != replayed.finishing_stacks:
        raise RecordError(
            f"the hand's PHH replays to stacks {replayed.finishing_stacks}, not {replayed.expected}"
        )
    return replayed.hand
