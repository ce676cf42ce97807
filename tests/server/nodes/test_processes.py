"""Several nodes as real processes: three ``pokerroom serve --node-id`` on one
PostgreSQL and one Redis, bots at every table (each plays at the table's owner, and
reconnects to the new owner when its node goes). Then a table owner is killed (kill -9),
paused past its lease (SIGSTOP, SIGCONT) or cut off from its database
(pg_terminate_backend): its tables are adopted within the lease's time plus a margin, the
hands it cut off are cancelled and refunded (R-DECK-5), no hand is settled twice, the
tables deal on, and the books balance (S-AUDIT-2). And a node that only holds sockets is
killed mid-hand: its players reconnect through the others and play on in their seats."""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import signal
import subprocess
import time
from collections.abc import AsyncIterator

import httpx
import pytest
import pytest_asyncio

from pokerroom.server.app import forget_room
from pokerroom.server.tables.room import DEMO_TABLES
from tests.helpers.node_processes import TTL, WAIT, Cluster, books_balance, deal_on, play
from tests.helpers.nodes import both, log_in_again, redis_db, room_prefix
from tests.helpers.waiting import eventually
from tests.server.conftest import Person, Server, closing_opened_sockets, person
from tests.store.conftest import drop_postgres, fresh_postgres

pytestmark = [pytest.mark.postgres, pytest.mark.asyncio(loop_scope="module")]
MARGIN = 20.0  # adoption within TTL + this (a renewal pass, a busy 2-core machine)
BOTS = {"casino-nlhe": 4}  # bots at a table: 2, but the casino deals to four (R-SEAT-1)
NODES = ("n1", "n2", "n3")
REDIS_DB = 5  # this module's Redis database number; its keys under a prefix of its own


@pytest_asyncio.fixture(loop_scope="module", autouse=True)
async def people_closed(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[None]:
    """The sockets a test opened, closed after it on this module's loop (they live on it)."""
    async for _ in closing_opened_sockets(monkeypatch):
        yield


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def cluster(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Cluster]:
    """Three nodes with bots at every table, shared by this module's tests (each leaves
    three nodes running: starting them and seating the bots is most of the time)."""
    redis = await redis_db(REDIS_DB, flush=False)  # (not flushed: another run may be on it)
    name, url = await fresh_postgres()
    dsn = url.replace("postgresql+asyncpg://", "postgresql://")
    logs = tmp_path_factory.mktemp("nodes")
    running = Cluster(url=url, dsn=dsn, logs=logs, database=name, redis=redis, prefix=room_prefix())
    for node in NODES:  # each node its own role: a test can shut one out of the database
        await running.sql(f'CREATE ROLE "{running.role(node)}" LOGIN SUPERUSER')
    try:
        for node in NODES:  # together: they migrate one at a time and share the tables
            running.spawn(node)
        for node in NODES:
            await running.answering(node)

        async def all_owned() -> bool:
            owners = await running.owners()
            return len(owners) == len(DEMO_TABLES) and all(live for _, _, live in owners.values())

        await eventually(all_owned, "every table has an owner", WAIT)
        tables = sorted(await running.owners())
        # One account per bot seat number, at every table (multi-tabling, as the load test's
        # accounts do): four argon2 sign-ups, not fourteen (each takes seconds on a busy
        # machine, and they were half of this fixture's time).
        tokens: list[str] = []
        async with httpx.AsyncClient(base_url=running.base("n1"), timeout=30) as http:
            for k in range(max(BOTS.get(table, 2) for table in tables)):
                answer = await http.post(
                    "/api/signup", json={"username": f"bot{k}", "password": "bot password 1"}
                )
                answer.raise_for_status()
                tokens.append(answer.json()["token"])
        for table in tables:
            for k in range(BOTS.get(table, 2)):
                task = asyncio.create_task(play(running, f"bot{k}", tokens[k], table))
                running.bots.append(task)

        dealt: set[str] = set()

        async def every_table_dealt() -> bool:
            dealt.update(t for t, _, s in (await running.hands()).values() if s == "complete")
            return dealt >= set(tables)

        await eventually(
            every_table_dealt, lambda: f"every table dealt a hand (only {dealt})", WAIT
        )
        yield running
    finally:
        running.stop_bots.set()
        for task in running.bots:
            task.cancel()
        await asyncio.gather(*running.bots, return_exceptions=True)
        for process in running.processes.values():
            with contextlib.suppress(ProcessLookupError):
                os.kill(process.pid, signal.SIGCONT)
                process.terminate()
        for process in running.processes.values():
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)
        with contextlib.suppress(Exception):
            await books_balance(url)
        await drop_postgres(name)
        await forget_room(redis, running.prefix)  # its streams outlive its nodes
        await running.drop_roles(NODES)


async def owner_mid_hand(cluster: Cluster) -> tuple[str, list[str]]:
    """A node holding tables, at a moment one of its tables has a hand running."""
    found: list[tuple[str, list[str]]] = []

    async def one() -> bool:
        owners = await cluster.owners()
        running = {t for t, _, s in (await cluster.hands()).values() if s == "running"}
        for node in cluster.processes:
            mine = sorted(t for t, (n, _, live) in owners.items() if n == node and live)
            if set(mine) & running:
                found.append((node, mine))
                return True
        return False

    await eventually(one, "a node's table with a hand running", WAIT)
    return found[0]


async def adopted(
    cluster: Cluster, tables: list[str], before: dict[str, tuple[str, int, bool]], gone: str
) -> float:
    """Seconds until every one of ``tables`` is held by another live node, epoch on."""

    async def done() -> bool:
        owners = await cluster.owners()
        return all(
            owners[t][0] != gone and owners[t][2] and owners[t][1] > before[t][1] for t in tables
        )

    started = time.monotonic()
    await eventually(done, f"{gone}'s tables adopted", TTL + MARGIN)
    return time.monotonic() - started


def cancelled_stay_cancelled(
    before: dict[int, tuple[str, int, str]], now: dict[int, tuple[str, int, str]], ids: set[int]
) -> None:
    for hand in ids:
        assert now[hand][2] == "cancelled", (hand, before.get(hand), now[hand])


async def test_kill_9_of_a_table_owner_mid_hand(cluster: Cluster) -> None:
    for _ in range(20):  # bounded: a moment when the owner has a hand running
        node, tables = await owner_mid_hand(cluster)
        before = await cluster.owners()
        process = cluster.processes[node]
        process.send_signal(signal.SIGSTOP)  # frozen while we look (nothing more commits)
        await asyncio.sleep(0.3)
        cut = await cluster.hands()
        interrupted = {h for h, (t, _, s) in cut.items() if t in tables and s == "running"}
        if interrupted:
            process.kill()  # kill -9
            process.wait(timeout=10)
            del cluster.processes[node]
            break
        process.send_signal(signal.SIGCONT)
    assert interrupted, "the owner was killed mid-hand"
    took = await adopted(cluster, tables, before, node)
    now = await cluster.hands()
    cancelled_stay_cancelled(cut, now, interrupted)  # refunded (R-DECK-5), never settled
    await deal_on(cluster, tables, now)
    await books_balance(cluster.url)
    print(f"kill -9: {len(tables)} tables adopted in {took:.1f} s (lease {TTL} s)")
    cancelled = {h for h, (_, _, s) in (await cluster.hands()).items() if s == "cancelled"}
    cluster.spawn(node)  # back: the others hand it tables (between hands) up to its share
    await cluster.answering(node)

    # The others keep up to their fair share, ceil(tables / nodes), and hand it the rest.
    share = len(DEMO_TABLES) - (len(NODES) - 1) * math.ceil(len(DEMO_TABLES) / len(NODES))

    async def shared() -> bool:
        return await cluster.metric(node, "pokerroom_tables") >= share

    await eventually(shared, f"{node} takes its share again", WAIT)
    now = await cluster.hands()
    mine = [t for t, (n, _, live) in (await cluster.owners()).items() if n == node and live]
    await deal_on(cluster, mine, now)
    handed = {h for h, (t, _, s) in (await cluster.hands()).items() if s == "cancelled"}
    assert handed == cancelled  # tables handed over between hands: no hand cancelled
    await books_balance(cluster.url)


async def test_sigstop_past_the_lease_then_sigcont(cluster: Cluster) -> None:
    node, tables = await owner_mid_hand(cluster)
    before = await cluster.owners()
    process = cluster.processes[node]
    os.kill(process.pid, signal.SIGSTOP)
    try:
        cut = await cluster.hands()
        running = {h for h, (t, _, s) in cut.items() if t in tables and s == "running"}
        await adopted(cluster, tables, before, node)
        at_adoption = await cluster.hands()
        cancelled = {h for h in running if at_adoption[h][2] == "cancelled"}
    finally:
        os.kill(process.pid, signal.SIGCONT)

    async def knows() -> bool:  # the node saw its leases gone and stopped those tables
        return (
            await cluster.metric(node, 'pokerroom_lease_changes_total{change="lost"') >= len(tables)
            and await cluster.metric(node, "pokerroom_tables") == 0
        )

    await eventually(knows, f"{node} stops its lost tables", WAIT)
    now = await cluster.hands()
    cancelled_stay_cancelled(at_adoption, now, cancelled)  # its writes were refused
    for hand, (_, _, status) in now.items():  # nothing it had running settled after
        if hand in running and hand not in cancelled:
            assert status in ("complete", "cancelled")
    await deal_on(cluster, tables, now)
    await books_balance(cluster.url)


async def test_an_owner_cut_off_from_its_database_stops_dealing_until_it_is_back(
    cluster: Cluster,
) -> None:
    node, tables = await owner_mid_hand(cluster)
    before = await cluster.owners()
    await cluster.shut_out(node, out=True)  # its connections ended, no new one taken
    try:

        async def stopped() -> bool:
            return await cluster.metric(node, "pokerroom_tables") == 0

        await eventually(stopped, f"{node} stops dealing", TTL + MARGIN)
        await adopted(cluster, tables, before, node)
    finally:
        await cluster.shut_out(node, out=False)
    # Back on its database: it takes tables again when some need an owner (another node
    # stops cleanly and gives its leases up at once).
    other = next(n for n in cluster.processes if n != node)
    cluster.processes[other].terminate()
    cluster.processes[other].wait(timeout=30)
    del cluster.processes[other]

    async def dealing_again() -> bool:
        return await cluster.metric(node, "pokerroom_tables") >= 1

    await eventually(dealing_again, f"{node} runs tables again", WAIT)
    owners = await cluster.owners()
    mine = [t for t, (n, _, live) in owners.items() if n == node and live]
    await deal_on(cluster, mine, await cluster.hands())
    await books_balance(cluster.url)


async def test_kill_9_of_a_node_that_only_holds_sockets_mid_hand(cluster: Cluster) -> None:
    """Two players at a table through a node that runs no table, their commands carried
    to the owner over Redis; that node is killed mid-hand. They reconnect through the
    other nodes and have their seats (R-TIME-3); the hand in flight is settled once, no
    hand is cancelled (the owner lives), and the books balance."""
    cluster.spawn("s1", sockets_only=True)
    await cluster.answering("s1")
    owners = await cluster.owners()
    table = "nlhe-1-2"  # six seats, two bots: room for two people
    owner = owners[table][0]
    ann = await person(cluster.base("s1"), "sann")
    bob = await person(cluster.base("s1"), "sbob")
    seats = await seat_both(ann, bob, table)
    await both(ann, bob, table, 1, seats=seats)
    frame = await ann.until(lambda f: f.get("hand") is not None and f["hand"]["actor"])
    cluster.processes["s1"].kill()  # kill -9, a hand in progress
    cluster.processes.pop("s1").wait(timeout=10)
    cut = frame["hand"]["number"]
    before = await cluster.hands()
    cancelled = {h for h, (t, _, s) in before.items() if t == table and s == "cancelled"}
    elsewhere = next(n for n in cluster.processes if n != owner)  # through the bus again
    again = [
        await log_in_again(Server(cluster.base(node), None, cluster.url), someone, [table])
        for someone, node in ((ann, elsewhere), (bob, owner))
    ]
    for back, seat in zip(again, seats, strict=True):
        seen = await back.until(lambda f: f.get("you") is not None)
        assert seen["you"] == seat  # the same seat, not a new one
    await both(*again, table, 2, reconnected=True, seats=seats)
    now = await cluster.hands()
    mine = [(n, s) for t, n, s in now.values() if t == table]
    assert (cut, "complete") in mine  # the hand in flight was settled, once
    assert len(mine) == len({n for n, _ in mine})  # no hand number stored twice
    assert {h for h, (t, _, s) in now.items() if t == table and s == "cancelled"} == cancelled
    await books_balance(cluster.url)


async def seat_both(ann: Person, bob: Person, table: str) -> tuple[int, int]:
    """ann and bob sit in two free seats of ``table``; the seats."""
    await ann.send(type="watch", table=table)
    frame = await ann.next("table")
    free = [s["seat"] for s in frame["seats"] if s["empty"] and not s.get("held_for")][:2]
    for someone, seat in zip((ann, bob), free, strict=True):
        if someone is bob:
            await bob.send(type="watch", table=table)
        await someone.send(type="join", table=table, seat=seat, buy_in=10_000, request=f"j{seat}")
    return free[0], free[1]
