"""The back office's routes, for operators only (as the rest of the floor): the audit of
``pokerroom audit`` run from the page, the room's metrics of the last hour, any finished
hand replayed with every card, and the tournament hall's acts (create an event from a
structure, start it now, cancel it with every registration refunded)."""

import asyncio
import re
from typing import Annotated, Any, Final

from fastapi import APIRouter, Request
from fastapi import Path as PathParam
from pydantic import BaseModel, Field

from pokerroom.history.record import RecordError, read_record
from pokerroom.history.viewer import EVERYONE, viewer_hand
from pokerroom.rules.errors import RulesError
from pokerroom.rules.tournament import tournament_structure_names
from pokerroom.server.clock import utcnow
from pokerroom.server.http.deps import Operator, Store
from pokerroom.server.http.floor import FloorReason
from pokerroom.server.ops.metric_history import MetricHistory
from pokerroom.server.sockets.errors import ApiError
from pokerroom.server.tables.replayer import replay_frames
from pokerroom.server.tournaments.hall import Tournaments
from pokerroom.server.tournaments.runner import TournamentRunner
from pokerroom.store.audit import audit_database
from pokerroom.tournament.events import TournamentError

router = APIRouter(prefix="/api/floor")
HandId = Annotated[int, PathParam(ge=1, le=2**63 - 1)]
# What an audit's difference names (store/audit.py words them "table t1: ...", "player 7 is
# below zero", "hand 12 (table t1 #3)", "tournament x-1 ..."): each becomes a link.
NAMED: Final = re.compile(r"\b(table|player|hand|tournament|transfer) ([A-Za-z0-9_.-]+)")


def _links(problem: str) -> list[dict[str, str]]:
    links = []
    for kind, target in NAMED.findall(problem):
        link = {"kind": "account" if kind == "player" else kind, "id": target.rstrip(".:,")}
        if link not in links:
            links.append(link)
    return links


@router.get("/audit")
async def floor_audit(_: Operator, store: Store) -> dict[str, Any]:
    """The audit of ``pokerroom audit`` on the room's database now: the chip totals and
    every difference, each with what it names (table, account, hand, tournament)."""
    report = await audit_database(store.db)
    return {
        "ok": report.ok,
        "totals": report.totals,
        "in_circulation": report.in_circulation,
        "transfers": report.transfers,
        "floor_acts": report.floor_acts,
        "tables": report.tables,
        "seated": report.seated,
        "hands_rake": report.hands_rake,
        "tournaments": report.tournaments,
        "problems": [{"text": p, "links": _links(p)} for p in report.problems],
    }


@router.get("/metrics")
async def floor_metrics(_: Operator, request: Request) -> dict[str, Any]:
    """The metrics of the last hour on this node (server/ops/metric_history.py)."""
    history: MetricHistory = request.app.state.metric_history
    history.fresh()
    return history.as_json()


@router.get("/hands/{hand_id}/replay")
async def floor_replay(hand_id: HandId, _: Operator, store: Store) -> dict[str, Any]:
    """A finished hand for the replayer as the room recorded it, every card shown: what
    the floor's reports cite, whoever played it."""
    record = await store.finished_hand(hand_id)
    if record is None:
        raise ApiError(404, "floor.no_hand", hand=str(hand_id))
    try:
        hand = read_record(record.record)
    except RecordError as error:  # pragma: no cover - our own records replay
        raise ApiError(500, "hands.broken", hand=str(hand_id), reason=str(error)) from None
    frames = await asyncio.to_thread(lambda: replay_frames(viewer_hand(hand, EVERYONE)))
    return {"id": record.id, "table": record.table_id, "number": record.number, **frames}


class NewEvent(BaseModel):
    structure: str = Field(min_length=1, max_length=64)
    name: str | None = Field(default=None, min_length=1, max_length=64)


def _hall(request: Request) -> Tournaments:
    hall: Tournaments = request.app.state.tournaments
    return hall


async def _local(request: Request, tournament_id: str) -> TournamentRunner:
    """The event's runner on this node: its acts go where it runs."""
    hall = _hall(request)
    try:
        runner = await hall.find(tournament_id)
    except TournamentError as error:
        raise ApiError.of(404, error) from None
    if hall.remote(runner):
        raise ApiError(409, "floor.event_elsewhere", tournament=tournament_id)
    return runner


@router.get("/tournaments/structures")
async def floor_structures(_: Operator) -> list[str]:
    return tournament_structure_names()


@router.post("/tournaments")
async def floor_create_event(
    body: NewEvent, who: Operator, request: Request, store: Store
) -> dict[str, Any]:
    """A new event of a shipped structure, open for registration."""
    if body.structure not in tournament_structure_names():
        raise ApiError(422, "floor.no_structure", structure=body.structure)
    try:
        runner = await _hall(request).create(body.structure, name=body.name)
    except (RulesError, TournamentError, ValueError) as error:
        raise ApiError.of(409, error) from None
    await store.record_act(
        who.id, "create_tournament", f"tournament {runner.id}", "created", now=utcnow()
    )
    _hall(request).changed()
    return runner.view(runner.now())


@router.post("/tournaments/{tournament_id}/start")
async def floor_start_event(
    tournament_id: str, who: Operator, request: Request, store: Store
) -> dict[str, Any]:
    """Start a registering event now, if it has its structure's minimum of entrants."""
    runner = await _local(request, tournament_id)
    if runner.status != "registering":
        raise ApiError(409, "floor.not_registering", tournament=tournament_id, state=runner.status)
    least = runner.t.structure.min_entrants
    if len(runner.t.entries) < least:
        entrants = len(runner.t.entries)
        raise ApiError(
            409, "floor.too_few_entrants", tournament=tournament_id, least=least, entrants=entrants
        )
    runner.starts_at = runner.now()
    await runner.maybe_start()
    await store.record_act(
        who.id, "start_tournament", f"tournament {tournament_id}", "started", now=utcnow()
    )
    return runner.view(runner.now())


@router.post("/tournaments/{tournament_id}/cancel")
async def floor_cancel_event(
    tournament_id: str, who: Operator, request: Request, store: Store, body: FloorReason
) -> dict[str, Any]:
    """Cancel a registering event: every registration (buy-in and fee) refunded at once."""
    runner = await _local(request, tournament_id)
    if runner.status != "registering":
        raise ApiError(409, "floor.not_registering", tournament=tournament_id, state=runner.status)
    await runner.cancel()
    await store.record_act(
        who.id, "cancel_tournament", f"tournament {tournament_id}", body.reason, now=utcnow()
    )
    return runner.view(runner.now())
