"""The JSON forms of what a table's snapshot holds (``Table.to_json``, ``Table.from_json``;
the server stores it after every change and restores it after a restart), which a hand's
record and a tournament's state write too: the game, the house options, a hand's setup and
its log of actions, and the text they are written as.

A hand in progress is written as its setup (``HandSetup``, less the game and house, which
are the table's) and its log of actions, and read back with ``Hand.replay``. ``version`` 2
writes the whole setup; snapshots written before it (no version) name only the positions,
stacks, blinds, posts and deck, and the rest is the table's defaults, as when they were
dealt.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

import orjson

from pokerroom.engine.actions import Action, ActionKind
from pokerroom.engine.hand import Hand
from pokerroom.engine.setup import ExtraPost, HandSetup, Player
from pokerroom.rules.game import GameSpec, Stakes, Structure, Variant
from pokerroom.rules.house import HouseOptions

VERSION = 2


def json_text(data: Any) -> str:
    """``data`` as JSON text that reads back (``json.loads``) as ``json.dumps(data)`` does,
    written by orjson (compact, UTF-8 kept): a table's snapshot and a hand's record are
    written at every hand of every table, on the tables' loop, and stdlib json
    cost several times more. A value orjson refuses (a key that is not a string, an integer
    past 64 bits) is written by ``json.dumps``. Not for text that is hashed or compared
    with text written before: only for what is read back as data."""
    try:
        return orjson.dumps(data).decode()
    except orjson.JSONEncodeError:
        return json.dumps(data)


def spec_json(spec: GameSpec) -> dict[str, Any]:
    return {
        "variant": spec.variant.value,
        "structure": spec.structure.value,
        "stakes": asdict(spec.stakes),
    }


def spec_from_json(raw: dict[str, Any]) -> GameSpec:
    return GameSpec(
        variant=Variant(raw["variant"]),
        structure=Structure(raw["structure"]),
        stakes=Stakes(**raw["stakes"]),
    )


def log_json(log: list[tuple[int, Action]]) -> list[tuple[int, str, int]]:
    """A hand's log as (position, kind, amount); a kind is a StrEnum: its own JSON."""
    return [(position, action.kind, action.amount) for position, action in log]


def log_from_json(raw: list[list[Any]]) -> list[tuple[int, Action]]:
    return [(position, Action(ActionKind(kind), amount=amount)) for position, kind, amount in raw]


def setup_json(setup: HandSetup) -> dict[str, Any]:
    """A hand's setup less its game and house (``spec_json``, ``house_json``)."""
    return {
        "positions": list(setup.seats),
        "names": [p.name for p in setup.players],
        "stacks": list(setup.stacks),
        "blinds": list(setup.blinds),
        "antes": list(setup.antes),
        "ante_trimming": setup.ante_trimming,
        "posts": [[p.position, p.live, p.dead] for p in setup.posts],
        "deck": list(setup.deck),
        "auto_showdown": setup.auto_showdown,
        "cash_table": setup.cash_table,
        "bomb_pot": setup.bomb_pot,
    }


def setup_from_json(
    raw: dict[str, Any], spec: GameSpec, house: HouseOptions, names: list[str] | None = None
) -> HandSetup:
    """The setup ``setup_json`` wrote, dealt with ``spec`` under ``house``."""
    return HandSetup(
        spec=spec,
        house=house,
        players=_players(raw, raw["names"] if names is None else names),
        deck=tuple(raw["deck"]),
        blinds=tuple(raw["blinds"]),
        antes=tuple(raw["antes"]),
        ante_trimming=bool(raw["ante_trimming"]),
        posts=_posts(raw),
        auto_showdown=bool(raw["auto_showdown"]),
        cash_table=bool(raw["cash_table"]),
        bomb_pot=int(raw.get("bomb_pot", 0)),  # absent before R-BOMB-1
    )


def _players(raw: dict[str, Any], names: list[str]) -> tuple[Player, ...]:
    return tuple(
        [
            Player(seat=n, stack=stack, name=name)
            for n, stack, name in zip(raw["positions"], raw["stacks"], names, strict=True)
        ]
    )


def _posts(raw: dict[str, Any]) -> tuple[ExtraPost, ...]:
    return tuple([ExtraPost(position=p, live=lv, dead=d) for p, lv, d in raw["posts"]])


def restored_setup(
    raw: dict[str, Any], spec: GameSpec, house: HouseOptions, names: list[str]
) -> HandSetup:
    """The setup a table's snapshot holds for its hand in progress (``setup_json``), or an
    older snapshot's, dealt with the defaults it was dealt with then."""
    if "antes" in raw:
        return setup_from_json(raw, spec, house, names)
    return Hand(
        spec=spec,
        players=_players(raw, names),
        house=house,
        deck=raw["deck"],
        blinds=raw["blinds"],
        posts=_posts(raw),
    ).setup


# House options as JSON, by the options' identity: they never change (frozen), and a table's
# snapshot, written as every hand starts and ends, has them whole (``asdict`` deep-copies
# every value: a few per cent of a busy room's CPU). Callers only serialise it.
_HOUSES: dict[int, tuple[HouseOptions, dict[str, Any]]] = {}


def house_json(house: HouseOptions) -> dict[str, Any]:
    """``house`` as JSON data (shared between calls: serialise it, never change it)."""
    known = _HOUSES.get(id(house))
    if known is not None and known[0] is house:
        return known[1]
    data = _house_json(house)
    if len(_HOUSES) > 1000:  # bounded: a long-lived room loads few house files
        _HOUSES.clear()
    _HOUSES[id(house)] = (house, data)
    return data


def _house_json(house: HouseOptions) -> dict[str, Any]:
    data = asdict(house)
    data["games"] = [f"{v.value}/{s.value}" for v, s in house.games]
    data["seat_choices"] = list(house.seat_choices)
    data["notes"] = list(house.notes)
    return data
