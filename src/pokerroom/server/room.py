"""The room: the database, the tables and their actors; recovery on start (S-CRASH-1)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from pokerroom.rng import SystemRandomSource
from pokerroom.rules import load_preset
from pokerroom.rules.game import Structure, Variant
from pokerroom.server.actor import TableActor, utcnow
from pokerroom.store.db import Database
from pokerroom.store.hands import (
    cancel_interrupted_hands,
    last_hand_number,
    open_tables,
    save_table,
)
from pokerroom.store.ledger import leave
from pokerroom.table import Table
from pokerroom.table.events import SeatLeft


@dataclass(frozen=True, slots=True)
class TableConfig:
    id: str
    name: str
    preset: str
    variant: str
    structure: str
    big_blind: int  # cents (the small bet in limit games)
    seats: int
    overrides: tuple[tuple[str, Any], ...] = ()  # house options changed for this table

    def build(self) -> Table:
        house = load_preset(self.preset)
        if self.overrides:
            house = house.with_options(**dict(self.overrides))
        spec = house.game(Variant(self.variant), Structure(self.structure), self.big_blind)
        return Table(
            spec=spec, house=house, seats=self.seats, rng=SystemRandomSource(), name=self.name
        )


# One table per preset and game on first start, so hands are dealt at once.
DEMO_TABLES = (
    TableConfig("nlhe-1-2", "Oslo (NL Hold'em $1/$2)", "multipoker", "holdem", "no_limit", 200, 6),
    TableConfig(
        "flhe-2-4", "Copenhagen (Limit Hold'em $2/$4)", "fortune", "holdem", "fixed_limit", 200, 5
    ),
    TableConfig("plo-1-2", "Bergen (PL Omaha $1/$2)", "titan", "omaha", "pot_limit", 200, 6),
    TableConfig(
        "o8-2-4",
        "Trondheim (Limit Omaha Hi-Lo $2/$4)",
        "titan",
        "omaha_hilo",
        "fixed_limit",
        200,
        6,
    ),
    TableConfig("hu-nlhe", "Stockholm (Heads-up NL $1/$2)", "sweden", "holdem", "no_limit", 200, 2),
    TableConfig(
        "casino-nlhe", "Budapest (Casino NL $1/$2)", "casino", "holdem", "no_limit", 200, 10
    ),
)


class Room:
    def __init__(self, db: Database, *, pause: float = 1.5) -> None:
        self.db = db
        self.pause = pause
        self.actors: dict[str, TableActor] = {}

    async def start(self, *, demo: bool = True) -> None:
        await self.db.migrate()
        async with self.db.transaction() as session:
            await cancel_interrupted_hands(session, now=utcnow())
            records = await open_tables(session)
            for record in records:
                raw = json.loads(record.config)
                raw["overrides"] = tuple(tuple(p) for p in raw.get("overrides", []))
                config = TableConfig(**raw)
                table = Table.from_json(record.snapshot, rng=SystemRandomSource())
                if table.hand is not None:  # cut off by a crash: every chip goes back
                    for event in table.cancel_hand("server restart"):
                        if isinstance(event, SeatLeft):  # asked to leave during the hand
                            await leave(
                                session, int(event.player), record.id, event.stack, now=utcnow()
                            )
                table.hand_number = max(
                    table.hand_number, await last_hand_number(session, record.id)
                )
                await _store(session, config, table)
                self._add(config, table)
            if demo and not records:
                for config in DEMO_TABLES:
                    table = config.build()
                    await _store(session, config, table)
                    self._add(config, table)
        for actor in self.actors.values():
            _launch(actor)

    async def open_table(self, config: TableConfig) -> TableActor:
        """Open a new table while the room runs."""
        if config.id in self.actors:
            raise ValueError(f"table {config.id!r} is already open")
        table = config.build()
        async with self.db.transaction() as session:
            await _store(session, config, table)
        self._add(config, table)
        actor = self.actors[config.id]
        _launch(actor)
        return actor

    def _add(self, config: TableConfig, table: Table) -> None:
        self.actors[config.id] = TableActor(
            self.db, config.id, table, _config_json(config), pause=self.pause
        )

    async def stop(self) -> None:
        for actor in self.actors.values():
            if actor.task is not None:
                actor.task.cancel()
        for actor in self.actors.values():
            if actor.task is not None:
                with contextlib.suppress(asyncio.CancelledError):
                    await actor.task
        await self.db.close()

    def lobby(self) -> list[dict[str, Any]]:
        return [actor.lobby_entry() for actor in self.actors.values()]


async def _store(session: AsyncSession, config: TableConfig, table: Table) -> None:
    await save_table(
        session,
        config.id,
        name=config.name,
        config=_config_json(config),
        snapshot=table.to_json(),
        now=utcnow(),
    )


def _launch(actor: TableActor) -> None:
    actor.task = asyncio.create_task(actor.run(), name=f"table {actor.table_id}")


def _config_json(config: TableConfig) -> dict[str, Any]:
    return {
        "id": config.id,
        "name": config.name,
        "preset": config.preset,
        "variant": config.variant,
        "structure": config.structure,
        "big_blind": config.big_blind,
        "seats": config.seats,
        "overrides": [list(p) for p in config.overrides],
    }
