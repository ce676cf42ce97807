"""Bots as clients: they sign up, log in and play over the same REST and WebSocket
protocol as people (DESIGN 9)."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import random
import secrets
import time
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException

from pokerroom.bots.strategy import Situation, Strategy
from pokerroom.cards import Card
from pokerroom.engine.actions import Action, LegalActions
from pokerroom.rules.game import Variant
from pokerroom.server.sockets import protocol

BUY_IN_BIG_BLINDS = 60
JOIN_TRIES = 8  # joins refused in a row (another free seat each time) before a bot gives up
RESENDS = 6  # times a message refused with "slow down" (or a busy table) is sent again ...
BACKOFF = 0.1  # ... after this many seconds, doubling ...
BACKOFF_MAX = 2.0  # ... up to this
RECONNECT_FIRST = 0.5  # seconds before a lost bot reconnects, doubling ...
RECONNECT_MAX = 30.0  # ... up to this (a room restarting takes seconds)
log = logging.getLogger("pokerroom.bots")


class BotError(RuntimeError):
    """A bot that cannot play at its table (no seat after ``JOIN_TRIES`` refusals)."""


# A watch or join refused because the node asked does not run the table (any more).
NOT_HERE = frozenset({"table.not_found", "table.elsewhere"})


class TableNotHereError(Exception):
    """The node a bot asked does not run its table: nothing more comes on that socket for
    it, and whoever sent the bot there asks again where the table runs."""

    def __init__(self, table: str) -> None:
        super().__init__(f"table {table!r} is not on the node asked")


def thinking(think: float, rng: random.Random) -> float:
    """Seconds a bot takes over one decision: uniform from half to one and a half times
    ``think`` (a table of bots that act at once deals a hand in a blink, and sends every
    watcher a frame per action as fast as the room can)."""
    return rng.uniform(0.5 * think, 1.5 * think) if think > 0 else 0.0


def backoff(tries: int) -> float:
    return float(min(BACKOFF_MAX, BACKOFF * 2**tries))


def refused_for_load(message: protocol.ErrorFrame) -> bool:
    """An error that says "not now" (the connection's rate, a busy table), not "no"."""
    text = message.message
    return text.startswith("slow down: too many messages") or "is busy: try again" in text


def situation_from_state(state: protocol.TableFrame) -> Situation | None:
    """What the bot knows from its table message, when it is the one to act."""
    hand, you = state.hand, state.you
    if hand is None or you is None or hand.actor != you or hand.legal is None:
        return None
    legal = hand.legal
    mine = next(s for s in state.seats if s.seat == you)
    if not mine.cards:
        return None
    opponents = sum(1 for s in state.seats if s.in_hand and not s.folded and s.seat != you)
    return Situation(
        variant=Variant(state.variant),
        hole=tuple(Card.parse(c) for c in mine.cards),
        board=tuple(Card.parse(c) for c in hand.board),
        legal=LegalActions(
            position=0,
            seat=you,
            can_fold=True,
            can_check=legal.can_check,
            call_amount=legal.call,
            call_all_in=legal.call_all_in,
            min_raise_to=legal.min_raise_to,
            max_raise_to=legal.max_raise_to,
            is_bet=legal.is_bet,
            current_bet=max(s.bet or 0 for s in state.seats),
            pot=legal.pot,
        ),
        opponents=max(opponents, 1),
        big_blind=state.big_blind,
    )


@contextlib.asynccontextmanager
async def _leaving(stop: asyncio.Event | None, ws: Any, table: str) -> AsyncIterator[None]:
    """While the bot plays: once ``stop`` is set, leave the seat (after the hand) and ask for
    the table again, so that a frame without the seat comes even at a table that waits."""

    async def leave() -> None:
        assert stop is not None
        await stop.wait()
        await ws.send(json.dumps({"type": "leave", "table": table}))
        await ws.send(json.dumps({"type": "watch", "table": table}))

    task = None if stop is None else asyncio.create_task(leave())
    try:
        yield
    finally:
        if task is not None:
            task.cancel()


# A sign-up hashes the password (argon2) on a few threads: many bots signing up at once on
# a busy machine wait their turn for longer than a request's usual few seconds.
SIGN_UP_SECONDS = 30.0


async def account(http: httpx.AsyncClient, name: str, password: str) -> dict[str, Any]:
    response = await http.post("/api/signup", json={"username": name, "password": password})
    if response.status_code == 400 and "taken" in response.text:
        response = await http.post("/api/login", json={"username": name, "password": password})
    response.raise_for_status()
    data: dict[str, Any] = response.json()
    return data


async def sign_up(base_url: str, name: str, password: str) -> str:
    """The bot's session token: signed up (or logged in) as ``name``, mucking on."""
    async with httpx.AsyncClient(base_url=base_url, timeout=SIGN_UP_SECONDS) as http:
        me = await account(http, name, password)
        # Like a seasoned player, a bot mucks a losing hand it need not show.
        mucking = await http.put(
            "/api/preferences",
            json={"auto_muck": True},
            headers={"Authorization": f"Bearer {me['token']}"},
        )
        mucking.raise_for_status()
    return str(me["token"])


async def run_bot_reconnecting(
    base_urls: Sequence[str],
    name: str,
    strategy: Strategy,
    *,
    table: str,
    token: str | None = None,
    rng: random.Random | None = None,
    think: float = 0.0,
) -> None:
    """A bot that stays: signed up once (unless given its session ``token``), then
    ``run_bot`` again whenever its connection fails or ends (its node restarted or died),
    through the next of ``base_urls`` (the room's nodes, or one balancer), after a
    back-off that doubles up to ``RECONNECT_MAX`` seconds; it gets its seat back, as a
    browser does. Each failure is
    logged with what went wrong. Ends only when cancelled, or if refused every seat
    (``BotError``)."""
    password = secrets.token_urlsafe(24)
    tries = 0
    for turn in itertools.count():
        url = base_urls[turn % len(base_urls)]
        began = time.monotonic()
        try:
            if token is None:
                token = await sign_up(url, name, password)
            await run_bot(url, name, strategy, table=table, token=token, rng=rng, think=think)
            why = "the room closed the connection"
        except BotError:
            raise
        except (OSError, httpx.HTTPError, WebSocketException, TableNotHereError) as error:
            why = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
        if time.monotonic() - began > RECONNECT_MAX:
            tries = 0  # it played a while: a fresh failure, a short wait
        wait = min(RECONNECT_MAX, RECONNECT_FIRST * 2**tries)
        tries += 1
        following = base_urls[(turn + 1) % len(base_urls)]
        log.warning(
            "bot %s at %s through %s: %s; reconnecting through %s in %.1f s",
            name,
            table,
            url,
            why,
            following,
            wait,
            extra={"table": table},
        )
        await asyncio.sleep(wait)


async def run_bot(
    base_url: str,
    name: str,
    strategy: Strategy,
    *,
    table: str,
    password: str | None = None,
    token: str | None = None,
    hands: int | None = None,
    rng: random.Random | None = None,
    on_frame: Callable[[dict[str, Any]], None] | None = None,
    stop: asyncio.Event | None = None,
    think: float = 0.0,
) -> None:
    """Sit at ``table`` and play until cancelled (or ``hands`` hands have been dealt).
    The bot logs in with ``token`` if given, else signs up (or logs in) as ``name`` with
    ``password``: by default a random one, so nobody else can log in as the bot.
    ``on_frame`` sees every frame the bot receives (tests use it to check privacy). When
    ``stop`` is set the bot leaves its seat (after the hand) and returns once it has none.
    ``think``: the mean seconds the bot takes over a decision (``thinking``), as a person
    does; 0 acts at once.
    TableNotHereError if the node refuses the table as not its own before the bot sits."""
    rng = rng or random.Random()
    if token is None:
        token = await sign_up(base_url, name, password or secrets.token_urlsafe(24))
    ws_url = base_url.replace("http", "ws", 1) + "/ws"
    async with connect(ws_url, max_size=2**20) as ws, _leaving(stop, ws, table):
        await ws.send(json.dumps({"type": "hello", "token": token}))
        await ws.send(json.dumps({"type": "watch", "table": table}))
        seated, seen = False, 0
        state_seat: int | None = None  # the seat the last table frame gave this bot
        acted_in: tuple[Any, ...] = ()
        # The last join or action sent, sent again (bounded) if refused for load; and the
        # joins refused (a seat taken meanwhile): the bot tries another free seat.
        pending: dict[str, Any] | None = None
        resends = joins = 0

        async def send(message: dict[str, Any]) -> None:
            nonlocal pending, resends
            pending, resends = message, 0
            await ws.send(json.dumps(message))

        async for raw in ws:
            data = json.loads(raw)
            if on_frame is not None:
                on_frame(data)  # before parsing: a test may change what the bot sees
            message = protocol.server_frame(data)  # the server's own frame models
            if isinstance(message, protocol.ErrorFrame):
                if message.code in NOT_HERE and state_seat is None:
                    raise TableNotHereError(table)  # (the table moved after it was looked up)
                if pending is not None and refused_for_load(message) and resends < RESENDS:
                    await asyncio.sleep(backoff(resends))
                    resends += 1
                    await ws.send(json.dumps(pending))
                elif (
                    pending is not None
                    and pending["type"] == "join"
                    and state_seat is None
                    and (message.request == "join" or refused_for_load(message))
                ):
                    joins += 1  # the seat was taken (or the join refused): another one
                    if joins >= JOIN_TRIES:
                        raise BotError(f"{name}: no seat at {table} after {joins} tries")
                    seated, pending = False, None
                    await asyncio.sleep(backoff(joins - 1))
                    await ws.send(json.dumps({"type": "watch", "table": table}))  # fresh seats
                continue
            if (
                isinstance(message, protocol.HandResult)
                and hands is not None
                and message.hand >= hands
            ):
                await ws.send(json.dumps({"type": "leave", "table": table}))
                return  # everyone at the table sees the last hand end, seated or not
            if not isinstance(message, protocol.TableFrame):
                continue
            state = message
            if stop is not None and stop.is_set() and state.you is None:
                return  # asked to leave, and gone
            state_seat = state.you
            if state_seat is not None:
                joins = 0  # seated: the bound is on refusals in a row
            if state.you is None:
                # A seat held for the waiting list is not free; nor is any while people wait.
                free = [s.seat for s in state.seats if s.empty and not s.held_for]
                free = [] if state.waiting else free
                if free and not seated:
                    buy_in = min(
                        state.max_buy_in,
                        max(state.min_buy_in, BUY_IN_BIG_BLINDS * state.big_blind),
                    )
                    await send(
                        {
                            "type": "join",
                            "table": table,
                            "seat": rng.choice(free),
                            "buy_in": buy_in,
                            # random: a restarted bot never reuses a key (S-MONEY-3)
                            "request": secrets.token_hex(16),
                        }
                    )
                    seated = True
                continue
            seat = next(s for s in state.seats if s.seat == state.you)
            if seat.status == "busted":  # rebuy the minimum and play on
                await ws.send(json.dumps({"type": "leave", "table": table}))
                seated = False
                continue
            hand = state.hand
            if hand is not None and hand.number > seen:
                seen = hand.number
                if hands is not None and seen > hands:
                    await ws.send(json.dumps({"type": "leave", "table": table}))
                    return
            if hand is not None and hand.runout_prompt and acted_in != (hand.number, "runout"):
                # R-RIT-1: a bot agrees to run it twice (a person may still say no)
                acted_in = (hand.number, "runout")
                await send(
                    {"type": "act", "table": table, "action": "run_twice", "hand": hand.number}
                )
                continue
            situation = situation_from_state(state)
            if situation is None or hand is None:
                continue
            # One action per decision: the betting state changes once the action lands.
            key = (hand.number, hand.street, tuple((x.seat, x.bet, x.stack) for x in state.seats))
            if key == acted_in:
                continue
            acted_in = key
            began = time.monotonic()
            action: Action = await asyncio.to_thread(strategy.decide, situation)
            await asyncio.sleep(thinking(think, rng) - (time.monotonic() - began))
            await send(
                {
                    "type": "act",
                    "table": table,
                    "action": action.kind.value,
                    "amount": action.amount,
                    "hand": hand.number,
                }
            )
