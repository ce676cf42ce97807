"""A tournament's downloads in a running room: a heads-up sit & go played to the
end by two players; each stored hand's PokerStars text carries the tournament header and is
in chips, its PHH the standard's tournament fields; each player's summary gives the places
and theirs; a hand shows only its viewer's hole cards (S-EXPORT-1)."""

from __future__ import annotations

import asyncio
import re
import tomllib
from datetime import UTC, datetime, timedelta

import httpx

from pokerroom.history.pokerstars import eastern
from tests.helpers.accounts import signup
from tests.helpers.audit import assert_books_balance
from tests.helpers.tournaments import Fast, person
from tests.helpers.waiting import eventually
from tests.server.conftest import Server


async def test_a_sit_and_gos_hands_and_summary_download_as_tournament_histories(
    server: Server,
) -> None:
    hall = server.app.state.tournaments
    hall.clock, hall.speed = Fast(30), 30
    runner = await hall.create("sng_heads_up")
    people = {name: await signup(server.base, name) for name in ("ann_exp", "bob_exp")}
    results = await asyncio.wait_for(
        asyncio.gather(*(person(server, runner.id, n, d) for n, d in people.items())),
        timeout=600,
    )
    assert sorted(r.place for r in results) == [1, 2]
    number = int(runner.id.rsplit("-", 1)[1])
    ann = {"Authorization": f"Bearer {people['ann_exp']['token']}"}
    async with httpx.AsyncClient(base_url=server.base, headers=ann) as http:

        async def stored_to_the_end() -> list[dict[str, object]] | None:
            """The hands once the one that decided the places is stored: the places are
            known as that hand ends, its write is group-committed a moment later."""
            # All of them (50 by default): the first is the one dealt at the starting stacks.
            listed = await http.get("/api/hands", params={"table": f"{runner.id}-1", "limit": 500})
            found: list[dict[str, object]] = listed.json()
            newest = await http.get(f"/api/hands/{found[0]['id']}.txt") if found else None
            return found if newest and "wins the tournament" in newest.text else None

        hands = await eventually(stored_to_the_end, "the deciding hand stored")
        assert hands and len(hands) < 500, "ann played no hand, or more than a page"
        first = hands[-1]["id"]
        text = (await http.get(f"/api/hands/{first}.txt")).text
        phh = (await http.get(f"/api/hands/{first}.phh")).text
        last = (await http.get(f"/api/hands/{hands[0]['id']}.txt")).text
        summary = await http.get(f"/api/tournaments/{runner.id}/summary")
        stranger = await signup(server.base, "cy_exp")
        other = await http.get(
            f"/api/tournaments/{runner.id}/summary",
            headers={"Authorization": f"Bearer {stranger['token']}"},
        )
    lines = text.splitlines()
    s = runner.t.structure
    assert re.match(
        rf"PokerStars Hand #{first}: Tournament #{number}, \$\d+(\.\d\d)?\+\$\d+(\.\d\d)? USD "
        r".* - Level I \(\d+/\d+\) - ",
        lines[0],
    ), lines[0]
    assert lines[1].startswith(f"Table '{number} 1' ")
    seats = [line for line in lines if line.startswith("Seat ") and "in chips" in line]
    assert len(seats) == 2 and all("$" not in line for line in seats), seats
    assert f"({s.starting_stack} in chips)" in seats[0]
    assert any(line.startswith("Dealt to ann_exp [") for line in lines)
    assert not any(line.startswith("Dealt to bob_exp [") for line in lines)  # S-EXPORT-1
    winner = next(n for n, r in zip(people, results, strict=True) if r.place == 1)
    loser = next(n for n in people if n != winner)
    prize = f"${runner.t.prize_pool // 100}.{runner.t.prize_pool % 100:02d}"
    assert f"{loser} finished the tournament in 2nd place" in last  # the places it decided
    assert f"{winner} wins the tournament and receives {prize}" in last, last
    if len(hands) > 1:  # heads-up, the first hand may decide it all
        assert "wins the tournament" not in text
    fields = tomllib.loads(phh)
    assert fields["event"] == runner.t.name and fields["_tournament"] == number
    assert fields["level"] == 1 and fields["table"] == 1 and fields["time_zone"] == "UTC"
    assert fields["starting_stacks"] == [s.starting_stack] * 2
    assert summary.status_code == 200, summary.text
    body = summary.text
    assert body.startswith(f"PokerStars Tournament #{number}, ")
    assert "2 players" in body and "Total Prize Pool: $" in body
    start, ended = runner.t.clock.start, runner.finished_at
    assert start is not None and ended is not None  # when it finished, not when asked
    finished = datetime.fromtimestamp(start, UTC) + timedelta(seconds=ended - start)
    assert f"Tournament finished {eastern(finished)}" in body
    mine = next(r.place for r, name in zip(results, people, strict=True) if name == "ann_exp")
    assert f"You finished in {'1st' if mine == 1 else '2nd'} place." in body
    assert re.search(r"^  1: (ann|bob)_exp \(unknown\), \$", body, re.M), body
    assert other.status_code == 404 and other.json()["code"] == "tournament.did_not_play"
    await assert_books_balance(server)
