"""Several nodes: the Redis bus between the node a client's socket is on and the
node that owns the client's table (lila-ws and lila are the model; docs/nodes.md).

- Commands (watch, a message, a closed socket, the floor's void and close) go to the table's
  stream ``table:<id>:in``, read by whichever node owns the table through the consumer group
  ``owner``: an owner that dies leaves what it had not acknowledged for the next one, and each
  command carries an idempotency key, so a command sent again is applied once.
- Frames go back on the socket node's own pub/sub channel, each addressed to connections of
  that node; a table frame carries its table and version, and the socket node asks for the
  table's whole state again when it sees a version skipped (or after its Redis connection
  came back): pub/sub may lose frames, versions and resync repair it.
- Room-wide notices (a session revoked, an account suspended, a preference) go on ``room``.

Redis holds nothing that is not rebuilt: streams and groups are made again when missing,
and every node's liveness key is rewritten every few seconds."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from functools import partial
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import RedisError, ResponseError

from pokerroom.server.nodes import messages
from pokerroom.server.nodes.liveness import beat, reap
from pokerroom.server.nodes.remote import (
    Batch,
    Frame,
    Remote,
    apply_to_actor,
    decode_batch,
    encode_batch,
    no_calls,
    prefix_of,
    remote_client,
    too_late,
)
from pokerroom.server.nodes.remote import BusError as BusError  # raised to the bus's callers
from pokerroom.server.nodes.remote import RefusedError as RefusedError
from pokerroom.server.nodes.stream_claims import CALLS, GROUP, adopt_stream, claim_stranded
from pokerroom.server.sockets.client import Client
from pokerroom.server.tables.inbox import Watching
from pokerroom.server.tables.notices import RoomNotice
from pokerroom.store.account_ids import AccountId

log = logging.getLogger("pokerroom.bus")
STREAM_LENGTH = 10_000  # commands kept per table stream (trimmed approximately)
COMMAND_SECONDS = 30.0  # a command older than this when read is not applied (too late)
SEEN_KEYS = 100_000  # idempotency keys remembered by an owner
ALIVE_SECONDS = 10  # a node's liveness key lives this long ...
BEAT_SECONDS = 2.0  # ... and is rewritten this often
REAP_SECONDS = 5.0  # an owner checks its remote clients' nodes this often (two misses: gone)
BACKOFF = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0)  # seconds between reconnection attempts
SEND_TRIES = 4  # a command is sent this many times (same key) before the client is told
CALL_SECONDS = 10.0  # the floor waits this long for a remote table's answer
CLAIM_SECONDS = 2.0  # an owner takes over commands another node read this long ago, unacked
PUBLISH_BATCH = 500  # payloads sent in one round trip at most

Owned = Callable[[], Mapping[str, Any]]  # the room's actors (TableActor), by table id
Answer = Callable[[], Awaitable[messages.Reply]]  # a call's answer


class Bus:
    def __init__(self, url: str, node: str, owned: Owned, *, prefix: str | None = None) -> None:
        self.node = node
        self.name = f"{node}.{secrets.token_hex(3)}"  # this process: frames come to it
        self.prefix = prefix_of(url) if prefix is None else prefix  # the room's keys
        self.redis = aioredis.from_url(url, client_name=f"pokerroom-{node}")
        self.owned = owned
        self.conns = itertools.count(1)
        self.local: dict[str, Client] = {}  # this node's connections, by conn
        self.versions: dict[tuple[str, str], int] = {}  # (conn, table): last version seen
        self.asked: set[tuple[str, str]] = set()  # resyncs asked and not answered yet
        self.remotes: dict[tuple[str, str], Remote] = {}  # (node, conn): clients of others
        self.seen: OrderedDict[str, None] = OrderedDict()  # idempotency keys applied
        self.pending: dict[str, list[Frame]] = {}  # frames to send, by node
        self.outgoing: asyncio.Queue[tuple[str, bytes]] = asyncio.Queue()
        self.acks: asyncio.Queue[tuple[str, bytes]] = asyncio.Queue()
        self.replies: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.on_notice: Callable[[RoomNotice], None] = lambda notice: None
        self.on_floor: Callable[[Any, str, str], Awaitable[messages.Reply]] | None = None
        self.coordinators: Callable[[], set[str]] = set  # more streams: calls (on_call)
        self.on_call: Callable[[str, messages.EventCall], Awaitable[messages.Reply]] = no_calls
        self.tasks: list[asyncio.Task[None]] = []
        self.flushing = False
        self.sent = 0  # commands sent (tests and metrics)
        self.applied = 0  # commands applied as owner
        self.duplicates = 0  # commands whose key was already applied
        self.expired = 0  # commands older than COMMAND_SECONDS when read: not applied
        self.malformed = 0  # commands that could not be read: dropped
        self.resyncs = 0  # snapshots asked for after a gap or a reconnection
        self.reconnections = 0
        self.subscribed = False  # whether this node's channels are listened to now
        # Seconds from a command sent to its owner reading it (the metrics' histogram).
        self.on_lag: Callable[[float], None] = lambda seconds: None
        self.known: set[str] = set()  # tables the room has (any node's)
        self.tables_of: Callable[[], Awaitable[set[str]]] | None = None
        # The actor each table was announced for (read as its owner): a new actor of a table
        # (adopted again after another node ran it meanwhile) is a new ownership.
        self.adopted: dict[str, Any] = {}
        self.known_at = 0.0
        self.lookup = asyncio.Lock()
        self.alive_seconds, self.beat_seconds = ALIVE_SECONDS, BEAT_SECONDS  # (tests: less)
        self.reap_seconds = REAP_SECONDS
        self.claim_seconds = CLAIM_SECONDS

    def figures(self) -> dict[str, float]:
        """What /metrics shows of the bus (server/ops/metrics.py)."""
        return {
            "sent": self.sent,
            "applied": self.applied,
            "duplicates": self.duplicates,
            "expired": self.expired,
            "resyncs": self.resyncs,
            "reconnections": self.reconnections,
            "up": float(self.subscribed),
            "remote_clients": len(self.remotes),
            "backlog": self.outgoing.qsize(),
            "acks_waiting": self.acks.qsize(),
        }

    def key(self, what: str) -> str:
        return f"{self.prefix}{what}"

    async def start(self) -> None:
        await self.redis.ping()  # a wrong URL is an error at start, not a silent room
        loops = {
            "subscribe": self._subscribe(),
            "read commands": self._read_commands(),
            "publish": self._publish(),
            "acknowledge": self._acknowledge(),
            "beat": beat(self),  # server/nodes/liveness.py: this node alive, the others' checked
            "reap": reap(self),
        }
        self.tasks = [asyncio.create_task(run, name=f"bus {name}") for name, run in loops.items()]

    async def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        with contextlib.suppress(RedisError, OSError):
            await self.redis.delete(self.key(f"alive:{self.name}"))
        await self.redis.aclose()

    # ------------------------------------------------------------ the socket's node

    def attach(self, client: Client) -> None:
        client.conn = f"{next(self.conns)}"
        self.local[client.conn] = client

    def detach(self, client: Client) -> None:
        self.local.pop(client.conn, None)
        for table in client.tables:
            self.versions.pop((client.conn, table), None)
            self.asked.discard((client.conn, table))

    async def has_table(self, table_id: str) -> bool:
        """Whether the room has this table on some node (looked up again at most once a
        second on a miss: a table opened elsewhere is found, a made-up id costs nothing)."""
        if table_id in self.known:
            return True
        async with self.lookup:  # a miss during another's lookup waits for its answer
            if table_id not in self.known and time.monotonic() - self.known_at > 1.0:
                if self.tables_of is not None:
                    self.known = await self.tables_of()
                self.known_at = time.monotonic()
        return table_id in self.known

    async def command(
        self, client: Client, table: str, kind: str, message: str = "", key: str | None = None
    ) -> None:
        """Send a command to the table's owner; sent again (same key) while Redis is away,
        then BusError. ``kind`` is "watch", "said" (``message``: the client's), "gone" or
        "unwatch"; ``key`` names the command (a retry of it is applied once)."""
        sender = messages.Sender(
            key=key or f"{self.name}:{client.conn}:{secrets.token_hex(6)}",
            node=self.name,
            at=time.time(),
            conn=client.conn,
            account=client.account_id,
            name=client.name,
            address=client.address,
        )
        await self.xadd(table, messages.encode_command(messages.from_client(kind, sender, message)))

    async def xadd(self, table: str, fields: Mapping[str, str]) -> None:
        stream = self.key(f"table:{table}:in")
        for attempt in range(SEND_TRIES):
            try:
                entry: dict[Any, Any] = dict(fields)
                await self.redis.xadd(stream, entry, maxlen=STREAM_LENGTH, approximate=True)
                self.sent += 1
                return
            except (RedisError, OSError) as error:
                log.warning("command to table %s not sent (%r): trying again", table, error)
                await asyncio.sleep(BACKOFF[min(attempt, len(BACKOFF) - 1)])
        raise BusError(f"table {table!r} cannot be reached just now: try again in a moment")

    async def call(self, table: str, call: messages.Call) -> dict[str, Any]:
        """The floor's void or close of a table another node owns, or a request to an event
        it runs (``table``: the event's stream of calls): its answer, or BusError."""
        corr = secrets.token_hex(8)
        answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.replies[corr] = answer
        sent = {"key": f"{self.name}:floor:{corr}", "node": self.name, "at": time.time()}
        try:
            await self.xadd(
                table, messages.encode_command(call.model_copy(update=sent | {"call": corr}))
            )
            async with asyncio.timeout(CALL_SECONDS):
                return await answer
        except TimeoutError:
            raise BusError(code="table.no_answer", table=table) from None
        finally:
            self.replies.pop(corr, None)

    def notify(self, notice: messages.Notice) -> None:
        """Tell every node (this one too) something room-wide: a revoked session..."""
        self.outgoing.put_nowait((self.key("room"), messages.encode_notice(notice)))

    def _received(self, batch: Batch) -> None:
        for frame in batch:
            if frame.kind == "reply":
                answer = self.replies.get(frame.table)
                if answer is not None and not answer.done():
                    try:
                        reply = messages.decode_reply(frame.text)
                    except messages.MessageError as error:
                        log.warning("a reply from another node dropped: %s", error)
                        answer.set_exception(BusError(f"{error}"))
                        continue
                    if reply.error is not None:
                        refused = RefusedError if reply.refused else BusError
                        # the error as raised on its node: its code and params
                        params = reply.params or {"message": reply.error}
                        answer.set_exception(refused(code=reply.code, **params))
                    else:
                        answer.set_result(reply.result)
                continue
            for conn in frame.conns:
                client = self.local.get(conn)
                if client is None:
                    continue
                if frame.kind == "drop":
                    client.drop(frame.version or 1000, frame.text)
                elif frame.version is None:
                    client.deliver(frame.text)
                else:
                    self._versioned(client, frame)

    def _versioned(self, client: Client, frame: Frame) -> None:
        """Deliver a table frame; a version skipped asks the owner for the whole state (the
        frame is still delivered: every table frame is the whole table as the viewer sees
        it, but what went between, a chat line, a hand's result, was lost)."""
        where = (client.conn, frame.table)
        last = self.versions.get(where)
        self.versions[where] = frame.version or 0
        if where in self.asked and last is not None and (frame.version or 0) <= last + 1:
            self.asked.discard(where)  # the snapshot came (the owner's version, or one on)
        elif last is not None and (frame.version or 0) > last + 1 and where not in self.asked:
            self.asked.add(where)
            self.resync(client, frame.table)
        client.deliver(frame.text, frame.table, frame.version)

    def resync(self, client: Client, table: str) -> None:
        self.resyncs += 1
        task = asyncio.create_task(self._send_quietly(client, table, "watch"))
        self.tasks.append(task)
        task.add_done_callback(self._forget)

    def _forget(self, task: asyncio.Task[None]) -> None:
        with contextlib.suppress(ValueError):
            self.tasks.remove(task)

    async def _send_quietly(self, client: Client, table: str, kind: str) -> None:
        try:
            await self.command(client, table, kind)
        except BusError as error:
            log.warning("%s for table %s not sent: %s", kind, table, error)

    def gone(self, client: Client, table: str) -> None:
        """A connection closed: its remote tables are told (its seat shows disconnected)."""
        task = asyncio.create_task(self._send_quietly(client, table, "gone"))
        self.tasks.append(task)
        task.add_done_callback(self._forget)

    def unwatch(self, client: Client, table: str) -> None:
        """The client shows a remote table no more: its owner stops sending its frames."""
        task = asyncio.create_task(self._send_quietly(client, table, "unwatch"))
        self.tasks.append(task)
        task.add_done_callback(self._forget)

    def _notice(self, notice: messages.Notice) -> None:
        if isinstance(notice, messages.Adopted):  # a new owner: it knows none of our watchers
            table = notice.table
            actor = self.owned().get(table)  # this node, maybe: then they watch it here
            for client in list(self.local.values()):
                if table not in client.tables or client.closed:
                    continue
                if actor is None:
                    self.resync(client, table)
                elif actor.offer(Watching(client)) is not None:
                    client.drop(1013, f"table {table} is busy: reconnect")
        else:
            self.on_notice(notice)

    def _resync_all(self) -> None:
        """After the connection to Redis came back: frames may have been lost meanwhile."""
        for client in list(self.local.values()):
            for table in client.tables:
                if table not in self.owned() and not client.closed:
                    self.resync(client, table)

    async def _subscribe(self) -> None:
        failures = 0
        while True:
            pubsub = self.redis.pubsub()
            try:
                await pubsub.subscribe(self.key(f"node:{self.name}"), self.key("room"))
                if failures:
                    self.reconnections += 1
                    self._resync_all()
                failures = 0
                self.subscribed = True
                while True:
                    message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=5)
                    if message is None:
                        continue
                    self._heard(message["channel"], message["data"])
            except (RedisError, OSError) as error:
                self.subscribed = False
                log.warning("bus subscription lost (%r): reconnecting", error)
                await asyncio.sleep(BACKOFF[min(failures, len(BACKOFF) - 1)])
                failures += 1
            finally:
                with contextlib.suppress(RedisError, OSError):
                    await pubsub.aclose()

    def _heard(self, channel: bytes, data: bytes) -> None:
        """A message on one of this node's channels: what cannot be read is logged and
        dropped (frames lost so are repaired by the versions' resync)."""
        try:
            if channel == self.key("room").encode():
                self._notice(messages.decode_notice(data))
            else:
                self._received(decode_batch(data))
        except messages.MessageError as error:
            log.warning("a message on %s dropped: %s", channel.decode(errors="replace"), error)

    # ------------------------------------------------------------ the owner's node

    def post(self, node: str, frame: Frame) -> None:
        """Queue a frame for a client on ``node``; sent with the others queued this turn of
        the event loop (one message per node: a frame every spectator there sees goes once)."""
        self.pending.setdefault(node, []).append(frame)
        if not self.flushing:
            self.flushing = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        self.flushing = False
        pending, self.pending = self.pending, {}
        for node, frames in pending.items():
            self.outgoing.put_nowait((self.key(f"node:{node}"), encode_batch(frames)))

    async def _publish(self) -> None:
        """One sender, so a node's frames go in order: the payloads queued meanwhile in one
        round trip (a pipeline), not one each (a busy owner's Redis calls are most of the
        bus's cost); sent again while the connection comes back (for ``BACKOFF`` in all:
        after that the receivers' resync)."""
        while True:
            batch = [await self.outgoing.get()]
            while not self.outgoing.empty() and len(batch) < PUBLISH_BATCH:
                batch.append(self.outgoing.get_nowait())
            for attempt in range(len(BACKOFF) + 1):
                try:
                    pipe = self.redis.pipeline(transaction=False)
                    for channel, payload in batch:
                        pipe.publish(channel, payload)
                    await pipe.execute()
                    break
                except (RedisError, OSError) as error:
                    if attempt == len(BACKOFF):
                        channels = sorted({channel for channel, _ in batch})
                        log.warning("frames to %s lost (%r)", ", ".join(channels), error)
                    else:
                        await asyncio.sleep(BACKOFF[attempt])

    async def _read_commands(self) -> None:
        ready: dict[str, Any] = {}  # table -> the actor whose stream is read (claimed for)
        failures = 0
        claimed_at = time.monotonic()
        while True:
            owned = dict(self.owned())
            readers = [*owned.items(), *((c, CALLS) for c in self.coordinators())]
            tables = [table for table, _ in readers]
            if not tables:
                await asyncio.sleep(0.2)
                continue
            try:
                for table, actor in readers:
                    if ready.get(table) is not actor:  # first read, or owned anew
                        await adopt_stream(self, table, actor)
                        ready[table] = actor
                if time.monotonic() - claimed_at > self.claim_seconds:
                    claimed_at = time.monotonic()
                    for table in tables:
                        await claim_stranded(self, table)
                streams: dict[Any, Any] = {self.key(f"table:{t}:in"): ">" for t in tables}
                read: Any = await self.redis.xreadgroup(
                    GROUP, self.name, streams, count=200, block=500
                )
                failures = 0
                for stream, entries in read or []:
                    table = stream.decode()[len(self.key("table:")) : -len(":in")]
                    for entry, fields in entries:
                        await self.apply(table, entry, fields)
            except ResponseError as error:
                ready.clear()  # NOGROUP: Redis lost its data (restarted, flushed): made again
                if "NOGROUP" not in str(error):
                    log.error("bus commands: %r", error)
                    await asyncio.sleep(1.0)
            except (RedisError, OSError) as error:
                log.warning("bus commands unreadable (%r): reconnecting", error)
                ready.clear()
                await asyncio.sleep(BACKOFF[min(failures, len(BACKOFF) - 1)])
                failures += 1

    async def apply(self, table: str, entry: bytes, fields: dict[bytes, bytes]) -> None:
        """A command read from a table's stream, applied if the table is this node's."""
        actor = self.owned().get(table)
        call = actor is None and table in self.coordinators()
        stream = self.key(f"table:{table}:in")
        if actor is None and not call:  # read as its owner changed: on to the new owner
            with contextlib.suppress(RedisError, OSError):  # (else pending: a claim's)
                await self.redis.xadd(stream, {**fields}, maxlen=STREAM_LENGTH)  # type: ignore
                await self.redis.xack(stream, GROUP, entry)
            return
        ack = partial(self.acks.put_nowait, (stream, entry))
        try:
            command = messages.decode_command(fields)
        except messages.MessageError as error:  # another version's, a stray writer's
            log.warning("a command to %s dropped: %s", table, error)
            self.malformed += 1
            ack()
            return
        if call != isinstance(command, messages.EventCall):  # a table's or an event's stream
            log.warning("a %s command to %s dropped: not one it takes", command.kind, table)
            self.malformed += 1
            ack()
            return
        key = command.key
        age = time.time() - command.at
        if key in self.seen or age > (CALL_SECONDS if call else COMMAND_SECONDS):
            if key in self.seen:
                self.duplicates += 1
            else:  # its moment passed: not applied, and its sender told so (nobody waits
                self.expired += 1  # for a closed socket's "gone"; a call's caller gave up)
                late = None if call else too_late(table, command, age)
                if late is not None:
                    self.post(*late)
            ack()
            return
        self.on_lag(max(age, 0.0))
        self.seen[key] = None
        if len(self.seen) > SEEN_KEYS:
            self.seen.popitem(last=False)
        self.applied += 1
        if isinstance(command, messages.FloorCall | messages.EventCall):
            answer: Answer
            if isinstance(command, messages.EventCall):
                answer = partial(self.on_call, table, command)
            else:
                assert self.on_floor is not None
                answer = partial(self.on_floor, actor, command.kind, command.reason)
            task = asyncio.create_task(self._floor(answer, command.node, command.call))
            self.tasks.append(task)
            task.add_done_callback(self._forget)
            ack()
            return
        remote = self._remote(command)
        apply_to_actor(actor, remote, command, table, ack)
        kind = command.kind
        node, conn = command.node, command.conn
        if kind == "gone":
            remote.tables.discard(table)
            if not remote.tables:  # its socket closed: nothing more is sent to it
                self.remotes.pop((node, conn), None)
                remote.dropped.set()
            ack()
        elif kind == "unwatch":  # the actor stops its frames (and forgets the table)
            ack()
        else:  # a watch, or a message (a join without a watch): its tables, for the reaper
            remote.tables.add(table)

    async def _acknowledge(self) -> None:
        """Acknowledge handled commands, those handled meanwhile in one call per stream and
        the calls in one round trip (a pipeline); a failed one stays pending (its key keeps
        a new owner from applying it twice)."""
        while True:
            done = [await self.acks.get()]
            while not self.acks.empty():
                done.append(self.acks.get_nowait())
            by_stream: dict[str, list[bytes]] = {}
            for stream, entry in done:
                by_stream.setdefault(stream, []).append(entry)
            pipe = self.redis.pipeline(transaction=False)
            for stream, entries in by_stream.items():
                pipe.xack(stream, GROUP, *entries)
            with contextlib.suppress(RedisError, OSError):
                await pipe.execute(raise_on_error=False)  # (each stream's as it went)

    def _remote(self, sender: messages.Sender) -> Remote:
        remote = self.remotes.get((sender.node, sender.conn))
        if remote is None:
            remote = remote_client(sender.node, sender.conn, self.post, self._lose)
            self.remotes[(sender.node, sender.conn)] = remote
        # the account it said hello as there
        remote.account_id = None if sender.account is None else AccountId(sender.account)
        remote.name = sender.name
        remote.address = sender.address
        return remote

    def _lose(self, remote: Remote) -> None:
        self.remotes.pop((remote.node, remote.conn), None)

    async def _floor(self, answer: Answer, node: str, corr: str) -> None:
        """A call (the floor's, a tournament's) answered on the asking node's channel."""
        try:
            reply = await answer()
        except Exception as error:
            reply = messages.error_reply(error)
        self.post(node, Frame((), corr, None, "reply", messages.encode_reply(reply)))


async def forget_room(url: str, prefix: str | None = None) -> None:
    """A fresh room on the nodes' Redis: the keys an earlier run left (its tables' streams
    have the same names) are deleted, only the room's (under ``prefix``, by default the
    database's ``pokerroom:<db>:``), in that Redis database."""
    client = aioredis.from_url(url)
    prefix = prefix_of(url) if prefix is None else prefix
    try:
        keys = [key async for key in client.scan_iter(match=f"{prefix}*", count=500)]
        if keys:
            await client.delete(*keys)
    finally:
        await client.aclose()
