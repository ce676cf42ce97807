"""The floor (R-FLOOR-1): operators open, void and close tables, correct hands, suspend."""

import logging
from typing import Annotated, Any

from fastapi import APIRouter
from fastapi import Path as PathParam
from pydantic import BaseModel, Field

from pokerroom.rules.errors import RulesError
from pokerroom.server.clock import utcnow
from pokerroom.server.http.deps import Operator, Store, TheRoom
from pokerroom.server.sockets.errors import ApiError
from pokerroom.server.tables.inbox import Close, Void
from pokerroom.server.tables.placement import ElsewhereError
from pokerroom.server.tables.room import Room, TableConfig
from pokerroom.store.account_ids import account_of
from pokerroom.store.tables.floor import FloorError
from pokerroom.table import TableError

router = APIRouter(prefix="/api/floor")
log = logging.getLogger("pokerroom.floor")
HandId = Annotated[int, PathParam(ge=1, le=2**63 - 1)]  # the database's 64-bit ids


class FloorReason(BaseModel):
    reason: str = Field(min_length=1, max_length=500)


class NewTable(BaseModel):
    id: str = Field(min_length=1, max_length=64, pattern=r"^[a-z0-9-]+$")
    name: str = Field(min_length=1, max_length=64)
    preset: str = "titan"
    variant: str = "holdem"
    structure: str = "no_limit"
    big_blind: int = Field(default=200, gt=0)
    seats: int = Field(default=6, ge=2, le=10)


class Correction(BaseModel):
    account_id: int
    amount: int  # cents: positive pays the player, negative takes chips back
    reason: str = Field(min_length=1, max_length=500)


@router.get("/tables")
async def floor_tables(_: Operator, room: TheRoom) -> list[dict[str, Any]]:
    """Live tables, with the hand in progress, the faults each table's task has logged and
    who sits where (``accounts``: account id, name and stack, for the floor's acts)."""
    return [
        {
            **actor.lobby_entry(),
            "faults": actor.faults,
            "accounts": [
                {"id": account_of(s.player), "name": s.name, "seat": s.number, "stack": s.stack}
                for s in sorted(actor.table.seats.values(), key=lambda s: s.number)
                if s.player.isdigit()
            ],
        }
        for actor in room.actors.values()
    ]


@router.post("/tables")
async def floor_open(body: NewTable, who: Operator, room: TheRoom, store: Store) -> dict[str, Any]:
    """Open a table while the room runs."""
    config = TableConfig(
        body.id, body.name, body.preset, body.variant, body.structure, body.big_blind, body.seats
    )
    try:
        actor = await room.open_table(config)
    except (ValueError, RulesError) as error:
        raise ApiError.of(409, error) from None
    await store.record_act(who.id, "open_table", f"table {body.id}", "opened", now=utcnow())
    _logged(who.id, "open_table", f"table {body.id}", "opened", table=body.id)
    return actor.lobby_entry()


@router.post("/tables/{table_id}/void")
async def floor_void(
    table_id: str, body: FloorReason, who: Operator, room: TheRoom, store: Store
) -> dict[str, Any]:
    """Void the hand in progress: every chip goes back (R-DECK-5)."""
    result = await _at_table(room, table_id, "void", body.reason)
    await store.record_act(who.id, "void_hand", f"table {table_id}", body.reason, now=utcnow())
    _logged(who.id, "void_hand", f"table {table_id}", body.reason, table=table_id)
    return result


@router.post("/tables/{table_id}/close")
async def floor_close(
    table_id: str, body: FloorReason, who: Operator, room: TheRoom, store: Store
) -> dict[str, Any]:
    """Close a table: the hand in progress is voided and every player cashed out."""
    result = await _at_table(room, table_id, "close", body.reason)
    await store.close_table(who.id, table_id, body.reason, now=utcnow())
    _logged(who.id, "close_table", f"table {table_id}", body.reason, table=table_id)
    return result


async def _at_table(room: Room, table_id: str, kind: str, reason: str) -> dict[str, Any]:
    actor = room.actors.get(table_id)
    if actor is None and await room.links.has_table(table_id):
        try:  # another node owns the table: the floor's act goes to it (server/nodes/bus.py)
            return await room.links.call(table_id, kind, reason)
        except ElsewhereError as error:
            raise ApiError.of(409, error) from None
    if actor is None:
        raise ApiError(404, "table.not_found", table=table_id)
    try:
        result = await actor.call(Close if kind == "close" else Void, reason)
    except TableError as error:
        raise ApiError.of(409, error) from None
    return result


@router.post("/hands/{hand_id}/correct")
async def floor_correct(
    hand_id: HandId, body: Correction, who: Operator, store: Store
) -> dict[str, Any]:
    """Correct a finished hand by a compensating ledger entry."""
    try:
        act = await store.correct_hand(
            who.id, hand_id, body.account_id, body.amount, body.reason, now=utcnow()
        )
    except FloorError as error:
        raise ApiError.of(409, error) from None
    what = f"hand {hand_id}: {body.amount:+d} to account {body.account_id}"
    _logged(who.id, "correct_hand", what, body.reason, hand_id=hand_id)
    return {"act": act.id}


@router.post("/accounts/{account_id}/suspend")
async def floor_suspend(
    account_id: int, body: FloorReason, who: Operator, room: TheRoom, store: Store
) -> dict[str, Any]:
    try:
        act = await store.suspend(who.id, account_id, body.reason, now=utcnow())
    except FloorError as error:
        raise ApiError.of(404, error) from None
    room.suspend(account_id)  # S-AUTH-2: its sockets close now, its seats follow the floor
    _logged(who.id, "suspend_account", f"account {account_id}", body.reason, account=account_id)
    return {"act": act.id}


def _logged(operator: int, act: str, target: str, reason: str, **about: Any) -> None:
    """A floor act, once done and stored, in the log too (what it was about in ``about``:
    the log's table, hand_id or account)."""
    log.info("floor act %s on %s by operator %s: %s", act, target, operator, reason, extra=about)


@router.get("/acts")
async def floor_log(_: Operator, store: Store) -> list[dict[str, Any]]:
    return [
        {
            "id": a.id,
            "operator": a.operator_id,
            "act": a.act,
            "target": a.target,
            "reason": a.reason,
            "at": a.at.isoformat(),
        }
        for a in await store.floor_acts()
    ]
