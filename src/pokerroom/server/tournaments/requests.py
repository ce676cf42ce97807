"""A player's request to an event (register, unregister, a rebuy or the add-on, a deal), on
the node that runs it: asked there over HTTP, or forwarded by another node (server/nodes),
each kind one model, tagged by its ``kind``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, Field, TypeAdapter

from pokerroom.server.tournaments.buys import buy_chips
from pokerroom.server.tournaments.deals import answer, deal_view, propose
from pokerroom.store.money.ledger import LedgerError
from pokerroom.store.tables.store import StoreError
from pokerroom.tournament.deals import DealKind
from pokerroom.tournament.events import TournamentError

if TYPE_CHECKING:
    from pokerroom.server.tournaments.runner import TournamentRunner

REFUSED = (TournamentError, LedgerError, StoreError)  # a player's request refused: HTTP 400


class Register(BaseModel):
    kind: Literal["register"] = "register"
    name: str
    request: str  # the idempotency key of the buy-in


class Unregister(BaseModel):
    kind: Literal["unregister"] = "unregister"


class Buy(BaseModel):
    """A rebuy or the add-on; ``number`` the rebuy meant, ``request`` the purchase's key."""

    kind: Literal["rebuy", "addon"]
    number: int | None = None
    request: str | None = None


class DeclineRebuy(BaseModel):
    kind: Literal["decline_rebuy"] = "decline_rebuy"


class Propose(BaseModel):
    kind: Literal["propose"] = "propose"
    deal: DealKind
    keep: int


class Answer(BaseModel):
    """A player's answer to the deal proposed."""

    kind: Literal["accept", "decline"]


EventRequest = Annotated[
    Register | Unregister | Buy | DeclineRebuy | Propose | Answer, Field(discriminator="kind")
]
_REQUEST: TypeAdapter[EventRequest] = TypeAdapter(EventRequest)


def request_of(kind: str, fields: dict[str, Any]) -> EventRequest:
    """A request as another node sent it (its kind, and its fields apart), read by the owner
    of the event; one that cannot be read raises pydantic's ValidationError."""
    return _REQUEST.validate_python({**fields, "kind": kind})


def fields_of(request: EventRequest) -> dict[str, Any]:
    """The request's fields as another node is sent them, beside its kind."""
    return request.model_dump(exclude={"kind"}, exclude_none=True)


async def perform(runner: TournamentRunner, account: int, request: EventRequest) -> dict[str, Any]:
    """A player's request to the event, on the node that runs it."""
    match request:
        case Register(name=name, request=key):
            entry = await runner.register(account, name, key)
            return {"entry": entry}
        case Unregister():
            await runner.unregister(account)
        case Buy(kind=kind, number=number, request=key):
            return await buy_chips(
                runner, account, addon=kind == "addon", number=number, request=key
            )
        case DeclineRebuy():
            await runner.decline_rebuy(account)
        case Propose(deal=deal, keep=keep):
            await propose(runner, account, deal, keep)
            return deal_view(runner)
        case Answer(kind=kind):
            await answer(runner, account, accept=kind == "accept")
            return deal_view(runner)
    return {}
