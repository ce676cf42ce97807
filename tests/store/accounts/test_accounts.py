"""Accounts and sessions: S-AUTH-1 (argon2id, lock-out with back-off, revocable tokens)."""

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from argon2 import extract_parameters, profiles
from sqlalchemy import event, select, text
from sqlalchemy.util import await_only

from pokerroom.store.accounts.accounts import (
    FAILURE_WINDOW,
    FREE_FAILURES,
    LONGEST_LOCK,
    PASSWORD_COST,
    AccountLockedError,
    AuthError,
    authenticate,
    bot_session,
    find_account,
    log_in,
    needs_rehash,
    new_password,
    prune_login_failures,
    revoke,
    revoke_all,
    sign_up,
    start_log_in,
    verify_password,
)
from pokerroom.store.db import Database
from pokerroom.store.models import Account, AuthSession, LoginFailures

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


async def test_S_AUTH_1_passwords_are_hashed_with_argon2id(database: Database) -> None:
    async with database.transaction() as session:
        account = await sign_up(session, "Ann_1", "correct horse", now=NOW, display_name="Ann")
    async with database.transaction() as session:
        stored = await session.scalar(select(Account).where(Account.id == account.id))
        assert stored is not None and stored.username == "ann_1" and stored.display_name == "Ann"
        assert stored.password_hash.startswith("$argon2id$")
        assert "correct horse" not in stored.password_hash


def test_S_AUTH_1_passwords_are_hashed_at_the_recommended_cost_unless_tests_ask(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A room hashes at argon2-cffi's recommended cost; the test suite (tests/conftest.py) asks
    for the cheapest, still argon2id, and a hash of either cost verifies under the other."""
    monkeypatch.delenv(PASSWORD_COST, raising=False)
    recommended = new_password("correct horse").hash
    assert extract_parameters(recommended) == profiles.get_default_parameters()
    monkeypatch.setenv(PASSWORD_COST, "cheapest")
    cheap = new_password("correct horse").hash
    assert cheap.startswith("$argon2id$") and extract_parameters(cheap) == profiles.CHEAPEST
    assert verify_password(recommended, "correct horse") and needs_rehash(recommended)
    monkeypatch.setenv(PASSWORD_COST, "recommended")
    assert verify_password(cheap, "correct horse") and not verify_password(cheap, "wrong horse")
    assert needs_rehash(cheap) and not needs_rehash(recommended)
    monkeypatch.setenv(PASSWORD_COST, "low")
    with pytest.raises(ValueError, match="recommended or cheapest, not 'low'"):
        new_password("correct horse")


async def test_sign_up_rules(database: Database) -> None:
    async with database.transaction() as session:
        await sign_up(session, "ann", "correct horse", now=NOW)
    async with database.transaction() as session:
        with pytest.raises(AuthError, match="'ann' is taken"):
            await sign_up(session, "ANN", "another secret", now=NOW)
        with pytest.raises(AuthError, match="3 to 32"):
            await sign_up(session, "a b", "correct horse", now=NOW)
        with pytest.raises(AuthError, match="at least 8"):
            await sign_up(session, "bob", "short", now=NOW)


async def test_S_AUTH_1_log_in_gives_an_unguessable_revocable_token(database: Database) -> None:
    async with database.transaction() as session:
        await sign_up(session, "ann", "correct horse", now=NOW)
    async with database.transaction() as session:
        first = await log_in(session, "ann", "correct horse", now=NOW)
        second = await log_in(session, "Ann", "correct horse", now=NOW)
    assert first.token != second.token and len(first.token) >= 43  # 256 bits, base64
    async with database.transaction() as session:
        assert (await authenticate(session, first.token, now=NOW)).username == "ann"
        stored = (await session.scalars(select(AuthSession.token_hash))).all()
        assert first.token not in stored and len(stored) == 2  # only hashes are kept
        await revoke(session, first.token)
    async with database.transaction() as session:
        with pytest.raises(AuthError, match="revoked"):
            await authenticate(session, first.token, now=NOW)
        assert (await authenticate(session, second.token, now=NOW)).username == "ann"
        await revoke_all(session, second.account_id)
    async with database.transaction() as session:
        with pytest.raises(AuthError):
            await authenticate(session, second.token, now=NOW)


async def test_sessions_expire(database: Database) -> None:
    async with database.transaction() as session:
        await sign_up(session, "ann", "correct horse", now=NOW)
        token = (await log_in(session, "ann", "correct horse", now=NOW)).token
    async with database.transaction() as session:
        with pytest.raises(AuthError, match="expired"):
            await authenticate(session, token, now=NOW + timedelta(days=31))


async def test_S_AUTH_1_repeated_failures_lock_with_a_growing_back_off(database: Database) -> None:
    async with database.transaction() as session:
        await sign_up(session, "ann", "correct horse", now=NOW)
    moment = NOW
    for _ in range(4):  # free tries
        async with database.transaction() as session:
            with pytest.raises(AuthError, match="wrong password"):
                await log_in(session, "ann", "wrong", now=moment)
    async with database.transaction() as session:
        with pytest.raises(AuthError, match="wrong password"):
            await log_in(session, "ann", "wrong", now=moment)  # fifth: locked for 30 s
    async with database.transaction() as session:
        with pytest.raises(AccountLockedError) as locked:
            await log_in(session, "ann", "correct horse", now=moment + timedelta(seconds=10))
    assert locked.value.until == moment + timedelta(seconds=30)
    moment += timedelta(seconds=31)
    async with database.transaction() as session:
        with pytest.raises(AuthError, match="wrong password"):
            await log_in(session, "ann", "wrong", now=moment)  # sixth: 60 s
    async with database.transaction() as session:
        with pytest.raises(AccountLockedError) as locked:
            await log_in(session, "ann", "correct horse", now=moment + timedelta(seconds=45))
    assert locked.value.until == moment + timedelta(seconds=60)
    async with database.transaction() as session:
        await log_in(session, "ann", "correct horse", now=moment + timedelta(seconds=61))
        assert await session.get(LoginFailures, "ann") is None  # the count starts again


async def test_unknown_users_and_suspended_accounts(database: Database) -> None:
    async with database.transaction() as session:
        with pytest.raises(AuthError, match="unknown username or wrong password"):
            await log_in(session, "nobody", "whatever1", now=NOW)
        account = await sign_up(session, "ann", "correct horse", now=NOW)
        token = (await log_in(session, "ann", "correct horse", now=NOW)).token
        account.suspended = True
    async with database.transaction() as session:
        with pytest.raises(AuthError, match="suspended"):
            await authenticate(session, token, now=NOW)
        with pytest.raises(AuthError, match="suspended"):
            await log_in(session, "ann", "correct horse", now=NOW)


async def test_S_AUTH_2_parallel_guesses_are_counted_atomically(database: Database) -> None:
    """40 attempts, each counted in its own transaction at once: the count loses none, and
    only the first FREE_FAILURES + 1 may go on to have their password checked."""
    async with database.transaction() as session:
        await sign_up(session, "ann", "correct horse", now=NOW)

    async def attempt() -> str:
        try:
            async with database.transaction() as session:
                await start_log_in(session, "ann", now=NOW)
        except AccountLockedError:
            return "locked"
        return "checked"

    results = await asyncio.gather(*(attempt() for _ in range(40)))
    assert results.count("checked") == FREE_FAILURES + 1
    assert results.count("locked") == 40 - FREE_FAILURES - 1
    async with database.transaction() as session:
        counted = await session.get(LoginFailures, "ann")
        assert counted is not None and counted.failures == FREE_FAILURES + 1
        with pytest.raises(AccountLockedError):
            await log_in(session, "ann", "correct horse", now=NOW)


async def test_S_AUTH_2_unknown_names_lock_out_like_known_ones(database: Database) -> None:
    async with database.transaction() as session:
        await sign_up(session, "ann", "correct horse", now=NOW)

    async def answers(name: str) -> list[str]:
        seen = []
        for _ in range(FREE_FAILURES + 2):
            async with database.transaction() as session:
                with pytest.raises(AuthError) as refused:
                    await log_in(session, name, "wrong password", now=NOW)
            seen.append(f"{type(refused.value).__name__}: {refused.value}")
        return seen

    known, unknown = await answers("ann"), await answers("nobody")
    assert known == unknown
    assert known[-1].startswith("AccountLockedError: too many failed log-ins")


# One name as a client may spell it: cases, spaces, fullwidth letters (NFKC: "ann").
SPELLINGS_OF_ANN = ("Ann", " ANN ", "ａｎｎ", "Ａｎｎ", "\u3000ann")


async def test_S_RATE_1_one_name_in_any_spelling_is_one_account(database: Database) -> None:
    async with database.transaction() as session:
        made = await sign_up(session, "ａｎｎ", "correct horse", now=NOW, display_name="Ann")
    assert made.username == "ann"
    hashed = new_password("another secret")  # once: argon2 is slow on purpose
    for spelling in SPELLINGS_OF_ANN:
        async with database.transaction() as session:
            with pytest.raises(AuthError, match="'ann' is taken"):
                await sign_up(session, spelling, hashed, now=NOW)
            found = await find_account(session, spelling)  # as a log-in looks the name up
            assert found is not None and found.id == made.id
    async with database.transaction() as session:
        assert (await log_in(session, " ＡＮＮ", "correct horse", now=NOW)).account_id == made.id


async def test_S_RATE_1_the_lock_out_counts_every_spelling_of_a_name(database: Database) -> None:
    async with database.transaction() as session:
        await sign_up(session, "ann", "correct horse", now=NOW)
    for spelling in SPELLINGS_OF_ANN[: FREE_FAILURES + 1]:
        async with database.transaction() as session:
            await start_log_in(session, spelling, now=NOW)  # counted as failed (committed)
    async with database.transaction() as session:
        counted = await session.get(LoginFailures, "ann")
        assert counted is not None and counted.failures == FREE_FAILURES + 1
    for spelling in ("ann", *SPELLINGS_OF_ANN):
        async with database.transaction() as session:
            with pytest.raises(AccountLockedError):
                await log_in(session, spelling, "correct horse", now=NOW)


async def test_S_AUTH_1_bots_have_no_password(database: Database) -> None:
    async with database.transaction() as session:
        made = await bot_session(session, "bot_one", now=NOW)
        again = await bot_session(session, "bot_one", now=NOW)
    assert made.account_id == again.account_id and made.token != again.token
    async with database.transaction() as session:
        bot = await authenticate(session, made.token, now=NOW)
        assert bot.role == "bot" and not bot.password_hash.startswith("$argon2")
        for password in ("bot password", bot.password_hash, ""):
            with pytest.raises(AuthError, match="unknown username or wrong password"):
                await log_in(session, "bot_one", password, now=NOW)


async def test_S_AUTH_1_a_bot_takes_over_only_an_account_it_is_told_to(database: Database) -> None:
    async with database.transaction() as session:
        await sign_up(session, "bot_old", "bot password", now=NOW)
        old = await log_in(session, "bot_old", "bot password", now=NOW)
    async with database.transaction() as session:
        with pytest.raises(AuthError, match="a person's account"):
            await bot_session(session, "bot_old", now=NOW)
    async with database.transaction() as session:
        new = await bot_session(session, "bot_old", now=NOW, adopt=True)
    assert new.account_id == old.account_id
    async with database.transaction() as session:
        with pytest.raises(AuthError, match="revoked"):
            await authenticate(session, old.token, now=NOW)
        with pytest.raises(AuthError, match="wrong password"):
            await log_in(session, "bot_old", "bot password", now=NOW)


async def test_migration_0005_login_failures_keeps_the_counts_both_ways(database: Database) -> None:
    async with database.transaction() as session:
        await sign_up(session, "ann", "correct horse", now=NOW)
    for _ in range(3):
        async with database.transaction() as session:
            await start_log_in(session, "ann", now=NOW)

    await database.migrate("0004", down=True)
    async with database.engine.connect() as connection:
        count = "SELECT failed_logins FROM accounts WHERE username = 'ann'"
        assert (await connection.execute(text(count))).scalar_one() == 3
    await database.migrate()
    async with database.transaction() as session:
        counted = await session.get(LoginFailures, "ann")
        assert counted is not None and counted.failures == 3


async def fail(database: Database, name: str, moment: datetime, times: int = 1) -> None:
    for _ in range(times):
        async with database.transaction() as session:
            with pytest.raises(AuthError):
                await log_in(session, name, "wrong password", now=moment)


async def test_S_AUTH_1_failures_are_forgotten_a_window_after_the_last_one(
    database: Database,
) -> None:
    async with database.transaction() as session:
        await sign_up(session, "ann", "correct horse", now=NOW)
    assert FAILURE_WINDOW > LONGEST_LOCK  # a lock always ends inside the window
    await fail(database, "ann", NOW, FREE_FAILURES + 1)  # locked for 30 s
    later = NOW + timedelta(seconds=31)
    await fail(database, "ann", later)  # the count goes on: locked for 60 s
    async with database.transaction() as session:
        counted = await session.get(LoginFailures, "ann")
        assert counted is not None and counted.failures == FREE_FAILURES + 2
    # Within the window the count is remembered: one more failure locks again at once.
    await fail(database, "ann", later + FAILURE_WINDOW - timedelta(seconds=1))
    async with database.transaction() as session:
        counted = await session.get(LoginFailures, "ann")
        assert counted is not None and counted.failures == FREE_FAILURES + 3
    # A window after the last failure, the name starts afresh: FREE_FAILURES free tries.
    fresh = later + 2 * FAILURE_WINDOW
    await fail(database, "ann", fresh, FREE_FAILURES)
    async with database.transaction() as session:
        counted = await session.get(LoginFailures, "ann")
        assert counted is not None and counted.failures == FREE_FAILURES
        await log_in(session, "ann", "correct horse", now=fresh)


async def test_S_AUTH_1_old_failure_rows_are_pruned_on_write(database: Database) -> None:
    await fail(database, "old_one", NOW, FREE_FAILURES + 1)  # locked: kept while locked
    await fail(database, "old_two", NOW)
    await fail(database, "recent", NOW + FAILURE_WINDOW)
    async with database.transaction() as session:
        names = set(await session.scalars(select(LoginFailures.username)))
    assert names == {"old_one", "old_two", "recent"}  # none past the window yet
    # A new name's first failure, past the window of the old ones, prunes them.
    await fail(database, "newcomer", NOW + FAILURE_WINDOW + timedelta(seconds=1))
    async with database.transaction() as session:
        names = set(await session.scalars(select(LoginFailures.username)))
        assert names == {"recent", "newcomer"}
        assert await prune_login_failures(session, now=NOW + 3 * FAILURE_WINDOW) == 2
        assert not set(await session.scalars(select(LoginFailures.username)))


async def test_S_AUTH_1_a_prune_racing_a_log_in_never_refuses_it(database: Database) -> None:
    """PostgreSQL, two real connections: a new name's first failure prunes Ann's stale row
    (committed) between her attempt's insert, which found the row, and its count. Her
    correct password still logs her in: no lock is made up from a row that vanished."""
    if database.engine.dialect.name != "postgresql":
        pytest.skip("SQLite runs one writer at a time: the prune cannot come in between")
    async with database.transaction() as session:
        await sign_up(session, "ann", "correct horse", now=NOW)
    await fail(database, "ann", NOW, 2)
    later = NOW + FAILURE_WINDOW + timedelta(minutes=1)  # Ann's row is past the window

    def prune_first(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if statement.lstrip().startswith("UPDATE login_failures") and not pruned:
            pruned.append(True)
            await_only(fail(database, "newcomer", later))  # another request, committed

    pruned: list[bool] = []
    async with database.transaction() as session:
        connection = await session.connection()
        event.listen(connection.sync_connection, "before_cursor_execute", prune_first)
        logged = await log_in(session, "ann", "correct horse", now=later)
    assert pruned and logged.token
    async with database.transaction() as session:
        names = set(await session.scalars(select(LoginFailures.username)))
    assert names == {"newcomer"}  # Ann's count was cleared by her log-in
