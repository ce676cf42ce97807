"""The database schema: accounts and sessions, the double-entry chip ledger, hands, the floor.

Money is an integer count of the smallest unit (cents of play money). Every
movement is a ``Transfer`` whose ``Posting`` rows add up to zero (S-MONEY-1);
each ledger account's ``balance`` is the sum of its postings, kept in the same
transaction, and ``pokerroom audit`` checks that it is.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

# Stable constraint names, so that migrations match on SQLite and PostgreSQL.
NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class Account(Base):
    """A person (or operator) who can log in."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    username: Mapped[str] = mapped_column(String(32), unique=True)  # stored lower-case
    display_name: Mapped[str] = mapped_column(String(32))
    password_hash: Mapped[str] = mapped_column(String(255))  # argon2id (S-AUTH-1)
    role: Mapped[str] = mapped_column(String(16), default="player")  # player, operator, bot
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    suspended: Mapped[bool] = mapped_column(Boolean, default=False)


class LoginFailures(Base):
    """Failed log-ins counted per username, whether or not an account has that name, so that
    the lock-out looks the same for unknown names (S-AUTH-2). A row is counted by one
    ``UPDATE ... RETURNING``, atomic on SQLite and PostgreSQL alike; a count whose last
    failure is older than the window starts again, and such rows are pruned."""

    __tablename__ = "login_failures"

    username: Mapped[str] = mapped_column(String(32), primary_key=True)  # lower-case
    failures: Mapped[int] = mapped_column(Integer, default=0)
    locked_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    last_failed_at: Mapped[datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True, index=True
    )


class AccountPreferences(Base):
    """An account's client preferences as one JSON object (validated by the server's
    ``Preferences`` before it is written); no row means the defaults."""

    __tablename__ = "account_preferences"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    data: Mapped[str] = mapped_column(Text)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class AuthSession(Base):
    """A login session; only the token's SHA-256 is stored, so a leaked table logs nobody in."""

    __tablename__ = "auth_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    revoked: Mapped[bool] = mapped_column(Boolean, default=False)


class LedgerAccount(Base):
    """Where chips can be: a player's balance, a table, the house's rake, the play-money bank."""

    __tablename__ = "ledger_accounts"
    __table_args__ = (
        UniqueConstraint("kind", "owner", name="kind_owner"),
        CheckConstraint("kind <> 'player' OR balance >= 0", name="player_not_negative"),
        CheckConstraint("kind <> 'table' OR balance >= 0", name="table_not_negative"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))  # player, table, house, bank
    owner: Mapped[str] = mapped_column(String(64))  # account id, table id, "rake", "play"
    balance: Mapped[int] = mapped_column(BigInteger, default=0)


class Transfer(Base):
    """One balanced movement of chips; ``idempotency_key`` makes a retried request a no-op."""

    __tablename__ = "transfers"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))  # grant, buy_in, cash_out, hand, rake, ...
    idempotency_key: Mapped[str | None] = mapped_column(String(128), unique=True, nullable=True)
    memo: Mapped[str] = mapped_column(Text, default="")
    hand_id: Mapped[int | None] = mapped_column(ForeignKey("hands.id"), nullable=True, index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # The sitting a buy-in, top-up or cash-out belongs to: a key is bound to it (S-MONEY-3).
    sitting_id: Mapped[int | None] = mapped_column(
        ForeignKey("sittings.id"), nullable=True, index=True
    )


class Sitting(Base):
    """One stay of a player in one seat, from the buy-in that seats them to their cash-out.

    ``number`` is the table's own count of seats taken (``Seat.joined`` in its snapshot), so
    the seat in memory and the sitting in the database name each other. A join's request key
    is good for its sitting only: a retry while it lasts is the same join, after it a refusal.
    """

    __tablename__ = "sittings"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(String(64), index=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    number: Mapped[int] = mapped_column(Integer)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class Posting(Base):
    __tablename__ = "postings"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    transfer_id: Mapped[int] = mapped_column(ForeignKey("transfers.id"), index=True)
    ledger_account_id: Mapped[int] = mapped_column(ForeignKey("ledger_accounts.id"), index=True)
    amount: Mapped[int] = mapped_column(BigInteger)  # signed: credit > 0, debit < 0


class TableRecord(Base):
    """A table's configuration and its state between hands (``Table.to_json``)."""

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    config: Mapped[str] = mapped_column(Text)  # JSON: game, stakes, house, seats
    snapshot: Mapped[str] = mapped_column(Text)  # JSON: the table as it was before the hand
    closed: Mapped[bool] = mapped_column(Boolean, default=False)
    # indexed: each lease pass reads the tables written since its last one
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class TableLease(Base):
    """Which node owns a table, under which ``epoch``, until ``expires_at``.
    A new owner takes the next epoch; every write of an owner is fenced on its epoch
    (``store/fence.py``), so a stale owner can never write after another took over."""

    __tablename__ = "table_leases"
    __table_args__ = (CheckConstraint("epoch > 0", name="epoch_positive"),)

    # a table's id, or ``tournament:<id>`` for a tournament's coordinator (and its tables)
    table_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    node: Mapped[str] = mapped_column(String(128))
    epoch: Mapped[int] = mapped_column(BigInteger)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class NodeRecord(Base):
    """A node of the room and when it last said it was alive: the live nodes
    share the tables out between them (``store/nodes/store.py``)."""

    __tablename__ = "room_nodes"

    id: Mapped[str] = mapped_column(String(128), primary_key=True)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SchemaCompatibility(Base):
    """One row: the oldest revision whose code may run on the schema as it is, written by
    each migration run (``store/compatibility.py``) and read by older nodes."""

    __tablename__ = "schema_compatibility"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    oldest_code: Mapped[str] = mapped_column(String(64))


class HandRecord(Base):
    """A hand: its deck commitment and reveal, rake, and ``record`` (``history.record``), the
    setup, log of actions and result that rebuild it, from which every export and its full
    event log are derived (S-AUDIT-1)."""

    __tablename__ = "hands"
    __table_args__ = (UniqueConstraint("table_id", "number", name="table_number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(String(64), index=True)
    number: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16))  # running, complete, cancelled
    deck_commitment: Mapped[str] = mapped_column(String(64))  # SHA-256 of a salt and the deck
    deck_reveal: Mapped[str] = mapped_column(Text, default="", server_default="")  # after the hand
    record: Mapped[str] = mapped_column(Text, default="", server_default="")  # JSON, at the end
    rake: Mapped[int] = mapped_column(BigInteger, default=0)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class HandPlayer(Base):
    """Who played a hand, from which seat, with what result: a player's own history."""

    __tablename__ = "hand_players"

    hand_id: Mapped[int] = mapped_column(ForeignKey("hands.id"), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True, index=True)
    seat: Mapped[int] = mapped_column(Integer)
    position: Mapped[int] = mapped_column(Integer)
    start_stack: Mapped[int] = mapped_column(BigInteger)
    end_stack: Mapped[int] = mapped_column(BigInteger)


class ChatMessage(Base):
    """Table chat, stored as sent: HTML-escaped, at most 200 characters."""

    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(String(64), index=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    text: Mapped[str] = mapped_column(String(1200))  # escaping can grow the text
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class FloorAct(Base):
    """R-FLOOR-1: who did what to which hand, table or account, when and why."""

    __tablename__ = "floor_acts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    operator_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    act: Mapped[str] = mapped_column(String(32))  # void_hand, correct_hand, close_table, ...
    target: Mapped[str] = mapped_column(String(128))
    reason: Mapped[str] = mapped_column(Text)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class TournamentRecord(Base):
    """An event: its prices and structure (``config``), its state (``snapshot``: the
    coordinator as ``tournament.snapshot`` writes it, tables and levels included) and the
    entries whose prizes were paid."""

    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16))  # registering, running, finished
    config: Mapped[str] = mapped_column(Text)  # JSON: structure, prices, start time
    snapshot: Mapped[str] = mapped_column(Text)
    paid: Mapped[str] = mapped_column(Text, default="[]")  # JSON: entries paid their prize
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class TournamentEntry(Base):
    """One registration (an entry, or a re-entry) and its buy-in plus fee.

    ``active`` is ``tournament:account:number`` while the registration holds and NULL once
    it was taken back, so the same entry can never be bought twice at once (two requests
    racing on PostgreSQL meet at this unique key); ``request`` is the client's key."""

    __tablename__ = "tournament_entries"
    __table_args__ = (UniqueConstraint("tournament_id", "account_id", "request", name="request"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[str] = mapped_column(String(64), index=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)  # 1 for the first entry, 2 a re-entry...
    entry: Mapped[str] = mapped_column(String(80))  # the coordinator's entry id
    request: Mapped[str] = mapped_column(String(64))
    active: Mapped[str | None] = mapped_column(String(160), unique=True, nullable=True)
    status: Mapped[str] = mapped_column(String(16))  # registered, unregistered, refunded
    registered_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class HandResult(Base):
    """One player's facts of one complete hand (``history.stats.HandFacts``), written in the
    hand's own transaction when it ends: "My results" adds these rows up in one query
    rather than replaying every record (``store/tables/results.py``)."""

    __tablename__ = "hand_results"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    hand_id: Mapped[int] = mapped_column(ForeignKey("hands.id"), primary_key=True, index=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    table_id: Mapped[str] = mapped_column(String(64))
    game: Mapped[str] = mapped_column(String(8))
    big_blind: Mapped[int] = mapped_column(BigInteger)
    tournament: Mapped[bool] = mapped_column(Boolean)
    position: Mapped[str] = mapped_column(String(8))
    players: Mapped[int] = mapped_column(Integer)
    preflop_acted: Mapped[int] = mapped_column(Integer)
    vpip: Mapped[int] = mapped_column(Integer)
    pfr: Mapped[int] = mapped_column(Integer)
    three_bet_chance: Mapped[int] = mapped_column(Integer)
    three_bet: Mapped[int] = mapped_column(Integer)
    fold_to_three_bet_chance: Mapped[int] = mapped_column(Integer)
    fold_to_three_bet: Mapped[int] = mapped_column(Integer)
    cbet_chance: Mapped[int] = mapped_column(Integer)
    cbet: Mapped[int] = mapped_column(Integer)
    saw_flop: Mapped[int] = mapped_column(Integer)
    showdown: Mapped[int] = mapped_column(Integer)
    won_showdown: Mapped[int] = mapped_column(Integer)
    won_without_showdown: Mapped[int] = mapped_column(Integer)
    all_in_adjusted: Mapped[int] = mapped_column(Integer)
    net: Mapped[int] = mapped_column(BigInteger)
    all_in_net: Mapped[int] = mapped_column(BigInteger)
    rake_paid: Mapped[int] = mapped_column(BigInteger)


class ConnectionSeen(Base):
    """An account seen from an address and a device (a hash of what the client says it
    is): first and last time. The floor's report of accounts sharing one reads these."""

    __tablename__ = "connections_seen"
    __table_args__ = (UniqueConstraint("account_id", "address", "device", name="seen"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    address: Mapped[str] = mapped_column(String(64), index=True)
    device: Mapped[str] = mapped_column(String(64))
    first_seen: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_seen: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PrivateGame(Base):
    """R-PRIV-1: a cash table a player (the host) set up, found only by its invite token or
    its code. ``table_id`` is its table's (``tables``) id; ``settings`` is the host's choice
    as JSON; ``big_blind`` and ``bomb_pot_next`` are what the next hand is dealt with."""

    __tablename__ = "private_games"

    table_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    host_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    code: Mapped[str] = mapped_column(String(16), unique=True)
    invite: Mapped[str] = mapped_column(String(64), unique=True)
    settings: Mapped[str] = mapped_column(Text)
    big_blind: Mapped[int] = mapped_column(BigInteger)
    paused: Mapped[bool] = mapped_column(Boolean, default=False)
    bomb_pot_next: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class PrivateMember(Base):
    """A player who asked to sit in a private game, and what the host decided: ``pending``,
    ``approved``, ``denied`` or ``removed``."""

    __tablename__ = "private_members"

    table_id: Mapped[str] = mapped_column(ForeignKey("private_games.table_id"), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    status: Mapped[str] = mapped_column(String(16))
    asked_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    decided_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class PrivateAct(Base):
    """A host's act in a private game (or the room's: ``host_id`` None), with its time and
    target, shown to the game's players."""

    __tablename__ = "private_acts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("private_games.table_id"), index=True)
    host_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), nullable=True)
    act: Mapped[str] = mapped_column(String(16))
    target_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), nullable=True)
    detail: Mapped[str] = mapped_column(Text, default="{}")  # JSON
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
