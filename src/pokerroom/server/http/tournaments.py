"""The tournament lobby and a player's tournament requests: the events with their
structure, entrants, prize pool, payouts, level, players and places; register (a request key
makes a retry harmless), unregister, rebuy, add-on, and the table the player sits at now."""

from typing import Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import PlainTextResponse
from pydantic import BaseModel, Field

from pokerroom.server.http.deps import Player
from pokerroom.server.sockets.errors import ApiError
from pokerroom.server.tables.placement import ElsewhereError, RefusedError
from pokerroom.server.tournaments.deals import deal_view
from pokerroom.server.tournaments.exports import summary_of
from pokerroom.server.tournaments.hall import Tournaments
from pokerroom.server.tournaments.requests import (
    Answer,
    Buy,
    DeclineRebuy,
    EventRequest,
    Propose,
    Register,
    Unregister,
    perform,
)
from pokerroom.server.tournaments.runner import TournamentRunner
from pokerroom.store.fence import StaleEpochError
from pokerroom.store.money.ledger import LedgerError
from pokerroom.store.tables.store import StoreError
from pokerroom.tournament.deals import deal_offer
from pokerroom.tournament.events import TournamentError

router = APIRouter(prefix="/api/tournaments")


class RegisterIn(BaseModel):
    request: str = Field(min_length=1, max_length=64)  # the idempotency key of the buy-in


class EntryOut(BaseModel):
    tournament: str
    entry: str


class MyTableOut(BaseModel):
    tournament: str
    table: str | None  # None before the start and once out


def _hall(request: Request) -> Tournaments:
    hall: Tournaments = request.app.state.tournaments
    return hall


async def _runner(request: Request, tournament_id: str) -> TournamentRunner:
    try:
        runner = await _hall(request).find(tournament_id)
    except TournamentError as error:
        raise ApiError.of(404, error) from None
    if runner.config.get("private"):  # a private sit & go: only through its game's routes
        raise ApiError(404, "tournament.not_found", tournament=tournament_id)
    return runner


@router.get("")
async def lobby(request: Request) -> list[dict[str, Any]]:
    """Every event: registering, running and finished, with what the lobby shows."""
    hall = _hall(request)
    await hall.fresh()
    return hall.lobby()


@router.get("/{tournament_id}")
async def one(tournament_id: str, request: Request) -> dict[str, Any]:
    runner = await _runner(request, tournament_id)
    return runner.view(runner.now())


async def _request(
    http: Request, tournament_id: str, account: int, request: EventRequest
) -> dict[str, Any]:
    """A player's request, done here if this node runs the event, else by its owner (over
    the bus, server/nodes/event_requests.py): refused, 400; no owner to answer, 409."""
    hall, runner = _hall(http), await _runner(http, tournament_id)
    try:
        if hall.remote(runner):
            return await hall.events.forward(tournament_id, account, request)
        return await perform(runner, account, request)
    except (TournamentError, LedgerError, StoreError, RefusedError) as error:
        raise ApiError.of(400, error) from None
    except (ElsewhereError, StaleEpochError) as error:  # its owner changes: try again
        raise ApiError.of(409, error) from None


@router.post("/{tournament_id}/register", response_model=EntryOut)
async def register(
    tournament_id: str, body: RegisterIn, account: Player, request: Request
) -> EntryOut:
    asked = Register(name=account.display_name, request=body.request)
    done = await _request(request, tournament_id, account.id, asked)
    return EntryOut(tournament=tournament_id, entry=done["entry"])


@router.post("/{tournament_id}/unregister", status_code=204)
async def unregister(tournament_id: str, account: Player, request: Request) -> None:
    await _request(request, tournament_id, account.id, Unregister())


class BuyIn(BaseModel):
    # The client's key of this purchase: new for each click, the same on each retry of it
    # (answered again what it bought, nothing moves).
    request: str | None = Field(default=None, min_length=1, max_length=64)


class RebuyIn(BuyIn):
    # The rebuy meant (the entry's n-th, as the player's view showed): another is refused.
    number: int | None = Field(default=None, ge=1, le=1000)


class BoughtOut(BaseModel):
    """A rebuy or the add-on made: the same answer to each retry of its request."""

    tournament: str
    entry: str
    addon: bool
    number: int  # the entry's n-th rebuy (1 for the add-on)
    chips: int
    price: int


async def _buy(
    http: Request,
    tournament_id: str,
    kind: Literal["rebuy", "addon"],
    account: int,
    body: BuyIn | None,
) -> BoughtOut:
    fields = {} if body is None else body.model_dump(exclude_none=True)
    asked = Buy(kind=kind, **fields)
    done = await _request(http, tournament_id, account, asked)
    return BoughtOut(tournament=tournament_id, **done)


@router.post("/{tournament_id}/rebuy", response_model=BoughtOut)
async def rebuy(
    tournament_id: str, account: Player, request: Request, body: RebuyIn | None = None
) -> BoughtOut:
    return await _buy(request, tournament_id, "rebuy", account.id, body)


@router.post("/{tournament_id}/rebuy/decline", status_code=204)
async def decline_rebuy(tournament_id: str, account: Player, request: Request) -> None:
    """The player refuses the rebuy offered when they busted: they are out at once (else
    when their decision time is up)."""
    await _request(request, tournament_id, account.id, DeclineRebuy())


@router.post("/{tournament_id}/addon", response_model=BoughtOut)
async def addon(
    tournament_id: str, account: Player, request: Request, body: BuyIn | None = None
) -> BoughtOut:
    return await _buy(request, tournament_id, "addon", account.id, body)


@router.get("/{tournament_id}/table", response_model=MyTableOut)
async def my_table(tournament_id: str, account: Player, request: Request) -> MyTableOut:
    """The table the player's entry sits at now: it follows them when they are moved."""
    runner = await _runner(request, tournament_id)
    return MyTableOut(tournament=tournament_id, table=runner.my_table(account.id))


class MineOut(BaseModel):
    """The player's own entry as the lobby's buttons need it."""

    tournament: str
    entry: str | None  # None: not registered
    table: str | None
    out: bool
    can_rebuy: bool
    # Busted in the rebuy period: the seconds left to rebuy (else out); None when not.
    rebuy_offer_seconds: float | None = None
    can_addon: bool
    rebuys: int
    addon: bool


@router.get("/{tournament_id}/me", response_model=MineOut)
async def mine(tournament_id: str, account: Player, request: Request) -> MineOut:
    """Whether Unregister, Rebuy, Add-on and Open my table apply to the player now."""
    runner = await _runner(request, tournament_id)
    entry, now = runner.entry_of(account.id), runner.now()
    e = None if entry is None else runner.t.entries[entry]
    offer = None if entry is None else runner.t.offers.get(entry)
    return MineOut(
        tournament=tournament_id,
        entry=entry,
        table=runner.my_table(account.id),
        out=bool(e and e.out),
        can_rebuy=entry is not None and runner.t.can_rebuy(entry, now),
        rebuy_offer_seconds=None if offer is None else max(0.0, offer.until - now),
        can_addon=entry is not None and runner.t.can_addon(entry, now),
        rebuys=0 if e is None else e.rebuys,
        addon=bool(e and e.addon),
    )


@router.get("/{tournament_id}/summary", response_class=PlainTextResponse)
async def summary(tournament_id: str, account: Player, request: Request) -> str:
    """The player's tournament summary (PokerStars' "Tournament #" text): the event, the
    places final so far, and theirs."""
    text = summary_of(await _runner(request, tournament_id), account.id)
    if text is None:
        raise ApiError(404, "tournament.did_not_play", tournament=tournament_id)
    return text


class DealIn(BaseModel):
    kind: Literal["icm", "chip"]
    keep: int = Field(default=0, ge=0)  # cents played on for with the title


@router.get("/{tournament_id}/deal")
async def deal(tournament_id: str, request: Request) -> dict[str, Any]:
    """The deal at the final table: made (its amounts), proposed (the amounts once no hand
    is in play, who accepted, who is awaited), or none."""
    return deal_view(await _runner(request, tournament_id))


@router.get("/{tournament_id}/deal/offers")
async def deal_offers(tournament_id: str, request: Request) -> dict[str, Any]:
    """Both deals the room would offer now (ICM and chip chop, nothing kept back), with each
    player's name and stack: a clear refusal away from the final table or during a hand."""
    runner = await _runner(request, tournament_id)
    t = runner.t
    try:
        offers = {kind: deal_offer(t, kind) for kind in ("icm", "chip")}
    except TournamentError as error:
        raise ApiError.of(400, error) from None
    table = next(iter(t.tables.values()))
    return {
        **offers,
        "players": [
            {
                "entry": entry,
                "name": runner.names.get(t.entries[entry].player, entry),
                "stack": table.seat_of(entry).stack,
            }
            for entry in offers["icm"]
        ],
    }


@router.post("/{tournament_id}/deal")
async def propose_deal(
    tournament_id: str, body: DealIn, account: Player, request: Request
) -> dict[str, Any]:
    """A player left proposes a deal (and accepts it); the final table deals no new hand
    until every player left has accepted it or one declines."""
    asked = Propose(deal=body.kind, keep=body.keep)
    return await _request(request, tournament_id, account.id, asked)


@router.post("/{tournament_id}/deal/{answer_}")
async def answer_deal(
    tournament_id: str, answer_: Literal["accept", "decline"], account: Player, request: Request
) -> dict[str, Any]:
    return await _request(request, tournament_id, account.id, Answer(kind=answer_))
