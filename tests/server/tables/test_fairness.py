"""Verifiable shuffles at the table: every hand's deck commitment is in the table frames from
the deal, its reveal reaches the players dealt in only after the hand's result (S-VIEW-1,
R-SHOW-8), never watchers and never for a cancelled hand (R-DECK-5); a player's own seed is
mixed into the next shuffle; the verification file checks out (docs/fairness.md)."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from pokerroom.fairness import verify
from pokerroom.server.http.fairness import shuffle_document
from pokerroom.server.sockets.errors import ApiError
from pokerroom.server.tables.inbox import Void
from pokerroom.store.models import HandPlayer, HandRecord
from tests.helpers.database import rows
from tests.helpers.room_tables import heads_up, tournament_heads_up
from tests.helpers.waiting import eventually
from tests.server.conftest import Person, Server, person

CLOCK = (("decision_seconds", 30), ("warning_after_seconds", 20), ("time_bank_seconds", 0))
MY_SEED = "5eed5eed5eed5eed0123456789abcdef"


def acting(after: int) -> Any:
    return lambda f: f["hand"] is not None and f["hand"]["number"] > after and f["hand"]["actor"]


async def turn_after(ann: Person, after: int) -> dict[str, Any]:
    """The table frame of the first turn of a hand after hand ``after``: the latest frame
    received if it is one (frames already read), else the next one that is."""
    tables = [f for f in ann.frames if f["type"] == "table"]
    if tables and acting(after)(tables[-1]):
        return tables[-1]
    return await ann.until(acting(after))


async def fold_a_hand(ann: Person, bob: Person, table: str, frame: dict[str, Any]) -> int:
    """The player to act in ``frame``'s hand (ann's frame) folds it; its number."""
    number = int(frame["hand"]["number"])
    to_act = ann if frame["hand"]["actor"] == frame["you"] else bob
    await to_act.send(type="act", table=table, action="fold", hand=number)
    return number


async def my_hand(server: Server, someone: Person, table: str, number: int) -> dict[str, Any]:
    """Hand ``number`` at ``table`` in ``someone``'s list of hands."""
    async with httpx.AsyncClient(base_url=server.base) as http:
        response = await http.get(
            "/api/hands",
            params={"table": table},
            headers={"Authorization": f"Bearer {someone.token}"},
        )
    (hand,) = [h for h in response.json() if h["number"] == number]
    return dict(hand)


async def reveal_received(someone: Person, number: int) -> dict[str, Any]:
    """Hand ``number``'s reveal, read from ``someone``'s socket if not received yet."""
    while True:
        for frame in someone.frames:
            if frame["type"] == "deck_reveal" and frame["hand"] == number:
                return frame
        await someone.next("deck_reveal")


def result_then_reveal(frames: list[dict[str, Any]], number: int) -> dict[str, Any]:
    """Hand ``number``'s reveal, checked against every frame before it: the commitments in
    every table frame of the hand are the reveal's, the seed was committed (``next_seed``)
    before the hand was dealt, and nothing names the server seed before the hand's result."""
    (reveal_at,) = [
        k for k, f in enumerate(frames) if f["type"] == "deck_reveal" and f["hand"] == number
    ]
    reveal = frames[reveal_at]
    (result_at,) = [
        k for k, f in enumerate(frames) if f["type"] == "hand_result" and f["hand"] == number
    ]
    assert result_at == reveal_at - 1  # right after the result, never before it
    in_hand = [
        f for f in frames[:result_at] if f["type"] == "table" and (f["hand"] or {}).get("number")
    ]
    this_hand = [f for f in in_hand if f["hand"]["number"] == number]
    assert this_hand, "no table frame of the hand"
    for frame in this_hand:
        assert frame["hand"]["commitment"] == reveal["commitment"]
        assert frame["hand"]["seed_commitment"] == reveal["seed_commitment"]
    first = frames.index(this_hand[0])
    assert any(
        f["type"] == "table" and f["next_seed"] == reveal["seed_commitment"] for f in frames[:first]
    ), "the hand's seed was not committed before it was dealt"
    for frame in frames[:result_at]:
        assert reveal["server_seed"] not in json.dumps(frame), frame
    return reveal


async def heads_up_at(server: Server, kind: str) -> tuple[str, Person, Person, int]:
    """Ann and bob dealt in heads up at a table of ``kind``: a cash table, or a sit & go's
    (the coordinator deals it from the same verifiable shuffles); and the last hand dealt
    before they saw the table. A sit & go deals as it fills, before its table can be
    watched: its first hand is folded, the next one's seed was committed in their sight."""
    if kind == "cash":
        ann, bob = await heads_up(server, "fair1", CLOCK)
        return "fair1", ann, bob, 0
    table, ann, bob = await tournament_heads_up(server)
    return table, ann, bob, await fold_a_hand(ann, bob, table, await turn_after(ann, 0))


@pytest.mark.parametrize("kind", ["cash", "tournament"])
async def test_commitment_at_the_deal_reveal_after_the_result_with_my_seed(
    server: Server, kind: str
) -> None:
    table, ann, bob, seen = await heads_up_at(server, kind)
    cat = await person(server.base, "cat")  # a watcher
    await cat.send(type="watch", table=table)
    # A seed for a commitment that is not the next shuffle's is refused, saying so.
    await ann.send(type="seed", table=table, seed=MY_SEED, commitment="ab" * 32)
    error = await ann.next("error")
    assert "send it again" in error["message"] and error["table"] == table
    # A watcher adds no seed.
    frame = await cat.next("table")
    await cat.send(type="seed", table=table, seed=MY_SEED, commitment=frame["next_seed"])
    assert "take a seat" in (await cat.next("error"))["message"]
    # Ann seeds the next shuffle as the table frame of a hand in progress commits it.
    playing = await turn_after(ann, seen)
    await ann.send(type="seed", table=table, seed=MY_SEED, commitment=playing["next_seed"])
    first = await fold_a_hand(ann, bob, table, playing)
    second = await fold_a_hand(ann, bob, table, await turn_after(ann, first))
    await reveal_received(ann, second)
    reveal_one = result_then_reveal(ann.frames, first)
    reveal_two = result_then_reveal(ann.frames, second)
    assert reveal_one["client_seeds"] == []
    assert reveal_two["client_seeds"] == [MY_SEED]
    assert reveal_two["seed_commitment"] == playing["next_seed"]
    assert reveal_one["seed_commitment"] != reveal_two["seed_commitment"]  # a new seed a hand
    for reveal in (reveal_one, reveal_two):
        verify({**reveal, "format": reveal["format"]}, my_seed=None)
    verify(reveal_two, my_seed=MY_SEED)
    # Bob, dealt in too, has the same reveal; Cat, watching, has none: after hand two's
    # result the next frame she receives is a table frame.
    assert await reveal_received(bob, second) == reveal_two
    while (frame := await cat.next("hand_result"))["hand"] != second:
        pass
    after = await cat.ws.recv()
    assert json.loads(after)["type"] == "table", after
    assert not [f for f in cat.frames if f["type"] == "deck_reveal"]

    # The verification file: Ann's, with her own cards found in the deck; nobody else's.
    hand_id = (await my_hand(server, ann, table, second))["id"]
    assert hand_id == reveal_two["hand_id"]
    async with httpx.AsyncClient(base_url=server.base) as http:
        url = f"/api/hands/{hand_id}/shuffle.json"
        response = await http.get(url, headers={"Authorization": f"Bearer {ann.token}"})
        assert response.status_code == 200, response.text
        document = response.json()
        verified = verify(document, my_seed=MY_SEED)
        assert any("your cards" in line for line in verified.checks)
        assert document["deck"] == reveal_two["deck"]
        assert document["commitment"] == reveal_two["commitment"]
        watcher = await http.get(url, headers={"Authorization": f"Bearer {cat.token}"})
        assert watcher.status_code == 404


async def test_R_DECK_5_a_cancelled_hands_deck_is_never_revealed(server: Server) -> None:
    table = "fair2"
    ann, bob = await heads_up(server, table, CLOCK)
    playing = await ann.until(lambda f: f["hand"] is not None)
    number = playing["hand"]["number"]
    assert playing["hand"]["commitment"]
    answer = await server.room.actors[table].call(Void, "a misdeal")
    assert answer == {"voided": number}
    while (result := await ann.next("hand_result"))["hand"] != number:
        pass
    assert result["cancelled"]
    after = json.loads(await ann.ws.recv())
    assert after["type"] == "table", after  # no deck_reveal after the cancelled result
    cancelled = await my_hand(server, ann, table, number)
    assert cancelled["status"] == "cancelled"
    async with httpx.AsyncClient(base_url=server.base) as http:
        response = await http.get(
            f"/api/hands/{cancelled['id']}/shuffle.json",
            headers={"Authorization": f"Bearer {ann.token}"},
        )
        assert response.status_code == 409
        assert "never revealed" in response.json()["detail"]
    await bob.ws.close()


async def test_R_DECK_5_a_tournament_hand_cancelled_by_a_fault_is_never_revealed(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    table, ann, bob, seen = await heads_up_at(server, "tournament")
    playing = await turn_after(ann, seen)
    number = int(playing["hand"]["number"])
    assert playing["hand"]["commitment"]

    async def broken(*args: Any) -> None:
        raise RuntimeError("a bug in the table's logic")

    monkeypatch.setattr(server.room.actors[table], "_act", broken)  # a fault in the hand
    await fold_a_hand(ann, bob, table, playing)

    this_hand = select(HandRecord).where(HandRecord.table_id == table, HandRecord.number == number)

    async def cancelled() -> list[HandRecord]:
        return [h for h in await rows(server, this_hand) if h.status == "cancelled"]

    (stored,) = await eventually(cancelled, "the hand cancelled in the store")
    assert stored.deck_reveal == ""  # nothing of its deck stored to be revealed
    monkeypatch.undo()
    await turn_after(ann, number)  # the table deals on
    assert not [f for f in ann.frames if f["type"] == "deck_reveal" and f["hand"] == number]


def test_a_hand_dealt_before_seeded_shuffles_has_no_file_to_check() -> None:
    reveal = {"salt": "00" * 16, "deck": list(range(52))}  # as stored before seeded shuffles
    record = HandRecord(
        id=5, table_id="t", number=1, status="complete", deck_reveal=json.dumps(reveal)
    )
    player = HandPlayer(hand_id=5, account_id=1, seat=1, position=0)
    with pytest.raises(ApiError) as caught:
        shuffle_document(record, player)
    assert caught.value.status_code == 409
    assert caught.value.code == "fairness.unseeded" and caught.value.params == {"hand": "5"}
    assert "dealt before shuffles were seeded" in caught.value.detail
