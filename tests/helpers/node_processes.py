"""A room of several node processes on PostgreSQL and Redis, and what the process-level node
tests ask of it: who owns which table, which hands ran, bots that follow their table's owner."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import subprocess
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import asyncpg
import httpx
from sqlalchemy import select

from pokerroom.bots.client import run_bot
from pokerroom.bots.strategy import RuleBot
from pokerroom.server.clock import utcnow
from pokerroom.server.ops.process import free_port, spawn_node
from pokerroom.store.accounts.accounts import STARTING_GRANT
from pokerroom.store.audit import audit
from pokerroom.store.db import Database
from pokerroom.store.models import Account
from pokerroom.store.money import ledger
from tests.helpers.waiting import eventually
from tests.store.conftest import PG_DSN

TTL, RENEW = 5.0, 0.5  # the nodes' lease: short, so a failover is quick
WAIT = 90.0  # every other bounded wait


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
    # each bot's last error frames (code, what it said), by (bot, table): what a failed
    # wait prints, and how a bot that went broke is seen
    refusals: dict[tuple[str, str], list[tuple[str, str]]] = field(default_factory=dict)

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

    async def describe(self, tables: list[str]) -> str:
        """Each table as stored (its lease, seats, waiting list and last hands): what a
        failed wait on it says, since the database is dropped after the test."""
        lines = []
        owners = await self.owners()
        for table in tables:
            rows = await self.sql("SELECT snapshot FROM tables WHERE id = $1", table)
            hands = await self.sql(
                "SELECT number, status FROM hands WHERE table_id = $1 ORDER BY id DESC LIMIT 3",
                table,
            )
            lines.append(
                f"{table}: lease {owners.get(table)}, last hands {[tuple(h) for h in hands]}"
            )
            if rows:
                snapshot = json.loads(rows[0]["snapshot"])
                keep = ("number", "player", "status", "stack", "timeouts", "sit_out_next")
                for seat in snapshot["seats"]:
                    shown = {k: seat.get(k) for k in keep}
                    lines.append(f"  seat {shown}")
                running = snapshot.get("hand") is not None
                lines.append(f"  waiting {snapshot.get('waiting_list')}, a hand running {running}")
            for (bot, at), refusals in self.refusals.items():
                if at == table and refusals:
                    lines.append(f"  {bot} was refused: {[said for _, said in refusals]}")
        return "\n".join(lines)

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


async def play(cluster: Cluster, name: str, token: str, table: str) -> None:
    """A bot at ``table``, at whichever node owns it: when that node goes, it reconnects to
    the new owner and gets its seat back (R-TIME-3). Refused a seat for want of chips, its
    account is topped up before it comes back."""
    refusals = cluster.refusals.setdefault((name, table), [])
    while not cluster.stop_bots.is_set():
        if refusals and refusals[-1][0] == "chips.insufficient":
            await top_up(cluster.url, name)
            refusals.clear()
        owner = (await cluster.owners()).get(table)
        if owner is not None and owner[2] and owner[0] in cluster.processes:
            with contextlib.suppress(Exception):  # the node went: find the new owner
                await run_bot(
                    cluster.base(owner[0]),
                    name,
                    RuleBot(),
                    table=table,
                    token=token,
                    rng=random.Random(f"{name}@{table}"),
                    stop=cluster.stop_bots,
                    on_frame=partial(noted, refusals),
                )
        await asyncio.sleep(0.3)


def noted(refusals: list[tuple[str, str]], frame: dict[str, object]) -> None:
    if frame.get("type") == "error":
        refusals.append((str(frame.get("code")), f"{frame.get('request')}: {frame.get('message')}"))
        del refusals[:-4]


async def top_up(url: str, name: str) -> None:
    """The bot's account brought back to the starting grant from the bank (a ``top_up``
    transfer, as the room's own bots get: the books still balance). Its four accounts play
    at every table, and the longer the module runs the likelier one goes broke: then its
    tables, short of players, deal no more."""
    db = Database(url)
    try:
        async with db.transaction() as session:
            account = await session.scalar(select(Account.id).where(Account.username == name))
            assert account is not None, name
            await ledger.top_up(
                session, account, at_least=STARTING_GRANT // 10, to=STARTING_GRANT, now=utcnow()
            )
    finally:
        await db.close()


async def books_balance(url: str) -> None:
    db = Database(url)
    try:
        async with db.transaction() as session:
            report = await audit(session)
        assert report.ok, report.problems
    finally:
        await db.close()


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

    try:
        await eventually(dealt, f"{tables} deal on", WAIT)
    except AssertionError as failed:  # (what the tables are waiting for)
        raise AssertionError(f"{failed}; as stored:\n{await cluster.describe(tables)}") from None
