"""Private games (R-PRIV-1) in the store: the game with its invite and code, the players who
asked to sit and what the host decided, the host's acts, and what its players read (its
ledger from the room's own ledger entries, its hands). Each method is one transaction.

A game's chips are the room's: this module moves none. Its table is an ordinary table row
(``tables``), its buy-ins and cash-outs the ledger's ``buy_in``/``cash_out`` transfers of
its sittings; the ledger read here is those transfers, never a second book."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields
from datetime import datetime
from typing import Any, ClassVar

from sqlalchemy import Select, and_, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from pokerroom.store.db import Database
from pokerroom.store.models import (
    Account,
    HandPlayer,
    HandRecord,
    LedgerAccount,
    Posting,
    PrivateAct,
    PrivateGame,
    PrivateMember,
    Sitting,
    TableRecord,
    Transfer,
)
from pokerroom.store.money.ledger import TableMove

STATUSES = ("pending", "approved", "denied", "removed")
KINDS = ("cash", "sit_and_go")


@dataclass(frozen=True, slots=True, kw_only=True)
class PrivateSettings:
    """A private game's settings as its host chose them (docs/private-games.md): the one model
    of them. The route builds it from the request, the store keeps it (as JSON), the room
    reads its table or its event from it. A ``DEFAULTED`` setting left None takes the
    preset's value."""

    # The settings a host may leave out (None): the preset's value is in force.
    DEFAULTED: ClassVar = (
        "min_buy_in_bb",
        "max_buy_in_bb",
        "decision_seconds",
        "time_bank_seconds",
    )
    # The host's options of the table's house, in the order a refusal is pinned on one: the
    # buy-in's top before its bottom (a range is refused by the bottom that passes the top).
    OPTIONS: ClassVar = (
        "max_buy_in_bb",
        "min_buy_in_bb",
        "decision_seconds",
        "time_bank_seconds",
        "straddle",
        "run_it_twice",
        "bomb_pot",
    )

    name: str
    preset: str
    variant: str
    structure: str
    seats: int
    kind: str = "cash"  # or sit_and_go
    big_blind: int | None = None  # a cash game's stakes (None at a sit & go: its levels)
    min_buy_in_bb: int | None = None
    max_buy_in_bb: int | None = None
    decision_seconds: int | None = None
    time_bank_seconds: int | None = None
    straddle: bool = False
    run_it_twice: bool = False
    bomb_pot: bool = False
    spectators: bool = False
    approve_seats: bool = True
    # A sit & go's: the buy-in to the prize pool and the fee (0 and 0: free), the starting
    # stack in tournament chips, the blind levels' preset and each level's minutes.
    buy_in: int = 0
    fee: int = 0
    starting_stack: int = 1500
    blinds: str = "regular"
    level_minutes: int = 10

    @property
    def sit_and_go(self) -> bool:
        return self.kind == "sit_and_go"

    def as_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def of_json(cls, data: dict[str, Any]) -> PrivateSettings:
        """As stored (a setting the row lacks takes its default)."""
        return cls(**{f.name: data[f.name] for f in fields(cls) if f.name in data})


class CodeTakenError(ValueError):
    """The code or invite drawn is another game's: draw again (nothing was stored)."""


@dataclass(frozen=True, slots=True)
class StoredGame:
    table_id: str
    host_id: int
    host_name: str
    code: str
    invite: str
    settings: PrivateSettings
    big_blind: int
    paused: bool
    bomb_pot_next: int
    created_at: datetime
    ended_at: datetime | None


@dataclass(frozen=True, slots=True)
class Member:
    account: int
    name: str
    status: str
    asked_at: datetime


@dataclass(frozen=True, slots=True)
class Act:
    at: datetime
    host: int | None
    host_name: str | None
    act: str
    target: int | None
    target_name: str | None
    detail: dict[str, Any]


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    at: datetime
    account: int
    name: str
    kind: str  # buy_in (the first of a sitting), top_up, cash_out
    amount: int


@dataclass(frozen=True, slots=True)
class GameHand:
    id: int
    number: int
    started_at: datetime
    ended_at: datetime | None
    rake: int
    players: list[tuple[int, str, int]]  # account, name, net


class PrivateGamesStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    # ------------------------------------------------------------ games

    async def create(
        self,
        table_id: str,
        *,
        host: int,
        code: str,
        invite: str,
        settings: PrivateSettings,
        big_blind: int,
        now: datetime,
    ) -> StoredGame:
        """The game and its ``create`` act; CodeTakenError if the code or invite is taken
        (``big_blind``: a cash game's stakes, a sit & go's first level's)."""
        try:
            async with self.db.transaction() as session:
                session.add(
                    PrivateGame(
                        table_id=table_id,
                        host_id=host,
                        code=code,
                        invite=invite,
                        settings=json.dumps(settings.as_json()),
                        big_blind=big_blind,
                        paused=False,
                        bomb_pot_next=0,
                        created_at=now,
                    )
                )
                await session.flush()
                _act(session, table_id, host, "create", None, {}, now)
                session.add(
                    PrivateMember(
                        table_id=table_id,
                        account_id=host,
                        status="approved",
                        asked_at=now,
                        decided_at=now,
                    )
                )
        except IntegrityError as error:
            raise CodeTakenError(str(error.orig)) from None
        found = await self.game(table_id)
        assert found is not None
        return found

    async def game(self, table_id: str) -> StoredGame | None:
        async with self.db.transaction() as session:
            rows = await session.execute(_games().where(PrivateGame.table_id == table_id))
            return next((_game(row[0], row[1]) for row in rows), None)

    async def open_games(self) -> list[StoredGame]:
        """Every game not ended (a restart brings them back)."""
        async with self.db.transaction() as session:
            rows = await session.execute(_games().where(PrivateGame.ended_at.is_(None)))
            return [_game(row[0], row[1]) for row in rows]

    async def find(self, *, code: str | None = None, invite: str | None = None) -> str | None:
        """The open game with this code or invite (its table id), or None."""
        condition = PrivateGame.code == code if code is not None else PrivateGame.invite == invite
        async with self.db.transaction() as session:
            return await session.scalar(
                select(PrivateGame.table_id).where(condition, PrivateGame.ended_at.is_(None))
            )

    async def games_of(self, account: int, *, limit: int = 50) -> list[tuple[StoredGame, str]]:
        """The games where ``account`` has a status (host: ``approved`` there), newest first."""
        async with self.db.transaction() as session:
            rows = await session.execute(
                _games()
                .add_columns(PrivateMember.status)
                .join(
                    PrivateMember,
                    and_(
                        PrivateMember.table_id == PrivateGame.table_id,
                        PrivateMember.account_id == account,
                    ),
                )
                .order_by(PrivateGame.created_at.desc())
                .limit(limit)
            )
            return [(_game(row[0], row[1]), row[2]) for row in rows]

    async def members(self, table_id: str) -> list[Member]:
        async with self.db.transaction() as session:
            rows = await session.execute(
                select(
                    PrivateMember.account_id,
                    Account.display_name,
                    PrivateMember.status,
                    PrivateMember.asked_at,
                )
                .join(Account, Account.id == PrivateMember.account_id)
                .where(PrivateMember.table_id == table_id)
                .order_by(PrivateMember.asked_at, PrivateMember.account_id)
            )
            return [Member(*row) for row in rows]

    async def ask(self, table_id: str, account: int, status: str, *, now: datetime) -> str:
        """A player asks to sit (``status``: what asking gives, pending or approved): a
        player already ``pending`` or ``approved`` keeps it; the status is the answer."""
        async with self.db.transaction() as session:
            member = await session.get(PrivateMember, (table_id, account))
            if member is None:
                session.add(
                    PrivateMember(
                        table_id=table_id,
                        account_id=account,
                        status=status,
                        asked_at=now,
                        decided_at=now if status == "approved" else None,
                    )
                )
                return status
            if member.status in ("pending", "approved"):
                return member.status
            member.status, member.asked_at, member.decided_at = status, now, None
            return status

    async def decide(
        self,
        table_id: str,
        account: int,
        status: str,
        *,
        host: int | None,
        act: str,
        now: datetime,
    ) -> bool:
        """The host's decision on a player who asked (False: that player never asked)."""
        assert status in STATUSES
        async with self.db.transaction() as session:
            member = await session.get(PrivateMember, (table_id, account))
            if member is None:
                return False
            member.status, member.decided_at = status, now
            _act(session, table_id, host, act, account, {}, now)
            return True

    async def change(
        self,
        table_id: str,
        *,
        host: int | None,
        act: str,
        detail: dict[str, Any],
        now: datetime,
        **changes: Any,
    ) -> None:
        """A host's act that changes the game (``changes``: its columns: paused, big_blind,
        bomb_pot_next), logged with ``detail``."""
        async with self.db.transaction() as session:
            game = await session.get(PrivateGame, table_id)
            assert game is not None
            for name, value in changes.items():
                setattr(game, name, value)
            _act(session, table_id, host, act, None, detail, now)

    async def dealt_bomb_pot(self, table_id: str) -> None:
        """The bomb pot marked was dealt: the next hand is none unless marked again."""
        async with self.db.transaction() as session:
            game = await session.get(PrivateGame, table_id)
            if game is not None:
                game.bomb_pot_next = 0

    async def end(self, table_id: str, *, host: int | None, act: str, now: datetime) -> None:
        """The game ended (its table cashed out before): the game and its table closed, and
        the act logged, at once."""
        async with self.db.transaction() as session:
            game = await session.get(PrivateGame, table_id)
            assert game is not None
            game.ended_at, game.paused = now, False
            record = await session.get(TableRecord, table_id)
            if record is not None:
                record.closed = True
            _act(session, table_id, host, act, None, {}, now)

    # ------------------------------------------------------------ what its players read

    async def acts(self, table_id: str) -> list[Act]:
        host, target = aliased(Account), aliased(Account)
        async with self.db.transaction() as session:
            rows = await session.execute(
                select(
                    PrivateAct.at,
                    PrivateAct.host_id,
                    host.display_name,
                    PrivateAct.act,
                    PrivateAct.target_id,
                    target.display_name,
                    PrivateAct.detail,
                )
                .outerjoin(host, host.id == PrivateAct.host_id)
                .outerjoin(target, target.id == PrivateAct.target_id)
                .where(PrivateAct.table_id == table_id)
                .order_by(PrivateAct.id)
            )
            return [Act(*row[:-1], json.loads(row[-1])) for row in rows]

    async def ledger(self, table_id: str) -> tuple[list[LedgerEntry], int]:
        """The table's buy-ins, top-ups and cash-outs (the ledger's transfers of its
        sittings, oldest first) and what its ledger account holds now (the chips in play)."""
        async with self.db.transaction() as session:
            rows = await session.execute(
                select(
                    Transfer.created_at,
                    Transfer.kind,
                    Transfer.id,
                    Sitting.id,
                    Sitting.account_id,
                    Account.display_name,
                    Posting.amount,
                )
                .join(Sitting, Sitting.id == Transfer.sitting_id)
                .join(Account, Account.id == Sitting.account_id)
                .join(Posting, Posting.transfer_id == Transfer.id)
                .join(LedgerAccount, LedgerAccount.id == Posting.ledger_account_id)
                .where(
                    Sitting.table_id == table_id,
                    LedgerAccount.kind == "table",
                    LedgerAccount.owner == table_id,
                    or_(Transfer.kind == TableMove.BUY_IN, Transfer.kind == TableMove.CASH_OUT),
                )
                .order_by(Transfer.id)
            )
            on_table = await session.scalar(
                select(LedgerAccount.balance).where(
                    LedgerAccount.kind == "table", LedgerAccount.owner == table_id
                )
            )
        entries, bought = [], set()
        for at, kind, _, sitting, account, name, amount in rows:
            if kind == TableMove.BUY_IN:
                entry_kind = "top_up" if sitting in bought else "buy_in"
                bought.add(sitting)
            else:
                entry_kind = "cash_out"
            entries.append(LedgerEntry(at, account, name, entry_kind, abs(int(amount))))
        return entries, int(on_table or 0)

    async def hands(self, table_id: str, *, limit: int = 200) -> list[GameHand]:
        """The table's complete hands, newest first, with each player's net."""
        async with self.db.transaction() as session:
            hands = list(
                (
                    await session.scalars(
                        select(HandRecord)
                        .where(HandRecord.table_id == table_id, HandRecord.status == "complete")
                        .order_by(HandRecord.number.desc())
                        .limit(limit)
                    )
                ).all()
            )
            players = await session.execute(
                select(
                    HandPlayer.hand_id,
                    HandPlayer.account_id,
                    Account.display_name,
                    HandPlayer.end_stack - HandPlayer.start_stack,
                )
                .join(Account, Account.id == HandPlayer.account_id)
                .where(HandPlayer.hand_id.in_([h.id for h in hands]))
                .order_by(HandPlayer.position)
            )
        by_hand: dict[int, list[tuple[int, str, int]]] = {}
        for hand_id, account, name, net in players:
            by_hand.setdefault(hand_id, []).append((account, name, int(net)))
        return [
            GameHand(h.id, h.number, h.started_at, h.ended_at, h.rake, by_hand.get(h.id, []))
            for h in hands
        ]


def _act(
    session: AsyncSession,
    table_id: str,
    host: int | None,
    act: str,
    target: int | None,
    detail: dict[str, Any],
    now: datetime,
) -> None:
    session.add(
        PrivateAct(
            table_id=table_id,
            host_id=host,
            act=act,
            target_id=target,
            detail=json.dumps(detail),
            at=now,
        )
    )


def _games() -> Select[PrivateGame, str]:
    return select(PrivateGame, Account.display_name).join(
        Account, Account.id == PrivateGame.host_id
    )


def _game(game: PrivateGame, host_name: str) -> StoredGame:
    return StoredGame(
        table_id=game.table_id,
        host_id=game.host_id,
        host_name=host_name,
        code=game.code,
        invite=game.invite,
        settings=PrivateSettings.of_json(json.loads(game.settings)),
        big_blind=game.big_blind,
        paused=game.paused,
        bomb_pot_next=game.bomb_pot_next,
        created_at=game.created_at,
        ended_at=game.ended_at,
    )
