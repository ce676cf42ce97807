"""The tournament runner's storage: one transaction per method, each the
``*_sync`` operation of ``store.tournaments.statements`` (money and the event's state
together). On a room of several nodes, each write of the event's owner is fenced on the epoch of
its lease (``store/fence.py``): a stale owner's write is refused whole (StaleEpochError)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from functools import partial
from typing import Any, TypeVar

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Session

from pokerroom.history.tournament_results import EventResult
from pokerroom.store.db import Database
from pokerroom.store.fence import Lease, StaleEpochError, fenced
from pokerroom.store.models import TournamentEntry, TournamentRecord
from pokerroom.store.tables.hands import (
    StartedHand,
    begin_hand_sync,
    cancel_hand_sync,
    cancel_interrupted_hands,
)
from pokerroom.store.tables.results import HandToCount, counted
from pokerroom.store.tables.store import StoreError
from pokerroom.store.tournaments.results import event_results_sync
from pokerroom.store.tournaments.statements import (
    Prize,
    Registration,
    buy_chips_sync,
    cancel_tournament_sync,
    create_tournament_sync,
    entries_of_sync,
    finish_tournament_hand_sync,
    last_hands_sync,
    names_sync,
    open_tournaments_sync,
    pay_prizes_sync,
    register_sync,
    save_state_sync,
    settle_sync,
    unregister_sync,
)

T = TypeVar("T")


class TournamentStore:
    """The tournament runner's storage: one transaction per method."""

    def __init__(self, db: Database, *, lease: Lease | None = None) -> None:
        self.db = db
        self.lease = lease  # several nodes: the event's lease, every write fenced on it
        self.hold: float | None = None  # (store/fence.py: hold_locks_sync)
        self.on_stale: Callable[[str], None] | None = None  # told of a write refused

    def _fenced(self, work: Callable[[Session], T]) -> Callable[[Session], T]:
        return work if self.lease is None else fenced(self.lease, work, hold=self.hold)

    async def _run(self, work: Callable[[Session], T]) -> T:
        try:
            return await self.db.run(self._fenced(work))
        except StaleEpochError as error:
            self._stale(error)
            raise

    def _stale(self, error: StaleEpochError) -> None:
        if self.on_stale is not None:
            self.on_stale(str(error))

    async def create(
        self, tournament_id: str, *, name: str, config: dict[str, Any], snapshot: str, now: datetime
    ) -> None:
        await self.db.run(
            partial(
                create_tournament_sync,
                tournament_id=tournament_id,
                name=name,
                config=config,
                snapshot=snapshot,
                now=now,
            )
        )

    async def register(self, tournament_id: str, account: int, **fields: Any) -> Registration:
        """A registration (``fields`` are ``register_sync``'s); one that lost a race for the
        same entry (PostgreSQL) is tried again once, and then finds the winner: the same
        request is answered again, another one refused."""
        work = partial(register_sync, tournament_id=tournament_id, account=account, **fields)
        try:
            try:
                return await self._here(work)
            except IntegrityError:
                return await self._here(work)
        except SQLAlchemyError as error:  # rolled back: nothing paid (the runner undoes the rest)
            reason = type(error).__name__
            raise StoreError(
                code="table.not_stored", what="the registration", reason=reason
            ) from error

    async def unregister(
        self, tournament_id: str, account: int, *, apply: Callable[[], str], now: datetime
    ) -> None:
        await self._here(
            partial(
                unregister_sync, tournament_id=tournament_id, account=account, apply=apply, now=now
            )
        )

    async def cancel(
        self, tournament_id: str, *, apply: Callable[[], str], now: datetime
    ) -> list[int]:
        """Too few entrants at the start time: every registration refunded (the accounts)."""
        return await self._here(
            partial(cancel_tournament_sync, tournament_id=tournament_id, apply=apply, now=now)
        )

    async def buy_chips(self, tournament_id: str, account: int, **fields: Any) -> bool:
        return await self._here(
            partial(buy_chips_sync, tournament_id=tournament_id, account=account, **fields)
        )

    async def _here(self, work: Callable[[Session], T]) -> T:
        """``work`` in one transaction on the event loop's own thread: its ``apply`` changes
        the coordinator, which the table tasks use on that thread (``Database.run`` would
        run it on the database's thread on SQLite)."""
        try:
            async with self.db.transaction() as session:
                return await session.run_sync(self._fenced(work))
        except StaleEpochError as error:
            self._stale(error)
            raise

    async def save(self, tournament_id: str, snapshot: str, *, status: str, now: datetime) -> None:
        await self._run(
            partial(
                save_state_sync,
                tournament_id=tournament_id,
                snapshot=snapshot,
                status=status,
                now=now,
            )
        )

    async def pay(self, tournament_id: str, prizes: Sequence[Prize], *, now: datetime) -> list[str]:
        return await self._run(
            partial(pay_prizes_sync, tournament_id=tournament_id, prizes=prizes, now=now)
        )

    async def settle(self, tournament_id: str, **fields: Any) -> list[str]:
        return await self._run(partial(settle_sync, tournament_id=tournament_id, **fields))

    async def begin_hand(
        self,
        table_id: str,
        *,
        number: int,
        deck: Sequence[int],
        salt: bytes,
        client_seeds: Sequence[str],
        now: datetime,
    ) -> StartedHand:
        """A tournament table's hand recorded as running, as a cash table's is (its table is
        in the event's snapshot, not in ``tables``); a crash leaves it running and the
        restart cancels it."""
        return await self._run(
            partial(
                begin_hand_sync,
                table_id=table_id,
                number=number,
                deck=deck,
                snapshot_before=None,
                now=now,
                salt=salt,
                client_seeds=client_seeds,
            )
        )

    async def finish_hand(
        self,
        started: StartedHand,
        tournament_id: str,
        *,
        to_count: HandToCount | None = None,
        **fields: Any,
    ) -> list[str]:
        """A tournament hand's end (``finish_tournament_hand_sync``) and, given
        ``to_count``, its players' facts for their results, in one transaction."""
        work: Callable[[Session], list[str]] = partial(
            finish_tournament_hand_sync, started=started, tournament_id=tournament_id, **fields
        )
        if to_count is not None:
            work = counted(work, to_count, hand_id=started.hand_id, at=fields["now"])
        return await self._run(work)

    async def cancel_hand(self, table_id: str, hand_id: int, reason: str, *, now: datetime) -> None:
        """The table's running hand cancelled after a fault, as a cash table's is (its table
        is in the event's state, not written here)."""
        await self._run(
            partial(
                cancel_hand_sync,
                hand_id=hand_id,
                table_id=table_id,
                reason=reason,
                snapshot=None,
                now=now,
            )
        )

    async def names(self, tournament_id: str) -> dict[str, str]:
        """Each registered player's display name, by account id (as the coordinator has it)."""
        return await self.db.run(partial(names_sync, tournament_id=tournament_id))

    async def last_hands(self, prefix: str) -> dict[str, int]:
        """The highest hand number stored for each table whose id starts with ``prefix``."""
        return await self.db.run(partial(last_hands_sync, prefix=prefix))

    async def tournaments(self) -> list[TournamentRecord]:
        return await self.db.run(open_tournaments_sync)

    async def event_results(self, account: int) -> list[EventResult]:
        """My results in tournaments: every finished event of the player's, with their
        finish and its money from the ledger."""
        return await self.db.run(partial(event_results_sync, account=account))

    async def entries(self, tournament_id: str) -> list[TournamentEntry]:
        return await self.db.run(partial(entries_of_sync, tournament_id=tournament_id))

    async def restart(self, *, now: datetime) -> list[TournamentRecord]:
        """At start: hands cut off by a crash cancelled (R-DECK-5); the events to resume."""
        async with self.db.transaction() as session:
            await cancel_interrupted_hands(session, now=now)
            return list(
                await session.scalars(
                    select(TournamentRecord).order_by(TournamentRecord.created_at)
                )
            )
