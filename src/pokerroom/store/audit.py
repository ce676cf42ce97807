"""Conservation checks on a live database (S-MONEY-2, ``pokerroom audit``).

Every transfer balances; every ledger account's balance equals the sum of its
postings; no player or table is below zero; and all balances together are zero
(the bank's negative balance is exactly the play money in circulation).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from pokerroom.store.models import FloorAct, LedgerAccount, Posting, Transfer


@dataclass
class AuditReport:
    totals: dict[str, int] = field(default_factory=dict)  # by ledger account kind
    transfers: int = 0
    floor_acts: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def in_circulation(self) -> int:
        return -self.totals.get("bank", 0)


async def audit(session: AsyncSession) -> AuditReport:
    """Each check is one query, so it reads one consistent state even while the room goes
    on committing hands (and, on SQLite, the whole transaction is one snapshot)."""
    report = AuditReport()
    report.transfers = int(await session.scalar(select(func.count(Transfer.id))) or 0)
    report.floor_acts = int(await session.scalar(select(func.count(FloorAct.id))) or 0)
    unbalanced = await session.execute(
        select(Posting.transfer_id, func.sum(Posting.amount))
        .group_by(Posting.transfer_id)
        .having(func.sum(Posting.amount) != 0)
    )
    for transfer_id, total in unbalanced:
        report.problems.append(f"transfer {transfer_id} does not balance: {total}")
    accounts = await session.execute(
        select(
            LedgerAccount.kind,
            LedgerAccount.owner,
            LedgerAccount.balance,
            func.coalesce(func.sum(Posting.amount), 0),
        )
        .outerjoin(Posting, Posting.ledger_account_id == LedgerAccount.id)
        .group_by(LedgerAccount.id, LedgerAccount.kind, LedgerAccount.owner, LedgerAccount.balance)
    )
    for kind, owner, balance, posted in accounts:
        if int(posted) != balance:
            report.problems.append(
                f"{kind} {owner}: balance {balance} but postings add up to {int(posted)}"
            )
        if kind in ("player", "table") and balance < 0:
            report.problems.append(f"{kind} {owner} is below zero: {balance}")
        report.totals[kind] = report.totals.get(kind, 0) + balance
    if sum(report.totals.values()) != 0:
        report.problems.append(f"the books do not balance: {sum(report.totals.values())}")
    return report
