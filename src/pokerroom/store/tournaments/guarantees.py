"""A guaranteed event's overlay in the ledger: when registration closes on a prize pool
under the guarantee, the house pays the difference into the pool (from ``house:overlay``,
which holds minus every overlay paid), in the transaction that stores the state where the
field became final; its key names the event, so it is paid once."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Session

from pokerroom.store.money.ledger import transfer_sync

OVERLAY = ("house", "overlay")


def pay_overlay_sync(
    session: Session, pool: tuple[str, str], amount: int, *, key: str, memo: str, now: datetime
) -> None:
    if amount > 0:
        transfer_sync(
            session, "t_overlay", {OVERLAY: -amount, pool: amount}, now=now, key=key, memo=memo
        )
