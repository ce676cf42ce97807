"""My results and the floor's integrity reports: a player's own results, added up by the
store from the facts each hand's end wrote (``history.results`` defines every statistic),
and, for operators, the three reports of ``history.integrity`` over a period."""

from datetime import UTC, date, datetime, time, timedelta
from typing import Annotated, Any, Final, Literal

from fastapi import APIRouter, Query, Request

from pokerroom.history.integrity import Report
from pokerroom.history.results import Filters
from pokerroom.history.stats import position_name
from pokerroom.history.tournament_results import event_totals
from pokerroom.server.clock import utcnow
from pokerroom.server.http.deps import Operator, Player, Store
from pokerroom.server.sockets.errors import ApiError

router = APIRouter(prefix="/api")

MAX_SEATS: Final = 10  # the largest table: its position names are every one there is
POSITIONS: Final = frozenset(position_name(p, n) for n in range(2, MAX_SEATS + 1) for p in range(n))
KNOWN: Final = ", ".join(sorted(POSITIONS))
REPORT_DAYS: Final = 7  # the floor's default period, up to today
MAX_REPORT_DAYS: Final = 92  # each report replays every hand of its period
MAX_REPORT_ROWS: Final = 500


def _dates(since: date | None, until: date | None) -> None:
    if since is not None and until is not None and since > until:
        raise ApiError(422, "results.dates", since=since.isoformat(), until=until.isoformat())


@router.get("/me/results")
async def my_results(
    account: Player,
    store: Store,
    request: Request,
    game: Annotated[str | None, Query(pattern=r"^[A-Z0-9]{1,8}$")] = None,
    big_blind: Annotated[int | None, Query(ge=1, le=2**62)] = None,
    since: date | None = None,
    until: date | None = None,
    position: str | None = None,
    kind: Literal["cash", "tournament"] | None = None,
) -> dict[str, Any]:
    """The logged-in player's results (only their own): cash and tournament hands apart,
    each with its statistics overall and by position and its profit lines by hands and by
    day. Filters: ``game`` (PHH code, e.g. NT), ``big_blind`` (in the hand's units),
    ``since``/``until`` (days, both included, by the hand's end in UTC), ``position`` (SB,
    BB, UTG, UTG+1.., LJ, HJ, CO, BTN), ``kind`` (cash or tournament: that kind only).

    The tournament part also holds ``events``: the finished events the player had an entry
    in (by their end, within ``since``/``until``; the other filters are of hands), with
    their finish, their money from the ledger, ITM and ROI (``history.tournament_results``).
    Each point of a profit line names its last ``hand`` and its ``table`` (the replayer)."""
    if position is not None and position not in POSITIONS:
        raise ApiError(422, "results.position", position=position, known=KNOWN)
    _dates(since, until)
    filters = Filters(game=game, big_blind=big_blind, since=since, until=until, position=position)
    page = (await store.results_page(account.id, filters)).as_json()
    hall = getattr(request.app.state, "tournaments", None)
    events = [] if hall is None else await hall.store.event_results(account.id)
    tournament = page["tournament"]
    assert isinstance(tournament, dict)
    tournament["events"] = event_totals(events, since, until).as_json()
    return page if kind is None else {kind: page[kind]}


def _report_json(report: Report, limit: int) -> dict[str, Any]:
    return {
        "name": report.name,
        "threshold": report.threshold,
        "flagged": len(report.flagged),
        "pairs": len(report.rows),
        "rows": [
            {
                "accounts": list(row.accounts),
                "score": row.score,
                "numbers": row.numbers,
                "hands": list(row.hands),
            }
            for row in report.rows[:limit]
        ],
    }


@router.get("/floor/reports")
async def floor_reports(
    _: Operator,
    store: Store,
    since: date | None = None,
    until: date | None = None,
    limit: Annotated[int, Query(ge=1, le=MAX_REPORT_ROWS)] = 100,
) -> dict[str, Any]:
    """The floor's integrity reports (operators only) over the hands that ended from
    ``since`` to ``until`` (days, both included, UTC; by default the last 7 days up to
    today, at most 92): chip-dumping, soft play and shared connections, each ranked, with
    its threshold, how many pairs reach it, and its first ``limit`` rows."""
    today = utcnow().date()
    until = until or today
    since = since or until - timedelta(days=REPORT_DAYS - 1)
    _dates(since, until)
    if (until - since).days + 1 > MAX_REPORT_DAYS:
        raise ApiError(422, "floor.period", days=MAX_REPORT_DAYS)
    reports = await store.floor_reports(
        since=datetime.combine(since, time(), UTC),
        until=datetime.combine(until + timedelta(days=1), time(), UTC),
    )
    return {
        "since": since.isoformat(),
        "until": until.isoformat(),
        "reports": {name: _report_json(report, limit) for name, report in reports.items()},
    }
