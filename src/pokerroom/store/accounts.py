"""Accounts: sign-up, log-in and sessions (S-AUTH-1), and the play-money grant.

Passwords are hashed with argon2id. Repeated failed log-ins lock the account
for a back-off that doubles with every further failure. Session tokens are 256
random bits from the OS CSPRNG; only their SHA-256 is stored, and each can be
revoked.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from argon2 import PasswordHasher
from argon2.exceptions import VerificationError, VerifyMismatchError
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from pokerroom.store.ledger import BANK, transfer
from pokerroom.store.models import Account, AuthSession

STARTING_GRANT = 1_000_000  # $10,000.00 of play money, in cents
FREE_FAILURES = 4  # wrong passwords before the first lock-out
FIRST_LOCK = timedelta(seconds=30)
LONGEST_LOCK = timedelta(hours=1)
SESSION_LIFETIME = timedelta(days=30)
USERNAME = re.compile(r"^[a-z0-9_]{3,32}$")
MIN_PASSWORD = 8

_hasher = PasswordHasher()  # argon2id with the library's current recommended parameters


class AuthError(ValueError):
    """Sign-up or log-in refused, with the reason a person can act on."""


class AccountLockedError(AuthError):
    def __init__(self, until: datetime) -> None:
        super().__init__(f"too many failed log-ins: try again after {until.isoformat()}")
        self.until = until


@dataclass(frozen=True, slots=True)
class LoggedIn:
    account_id: int
    token: str  # give to the client; never stored


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _aware(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes; they were stored in UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


async def sign_up(
    session: AsyncSession,
    username: str,
    password: str,
    *,
    now: datetime,
    display_name: str = "",
    role: str = "player",
    grant: int = STARTING_GRANT,
) -> Account:
    """A new account with a play-money balance of ``grant``."""
    name = username.strip().lower()
    if not USERNAME.match(name):
        raise AuthError("a username has 3 to 32 letters, digits or underscores")
    if len(password) < MIN_PASSWORD:
        raise AuthError(f"a password has at least {MIN_PASSWORD} characters")
    if await session.scalar(select(Account.id).where(Account.username == name)) is not None:
        raise AuthError(f"the username {name!r} is taken")
    account = Account(
        username=name,
        display_name=(display_name or username).strip()[:32],
        password_hash=_hasher.hash(password),
        role=role,
        created_at=now,
        failed_logins=0,
        suspended=False,
    )
    session.add(account)
    await session.flush()
    if grant:
        await transfer(
            session,
            "grant",
            {BANK: -grant, ("player", str(account.id)): grant},
            now=now,
            key=f"grant:{account.id}",
            memo="starting play money",
        )
    return account


async def log_in(session: AsyncSession, username: str, password: str, *, now: datetime) -> LoggedIn:
    """Check the password; lock the account for a while after repeated failures."""
    account = await session.scalar(
        select(Account).where(Account.username == username.strip().lower())
    )
    if account is None:
        _hasher.hash(password)  # about the same time as a real check: no user enumeration
        raise AuthError("unknown username or wrong password")
    if account.locked_until is not None and _aware(account.locked_until) > now:
        raise AccountLockedError(_aware(account.locked_until))
    if account.suspended:
        raise AuthError("this account is suspended")
    try:
        _hasher.verify(account.password_hash, password)
    except (VerifyMismatchError, VerificationError):
        account.failed_logins += 1
        extra = account.failed_logins - FREE_FAILURES
        if extra > 0:
            lock = min(FIRST_LOCK * (2 ** (extra - 1)), LONGEST_LOCK)
            account.locked_until = now + lock
        await session.flush()
        raise AuthError("unknown username or wrong password") from None
    account.failed_logins = 0
    account.locked_until = None
    if _hasher.check_needs_rehash(account.password_hash):
        account.password_hash = _hasher.hash(password)
    token = secrets.token_urlsafe(32)
    session.add(
        AuthSession(
            token_hash=_token_hash(token),
            account_id=account.id,
            created_at=now,
            expires_at=now + SESSION_LIFETIME,
            revoked=False,
        )
    )
    await session.flush()
    return LoggedIn(account_id=account.id, token=token)


async def authenticate(session: AsyncSession, token: str, *, now: datetime) -> Account:
    """The account a session token belongs to, if the session is live."""
    found = await session.scalar(
        select(AuthSession).where(AuthSession.token_hash == _token_hash(token))
    )
    if found is None or found.revoked or _aware(found.expires_at) <= now:
        raise AuthError("not logged in (the session is unknown, expired or revoked)")
    account = await session.get(Account, found.account_id)
    if account is None or account.suspended:
        raise AuthError("this account is suspended")
    return account


async def revoke(session: AsyncSession, token: str) -> None:
    await session.execute(
        update(AuthSession).where(AuthSession.token_hash == _token_hash(token)).values(revoked=True)
    )


async def revoke_all(session: AsyncSession, account_id: int) -> None:
    await session.execute(
        update(AuthSession).where(AuthSession.account_id == account_id).values(revoked=True)
    )
