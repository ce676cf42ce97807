"""The floor's acts (R-FLOOR-1): recorded with who, when and why; corrections as ledger entries."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from pokerroom.errors import CodedError
from pokerroom.store.accounts.accounts import revoke_all
from pokerroom.store.models import Account, FloorAct, HandRecord
from pokerroom.store.money.ledger import HOUSE, LedgerError, player_account, transfer


class FloorError(CodedError, ValueError):
    """A floor act the room refuses, with its code (pokerroom/errors.py). Nothing changed."""


async def record_act(
    session: AsyncSession, operator_id: int, act: str, target: str, reason: str, *, now: datetime
) -> FloorAct:
    if not reason.strip():
        raise FloorError(code="floor.reason_required")
    entry = FloorAct(operator_id=operator_id, act=act, target=target, reason=reason.strip(), at=now)
    session.add(entry)
    await session.flush()
    return entry


async def correct_hand(
    session: AsyncSession,
    operator_id: int,
    hand_id: int,
    account_id: int,
    amount: int,
    reason: str,
    *,
    now: datetime,
) -> FloorAct:
    """Correct a finished hand's result for one player by a compensating entry against the
    house (positive: the player is paid; negative: chips are taken back)."""
    hand = await session.get(HandRecord, hand_id)
    if hand is None or hand.status != "complete":
        raise FloorError(code="floor.not_finished", hand=hand_id)
    if amount == 0:
        raise FloorError(code="floor.zero_correction")
    act = await record_act(
        session,
        operator_id,
        "correct_hand",
        f"hand {hand_id}, account {account_id}, {amount:+d}",
        reason,
        now=now,
    )
    try:
        await transfer(
            session,
            "correction",
            {player_account(account_id): amount, HOUSE: -amount},
            now=now,
            hand_id=hand_id,
            key=f"correction:{act.id}",
            memo=reason,
        )
    except LedgerError as error:
        raise FloorError(code=error.code, **error.params) from None
    return act


async def suspend_account(
    session: AsyncSession, operator_id: int, account_id: int, reason: str, *, now: datetime
) -> FloorAct:
    account = await session.get(Account, account_id)
    if account is None:
        raise FloorError(code="floor.no_account", account=account_id)
    account.suspended = True
    await revoke_all(session, account_id)
    return await record_act(
        session, operator_id, "suspend_account", f"account {account_id}", reason, now=now
    )


async def floor_acts(session: AsyncSession) -> list[FloorAct]:
    return list((await session.scalars(select(FloorAct).order_by(FloorAct.id))).all())
