"""My results in the store: one row of facts per complete hand and player
(``hand_results``), written in the hand's own transaction when it ends, and the page's data
added up from them in a few grouped queries.

A hand's end hands its facts over with its record (``counted``); they are computed in the
writer's unit of work, off the tables' event loop, from the same hand the record is
written from, as each player may see it. Adding up 100,000 hands of one player is then a
scan of that player's rows by the primary key, not 100,000 replays (``scan_page_sync``
is that replay, kept for the benchmark and for checking that both agree). Hands stored
before the table existed are counted once ``backfill_sync`` has written their rows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields, replace
from datetime import UTC, datetime, time, timedelta
from typing import Any, Final, TypeVar

from sqlalchemy import bindparam, case, func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from pokerroom.engine.hand import Hand, Phase
from pokerroom.history.record import RecordError, read_record
from pokerroom.history.results import (
    EVERY_HAND,
    SERIES_POINTS,
    Filters,
    ResultsPage,
    Step,
    Totals,
    bucket_size,
    day_of,
    kind_results,
    results_page,
)
from pokerroom.history.stats import AMOUNTS, COUNTS, HandFacts, hand_facts
from pokerroom.history.viewer import viewer_hand
from pokerroom.store.compiled import Compiled
from pokerroom.store.models import HandPlayer, HandRecord, HandResult, TableRecord

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class HandToCount:
    """A hand that ended, for its facts: the hand, its players (account, position) and
    where it was played."""

    hand: Hand
    players: Sequence[tuple[int, int]]
    table_id: str
    tournament: bool


def facts_of(to_count: HandToCount, *, hand_id: int, at: datetime) -> list[HandFacts]:
    """Each player's facts of a complete hand (none of a cancelled one)."""
    hand = to_count.hand
    if hand.phase is not Phase.COMPLETE:
        return []
    return [
        hand_facts(
            viewer_hand(hand, position),
            hand_id=hand_id,
            account=account,
            at=at,
            table_id=to_count.table_id,
            tournament=to_count.tournament,
        )
        for account, position in to_count.players
    ]


# HandFacts' fields as the table's columns (``dataclasses.asdict`` copies each value
# recursively: about 20 times the cost, in the writer's unit, which holds the GIL).
_COLUMNS: Final = tuple(
    (f.name, "account_id" if f.name == "account" else f.name) for f in fields(HandFacts)
)


def _row(facts: HandFacts) -> dict[str, Any]:
    return {column: getattr(facts, name) for name, column in _COLUMNS}


# The same hand's end run again (group commit retries a failed batch unit by unit, and a
# COMMIT that reported an error may have committed) finds its rows there: nothing twice.
# Built and compiled once (store/compiled.py), like the hand's other statements.
_INSERT = {
    dialect.__name__.rsplit(".", 1)[-1]: Compiled(
        dialect.insert(HandResult)
        .values({column: bindparam(column) for _, column in _COLUMNS})
        .on_conflict_do_nothing(index_elements=["account_id", "hand_id"])
    )
    for dialect in (postgresql, sqlite)
}


def write_facts_sync(session: Session, facts: Sequence[HandFacts]) -> None:
    """The facts' rows, in the caller's transaction."""
    if facts:
        connection = session.connection()
        _INSERT[connection.dialect.name].executemany(connection, [_row(f) for f in facts])


def counted(
    work: Callable[[Session], T], to_count: HandToCount, *, hand_id: int, at: datetime
) -> Callable[[Session], T]:
    """A hand's end (``work``) and its players' facts: one unit of work, one transaction."""
    count = counting(to_count, hand_id=hand_id, at=at)

    def unit(session: Session) -> T:
        done = work(session)
        count(session)
        return done

    return unit


def counting(to_count: HandToCount, *, hand_id: int, at: datetime) -> Callable[[Session], None]:
    """Writes a hand's players' facts in the caller's transaction (the hand end's)."""

    def count(session: Session) -> None:
        write_facts_sync(session, facts_of(to_count, hand_id=hand_id, at=at))

    return count


# ------------------------------------------------------------------ the page, by query


def _admitted(query: Any, account: int, filters: Filters) -> Any:
    query = query.where(HandResult.account_id == account)
    if filters.game is not None:
        query = query.where(HandResult.game == filters.game)
    if filters.big_blind is not None:
        query = query.where(HandResult.big_blind == filters.big_blind)
    if filters.position is not None:
        query = query.where(HandResult.position == filters.position)
    if filters.since is not None:
        query = query.where(HandResult.at >= datetime.combine(filters.since, time(), UTC))
    if filters.until is not None:
        end = datetime.combine(filters.until + timedelta(days=1), time(), UTC)
        query = query.where(HandResult.at < end)
    return query


def _showdown_net(net: Any, showdown: Any) -> Any:
    return func.sum(case((showdown == 1, net), else_=0))


def _day(session: Session) -> Any:
    """The hand's day in UTC, as each database can group by it."""
    if session.get_bind().dialect.name == "postgresql":
        return func.date(func.timezone("UTC", HandResult.at))
    return func.date(HandResult.at)


def results_page_sync(
    session: Session, account: int, filters: Filters = EVERY_HAND, points: int = SERIES_POINTS
) -> ResultsPage:
    """The "My results" page's data for ``account`` from its rows: the same page
    ``history.results.results_page`` builds from facts, in three grouped queries per kind."""
    sums = [func.sum(getattr(HandResult, name)) for name in (*COUNTS, *AMOUNTS)]
    totals_query = _admitted(
        select(
            HandResult.tournament,
            HandResult.position,
            func.count(),
            *sums,
            _showdown_net(HandResult.net, HandResult.showdown),
            func.sum(HandResult.big_blind),
        ),
        account,
        filters,
    ).group_by(HandResult.tournament, HandResult.position)
    positions: dict[bool, dict[str, Totals]] = {False: {}, True: {}}
    for tournament, position, hands, *values in session.execute(totals_query):
        named = dict(zip((*COUNTS, *AMOUNTS), values[:-2], strict=True))
        positions[bool(tournament)][position] = Totals(
            hands=int(hands),
            counts={name: int(named[name]) for name in COUNTS},
            amounts={name: int(named[name]) for name in AMOUNTS},
            net_showdown=int(values[-2]),
            big_blinds=int(values[-1]),
        )
    built = {}
    for tournament, by_position in positions.items():
        hands = sum(t.hands for t in by_position.values())
        runs = _runs(session, account, filters, tournament, bucket_size(hands, points))
        days = _days(session, account, filters, tournament)
        built[tournament] = kind_results(by_position, *_with_tables(session, account, runs, days))
    return ResultsPage(cash=built[False], tournament=built[True])


def _runs(
    session: Session, account: int, filters: Filters, tournament: bool, size: int
) -> list[Step]:
    """The profit line's runs of ``size`` consecutive hands (by hand id)."""
    numbered = _admitted(
        select(
            HandResult.net,
            HandResult.all_in_net,
            HandResult.showdown,
            HandResult.hand_id,
            (func.row_number().over(order_by=HandResult.hand_id) - 1).label("k"),
        ).where(HandResult.tournament == tournament),
        account,
        filters,
    ).subquery()
    run = numbered.c.k.op("/")(size)  # whole-number division on both databases
    query = (
        select(
            func.count(),
            func.sum(numbered.c.net),
            func.sum(numbered.c.all_in_net),
            _showdown_net(numbered.c.net, numbered.c.showdown),
            func.max(numbered.c.hand_id),
        )
        .group_by(run)
        .order_by(run)
    )
    return [
        Step(hands=int(n), net=int(a), all_in_net=int(b), net_showdown=int(c), hand=int(h))
        for n, a, b, c, h in session.execute(query)
    ]


def _days(session: Session, account: int, filters: Filters, tournament: bool) -> list[Step]:
    day = _day(session).label("day")
    query = (
        _admitted(
            select(
                day,
                func.count(),
                func.sum(HandResult.net),
                func.sum(HandResult.all_in_net),
                _showdown_net(HandResult.net, HandResult.showdown),
                func.max(HandResult.hand_id),
            ).where(HandResult.tournament == tournament),
            account,
            filters,
        )
        .group_by(day)
        .order_by(day)
    )
    return [
        Step(
            hands=int(n),
            net=int(a),
            all_in_net=int(b),
            net_showdown=int(c),
            day=day_of(d),
            hand=int(h),
        )
        for d, n, a, b, c, h in session.execute(query)
    ]


def _with_tables(session: Session, account: int, *lines: list[Step]) -> tuple[list[Step], ...]:
    """The lines' steps with the table of each one's last hand (one query for them all)."""
    ids = {s.hand for line in lines for s in line if s.hand is not None}
    tables: dict[int, str] = {}
    if ids:
        rows = session.execute(
            select(HandResult.hand_id, HandResult.table_id).where(
                HandResult.account_id == account, HandResult.hand_id.in_(ids)
            )
        )
        tables = {int(h): str(t) for h, t in rows}
    return tuple(
        [replace(s, table=tables.get(s.hand)) if s.hand is not None else s for s in line]
        for line in lines
    )


# ------------------------------------------------------------------ from the records


def _cash_tables(session: Session) -> set[str]:
    """Cash tables are stored in ``tables``; a tournament's tables live in its snapshot."""
    return set(session.scalars(select(TableRecord.id)))


def _replayed(record: HandRecord, player: HandPlayer, cash: set[str]) -> HandFacts | None:
    try:
        hand = read_record(record.record)
    except RecordError:
        return None
    if hand.phase is not Phase.COMPLETE:
        return None
    return hand_facts(
        viewer_hand(hand, player.position),
        hand_id=record.id,
        account=player.account_id,
        at=record.ended_at or record.started_at,
        table_id=record.table_id,
        tournament=record.table_id not in cash,
    )


def replayed_facts_sync(session: Session, account: int) -> list[HandFacts]:
    """Every complete hand of ``account``, replayed from its record, oldest first."""
    cash = _cash_tables(session)
    rows = session.execute(
        select(HandRecord, HandPlayer)
        .join(HandPlayer, HandPlayer.hand_id == HandRecord.id)
        .where(HandPlayer.account_id == account, HandRecord.status == "complete")
        .order_by(HandRecord.id)
    )
    return [f for record, player in rows for f in [_replayed(record, player, cash)] if f]


def scan_page_sync(
    session: Session, account: int, filters: Filters = EVERY_HAND, points: int = SERIES_POINTS
) -> ResultsPage:
    """The same page by replaying every record of the player's: what the rows spare."""
    return results_page(replayed_facts_sync(session, account), filters, points)


def backfill_sync(session: Session, *, batch: int = 1000) -> int:
    """Rows for up to ``batch`` complete hands stored without them (before the table
    existed); gives how many hands were counted (0: none left)."""
    missing = (
        select(HandPlayer.hand_id)
        .join(HandRecord, HandRecord.id == HandPlayer.hand_id)
        .outerjoin(
            HandResult,
            (HandResult.hand_id == HandPlayer.hand_id)
            & (HandResult.account_id == HandPlayer.account_id),
        )
        .where(HandRecord.status == "complete", HandResult.hand_id.is_(None))
        .distinct()
        .order_by(HandPlayer.hand_id)
        .limit(batch)
    )
    hand_ids = list(session.scalars(missing))
    if not hand_ids:
        return 0
    rows = session.execute(
        select(HandRecord, HandPlayer)
        .join(HandPlayer, HandPlayer.hand_id == HandRecord.id)
        .where(HandRecord.id.in_(hand_ids))
    ).all()
    cash = _cash_tables(session)
    facts = [f for record, player in rows for f in [_replayed(record, player, cash)] if f]
    write_facts_sync(session, facts)  # a row there already is kept (on conflict)
    return len(hand_ids)
