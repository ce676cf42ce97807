"""A tournament as JSON and back, for a restart: entries, tables (each with its own
snapshot, a hand in progress included), levels as absolute deadlines, eliminations so far.
After a crash the room restores it and calls ``cancel_hands``: every hand in progress goes
back to its start (R-DECK-5) and the tournament goes on where it was."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

from pokerroom.rng import RandomSource
from pokerroom.rules.house import parse_house
from pokerroom.rules.tournament import TournamentStructure, load_tournament_structure
from pokerroom.table import Table
from pokerroom.table.snapshot import house_json
from pokerroom.tournament.coordinator import Tournament
from pokerroom.tournament.entries import Entry, RebuyOffer
from pokerroom.tournament.events import BountyWon
from pokerroom.tournament.places import Bust

VERSION = 1


def tournament_to_json(t: Tournament) -> str:
    data: dict[str, Any] = {
        "version": VERSION,
        "name": t.name,
        "structure": t.structure.name,
        "house": house_json(t.house),
        "start": t.clock.start,
        "entries": [asdict(e) for e in t.entries.values()],
        "current": t._current,
        "used": t._used,
        "left": t.left,
        "auto_rebuy": sorted(t.auto_rebuy),
        "offers": {e: [o.until, o.group, o.chips, list(o.order)] for e, o in t.offers.items()},
        "tables": {str(n): table.to_json() for n, table in t.tables.items()},
        "held": sorted(t.held),
        "groups": [[[b.entry, b.chips_at_start, list(b.order)] for b in g] for g in t.groups],
        "group_of": t._group_of,
        "hands_in_progress": {
            str(n): [key, chips, {e: list(o) for e, o in order.items()}]
            for n, (key, chips, order) in t._hand.items()
        },
        "level_shown": t.level_shown,
        "closed": t.closed,
        "finished": t.finished,
        "hand_for_hand": t.hand_for_hand,
        "round": t.round,
        "round_dealt": sorted(t._round_dealt),
        "counts": [t.rebuys, t.addons, t.chips_issued, t.hands, t.moves, t.tables_max],
        "max_table_gap": t.max_table_gap,
        "short_hands": t.short_hands,
        "winner": t.winner,
        "deal": t.deal,
        "deal_keep": t.deal_keep,
        "deal_proposed": t.deal_proposed,
        "deals_asked": t.deals_asked,
        "requests": t.requests,
        "seat_winners": t.seat_winners,
        "guarantee": t.guarantee,
        "overlay": t.overlay,
        "bounties": [[b.busted, b.table, b.hand, [list(x) for x in b.shares]] for b in t.bounties],
    }
    return json.dumps(data)


def tournament_from_json(
    text: str, *, rng: RandomSource, structure: TournamentStructure | None = None
) -> Tournament:
    """Rebuild a tournament; a structure that is not a shipped one must be given again."""
    data = json.loads(text)
    shape = structure or load_tournament_structure(data["structure"])
    house = parse_house(data["house"], data["house"].get("name", "restored"))
    t = Tournament(structure=shape, house=house, rng=rng, name=data["name"])
    t.clock.start = data["start"]
    t.entries = {raw["id"]: _entry(raw) for raw in data["entries"]}
    t._current, t._used, t.left = dict(data["current"]), dict(data["used"]), data["left"]
    t.auto_rebuy = set(data["auto_rebuy"])
    t.offers = {  # (absent before it was stored)
        e: RebuyOffer(until, group, chips, tuple(order))
        for e, (until, group, chips, order) in data.get("offers", {}).items()
    }
    t.tables = {int(n): Table.from_json(raw, rng=rng) for n, raw in data["tables"].items()}
    t.held = set(data["held"])
    t.groups = [[Bust(e, c, tuple(o)) for e, c, o in g] for g in data["groups"]]
    t._group_of = dict(data["group_of"])
    t._hand = {
        int(n): (key, dict(chips), {e: tuple(o) for e, o in order.items()})
        for n, (key, chips, order) in data["hands_in_progress"].items()
    }
    t.level_shown, t.closed, t.finished = data["level_shown"], data["closed"], data["finished"]
    t.hand_for_hand, t.round = data["hand_for_hand"], data["round"]
    t._round_dealt = set(data["round_dealt"])
    t.rebuys, t.addons, t.chips_issued, t.hands, t.moves, t.tables_max = data["counts"]
    t.max_table_gap, t.winner = data["max_table_gap"], data["winner"]
    t.short_hands = data.get("short_hands", 0)  # (absent before it was stored)
    t.deal, t.deal_keep = data["deal"], data["deal_keep"]
    t.deal_proposed = data.get("deal_proposed")  # absent before it was stored
    t.deals_asked = dict(data.get("deals_asked", {}))  # (absent before it was stored)
    t.requests = dict(data.get("requests", {}))  # (absent before it was stored)
    t.seat_winners = list(data.get("seat_winners", []))  # (absent before satellites)
    t.guarantee, t.overlay = data.get("guarantee", 0), data.get("overlay", 0)  # (or these)
    t.bounties = [  # (absent before it was stored)
        BountyWon(busted, table, hand, tuple((e, c, a, b) for e, c, a, b in shares))
        for busted, table, hand, shares in data.get("bounties", [])
    ]
    return t


def _entry(raw: dict[str, Any]) -> Entry:
    if "number" not in raw:  # stored before entries kept their number: it is in the id
        number = raw["id"].partition("#")[2]
        raw = {**raw, "number": int(number) if number else 1}
    return Entry(**raw)
