"""A node stopped cleanly drains (server/ops/drain.py): two ``pokerroom serve --node-id`` on one
PostgreSQL and one Redis, bots at a table of each; the owner of a table is sent SIGTERM
while a hand is in play there. That hand completes, no hand anywhere is cancelled, the node
exits on its own, the other node adopts its tables and deals on, and the books balance."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import AsyncIterator

import httpx
import pytest
import pytest_asyncio

from pokerroom.server.app import forget_room
from pokerroom.server.tables.room import DEMO_TABLES
from tests.helpers.node_processes import WAIT, Cluster, books_balance, deal_on, play
from tests.helpers.nodes import redis_db, room_prefix
from tests.helpers.waiting import eventually
from tests.server.conftest import closing_opened_sockets
from tests.store.conftest import drop_postgres, fresh_postgres

pytestmark = [pytest.mark.postgres, pytest.mark.asyncio(loop_scope="module")]
NODES = ("d1", "d2")
REDIS_DB = 4  # (shared safely: the room's keys are under a prefix of its own)


@pytest_asyncio.fixture(loop_scope="module", autouse=True)
async def people_closed(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[None]:
    async for _ in closing_opened_sockets(monkeypatch):
        yield


@pytest_asyncio.fixture(loop_scope="module")
async def two_nodes(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Cluster]:
    """Two nodes sharing the demo tables, bots at one table of each (not the casino's)."""
    redis = await redis_db(REDIS_DB, flush=False)
    name, url = await fresh_postgres()
    dsn = url.replace("postgresql+asyncpg://", "postgresql://")
    logs = tmp_path_factory.mktemp("drain")
    running = Cluster(url=url, dsn=dsn, logs=logs, database=name, redis=redis, prefix=room_prefix())
    running.drain = 60.0
    for node in NODES:
        await running.sql(f'CREATE ROLE "{running.role(node)}" LOGIN SUPERUSER')
    try:
        for node in NODES:
            running.spawn(node)
        for node in NODES:
            await running.answering(node)

        async def shared() -> bool:
            owners = await running.owners()
            mine = {n for n, _, live in owners.values() if live}
            return len(owners) == len(DEMO_TABLES) and mine == set(NODES)

        await eventually(shared, "both nodes hold tables")
        owners = await running.owners()
        async with httpx.AsyncClient(base_url=running.base(NODES[0]), timeout=60) as http:
            for node in NODES:
                table = min(t for t, (n, _, _) in owners.items() if n == node and "casino" not in t)
                for k in range(2):
                    bot = f"d{k}_{table.replace('-', '_')}"
                    answer = await http.post(
                        "/api/signup", json={"username": bot, "password": "bot password 1"}
                    )
                    answer.raise_for_status()
                    token = answer.json()["token"]
                    running.bots.append(asyncio.create_task(play(running, bot, token, table)))
        yield running
    finally:
        running.stop_bots.set()
        for task in running.bots:
            task.cancel()
        await asyncio.gather(*running.bots, return_exceptions=True)
        for process in running.processes.values():
            process.kill()
            process.wait(timeout=30)
        await drop_postgres(name)
        await forget_room(redis, running.prefix)
        await running.drop_roles(NODES)


async def test_sigterm_drains_the_hand_in_play_and_hands_the_tables_over(
    two_nodes: Cluster,
) -> None:
    cluster = two_nodes
    found: list[tuple[str, str, int]] = []

    async def mid_hand() -> bool:  # a bots' table with a hand running, and its owner
        owners = await cluster.owners()
        for hand, (table, _, status) in (await cluster.hands()).items():
            if status == "running" and owners[table][2]:
                found.append((owners[table][0], table, hand))
                return True
        return False

    await eventually(mid_hand, "a hand in play at a bots' table")
    node, table, hand = found[0]
    mine = [t for t, (n, _, live) in (await cluster.owners()).items() if n == node and live]
    process = cluster.processes[node]
    process.send_signal(signal.SIGTERM)
    try:
        code = await asyncio.wait_for(asyncio.to_thread(process.wait), WAIT)
    except TimeoutError:
        pytest.fail(f"{node} did not stop within {WAIT} s: {cluster.tail(node)}")
    del cluster.processes[node]
    assert code == 0, cluster.tail(node)
    hands = await cluster.hands()
    assert hands[hand][2] == "complete", cluster.tail(node)  # finished, not voided
    log = (cluster.logs / f"{node}.log").read_text()
    assert f"node {node} draining" in log and f"node {node} drained" in log
    other = next(n for n in NODES if n != node)

    async def adopted() -> bool:
        owners = await cluster.owners()
        return all(owners[t][0] == other and owners[t][2] for t in mine)

    await eventually(adopted, f"{other} adopts {node}'s tables {mine}")
    await deal_on(cluster, [table], hands)
    statuses = {s for _, _, s in (await cluster.hands()).values()}
    assert "cancelled" not in statuses
    await books_balance(cluster.url)
