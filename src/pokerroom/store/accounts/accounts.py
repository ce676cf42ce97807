"""Accounts: sign-up, log-in and sessions (S-AUTH-1, S-AUTH-2), and the play-money grant.

Passwords are hashed with argon2id. Failed log-ins are counted per username, known or
not, and repeated failures lock the name for a back-off that doubles with every further
failure. An attempt is counted as failed *before* its password is checked, by one atomic
``UPDATE ... RETURNING`` that a locked name does not pass: parallel guesses cannot lose
updates, and no more than ``FREE_FAILURES + 1`` wrong passwords are ever checked before the
lock. A correct password clears the count, and failures are forgotten ``FAILURE_WINDOW``
after the last one (longer than the longest lock): the count starts again, and a new name's
first failure prunes the rows past the window, so the table holds only recent names.
Session tokens are 256 random bits from the OS CSPRNG; only their SHA-256 is stored, and
each can be revoked.

Hashing is slow on purpose (about 0.3 s). ``POKERROOM_PASSWORD_COST=cheapest`` hashes with
argon2id at argon2-cffi's cheapest parameters instead: for the test suite, which signs up
hundreds of people on a small machine, never for a room with players (``serve`` warns).
``log_in`` and ``sign_up`` with a plain password hash inline, for tools and tests; the
server instead runs ``start_log_in``, then ``verify_password`` on a worker thread, then
``finish_log_in``, and hashes a new password before ``sign_up``, so no transaction and no
event loop waits for argon2.

Bots (role ``bot``) have no password at all: they get sessions from ``bot_session`` in the
room's own process and can never log in over REST.
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from argon2 import PasswordHasher, profiles
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import case, delete, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from pokerroom.errors import CodedError
from pokerroom.store.models import Account, AuthSession, LoginFailures
from pokerroom.store.money.ledger import BANK, player_account, transfer

STARTING_GRANT = 1_000_000  # $10,000.00 of play money, in cents
FREE_FAILURES = 4  # wrong passwords before the first lock-out
FIRST_LOCK = timedelta(seconds=30)
LONGEST_LOCK = timedelta(hours=1)
FAILURE_WINDOW = timedelta(hours=24)  # failures older than this (after the last) are forgotten
SESSION_LIFETIME = timedelta(days=30)
USERNAME = re.compile(r"^[a-z0-9_]{3,32}$")
MIN_PASSWORD = 8
WRONG = "auth.wrong_password"  # the one refusal of a log-in, whatever was wrong
NO_PASSWORD = "!"  # a password hash no password matches (a bot's: it cannot log in)

PASSWORD_COST = "POKERROOM_PASSWORD_COST"
_HASHERS = {
    "recommended": PasswordHasher(),  # argon2id with the library's current recommended parameters
    "cheapest": PasswordHasher.from_parameters(profiles.CHEAPEST),  # argon2id, for tests only
}


def password_cost() -> str:
    """The cost ``POKERROOM_PASSWORD_COST`` names: ``recommended`` (the default) or ``cheapest``."""
    cost = os.environ.get(PASSWORD_COST) or "recommended"
    if cost not in _HASHERS:
        raise ValueError(f"{PASSWORD_COST} is recommended or cheapest, not {cost!r}")
    return cost


def _hasher() -> PasswordHasher:
    return _HASHERS[password_cost()]


class AuthError(CodedError, ValueError):
    """Sign-up or log-in refused, with the reason a person can act on (its ``code``,
    pokerroom/errors.py)."""


class AccountLockedError(AuthError):
    def __init__(self, until: datetime) -> None:
        super().__init__(code="auth.locked", until=until.isoformat())
        self.until = until


@dataclass(frozen=True, slots=True)
class LoggedIn:
    account_id: int
    token: str  # give to the client; never stored


@dataclass(frozen=True, slots=True)
class NewPassword:
    """A password that met the rules, hashed (made by ``new_password``, slow)."""

    hash: str


@dataclass(frozen=True, slots=True)
class Attempt:
    """A log-in counted as failed until ``finish_log_in``; ``password_hash`` is None when no
    password can match (no such account, or a bot), and checking it still takes as long."""

    username: str
    account_id: int | None
    password_hash: str | None


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _aware(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes; they were stored in UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def canonical_username(username: str) -> str:
    """The one spelling of a username (S-RATE-1): NFKC-normalised and case-folded (NFKC again
    after folding, as Unicode's NFKC_Casefold), then trimmed. Fullwidth ``ＡＮＮ``, ``Ann`` and
    `` ann `` are all ``ann``: one account, one lock-out, one rate limit."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", username).casefold())
    return folded.strip()


def check_username(username: str) -> str:
    """The username as stored (its canonical spelling), if it meets the rules."""
    name = canonical_username(username)
    if not USERNAME.match(name):
        raise AuthError(code="auth.bad_username")
    return name


def new_password(password: str) -> NewPassword:
    """Hash a password for a new account (CPU-bound: the server calls it on a worker thread)."""
    if len(password) < MIN_PASSWORD:
        raise AuthError(code="auth.short_password", min_length=MIN_PASSWORD)
    return NewPassword(_hasher().hash(password))


def verify_password(password_hash: str | None, password: str) -> bool:
    """Whether ``password`` matches; as slow for no hash as for a real one (no enumeration)."""
    if password_hash is None:
        _hasher().hash(password)
        return False
    try:
        return _hasher().verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(password_hash: str) -> bool:
    return _hasher().check_needs_rehash(password_hash)


async def sign_up(
    session: AsyncSession,
    username: str,
    password: str | NewPassword,
    *,
    now: datetime,
    display_name: str = "",
    role: str = "player",
    grant: int = STARTING_GRANT,
) -> Account:
    """A new account with a play-money balance of ``grant``."""
    name = check_username(username)
    hashed = new_password(password) if isinstance(password, str) else password
    if await session.scalar(select(Account.id).where(Account.username == name)) is not None:
        raise AuthError(code="auth.username_taken", name=name)
    return await _create(session, name, hashed.hash, now, display_name or username, role, grant)


async def _create(
    session: AsyncSession,
    name: str,
    password_hash: str,
    now: datetime,
    display_name: str,
    role: str,
    grant: int,
) -> Account:
    account = Account(
        username=name,
        display_name=display_name.strip()[:32],
        password_hash=password_hash,
        role=role,
        created_at=now,
        suspended=False,
    )
    session.add(account)
    # Guesses at the name before it existed do not lock its new owner out.
    await session.execute(delete(LoginFailures).where(LoginFailures.username == name))
    await session.flush()
    if grant:
        await transfer(
            session,
            "grant",
            {BANK: -grant, player_account(account.id): grant},
            now=now,
            key=f"grant:{account.id}",
            memo="starting play money",
        )
    return account


async def open_session(session: AsyncSession, account_id: int, *, now: datetime) -> LoggedIn:
    """A new session token for an account whose owner has just proved who they are."""
    token = secrets.token_urlsafe(32)
    session.add(
        AuthSession(
            token_hash=_token_hash(token),
            account_id=account_id,
            created_at=now,
            expires_at=now + SESSION_LIFETIME,
            revoked=False,
        )
    )
    await session.flush()
    return LoggedIn(account_id=account_id, token=token)


async def start_log_in(session: AsyncSession, username: str, *, now: datetime) -> Attempt:
    """Count a log-in attempt as failed, atomically, unless the name is locked
    (``AccountLockedError``); lock it now if this attempt is one too many. Commit this
    before checking the password, so that parallel attempts see each other's counts."""
    name = canonical_username(username)
    if not USERNAME.match(name):
        raise AuthError(code=WRONG)  # no account can have this name: nothing to count
    failures = await _count_failure(session, name, now)
    if failures is None:  # the row was deleted (pruned, a log-in) since the insert: anew
        failures = await _count_failure(session, name, now)
    if failures is None:  # deleted again by yet another request: refused, nothing checked
        raise AuthError(code=WRONG)  # pragma: no cover
    if failures > FREE_FAILURES:
        lock = min(FIRST_LOCK * (2 ** (failures - FREE_FAILURES - 1)), LONGEST_LOCK)
        await session.execute(
            update(LoginFailures)
            .where(LoginFailures.username == name)
            .values(locked_until=now + lock)
            .execution_options(synchronize_session=False)
        )
    account = (
        await session.execute(
            select(Account.id, Account.password_hash, Account.role).where(Account.username == name)
        )
    ).one_or_none()
    if account is None:
        return Attempt(name, None, None)
    usable = account.role != "bot" and account.password_hash != NO_PASSWORD
    return Attempt(name, account.id, account.password_hash if usable else None)


async def _count_failure(session: AsyncSession, name: str, now: datetime) -> int | None:
    """Count one failure of ``name``: its count now; ``AccountLockedError`` if it is locked;
    None if its row vanished meanwhile (pruned by a parallel log-in, committed)."""
    insert = postgresql.insert if session.get_bind().dialect.name == "postgresql" else sqlite.insert
    added = await session.execute(
        insert(LoginFailures)
        .values(username=name, failures=0, last_failed_at=now)
        .on_conflict_do_nothing()
    )
    if getattr(added, "rowcount", 0) == 1:  # a new name: the table grows, so prune it
        await prune_login_failures(session, now=now)
    forgotten = or_(
        LoginFailures.last_failed_at.is_(None), LoginFailures.last_failed_at < now - FAILURE_WINDOW
    )
    failures = await session.scalar(
        update(LoginFailures)
        .where(
            LoginFailures.username == name,
            or_(LoginFailures.locked_until.is_(None), LoginFailures.locked_until <= now),
        )
        .values(
            failures=case((forgotten, 1), else_=LoginFailures.failures + 1),
            last_failed_at=now,
        )
        .returning(LoginFailures.failures)
        .execution_options(synchronize_session=False)
    )
    if failures is None:
        row = (
            await session.execute(
                select(LoginFailures.locked_until).where(LoginFailures.username == name)
            )
        ).one_or_none()
        if row is not None:  # the row is there, so the name is locked
            raise AccountLockedError(_aware(row.locked_until or now))
    return failures


async def prune_login_failures(session: AsyncSession, *, now: datetime) -> int:
    """Delete the failure counts that are forgotten (the last failure older than the
    window, no lock running); how many."""
    result = await session.execute(
        delete(LoginFailures)
        .where(
            LoginFailures.last_failed_at < now - FAILURE_WINDOW,
            or_(LoginFailures.locked_until.is_(None), LoginFailures.locked_until <= now),
        )
        .execution_options(synchronize_session=False)
    )
    return int(getattr(result, "rowcount", 0) or 0)


async def finish_log_in(
    session: AsyncSession, attempt: Attempt, *, now: datetime, rehashed: NewPassword | None = None
) -> LoggedIn:
    """After the password matched: clear the failures and open a session."""
    if attempt.account_id is None or attempt.password_hash is None:
        raise AuthError(code=WRONG)  # pragma: no cover - no password matches such an attempt
    await session.execute(delete(LoginFailures).where(LoginFailures.username == attempt.username))
    account = await session.get(Account, attempt.account_id)
    if account is None:
        raise AuthError(code=WRONG)  # pragma: no cover - accounts are never deleted
    if account.suspended:
        raise AuthError(code="auth.suspended")
    if rehashed is not None:
        account.password_hash = rehashed.hash
    return await open_session(session, account.id, now=now)


async def log_in(session: AsyncSession, username: str, password: str, *, now: datetime) -> LoggedIn:
    """Check the password in this one transaction, hashing inline (tools and tests).
    A failure is counted only if the caller commits after the ``AuthError``."""
    attempt = await start_log_in(session, username, now=now)
    if not verify_password(attempt.password_hash, password):
        raise AuthError(code=WRONG)
    old = attempt.password_hash
    rehashed = new_password(password) if old is not None and needs_rehash(old) else None
    return await finish_log_in(session, attempt, now=now, rehashed=rehashed)


async def find_account(session: AsyncSession, username: str) -> Account | None:
    return await session.scalar(
        select(Account).where(Account.username == canonical_username(username))
    )


async def bot_session(
    session: AsyncSession, username: str, *, now: datetime, adopt: bool = False
) -> LoggedIn:
    """A session for the room's own bot ``username``, made with no password (there is none);
    the bot's account is created on first use. ``adopt`` turns an existing account into a bot
    (the caller has checked that it is one made by an older release's bots)."""
    name = canonical_username(username)
    account = await find_account(session, name)
    if account is None:
        account = await _create(session, name, NO_PASSWORD, now, name, "bot", STARTING_GRANT)
    elif account.role != "bot":
        if not adopt:
            raise AuthError(f"{name!r} is a person's account, not a bot's")
        account.role, account.password_hash = "bot", NO_PASSWORD
        await revoke_all(session, account.id)  # sessions opened with the old password
    return await open_session(session, account.id, now=now)


async def authenticate(session: AsyncSession, token: str, *, now: datetime) -> Account:
    """The account a session token belongs to, if the session is live."""
    found = await session.scalar(
        select(AuthSession).where(AuthSession.token_hash == _token_hash(token))
    )
    if found is None or found.revoked or _aware(found.expires_at) <= now:
        raise AuthError(code="auth.not_logged_in")
    account = await session.get(Account, found.account_id)
    if account is None or account.suspended:
        raise AuthError(code="auth.suspended")
    return account


async def revoke(session: AsyncSession, token: str) -> None:
    await session.execute(
        update(AuthSession).where(AuthSession.token_hash == _token_hash(token)).values(revoked=True)
    )


async def revoke_all(session: AsyncSession, account_id: int) -> None:
    await session.execute(
        update(AuthSession).where(AuthSession.account_id == account_id).values(revoked=True)
    )
