"""The WebSocket: one connection's reader and writer, its limits, and the hand-over of its
messages to the tables' actors."""

import asyncio
import contextlib
import hashlib
import logging
from typing import Any

from fastapi import APIRouter, WebSocket

from pokerroom.server.clock import utcnow
from pokerroom.server.sockets import protocol
from pokerroom.server.sockets.addresses import canonical_address
from pokerroom.server.sockets.client import Client
from pokerroom.server.sockets.errors import RefusalError
from pokerroom.server.tables.inbox import Gone, Said, Unwatching, Watching
from pokerroom.server.tables.placement import ElsewhereError
from pokerroom.server.tables.room import Limits, RateLimit, Room
from pokerroom.store.account_ids import AccountId
from pokerroom.store.accounts.accounts import AuthError
from pokerroom.store.tables.store import RoomStore

log = logging.getLogger("pokerroom.server")
CLOSE_SECONDS = 2.0  # the longest a dropped connection's closing handshake may take
SLOW_DOWN = protocol.error(RefusalError(code="protocol.slow_down"))  # encoded once

router = APIRouter()
# The connections being recorded (``_seen``): held until written, or the loop may drop them.
_RECORDING: set[asyncio.Task[None]] = set()
RAW_SEND = "pokerroom.asgi_send"  # where RawSocketSend puts the server's send in the scope


class RawSocketSend:
    """ASGI middleware: a WebSocket's scope gets the server's own ``send`` under
    ``RAW_SEND``, which the socket's writer sends its frames with (``Client.asgi_send``):
    per frame, not Starlette's state checks and the exception handler's wrapper around
    it (six frames an action). Accepting and closing still go through Starlette."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "websocket":
            scope[RAW_SEND] = send
        await self.app(scope, receive, send)


@router.websocket("/ws")
async def socket(websocket: WebSocket) -> None:
    state = websocket.app.state
    await _connection(state.room, state.store, websocket)


async def _connection(room: Room, store: RoomStore, websocket: WebSocket) -> None:
    """One WebSocket: a reader (this coroutine's task), a writer draining the client's bounded
    queue, and the room's registry; whichever ends first ends the connection (S-ISOLATE-1)."""
    limits = room.limits
    origin = websocket.headers.get("origin")
    # One key per client however its address is spelled (S-RATE-1): the per-address limits
    # on connections and on a table's inbox count it.
    address = canonical_address(websocket.client.host) if websocket.client is not None else ""
    host = websocket.headers.get("host")
    if origin is not None and not origin_allowed(origin, host, limits):
        # The access log shows only the 403: say why, and what would have matched (a proxy
        # that drops the port from Host refuses every browser; docs/deploy.md).
        room.refusals.warning(
            address,
            "origin",
            "WebSocket from %s refused: Origin %r is neither http(s)://%s (from the Host"
            " header) nor in POKERROOM_ORIGINS",
            address,
            origin,
            host,
        )
        await websocket.close(code=1008, reason="origin not allowed")  # before accept: 403
        return
    client = Client(
        send=websocket.send_text,
        asgi_send=websocket.scope.get(RAW_SEND),
        address=address,
        outbox_frames=limits.outbox_frames,
    )
    refused = room.connect(client)
    if refused is not None:
        room.refusals.warning(
            address, "connections", "WebSocket from %s refused: %s", address, refused
        )
        await websocket.close(code=1013, reason=refused)
        return
    tasks: list[asyncio.Task[Any]] = []
    try:
        await websocket.accept()
        client.deliver(protocol.frame(protocol.Welcome(version=protocol.PROTOCOL_VERSION)))
        tasks = [
            asyncio.create_task(client.write()),
            asyncio.create_task(_read(room, store, client, websocket)),
            asyncio.create_task(client.dropped.wait()),
        ]
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        if client.closed:
            log.info(
                "connection %s (account %s) closed: %s",
                address,
                client.account_id,
                client.drop_reason,
                extra={"account": client.account_id, "address": address},
            )
        if client.closed and client.drop_code != 1011:  # dropped, not broken: say why
            with contextlib.suppress(Exception):
                async with asyncio.timeout(CLOSE_SECONDS):
                    if client.flush:  # a protocol error: its message goes out first
                        await client.outbox.join()
                    tasks[0].cancel()
                    await websocket.close(code=client.drop_code, reason=client.drop_reason)
            if client.drop_code == 1008 and client.socket is not None:
                client.socket.cut()  # thrown out (a flood, not reading): nothing more is read
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        room.disconnect(client)
        for table_id in client.tables:
            actor = room.actors.get(table_id)  # a tournament's table may have broken
            if actor is not None:
                actor.post(Gone(client))
            else:  # another node's table: its seat shows disconnected
                room.links.gone(client, table_id)


async def _read(room: Room, store: RoomStore, client: Client, websocket: WebSocket) -> None:
    """Read frames until the client leaves; refuse what is over the limits."""
    limits = room.limits
    bucket = RateLimit(limits)
    device = device_of(websocket.headers.get("user-agent", ""))
    while True:
        # Idle: anonymous and watching nothing (a logged-in socket is accountable, and a
        # watching one is dropped if it stops reading).
        if client.tables or client.account_id is not None:
            frame = await websocket.receive()  # no timer to arm: once per message
        else:
            try:
                async with asyncio.timeout(limits.idle_seconds):
                    frame = await websocket.receive()
            except TimeoutError:
                client.drop(1000, f"idle for {limits.idle_seconds:g} s")
                return
        if frame["type"] == "websocket.disconnect":
            return
        # Frames already parsed are handed over without a pause: let the tables and other
        # sockets run between two of them, so a flood cannot hold the loop for thousands.
        await asyncio.sleep(0)
        if not bucket.take():
            client.deliver(SLOW_DOWN)
            if bucket.flooding:
                client.drop(1008, "too many messages")
                return
            continue
        try:
            message = protocol.parse_frame(frame.get("text"), frame.get("bytes"))
        except protocol.ProtocolError as error:
            client.deliver(protocol.error(error))
            if error.fatal:  # binary or nested past reason: say so and close cleanly
                code = 1003 if frame.get("bytes") is not None else 1007
                client.drop(code, str(error)[:100], flush=True)
                return
            continue
        await _dispatch(
            room,
            store,
            client,
            message,
            getattr(websocket.app.state, "tournaments", None),
            device=device,
            private=getattr(websocket.app.state, "private", None),
        )


def origin_allowed(origin: str, host: str | None, limits: Limits) -> bool:
    """A browser may connect from the room's own origin or one the operator allowed."""
    if origin in limits.origins:
        return True
    return host is not None and origin in (f"http://{host}", f"https://{host}")


def device_of(user_agent: str) -> str:
    """The device a connection comes from, for the floor's shared-connections report: a
    stable hash (SHA-256, hex, first 32 digits) of the User-Agent header the client sent,
    so one browser on one machine gives one key and the header itself is not kept. Not an
    identity: any client can send any User-Agent, and two like browsers share one."""
    return hashlib.sha256(user_agent.encode("utf-8", "replace")).hexdigest()[:32]


def _seen(store: RoomStore, account: int, address: str, device: str) -> None:
    """The account seen from this address and device, written in the background (the
    writer's next batch): the hello's answer does not wait for it, and a failure to write
    it is logged, never the connection's."""

    async def record() -> None:
        try:
            await store.record_connection(
                account, address=address[:64], device=device, now=utcnow()
            )
        except Exception:  # the floor's report misses one sighting; the room goes on
            log.warning("connection of account %s not recorded", account, exc_info=True)

    task = asyncio.create_task(record())
    _RECORDING.add(task)
    task.add_done_callback(_RECORDING.discard)


async def _dispatch(
    room: Room,
    store: RoomStore,
    client: Client,
    message: Any,
    hall: Any = None,
    *,
    device: str = "",
    private: Any = None,
) -> None:
    if isinstance(message, protocol.Ping):
        client.deliver(protocol.frame(protocol.Pong()))
        return
    if isinstance(message, protocol.Hello):
        try:
            account = await store.authenticate(message.token, now=utcnow())
        except AuthError as error:
            client.deliver(protocol.error(error, request="hello"))
            return
        known = client.account_id == account.id  # a hello again: the owners know it
        client.account_id, client.name = AccountId(account.id), account.display_name
        if not known:
            _seen(store, account.id, client.address, device)
            log.info(
                "connection %s is account %s (%s)",
                client.address,
                account.id,
                account.display_name,
                extra={"account": account.id, "address": client.address},
            )
        client.token = message.token
        if not known:  # its remote tables' owners learn who it is
            for table in client.tables - room.actors.keys():
                room.links.resync(client, table)
        # and at the tables other nodes own (as last stored)
        seated = room.seated(account.id) + await room.links.seated_elsewhere(account.id)
        client.deliver(
            protocol.frame(
                protocol.HelloOk(account=account.id, name=account.display_name, seated=seated)
            )
        )
        return
    if isinstance(message, protocol.Unwatch):
        _unwatch(room, client, message.table)
        return
    # A private game's table: to whoever the game does not let in, as if there were none.
    refused = None if private is None else private.refusal(client.account_id, message)
    if refused is not None:
        client.deliver(protocol.error(refused, request=message.type, table=message.table))
        return
    actor = room.actors.get(message.table)
    remote = actor is None and await room.links.has_table(message.table)
    if actor is None and not remote:
        owner = room.placement.owner_of(message.table)
        missing = RefusalError(code="table.not_found", table=message.table)
        ended = None if hall is None else hall.ended_event(message.table)
        if ended is not None:  # a finished event's table (after a restart, say): said so
            missing = RefusalError(code="tournament.table_ended", event=ended)
        elif owner is not None:  # several nodes without Redis: nothing carries it there
            missing = RefusalError(code="table.elsewhere", table=message.table, node=owner)
        client.deliver(protocol.error(missing, request=message.type, table=message.table))
        return
    if isinstance(message, protocol.Watch):
        if (
            client.account_id is None
            and not client.tables
            and room.anonymous_watchers() >= room.limits.anonymous_watchers
        ):
            client.deliver(
                protocol.error(
                    RefusalError(code="table.too_many_watchers"),
                    request=message.type,
                    table=message.table,
                )
            )
            return
    elif client.account_id is None:
        client.deliver(
            protocol.error(
                RefusalError(code="auth.log_in_first"),
                request=message.type,
                table=message.table,
            )
        )
        return
    if actor is None:
        await _to_owner(room, client, message)
        return
    item: Watching | Said = (
        Watching(client) if isinstance(message, protocol.Watch) else Said(client, message)
    )
    refused = actor.offer(item)
    if refused is not None:
        client.deliver(protocol.error(refused, request=message.type))
        return
    client.tables.add(message.table)


def _unwatch(room: Room, client: Client, table: str) -> None:
    """Its frames stop; a table gone meanwhile (a tournament's broke) needs no answer."""
    actor = room.actors.get(table)
    if actor is not None:
        actor.post(Unwatching(client))
    elif table in client.tables:
        room.links.unwatch(client, table)  # its seat there, if any, still ends with the socket


async def _to_owner(room: Room, client: Client, message: Any) -> None:
    """A table another node owns: the message goes to it over the bus (server/nodes/bus.py)."""
    kind = "watch" if isinstance(message, protocol.Watch) else "said"
    try:
        await room.links.command(client, message.table, kind, message.model_dump_json())
    except ElsewhereError as error:
        client.deliver(protocol.error(error, request=message.type, table=message.table))
        return
    client.tables.add(message.table)
