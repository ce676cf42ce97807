"""Several nodes as real processes (issue 15): three ``pokerroom serve --node-id`` on one
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
import os
import random
import signal
import subprocess
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg
import httpx
import pytest
import pytest_asyncio

from pokerroom.bots.client import run_bot
from pokerroom.bots.strategy import RuleBot
from pokerroom.cli.loadtest_nodes import forget_room
from pokerroom.server.process import free_port, spawn_node
from pokerroom.store.audit import audit
from pokerroom.store.db import Database
from tests.server.conftest import Person, Server, closing_opened_sockets, person
from tests.server.test_nodes_bus import both, log_in_again, redis_db, room_prefix
from tests.store.conftest import PG_DSN, drop_postgres, fresh_postgres

pytestmark = [pytest.mark.postgres, pytest.mark.asyncio(loop_scope="module")]
TTL, RENEW = 5.0, 0.5  # the nodes' lease: short, so a failover is quick
MARGIN = 20.0  # adoption within TTL + this (a renewal pass, a busy 2-core machine)
WAIT = 90.0  # every other bounded wait
BOTS = {"casino-nlhe": 4}  # bots at a table: 2, but the casino deals to four (R-SEAT-1)
NODES = ("n1", "n2", "n3")
REDIS_DB = 5  # this module's Redis database number; its keys under a prefix of its own


@pytest_asyncio.fixture(loop_scope="module", autouse=True)
async def people_closed(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[None]:
    """The sockets a test opened, closed after it on this module's loop (they live on it)."""
    async for _ in closing_opened_sockets(monkeypatch):
        yield


@dataclass
class Cluster:
    url: str
    dsn: str
    logs: Path
    database: str
    redis: str
    prefix: str  # its keys and channels: another run on the same Redis database never meets it
    ports: dict[str, int] = field(default_factory=dict)
    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    drain: float = 0.0  # the nodes' --drain-seconds: none, a terminated node stops at once
    stop_bots: asyncio.Event = field(default_factory=asyncio.Event)
    bots: list[asyncio.Task[None]] = field(default_factory=list)

    def role(self, node: str) -> str:
        return f"{self.database}_{node}"

    async def shut_out(self, node: str, *, out: bool) -> None:
        """The node's role may (not) log in; shut out, its sessions are ended too."""
        role = self.role(node)
        await self.sql(f'ALTER ROLE "{role}" {"NOLOGIN" if out else "LOGIN"}')
        if out:
            await self.sql(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1", role
            )

    async def drop_roles(self, nodes: tuple[str, ...]) -> None:
        """The nodes' roles, dropped once the test's database is (they outlive it)."""
        admin = await asyncpg.connect(PG_DSN, timeout=10)
        try:
            for node in nodes:
                await admin.execute(f'DROP ROLE IF EXISTS "{self.role(node)}"')
        finally:
            await admin.close()

    def base(self, node: str) -> str:
        return f"http://127.0.0.1:{self.ports[node]}"

    async def sql(self, query: str, *args: object) -> list[asyncpg.Record]:
        connection = await asyncpg.connect(self.dsn, timeout=10)
        try:
            return list(await connection.fetch(query, *args))
        finally:
            await connection.close()

    async def owners(self) -> dict[str, tuple[str, int, bool]]:
        """Each table's lease: (node, epoch, live: not expired); not the tournaments'."""
        rows = await self.sql(
            "SELECT table_id, node, epoch, expires_at > now() AS live FROM table_leases"
            " WHERE table_id NOT LIKE 'tournament:%'"
        )
        return {r["table_id"]: (r["node"], int(r["epoch"]), bool(r["live"])) for r in rows}

    async def hands(self) -> dict[int, tuple[str, int, str]]:
        rows = await self.sql("SELECT id, table_id, number, status FROM hands")
        return {int(r["id"]): (r["table_id"], int(r["number"]), r["status"]) for r in rows}

    async def metric(self, node: str, name: str) -> float:
        async with httpx.AsyncClient(base_url=self.base(node), timeout=5) as http:
            text = (await http.get("/metrics")).text
        total = 0.0
        for line in text.splitlines():
            if line.startswith(name) and not line.startswith("#"):
                total += float(line.rsplit(" ", 1)[1])
        return total

    def spawn(self, node: str, *, sockets_only: bool = False) -> None:
        port = self.ports.setdefault(node, free_port())
        with (self.logs / f"{node}.log").open("ab") as log:  # the child keeps its own copy
            database = self.url
            if not sockets_only:  # (a socket node has no role of its own: never shut out)
                database = self.url.replace("://postgres@", f"://{self.role(node)}@")
            self.processes[node] = spawn_node(
                database,
                node,
                port,
                lease=TTL,
                renew=RENEW,
                output=log,
                redis=self.redis,
                redis_prefix=self.prefix,
                sockets_only=sockets_only,
                drain=self.drain,
            )

    async def answering(self, node: str) -> None:
        async with asyncio.timeout(WAIT), httpx.AsyncClient(base_url=self.base(node)) as http:
            while True:
                assert self.processes[node].poll() is None, self.tail(node)
                with contextlib.suppress(httpx.HTTPError):
                    if (await http.get("/api/lobby")).status_code == 200:
                        return
                await asyncio.sleep(0.1)

    def tail(self, node: str) -> str:
        return (self.logs / f"{node}.log").read_text()[-3000:]


async def eventually(check: object, what: object, seconds: float = WAIT) -> float:
    """Await ``check()`` (a coroutine function) until true; the seconds it took. ``what``
    (or what it gives, if a function) names the wait when it fails."""
    started = time.monotonic()
    try:
        async with asyncio.timeout(seconds):
            while not await check():  # type: ignore[operator]
                await asyncio.sleep(0.1)
    except TimeoutError:
        pytest.fail(f"not within {seconds} s: {what() if callable(what) else what}")
    return time.monotonic() - started


async def play(cluster: Cluster, name: str, token: str, table: str) -> None:
    """A bot at ``table``, at whichever node owns it: when that node goes, it reconnects to
    the new owner and gets its seat back (R-TIME-3)."""
    while not cluster.stop_bots.is_set():
        owner = (await cluster.owners()).get(table)
        if owner is not None and owner[2] and owner[0] in cluster.processes:
            with contextlib.suppress(Exception):  # the node went: find the new owner
                await run_bot(
                    cluster.base(owner[0]),
                    name,
                    RuleBot(),
                    table=table,
                    token=token,
                    rng=random.Random(name),
                    stop=cluster.stop_bots,
                )
        await asyncio.sleep(0.3)


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
            return len(owners) == 6 and all(live for _, _, live in owners.values())

        await eventually(all_owned, "every table has an owner")
        tables = sorted(await running.owners())
        async with httpx.AsyncClient(base_url=running.base("n1"), timeout=30) as http:
            for table in tables:
                for k in range(BOTS.get(table, 2)):
                    bot = f"b{k}_{table.replace('-', '_')}"
                    answer = await http.post(
                        "/api/signup", json={"username": bot, "password": "bot password 1"}
                    )
                    answer.raise_for_status()
                    task = asyncio.create_task(play(running, bot, answer.json()["token"], table))
                    running.bots.append(task)

        dealt: set[str] = set()

        async def every_table_dealt() -> bool:
            dealt.update(t for t, _, s in (await running.hands()).values() if s == "complete")
            return dealt >= set(tables)

        await eventually(every_table_dealt, lambda: f"every table dealt a hand (only {dealt})")
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


async def books_balance(url: str) -> None:
    db = Database(url)
    try:
        async with db.transaction() as session:
            report = await audit(session)
        assert report.ok, report.problems
    finally:
        await db.close()


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

    await eventually(one, "a node's table with a hand running")
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

    return await eventually(done, f"{gone}'s tables adopted", TTL + MARGIN)


async def deal_on(
    cluster: Cluster, tables: list[str], after: dict[int, tuple[str, int, str]]
) -> None:
    """Each of ``tables`` completes a hand numbered past every hand it had ``after``."""
    last = {t: max((n for tt, n, _ in after.values() if tt == t), default=0) for t in tables}

    async def dealt() -> bool:
        hands = (await cluster.hands()).values()
        return all(
            any(t == tt and n > last[t] and s == "complete" for tt, n, s in hands) for t in tables
        )

    await eventually(dealt, f"{tables} deal on")


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

    async def shared() -> bool:
        return await cluster.metric(node, "pokerroom_tables") >= 2

    await eventually(shared, f"{node} takes its share again")
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

    await eventually(knows, f"{node} stops its lost tables")
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

    await eventually(dealing_again, f"{node} runs tables again")
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
