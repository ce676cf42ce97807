"""A tournament's results and histories: every hand in PHH with the standard's
tournament fields and as PokerStars-style tournament text, and each player's tournament
summary, written from the coordinator's own results.

PHH (shared/PHH.md, the standard's optional fields): ``event`` (the event's name), ``hand``
(the hand's number in the event), ``level`` (the blind level, from 1), ``table`` (the
table's number), ``seat_count``, ``time``/``time_zone``/``day``/``month``/``year`` (when it
was dealt, UTC); stacks are tournament chips, so no ``currency`` (the standard's currency is
the one the chips are in). The tournament's number, which the standard has no field for, is
the user field ``_tournament``.

The summary is PokerStars' "Tournament #T" text, matched to the regular expressions of
fpdb's ``PokerStarsSummary.py`` (an open tracker's import): ``Buy-In: $B/$F USD``, ``N
players``, ``Total Prize Pool: $P USD``, ``Tournament started ... ET``, one line a place
(``  5: name (country), $20.00 (2%)``; a re-entry ``name [2]``), and ``You finished in
5th place.``. The room keeps no country, so it says ``(unknown)``.

Every history is one player's (S-EXPORT-1): their own hole cards and the cards shown.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Collection
from datetime import UTC, datetime, timedelta
from typing import Any

from pokerroom.history.phh import phh_fields, to_toml
from pokerroom.history.pokerstars import (
    GAMES,
    LIMITS,
    Finish,
    Knockout,
    TournamentHand,
    dollars,
    eastern,
    ordinal,
    pokerstars_text,
)
from pokerroom.history.viewer import ViewerHand, viewer_hand
from pokerroom.tournament import Tournament
from pokerroom.tournament.events import BountyWon, Eliminated, Finished
from pokerroom.tournament.places import Place
from pokerroom.tournament.simulate import HandPlayed


def tournament_phh_fields(
    view: ViewerHand,
    *,
    event: str,
    tournament: int,
    hand: int,
    level: int,
    table: int,
    dealt_at: datetime,
    seat_count: int | None = None,
) -> dict[str, Any]:
    """A tournament hand's PHH fields, as ``view`` lets its viewer see it: ``hand`` is the
    hand's number, ``level`` its blind level (from 1), ``dealt_at`` an aware time,
    ``seat_count`` the table's size (when known)."""
    when = dealt_at.astimezone(UTC)
    return phh_fields(
        view,
        event=event,
        hand=hand,
        level=level,
        table=table,
        time=when.time().replace(microsecond=0),
        time_zone="UTC",
        day=when.day,
        month=when.month,
        year=when.year,
        _tournament=tournament,
        **({} if seat_count is None else {"seat_count": seat_count}),
    )


def tournament_summary(
    t: Tournament,
    player: str,
    *,
    tournament: int,
    started: datetime,
    now: float,
) -> str:
    """``player``'s summary of the event as it stands at ``now`` (the coordinator's clock,
    which started the event at ``started``): the places final so far, the rest "still
    playing" (places 1 up)."""
    s = t.structure
    mine = [e for e in t.entries.values() if e.player == player]
    if not mine:
        raise ValueError(f"{player!r} did not play {t.name}")
    placed = {p.entry: p for p in t.settled_places(now)}
    points = s.payout_for(len(t.entries)) if t.closed else ()
    lines = [
        f"PokerStars Tournament #{tournament}, {LIMITS[s.structure]} {GAMES[s.variant]}",
        f"Buy-In: {dollars(s.buy_in)}/{dollars(s.fee)} USD",
        f"{len(t.entries)} players",
        f"Total Prize Pool: {dollars(t.prize_pool)} USD",
        f"Tournament started {eastern(started)}",
    ]
    if t.finished:
        since = now - (t.clock.start or 0.0)
        lines.append(f"Tournament finished {eastern(started + timedelta(seconds=since))}")
    playing = [entry for entry in t.entries if entry not in placed]
    rows: list[tuple[int, str, str]] = [(k, e, "still playing") for k, e in enumerate(playing, 1)]
    for p in sorted(placed.values(), key=lambda p: p.place):
        rows.append((p.place, p.entry, _prize(p, points, t)))
    for place, entry, prize in rows:
        lines.append(f"  {place}: {_entry_name(t, entry)} (unknown), {prize}")
    lines.append("")
    rebuys, addons = sum(e.rebuys for e in mine), sum(e.addon for e in mine)
    if rebuys or addons:
        spent = rebuys * (s.rebuy.price if s.rebuy else 0)
        spent += addons * (s.addon.price if s.addon else 0)
        total = dollars(spent)[1:]
        lines.append(f"You made {rebuys} rebuys and {addons} addons for a total of USD {total}.")
    for e in mine:
        if e.id in placed:
            lines.append(f"You finished in {ordinal(placed[e.id].place)} place.")
    return "\n".join(lines) + "\n"


def knockouts(t: Tournament, won: Collection[BountyWon]) -> tuple[Knockout, ...]:
    """The bounties won in a hand as its text writes them (names as seated); the winner's
    own bounty, paid at the end, is no knockout."""
    rule = t.structure.bounty
    if rule is None:
        return ()

    def seated(entry: str) -> str:
        e = t.entries[entry]
        return e.name or e.player

    return tuple(
        Knockout(
            seated(b.busted),
            tuple((seated(k), cash, added, after) for k, cash, added, after in b.shares),
            rule.progressive,
        )
        for b in won
        if b.hand is not None
    )


def _entry_name(t: Tournament, entry: str) -> str:
    e = t.entries[entry]
    name = e.name or e.player
    return name if e.number == 1 else f"{name} [{e.number}]"


def _prize(p: Place, points: tuple[int, ...], t: Tournament) -> str:
    if not p.prize:
        return ""
    text = dollars(p.prize)
    shared = p.tie is not None or (t.deal is not None and p.entry in t.deal)
    if shared or p.place > len(points):
        return text
    bp = points[p.place - 1]
    percent = f"{bp // 100}" if bp % 100 == 0 else f"{bp // 100}.{bp % 100:02d}"
    return f"{text} ({percent}%)"


class EventExport:
    """A simulated event's histories, written as its hands end (``Simulation.on_hand``).

    ``write(path, text)`` appends ``text`` to the export's file ``path`` (the caller does the
    I/O): ``NAME/hands.txt`` (PokerStars), ``NAME/hands.phhs`` (PHH, hands [1], [2], ...) for
    each player of ``players`` (everyone when None), and at the end (``finish``)
    ``NAME/summary.txt``. A hand in which a place was decided waits until that place is
    final (``Tournament.settled_places``); the hands after it wait with it, in order.
    """

    def __init__(
        self,
        *,
        tournament: int,
        started: datetime,
        write: Callable[[str, str], None],
        players: Collection[str] | None = None,
        phh: bool = True,
        pokerstars: bool = True,
    ) -> None:
        if started.tzinfo is None:
            raise ValueError("the start time needs a time zone")
        self.tournament, self.started, self.write = tournament, started, write
        self.players = None if players is None else set(players)
        self.phh, self.pokerstars = phh, pokerstars
        self.waiting: deque[HandPlayed] = deque()
        self.counts: dict[str, int] = {}  # hands in each player's .phhs
        self.hands = 0  # hands written

    def __call__(self, t: Tournament, played: HandPlayed) -> None:
        self.waiting.append(played)
        self._flush(t, played.ended)

    def finish(self, t: Tournament, now: float) -> None:
        """After the last hand: the rest of the hands, and every player's summary."""
        self._flush(t, now)
        if self.waiting:
            raise ValueError(f"{t.name}: {len(self.waiting)} hands wait for places not final")
        for player in sorted({e.player for e in t.entries.values()}):
            if self.players is None or player in self.players:
                summary = tournament_summary(
                    t, player, tournament=self.tournament, started=self.started, now=now
                )
                self.write(f"{player}/summary.txt", summary)

    def _flush(self, t: Tournament, now: float) -> None:
        settled: dict[str, Place] | None = None
        while self.waiting:
            played = self.waiting[0]
            decided = [e.entry for e in played.events if isinstance(e, Eliminated)]
            decided += [e.winner for e in played.events if isinstance(e, Finished)]
            if decided and settled is None:
                settled = {p.entry: p for p in t.settled_places(now)}
            if settled is not None and any(entry not in settled for entry in decided):
                return
            places = (
                sorted((settled[e] for e in decided), key=lambda p: -p.place) if settled else []
            )
            finishes = tuple(Finish(t.entries[p.entry].player, p.place, p.prize) for p in places)
            self.waiting.popleft()
            self._write(t, played, finishes)

    def _write(self, t: Tournament, played: HandPlayed, finishes: tuple[Finish, ...]) -> None:
        hand, s = played.hand, t.structure
        info = TournamentHand(
            tournament=self.tournament,
            buy_in=s.buy_in,
            fee=s.fee,
            level=played.level,
            table=played.table,
            finishes=finishes,
            knockouts=knockouts(t, [e for e in played.events if isinstance(e, BountyWon)]),
        )
        when = self.started + timedelta(seconds=played.at)
        self.hands += 1
        for position, name in enumerate(hand.names):
            if self.players is not None and name not in self.players:
                continue
            view = viewer_hand(hand, position)  # this player's cards only (S-EXPORT-1)
            if self.pokerstars:
                text = pokerstars_text(
                    view,
                    hand_id=played.number,
                    table_name="",
                    started_at=when,
                    max_seats=s.table_size,
                    tournament=info,
                )
                self.write(f"{name}/hands.txt", text + "\n\n")
            if self.phh:
                k = self.counts[name] = self.counts.get(name, 0) + 1
                fields = tournament_phh_fields(
                    view,
                    event=t.name,
                    tournament=self.tournament,
                    hand=played.number,
                    level=played.level,
                    table=played.table,
                    dealt_at=when,
                )
                self.write(f"{name}/hands.phhs", f"[{k}]\n{to_toml(fields)}\n")
