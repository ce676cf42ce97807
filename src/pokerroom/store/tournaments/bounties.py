"""A knockout event's bounties in the ledger: each entry's bounty is held in the event's
bounty account (``bounty:<id>``, apart from the prize pool) from its registration, and each
bounty won is paid from it to the knocker's balance in the transaction that stores the hand
(or the change) that won it. Its key names the busted entry and the knocker, so a retry or
a restart pays it once. A finished event's bounty account is empty: the winner's own bounty
is paid to them at the end."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from pokerroom.store.money.ledger import player_account, transfer_sync

BOUNTY = "bounty"  # the ledger kind of an event's bounties


def bounty_account(tournament_id: str) -> tuple[str, str]:
    return (BOUNTY, tournament_id)


@dataclass(frozen=True, slots=True)
class BountyPayment:
    """Bounty cash won by ``knocker`` (an entry of ``account``) for eliminating ``busted``
    (the winner's own bounty: ``busted`` is the winner)."""

    busted: str
    knocker: str
    account: int
    amount: int

    def key(self, tournament_id: str) -> str:
        return f"t:{tournament_id}:bounty:{self.busted}:{self.knocker}"


def pay_bounties_sync(
    session: Session,
    tournament_id: str,
    payments: Sequence[BountyPayment],
    *,
    name: str,
    now: datetime,
) -> None:
    """Each payment from the event's bounty account to the knocker (once: by its key)."""
    for payment in payments:
        if payment.amount <= 0:
            continue
        transfer_sync(
            session,
            "t_bounty",
            {
                bounty_account(tournament_id): -payment.amount,
                player_account(payment.account): payment.amount,
            },
            now=now,
            key=payment.key(tournament_id),
            memo=f"bounty for eliminating {payment.busted} in {name}",
        )
