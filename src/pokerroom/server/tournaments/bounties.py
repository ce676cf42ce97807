"""A knockout event's bounties in the room: the payments its coordinator's bounties call
for that are not yet stored (each paid in the transaction that stores the hand that won
it: ``store.bounties``), what the players are told once they are, and what the lobby and
the felt show (each entry's bounty now, and what it has won)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pokerroom.errors import Params
from pokerroom.store.tournaments.bounties import BountyPayment
from pokerroom.table import Table
from pokerroom.tournament.coordinator import Tournament


def bounties_due(
    t: Tournament, sent: set[tuple[str, str]], account_of: Callable[[str], int]
) -> list[BountyPayment]:
    """The bounty cash won and not stored yet (after a restart every one again: the ledger
    pays each key once)."""
    return [
        BountyPayment(won.busted, knocker, account_of(knocker), cash)
        for won in t.bounties
        for knocker, cash, _, _ in won.shares
        if (won.busted, knocker) not in sent
    ]


def bounty_notes(t: Tournament, paid: list[BountyPayment]) -> list[tuple[str, str, Params]]:
    """(knocker entry, the code and params of what they are told) for each payment stored."""
    told: list[tuple[str, str, Params]] = []
    for p in paid:
        if p.amount <= 0:
            continue
        if p.busted == p.knocker:
            told.append((p.knocker, "tournament.bounty_own", {"amount": p.amount}))
        else:
            busted = t.entries[p.busted]
            name = busted.name or busted.player
            told.append((p.knocker, "tournament.bounty_won", {"amount": p.amount, "busted": name}))
    return told


def seat_bounties(t: Tournament, table: Table) -> list[list[int]]:
    """[seat, bounty] for each seat at a knockout event's table (none otherwise)."""
    if t.structure.bounty is None:
        return []
    return [
        [seat.number, t.entries[seat.player].bounty]
        for seat in table.seats.values()
        if seat.player in t.entries
    ]


def bounty_view(t: Tournament) -> dict[str, Any] | None:
    """The lobby's word on an event's bounties: the rule, and what is still on heads."""
    rule = t.structure.bounty
    if rule is None:
        return None
    return {
        "amount": rule.amount,
        "progressive": rule.progressive,
        "on_heads": sum(e.bounty for e in t.entries.values()),
        "paid": sum(e.bounties_won for e in t.entries.values()),
    }
