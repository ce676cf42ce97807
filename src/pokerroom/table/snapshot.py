"""A table as JSON and back, a hand in progress included (the server stores it after every
change and restores it after a restart).

The hand is written as its setup (``HandSetup``, less the game and house, which are the
table's) and its log of actions, and read back with ``Hand.replay``. ``version`` 2 writes
the whole setup; snapshots written before it (no version) name only the positions, stacks,
blinds, posts and deck, and the rest is the table's defaults, as when they were dealt.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

import orjson

from pokerroom.engine.actions import Action, ActionKind
from pokerroom.engine.errors import HandError
from pokerroom.engine.hand import Hand
from pokerroom.engine.setup import ExtraPost, HandSetup, Player
from pokerroom.rng import RandomSource
from pokerroom.rules.game import GameSpec, Stakes, Structure, Variant
from pokerroom.rules.house import HouseOptions, parse_house
from pokerroom.table.errors import TableError
from pokerroom.table.seats import Seat
from pokerroom.table.table import Table
from pokerroom.table.waiting import WaitingList

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


def table_to_json(table: Table) -> str:
    spec = table.spec
    hand = table.hand
    data = {
        "version": VERSION,
        "spec": spec_json(spec),
        "house": house_json(table.house),
        "max_seats": table.max_seats,
        "name": table.name,
        "tournament": table.tournament,
        "seats": [s.to_json() for s in table.seats.values()],
        "waiting_list": table.waiting.to_json(),
        "hand_number": table.hand_number,
        "previous": [table.previous_big, table.previous_small, table.previous_button],
        "rake_total": table.rake_total,
        "bomb_pot_next": table.bomb_pot_next,
        "joined": table.joined,
        "first_again": table.first_again,
        "timer": table.clock.to_json(),
        "hand": (
            {
                "setup": setup_json(hand.setup),
                "before": table.hand_before,
                "log": log_json(hand.log),
            }
            if hand is not None and not hand.is_over
            else None
        ),
    }
    return json_text(data)


def table_from_json(text: str, *, rng: RandomSource | None = None) -> Table:
    data = json.loads(text)
    spec = spec_from_json(data["spec"])
    house = parse_house(data["house"], data["house"].get("name", "restored"))
    table = Table(
        spec=spec,
        house=house,
        seats=data["max_seats"],
        rng=rng,
        name=data["name"],
        tournament=bool(data.get("tournament", False)),  # absent before tournaments
    )
    for raw in data["seats"]:
        seat = Seat.from_json(raw)
        table.seats[seat.number] = seat
        table._seat_by_player[seat.player] = seat
    table.waiting = WaitingList.from_json(data["waiting_list"])
    table.hand_number = data["hand_number"]
    table.previous_big, table.previous_small, table.previous_button = data["previous"]
    table.rake_total = data["rake_total"]
    table.bomb_pot_next = data.get("bomb_pot_next", 0)  # absent before R-BOMB-1
    table.joined = data["joined"]
    table.first_again = data.get("first_again")  # absent in tables saved before it
    table.clock.restore(data["timer"])
    raw_hand = data["hand"]
    if raw_hand is not None:
        raw_setup = raw_hand["setup"]
        # Before version 2 the cancel record sat inside the setup.
        table.hand_before = raw_hand.get("before", raw_setup.get("before"))
        setup = _setup_from_json(raw_setup, table, spec, house)
        table.hand_seats = list(setup.seats)
        log = log_from_json(raw_hand["log"])
        try:
            table.hand = Hand.replay(setup, log)
        except HandError as error:  # pragma: no cover - a corrupt file
            raise TableError(f"cannot restore the hand: {error}") from None
    return table


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


def _setup_from_json(
    raw: dict[str, Any], table: Table, spec: GameSpec, house: HouseOptions
) -> HandSetup:
    names = raw.get("names") or [table.seats[n].name for n in raw["positions"]]
    if "antes" in raw:
        return setup_from_json(raw, spec, house, names)
    # An older snapshot: the hand the table dealt then, with the defaults it dealt it with.
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
