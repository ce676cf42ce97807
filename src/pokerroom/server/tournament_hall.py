"""Every tournament of the room (issue 14): resumed at start from the store (each hand that
was in progress cancelled, R-DECK-5), multi-table events started at their time, and a sit &
go of each repeating structure kept open for registration."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable
from itertools import count
from typing import TYPE_CHECKING, Any

from pokerroom.rng import SystemRandomSource
from pokerroom.rules import load_preset
from pokerroom.rules.house import STANDARD, HouseOptions
from pokerroom.rules.tournament import TournamentStructure, load_tournament_structure
from pokerroom.server.clock import aware, utcnow
from pokerroom.server.tournament_deals import restarted
from pokerroom.server.tournaments import TournamentRunner
from pokerroom.store.tournament_store import TournamentStore
from pokerroom.store.tournaments import Prices
from pokerroom.tournament.coordinator import Tournament
from pokerroom.tournament.events import TournamentError
from pokerroom.tournament.snapshot import tournament_from_json

if TYPE_CHECKING:
    from pokerroom.server.room import Room

log = logging.getLogger("pokerroom.tournament")
TICK_SECONDS = 1.0  # how often start times and the repeating sit & gos are looked at


def prices_of(s: TournamentStructure) -> Prices:
    return Prices(
        buy_in=s.buy_in,
        fee=s.fee,
        rebuy=s.rebuy.price if s.rebuy else 0,
        addon=s.addon.price if s.addon else 0,
    )


class Tournaments:
    """Every tournament of the room; ``repeat`` names sit & go structures kept open."""

    def __init__(
        self,
        room: Room,
        *,
        repeat: tuple[str, ...] = (),
        clock: Callable[[], float] = time.time,
        speed: float = 1.0,
        pause: float | None = None,
    ) -> None:
        self.room = room
        self.store = TournamentStore(room.db)
        self.repeat = repeat
        self.clock = clock
        # The clock's seconds per real second (a test's clock may run faster): the tables
        # sleep real seconds until the clock's next moment (a break's end, a deadline).
        self.speed = speed
        self.pause = room.pause if pause is None else pause
        self.runners: dict[str, TournamentRunner] = {}
        self._ids = count(1)
        self._task: asyncio.Task[None] | None = None
        self._changed = asyncio.Event()

    def changed(self) -> None:
        self._changed.set()

    async def start(self) -> None:
        """Resume every stored event (its hands in progress cancelled) and keep going."""
        for record in await self.store.restart(now=utcnow()):
            config = json.loads(record.config)
            structure = load_tournament_structure(config["structure"])
            t = tournament_from_json(record.snapshot, rng=SystemRandomSource(), structure=structure)
            self._next_id(record.id)
            runner = TournamentRunner(self, record.id, t, config, paid=set(json.loads(record.paid)))
            runner.names = await self.store.names(record.id)
            self.runners[record.id] = runner
            runner.cancelled = record.status == "cancelled"
            if runner.cancelled:
                continue
            if t.finished:
                # its last save, at the hand that finished it (the room's clock is the wall's)
                runner.finished_at = aware(record.updated_at).timestamp()
                runner.prizes_due(self.clock())  # the places, for the lobby
                continue
            await self._resume(runner)
        self._task = asyncio.create_task(self._run(), name="tournaments")

    async def _resume(self, runner: TournamentRunner) -> None:
        t = runner.t
        t.cancel_hands()  # R-DECK-5: every hand in progress back to its start
        restarted(runner)  # a deal being agreed is cancelled, its players told
        last = await self.store.last_hands(f"{runner.id}-")
        for number, table in t.tables.items():
            table.hand_number = max(table.hand_number, last.get(runner.table_id(number), 0))
        await runner.save()
        runner.prizes_due(self.clock())
        runner.launch()
        runner.wake_all()

    async def reload(self, runner: TournamentRunner) -> None:
        """The store refused a write the coordinator had made: back to what it holds."""
        for record in await self.store.tournaments():
            if record.id != runner.id:
                continue
            runner.close()
            runner.t = tournament_from_json(
                record.snapshot, rng=SystemRandomSource(), structure=runner.t.structure
            )
            runner.paid = set(json.loads(record.paid))
            await self._resume(runner)

    def _next_id(self, tournament_id: str) -> None:
        number = tournament_id.rsplit("-", 1)[-1]
        if number.isdigit():
            self._ids = count(max(int(number) + 1, next(self._ids)))

    async def create(
        self,
        structure: str,
        *,
        name: str | None = None,
        starts_at: float | None = None,
        preset: str | None = None,
        house: HouseOptions | None = None,
        repeat: bool = False,
    ) -> TournamentRunner:
        """A new event open for registration: a sit & go starts when full, a multi-table
        event at ``starts_at`` (the room's clock); the seed room ``preset``'s house options
        (or ``house``) apply at its tables."""
        s = load_tournament_structure(structure)
        tournament_id = f"{s.name.replace('_', '-')}-{next(self._ids)}"
        if house is None:
            house = STANDARD if preset is None else load_preset(preset)
        t = Tournament(
            structure=s, house=house, rng=SystemRandomSource(), name=name or tournament_id
        )
        config = {
            "structure": s.name,
            "prices": prices_of(s).as_json(),
            "starts_at": starts_at,
            "repeat": repeat,
        }
        runner = TournamentRunner(self, tournament_id, t, config)
        await self.store.create(
            tournament_id, name=t.name, config=config, snapshot=runner.snapshot(), now=utcnow()
        )
        self.runners[tournament_id] = runner
        return runner

    async def _run(self) -> None:
        """Start multi-table events at their time; keep a sit & go of each repeating
        structure open."""
        while True:
            try:
                await self._keep_open()
                for runner in list(self.runners.values()):
                    if runner.status == "registering" and runner.starts_at is not None:
                        await runner.maybe_start()
            except Exception:
                log.exception("tournaments: a turn failed")
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(TICK_SECONDS):
                    await self._changed.wait()

    async def _keep_open(self) -> None:
        for structure in self.repeat:
            open_ = [
                r
                for r in self.runners.values()
                if r.config.get("repeat")
                and r.config["structure"] == structure
                and r.status == "registering"
            ]
            if not open_:
                await self.create(structure, repeat=True)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def get(self, tournament_id: str) -> TournamentRunner:
        runner = self.runners.get(tournament_id)
        if runner is None:
            raise TournamentError(f"no tournament {tournament_id!r}")
        return runner

    def lobby(self) -> list[dict[str, Any]]:
        now = self.clock()
        return [runner.view(now) for runner in self.runners.values()]
