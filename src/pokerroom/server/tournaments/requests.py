"""A player's request to an event (register, unregister, a rebuy or the add-on, a deal), on
the node that runs it: asked there over HTTP, or forwarded by another node (server/nodes)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pokerroom.server.tournaments.buys import buy_chips
from pokerroom.server.tournaments.deals import answer, deal_view, propose
from pokerroom.store.money.ledger import LedgerError
from pokerroom.store.tables.store import StoreError
from pokerroom.tournament.events import TournamentError

if TYPE_CHECKING:
    from pokerroom.server.tournaments.runner import TournamentRunner

REFUSED = (TournamentError, LedgerError, StoreError)  # a player's request refused: HTTP 400


async def perform(
    runner: TournamentRunner, kind: str, account: int, fields: dict[str, Any]
) -> dict[str, Any]:
    """A player's request to the event, on the node that runs it."""
    match kind:
        case "register":
            entry = await runner.register(account, fields["name"], fields["request"])
            return {"entry": entry}
        case "unregister":
            await runner.unregister(account)
        case "rebuy" | "addon":
            number, request = fields.get("number"), fields.get("request")
            return await buy_chips(
                runner,
                account,
                addon=kind == "addon",
                number=None if number is None else int(number),
                request=None if request is None else str(request),
            )
        case "decline_rebuy":
            await runner.decline_rebuy(account)
        case "propose":
            await propose(runner, account, fields["deal"], int(fields["keep"]))
            return deal_view(runner)
        case "accept" | "decline":
            await answer(runner, account, accept=kind == "accept")
            return deal_view(runner)
        case _:
            raise TournamentError(f"no tournament request {kind!r}")
    return {}
