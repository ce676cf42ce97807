"""Bots in tournaments, over the same REST and WebSocket protocol as people:
register (``POST /api/tournaments/<id>/register``), then play at whichever table the
tournament seats them: the ``tournament`` notices say where they were moved, and a bot whose
connection drops (a restarting room) connects again and finds its table at ``hello``."""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from pokerroom.bots.client import SIGN_UP_SECONDS, account, situation_from_state
from pokerroom.bots.strategy import Strategy
from pokerroom.server.sockets import protocol

RECONNECT_SECONDS = 0.5  # between tries to reach a room that is restarting
RECONNECT_TRIES = 120
QUIET_SECONDS = 2.0  # no frame this long: ask the lobby whether the bot's place is final


async def register(base_url: str, token: str, tournament: str, path: str | None = None) -> str:
    """Register (the request key makes a retry harmless) at the event's ``path`` (its routes:
    ``/api/tournaments/<id>``, or a private sit & go's game's); the entry's id."""
    key = secrets.token_hex(16)
    path = f"/api/tournaments/{tournament}" if path is None else path
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as http:
        response = await http.post(
            f"{path}/register",
            json={"request": key},
            headers={"Authorization": f"Bearer {token}"},
        )
    if response.status_code != 200:
        raise RuntimeError(f"register in {tournament}: {response.text}")
    entry: str = response.json()["entry"]
    return entry


async def run_tournament_bot(
    base_url: str,
    name: str,
    strategy: Strategy,
    *,
    tournament: str,
    token: str | None = None,
    on_frame: Callable[[dict[str, Any]], None] | None = None,
    private: bool = False,
) -> protocol.TournamentNotice:
    """Register for ``tournament`` and play it to the end: the notice of the bot's place
    (``private``: a private sit & go, registered and read through its game's routes)."""
    path = f"/api/private-games/{tournament}" if private else f"/api/tournaments/{tournament}"
    if token is None:
        async with httpx.AsyncClient(base_url=base_url, timeout=SIGN_UP_SECONDS) as http:
            token = (await account(http, name, secrets.token_urlsafe(24)))["token"]
    entry: str | None = None
    for _ in range(RECONNECT_TRIES):
        try:
            async with connect(base_url.replace("http", "ws", 1) + "/ws", max_size=2**20) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))
                if entry is None:  # after the hello: the start's notice reaches this socket
                    await ws.recv()  # welcome
                    entry = await register(base_url, token, tournament, path)
                view = f"{path}/event" if private else path
                seat = Seat(base_url, tournament, entry, view, token)
                finished = await _play(ws, seat, strategy, on_frame)
                if finished is not None:
                    return finished
        except (ConnectionClosed, OSError, httpx.HTTPError):
            pass  # the room went away: it comes back with the tournament where it was
        await asyncio.sleep(RECONNECT_SECONDS)
    raise RuntimeError(f"{name}: the room did not come back")


@dataclass(frozen=True, slots=True)
class Seat:
    base_url: str
    tournament: str
    entry: str
    view: str  # the route of the event's view (as the lobby lists it)
    token: str

    async def place(self) -> protocol.TournamentNotice | None:
        """The entry's place from the lobby, once final (a notice missed while away)."""
        async with httpx.AsyncClient(base_url=self.base_url, timeout=30) as http:
            response = await http.get(self.view, headers={"Authorization": f"Bearer {self.token}"})
        response.raise_for_status()
        # (None if not listed yet: through a node that does not run the event, the view
        # is that node's last read, which may be from before the bot's registration)
        me = next((p for p in response.json()["players"] if p["entry"] == self.entry), None)
        if me is None or me["place"] is None:
            return None
        return protocol.TournamentNotice(
            tournament=self.tournament,
            kind="finished",
            text=f"place {me['place']}",
            place=me["place"],
            prize=me["prize"],
        )


async def _play(
    ws: Any,
    seat: Seat,
    strategy: Strategy,
    on_frame: Callable[[dict[str, Any]], None] | None,
) -> protocol.TournamentNotice | None:
    acted_in: tuple[Any, ...] = ()
    pending: str | None = None
    tournament = seat.tournament
    while True:
        try:
            async with asyncio.timeout(QUIET_SECONDS):
                raw = await ws.recv()
        except TimeoutError:
            placed = await seat.place()
            if placed is not None:
                return placed
            continue
        data = json.loads(raw)
        if on_frame is not None:
            on_frame(data)
        message = protocol.server_frame(data)
        if isinstance(message, protocol.HelloOk):
            for table in message.seated:  # a reconnect: the table the bot sits at
                await ws.send(json.dumps({"type": "watch", "table": table}))
        elif isinstance(message, protocol.TournamentNotice):
            if message.tournament != tournament:
                continue
            if message.kind == "finished":
                return message
            if message.table is not None and message.kind in ("started", "moved"):
                await ws.send(json.dumps({"type": "watch", "table": message.table}))
        elif isinstance(message, protocol.ErrorFrame):
            if pending is not None and "slow down" in message.message:
                await asyncio.sleep(0.1)
                await ws.send(pending)
        elif isinstance(message, protocol.TableFrame):
            state = message
            situation = situation_from_state(state)
            hand = state.hand
            if situation is None or hand is None:
                continue
            seats = tuple((s.bet, s.stack) for s in state.seats)
            key = (state.table, hand.number, hand.street, seats)
            if key == acted_in:
                continue
            acted_in = key
            action = await asyncio.to_thread(strategy.decide, situation)
            pending = json.dumps(
                {
                    "type": "act",
                    "table": state.table,
                    "action": action.kind.value,
                    "amount": action.amount,
                    "hand": hand.number,
                }
            )
            await ws.send(pending)
