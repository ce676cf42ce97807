"""The lobby and the player's hands: the list, and each hand (or a table's session) exported
as the player may see it (S-EXPORT-1). Replaying stored hands is CPU work: it runs on a worker
thread, not on the event loop that runs every table."""

import asyncio
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import PlainTextResponse

from pokerroom.history.phh import phh_fields, phh_text, to_toml
from pokerroom.history.pokerstars import pokerstars_text
from pokerroom.history.record import RecordError, read_record
from pokerroom.history.viewer import ViewerHand, viewer_hand
from pokerroom.server.clock import utcnow
from pokerroom.server.http.deps import Player, Store, TheRoom
from pokerroom.server.sockets.errors import ApiError
from pokerroom.server.tables.replayer import replay_frames
from pokerroom.server.tournaments.exports import EventTable, event_table, played_by
from pokerroom.server.tournaments.hall import Tournaments
from pokerroom.store.accounts.accounts import AuthError
from pokerroom.store.models import HandPlayer, HandRecord
from pokerroom.store.tables.store import RoomStore

router = APIRouter(prefix="/api")
HandId = Annotated[int, PathParam(ge=1, le=2**63 - 1)]  # the database's 64-bit ids


@router.get("/lobby")
async def lobby(
    room: TheRoom, store: Store, authorization: Annotated[str | None, Header()] = None
) -> list[dict[str, Any]]:
    """Every table; with a session (optional) each also says your place on its waiting list
    (``you_wait``). An unknown or expired session is answered as a guest's."""
    viewer = None
    if authorization and authorization.startswith("Bearer "):
        try:
            viewer = (await store.authenticate(authorization[7:], now=utcnow())).id
        except AuthError:
            viewer = None
    # and the tables other nodes own, as their owners publish them (private games unlisted)
    elsewhere = await room.placement.lobby_elsewhere(viewer)
    return room.lobby(viewer) + [e for e in elsewhere if not room.unlisted(e["id"])]


@router.get("/hands")
async def my_hands(
    account: Player,
    store: Store,
    room: TheRoom,
    request: Request,
    table: str | None = None,
    limit: Annotated[int, Query(ge=1)] = 50,
) -> list[dict[str, Any]]:
    """The player's hands, cash and tournament, newest first, with their result, the table's
    name and game, and the player's own hole cards (S-EXPORT-1: nothing they did not see).
    ``id`` is the number a player knows the hand by (its downloads and the floor's say it),
    ``number`` its count at its table; ``kind`` is ``cash`` or ``tournament``, and a
    tournament hand says its ``event`` (id, name, table) and that its amounts are chips."""
    rows = await store.player_hands(account.id, table_id=table, limit=min(limit, 500))
    events = {hand.table_id: _event(request, hand) for hand, _ in rows}

    def listed() -> list[dict[str, Any]]:  # replays each hand's record: off the event loop
        return [
            {
                "id": hand.id,
                "table": hand.table_id,
                **_where(events[hand.table_id], room.actors.get(hand.table_id), hand.table_id),
                "number": hand.number,
                "status": hand.status,
                "started_at": hand.started_at.isoformat(),
                "seat": player.seat,
                "cards": own_cards(hand, player.position),
                "net": player.end_stack - player.start_stack,
                "rake": hand.rake,
            }
            for hand, player in rows
        ]

    return await asyncio.to_thread(listed)


def _where(event: EventTable | None, actor: Any, table_id: str) -> dict[str, Any]:
    """A listed hand's table, game and kind: a tournament hand's from its event (its table
    may be broken or the event over), a cash hand's from its table while it is open."""
    if event is not None:
        return {
            "table_name": event.name,
            "game": event.game,
            "kind": "tournament",
            "tournament": True,
            "event": {"id": event.event, "name": event.name, "table": event.table},
        }
    return {
        "table_name": actor.table.name if actor else table_id,
        "game": actor.table.spec.name if actor else "",
        "kind": "cash",
        "tournament": False,
        "event": None,
    }


@router.get("/my-tournaments")
async def my_tournaments(account: Player, request: Request) -> list[dict[str, Any]]:
    """The events the player played that the room holds, newest first: name, start, and
    their place and prize (money) once final."""
    hall: Tournaments | None = getattr(request.app.state, "tournaments", None)
    if hall is None:
        return []
    await hall.fresh()
    played = [played_by(runner, account.id) for runner in list(hall.runners.values())]
    return sorted((p for p in played if p), key=lambda p: p["started_at"], reverse=True)


def own_cards(record: HandRecord, position: int) -> list[str]:
    """The hole cards dealt at ``position``, from the hand's stored record (none for a hand
    cut off by a crash, which stores only why)."""
    try:
        hand = read_record(record.record)
    except RecordError:
        return []
    return [str(card) for card in hand.hole_cards(position)]


def seen_by(record: HandRecord, player: HandPlayer) -> ViewerHand:
    """A stored hand as ``player`` may see it: the one decision every export below is
    written from (S-EXPORT-1), read back from the one record stored of it. Replays the
    hand: call it off the event loop."""
    try:
        hand = read_record(record.record)
    except RecordError as error:  # pragma: no cover - our own records replay
        raise ApiError(500, "hands.broken", hand=str(record.id), reason=str(error)) from None
    return viewer_hand(hand, player.position)


async def _viewer_hand(store: RoomStore, account: Any, hand_id: int) -> tuple[HandRecord, Any]:
    found = await store.viewer_hand(account.id, hand_id)
    if found is None:
        raise ApiError(404, "hands.not_found", hand=str(hand_id))
    return found


def _event(request: Request, record: HandRecord) -> EventTable | None:
    """The tournament a stored hand was played in (None for a cash hand)."""
    return event_table(getattr(request.app.state, "tournaments", None), record.table_id)


async def _seats(store: RoomStore, event: EventTable | None, table_id: str) -> dict[str, int]:
    """The table's size as PHH's ``seat_count`` (nothing when no longer known): a tournament
    table's from its event, a cash table's from its stored configuration."""
    if event is not None:
        return {"seat_count": event.seats}
    _, seats = (await store.table_seats(table_id)) or (table_id, None)
    return {} if seats is None else {"seat_count": seats}


@dataclass(frozen=True)
class Written:
    """What a stored hand's downloads say of its table, read on the event loop: its name,
    its size (PHH's ``seat_count``, when known) and its event (None for a cash hand)."""

    name: str
    seats: dict[str, int]
    event: EventTable | None

    def phh(self, record: HandRecord, view: ViewerHand) -> dict[str, Any]:
        """The hand's PHH fields, numbered by its id (the number the player knows it by)."""
        if self.event is not None:
            return self.event.phh_fields(view, hand=record.id, dealt_at=record.started_at)
        return phh_fields(view, _table=record.table_id, hand=record.id, **self.seats)

    def text(self, record: HandRecord, view: ViewerHand) -> str:
        return pokerstars_text(
            view,
            hand_id=record.id,
            table_name=self.name,
            started_at=record.started_at,
            max_seats=self.seats.get("seat_count"),
            tournament=None if self.event is None else self.event.text_header(view, record.number),
        )


async def _written(store: RoomStore, request: Request, record: HandRecord) -> Written:
    name, _ = (await store.table_seats(record.table_id)) or (record.table_id, None)
    event = _event(request, record)
    return Written(name, await _seats(store, event, record.table_id), event)


@router.get("/hands/{hand_id}.phh", response_class=PlainTextResponse)
async def hand_phh(hand_id: HandId, account: Player, store: Store, request: Request) -> str:
    """One hand as PHH, as this player may see it (S-EXPORT-1); a tournament hand with the
    standard's tournament fields (event, level, table, time)."""
    record, player = await _viewer_hand(store, account, hand_id)
    written = await _written(store, request, record)

    return await asyncio.to_thread(lambda: phh_text(written.phh(record, seen_by(record, player))))


@router.get("/hands/{hand_id}.txt", response_class=PlainTextResponse)
async def hand_text(hand_id: HandId, account: Player, store: Store, request: Request) -> str:
    """One hand as PokerStars-style text, for tracking programs; a tournament hand with the
    tournament's header (its number, buy-in, level) and in chips."""
    record, player = await _viewer_hand(store, account, hand_id)
    written = await _written(store, request, record)
    return await asyncio.to_thread(lambda: written.text(record, seen_by(record, player)))


MAX_EXPORT = 1000  # hands in one download


async def _chosen(
    store: RoomStore, request: Request, account: Any, ids: str
) -> list[tuple[HandRecord, HandPlayer, Written]]:
    """The player's hands of ``ids`` (comma-separated), oldest first, each with what its
    downloads say of its table; 422 for a list that is not ids or is too long."""
    try:
        wanted = {int(part) for part in ids.split(",") if part.strip()}
    except ValueError:
        raise ApiError(422, "hands.bad_ids") from None
    if not wanted or len(wanted) > MAX_EXPORT:
        raise ApiError(422, "hands.ids_count", limit=MAX_EXPORT)
    rows = await store.player_hands(account.id, table_id=None, limit=MAX_EXPORT, ids=wanted)
    chosen = list(reversed(rows))
    tables: dict[str, Written] = {}
    out = []
    for record, player in chosen:
        if record.table_id not in tables:
            tables[record.table_id] = await _written(store, request, record)
        out.append((record, player, tables[record.table_id]))
    return out


@router.get("/my-hands.txt", response_class=PlainTextResponse)
async def my_hands_text(account: Player, store: Store, request: Request, ids: str) -> str:
    """The player's hands ``ids`` (any tables, tournaments too) as one PokerStars-style file,
    oldest first, as trackers import whole files; hands that are not theirs are left out.
    Two blank lines part each hand from the next, whatever line a hand's text ends with."""
    chosen = await _chosen(store, request, account, ids)
    return await asyncio.to_thread(
        lambda: "\n\n\n".join(w.text(r, seen_by(r, p)).rstrip("\n") for r, p, w in chosen) + "\n"
    )


@router.get("/my-hands.phhs", response_class=PlainTextResponse)
async def my_hands_phhs(account: Player, store: Store, request: Request, ids: str) -> str:
    """The same hands as one .phhs file, tables [1], [2], ... oldest first."""
    chosen = await _chosen(store, request, account, ids)
    return await asyncio.to_thread(
        lambda: "\n".join(
            f"[{k}]\n" + to_toml(w.phh(r, seen_by(r, p)))
            for k, (r, p, w) in enumerate(chosen, start=1)
        )
    )


@router.get("/hands/{hand_id}/replay")
async def hand_replay(
    hand_id: HandId, account: Player, store: Store, request: Request
) -> dict[str, Any]:
    """The hand step by step for the browser's replayer, as this player saw it; for a
    tournament hand, that its amounts are chips."""
    record, player = await _viewer_hand(store, account, hand_id)
    frames = await asyncio.to_thread(lambda: replay_frames(seen_by(record, player)))
    event = _event(request, record)
    seats = await _seats(store, event, record.table_id)
    return {
        "id": record.id,
        "table": record.table_id,
        "number": record.number,
        "tournament": event is not None,
        "max_seats": seats.get("seat_count"),
        **frames,
    }


@router.get("/sessions/{table_id}.phhs", response_class=PlainTextResponse)
async def session_phhs(
    table_id: str,
    account: Player,
    store: Store,
    limit: Annotated[int, Query(ge=1)] = 200,
) -> str:
    """The player's recent hands at one table, oldest first, as one .phhs file."""
    rows = await store.player_hands(account.id, table_id=table_id, limit=min(limit, 1000))
    seats = await _seats(store, None, table_id)

    def export() -> str:  # up to 1,000 replays: on a worker thread
        return "\n".join(
            f"[{k}]\n" + to_toml(phh_fields(seen_by(record, player), hand=record.id, **seats))
            for k, (record, player) in enumerate(reversed(rows), start=1)
        )

    return await asyncio.to_thread(export)
