"""Attacks on log-in and sign-up over a real server (S-AUTH-1, S-AUTH-2).

Hashing must never stall the event loop, log-ins and sign-ups are rate-limited, parallel
guesses cannot get past the lock-out, the lock-out does not tell which names exist, and
nobody can log in as one of the room's bots.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import threading
from datetime import timedelta
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select, update
from websockets.asyncio.client import connect

from pokerroom.cli.serve import _bots
from pokerroom.server.accounts.auth import AuthLimits, PasswordWorker, TokenBuckets
from pokerroom.store.accounts.accounts import FAILURE_WINDOW, FREE_FAILURES, PASSWORD_COST
from pokerroom.store.audit import audit
from pokerroom.store.models import Account, LoginFailures
from tests.server.conftest import Server

WRONG = "unknown username or wrong password"
LOCKED = "too many failed log-ins"


async def log_in(http: httpx.AsyncClient, name: str, password: str) -> httpx.Response:
    return await http.post("/api/login", json={"username": name, "password": password})


async def sign_up(http: httpx.AsyncClient, name: str, password: str) -> httpx.Response:
    return await http.post("/api/signup", json={"username": name, "password": password})


async def assert_books_balance(server: Server) -> None:
    async with server.room.db.transaction() as session:
        report = await audit(session)
    assert report.ok, report.problems


def detail(response: httpx.Response) -> str:
    text: str = response.json()["detail"]
    return text


# -- item 6: hashing off the event loop, bounded, rate-limited --------------------------------


async def test_S_AUTH_2_hashing_runs_off_the_loop_while_pings_are_answered(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """24 log-ins at once: pongs keep coming *while* a hash is running, which is impossible
    if the hash holds the event loop (the test, the server and its loop share one thread).
    At the recommended cost (a room's), not the suite's cheapest: the hashes must last."""
    monkeypatch.setenv(PASSWORD_COST, "recommended")
    worker: PasswordWorker = server.app.state.auth.passwords
    async with (
        httpx.AsyncClient(base_url=server.base, timeout=60) as http,
        connect(server.base.replace("http", "ws", 1) + "/ws") as ws,
    ):
        assert json.loads(await ws.recv())["type"] == "welcome"
        logins = asyncio.gather(*(log_in(http, f"ghost_{k}", "a guess at it") for k in range(24)))
        pongs_while_hashing = 0
        for _ in range(10_000):  # bounded: the log-ins end within seconds
            if logins.done():
                break
            await ws.send(json.dumps({"type": "ping"}))
            async with asyncio.timeout(10):
                assert json.loads(await ws.recv())["type"] == "pong"
            pongs_while_hashing += worker.hashing > 0
            await asyncio.sleep(0.02)  # under the connection's message rate (S-ISOLATE-1)
        answers = await logins
    assert [r.status_code for r in answers] == [401] * 24
    assert pongs_while_hashing >= 3
    assert worker.threads and threading.get_ident() not in worker.threads
    assert worker.verified == 24


class GatedWorker(PasswordWorker):
    """Hashes only once the test opens the gate: what is waiting is known exactly."""

    def __init__(self) -> None:
        super().__init__(workers=1, queue=1)
        self.gate = threading.Event()

    def _job(self, work: Any, args: tuple[object, ...]) -> Any:
        self.gate.wait(timeout=30)
        return super()._job(work, args)


async def test_S_AUTH_2_log_ins_beyond_the_hashing_queue_get_503(server: Server) -> None:
    auth = server.app.state.auth
    auth.passwords.close()
    auth.passwords = worker = GatedWorker()  # one hashing, one waiting
    async with httpx.AsyncClient(base_url=server.base, timeout=60) as http:
        admitted = [
            asyncio.create_task(log_in(http, f"ghost_{k}", "a guess at it")) for k in (1, 2)
        ]
        for _ in range(3000):  # bounded (30 s): both are admitted within moments
            if worker.verified == 2:
                break
            await asyncio.sleep(0.01)
        assert worker.verified == 2
        refused = await log_in(http, "ghost_3", "a guess at it")
        worker.gate.set()
        answers = await asyncio.gather(*admitted)
    assert refused.status_code == 503 and int(refused.headers["Retry-After"]) >= 1
    assert "busy checking passwords" in detail(refused)
    assert [r.status_code for r in answers] == [401, 401]
    async with server.room.db.transaction() as session:
        assert await session.get(LoginFailures, "ghost_3") is None  # refused, not counted


async def test_S_AUTH_2_log_ins_and_sign_ups_are_rate_limited_per_address(server: Server) -> None:
    auth = server.app.state.auth
    auth.limits = AuthLimits(
        log_ins_per_address=TokenBuckets(3, 1 / 60),
        sign_ups_per_address=TokenBuckets(2, 1 / 60),
        exempt=frozenset(),
    )
    async with httpx.AsyncClient(base_url=server.base, timeout=60) as http:
        tries = [await log_in(http, f"ghost_{k}", "a guess at it") for k in range(4)]
        made = [await sign_up(http, f"newcomer_{k}", "correct horse") for k in range(3)]
    assert [r.status_code for r in tries] == [401, 401, 401, 429]
    assert int(tries[-1].headers["Retry-After"]) >= 1
    assert "too many log-in or sign-up requests" in detail(tries[-1])
    assert [r.status_code for r in made] == [200, 200, 429]
    assert auth.passwords.verified == 3  # the refused one was never checked
    await assert_books_balance(server)


async def test_S_AUTH_2_log_ins_are_rate_limited_per_username(server: Server) -> None:
    auth = server.app.state.auth
    auth.limits = AuthLimits(per_username=TokenBuckets(2, 1 / 60))  # loopback: no per-address limit
    async with httpx.AsyncClient(base_url=server.base, timeout=60) as http:
        tries = [await log_in(http, "Ann", "a guess at it") for _ in range(3)]
        other = await log_in(http, "bob", "a guess at it")
    assert [r.status_code for r in tries] == [401, 401, 429]
    assert "Retry-After" in tries[-1].headers and other.status_code == 401


def test_S_AUTH_2_a_rate_limit_refills_and_forgets_the_oldest_keys() -> None:
    now = [0.0]
    limit = TokenBuckets(2, 0.5, max_keys=2, clock=lambda: now[0])
    assert [limit.wait("a"), limit.wait("a"), limit.wait("a")] == [0, 0, 2.0]
    now[0] = 2.0  # one token back
    assert [limit.wait("a"), limit.wait("a")] == [0, 2.0]
    limit.wait("b")
    limit.wait("c")  # a third key: "a", the least recently used, is forgotten
    assert limit.wait("a") == 0


def test_S_AUTH_2_the_operator_sets_which_addresses_are_exempt() -> None:
    assert AuthLimits.from_env({}).exempt == {"127.0.0.1", "::1"}
    assert AuthLimits.from_env({"POKERROOM_LOGIN_EXEMPT": ""}).exempt == set()
    chosen = AuthLimits.from_env({"POKERROOM_LOGIN_EXEMPT": "10.0.0.2, ::1"})
    assert chosen.exempt == {"10.0.0.2", "::1"}


# -- item 7: the lock-out holds against parallel guesses, on both databases ---------------------


async def test_S_AUTH_2_parallel_wrong_passwords_stop_at_the_lock_out_on_sqlite(
    server: Server,
) -> None:
    await parallel_wrong_passwords_stop_at_the_lock_out(server)


@pytest.mark.postgres
async def test_S_AUTH_2_parallel_wrong_passwords_stop_at_the_lock_out_on_postgresql(
    postgres_server: Server,
) -> None:
    await parallel_wrong_passwords_stop_at_the_lock_out(postgres_server)


async def parallel_wrong_passwords_stop_at_the_lock_out(server: Server) -> None:
    """40 wrong passwords at once: exactly the free ones and the one that locks are checked,
    and the count in the database is the number checked (none lost, none extra)."""
    auth = server.app.state.auth
    async with httpx.AsyncClient(base_url=server.base, timeout=120) as http:
        assert (await sign_up(http, "ann", "correct horse")).status_code == 200
        # Let all 40 through the rate limits and the queue: the lock-out alone must hold.
        auth.limits = AuthLimits(per_username=TokenBuckets(100, 1))
        auth.passwords.close()
        auth.passwords = PasswordWorker(queue=64)
        answers = await asyncio.gather(
            *(log_in(http, "ann", f"guess number {k}") for k in range(40))
        )
        after = await log_in(http, "ann", "correct horse")
    assert all(r.status_code == 401 for r in answers)
    checked = [r for r in answers if detail(r) == WRONG]
    assert len(checked) == FREE_FAILURES + 1 == auth.passwords.verified
    assert sum(detail(r).startswith(LOCKED) for r in answers) == 40 - len(checked)
    async with server.room.db.transaction() as session:
        counted = await session.get(LoginFailures, "ann")
    assert counted is not None and counted.failures == len(checked)
    assert after.status_code == 401 and detail(after).startswith(LOCKED)
    await assert_books_balance(server)


# -- item 9: no well-known bot password; the lock-out names nobody ------------------------------


async def test_S_AUTH_2_the_lock_out_does_not_tell_which_names_exist(server: Server) -> None:
    await server.app.state.auth.bot_token("bot_hu_nlhe_0")
    async with httpx.AsyncClient(base_url=server.base, timeout=60) as http:
        assert (await sign_up(http, "ann", "correct horse")).status_code == 200

        async def seen(name: str) -> list[tuple[int, str]]:
            answers = [await log_in(http, name, "a guess at it") for _ in range(FREE_FAILURES + 2)]
            answers.append(await log_in(http, name, "correct horse"))
            return [
                (r.status_code, re.sub(r"after \S+", "after <time>", detail(r))) for r in answers
            ]

        known, unknown, bot = await seen("ann"), await seen("nobody"), await seen("bot_hu_nlhe_0")
    assert known == unknown == bot
    assert known[-1] == (401, f"{LOCKED}: try again after <time>")
    await assert_books_balance(server)


async def test_S_AUTH_1_nobody_can_log_in_as_a_bot(server: Server) -> None:
    """The demo bots of ``pokerroom serve`` (sessions made in the room, no password), bots
    added by ``pokerroom bots`` (random passwords), and bot accounts of an older release
    (made with "bot password", taken over as bots when the room starts them)."""
    async with httpx.AsyncClient(base_url=server.base, timeout=60) as http:
        assert (await sign_up(http, "bot_plo_1_2_0", "bot password")).status_code == 200
        assert (await sign_up(http, "bot_o8_2_4_0", "a person's own")).status_code == 200
        plan = {"nlhe-1-2": 1, "plo-1-2": 1, "o8-2-4": 1}
        bots = [
            asyncio.create_task(_bots([server.base], plan, "bot", server.app.state.auth.bot_token)),
            asyncio.create_task(_bots([server.base], {"hu-nlhe": 1}, "guest")),
        ]
        names = ["bot_nlhe_1_2_0", "bot_plo_1_2_0", "guest_hu_nlhe_0"]
        try:
            for _ in range(600):  # bounded: the bots sign up or get sessions within seconds
                async with server.room.db.transaction() as session:
                    roles = dict(
                        (await session.execute(select(Account.username, Account.role))).all()
                    )
                if all(name in roles for name in names) and roles["bot_plo_1_2_0"] == "bot":
                    break
                await asyncio.sleep(0.05)
            answers = [await log_in(http, name, "bot password") for name in names]
            person = await log_in(http, "bot_o8_2_4_0", "a person's own")
        finally:
            for task in bots:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
    assert roles["bot_nlhe_1_2_0"] == roles["bot_plo_1_2_0"] == "bot"
    assert roles["guest_hu_nlhe_0"] == roles["bot_o8_2_4_0"] == "player"
    assert [(r.status_code, detail(r)) for r in answers] == [(401, WRONG)] * 3
    assert person.status_code == 200  # a person's account is never taken over
    await assert_books_balance(server)


async def test_S_AUTH_1_parallel_log_ins_while_new_names_prune_on_postgresql(
    postgres_server: Server,
) -> None:
    """Real parallel requests on PostgreSQL: Ann's and Bob's failures are past the window
    (their rows are pruned by any new name's first failure); 24 new names fail at once
    with 24 guesses at Bob and Ann's correct password. Ann logs in; Bob's guesses count
    afresh from one and stop at the lock-out; no row of a locked name is pruned."""
    server = postgres_server
    auth = server.app.state.auth
    async with httpx.AsyncClient(base_url=server.base, timeout=120) as http:
        for name in ("ann", "bob"):
            assert (await sign_up(http, name, "correct horse")).status_code == 200
            for _ in range(FREE_FAILURES - 1):
                assert detail(await log_in(http, name, "a guess at it")) == WRONG
        async with server.room.db.transaction() as session:
            await session.execute(  # as if their last failures were a day and a minute ago
                update(LoginFailures).values(
                    last_failed_at=func.now() - FAILURE_WINDOW - timedelta(minutes=1)
                )
            )
        auth.limits = AuthLimits(per_username=TokenBuckets(100, 1))
        auth.passwords.close()
        auth.passwords = PasswordWorker(queue=128)
        answers = await asyncio.gather(
            log_in(http, "ann", "correct horse"),
            *(log_in(http, f"new_{k}", "a guess at it") for k in range(24)),
            *(log_in(http, "bob", f"guess number {k}") for k in range(24)),
        )
    ann, newcomers, bob = answers[0], answers[1:25], answers[25:]
    assert ann.status_code == 200, detail(ann)
    assert all(detail(r) == WRONG for r in newcomers)
    checked = [r for r in bob if detail(r) == WRONG]
    assert len(checked) == FREE_FAILURES + 1  # afresh: the old three are forgotten
    assert all(detail(r).startswith(LOCKED) for r in bob if r not in checked)
    async with server.room.db.transaction() as session:
        counted = await session.get(LoginFailures, "bob")
        assert counted is not None and counted.failures == FREE_FAILURES + 1
        assert counted.locked_until is not None
        assert await session.get(LoginFailures, "ann") is None
    await assert_books_balance(server)
