"""Group commit: one writer task per database turns a burst of writes into one transaction.

When many tables end a hand at once, each hand's end (its record, rake, ledger postings and
the table after it) is one unit of work written against a synchronous Session. The writer
takes every unit waiting in its queue (up to ``limit``), runs them in order in one
transaction and commits once: a burst costs one commit, not one each. Each caller awaits
only its own unit; nothing of a table waits on another table's *decision*, only on the
commit that carries its own write.

If any unit in a batch raises (a constraint, a hand that is not running), the whole batch
is rolled back and every unit is committed again on its own, in order: the others are
neither lost nor written twice, and the failing caller gets exactly the error it would get
alone. A batch whose connection is found lost (no ping before a batch: a round trip each)
runs again whole, once, on a new connection. The same code runs on SQLite and PostgreSQL
(``Database.run`` is the transaction).

``close`` stops taking new work and drains the queue: every unit accepted before it is
committed (or refused with its error) before the database closes.
"""

from __future__ import annotations

import asyncio
import contextvars
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

T = TypeVar("T")
Work = Callable[[Session], Any]
BATCH_LIMIT = 200  # units in one transaction at most (a bounded transaction)


class WriterClosedError(RuntimeError):
    """Work handed to a writer that is closing: it was not taken (nothing was written)."""


@dataclass(frozen=True, slots=True)
class Committed:
    """One transaction the writer committed (or tried): what a metrics hook is told."""

    units: int  # units in the batch
    seconds: float  # from the transaction's start to its commit (or failure)
    ok: bool  # False: the batch failed and its units were committed one at a time


class GroupCommit:
    """The writer of one database. ``run`` is the database's one-transaction runner."""

    def __init__(
        self,
        run: Callable[[Callable[[Session], Any]], Awaitable[Any]],
        *,
        limit: int = BATCH_LIMIT,
        observe: Callable[[Committed], None] | None = None,
    ) -> None:
        if limit < 1:
            raise ValueError(f"a batch holds at least one unit, not {limit}")
        self._run = run
        self.limit = limit
        self.observe = observe
        self._queue: asyncio.Queue[tuple[Work, asyncio.Future[Any]]] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        self.commits = 0  # transactions committed (batches, and units retried alone)
        self.units = 0  # units committed

    async def write(self, work: Callable[[Session], T]) -> T:
        """``work(session)`` committed in the next batch; its result, or its error."""
        if self._closing:
            raise WriterClosedError("the database is closing: nothing was written")
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((work, future))
        if self._task is None:  # a context of its own: never the first caller's (its
            # transaction, if it is in one, is not the writer's)
            self._task = asyncio.create_task(
                self._writer(), name="group commit", context=contextvars.Context()
            )
        # The unit is committed even if the caller is cancelled meanwhile (a shutdown): what
        # was handed over is written, so memory and the store agree on what the caller saw.
        return await asyncio.shield(future)

    async def close(self) -> None:
        """Take no more work; commit everything already taken; end the writer task."""
        self._closing = True
        if self._task is None:
            return
        self._queue.put_nowait(_STOP)
        await self._task

    async def _writer(self) -> None:
        while True:
            first = await self._queue.get()
            batch = [first]
            while len(batch) < self.limit and not self._queue.empty():
                batch.append(self._queue.get_nowait())
            stop = any(unit is _STOP for unit in batch)
            batch = [unit for unit in batch if unit is not _STOP]
            if batch:
                await self._commit(batch)
            if stop and self._queue.empty():
                return

    async def _commit(
        self, batch: list[tuple[Work, asyncio.Future[Any]]], *, again: bool = False
    ) -> None:
        works = [work for work, _ in batch]

        def all_of(session: Session) -> list[Any]:
            return [work(session) for work in works]

        started = time.perf_counter()
        try:
            results = await self._run(all_of)
        except Exception as error:
            self._observe(len(batch), started, ok=False)
            if _connection_lost(error) and not again:
                # Found lost at its first statement (no ping before a batch) or later: the
                # pool takes a new one, and the batch runs again whole, once (its units
                # may have committed: each finds its own write done, as below).
                await self._commit(batch, again=True)
                return
            if len(batch) == 1:
                _answer(batch[0][1], error=error)
                return
            for unit in batch:  # rolled back whole: each again on its own, in order
                await self._commit([unit], again=again)
            return
        self._observe(len(batch), started, ok=True)
        self.commits += 1
        self.units += len(batch)
        for (_, future), result in zip(batch, results, strict=True):
            _answer(future, result=result)

    def _observe(self, units: int, started: float, *, ok: bool) -> None:
        if self.observe is not None:
            self.observe(Committed(units, time.perf_counter() - started, ok))


def _connection_lost(error: Exception) -> bool:
    return isinstance(error, DBAPIError) and error.connection_invalidated


_STOP: Any = (None, None)  # the sentinel ``close`` queues behind the last unit


def _answer(
    future: asyncio.Future[Any], *, result: Any = None, error: BaseException | None = None
) -> None:
    if future.done():  # nobody waits for it any more (never the case with ``shield``)
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)
