"""Sign-up, log-in and bot sessions for the server: argon2 off the event loop, rate limits.

S-AUTH-2: an argon2id hash takes about 0.3 s of CPU. It runs on a small pool of worker
threads (argon2 releases the GIL), ``workers`` at once; a request that would wait behind
more than ``queue`` others is refused at once (503, Retry-After) instead of piling up. No
transaction is open while a password is hashed, so tables never wait for one either.

Log-ins and sign-ups are rate-limited per client address and per username by token buckets
(429, Retry-After). Loopback addresses are exempt from the per-address limit (the room's own
tools run there; ``POKERROOM_LOGIN_EXEMPT`` changes the list). Behind a reverse proxy, let
uvicorn read the proxy's X-Forwarded-For (``--forwarded-allow-ips``) so that clients' own
addresses are limited, or set ``POKERROOM_LOGIN_EXEMPT=""``. The lock-out after
repeated wrong passwords is counted in the database (``pokerroom.store.accounts.accounts``).
"""

from __future__ import annotations

import asyncio
import math
import os
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TypeVar

from pokerroom.server.clock import utcnow
from pokerroom.server.sockets.addresses import canonical_address
from pokerroom.server.sockets.errors import ApiError
from pokerroom.store.accounts.accounts import (
    AuthError,
    LoggedIn,
    NewPassword,
    canonical_username,
    check_username,
    needs_rehash,
    new_password,
    verify_password,
)
from pokerroom.store.tables.store import RoomStore

T = TypeVar("T")
# The password every bot had before bots had none: an account that still has it was made by
# those bots, and is taken over as a bot (so the password stops working).
OLD_BOT_PASSWORD = "bot password"
LOOPBACK = frozenset({"127.0.0.1", "::1"})


class TryLaterError(ApiError):
    """Too many requests (429) or too busy (503): try again after ``retry_after`` seconds."""

    def __init__(self, status: int, code: str, retry_after: float) -> None:
        seconds = str(max(1, math.ceil(retry_after)))
        super().__init__(status, code, headers={"Retry-After": seconds}, seconds=seconds)


class TokenBuckets:
    """A token bucket per key: ``burst`` requests at once, refilled at ``per_second``.

    At most ``max_keys`` keys are remembered (the least recently used go first), so a flood
    of new addresses or names cannot grow the server without bound."""

    def __init__(
        self,
        burst: int,
        per_second: float,
        *,
        max_keys: int = 100_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.burst, self.per_second, self.max_keys, self.clock = burst, per_second, max_keys, clock
        self._buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens, at)

    def wait(self, key: str) -> float:
        """Take one token for ``key``: 0 if there was one, else the seconds until there is."""
        now = self.clock()
        tokens, at = self._buckets.pop(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - at) * self.per_second)
        wait = 0.0 if tokens >= 1 else (1 - tokens) / self.per_second
        self._buckets[key] = (tokens - 1 if wait == 0 else tokens, now)  # newest last
        while len(self._buckets) > self.max_keys:
            del self._buckets[next(iter(self._buckets))]
        return wait


@dataclass
class AuthLimits:
    """The rate limits on log-in and sign-up; tests and operators may change them."""

    log_ins_per_address: TokenBuckets = field(default_factory=lambda: TokenBuckets(20, 20 / 60))
    sign_ups_per_address: TokenBuckets = field(default_factory=lambda: TokenBuckets(5, 5 / 600))
    per_username: TokenBuckets = field(default_factory=lambda: TokenBuckets(10, 10 / 60))
    exempt: frozenset[str] = LOOPBACK  # addresses without a per-address limit

    def __post_init__(self) -> None:
        self.exempt = frozenset(canonical_address(a) for a in self.exempt)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] = os.environ) -> AuthLimits:
        """``POKERROOM_LOGIN_EXEMPT``: the exempt addresses, comma-separated ("" for none)."""
        raw = environ.get("POKERROOM_LOGIN_EXEMPT")
        if raw is None:
            return cls()
        return cls(exempt=frozenset(a.strip() for a in raw.split(",") if a.strip()))

    def check(self, by_address: TokenBuckets, address: str, username: str) -> None:
        """Take a token of the username's and of the address's, each by its one key
        (S-RATE-1): a name or an address spelled another way shares the budget."""
        waits = [self.per_username.wait(canonical_username(username))]
        address = canonical_address(address)
        if address not in self.exempt:
            waits.append(by_address.wait(address))
        if max(waits) > 0:
            raise TryLaterError(429, "auth.rate_limited", max(waits))


class PasswordWorker:
    """argon2 on worker threads: ``workers`` at once, at most ``queue`` more waiting."""

    def __init__(self, *, workers: int = 2, queue: int = 32) -> None:
        self.workers, self.queue = workers, queue
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="argon2")
        self._admitted = 0  # requests between ``admit`` and their end; only the loop touches it
        self._lock = threading.Lock()
        self.hashing = 0  # hashes running on a worker thread right now
        self.verified = 0  # passwords checked against an account (or a stand-in)
        self.threads: set[int] = set()  # the threads that hashed (never the event loop's)

    @contextmanager
    def admit(self) -> Iterator[None]:
        if self._admitted >= self.workers + self.queue:
            raise TryLaterError(503, "auth.busy", 1)
        self._admitted += 1
        try:
            yield
        finally:
            self._admitted -= 1

    async def new(self, password: str) -> NewPassword:
        return await self._run(new_password, password)

    async def verify(self, password_hash: str | None, password: str) -> bool:
        self.verified += 1
        return await self._run(verify_password, password_hash, password)

    async def _run(self, work: Callable[..., T], *args: object) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._pool, self._job, work, args)

    def _job(self, work: Callable[..., T], args: tuple[object, ...]) -> T:
        with self._lock:
            self.hashing += 1
            self.threads.add(threading.get_ident())
        try:
            return work(*args)
        finally:
            with self._lock:
                self.hashing -= 1

    def close(self) -> None:
        self._pool.shutdown(wait=True)


class Auth:
    """The room's log-in and sign-up, each in short transactions around an off-loop hash."""

    def __init__(self, store: RoomStore) -> None:
        self.store = store
        self.passwords = PasswordWorker()
        self.limits = AuthLimits.from_env()

    async def sign_up(self, address: str, username: str, password: str) -> tuple[int, str, str]:
        """A new account, logged in: its id, username and session token."""
        name = check_username(username)
        self.limits.check(self.limits.sign_ups_per_address, address, name)
        with self.passwords.admit():
            hashed = await self.passwords.new(password)
        account, logged = await self.store.sign_up(
            name, hashed, display_name=username, now=utcnow()
        )
        return account.id, account.username, logged.token

    async def log_in(self, address: str, username: str, password: str) -> LoggedIn:
        self.limits.check(self.limits.log_ins_per_address, address, username)
        with self.passwords.admit():
            # Counted as a failure (and committed) before the check: parallel guesses see it.
            attempt = await self.store.start_log_in(username, now=utcnow())
            if not await self.passwords.verify(attempt.password_hash, password):
                raise AuthError(code="auth.wrong_password")
            rehashed = None
            if attempt.password_hash is not None and needs_rehash(attempt.password_hash):
                rehashed = await self.passwords.new(password)
        return await self.store.finish_log_in(attempt, rehashed=rehashed, now=utcnow())

    async def bot_token(self, username: str) -> str:
        """A session for one of the room's own bots, which have no password (S-AUTH-1)."""
        found = await self.store.find_account(username)
        adopt = (
            found is not None
            and found.role != "bot"
            and await self.passwords.verify(found.password_hash, OLD_BOT_PASSWORD)
        )
        return (await self.store.bot_session(username, adopt=adopt, now=utcnow())).token

    def close(self) -> None:
        self.passwords.close()
