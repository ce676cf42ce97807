"""``pokerroom serve`` and ``pokerroom bots``: run the room, and add bots to a running room."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import random
import secrets
import socket
import sys
from collections.abc import Awaitable, Callable, Sequence
from typing import Annotated, Any

import typer

from pokerroom.cli.audit import DEFAULT_DATABASE

log = logging.getLogger("pokerroom.bots")
RECEIVE_BUFFER = 16 * 1024  # bytes asked of the kernel for each connection (it doubles them)
SEND_BUFFER = 64 * 1024  # the same for what the room sends: tens of table frames
# The house's bots per demo table when no person plays there (bots.house keeps them there,
# rejoining after busts with back-off, and gives up seats to people on the waiting list):
# tables deal at once, and seats stay free for people. Heads-up: two, one of which stands
# up when a person waits; the casino deals to no fewer than four (R-SEAT-1).
BOTS_PER_TABLE = {
    "nlhe-1-2": 3,
    "flhe-2-4": 3,
    "plo-1-2": 3,
    "o8-2-4": 3,
    "hu-nlhe": 2,
    "casino-nlhe": 4,
    "nlhe-options": 3,
}
# Seconds a house bot takes over a decision, on average: a visitor watching a demo table
# follows the hand as it is played, as at a table of people.
BOT_THINK = 1.0


async def _bots(
    base_urls: Sequence[str],
    plan: dict[str, int],
    prefix: str,
    tokens: Callable[[str], Awaitable[str]] | None = None,
    *,
    think: float = 0.0,
) -> None:
    """Bots at each table of ``plan``, through any of ``base_urls`` (reconnecting through
    the next when a connection fails: ``run_bot_reconnecting``); ``tokens`` gives a bot its
    session in the room's own process (bots there have no password), else each signs up
    with a random password. A bot that gives up says why (it is refused every seat)."""
    from pokerroom.bots.client import BotError, run_bot_reconnecting
    from pokerroom.bots.strategy import house_strategy
    from pokerroom.store.accounts.accounts import AuthError

    tasks = []
    for table, count in plan.items():
        for k in range(count):
            strategy = house_strategy(k)
            name = f"{prefix}_{table.replace('-', '_')}_{k}"[:32]
            try:
                token = None if tokens is None else await tokens(name)
            except AuthError:
                continue  # a person has this name: the seat stays free for people
            bot = run_bot_reconnecting(
                base_urls,
                name,
                strategy,
                table=table,
                token=token,
                rng=random.Random(),
                think=think,
            )
            tasks.append(asyncio.create_task(bot))
    for ended in asyncio.as_completed(tasks):
        try:
            await ended
        except BotError as error:
            log.warning("%s", error)
        except Exception:  # one bot's fault (a frame it cannot read) ends only that bot
            log.exception("a bot stopped")


async def _sit_and_go_bots(
    base_url: str,
    structure: str,
    tokens: Callable[[str], Awaitable[str]],
    *,
    seats_free: int = 1,
    prefix: str = "sng_bot",
) -> None:
    """Keep the open sit & go of ``structure`` filled with bots (named ``prefix``_0, ...)
    but ``seats_free`` seats (for the newcomer): it starts when they register, and the next
    one opens."""
    import httpx

    from pokerroom.bots.strategy import TightBot
    from pokerroom.bots.tournament import run_tournament_bot
    from pokerroom.store.accounts.accounts import AuthError

    idle = [f"{prefix}_{k}" for k in range(12)]
    playing: set[asyncio.Task[Any]] = set()
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as http:
        while True:
            await asyncio.sleep(1.0)
            try:
                events = (await http.get("/api/tournaments")).json()
            except httpx.HTTPError:
                continue  # a busy moment: look again
            open_ = [
                e
                for e in events
                if e["status"] == "registering" and e["structure"]["name"] == structure
            ]
            if not open_ or not idle:
                continue
            event = open_[0]
            if event["entrants"] >= event["max_entrants"] - seats_free:
                continue
            name = idle.pop()
            try:
                token = await tokens(name)
            except AuthError:
                continue  # a person has this name
            task = asyncio.create_task(
                run_tournament_bot(base_url, name, TightBot(), tournament=event["id"], token=token)
            )
            playing.add(task)

            def done(task: asyncio.Task[Any], name: str = name) -> None:
                playing.discard(task)
                idle.append(name)  # free for the next sit & go

            task.add_done_callback(done)
            for _ in range(100):  # until its registration shows (never two for one seat)
                await asyncio.sleep(0.1)
                with contextlib.suppress(httpx.HTTPError):
                    now = (await http.get(f"/api/tournaments/{event['id']}")).json()
                    if now["entrants"] > event["entrants"]:
                        break
                if task.done():
                    break


async def _scheduled_bots(
    base_url: str, tokens: Callable[[str], Awaitable[str]], *, per_event: int = 4
) -> None:
    """A few bots (``sched_bot_0``, ...) register in each scheduled run as it is listed and
    play it to its end (a satellite seat they win registers them in its target)."""
    import httpx

    from pokerroom.bots.strategy import TightBot
    from pokerroom.bots.tournament import run_tournament_bot
    from pokerroom.store.accounts.accounts import AuthError

    idle = [f"sched_bot_{k}" for k in range(4 * per_event)]
    playing: set[asyncio.Task[Any]] = set()
    served: set[str] = set()
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as http:
        while True:
            await asyncio.sleep(2.0)
            try:
                events = (await http.get("/api/tournaments")).json()
            except httpx.HTTPError:
                continue  # a busy moment: look again
            for event in events:
                if event["status"] != "registering" or event["starts_at"] is None:
                    continue
                if event["id"] in served or len(idle) < per_event:
                    continue
                served.add(event["id"])
                for _ in range(per_event):
                    name = idle.pop()
                    try:
                        token = await tokens(name)
                    except AuthError:
                        continue  # a person has this name
                    bot = run_tournament_bot(
                        base_url, name, TightBot(), tournament=event["id"], token=token
                    )
                    task = asyncio.create_task(bot)
                    playing.add(task)

                    def done(task: asyncio.Task[Any], name: str = name) -> None:
                        playing.discard(task)
                        idle.append(name)  # free for the next run

                    task.add_done_callback(done)


def _listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port``, or exit 1 with one line on stderr saying why not."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listening = socket.socket(family, socket.SOCK_STREAM)
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does
    # Every connection inherits a small kernel receive buffer (set before listening): the
    # WebSocket layer parses all the frames of one read at once, so a flooding client could
    # otherwise make the room parse a quarter of a megabyte of tiny frames in one go while
    # every table waits. Clients' messages are small; a bigger frame arrives in more reads.
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RECEIVE_BUFFER)
    # And a bounded send buffer: the kernel would grow it to megabytes for a client that
    # never reads, hiding it from its bounded queue (S-ISOLATE-1) for half a minute.
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
    try:
        listening.bind((host, port))
    except OSError as error:
        listening.close()
        reason = error.strerror or str(error)
        typer.echo(f"pokerroom serve: cannot listen on {host}:{port}: {reason}", err=True)
        raise typer.Exit(1) from None
    return listening


def serve_command(
    host: Annotated[str, typer.Option(envvar="POKERROOM_HOST")] = "127.0.0.1",
    port: Annotated[int, typer.Option(envvar="POKERROOM_PORT")] = 8000,
    database: Annotated[str, typer.Option(envvar="POKERROOM_DATABASE")] = DEFAULT_DATABASE,
    bots: Annotated[bool, typer.Option("--bots/--no-bots", envvar="POKERROOM_BOTS")] = True,
    pause: Annotated[float, typer.Option(min=0.0, help="Seconds between hands.")] = 1.5,
    bot_think: Annotated[
        float,
        typer.Option(
            min=0.0,
            envvar="POKERROOM_BOT_THINK",
            help="Mean seconds a house bot at a cash table takes to act (from half to one and"
            " a half times this), as a person would; 0 acts at once.",
        ),
    ] = BOT_THINK,
    sit_and_go: Annotated[
        str,
        typer.Option(
            envvar="POKERROOM_SIT_AND_GO",
            help="Sit & go structures kept open, each one after another, comma-separated"
            " ('none' for none).",
        ),
    ] = "sng6",
    schedule: Annotated[
        str,
        typer.Option(
            envvar="POKERROOM_SCHEDULE",
            help="The tournament schedule (rules/data/schedules/NAME.toml) whose next runs"
            " are listed with their start times ('none' for none).",
        ),
    ] = "none",
    node_id: Annotated[
        str | None,
        typer.Option(
            envvar="POKERROOM_NODE_ID",
            help="Run as one node of several sharing a PostgreSQL --database: "
            "this node runs the tables whose leases it holds.",
        ),
    ] = None,
    redis: Annotated[
        str | None,
        typer.Option(envvar="POKERROOM_REDIS", help="The nodes' Redis, e.g. redis://host:6379"),
    ] = None,
    redis_prefix: Annotated[
        str | None,
        typer.Option(
            envvar="POKERROOM_REDIS_PREFIX",
            help="With --redis: the room's keys and channels there (default pokerroom:<db>:); "
            "two rooms on one Redis database each need their own.",
        ),
    ] = None,
    lease_seconds: Annotated[
        float, typer.Option(min=1.0, help="How long a node's lease on a table lasts.")
    ] = 10.0,
    renew_seconds: Annotated[
        float, typer.Option(min=0.1, help="How often a node renews its leases.")
    ] = 3.0,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            envvar="FORWARDED_ALLOW_IPS",
            help="Addresses (comma-separated, or CIDR networks) of the balancers whose "
            "X-Forwarded-For and X-Forwarded-Proto are trusted: the per-address limits and "
            "the /metrics rule see the player's address (default: loopback).",
        ),
    ] = None,
    drain_seconds: Annotated[
        float,
        typer.Option(
            min=0.0,
            envvar="POKERROOM_DRAIN_SECONDS",
            help="On SIGTERM the node drains: no new hand, the hands in play finish (for "
            "this long at most), each table handed over between hands; then it stops. A "
            "second SIGTERM (or SIGINT) stops it at once.",
        ),
    ] = 60.0,
    sockets_only: Annotated[
        bool,
        typer.Option(
            "--sockets-only",
            help="With --redis: this node holds clients' sockets and runs no table (every "
            "table runs on the other nodes, its commands carried to them over Redis).",
        ),
    ] = False,
) -> None:
    """Run the room (an ASGI app on uvicorn); with bots seated at the demo tables, and in a
    repeating sit & go that leaves one seat for a newcomer. With --node-id (or --redis) it
    is one node of several on one PostgreSQL database."""
    import uvicorn

    from pokerroom.rules.tournament import tournament_structure_names
    from pokerroom.server.app import create_app
    from pokerroom.server.ops import logs
    from pokerroom.server.ops.drain import DrainingServer
    from pokerroom.server.sockets.protocol import MAX_FRAME_BYTES
    from pokerroom.store.accounts.accounts import PASSWORD_COST, password_cost

    try:
        cheap_passwords = password_cost() == "cheapest"
    except ValueError as error:
        typer.echo(f"pokerroom serve: {error}", err=True)
        raise typer.Exit(2) from None
    if cheap_passwords:
        typer.echo(
            f"pokerroom serve: {PASSWORD_COST}=cheapest hashes passwords at argon2's lowest"
            " cost, for tests: never run a room with players so",
            err=True,
        )
    # An empty POKERROOM_SIT_AND_GO reads as unset (click), so "none" says none.
    sit_and_go = "" if sit_and_go.lower() in ("", "none") else sit_and_go
    repeat = tuple(name.strip() for name in sit_and_go.split(",") if name.strip())
    for name in repeat:
        if name not in tournament_structure_names():
            known = ", ".join(tournament_structure_names())
            typer.echo(
                f"pokerroom serve: no tournament structure {name!r} (known: {known}, or none)",
                err=True,
            )
            raise typer.Exit(2)
    from pokerroom.rules.schedule import schedule_names

    scheduled = None if schedule.lower() in ("", "none") else schedule
    if scheduled is not None and scheduled not in schedule_names():
        known = ", ".join(schedule_names())
        typer.echo(
            f"pokerroom serve: no schedule {scheduled!r} (known: {known}, or none)", err=True
        )
        raise typer.Exit(2)
    several = node_id is not None or redis is not None
    if several and not database.startswith("postgresql"):
        typer.echo(
            "pokerroom serve: several nodes share a PostgreSQL database"
            f" (--database postgresql+asyncpg://...), not {database}",
            err=True,
        )
        raise typer.Exit(2)
    if sockets_only and redis is None:
        typer.echo("pokerroom serve: --sockets-only needs the nodes' --redis", err=True)
        raise typer.Exit(2)
    if redis_prefix is not None and (redis is None or not redis_prefix):
        typer.echo("pokerroom serve: --redis-prefix needs the nodes' --redis and a name", err=True)
        raise typer.Exit(2)
    if forwarded_allow_ips is not None and "*" in forwarded_allow_ips.split(","):
        # Trusting every sender lets a client name its own address in X-Forwarded-For:
        # loopback, exempt from the per-address limits and allowed /metrics.
        typer.echo(
            "pokerroom serve: --forwarded-allow-ips * would believe any client's"
            " X-Forwarded-For; name the balancers' addresses or networks",
            err=True,
        )
        raise typer.Exit(2)
    if several and not 0 < renew_seconds < lease_seconds:
        typer.echo(
            f"pokerroom serve: --renew-seconds ({renew_seconds}) must be under"
            f" --lease-seconds ({lease_seconds})",
            err=True,
        )
        raise typer.Exit(2)
    node = node_id or logs.node_id()
    logs.configure(node)  # JSON lines with the node, table and hand (server/ops/logs.py)
    # The database's writer runs in a thread (store/db.py); its batches hold the GIL for
    # Python work between statements, and the event loop, which gives the GIL up at every
    # socket call, then waits up to the switch interval (5 ms by default) to get it back,
    # many times per action. Measured flat out (100 tables, SQLite), 0.5 ms gave 1.5-2x the
    # actions/s. POKERROOM_SWITCH_INTERVAL (seconds) sets it.
    sys.setswitchinterval(float(os.environ.get("POKERROOM_SWITCH_INTERVAL", "0.0005")))

    _refuse_a_newer_schema(database)
    # Bound here, before the app starts: a port in use is one line and status 1, not a
    # traceback after uvicorn's "startup complete". uvicorn serves on this very socket.
    listening = _listen(host, port)
    from pokerroom.store.nodes.leases import LeaseSettings

    app = create_app(
        database,
        pause=pause,
        repeat=repeat,  # several nodes: opened by one of them
        schedule=None if several else scheduled,  # (one node's room)
        node=node if several else None,
        leases=(
            LeaseSettings(ttl=lease_seconds, renew=renew_seconds)
            if several and not sockets_only
            else None
        ),
        redis=redis,
        redis_prefix=redis_prefix,
        own_tables=not sockets_only,
    )
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        ws_per_message_deflate=False,
        ws_max_size=MAX_FRAME_BYTES,
        log_level="info",
        log_config=None,  # the room's JSON lines (logs.configure), uvicorn's too
        forwarded_allow_ips=forwarded_allow_ips,  # None: uvicorn's default, loopback
    )
    server = DrainingServer(config, app.state.room, drain_seconds)

    async def main() -> None:
        server.loop = asyncio.get_running_loop()
        serving = asyncio.create_task(server.serve(sockets=[listening]))
        players = None
        if bots:
            while not server.started and not serving.done():
                await asyncio.sleep(0.05)
            if server.started:
                from pokerroom.bots.house import HouseBots

                base = f"http://{host}:{port}"
                plan = {t: n for t, n in BOTS_PER_TABLE.items() if t in app.state.room.actors}
                house = HouseBots(
                    app.state.room, base, plan, app.state.auth.bot_token, think=bot_think
                )
                tokens = app.state.auth.bot_token
                players = asyncio.gather(
                    house.run(),
                    *(
                        # the first structure's bots keep their names: sng_bot_0, ...
                        _sit_and_go_bots(base, name, tokens, prefix=f"sng{k or ''}_bot")
                        for k, name in enumerate(repeat)
                        if not several
                    ),
                    *([_scheduled_bots(base, tokens)] if scheduled and not several else []),
                )
        await serving
        if players is not None:
            players.cancel()

    docs = app.docs_url or "/openapi.json"  # Swagger UI only with POKERROOM_DOCS=1
    where = f"node {node}, " if several else ""
    typer.echo(f"pokerroom: http://{host}:{port}  (API docs at {docs}, {where}database {database})")
    # What importing and building the app made lives as long as the process: the garbage
    # collector's full passes need not walk it again and again (each one a pause of every
    # table at once, seen in the latency's tail).
    gc.freeze()
    # A busy room makes and drops many small containers per action (frames, views); with the
    # default first threshold (700) the collector ran a young pass every few actions, about
    # 4% of the room's CPU flat out; 20,000 cut the collector's CPU to a sixth (measured with
    # gc.callbacks, 100 tables flat out). Only cyclic garbage waits longer: refcounting frees
    # the rest at once.
    gc.set_threshold(20_000, 10, 10)
    # uvloop (uvicorn's "standard" extra), as ``uvicorn`` itself picks it: the same loop as
    # the echo ceiling the load test compares the room with (docs/deploy.md).
    with asyncio.Runner(loop_factory=event_loop_factory()) as runner:
        runner.run(main())


def _refuse_a_newer_schema(database: str) -> None:
    """A schema a newer version migrated past what this one fits (store/compatibility.py):
    one line saying what to do, and the exit code a supervisor is told not to restart on
    (docs/deploy.md, Upgrades), not a node started on it or failing again and again."""
    from pokerroom.store.compatibility import EXIT_SCHEMA_TOO_NEW, SchemaTooNewError
    from pokerroom.store.db import Database

    async def check() -> None:
        db = Database(database)
        try:
            await db.check_schema()
        finally:
            await db.close()

    try:
        asyncio.run(check())
    except SchemaTooNewError as error:
        logging.getLogger("pokerroom.store").error("%s", error)
        raise typer.Exit(EXIT_SCHEMA_TOO_NEW) from None
    except Exception:  # a database not reachable (yet): the start says so, as before
        return


def event_loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's loop when it is installed (POKERROOM_LOOP=asyncio: the standard one)."""
    if os.environ.get("POKERROOM_LOOP", "uvloop") == "asyncio":
        return None
    try:
        import uvloop
    except ImportError:  # pragma: no cover - a platform without uvloop's wheels
        return None
    return uvloop.new_event_loop


def bots_command(
    url: Annotated[
        list[str],
        typer.Option(
            help="The room, e.g. http://127.0.0.1:8000; repeated: its nodes, each bot "
            "reconnecting through the next when its connection fails"
        ),
    ] = ["http://127.0.0.1:8000"],  # noqa: B006 (typer reads the default, never changes it)
    count: Annotated[int, typer.Option(min=1, max=60)] = 4,
    table: Annotated[str, typer.Option(help="A table id from /api/lobby")] = "nlhe-1-2",
    think: Annotated[
        float,
        typer.Option(
            min=0.0,
            help="Mean seconds a bot takes to act (from half to one and a half times this).",
        ),
    ] = BOT_THINK,
) -> None:
    """Add bots (half rule-based, half equity-based) to a running room. They stay: a bot
    whose node restarts or dies reconnects (with back-off) and says on stderr what went
    wrong."""
    import logging

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    prefix = f"guest{secrets.token_hex(4)}"  # fresh names: each run's passwords are new
    asyncio.run(_bots([u.rstrip("/") for u in url], {table: count}, prefix, think=think))
