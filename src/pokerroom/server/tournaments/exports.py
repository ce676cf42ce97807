"""A stored tournament hand's downloads and a player's tournament summary: the
hand's PHH with the standard's tournament fields and its PokerStars text with the tournament
header (history/tournament.py), written from the event the room holds. Every download is one
player's (S-EXPORT-1): the hand is passed in already as its viewer may see it."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from pokerroom.history.pokerstars import Finish, Knockout, TournamentHand
from pokerroom.history.tournament import knockouts, tournament_phh_fields, tournament_summary
from pokerroom.history.viewer import ViewerHand
from pokerroom.server.clock import aware
from pokerroom.store.account_ids import player_key

if TYPE_CHECKING:
    from pokerroom.server.tournaments.hall import Tournaments
    from pokerroom.server.tournaments.runner import TournamentRunner


_NONE = Finish("", 0, 0)


@dataclass(frozen=True)
class EventTable:
    """What a tournament hand's downloads say of its event, taken on the event loop (the
    hand itself is replayed on a worker thread, where the live event must not be read)."""

    name: str
    event: str  # the event's id ("sng6-12")
    number: int  # the event's number in the histories: its id's count ("sng6-12" is 12)
    buy_in: int
    fee: int
    table: int
    seats: int  # the event's table size (PHH's seat_count)
    game: str  # the game's name, as a cash table's list shows it
    stakes: tuple[Any, ...]  # each level's stakes, up to the one in play
    places: dict[str, Finish] = field(default_factory=dict)  # by name: the places final now
    knockouts: dict[int, tuple[Knockout, ...]] = field(default_factory=dict)  # by hand number

    def level(self, view: ViewerHand) -> int:
        """The blind level (from 1) the hand was dealt at: the last one with its blinds."""
        found = [k for k, stakes in enumerate(self.stakes, 1) if stakes == view.hand.spec.stakes]
        return found[-1] if found else 1

    def text_header(self, view: ViewerHand, hand: int | None = None) -> TournamentHand:
        """The text's tournament lines; ``hand`` (the table's hand number) names the
        bounties won in it."""
        return TournamentHand(
            knockouts=() if hand is None else self.knockouts.get(hand, ()),
            tournament=self.number,
            buy_in=self.buy_in,
            fee=self.fee,
            level=self.level(view),
            table=self.table,
            finishes=self.finishes(view),
        )

    def finishes(self, view: ViewerHand) -> tuple[Finish, ...]:
        """The places decided in the hand, worst first: those it left with no chips (once
        their place is final) and, when it left one player with chips who won, the title."""
        hand = view.hand
        out = [hand.names[i] for i in range(hand.n) if hand.stacks[i] == 0]
        alive = [hand.names[i] for i in range(hand.n) if hand.stacks[i] > 0]
        decided = [self.places[name] for name in out if name in self.places]
        if decided and len(alive) == 1 and self.places.get(alive[0], _NONE).place == 1:
            decided.append(self.places[alive[0]])
        return tuple(sorted(decided, key=lambda f: -f.place))

    def phh_fields(self, view: ViewerHand, *, hand: int, dealt_at: datetime) -> dict[str, Any]:
        return tournament_phh_fields(
            view,
            event=self.name,
            tournament=self.number,
            hand=hand,
            level=self.level(view),
            table=self.table,
            dealt_at=aware(dealt_at),
            seat_count=self.seats,
        )


def event_number(runner: TournamentRunner) -> int:
    tail = runner.id.rsplit("-", 1)[-1]
    return int(tail) if tail.isdigit() else 0


def event_table(hall: Tournaments | None, table_id: str) -> EventTable | None:
    """The event of a table (``{event}-{number}``); None for a cash table."""
    if hall is None or "-" not in table_id:
        return None
    event, number = table_id.rsplit("-", 1)
    runner = hall.runners.get(event)
    if runner is None or not number.isdigit():  # a table broken since is still the event's
        return None
    t = runner.t
    now = min(t.clock.level_index(runner.now()), len(t.structure.levels) - 1)
    names = {entry: e.name or e.player for entry, e in t.entries.items()}  # as seated
    places = {names[e]: Finish(names[e], p.place, p.prize) for e, p in runner.places.items()}
    return EventTable(
        name=t.name,
        event=runner.id,
        number=event_number(runner),
        buy_in=t.structure.buy_in,
        fee=t.structure.fee,
        table=int(number),
        seats=t.structure.table_size,
        game=t._spec(now).name,
        stakes=tuple(t._spec(k).stakes for k in range(now + 1)),
        places=places,
        knockouts=_knockouts(t, int(number)),
    )


def played_by(runner: TournamentRunner, account: int) -> dict[str, Any] | None:
    """The event as the player's list of tournaments shows it (None: they did not play it):
    its name, when it started, and their place and prize (money) once final."""
    t = runner.t
    mine = [entry for entry, e in t.entries.items() if e.player == player_key(account)]
    if t.clock.start is None or not mine:
        return None
    places = [runner.places[entry] for entry in mine if entry in runner.places]
    return {
        "id": runner.id,
        "name": t.name,
        "started_at": datetime.fromtimestamp(t.clock.start, UTC).isoformat(),
        "status": runner.status,
        "entries": len(t.entries),
        "place": min((p.place for p in places), default=None),
        "prize": sum(p.prize for p in places),
    }


def _knockouts(t: Any, table: int) -> dict[int, tuple[Knockout, ...]]:
    """The bounties won at ``table``, by the table's hand number."""
    hands: dict[int, list[Any]] = {}
    for won in t.bounties:
        if won.table == table and won.hand is not None:
            hands.setdefault(won.hand, []).append(won)
    return {hand: knockouts(t, found) for hand, found in hands.items()}


def summary_of(runner: TournamentRunner, account: int) -> str | None:
    """The player's summary of the event as it stands (None: they did not play it)."""
    t, player = runner.t, player_key(account)
    if t.clock.start is None or not any(e.player == player for e in t.entries.values()):
        return None
    started = datetime.fromtimestamp(t.clock.start, UTC)
    return tournament_summary(
        t,
        player,
        tournament=event_number(runner),
        started=started,
        now=runner.now() if runner.finished_at is None else runner.finished_at,
    )
