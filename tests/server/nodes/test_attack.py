"""Hostile sequences across nodes, over real sockets, on PostgreSQL and Redis:
the same account on two nodes at once, keys reused, tables changing owner and coming back,
clients that flood or never read. Money is never created or lost (every test ends with the
audit, S-AUDIT-2) and one client hurts only its own connection (S-ISOLATE-1).

Redis database 3 is these tests' own; every test keys its streams and channels under a
prefix of its own, so nothing is flushed (another run at the same time is not disturbed)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import sys
import time
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
import redis.exceptions as redis_errors
import websockets.asyncio.client as client_module
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from pokerroom.server.app import create_app
from pokerroom.server.nodes import messages
from pokerroom.server.nodes.bus import GROUP
from pokerroom.server.tables.room import DEMO_TABLES, Limits, TableConfig
from pokerroom.store.db import Database
from pokerroom.store.money.ledger import balance
from pokerroom.store.nodes.leases import LeaseSettings
from tests.helpers.accounts import person_again
from tests.helpers.audit import assert_books_balance
from tests.helpers.nodes import Node, both, connection, kill, redis_db, seated_on, stop_node
from tests.helpers.room_tables import clock, decision, first_turn, table_config
from tests.helpers.waiting import eventually
from tests.server import conftest
from tests.server.conftest import Person, person, start_uvicorn
from tests.store.conftest import drop_postgres, fresh_postgres

pytestmark = pytest.mark.postgres
REDIS_DB = 3
FAST = LeaseSettings(ttl=2.0, renew=0.25)
WAIT = 30.0


class Cluster:
    """Nodes of one room: one PostgreSQL database, one Redis prefix."""

    def __init__(self, url: str, redis: str) -> None:
        self.url, self.redis = url, redis
        self.prefix = f"pokerroom-attack-{secrets.token_hex(4)}:"
        self.nodes: list[Node] = []

    async def start(self, name: str, **options: Any) -> Node:
        app = create_app(
            self.url,
            pause=0.05,
            redis=self.redis,
            redis_prefix=self.prefix,
            node=name,
            **options,
        )
        bus = app.state.room.links.bus
        bus.alive_seconds, bus.beat_seconds, bus.reap_seconds = 3, 0.5, 1.0
        port, uv, task = await start_uvicorn(app)
        node = Node(base=f"http://127.0.0.1:{port}", app=app, database=self.url)
        node.uv, node.task = uv, task
        self.nodes.append(node)
        return node

    async def stop(self, node: Node) -> None:
        self.nodes.remove(node)
        await stop_node(node)


@pytest.fixture
async def cluster(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Cluster]:
    redis = await redis_db(REDIS_DB, flush=False)
    name, url = await fresh_postgres()
    running = Cluster(url, redis)
    opened: list[Any] = []  # every client socket of the test, closed at its end
    real = connect

    async def connecting(*args: Any, **kwargs: Any) -> Any:
        ws = await real(*args, **kwargs)
        opened.append(ws)
        return ws

    for module in (client_module, conftest, sys.modules[__name__]):
        monkeypatch.setattr(module, "connect", connecting)
    try:
        yield running
    finally:
        for ws in opened:  # at once, unread frames or not (mallory's): the nodes stop soon
            ws.transport.abort()
        for node in reversed(list(running.nodes)):
            with contextlib.suppress(Exception):
                await running.stop(node)
        await drop_postgres(name)


async def money(url: str, accounts: list[int]) -> int:
    """The accounts' balances and every table's chips (all in the ledger): constant."""
    db = Database(url)
    try:
        async with db.transaction() as session:
            held = [await balance(session, "player", str(a)) for a in accounts]
        return sum(held)
    finally:
        await db.close()


async def test_a_table_back_with_its_former_owner_is_watched_again_there(
    cluster: Cluster,
) -> None:
    """Node a runs every table, b joins and is handed half of them; two people on a's
    sockets play at one of b's over the bus. b stops (a rolling restart): a adopts the table
    back. a had read that table's stream before, as its owner: it must treat it as owned
    anew (announce it, claim what b left pending) or its new actor has no watchers and the
    two never see their table again (before: they waited for frames that never came)."""
    a = await cluster.start("a", demo=True, leases=FAST)
    await eventually(lambda: len(a.room.actors) == len(DEMO_TABLES), "a runs every table")
    b = await cluster.start("b", demo=True, leases=FAST)
    await eventually(lambda: len(b.room.actors) == 3, "a hands b its share")
    # (which tables b gets varies; the casino's table needs four players to deal)
    table = next(t for t, x in sorted(b.room.actors.items()) if x.table.house.min_players <= 2)
    ann, bob = await person(a.base, "ann"), await person(a.base, "bob")
    for seat, someone in enumerate((ann, bob), start=1):
        await someone.send(type="watch", table=table)
        await someone.send(type="join", table=table, seat=seat, buy_in=10_000, request="j")
    await both(ann, bob, table, 1)
    await cluster.stop(b)
    await eventually(lambda: table in a.room.actors, "a adopts the table back")
    await both(ann, bob, table, 2, reconnected=True)
    await assert_books_balance(a)


async def test_a_cash_out_a_former_owner_read_and_never_acknowledged_is_applied_by_the_owner(
    cluster: Cluster,
) -> None:
    """A leave read from the table's stream by another consumer (a former owner whose
    blocking read was under way when this node took the table over, or that was paused)
    and never acknowledged: the owner takes it over and ann is cashed out. Before, only a
    node adopting the table claimed what was pending, once: a command read by the former
    owner after that stayed pending for good (the player's leave lost)."""
    owner = await cluster.start("owner", demo=False)
    owner.bus.claim_seconds = 0.5
    sockets = await cluster.start("s1", demo=False, own_tables=False)
    await owner.room.open_table(table_config("t2"))
    ann = await person(sockets.base, "ann")
    start = await owner.room.store.balance(ann.account_id)
    await ann.send(type="watch", table="t2")
    await ann.send(type="join", table="t2", seat=1, buy_in=10_000, request="j")
    await ann.until(lambda f: f.get("you") == 1)
    conn = connection(sockets, ann.account_id).conn
    leave = json.dumps({"type": "leave", "table": "t2"})
    said = messages.Said(
        key=f"{sockets.bus.name}:{conn}:ghost",
        node=sockets.bus.name,
        at=time.time(),
        conn=conn,
        account=ann.account_id,
        name="ann",
        text=leave,
    )
    fields = messages.encode_command(said)
    stream = owner.bus.key("table:t2:in")
    async with owner.bus.redis.pipeline(transaction=True) as both_at_once:  # read by a ghost
        both_at_once.xadd(stream, fields)
        both_at_once.xreadgroup(GROUP, "former-owner", {stream: ">"}, count=1)
        _, read = await both_at_once.execute()
    assert read and read[0][1]  # the ghost has it, pending, never acknowledged
    await ann.until(lambda f: f.get("you") is None and not f["seats"][0].get("name"))
    assert await owner.room.store.balance(ann.account_id) == start
    await assert_books_balance(owner)


async def at_once(*sends: tuple[Person, dict[str, Any]]) -> None:
    """Each message sent by its person, all at the same moment; then each socket's node has
    passed its message on to the owner (its answer to a ping comes after, in order)."""
    await asyncio.gather(*(someone.send(**message) for someone, message in sends))
    await passed_on(*{id(someone): someone for someone, _ in sends}.values())


async def passed_on(*people: Person) -> None:
    """Each person's node has handled what they sent (passed on to the owner): its answer to
    a ping comes after, in order."""
    for someone in people:
        await someone.send(type="ping")
        await someone.next("pong", WAIT)


async def quiet(owner: Node, *sockets: Node) -> None:
    """Every command the socket nodes sent (a hello's, sent in the background, too) was read
    and handled by the owner's tables: none is still pending in their streams (a command is
    acknowledged once its table has handled it). Messages sent to the socket nodes must have
    been passed on (``at_once``, or an answer read) before."""

    def read() -> bool:
        sending = [
            task
            for node in sockets
            for task in node.bus.tasks
            if not task.done() and not task.get_name().startswith("bus ")  # not its loops
        ]
        sent = sum(node.bus.sent for node in sockets)
        idle = all(
            a.inbox.empty() and a.hand_ends.ending is None for a in owner.room.actors.values()
        )
        return not sending and owner.bus.applied + owner.bus.duplicates >= sent and idle

    async def pending() -> int:
        count = 0
        for table in owner.room.actors:
            stream = owner.bus.key(f"table:{table}:in")
            with contextlib.suppress(redis_errors.ResponseError):  # (no stream: nothing sent)
                count += int((await owner.bus.redis.xpending(stream, GROUP))["pending"])
        return count

    try:
        async with asyncio.timeout(WAIT):
            while not read() or await pending():
                await asyncio.sleep(0.05)
    except TimeoutError:
        pytest.fail("the owner did not handle every command")


async def test_the_same_account_on_two_nodes_at_once_moves_each_chip_once(
    cluster: Cluster,
) -> None:
    """Ann on two socket nodes at once sends, at the same moments, joins of one table with
    one key for two seats, joins of another with two keys, chips added with one key twice
    (the same amount, then two amounts), a leave racing chips added, and joins again with
    the ended sitting's key and a new one. Each request moves its chips once or is refused;
    at every pause the books reconcile, and when she has left she has what she started
    with."""
    owner = await cluster.start("owner", demo=False)
    s1 = await cluster.start("s1", demo=False, own_tables=False)
    s2 = await cluster.start("s2", demo=False, own_tables=False)
    for table in ("p1", "p2"):
        await owner.room.open_table(table_config(table))
    one = await person(s1.base, "ann")
    two = await person_again(s2.base, one)
    start = await owner.room.store.balance(one.account_id)
    for someone in (one, two):
        for table in ("p1", "p2"):
            await someone.send(type="watch", table=table)
    rounds: list[list[tuple[Person, dict[str, Any]]]] = [
        [(one, join("p1", 1, "k1")), (two, join("p1", 2, "k1"))],
        [(one, join("p2", 3, "x")), (two, join("p2", 4, "y"))],
        [(one, add("p1", 5_000, "a1")), (two, add("p1", 5_000, "a1"))],
        [(one, add("p2", 2_000, "b1")), (two, add("p2", 3_000, "b1"))],
        [(one, {"type": "leave", "table": "p1"}), (two, add("p1", 1_000, "a2"))],
        [(two, join("p1", 1, "k1")), (one, join("p1", 5, "k2"))],
        [(one, add("p1", 1_000, "k2")), (two, join("p2", 4, "x"))],
    ]
    for sends in rounds:
        await at_once(*sends)
        await quiet(owner, s1, s2)
        await assert_books_balance(owner)
    held = sum(
        actor.table.seat_of(str(one.account_id)).stack
        for actor in owner.room.actors.values()
        if actor.seat_holder(one.account_id) is not None
    )
    assert await owner.room.store.balance(one.account_id) == start - held
    await at_once((two, {"type": "leave", "table": "p1"}), (one, {"type": "leave", "table": "p2"}))
    await quiet(owner, s1, s2)
    assert not [a for a in owner.room.actors.values() if a.seat_holder(one.account_id)]
    assert await owner.room.store.balance(one.account_id) == start
    refused = [f for someone in (one, two) for f in await drained(someone) if f["type"] == "error"]
    codes = {f["code"] for f in refused}  # each refused with its reason, nothing moved
    assert {"chips.key_seat", "seat.already_seated", "chips.key_amount", "chips.key_used"} <= codes
    assert not one.ws.close_code and not two.ws.close_code
    await assert_books_balance(owner)


async def drained(someone: Person) -> list[dict[str, Any]]:
    """Every frame the person has been sent so far (read until none comes for a moment)."""
    with contextlib.suppress(TimeoutError):
        while True:
            await someone.next("none", 0.5)
    return someone.frames


def join(table: str, seat: int, request: str, buy_in: int = 10_000) -> dict[str, Any]:
    return {"type": "join", "table": table, "seat": seat, "buy_in": buy_in, "request": request}


def add(table: str, amount: int, request: str) -> dict[str, Any]:
    return {"type": "add_chips", "table": table, "amount": amount, "request": request}


async def flood(base: str, someone: Person, table: str, messages: int) -> int | None:
    """The person's session on a new socket sending ``messages`` as fast as it can: chat,
    acts in no hand, watches, joins of a taken seat, garbage. Its close code (None: still
    open)."""
    again = await person_again(base, someone)

    async def discard() -> None:
        with contextlib.suppress(ConnectionClosed):
            while True:
                await again.ws.recv()

    reading = asyncio.create_task(discard())
    kinds = [
        json.dumps({"type": "chat", "table": table, "text": "spam"}),
        json.dumps({"type": "act", "table": table, "hand": 999, "action": "fold"}),
        json.dumps({"type": "watch", "table": table}),
        json.dumps(join(table, 1, "spam")),
        '{"type": "act", "table": ',
    ]
    with contextlib.suppress(ConnectionClosed):
        for k in range(messages):
            await again.ws.send(kinds[k % len(kinds)])
    with contextlib.suppress(ConnectionClosed, TimeoutError):
        async with asyncio.timeout(WAIT):
            await again.ws.wait_closed()
    reading.cancel()
    await asyncio.gather(reading, return_exceptions=True)
    return again.ws.close_code


async def test_floods_and_a_client_that_never_reads_on_a_socket_node_hurt_only_themselves(
    cluster: Cluster,
) -> None:
    """On the socket node where ann plays, eve floods the table from ten sockets and
    mallory watches it and never reads; on another node carl watches. Ann and bob (and
    carl) see every hand go on; eve's sockets are closed for flooding; nobody else's is
    (S-ISOLATE-1), and the books reconcile."""
    owner = await cluster.start("owner", demo=False)
    # A flood is told by its rate in wall time, and this process runs the nodes and the
    # flooders on one loop: on a busy machine it may read no socket 100 times a second (the
    # default). At 10 a second past the burst of 200, 1,000 messages sent flat out are a
    # flood however busy.
    s1 = await cluster.start(
        "s1", demo=False, own_tables=False, limits=Limits(rate=10.0, burst=200, flood_close=20)
    )
    s2 = await cluster.start("s2", demo=False, own_tables=False)
    await owner.room.open_table(table_config("f1"))
    ann, bob = await person(s1.base, "ann"), await person(s2.base, "bob")
    for seat, someone in enumerate((ann, bob), start=1):
        await someone.send(type="watch", table="f1")
        await someone.send(type="join", table="f1", seat=seat, buy_in=10_000, request="j")
    await both(ann, bob, "f1", 1)
    mallory, eve = await person(s1.base, "mallory"), await person(s1.base, "eve")
    await mallory.send(type="watch", table="f1")  # and never reads again
    carl = await person(s2.base, "carl")
    await carl.send(type="watch", table="f1")
    watching = asyncio.create_task(carl.until(lambda f: False, 120))
    floods = [asyncio.create_task(flood(s1.base, eve, "f1", 1_000)) for _ in range(10)]
    await both(ann, bob, "f1", 4)
    codes = await asyncio.gather(*floods)
    watching.cancel()
    await asyncio.gather(watching, return_exceptions=True)
    # The floods reached the owner, through the bus: each socket's burst but its garbage.
    assert owner.bus.applied > 1_500
    assert codes == [1008] * 10, codes
    assert sum(1 for f in carl.frames if f.get("type") == "table") >= 3
    assert ann.ws.close_code is None and bob.ws.close_code is None
    await assert_books_balance(owner)


async def test_a_socket_without_a_session_on_a_socket_node_cannot_touch_a_remote_table(
    cluster: Cluster,
) -> None:
    """An anonymous socket on a socket node, then one that said hello with a made-up token,
    then ann's own socket after she logged out on another node: every table command is
    refused at the socket's node (nothing reaches the owner but watches), ann's seat and
    chips are untouched, and the books reconcile."""
    owner = await cluster.start("owner", demo=False)
    s1 = await cluster.start("s1", demo=False, own_tables=False)
    s2 = await cluster.start("s2", demo=False, own_tables=False)
    await owner.room.open_table(table_config("a1"))
    ann = await person(s2.base, "ann")
    await ann.send(type="watch", table="a1")
    await ann.send(type="join", table="a1", seat=1, buy_in=10_000, request="j")
    await ann.until(lambda f: f.get("you") == 1)
    commands = [
        join("a1", 2, "x"),
        add("a1", 5_000, "y"),
        {"type": "act", "table": "a1", "hand": 1, "action": "fold"},
        {"type": "leave", "table": "a1"},
        {"type": "sit_out", "table": "a1"},
        {"type": "sit_in", "table": "a1"},
        {"type": "options", "table": "a1", "leave_after": True},
        {"type": "chat", "table": "a1", "text": "hi"},
        {"type": "waiting_list", "table": "a1", "action": "join"},
        {"type": "seed", "table": "a1", "seed": "ab" * 8, "commitment": "cd" * 32},
    ]
    stranger = await anonymous(s1.base)
    forged = await anonymous(s1.base)
    await forged.send(type="hello", token="not-a-session-" + secrets.token_hex(16))
    assert (await forged.next("error"))["code"] == "auth.not_logged_in"
    sent = s1.bus.sent
    for someone in (stranger, forged):
        await someone.send(type="watch", table="a1")  # watching is allowed
        for command in commands:
            await someone.send(**command)
            error = await someone.next("error")
            assert error["code"] == "auth.log_in_first", error
    assert s1.bus.sent == sent + 2  # the two watches, nothing else
    again = await person_again(s1.base, ann)
    await again.send(type="watch", table="a1")
    async with httpx.AsyncClient(base_url=s2.base) as http:  # ann logs out on s2
        out = await http.post("/api/logout", headers={"Authorization": f"Bearer {ann.token}"})
    assert out.status_code in (200, 204), out.text
    await asyncio.wait_for(again.ws.wait_closed(), WAIT)  # her socket on s1 too
    late = await anonymous(s1.base)
    await late.send(type="hello", token=ann.token)
    assert (await late.next("error"))["code"] == "auth.not_logged_in"
    await late.send(type="leave", table="a1")
    assert (await late.next("error"))["code"] == "auth.log_in_first"
    await quiet(owner, s1, s2)
    actor = owner.room.actors["a1"]
    assert actor.table.seat_of(str(ann.account_id)).stack == 10_000
    assert [s.player for s in actor.table.seats.values()] == [str(ann.account_id)]
    await assert_books_balance(owner)


async def anonymous(base: str) -> Person:
    ws = await connect(base.replace("http", "ws", 1) + "/ws")
    someone = Person(name="", token="", account_id=0, ws=ws)
    await someone.next("welcome")
    return someone


@pytest.mark.parametrize("late", [1.5, 2.0])
async def test_an_action_through_a_socket_node_near_the_deadline_is_applied_or_refused(
    cluster: Cluster, late: float
) -> None:
    """Ann acts through a socket node just before the deadline, and at it: the owner's
    clock decides (R-TIME-2), the call applied or refused with a clear error, never both,
    never applied to another hand; and the books reconcile."""
    owner = await cluster.start("owner", demo=False)
    s1 = await cluster.start("s1", demo=False, own_tables=False)
    table = f"d{int(late * 10)}"
    await owner.room.open_table(
        TableConfig(table, table, "titan", "holdem", "no_limit", 200, 2, clock(2, 1, 0))
    )
    ann, bob = await seated_on(s1, table, ("ann", "bob"))
    me, frame, since = await first_turn(ann, bob)
    seat, number = frame["you"], frame["hand"]["number"]
    await asyncio.sleep(max(0.0, since + late - time.monotonic()))
    await me.send(type="act", table=table, action="check_or_call", hand=number)
    after = await decision(me, seat, number)
    done = after["seats"][seat - 1]["last_action"]["action"]
    await me.send(type="chat", table=table, text="done")  # handled after the act, in turn
    await me.next("chat")
    errors = [f for f in me.frames if f.get("type") == "error"]
    if done == "call":
        assert errors == [] and after["hand"]["number"] == number
    else:
        assert done == "fold" and [e["code"] for e in errors] == ["hand.stale"], errors
    await assert_books_balance(owner)


async def test_a_seat_taken_without_watching_shows_disconnected_when_its_node_dies(
    cluster: Cluster,
) -> None:
    """Ann joins through a socket node without a watch first (a client may), and her node
    dies: the owner must count her connection among that node's (before, only watched
    tables were: her seat stayed connected, R-TIME-3 never began)."""
    owner = await cluster.start("owner", demo=False)
    s1 = await cluster.start("s1", demo=False, own_tables=False)
    await owner.room.open_table(table_config("g1"))
    ann = await person(s1.base, "ann")
    await ann.send(type="join", table="g1", seat=1, buy_in=10_000, request="j")
    await ann.until(lambda f: f.get("you") == 1)
    cluster.nodes.remove(s1)
    await kill(s1)
    eve = await person(owner.base, "eve")
    await eve.send(type="watch", table="g1")
    await eve.until(lambda f: f["seats"][0].get("name") == "ann" and not f["seats"][0]["connected"])
    await assert_books_balance(owner)


async def test_a_cash_out_sent_while_the_table_changes_owner_is_made_once(
    cluster: Cluster,
) -> None:
    """Node a stops renewing (paused, as far as the others know) but still reads; b adopts
    ann's table. Ann, on a socket node, leaves then: the leave reaches a (whose cash-out is
    refused by the epoch: it stops the table, leaving the command unacknowledged) or b. Either
    way b cashes her out, once, and the books reconcile."""
    a = await cluster.start("a", demo=False, leases=FAST)
    await a.room.open_table(table_config("m1"))
    b = await cluster.start("b", demo=False, leases=FAST)
    b.bus.claim_seconds = 0.5
    sockets = await cluster.start("s", demo=False, own_tables=False)
    ann = await person(sockets.base, "ann")
    start = await a.room.store.balance(ann.account_id)
    await ann.send(type="watch", table="m1")
    await ann.send(type="join", table="m1", seat=1, buy_in=10_000, request="j")
    await ann.until(lambda f: f.get("you") == 1)
    await a.room.placement.leases.stop()  # no renewal, no watchdog: a runs the table on, stale
    await eventually(lambda: "m1" in b.room.actors, "b adopts the table")
    await ann.send(type="leave", table="m1")
    actor = b.room.actors["m1"]
    await eventually(lambda: actor.seat_holder(ann.account_id) is None, "ann stood up")
    for _ in range(600):  # bounded (30 s): her cash-out's transaction commits within moments
        if await b.room.store.balance(ann.account_id) == start:
            break
        await asyncio.sleep(0.05)
    assert await b.room.store.balance(ann.account_id) == start
    await assert_books_balance(b)


async def test_hellos_said_again_on_a_socket_node_do_not_multiply_into_commands(
    cluster: Cluster,
) -> None:
    """A hello makes the socket's node ask each remote table it watches for its state again
    (the owners learn who is there). The same account's hello said again and again asked
    it every time: one socket turned its message rate into that many commands times its
    tables, each answered with a whole table (S-ISOLATE-1). Now only a new account does."""
    owner = await cluster.start("owner", demo=False)
    s1 = await cluster.start("s1", demo=False, own_tables=False)
    for table in ("h1", "h2", "h3"):
        await owner.room.open_table(table_config(table))
    ann = await person(s1.base, "ann")
    for table in ("h1", "h2", "h3"):
        await ann.send(type="watch", table=table)
    await passed_on(ann)
    await quiet(owner, s1)
    sent = s1.bus.sent
    for _ in range(20):
        await ann.send(type="hello", token=ann.token)
        await ann.next("hello")
    await quiet(owner, s1)
    assert s1.bus.sent == sent
    bob = await person(s1.base, "bob")
    await ann.send(type="hello", token=bob.token)  # another account on this socket: asked
    await ann.next("hello")
    await quiet(owner, s1)
    assert s1.bus.sent == sent + 3
    await assert_books_balance(owner)
