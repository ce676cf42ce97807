"""All my hands holds a player's tournament hands beside their cash hands: each says its
event (id and name) and is in chips, and a range of both downloads as one PokerStars-style
file (a tournament hand with the tournament's header) and one .phhs (a tournament hand with
the standard's tournament fields), with only the player's own hole cards unless another's
were shown (S-VIEW-1, S-EXPORT-1); the player's tournaments list the event with their place
and prize."""

from __future__ import annotations

import asyncio
import tomllib

import httpx

from pokerroom.server.tables.room import TableConfig
from tests.helpers.audit import assert_books_balance
from tests.helpers.room_tables import play_at
from tests.helpers.tournaments import Fast
from tests.helpers.tournaments import person as tournament_player
from tests.server.conftest import Server, person


async def test_tournament_hands_are_listed_in_chips_and_exported_beside_cash_hands(
    server: Server,
) -> None:
    ann = await person(server.base, "ann_all")
    bob = await person(server.base, "bob_all")
    hall = server.app.state.tournaments
    hall.clock, hall.speed = Fast(30), 30
    runner = await hall.create("sng_heads_up")
    results = await asyncio.wait_for(
        asyncio.gather(
            *(tournament_player(server, runner.id, p.name, {"token": p.token}) for p in (ann, bob))
        ),
        timeout=600,
    )
    places = {p.name: r.place for p, r in zip((ann, bob), results, strict=True)}
    assert sorted(places.values()) == [1, 2]
    await server.room.open_table(
        TableConfig("cash-all", "Cash Room", "titan", "holdem", "no_limit", 200, 6)
    )
    for someone, seat in ((ann, 1), (bob, 3)):
        await someone.send(type="watch", table="cash-all")
        await someone.send(type="join", table="cash-all", seat=seat, buy_in=10_000, request="j")
    await asyncio.gather(play_at(ann, "cash-all", 3), play_at(bob, "cash-all", 3))

    t, s = runner.t, runner.t.structure
    number = int(runner.id.rsplit("-", 1)[1])
    headers = {"Authorization": f"Bearer {ann.token}"}
    async with httpx.AsyncClient(base_url=server.base, headers=headers, timeout=60) as http:
        hands = (await http.get("/api/hands", params={"limit": 500})).json()
        bobs = (
            await http.get(
                "/api/hands",
                params={"limit": 500},
                headers={"Authorization": f"Bearer {bob.token}"},
            )
        ).json()
        ids = ",".join(str(h["id"]) for h in hands)
        text = (await http.get("/api/my-hands.txt", params={"ids": ids})).text
        phhs = tomllib.loads((await http.get("/api/my-hands.phhs", params={"ids": ids})).text)
        played = (await http.get("/api/my-tournaments")).json()

    tour = [h for h in hands if h["kind"] == "tournament"]
    cash = [h for h in hands if h["kind"] == "cash"]
    assert tour and cash, hands
    assert all(h["event"] == {"id": runner.id, "name": t.name, "table": 1} for h in tour)
    assert all(h["tournament"] and h["table_name"] == t.name and h["game"] for h in tour)
    assert all(h["event"] is None and not h["tournament"] for h in cash)
    # In chips: her results add up to the chips she won or lost, the starting stack.
    won = s.starting_stack if places["ann_all"] == 1 else -s.starting_stack
    assert sum(h["net"] for h in tour if h["status"] != "cancelled") == won

    # One text file, oldest first: the tournament hands with the tournament's header.
    blocks = text.strip().split("\n\n\n")
    assert "\n\n\n\n" not in text  # two blank lines between hands, as trackers split them
    assert [int(b.split("#", 1)[1].split(":", 1)[0]) for b in blocks] == sorted(
        h["id"] for h in hands
    )
    tournament_ids = {h["id"] for h in tour}
    for block in blocks:
        hand = int(block.split("#", 1)[1].split(":", 1)[0])
        header = block.splitlines()[0]
        assert (f"Tournament #{number}," in header) == (hand in tournament_ids), header
        if hand in tournament_ids:
            assert "$" not in "\n".join(line for line in block.splitlines() if "in chips" in line)
        assert "Dealt to ann_all [" in block or "cancelled" in block
        assert "Dealt to bob_all [" not in block  # S-EXPORT-1
        theirs = next((b["cards"] for b in bobs if b["id"] == hand), [])
        if theirs and "bob_all: shows" not in block:  # bob's cards only once shown
            assert f"[{' '.join(theirs)}]" not in block, block

    # One .phhs: the tournament hands with the event's fields, others' cards hidden.
    entries = [phhs[str(k)] for k in range(1, len(hands) + 1)]
    assert str(len(hands) + 1) not in phhs
    events = [e for e in entries if "event" in e]
    assert sorted(e["hand"] for e in events) == sorted(tournament_ids)
    assert all(e["event"] == t.name and e["_tournament"] == number for e in events)
    for entry in entries:
        k = entry["players"].index("bob_all") + 1
        dealt = next(a for a in entry["actions"] if a.startswith(f"d dh p{k} "))
        shown = any(a.startswith(f"p{k} sm ") for a in entry["actions"])
        assert dealt.endswith("????") or shown, entry["actions"]

    # Her tournaments: the event, her place and her prize (money).
    assert [p["id"] for p in played] == [runner.id]
    (event,) = played
    assert event["name"] == t.name and event["status"] == "finished"
    assert event["place"] == places["ann_all"] and event["entries"] == 2
    assert event["prize"] == (t.prize_pool if places["ann_all"] == 1 else 0)
    await assert_books_balance(server)
