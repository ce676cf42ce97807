"""S-VIEW-1 on the wire: every frame sent to every client over more than 1,000 bot hands
(``make test-all``; ``make test`` plays 180 hands of bots that often go all in, so that most
reach a showdown with all-ins and side pots), and no hole card of another player in any of
them before it was shown. S-EXPORT-1 after them: every export of every one of those hands,
for every player, holds no card that the player's frames did not show them."""

from __future__ import annotations

import asyncio
import random
import tomllib
from collections import defaultdict
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from pokerroom.bots.client import run_bot
from pokerroom.bots.strategy import RuleBot, Situation
from pokerroom.engine.actions import Action, ActionKind
from pokerroom.history.record import read_record
from pokerroom.server.tables.room import TableConfig
from pokerroom.store.models import HandPlayer, HandRecord
from tests.helpers.audit import assert_books_balance
from tests.helpers.cards import cards_in
from tests.helpers.repeats import fast_and_full
from tests.server.conftest import Server

PASSWORD = "viewer password"  # given to run_bot, to fetch the exports as each bot

TABLES = 3
BOTS_PER_TABLE = 4


class ShovingBot(RuleBot):
    """A rule bot that, at one decision in three, goes all in when it may raise and calls
    when it may not: showdowns of all-in players, side pots, busts and rejoins come often."""

    name = "shoving"

    def decide(self, situation: Situation) -> Action:
        legal = situation.legal
        if self.rng.random() < 1 / 3:
            if legal.can_raise and legal.max_raise_to is not None:
                return Action(ActionKind.BET_OR_RAISE, amount=legal.max_raise_to)
            return Action(ActionKind.CHECK_OR_CALL)
        return super().decide(situation)


# Hands a table and how its bots play: 60 of shoving bots in make test, 340 of rule bots
# (1,020 hands in all) in make test-all.
TIERS = fast_and_full((60, ShovingBot), (340, RuleBot))


@pytest.mark.parametrize("tier", TIERS)
async def test_S_VIEW_1_no_hole_card_of_another_player_before_showdown(
    server: Server, tier: tuple[int, type[RuleBot]]
) -> None:
    hands_per_table, bot = tier
    least = TABLES * hands_per_table - 20  # hands dealt at least (a table may stop short)
    frames: dict[str, list[dict[str, Any]]] = {}
    tasks = []
    for t in range(TABLES):
        table = f"v{t}"
        await server.room.open_table(
            TableConfig(
                table, table, "titan", ["holdem", "omaha", "omaha_hilo"][t], "no_limit", 200, 6
            )
        )
        for k in range(BOTS_PER_TABLE):
            name = f"viewer{t}_{k}"
            frames[name] = []
            tasks.append(
                run_bot(
                    server.base,
                    name,
                    bot(random.Random(k)),
                    table=table,
                    password=PASSWORD,
                    hands=hands_per_table,
                    rng=random.Random(t * 10 + k),
                    on_frame=frames[name].append,
                )
            )
    await asyncio.wait_for(asyncio.gather(*tasks), timeout=600)
    dealt = dict.fromkeys(range(TABLES), 0)
    for name, received in frames.items():
        table = int(name[len("viewer")])
        for frame in received:
            if frame.get("type") == "hand_result":
                dealt[table] = max(dealt[table], frame["hand"])
            if frame.get("type") != "table":
                continue
            you = frame.get("you")
            for seat in frame["seats"]:
                if seat["seat"] != you and seat.get("cards") is not None:
                    assert seat.get("shown"), f"{name} saw seat {seat['seat']}'s {seat['cards']}"
            mine = next((s for s in frame["seats"] if s["seat"] == you), None)
            if mine is not None and mine.get("in_hand"):
                assert mine["cards"], f"{name} was not shown its own cards"
    assert sum(dealt.values()) >= least, dealt
    assert sum(len(r) for r in frames.values()) > 10 * least
    await exports_hold_only_what_each_player_saw(server, frames, least)
    await assert_books_balance(server)  # S-AUDIT-2


def seen_in_frames(received: list[dict[str, Any]]) -> dict[int, set[str]]:
    """Hand number -> every card the frames showed this player during or after that hand."""
    seen: dict[int, set[str]] = defaultdict(set)
    for frame in received:
        if frame.get("type") == "table" and frame.get("hand"):
            cards = seen[frame["hand"]["number"]]
            cards.update(frame["hand"]["board"])
            for seat in frame["seats"]:
                cards.update(seat.get("cards") or ())
        elif frame.get("type") == "hand_result":
            cards = seen[frame["hand"]]
            cards.update(frame["board"])
            for shown in frame["shown"]:
                cards.update(shown["cards"])
    return seen


async def own_cards(server: Server) -> dict[tuple[int, int], set[str]]:
    """(hand id, account) -> that player's own hole cards, from the room's full record."""
    own: dict[tuple[int, int], set[str]] = {}
    async with server.room.db.transaction() as session:
        rows = (await session.execute(select(HandRecord, HandPlayer).join(HandPlayer))).all()
    for record, player in rows:
        if record.record:
            hand = read_record(record.record)
            own[record.id, player.account_id] = {str(c) for c in hand.hole_cards(player.position)}
    return own


async def exports_hold_only_what_each_player_saw(
    server: Server, frames: dict[str, list[dict[str, Any]]], least: int
) -> None:
    own = await own_cards(server)
    checked = 0
    async with httpx.AsyncClient(base_url=server.base, timeout=60) as http:
        for name, received in frames.items():
            table = f"v{name[len('viewer')]}"
            seen = seen_in_frames(received)
            login = await http.post("/api/login", json={"username": name, "password": PASSWORD})
            me = login.json()
            http.headers["Authorization"] = f"Bearer {me['token']}"
            played = (await http.get("/api/hands", params={"table": table, "limit": 500})).json()
            # What a player could see is what their frames showed, so only hands they watched
            # to the end count: not one dealt as they left (the bot closes its socket then).
            ended = {f["hand"] for f in received if f.get("type") == "hand_result"}
            hands = [hand for hand in played if hand["number"] in ended]
            assert len(played) - len(hands) <= 1, (name, len(played), len(hands))
            numbers = {hand["number"]: hand["id"] for hand in hands}
            if any((hand["id"], me["account_id"]) not in own for hand in hands):
                own = await own_cards(server)  # a hand that ended since: the room plays on
            for hand in hands:
                allowed = seen[hand["number"]] | own[hand["id"], me["account_id"]]
                for path in (".phh", ".txt", "/replay"):
                    response = await http.get(f"/api/hands/{hand['id']}{path}")
                    assert response.status_code == 200, (name, hand, path, response.text)
                    leaked = cards_in(response.text) - allowed
                    assert not leaked, f"{name}'s hand {hand['id']}{path} holds {leaked}"
                    checked += 1
            session = await http.get(f"/api/sessions/{table}.phhs", params={"limit": 1000})
            assert session.status_code == 200, (name, session.text)
            stored = tomllib.loads(session.text)
            assert len(stored) == len(played)
            by_id = {hand_id: number for number, hand_id in numbers.items()}
            for one in stored.values():  # each hand by its id (its one number)
                if one["hand"] not in by_id:
                    continue
                allowed = seen[by_id[one["hand"]]] | own[one["hand"], me["account_id"]]
                leaked = cards_in(" ".join(one["actions"])) - allowed
                assert not leaked, f"{name}'s session file, hand {one['hand']}, holds {leaked}"
    assert checked >= 3 * 2 * least  # three exports of every hand for two players at least
