"""Every tournament of the room: resumed at start from the store (each hand that
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
from pokerroom.rules.schedule import Schedule
from pokerroom.rules.tournament import (
    TournamentStructure,
    load_tournament_structure,
    parse_tournament_structure,
    structure_of,
)
from pokerroom.server.clock import aware, utcnow
from pokerroom.server.tables.placement import ElsewhereError
from pokerroom.server.tournaments.deals import restarted
from pokerroom.server.tournaments.runner import TournamentRunner
from pokerroom.server.tournaments.schedule import keep_scheduled
from pokerroom.server.tournaments.table import tournament_table
from pokerroom.store.tournaments.statements import Prices
from pokerroom.store.tournaments.store import TournamentStore
from pokerroom.tournament.coordinator import Tournament
from pokerroom.tournament.events import TournamentError
from pokerroom.tournament.snapshot import tournament_from_json

if TYPE_CHECKING:
    from pokerroom.server.tables.actor import TableActor
    from pokerroom.server.tables.room import Room
    from pokerroom.server.tournaments.requests import EventRequest

log = logging.getLogger("pokerroom.tournament")
TICK_SECONDS = 1.0  # how often start times and the repeating sit & gos are looked at


def prices_of(s: TournamentStructure) -> Prices:
    return Prices(
        buy_in=s.buy_in,
        fee=s.fee,
        rebuy=s.rebuy.price if s.rebuy else 0,
        addon=s.addon.price if s.addon else 0,
        bounty=s.bounty_amount,
    )


class Events:
    """Where the room's events run (the placement's part for tournaments, chosen in
    server/app.py; several nodes: server/nodes/tournament_leases.py and event_views.py);
    this one: every event on this node, none leased."""

    def bind(self, hall: Tournaments) -> None:
        """Called once by the hall it places."""
        self.hall = hall

    async def start(self) -> bool:
        """Resume every stored event (its hands in progress cancelled); True: this node
        runs events (starts them at their time, keeps the repeating sit & gos open)."""
        await self.hall.resume_stored()
        return True

    async def create(self, structure: str, **fields: Any) -> TournamentRunner | None:
        """A new event run here (None: not made, another node keeps one open)."""
        return await self.hall.create_here(structure, **fields)

    async def keep_scheduled(self, schedule: Schedule, runners: list[TournamentRunner]) -> None:
        """The room's schedule's next runs, each listed ahead of its time."""
        await keep_scheduled(schedule, runners, self.hall.create, self.hall.clock())

    def others(self) -> list[TournamentRunner]:
        """The events other nodes run, as last read."""
        return []

    def shadow(self, tournament_id: str) -> TournamentRunner | None:
        """Another node's event, as last read (None: not known)."""
        return None

    async def find(self, tournament_id: str) -> TournamentRunner | None:
        """Another node's event read from the database (None: there is none)."""
        return None

    async def refresh(self) -> None:
        """The other nodes' events read again, if no lease pass reads them here."""

    def watch(self, runner: TournamentRunner, actor: TableActor) -> None:
        """A table of the event, run here (a write refused by a lost lease deposes it)."""

    async def forward(
        self, tournament_id: str, account: int, request: EventRequest
    ) -> dict[str, Any]:
        """A player's request for an event another node runs, answered by its owner."""
        raise ElsewhereError(f"tournament {tournament_id} is not run on this node")


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
        schedule: Schedule | None = None,
        events: Events | None = None,
    ) -> None:
        self.room = room
        self.schedule = schedule  # recurring events, each run listed ahead of its time
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
        # Where the events run: on a room of several nodes, their leases, adoption and
        # forwarding (a node that holds sockets only shows and forwards, and runs none).
        self.events = Events() if events is None else events
        self.events.bind(self)

    def changed(self) -> None:
        self._changed.set()

    def table_for(self, runner: TournamentRunner, number: int) -> TableActor:
        """The task of the event's table ``number`` (a ``TableActor`` with its parts)."""
        return tournament_table(runner, number, pause=self.pause)

    async def start(self) -> None:
        """Resume the events this node runs and keep going. On a room of several nodes, the
        events come with their leases (server/nodes/tournament_leases.py)."""
        if await self.events.start():
            self._task = asyncio.create_task(self._run(), name="tournaments")

    async def resume_stored(self) -> None:
        """Every stored event run here again (its hands in progress cancelled)."""
        for record in await self.store.restart(now=utcnow()):
            runner = self.runner_of(record, await self.store.names(record.id))
            self.runners[record.id] = runner
            if runner.status in ("registering", "running"):
                await self.resume(runner)
        await self._keep_open()  # listed from the room's first answer on

    def runner_of(self, record: Any, names: dict[str, str]) -> TournamentRunner:
        """The runner of a stored event (a ``TournamentRecord`` or a ``TournamentRow``),
        not launched; a finished one with its places (the lobby lists them)."""
        config = json.loads(record.config)
        structure = structure_of(config)
        t = tournament_from_json(record.snapshot, rng=SystemRandomSource(), structure=structure)
        self._next_id(record.id)
        runner = TournamentRunner(self, record.id, t, config, paid=set(json.loads(record.paid)))
        runner.names = names
        runner.cancelled = record.status == "cancelled"
        if t.finished and not runner.cancelled:
            # its last save, at the hand that finished it (the room's clock is the wall's)
            runner.finished_at = aware(record.updated_at).timestamp()
            runner.prizes_due(self.clock())  # the places, for the lobby
        return runner

    async def resume(self, runner: TournamentRunner, last: dict[str, int] | None = None) -> None:
        """Run a stored event again (a restart, or another node's adopted): every hand in
        progress back to its start (R-DECK-5), the levels on from their deadlines."""
        t = runner.t
        t.cancel_hands()  # R-DECK-5: every hand in progress back to its start
        restarted(runner)  # a deal being agreed is cancelled, its players told
        if last is None:
            last = await self.store.last_hands(f"{runner.id}-")
        for number, table in t.tables.items():
            table.hand_number = max(table.hand_number, last.get(runner.table_id(number), 0))
        await runner.save()
        runner.prizes_due(self.clock())
        runner.launch()
        runner.wake_all()
        await runner.maybe_start()  # full (or due) when its last owner stopped: it starts

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
            await self.resume(runner)

    def _next_id(self, tournament_id: str) -> None:
        number = tournament_id.rsplit("-", 1)[-1]
        if number.isdigit():
            self._ids = count(max(int(number) + 1, next(self._ids)))

    async def create(self, structure: str, **fields: Any) -> TournamentRunner:
        """A new event open for registration: a sit & go starts when full, a multi-table
        event at ``starts_at`` (the room's clock); the seed room ``preset``'s house options
        (or ``house``) apply at its tables (``fields``: ``new_runner``'s)."""
        runner = await self.events.create(structure, **fields)
        assert runner is not None
        return runner

    async def create_here(
        self, structure: str, *, tournament_id: str | None = None, **fields: Any
    ) -> TournamentRunner:
        """A new event stored and run on this node (no lease); ``tournament_id``: a private
        sit & go's, its game's id."""
        if tournament_id is None:
            s = load_tournament_structure(structure)
            tournament_id = f"{s.name.replace('_', '-')}-{next(self._ids)}"
        runner = self.new_runner(tournament_id, structure, **fields)
        await self.store.create(
            runner.id,
            name=runner.t.name,
            config=runner.config,
            snapshot=runner.snapshot(),
            now=utcnow(),
        )
        self.runners[runner.id] = runner
        return runner

    def new_runner(
        self,
        tournament_id: str,
        structure: str,
        *,
        name: str | None = None,
        starts_at: float | None = None,
        preset: str | None = None,
        house: HouseOptions | None = None,
        repeat: bool = False,
        target: str | None = None,
        guarantee: int = 0,
        scheduled: str | None = None,
        structure_data: dict[str, Any] | None = None,
        private: bool = False,
    ) -> TournamentRunner:
        """``structure_data``: a structure composed by a private game's host (``structure``
        names it); ``private``: the event of a private sit & go, found only through its
        game (never in the lobby or the tournament routes)."""
        if structure_data is None:
            s = load_tournament_structure(structure)
        else:
            s = parse_tournament_structure(structure_data, structure)
        if house is None:
            house = STANDARD if preset is None else load_preset(preset)
        t = Tournament(
            structure=s, house=house, rng=SystemRandomSource(), name=name or tournament_id
        )
        t.guarantee = guarantee
        config = {
            "structure": s.name,
            "prices": prices_of(s).as_json(),
            "starts_at": starts_at,
            "repeat": repeat,
            "target": target,  # a satellite's: the event its seats are tickets to
            "scheduled": scheduled,  # a run of the room's schedule: its event and start
        }
        if structure_data is not None:
            config["structure_data"] = structure_data
        if private:
            config["private"] = True
        return TournamentRunner(self, tournament_id, t, config)

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
        others = self.events.others()
        if self.schedule is not None:
            await self.events.keep_scheduled(self.schedule, [*self.runners.values(), *others])
        for structure in self.repeat:
            open_ = [
                r
                for r in [*self.runners.values(), *others]
                if r.config.get("repeat")
                and r.config["structure"] == structure
                and r.status == "registering"
            ]
            if open_:
                continue
            await self.events.create(structure, repeat=True)  # unless another node did

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def get(self, tournament_id: str) -> TournamentRunner:
        """The event's runner; another node's as last read (``remote`` says which)."""
        runner = self.runners.get(tournament_id)
        if runner is None:
            runner = self.events.shadow(tournament_id)
        if runner is None:
            raise TournamentError(code="tournament.not_found", tournament=tournament_id)
        return runner

    async def find(self, tournament_id: str) -> TournamentRunner:
        """As ``get``; on a room of several nodes an event created on another node since
        this node's last pass is read from the database (TournamentError: none)."""
        await self.fresh()
        try:
            return self.get(tournament_id)
        except TournamentError:
            runner = await self.events.find(tournament_id)
            if runner is None:
                raise
            return runner

    async def fresh(self) -> None:
        """On a node that holds sockets only, the events as they are now (at most a second
        old): no lease pass reads them there."""
        await self.events.refresh()

    def lobby(self) -> list[dict[str, Any]]:
        now = self.clock()
        others = self.events.others()
        listed = [*self.runners.values(), *others]
        return [runner.view(now) for runner in listed if not runner.config.get("private")]

    def ended_event(self, table_id: str) -> str | None:
        """The name of the finished (or cancelled) event a table id (``{event}-{number}``)
        was a table of; None for any other table."""
        event, _, number = table_id.rpartition("-")
        runner = self.runners.get(event)
        if runner is None or not number.isdigit() or runner.status not in ("finished", "cancelled"):
            return None
        return runner.t.name

    def remote(self, runner: TournamentRunner) -> bool:
        """Run by another node: its requests are forwarded there."""
        return self.runners.get(runner.id) is not runner
