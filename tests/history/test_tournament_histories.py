"""Tournament results and histories: every hand as PokerStars-style tournament text
and in PHH with the standard's tournament fields, and a summary per player, from a whole
simulated event; each export is one player's (S-EXPORT-1).

The PokerStars text is checked against the format as tracking programs parse it (the
patterns below follow fpdb's ``PokerStarsToFpdb.py`` and ``PokerStarsSummary.py``) and is
read back by an independent parser, PokerKit's ``HandHistory.from_pokerstars``, which
replays it to our stacks wherever its rules are ours (it ignores antes, and plays a short big
blind at the chips posted, R-BLIND-7). The PHH is read back by our parser and by PokerKit's.
"""

from __future__ import annotations

import contextlib
import io
import re
import warnings
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pokerkit import HandHistory

from pokerroom.engine.events import ForcedBet, ForcedBetKind
from pokerroom.history.phh import load_text, replay
from pokerroom.history.pokerstars import (
    Finish,
    TournamentHand,
    ordinal,
    pokerstars_text,
    roman,
)
from pokerroom.history.tournament import EventExport, tournament_summary
from pokerroom.history.viewer import viewer_hand
from pokerroom.rules.tournament import load_tournament_structure
from pokerroom.tournament import Tournament
from pokerroom.tournament.simulate import HandPlayed, Options, Simulation
from tests.helpers.hands import act, checks_down, deal, spec

START = datetime(2026, 12, 1, 17, 0, tzinfo=UTC)  # 12:00 ET

EXPECTED = """\
PokerStars Hand #1234: Tournament #77, $10.00+$1.00 USD Hold'em No Limit - Level IV (50/100) \
- 2026/12/01 12:00:00 ET
Table '77 3' 9-max Seat #3 is the button
Seat 1: p1 (4000 in chips)
Seat 2: p2 (2000 in chips)
Seat 3: p3 (160 in chips)
p2: posts the ante 100
p1: posts small blind 50
p2: posts big blind 100
*** HOLE CARDS ***
Dealt to p3 [7c 7h]
p3: calls 100
p1: raises 200 to 300
p2: calls 200
p3: calls 60 and is all-in
*** FLOP *** [Ks 7d 2c]
p1: checks
p2: checks
*** TURN *** [Ks 7d 2c] [9h]
p1: checks
p2: checks
*** RIVER *** [Ks 7d 2c 9h] [Tc]
p1: checks
p2: checks
*** SHOW DOWN ***
p1: shows [As Kd] (a pair of Kings)
p2: shows [Qs Js] (a straight, Nine to King)
p3: shows [7c 7h] (three of a kind, Sevens)
p2 collected 280 from side pot-1
p2 collected 580 from main pot
p3 finished the tournament in 3rd place and received $20.00.
*** SUMMARY ***
Total pot 860 Main pot 580. Side pot-1 280. | Rake 0
Board [Ks 7d 2c 9h Tc]
Seat 1: p1 (small blind) showed [As Kd] and lost with a pair of Kings
Seat 2: p2 (big blind) showed [Qs Js] and won (860) with a straight, Nine to King
Seat 3: p3 (button) showed [7c 7h] and lost with three of a kind, Sevens
"""


def test_a_tournament_hand_is_written_as_pokerstars_writes_it() -> None:
    # A big-blind ante (TDA RP-11): the big blind posts it, listed first as PokerStars does;
    # chips without $, the level in Roman numerals, the time in ET, the place decided.
    hand = deal(
        [4000, 2000, 160],
        game=spec(sb=50, bb=100, big_blind_ante=100),
        hole=["AsKd", "QsJs", "7c7h"],
        board="Ks7d2c9hTc",
    )
    act(hand, "c", "r 300", "c")
    checks_down(hand)
    info = TournamentHand(
        tournament=77, buy_in=1000, fee=100, level=4, table=3, finishes=(Finish("p3", 3, 2000),)
    )
    text = pokerstars_text(
        viewer_hand(hand, 2),
        hand_id=1234,
        table_name="ignored",
        started_at=START,
        max_seats=9,
        tournament=info,
    )
    assert text == EXPECTED


def test_places_levels_and_the_winner_in_pokerstars_words() -> None:
    assert [roman(n) for n in (1, 4, 9, 14, 40, 1994)] == ["I", "IV", "IX", "XIV", "XL", "MCMXCIV"]
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th",
    ]  # fmt: skip
    with pytest.raises(ValueError, match="levels count from 1"):
        roman(0)
    info = TournamentHand(
        tournament=1,
        buy_in=0,
        fee=0,
        level=1,
        table=1,
        finishes=(Finish("b", 3, 0), Finish("c", 2, 1050), Finish("a", 1, 4050)),
    )
    assert info.finish_lines() == [
        "b finished the tournament in 3rd place",
        "c finished the tournament in 2nd place and received $10.50.",
        "a wins the tournament and receives $40.50 - congratulations!",
    ]


# ---------------------------------------------------------------- a whole event, exported


def export(
    name: str,
    entrants: int,
    seed: int,
    *,
    players: list[str] | None = None,
    waited: list[int] | None = None,
    **options: Any,
) -> tuple[Tournament, dict[str, str], list[HandPlayed]]:
    """A simulated event's export, in memory: file path -> text; and the hands played
    (``waited``: how many hands waited for their places, at most, and during hand-for-hand)."""
    files: dict[str, str] = {}

    def write(path: str, text: str) -> None:
        files[path] = files.get(path, "") + text

    recorder = EventExport(tournament=42, started=START, write=write, players=players)
    played: list[HandPlayed] = []

    def on_hand(t: Tournament, hand: HandPlayed) -> None:
        played.append(hand)
        recorder(t, hand)
        if waited is not None:
            waited[0] = max(waited[0], len(recorder.waiting))
            if t.hand_for_hand:
                waited[1] = max(waited[1], len(recorder.waiting))

    run = Simulation(load_tournament_structure(name), entrants, seed, options=Options(**options))
    run.on_hand = on_hand
    run.play()
    recorder.finish(run.t, run.now)
    assert recorder.hands == len(played) == run.t.hands
    return run.t, files, played


def hands_of(text: str) -> list[str]:
    return [chunk + "\n" for chunk in text.split("\n\n\n") if chunk.strip()]


# The format as trackers read it (after fpdb's PokerStarsToFpdb.py, written for these tests).
HEADER = re.compile(
    r"^PokerStars Hand #(?P<hand>\d+): Tournament #(?P<tour>\d+), \$(?P<buyin>\d+\.\d\d)"
    r"\+\$(?P<fee>\d+\.\d\d) USD Hold'em No Limit - Level (?P<level>[IVXLC]+) "
    r"\((?P<sb>\d+)/(?P<bb>\d+)\) - (?P<date>\d{4}/\d\d/\d\d \d{1,2}:\d\d:\d\d) ET$"
)
TABLE = re.compile(
    r"^Table '(?P<tour>\d+) (?P<table>\d+)' (?P<max>\d+)-max Seat #\d+ is the button$"
)
SEAT = re.compile(r"^Seat \d+: (?P<name>\S+) \((?P<chips>\d+) in chips\)$")
POST = re.compile(
    r"^(?P<name>\S+): posts (the ante|small blind|big blind) (?P<chips>\d+)( and is all-in)?$"
)
PLACE = re.compile(
    r"^(?P<name>\S+) finished the tournament in (?P<place>\d+)(st|nd|rd|th) place"
    r"( and received \$(?P<prize>\d+\.\d\d)\.)?$"
)
WINNER = re.compile(
    r"^(?P<name>\S+) wins the tournament and receives \$(?P<prize>\d+\.\d\d) - congratulations!$"
)


def _dollars(text: str | None) -> int:
    return 0 if text is None else round(float(text) * 100)


@pytest.fixture(scope="module")
def event() -> tuple[Tournament, dict[str, str], list[HandPlayed]]:
    # Antes from level 4 (big-blind antes), tables balanced and broken, hand-for-hand.
    return export("mtt_freezeout", 45, 3, absent_percent=40)


def test_every_hand_of_the_event_in_the_trackers_format(
    event: tuple[Tournament, dict[str, str], list[HandPlayed]],
) -> None:
    t, files, played = event
    numbers = {p.number: p for p in played}
    antes = 0
    for player in sorted({e.player for e in t.entries.values()}):
        texts = hands_of(files[f"{player}/hands.txt"])
        assert len(texts) == sum(player in p.hand.names for p in played)
        last = 0
        for text in texts:
            lines = text.splitlines()
            head = HEADER.match(lines[0])
            assert head is not None, lines[0]
            played_hand = numbers[int(head["hand"])]
            assert int(head["hand"]) > last  # in the order played
            last = int(head["hand"])
            level = t.structure.level(played_hand.level - 1)
            assert head["tour"] == "42" and (head["buyin"], head["fee"]) == ("100.00", "10.00")
            assert head["level"] == roman(played_hand.level)
            assert (int(head["sb"]), int(head["bb"])) == (level.small_blind, level.big_blind)
            table = TABLE.match(lines[1])
            assert table is not None and table["tour"] == "42" and table["max"] == "9"
            assert int(table["table"]) == played_hand.table
            hand = played_hand.hand
            stacks = {m["name"]: int(m["chips"]) for m in map(SEAT.match, lines[2:]) if m}
            assert stacks == dict(zip(hand.names, hand.starting_stacks, strict=True))
            assert f"Dealt to {player} [" in text  # their own cards, nobody else's
            assert text.count("Dealt to ") == 1
            posts = [m for m in map(POST.match, lines) if m]
            antes += any("the ante" in m.group(0) for m in posts)
            forced = [e for e in hand.events if isinstance(e, ForcedBet)]
            assert sum(int(m["chips"]) for m in posts) == sum(e.amount for e in forced)
    assert antes > 0
    # Every place is announced in the hand that decided it, with its final prize.
    assert announced(files) == final(t)


def announced(files: dict[str, str]) -> list[tuple[str, int, int]]:
    """Every place the hands announce (name, place, prize in cents), each once."""
    seen: set[tuple[str, int, int]] = set()
    for path, text in files.items():
        if path.endswith("hands.txt"):
            for line in text.splitlines():
                if m := PLACE.match(line):
                    seen.add((m["name"], int(m["place"]), _dollars(m["prize"])))
                elif m := WINNER.match(line):
                    seen.add((m["name"], 1, _dollars(m["prize"])))
    return sorted(seen, key=lambda x: x[1])


def final(t: Tournament) -> list[tuple[str, int, int]]:
    return [(t.entries[p.entry].player, p.place, p.prize) for p in t.places()]


def test_a_bust_who_declines_the_rebuy_offered_is_announced_in_the_hand_they_busted_in() -> None:
    # Nobody rebuys: every bust in the rebuy period is offered it and (a bot) declines.
    t, files, played = export("mtt_rebuy", 20, 2)
    assert t.rebuys == 0 and any(p.level <= 4 for p in played)
    assert announced(files) == final(t)


def test_places_decided_hand_for_hand_wait_for_the_round() -> None:
    # Busts in one hand-for-hand round are one group (ranked by their chips at its start):
    # a hand that decided a place waits for every table's hand of the round.
    waited = [0, 0]
    t, files, _ = export("mtt_freezeout", 300, 1, absent_percent=30, waited=waited)
    assert waited[1] > 0
    assert announced(files) == final(t)


def _pokerkit(text: str) -> HandHistory:
    with warnings.catch_warnings(), contextlib.redirect_stderr(io.StringIO()):
        warnings.simplefilter("ignore")  # PokerKit warns about a field its own parser sets
        return next(HandHistory.from_pokerstars(text, error_status=True))


def _pokerkit_plays_it_as_we_do(played: HandPlayed, *, antes: bool = False) -> bool:
    """The blinds posted in full by the first players after the button (heads-up, the button
    posts the small blind), and no ante unless ``antes``: PokerKit's PokerStars parser reads
    no ante, and PokerKit plays a short big blind at the chips posted (R-BLIND-7 is ours)."""
    hand = played.hand
    posts = [e for e in hand.events if isinstance(e, ForcedBet)]
    small, big = (1, 0) if hand.n == 2 else (0, 1)
    expected = {(ForcedBetKind.SMALL_BLIND, small), (ForcedBetKind.BIG_BLIND, big)}
    blinds = {(e.what, e.position) for e in posts if not (antes and e.what.is_ante)}
    return not any(e.all_in for e in posts) and blinds == expected


def test_an_independent_parser_reads_the_text_and_replays_it_to_our_stacks(
    event: tuple[Tournament, dict[str, str], list[HandPlayed]],
) -> None:
    _, files, played = event
    numbers = {p.number: p for p in played}
    replayed = 0
    for player in ("p1", "p2", "p3", "p4", "p5"):
        for text in hands_of(files[f"{player}/hands.txt"]):
            number = int(text.split("#", 2)[1].split(":")[0])
            hand = numbers[number].hand
            if not _pokerkit_plays_it_as_we_do(numbers[number]):
                continue
            theirs = _pokerkit(text)
            assert theirs.hand == number and theirs.table == f"42 {numbers[number].table}"
            assert theirs.seat_count == 9
            assert theirs.players is not None
            ours = dict(zip(hand.names, hand.stacks, strict=True))
            assert dict(zip(theirs.players, list(theirs)[-1].stacks, strict=True)) == ours
            replayed += 1
    assert replayed > 50


def test_every_hand_in_phh_round_trips_with_the_tournament_fields(
    event: tuple[Tournament, dict[str, str], list[HandPlayed]],
) -> None:
    _, files, played = event
    numbers = {p.number: p for p in played}
    for player in ("p1", "p7", "p30"):
        hands = load_text(files[f"{player}/hands.phhs"])
        assert [h.index for h in hands] == list(range(1, len(hands) + 1))
        for phh in hands:
            f = phh.fields
            p = numbers[f["hand"]]
            assert (f["event"], f["level"], f["table"], f["_tournament"]) == (
                "mtt_freezeout",
                p.level,
                p.table,
                42,
            )
            when = datetime.combine(
                datetime(f["year"], f["month"], f["day"]).date(), f["time"], tzinfo=UTC
            )
            assert f["time_zone"] == "UTC" and abs((when - START).total_seconds() - p.at) < 1
            assert f["seat_count"] == 9 and "currency" not in f  # chips, not money
            again = replay(phh)
            assert again.finishing_stacks == f["finishing_stacks"] == list(p.hand.stacks)
            # S-EXPORT-1: only the player's own cards and the cards shown.
            position = f["players"].index(player)
            for k, action in enumerate(a for a in f["actions"] if a.startswith("d dh")):
                hidden = "????" in action
                assert hidden == (k != position and not p.hand.shown[k])


def test_pokerkit_reads_our_tournament_phh(
    event: tuple[Tournament, dict[str, str], list[HandPlayed]],
) -> None:
    _, files, played = event
    numbers = {p.number: p for p in played}
    checked = with_antes = 0
    for player in ("p1", "p2", "p3", "p4", "p5"):
        text = files[f"{player}/hands.phhs"]
        for chunk in re.split(r"^\[\d+\]\n", text, flags=re.M)[1:]:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # our user fields (_rake, _house, _tournament)
                theirs = HandHistory.loads(chunk)
            assert theirs.event == "mtt_freezeout" and isinstance(theirs.hand, int)
            assert theirs.user_defined_fields["_tournament"] == 42
            mine = numbers[theirs.hand]
            assert theirs.table == mine.table and theirs.level == mine.level
            if _pokerkit_plays_it_as_we_do(mine, antes=True):
                assert list(list(theirs)[-1].stacks) == list(mine.hand.stacks)
                checked += 1
                with_antes += any(theirs.antes)
    assert checked > 50 and with_antes > 10


def test_a_summary_per_player_from_the_coordinators_results() -> None:
    t, files, _ = export("sng9", 9, 2)
    places = sorted(t.places(), key=lambda p: p.place)
    winner = t.entries[places[0].entry].player
    text = files[f"{winner}/summary.txt"]
    lines = text.splitlines()
    assert lines[:5] == [
        "PokerStars Tournament #42, No Limit Hold'em",
        "Buy-In: $10.00/$1.00 USD",
        "9 players",
        "Total Prize Pool: $90.00 USD",
        "Tournament started 2026/12/01 12:00:00 ET",
    ]
    assert re.fullmatch(r"Tournament finished 2026/12/01 \d\d:\d\d:\d\d ET", lines[5])
    assert lines[6] == f"  1: {winner} (unknown), $45.00 (50%)"
    assert lines[7] == f"  2: {t.entries[places[1].entry].player} (unknown), $27.00 (30%)"
    assert lines[8] == f"  3: {t.entries[places[2].entry].player} (unknown), $18.00 (20%)"
    assert lines[9] == f"  4: {t.entries[places[3].entry].player} (unknown), "
    assert lines[-1] == "You finished in 1st place."
    for p in places:  # the same summary for each, but their own place
        theirs = files[f"{t.entries[p.entry].player}/summary.txt"].splitlines()
        assert theirs[:-1] == lines[:-1]
        assert theirs[-1] == f"You finished in {ordinal(p.place)} place."


def test_rebuys_and_re_entries_in_the_summary() -> None:
    t, files, _ = export("mtt_reentry", 30, 3, reentry_percent=100)
    again = [e for e in t.entries.values() if e.number > 1]
    assert again
    e = again[0]
    text = files[f"{e.player}/summary.txt"]
    assert f": {e.player} [{e.number}] (unknown), " in text  # the re-entry's line
    assert text.count("You finished in") == sum(x.player == e.player for x in t.entries.values())
    t, files, _ = export("mtt_rebuy", 30, 5, rebuy_percent=100, absent_percent=20)
    bought = next(e for e in t.entries.values() if e.rebuys)
    assert (
        f"You made {bought.rebuys} rebuys and {int(bought.addon)} addons for a total of USD"
        in (files[f"{bought.player}/summary.txt"])
    )


def test_places_decided_during_late_registration_wait_until_they_are_final() -> None:
    # Busts while entries may still come have no final place: their hands wait, in order.
    waited = [0, 0]
    t, files, _ = export("mtt_reentry", 40, 7, late_entries=15, reentry_percent=50, waited=waited)
    assert waited[0] > 10
    places = {t.entries[p.entry].player: p for p in t.places()}
    for player in places:
        found = re.findall(r"^PokerStars Hand #(\d+)", files[f"{player}/hands.txt"], re.M)
        numbers = [int(n) for n in found]
        assert numbers == sorted(numbers)
    assert announced(files) == final(t)


def test_S_EXPORT_1_an_export_for_one_player_holds_only_their_histories() -> None:
    _, files, played = export("sng6", 6, 4, players=["p3"])
    assert set(files) == {"p3/hands.txt", "p3/hands.phhs", "p3/summary.txt"}
    for text in hands_of(files["p3/hands.txt"]):
        assert re.findall(r"^Dealt to (\S+)", text, flags=re.M) == ["p3"]
    for p in played:
        if "p3" not in p.hand.names:
            continue
        for k in range(p.hand.n):
            cards = " ".join(str(c) for c in p.hand.hole_cards(k))
            visible = p.hand.names[k] == "p3" or p.hand.shown[k]
            mine = next(x for x in hands_of(files["p3/hands.txt"]) if f"#{p.number}:" in x)
            assert (f"[{cards}]" in mine) == visible


def test_a_summary_while_the_event_runs() -> None:
    run = Simulation(load_tournament_structure("sng9"), 9, 2, options=Options())
    run.play(until=lambda t: 0 < len(t.remaining()) < 7)
    t = run.t
    text = tournament_summary(t, "p1", tournament=3, started=START, now=run.now)
    lines = text.splitlines()
    left = len(t.remaining())
    assert "Tournament finished" not in text
    assert lines[5 : 5 + left] == [
        f"  {k}: {entry} (unknown), still playing" for k, entry in enumerate(t.remaining(), 1)
    ]
    out = sorted(t.settled_places(run.now), key=lambda p: p.place)
    assert [line.split(":")[0].strip() for line in lines[5 + left : 5 + left + len(out)]] == [
        str(p.place) for p in out
    ]
    assert len(out) == 9 - left
    with pytest.raises(ValueError, match="'nobody' did not play sng9"):
        tournament_summary(t, "nobody", tournament=3, started=START, now=run.now)


@settings(max_examples=6, deadline=None)
@given(
    st.sampled_from(["sng_heads_up", "sng6_turbo", "sng9_turbo", "mtt_rebuy", "mtt_reentry"]),
    st.integers(2, 30),
    st.integers(0, 2**16),
)
def test_histories_of_random_events_read_back(name: str, size: int, seed: int) -> None:
    shape = load_tournament_structure(name)
    entrants = max(shape.min_entrants, min(size, shape.max_entrants))
    t, files, played = export(
        name, entrants, seed, absent_percent=20, rebuy_percent=50, reentry_percent=50
    )
    assert announced(files) == final(t)
    numbers = {p.number: p for p in played}
    for player in sorted({e.player for e in t.entries.values()}):
        for text in hands_of(files[f"{player}/hands.txt"]):
            lines = text.splitlines()
            head = HEADER.match(lines[0])
            assert head is not None and TABLE.match(lines[1]) is not None, lines[:2]
            hand = numbers[int(head["hand"])].hand
            posts = [m for m in map(POST.match, lines) if m]
            kinds = [m.group(2) for m in posts]
            assert kinds == sorted(kinds, key=["the ante", "small blind", "big blind"].index)
            if hand.n == 2:  # heads-up: the button posts the small blind
                button = re.search(r"Seat #(\d+) is the button", lines[1])
                assert button is not None
                small = next(m["name"] for m in posts if m.group(2) == "small blind")
                assert hand.names[hand.seats.index(int(button[1]))] == small
        for phh in load_text(files[f"{player}/hands.phhs"]):
            assert replay(phh).finishing_stacks == phh.fields["finishing_stacks"]
