"""What the browser client relies on: seat options over the socket, frames whose pots and
bets add up, stakes named as players name them, and the hand replayer's frames."""

from __future__ import annotations

import asyncio

import httpx

from tests.helpers.audit import assert_books_balance
from tests.helpers.room_tables import ann_and_bob_seated, play_along, table_config
from tests.server.conftest import Server, person


async def test_options_are_set_over_the_socket_and_shown_only_to_their_owner(
    server: Server,
) -> None:
    await server.room.open_table(table_config("o1"))
    ann = await person(server.base, "ann")
    bob = await person(server.base, "bob")
    await ann.send(type="watch", table="o1")
    await ann.send(type="join", table="o1", seat=2, buy_in=10_000, request="a")
    await ann.until(lambda f: f["you"] == 2)
    await ann.send(type="options", table="o1", sit_out_next=True, pre_action="check_fold")
    frame = await ann.until(lambda f: f["options"]["sit_out_next"])
    assert frame["options"]["pre_action"] == "check_fold"
    assert frame["options"]["auto_post"] is True
    assert frame["options"]["owes_blinds"] is True  # alone at the table: no blind posted yet
    await ann.send(type="options", table="o1", pre_action="none", sit_out_next=False)
    frame = await ann.until(lambda f: not f["options"]["sit_out_next"])
    assert frame["options"]["pre_action"] is None
    # Someone else's options are not in anyone's frame; options need a seat.
    await bob.send(type="watch", table="o1")
    spectator = await bob.next("table")
    assert spectator["options"] is None and spectator["you"] is None
    await bob.send(type="options", table="o1", auto_post=False)
    error = await bob.next("error")
    assert "seat" in error["message"]
    await assert_books_balance(server)


async def test_frames_split_the_pot_from_the_bets_and_the_replayer_masks_cards(
    server: Server,
) -> None:
    ann, bob = await ann_and_bob_seated(server, "o2", (1, 3))
    await asyncio.gather(play_along(ann, "o2", 4), play_along(bob, "o2", 4))
    hands = [f for f in ann.frames if f.get("type") == "table" and f["hand"] is not None]
    assert hands
    for frame in hands:
        hand = frame["hand"]
        bets = sum(s.get("bet", 0) for s in frame["seats"] if not s["empty"])
        assert sum(hand["collected"]) + bets == sum(hand["pots"])
        assert {hand["small_blind_seat"], hand["big_blind_seat"]} == {1, 3}
        assert frame["stakes"] == [100, 200]
    assert any(s.get("last_action") for f in hands for s in f["seats"] if not s["empty"])
    results = [f for f in ann.frames if f.get("type") == "hand_result"]
    for result in results:  # the winning five cards, to highlight, come from cards in play
        for shown in result["shown"]:
            if len(result["board"]) == 5:
                assert len(shown["best"]) == 5
                assert set(shown["best"]) <= set(shown["cards"]) | set(result["board"])

    headers = {"Authorization": f"Bearer {ann.token}"}
    async with httpx.AsyncClient(base_url=server.base, headers=headers) as http:
        mine = (await http.get("/api/hands", params={"table": "o2"})).json()
        replays = [(await http.get(f"/api/hands/{h['id']}/replay")).json() for h in mine]
        stranger = await http.get(
            f"/api/hands/{mine[0]['id']}/replay", headers={"Authorization": "Bearer nope"}
        )
    assert stranger.status_code == 401
    for replay in replays:
        frames = replay["frames"]
        assert frames[0]["lines"] == [] or "posts" in frames[0]["lines"][0]
        assert any("posts the big blind $2" in line for f in frames for line in f["lines"])
        last = frames[-1]
        assert any("wins" in line for line in last["lines"])
        for frame in frames:
            for seat in frame["seats"]:
                if seat["you"]:
                    assert seat["cards"] is not None and len(seat["cards"]) == 2
        # Bob's cards appear only in frames after a line where he shows them.
        shows = [
            n
            for n, f in enumerate(frames)
            if any(line.startswith("bob shows") for line in f["lines"])
        ]
        for n, frame in enumerate(frames):
            bob = next(s for s in frame["seats"] if s["name"] == "bob")
            if bob["cards"] is not None:
                assert shows and n >= shows[0]
    await assert_books_balance(server)


async def test_a_second_connection_takes_over_the_seat_without_a_disconnect(
    server: Server,
) -> None:
    """R-TIME-3 from the client's side: a browser that reconnects re-sends its join. The same
    seat again is no error and moves no chips; the old connection closing does not mark the
    player away while the new one watches; the last one closing does."""
    await server.room.open_table(table_config("o3"))
    ann = await person(server.base, "ann")
    bob = await person(server.base, "bob")
    await ann.send(type="watch", table="o3")
    await ann.send(type="join", table="o3", seat=2, buy_in=10_000, request="first")
    await ann.until(lambda f: f["you"] == 2)
    await bob.send(type="watch", table="o3")
    await bob.next("table")
    again = await person(server.base, "ann2")  # a socket, then log it in as ann
    again.token = ann.token
    await again.send(type="hello", token=ann.token)
    await again.next("hello")
    await again.send(type="watch", table="o3")
    await again.send(type="join", table="o3", seat=2, buy_in=10_000, request="second")
    frame = await again.until(lambda f: f["you"] == 2)
    await again.send(type="join", table="o3", seat=4, buy_in=10_000, request="third")
    error = await again.next("error")
    assert "already have a seat" in error["message"] and "seat 2" in error["message"]
    await ann.ws.close()
    # The table handled the old connection's end (it watches no more; the new one does).
    actor = server.room.actors["o3"]
    watching = lambda: [w.account_id for w in actor.watchers].count(ann.account_id)  # noqa: E731
    for _ in range(600):  # bounded: within moments
        if watching() == 1:
            break
        await asyncio.sleep(0.05)
    assert watching() == 1
    await again.send(type="chat", table="o3", text="still here")  # after any frame of the end
    await bob.next("chat")
    seen_by_bob = [f for f in bob.frames if f.get("type") == "table"]
    assert all(f["seats"][1]["connected"] for f in seen_by_bob if not f["seats"][1]["empty"])
    headers = {"Authorization": f"Bearer {ann.token}"}
    async with httpx.AsyncClient(base_url=server.base, headers=headers) as http:
        me = (await http.get("/api/me")).json()
    assert me["balance"] == 1_000_000 - 10_000  # one buy-in, however many joins
    await again.ws.close()
    away = await bob.until(lambda f: not f["seats"][1]["empty"] and not f["seats"][1]["connected"])
    assert away["seats"][1]["name"] == frame["seats"][1]["name"]
    await assert_books_balance(server)


def test_the_replayer_names_a_shown_hand_only_when_it_is_made() -> None:
    """Cards shown before an all-in runout have no hand yet: no empty brackets. A made hand
    is named from its cards on the board (the line's item by category and ranks)."""
    from pokerroom.cards import parse_cards
    from pokerroom.engine.events import CardsShown
    from pokerroom.server.tables.replayer import money, narrate, narration
    from tests.helpers.frames import hilo_all_in_hand

    hand = hilo_all_in_hand()  # over: the board 5h 6s 8c Ks Qh is out
    cards = tuple(parse_cards("As2d9c9h"))
    early = CardsShown(0, 1, cards, "", "")
    made = CardsShown(0, 1, cards, "Pair of Nines", "")
    split = CardsShown(0, 1, cards, "Pair of Nines", "8-6-5-2-A")
    assert narrate(hand, early) == "p1 shows As 2d 9c 9h"
    assert narrate(hand, made) == "p1 shows As 2d 9c 9h (Pair of Nines)"
    assert narrate(hand, split) == "p1 shows As 2d 9c 9h (Pair of Nines, low 8-6-5-2-A)"
    assert narration(hand, made) == (
        "replay.shows_high",
        {"who": "p1", "cards": "As 2d 9c 9h", "high": {"category": "pair", "ranks": ["nine"]}},
    )
    assert (money(1920), money(200), money(123456700)) == ("$19.20", "$2", "$1,234,567")


async def test_R_STAKE_1_adding_chips_between_hands_from_the_balance(server: Server) -> None:
    await server.room.open_table(table_config("o4"))
    ann = await person(server.base, "ann")
    await ann.send(type="watch", table="o4")
    await ann.send(type="join", table="o4", seat=1, buy_in=4_000, request="j")
    first = await ann.until(lambda f: f["you"] == 1)
    most = first["max_buy_in"]
    await ann.send(type="add_chips", table="o4", amount=5_000, request="a1")
    await ann.until(lambda f: f["seats"][0]["stack"] == 9_000)
    await ann.send(type="add_chips", table="o4", amount=5_000, request="a1")  # a retry
    await ann.send(type="add_chips", table="o4", amount=most, request="a2")  # over the maximum
    error = await ann.next("error")
    assert "maximum" in error["message"]
    headers = {"Authorization": f"Bearer {ann.token}"}
    async with httpx.AsyncClient(base_url=server.base, headers=headers) as http:
        me = (await http.get("/api/me")).json()
    assert me["balance"] == 1_000_000 - 9_000  # the retry moved nothing, the refusal nothing
    # Table stakes: not while a hand is on.
    bob = await person(server.base, "bob")
    await bob.send(type="watch", table="o4")
    await bob.send(type="join", table="o4", seat=3, buy_in=4_000, request="j")
    await ann.until(lambda f: f["hand"] is not None)
    await ann.send(type="add_chips", table="o4", amount=1_000, request="a3")
    error = await ann.next("error")
    assert "during a hand" in error["message"]
    await assert_books_balance(server)


async def test_the_clients_files_are_revalidated_on_every_load(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.base, timeout=10) as http:
        page = await http.get("/")
        assert page.headers["cache-control"] == "no-cache"
        module = await http.get("/static/js/fairness.js")
        assert module.status_code == 200
        assert module.headers["cache-control"] == "no-cache"
        # Kept by the browser, it is asked for again with its ETag: unchanged, a 304.
        again = await http.get(
            "/static/js/fairness.js", headers={"If-None-Match": module.headers["etag"]}
        )
        assert again.status_code == 304 and again.content == b""
