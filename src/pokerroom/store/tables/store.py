"""The room's storage, one method per thing the server does: the only place above ``store/``
that opens transactions. Each method is one transaction, as the server's actions need them
(a join's buy-in with the table it sat at; a hand's end with its leavers' cash-outs)."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Callable, Collection, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any, TypeVar

from sqlalchemy import select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

from pokerroom.errors import CodedError
from pokerroom.history.integrity import Report
from pokerroom.history.results import Filters, ResultsPage
from pokerroom.store.account_ids import player_key
from pokerroom.store.accounts.accounts import (
    Attempt,
    LoggedIn,
    NewPassword,
    authenticate,
    bot_session,
    find_account,
    finish_log_in,
    open_session,
    revoke,
    sign_up,
    start_log_in,
)
from pokerroom.store.accounts.preferences import read_preferences, update_preferences
from pokerroom.store.db import Database
from pokerroom.store.fence import Lease, fenced
from pokerroom.store.models import (
    Account,
    ChatMessage,
    FloorAct,
    HandPlayer,
    HandRecord,
    TableRecord,
    Transfer,
)
from pokerroom.store.money.ledger import (
    LedgerError,
    TableMove,
    balance,
    join,
    leave,
    move_chips,
    open_sitting,
    player_account,
    repeated_request,
    top_up,
)
from pokerroom.store.tables.floor import correct_hand, floor_acts, record_act, suspend_account
from pokerroom.store.tables.floor_reports import (
    StoredHands,
    floor_reports,
    record_connection_sync,
    stored_hands_sync,
)
from pokerroom.store.tables.hands import (
    StartedHand,
    begin_hand_sync,
    cancel_hand_sync,
    cancel_interrupted_hands,
    finish_hand_sync,
    last_hand_number,
    open_tables,
    player_hands,
    save_table,
)
from pokerroom.store.tables.results import HandToCount, counting, results_page_sync

T = TypeVar("T")
log = logging.getLogger("pokerroom.store")


class StoreError(CodedError, RuntimeError):
    """The database refused or lost a player's request; its transaction was rolled back."""


class UnknownOutcomeError(RuntimeError):
    """A request's write failed and whether it committed could not be read back."""


@dataclass(frozen=True, slots=True)
class TableSave:
    """A table as it is written: its name, its configuration and its snapshot."""

    name: str
    config: dict[str, Any]
    snapshot: str


@dataclass(frozen=True, slots=True)
class Reopened:
    """A table restored at start: what to save, and who stood up as its hand was cancelled
    (account, stack), paid in the same transaction."""

    saved: TableSave
    leavers: list[tuple[int, int]]


class RoomStore:
    def __init__(self, db: Database) -> None:
        self.db = db
        # A table's store on a node of several: the table's lease, on whose epoch
        # each of its writes is fenced in the write's own transaction (StaleEpochError: the
        # write is refused whole). None on a single node: no check, nothing to pay.
        self.lease: Lease | None = None
        self.hold: float | None = None  # seconds a fenced write may sit idle (leases.py)

    async def _fence(self, session: AsyncSession) -> None:
        if self.lease is not None:
            await session.run_sync(fenced(self.lease, lambda _: None, hold=self.hold))

    def _fenced(self, work: Callable[[Session], T]) -> Callable[[Session], T]:
        return work if self.lease is None else fenced(self.lease, work, hold=self.hold)

    @asynccontextmanager
    async def _request(self, what: str) -> AsyncIterator[AsyncSession]:
        """A player's request's transaction: a database failure in it is a StoreError (the
        player may try again), not a fault of the table."""
        try:
            async with self.db.transaction() as session:
                yield session
        except SQLAlchemyError as error:
            raise StoreError(
                code="table.not_stored", what=what, reason=type(error).__name__
            ) from error

    @asynccontextmanager
    async def _landed(
        self, what: str, key: str, written: Callable[[], TableSave | None]
    ) -> AsyncIterator[AsyncSession]:
        """A request's transaction whose money moves under ``key``. If it fails after its
        work was done (``written()`` is what it saved), the COMMIT may have gone through
        though the driver reported an error: the key's transfer, looked up afresh, tells.
        Found: it landed, and the request goes on as stored (the error is not raised); not
        found: a StoreError, nothing changed; the look-up failing too: an
        ``UnknownOutcomeError`` (the table's fault: its recovery reads what the store holds)."""
        try:
            async with self._request(what) as session:
                yield session
        except StoreError as error:
            saved = written()
            if saved is None:
                raise
            try:
                async with self.db.transaction() as session:
                    found = await session.scalar(
                        select(Transfer.id).where(Transfer.idempotency_key == key)
                    )
            except SQLAlchemyError as lookup:
                raise UnknownOutcomeError(f"{what}: stored or not, unknown") from lookup
            if found is None:
                raise
            log.warning("%s was stored though its COMMIT reported %r", what, error.__cause__)

    # ------------------------------------------------------------ the room's tables

    async def reopen_tables(
        self,
        restore: Callable[[str, dict[str, Any], str, int], Reopened],
        first: Callable[[], list[tuple[str, TableSave]]],
        *,
        now: datetime,
    ) -> None:
        """At start, one transaction: hands cut off by a crash marked cancelled, and each open
        table ``restore``d from its snapshot (with its last hand's number), its leavers paid
        and the table saved; with no table stored yet, the ``first`` tables saved."""
        async with self.db.transaction() as session:
            await cancel_interrupted_hands(session, now=now)
            records = await open_tables(session)
            for record in records:
                last = await last_hand_number(session, record.id)
                reopened = restore(record.id, json.loads(record.config), record.snapshot, last)
                for account, stack in reopened.leavers:
                    await leave(session, account, record.id, stack, now=now)
                await _save(session, record.id, reopened.saved, now)
            if not records:
                for table_id, saved in first():
                    await _save(session, table_id, saved, now)

    async def table_ids(self) -> set[str]:
        """Every open table's id, whichever node owns it (several nodes: server/nodes/bus.py)."""
        async with self.db.transaction() as session:
            return {record.id for record in await open_tables(session)}

    async def seated_at(self, account: int) -> list[str]:
        """The open tables whose stored snapshot seats ``account``, on any node (a client
        that comes back through another node is told at hello: R-TIME-3)."""
        async with self.db.transaction() as session:
            records = await open_tables(session)
        player = player_key(account)
        return [
            r.id
            for r in records
            if any(s.get("player") == player for s in json.loads(r.snapshot).get("seats", []))
        ]

    # ------------------------------------------------------------ a table's money

    async def seat(
        self,
        table_id: str,
        account: int,
        *,
        key: str,
        buy_in: int,
        seat: int,
        joined: int | None,
        number: int,
        sit: Callable[[], TableSave],
        now: datetime,
    ) -> TableSave | None:
        """A join. ``joined`` is the number of the player's sitting if already seated: then
        the request is only checked (a retry moves nothing; a key from an ended sitting is
        refused) and None is the answer. Otherwise the buy-in, the seat taken (``sit`` takes
        it at the table and gives what to save) and the table: one transaction."""
        saved: TableSave | None = None
        async with self._landed(f"the join {key!r}", key, lambda: saved) as session:
            await self._fence(session)
            sitting = None
            if joined is not None:
                sitting = await open_sitting(session, table_id, account, number=joined)
            await repeated_request(
                session, key, sitting=sitting, seated=joined is not None, amount=buy_in, seat=seat
            )
            if joined is not None:
                return None
            await join(
                session, account, table_id, buy_in, seat=seat, number=number, now=now, key=key
            )
            saved = sit()
            await _save(session, table_id, saved, now)
        return saved

    async def add_chips(
        self,
        table_id: str,
        account: int,
        *,
        key: str,
        amount: int,
        joined: int,
        add: Callable[[], TableSave],
        now: datetime,
    ) -> TableSave | None:
        """Chips from the balance to the sitting's stack (``add`` puts them at the table and
        gives what to save) with the table: one transaction. None: a retried request."""
        saved: TableSave | None = None
        async with self._landed(f"the chips {key!r}", key, lambda: saved) as session:
            await self._fence(session)
            sitting = await open_sitting(session, table_id, account, number=joined)
            if await repeated_request(session, key, sitting=sitting, seated=True, amount=amount):
                return None
            await move_chips(
                session,
                TableMove.BUY_IN,
                account,
                table_id,
                amount,
                now=now,
                key=key,
                sitting_id=None if sitting is None else sitting.id,
            )
            saved = add()
            await _save(session, table_id, saved, now)
        return saved

    async def cash_out(
        self, table_id: str, account: int, stack: int, saved: TableSave, *, now: datetime
    ) -> None:
        """A player stood up between hands: the sitting's cash-out and the table, together."""
        async with self.db.transaction() as session:
            await self._fence(session)
            await leave(session, account, table_id, stack, now=now)
            await _save(session, table_id, saved, now)

    # ------------------------------------------------------------ hands

    async def begin_hand(
        self,
        table_id: str,
        *,
        number: int,
        deck: Sequence[int],
        before: str | None,
        now: datetime,
        salt: bytes | None = None,
        client_seeds: Sequence[str] | None = None,
    ) -> StartedHand:
        """The hand recorded as running (with the table before it, unless ``before`` is
        None: the store holds it already), committed with whatever else the writer has
        ready (``Database.grouped``)."""
        return await self.db.grouped(
            self._fenced(
                partial(
                    begin_hand_sync,
                    table_id=table_id,
                    number=number,
                    deck=deck,
                    snapshot_before=before,
                    now=now,
                    salt=salt,
                    client_seeds=client_seeds,
                )
            )
        )

    async def finish_hand(self, *, to_count: HandToCount | None = None, **fields: Any) -> None:
        """The hand's record, rake, the table after it and the leavers' cash-outs (and,
        given ``to_count``, its players' facts for their results: ``store/tables/results.py``):
        one unit of work (DESIGN 8), group-committed with the other tables' ends
        (``store/group_commit.py``); ``fields`` are ``finish_hand_sync``'s."""
        if to_count is not None:
            hand_id = fields["started"].hand_id
            fields["and_then"] = counting(to_count, hand_id=hand_id, at=fields["now"])
        work: Callable[[Session], None] = partial(finish_hand_sync, **fields)
        await self.db.grouped(self._fenced(work))

    async def cancel_hand(
        self,
        table_id: str,
        *,
        hand_id: int | None,
        reason: str,
        snapshot: str,
        leavers: list[tuple[int, int]],
        now: datetime,
    ) -> bool:
        """A hand cancelled (or none, with only leavers to settle) and the table after it,
        group-committed like a hand's end. True: the hand was running and is cancelled."""
        return await self.db.grouped(
            self._fenced(
                partial(
                    cancel_hand_sync,
                    hand_id=hand_id,
                    table_id=table_id,
                    reason=reason,
                    snapshot=snapshot,
                    now=now,
                    leavers=leavers,
                )
            )
        )

    async def stored_snapshot(self, table_id: str) -> tuple[str, int]:
        """The table's snapshot as the store holds it now, and the highest hand number
        recorded there: a fault's recovery starts from them (a write that committed though
        its caller saw an error is not undone, and a hand begun so is numbered past)."""
        async with self.db.transaction() as session:
            record = await session.get(TableRecord, table_id)
            if record is None:
                raise ValueError(f"no table {table_id!r} in the store")
            return record.snapshot, await last_hand_number(session, table_id)

    async def post_chat(self, table_id: str, account: int, text: str, *, now: datetime) -> None:
        """A chat line, committed by the writer with its next batch (``Database.grouped``)."""

        def add(session: Session) -> None:
            session.add(ChatMessage(table_id=table_id, account_id=account, text=text, at=now))

        await self.db.grouped(add)

    async def save_waiting_list(self, table_id: str, saved: TableSave, *, now: datetime) -> None:
        """A player's request to join or leave a table's waiting list: the table (whose
        snapshot holds the list) saved, or a StoreError and nothing changed."""
        async with self._request(f"the waiting list of {table_id!r}") as session:
            await self._fence(session)
            await _save(session, table_id, saved, now)

    async def save_table(self, table_id: str, saved: TableSave, *, now: datetime) -> None:
        async with self.db.transaction() as session:
            await self._fence(session)
            await _save(session, table_id, saved, now)

    # ------------------------------------------------------------ accounts and hands read

    async def sign_up(
        self, name: str, hashed: NewPassword, *, display_name: str, now: datetime
    ) -> tuple[Account, LoggedIn]:
        """A new account and its first session, together."""
        async with self.db.transaction() as session:
            account = await sign_up(session, name, hashed, now=now, display_name=display_name)
            return account, await open_session(session, account.id, now=now)

    async def start_log_in(self, username: str, *, now: datetime) -> Attempt:
        """A log-in attempt, counted as a failure (and committed) before the password check."""
        async with self.db.transaction() as session:
            return await start_log_in(session, username, now=now)

    async def finish_log_in(
        self, attempt: Attempt, *, rehashed: NewPassword | None, now: datetime
    ) -> LoggedIn:
        async with self.db.transaction() as session:
            return await finish_log_in(session, attempt, now=now, rehashed=rehashed)

    async def find_account(self, username: str) -> Account | None:
        async with self.db.transaction() as session:
            return await find_account(session, username)

    async def bot_session(self, username: str, *, adopt: bool, now: datetime) -> LoggedIn:
        async with self.db.transaction() as session:
            return await bot_session(session, username, now=now, adopt=adopt)

    async def authenticate(self, token: str, *, now: datetime) -> Account:
        async with self.db.transaction() as session:
            return await authenticate(session, token, now=now)

    async def revoke(self, token: str) -> None:
        async with self.db.transaction() as session:
            await revoke(session, token)

    async def preferences(self, account: int) -> dict[str, Any]:
        async with self.db.transaction() as session:
            return await read_preferences(session, account)

    async def update_preferences(
        self,
        account: int,
        change: Callable[[dict[str, Any]], dict[str, Any]],
        *,
        now: datetime,
    ) -> dict[str, Any]:
        """``change`` applied to the saved preferences in one transaction (see
        ``store.accounts.preferences.update_preferences``); an exception it raises stores
        nothing."""
        async with self._request("the preferences") as session:
            return await update_preferences(session, account, change, now=now)

    async def balance(self, account: int) -> int:
        async with self.db.transaction() as session:
            return await balance(session, *player_account(account))

    async def top_up_bot(self, account: int, *, at_least: int, to: int, now: datetime) -> bool:
        """The house tops up one of its bots whose balance cannot pay ``at_least`` (a
        buy-in) to ``to``, from the bank through the ledger; False when it had enough. A
        person's account is refused: only the room's bots get play money this way."""
        async with self.db.transaction() as session:
            found = await session.get(Account, account)
            if found is None or found.role != "bot":
                raise LedgerError(f"account {account} is not one of the room's bots")
            return await top_up(session, account, at_least=at_least, to=to, now=now) is not None

    async def player_hands(
        self, account: int, *, table_id: str | None, limit: int, ids: Collection[int] | None = None
    ) -> list[tuple[HandRecord, HandPlayer]]:
        async with self.db.transaction() as session:
            return await player_hands(session, account, table_id=table_id, limit=limit, ids=ids)

    async def viewer_hand(self, account: int, hand_id: int) -> tuple[HandRecord, HandPlayer] | None:
        """A finished hand with the player's place in it; None if it is not theirs."""
        async with self.db.transaction() as session:
            record = await session.get(HandRecord, hand_id)
            player = await session.get(HandPlayer, (hand_id, account))
        if record is None or player is None or record.status == "running":
            return None
        return record, player

    async def finished_hand(self, hand_id: int) -> HandRecord | None:
        """A finished hand whoever played it (for the floor); None if none."""
        async with self.db.transaction() as session:
            record = await session.get(HandRecord, hand_id)
        return None if record is None or record.status == "running" else record

    async def table_seats(self, table_id: str) -> tuple[str, int | None] | None:
        """A table's name and number of seats, for hand histories; None if never stored."""
        async with self.db.transaction() as session:
            table = await session.get(TableRecord, table_id)
        if table is None:
            return None
        seats = json.loads(table.config).get("seats")
        return table.name, seats if isinstance(seats, int) else None

    async def results_page(self, account: int, filters: Filters) -> ResultsPage:
        """My results: the player's page added up from their ``hand_results`` rows (a few
        grouped queries, no replay)."""
        return await self.db.run(lambda session: results_page_sync(session, account, filters))

    async def record_connection(
        self, account: int, *, address: str, device: str, now: datetime
    ) -> None:
        """An account seen from an address and a device, committed by the writer with its
        next batch (``Database.grouped``): for the floor's shared-connections report."""
        await self.db.grouped(
            lambda session: record_connection_sync(
                session, account, address=address, device=device, now=now
            )
        )

    # ------------------------------------------------------------ the floor

    async def record_act(
        self, operator: int, act: str, target: str, reason: str, *, now: datetime
    ) -> FloorAct:
        async with self.db.transaction() as session:
            return await record_act(session, operator, act, target, reason, now=now)

    async def close_table(
        self, operator: int, table_id: str, reason: str, *, now: datetime
    ) -> None:
        """The floor's act and the table marked closed (not opened again on restart)."""
        async with self.db.transaction() as session:
            await record_act(session, operator, "close_table", f"table {table_id}", reason, now=now)
            record = await session.get(TableRecord, table_id)
            if record is not None:
                record.closed = True

    async def correct_hand(
        self, operator: int, hand_id: int, account: int, amount: int, reason: str, *, now: datetime
    ) -> FloorAct:
        async with self.db.transaction() as session:
            return await correct_hand(session, operator, hand_id, account, amount, reason, now=now)

    async def suspend(self, operator: int, account: int, reason: str, *, now: datetime) -> FloorAct:
        async with self.db.transaction() as session:
            return await suspend_account(session, operator, account, reason, now=now)

    async def floor_acts(self) -> list[FloorAct]:
        async with self.db.transaction() as session:
            return await floor_acts(session)

    async def floor_reports(self, *, since: datetime, until: datetime) -> dict[str, Report]:
        """The integrity reports over the hands that ended in [since, until): the hands read
        in one transaction, then replayed on a worker thread (neither the event loop nor
        the store's one writer waits for the replays)."""
        stored: StoredHands = await self.db.run(
            lambda session: stored_hands_sync(session, since=since, until=until)
        )
        return await asyncio.to_thread(floor_reports, stored)


async def _save(session: Any, table_id: str, saved: TableSave, now: datetime) -> None:
    await save_table(
        session, table_id, name=saved.name, config=saved.config, snapshot=saved.snapshot, now=now
    )
