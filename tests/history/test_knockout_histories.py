"""A knockout event's bounties in its PokerStars text: the lines fpdb's ``re_Bounty`` and
``re_Progressive`` read (written for these tests after its PokerStarsToFpdb.py), each
bounty won in the hand that won it, written in every player's history of that hand."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from pokerroom.history.pokerstars import Knockout, TournamentHand
from pokerroom.history.tournament import EventExport
from pokerroom.rules.tournament import load_tournament_structure
from pokerroom.tournament import Tournament
from pokerroom.tournament.simulate import HandPlayed, Simulation

BOUNTY = re.compile(
    r"^(?P<names>.+?) (?P<split>split|wins) the \$(?P<amount>[,.0-9]+) bounty"
    r" for eliminating (?P<eliminated>.+?)$"
)
PROGRESSIVE = re.compile(
    r"^(?P<name>\S+) wins \$(?P<amount>[,.0-9]+) for (?:splitting the elimination of|eliminating)"
    r" (?P<eliminated>\S+) and their own bounty increases by \$(?P<added>[,.0-9]+)"
    r" to \$(?P<after>[,.0-9]+)$"
)


def test_knockout_lines_in_pokerstars_words() -> None:
    plain = Knockout("p7", (("p2", 500, 0, 0),), progressive=False)
    assert plain.lines() == ["p2 wins the $5.00 bounty for eliminating p7"]
    shared = Knockout("p7", (("p2", 251, 0, 0), ("p4", 250, 0, 0)), progressive=False)
    assert shared.lines() == ["p2, p4 split the $5.01 bounty for eliminating p7"]
    pko = Knockout("p7", (("p2", 250, 250, 750),), progressive=True)
    assert pko.lines() == [
        "p2 wins $2.50 for eliminating p7 and their own bounty increases by $2.50 to $7.50"
    ]
    two = Knockout("p7", (("p2", 126, 125, 625), ("p4", 125, 125, 625)), progressive=True)
    assert [PROGRESSIVE.match(line) is not None for line in two.lines()] == [True, True]
    assert "splitting the elimination of p7" in two.lines()[0]
    info = TournamentHand(tournament=1, buy_in=1000, fee=100, level=1, table=1, knockouts=(pko,))
    assert info.finish_lines() == pko.lines()
    assert all(BOUNTY.match(line) for line in plain.lines() + shared.lines())


def test_every_bounty_of_a_knockout_event_is_in_the_hand_that_won_it() -> None:
    files: dict[str, str] = {}

    def write(path: str, text: str) -> None:
        files[path] = files.get(path, "") + text

    start = datetime(2026, 12, 1, 17, 0, tzinfo=UTC)
    recorder = EventExport(tournament=7, started=start, write=write, phh=False)
    played: list[HandPlayed] = []

    def on_hand(t: Tournament, hand: HandPlayed) -> None:
        played.append(hand)
        recorder(t, hand)

    run = Simulation(load_tournament_structure("sng6_pko"), 6, 5)
    run.on_hand = on_hand
    run.play()
    recorder.finish(run.t, run.now)
    t = run.t
    names = {e.id: e.name or e.player for e in t.entries.values()}
    expected = {
        (names[b.busted], names[k], cash, added, after)
        for b in t.bounties
        if b.hand is not None  # the winner's own bounty, paid at the end, is no knockout
        for k, cash, added, after in b.shares
    }
    found = set()
    for path, text in files.items():
        if not path.endswith("hands.txt"):
            continue
        for line in text.splitlines():
            if m := PROGRESSIVE.match(line):
                money = [round(float(m[g]) * 100) for g in ("amount", "added", "after")]
                found.add((m["eliminated"], m["name"], *money))
    assert found == expected and len({e[0] for e in expected}) == 5
