"""A player's rebuy or add-on, applied once however often it is sent.

A client sends a request again when no answer came (a 409 while the event changes node, a
connection lost), and a node that does not run the event shows it as last read, so a player
may also click on a view that is out of date. Two fields tell these apart:

- ``request``, the client's key: new for each click, the same on each retry of it. A retry
  of the entry's last purchase is answered what that purchase bought, and nothing moves.
- ``number``, the rebuy the player means (the n-th, from the view they clicked on): any other
  than the next is refused (``tournament.rebuy_not_next``), one made already by another
  request too. That request comes from a view that did not show the rebuy made: answering it
  "done" would tell the player they were given chips they were not given (and a double click
  on such a view would buy twice without ``number``). Refused, they see their rebuys as
  they are and rebuy again if they want.

The add-on is one per entry: another request for it is refused (``tournament.addon_taken``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pokerroom.server.clock import utcnow
from pokerroom.tournament.events import TournamentError

if TYPE_CHECKING:
    from pokerroom.server.tournaments.runner import TournamentRunner


def bought(runner: TournamentRunner, entry: str, what: str) -> dict[str, Any]:
    """The answer to a purchase (``what``: "rebuy:<n>" or "addon"), the same to its retry."""
    s, addon = runner.t.structure, what == "addon"
    rule = s.addon if addon else s.rebuy
    assert rule is not None  # (bought, so the structure has it)
    return {
        "entry": entry,
        "addon": addon,
        "number": 1 if addon else int(what.split(":")[1]),
        "chips": rule.chips,
        "price": rule.price,
    }


def _retried(last: list[str] | None, request: str | None, addon: bool, number: int | None) -> bool:
    """Is this the entry's last purchase sent again (its key, for the same thing)?"""
    if request is None or last is None or last[0] != request:
        return False
    if addon or last[1] == "addon":
        return addon and last[1] == "addon"
    return number is None or last[1] == f"rebuy:{number}"


async def buy_chips(
    runner: TournamentRunner,
    account: int,
    *,
    addon: bool,
    number: int | None = None,
    request: str | None = None,
) -> dict[str, Any]:
    """A rebuy or the add-on for the player's entry, between their hands: what it bought."""
    t = runner.t
    async with runner.lock:
        entry, now = runner.entry_of(account), runner.now()
        if entry is None:
            raise TournamentError(code="tournament.not_in", event=t.name)
        e = t.entries[entry]
        last = t.requests.get(entry)
        if _retried(last, request, addon, number):
            assert last is not None
            return bought(runner, entry, last[1])
        if addon and e.addon:
            raise TournamentError(code="tournament.addon_taken", entry=entry, event=t.name)
        if not addon and number is not None and number != e.rebuys + 1:
            raise TournamentError(
                code="tournament.rebuy_not_next",
                entry=entry,
                done=e.rebuys,
                event=t.name,
                number=number,
            )
        if not (t.can_addon(entry, now) if addon else t.can_rebuy(entry, now)):
            code = "tournament.cannot_addon" if addon else "tournament.cannot_rebuy"
            raise TournamentError(code=code, entry=entry, event=t.name)
        made = "addon" if addon else f"rebuy:{e.rebuys + 1}"

        def apply() -> str:
            if addon:
                t.addon(entry, now)
            else:
                t.rebuy(entry, now)
            if request is not None:
                t.requests[entry] = [request, made]
            return runner.snapshot()

        async with runner.saving:
            await runner.store.buy_chips(
                runner.id,
                account,
                entry=entry,
                addon=addon,
                number=e.rebuys + 1,
                apply=apply,
                now=utcnow(),
            )
        runner.wake_all()
        return bought(runner, entry, made)
