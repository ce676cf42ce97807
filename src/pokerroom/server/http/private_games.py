"""Private games' routes (R-PRIV-1), as docs/private-games.md describes them: creating one,
asking to sit with its code or link, the host's acts, and what its players read (the log,
the ledger as JSON and CSV, the hands). A game is 404 to whoever has no status in it."""

from __future__ import annotations

import csv
import io
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from pokerroom.server.http.deps import Player
from pokerroom.server.private.games import PrivateGames, act_json
from pokerroom.server.sockets.errors import ApiError
from pokerroom.store.account_ids import account_of
from pokerroom.store.tables.private_games import PrivateSettings

router = APIRouter(prefix="/api/private-games")


def games(request: Request) -> PrivateGames:
    found: PrivateGames = request.app.state.private
    return found


Games = Annotated[PrivateGames, Depends(games)]
GameId = Annotated[str, Field(min_length=1, max_length=64)]


class NewGame(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=40)
    kind: Literal["cash", "sit_and_go"] = "cash"
    preset: Literal["multipoker", "fortune", "titan", "sweden", "casino"]
    variant: Literal["holdem", "omaha", "omaha_hilo"]
    structure: Literal["no_limit", "pot_limit", "fixed_limit"]
    big_blind: int | None = Field(default=None, ge=2, le=10**9)  # a cash game's (required)
    seats: int = Field(ge=2, le=10)
    min_buy_in_bb: int | None = Field(default=None, ge=1, le=1000)
    max_buy_in_bb: int | None = Field(default=None, ge=1, le=1000)
    decision_seconds: int | None = Field(default=None, ge=5, le=120)
    time_bank_seconds: int | None = Field(default=None, ge=0, le=600)
    straddle: bool = False
    run_it_twice: bool = False
    bomb_pot: bool = False
    spectators: bool = False
    approve_seats: bool = True
    # a sit & go's: its buy-in and fee (0 and 0: free), stack, blind levels and their minutes
    buy_in: int = Field(default=0, ge=0, le=10**9)
    fee: int = Field(default=0, ge=0, le=10**8)
    starting_stack: int = Field(default=1500, ge=100, le=10**7)
    blinds: Literal["regular", "turbo", "hyper"] = "regular"
    level_minutes: int = Field(default=10, ge=1, le=60)


class Ask(BaseModel):
    model_config = ConfigDict(extra="forbid")

    code: str | None = Field(default=None, min_length=1, max_length=32)
    invite: str | None = Field(default=None, min_length=1, max_length=64)


class Stakes(BaseModel):
    big_blind: int = Field(ge=2, le=10**9)


class BombPot(BaseModel):
    big_blinds: int = Field(ge=0, le=1000)


class Target(BaseModel):
    account: int


class RegisterIn(BaseModel):
    request: str = Field(min_length=1, max_length=64)  # the idempotency key of the buy-in


@router.post("", status_code=201)
async def create(body: NewGame, account: Player, private: Games) -> dict[str, Any]:
    game = await private.create(account.id, PrivateSettings(**body.model_dump()))
    return private.view(game, account.id)


@router.get("")
async def mine(account: Player, private: Games) -> dict[str, Any]:
    """The games where the player has a status, newest first."""
    listed = []
    for stored, status in await private.store.games_of(account.id):
        game = private.games.get(stored.table_id)
        listed.append(
            private.view(game, account.id)
            if game is not None
            else private.view(stored, account.id, status)
        )
    return {"games": listed}


@router.post("/ask")
async def ask(body: Ask, account: Player, private: Games) -> dict[str, Any]:
    if (body.code is None) == (body.invite is None):
        raise ApiError(422, "private.code_or_invite", field="code")
    game = await private.ask(account.id, code=body.code, invite=body.invite)
    return private.view(game, account.id)


@router.get("/{game_id}")
async def one(game_id: GameId, account: Player, private: Games) -> dict[str, Any]:
    game = private.games.get(game_id)
    if game is not None and game.status_of(account.id) is not None:
        return private.view(game, account.id)
    stored, status = await private.readable(game_id, account.id)  # ended: its readers'
    return private.view(stored, account.id, status)


@router.get("/{game_id}/requests")
async def requests(game_id: GameId, account: Player, private: Games) -> dict[str, Any]:
    """Every player with a status, pending first (the host only)."""
    private.hosted(game_id, account.id)
    members = await private.store.members(game_id)
    members.sort(key=lambda m: (m.status != "pending", m.asked_at))
    return {
        "requests": [
            {
                "account": m.account,
                "name": m.name,
                "status": "host" if m.account == account.id else m.status,
                "asked_at": m.asked_at.isoformat(),
            }
            for m in members
        ]
    }


@router.post("/{game_id}/requests/{target}/approve")
async def approve(game_id: GameId, target: int, account: Player, private: Games) -> dict[str, Any]:
    return private.view(await private.decide(game_id, account.id, target, True), account.id)


@router.post("/{game_id}/requests/{target}/deny")
async def deny(game_id: GameId, target: int, account: Player, private: Games) -> dict[str, Any]:
    return private.view(await private.decide(game_id, account.id, target, False), account.id)


@router.post("/{game_id}/pause")
async def pause(game_id: GameId, account: Player, private: Games) -> dict[str, Any]:
    return private.view(await private.pause(game_id, account.id, True), account.id)


@router.post("/{game_id}/resume")
async def resume(game_id: GameId, account: Player, private: Games) -> dict[str, Any]:
    return private.view(await private.pause(game_id, account.id, False), account.id)


@router.post("/{game_id}/stakes")
async def stakes(game_id: GameId, body: Stakes, account: Player, private: Games) -> dict[str, Any]:
    return private.view(await private.stakes(game_id, account.id, body.big_blind), account.id)


@router.post("/{game_id}/bomb-pot")
async def bomb_pot(
    game_id: GameId, body: BombPot, account: Player, private: Games
) -> dict[str, Any]:
    return private.view(await private.bomb_pot(game_id, account.id, body.big_blinds), account.id)


@router.post("/{game_id}/remove")
async def remove(game_id: GameId, body: Target, account: Player, private: Games) -> dict[str, Any]:
    return private.view(await private.remove(game_id, account.id, body.account), account.id)


@router.post("/{game_id}/end")
async def end(game_id: GameId, account: Player, private: Games) -> dict[str, Any]:
    return private.view(await private.end(game_id, account.id), account.id)


@router.post("/{game_id}/register")
async def register(
    game_id: GameId, body: RegisterIn, account: Player, private: Games
) -> dict[str, Any]:
    """A sit & go's registration (its buy-in and fee paid; the request key makes a retry
    harmless): the approved players' and the host's only."""
    try:
        entry = await private.register(game_id, account.id, account.display_name, body.request)
    except ValueError as error:  # the event's or the ledger's refusal (full, no balance...)
        raise ApiError.of(400, error) from None
    return {"game": game_id, "entry": entry}


@router.post("/{game_id}/unregister", status_code=204)
async def unregister(game_id: GameId, account: Player, private: Games) -> None:
    try:
        await private.unregister(game_id, account.id)
    except ValueError as error:
        raise ApiError.of(400, error) from None


@router.post("/{game_id}/start")
async def start(game_id: GameId, account: Player, private: Games) -> dict[str, Any]:
    return private.view(await private.start_event(game_id, account.id), account.id)


@router.get("/{game_id}/event")
async def event(game_id: GameId, account: Player, private: Games) -> dict[str, Any]:
    """A sit & go's event as the tournament lobby lists it (levels, entrants, places and
    prizes): its members' only."""
    view = private.event_view(game_id, account.id)
    if view is None:
        raise ApiError(409, "private.sit_and_go_only")
    return view


@router.get("/{game_id}/log")
async def log(game_id: GameId, account: Player, private: Games) -> dict[str, Any]:
    await private.readable(game_id, account.id)
    return {"acts": [act_json(a) for a in await private.store.acts(game_id)]}


async def _ledger(private: PrivateGames, game_id: str, account: int) -> dict[str, Any]:
    await private.readable(game_id, account)
    entries, on_table = await private.store.ledger(game_id)
    players: dict[int, dict[str, Any]] = {}
    for e in entries:
        row = players.setdefault(
            e.account,
            {"account": e.account, "name": e.name, "buy_ins": 0, "top_ups": 0, "cash_outs": 0},
        )
        row[{"buy_in": "buy_ins", "top_up": "top_ups", "cash_out": "cash_outs"}[e.kind]] += e.amount
    game = private.games.get(game_id)
    actor = None if game is None else private.room.actors.get(game_id)
    seated = set() if actor is None else {account_of(s.player) for s in actor.table.seats.values()}
    for row in players.values():
        row["net"] = row["cash_outs"] - row["buy_ins"] - row["top_ups"]
        row["seated"] = row["account"] in seated
    return {
        "players": list(players.values()),
        "entries": [
            {
                "at": e.at.isoformat(),
                "account": e.account,
                "name": e.name,
                "kind": e.kind,
                "amount": e.amount,
            }
            for e in entries
        ],
        "on_table": on_table,
    }


@router.get("/{game_id}/ledger")
async def ledger(game_id: GameId, account: Player, private: Games) -> dict[str, Any]:
    return await _ledger(private, game_id, account.id)


@router.get("/{game_id}/ledger.csv")
async def ledger_csv(game_id: GameId, account: Player, private: Games) -> Response:
    book = await _ledger(private, game_id, account.id)
    out = io.StringIO()
    columns = ["account", "name", "buy_ins", "top_ups", "cash_outs", "net"]
    writer = csv.DictWriter(out, columns, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    writer.writerows(book["players"])
    return Response(
        out.getvalue(),
        media_type="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{game_id}-ledger.csv"'},
    )


@router.get("/{game_id}/hands")
async def hands(game_id: GameId, account: Player, private: Games) -> dict[str, Any]:
    await private.readable(game_id, account.id)
    return {
        "hands": [
            {
                "id": h.id,
                "number": h.number,
                "started_at": h.started_at.isoformat(),
                "ended_at": None if h.ended_at is None else h.ended_at.isoformat(),
                "rake": h.rake,
                "players": [{"account": a, "name": n, "net": net} for a, n, net in h.players],
            }
            for h in await private.store.hands(game_id)
        ]
    }
