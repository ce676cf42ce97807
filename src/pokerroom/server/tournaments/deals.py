"""Deals at the final table in the room (Poker TDA): any player left proposes an
ICM or a chip-chop split of the prizes still to be paid (``keep`` played on for with the
title); the final table deals no new hand while a proposal is open; every player left must
accept the amounts shown; then the deal's amounts replace their prizes, each paid through the
ledger when the place is final (the winner's with ``keep`` on top), and play goes on. A
player may decline, and a proposal whose players changed (a bust in the hand that was being
played) is void. Time stops for nobody: a proposal lapses when the players' decision time has
passed since its amounts were shown, and each player proposes once a level at most. A
proposal is stored with the event: a restart cancels it (``restarted``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pokerroom.errors import message
from pokerroom.server.tables.views import seconds_until
from pokerroom.tournament.deals import DealKind, Proposal, deal_offer, make_deal
from pokerroom.tournament.events import TournamentError

if TYPE_CHECKING:
    from pokerroom.server.tournaments.runner import TournamentRunner


RESTARTED = "tournament.deal_restarted"
LAPSED = "tournament.deal_lapsed"


def restarted(runner: TournamentRunner) -> None:
    """After a restart: a proposal that was open is cancelled, and its players are told as
    they come back. Real rooms do the same: a deal stands only on every player's consent
    given at the table to the amounts shown then, and a restart rolls the hand in play back
    (R-DECK-5), so votes given before it may be for other amounts; nobody's vote is carried
    over, nobody is left waiting for a vote that can no longer come."""
    t = runner.t
    if t.deal_proposed:
        runner.deal_cancelled = {runner.account_of(e) for e in t.deal_proposed}
    t.deal_proposed = None


def tell_restarted(runner: TournamentRunner, account: int | None) -> None:
    """A player asked about a proposal a restart cancelled is told once (at their table)."""
    if account is not None and account in runner.deal_cancelled:
        runner.deal_cancelled.discard(account)
        runner._tell(account, "deal", RESTARTED)


def open_proposal(runner: TournamentRunner) -> Proposal | None:
    """The proposal in force: one whose players are no longer those left, or that cannot
    be made once the hand in play has ended (the title kept back is now too much), is void."""
    p = runner.proposal
    if p is None:
        return None
    now = runner.now()
    void = runner.t.finished or set(runner.t.remaining()) != set(p.players)
    if not void:
        try:
            shown = _offer(runner, p) is not None
        except TournamentError:
            void = True
        else:
            if p.until is None and shown:  # it holds the table from now: it counts
                p.until = now + runner.t.house.decision_seconds
                runner.t.deals_asked[p.by] = runner.t.clock.level_number(now)
    lapsed = not void and p.until is not None and now >= p.until
    if void or lapsed:
        runner.proposal = None
        runner.wake_all()
        if lapsed:
            for other in p.players:
                runner.tell(other, "deal", LAPSED)
        return None
    return p


def _offer(runner: TournamentRunner, p: Proposal) -> dict[str, int] | None:
    """The amounts, once no hand is in play at the final table (None before)."""
    tables = list(runner.t.tables.values())
    if len(tables) == 1 and tables[0].hand is not None:  # else deal_offer says what is wrong
        return None
    return deal_offer(runner.t, p.kind, p.keep)


def deal_view(runner: TournamentRunner) -> dict[str, Any]:
    t, p = runner.t, open_proposal(runner)
    if t.deal is not None:
        return {"made": True, "amounts": dict(t.deal), "keep": t.deal_keep, "proposal": None}
    if p is None:
        view: dict[str, Any] = {"made": False, "amounts": None, "keep": 0, "proposal": None}
        if runner.deal_cancelled:  # until a new one is proposed
            view["cancelled"] = message(RESTARTED)
        return view
    return {
        "made": False,
        "amounts": _offer(runner, p),
        "keep": p.keep,
        "proposal": {
            "kind": p.kind,
            "by": p.by,
            "accepted": sorted(p.accepted),
            "waiting": [e for e in p.players if e not in p.accepted],
            # seconds left to answer (None until the amounts are shown)
            "seconds_left": None if p.until is None else seconds_until(p.until, runner.now()),
        },
    }


def _player_left(runner: TournamentRunner, account: int) -> str:
    entry = runner.entry_of(account)
    if entry is None or entry not in runner.t.remaining():
        raise TournamentError(code="tournament.not_in", event=runner.t.name)
    return entry


async def propose(runner: TournamentRunner, account: int, kind: DealKind, keep: int) -> None:
    t = runner.t
    async with runner.lock:
        entry = _player_left(runner, account)
        if open_proposal(runner) is not None:
            raise TournamentError(code="tournament.deal_open", event=t.name)
        level = t.clock.level_number(runner.now())
        if t.deals_asked.get(entry) == level:  # (one never shown, void first, does not count)
            raise TournamentError(code="tournament.deal_once_a_level", event=t.name, level=level)
        p = Proposal(kind, keep, entry, tuple(t.remaining()), {entry})
        _offer(runner, p)  # a deal that cannot be made is refused now
        runner.proposal = p
        open_proposal(runner)  # its time runs from now when its amounts are shown now
        runner.deal_cancelled = set()
        try:
            await runner.save()  # stored: a restart cancels it and says so (``restarted``)
        except BaseException:
            runner.proposal = None  # not proposed: nothing holds the table
            t.deals_asked.pop(entry, None)
            raise
        who = runner.names.get(t.entries[entry].player, entry)
        for other in p.players:
            runner.tell(other, "deal", "tournament.deal_proposed", {"who": who, "kind": kind})


async def answer(runner: TournamentRunner, account: int, *, accept: bool) -> None:
    t = runner.t
    async with runner.lock:
        entry = _player_left(runner, account)
        p = open_proposal(runner)
        if p is None:
            raise TournamentError(code="tournament.no_deal", event=t.name)
        who = runner.names.get(t.entries[entry].player, entry)
        if not accept:
            runner.proposal = None
            await runner.save()
            runner.wake_all()
            for other in p.players:
                runner.tell(other, "deal", "tournament.deal_declined", {"who": who})
            return
        if _offer(runner, p) is None:
            raise TournamentError(code="tournament.deal_wait", event=t.name)
        p.accepted.add(entry)
        if p.accepted != set(p.players):
            return
        make_deal(t, p.kind, p.accepted, p.keep)
        runner.proposal = None
        await runner.save()
        runner.wake_all()
        for other in p.players:
            amount = (t.deal or {})[other]
            runner.tell(other, "deal", "tournament.deal_made", {"amount": amount})
