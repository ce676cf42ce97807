"""PokerStars-style hand-history text for tracking programs."""

import random
import re
from datetime import UTC, datetime

from pokerroom.engine import Action, ActionKind, Hand, Player
from pokerroom.history.pokerstars import money, pokerstars_hand_name, pokerstars_text
from pokerroom.history.viewer import viewer_hand
from pokerroom.rules import load_preset
from pokerroom.rules.game import GameSpec, Stakes, Structure, Variant
from tests.helpers.hands import act, checks_down, deal, spec

WHEN = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)

EXPECTED = """\
PokerStars Hand #42: Hold'em No Limit ($1/$2 USD) - 2026/11/29 12:00:00 UTC
Table 'Alpha' 6-max Seat #3 is the button
Seat 1: p1 ($100 in chips)
Seat 2: p2 ($100 in chips)
Seat 3: p3 ($100 in chips)
p1: posts small blind $1
p2: posts big blind $2
*** HOLE CARDS ***
Dealt to p1 [As Kd]
p3: raises $4 to $6
p1: calls $5
p2: calls $4
*** FLOP *** [Ks 7d 2c]
p1: checks
p2: bets $10
p3: folds
p1: raises $20 to $30
p2: calls $20
*** TURN *** [Ks 7d 2c] [9h]
p1: checks
p2: checks
*** RIVER *** [Ks 7d 2c 9h] [Tc]
p1: checks
p2: checks
*** SHOW DOWN ***
p1: shows [As Kd] (a pair of Kings)
p2: shows [7c 7h] (three of a kind, Sevens)
p2 collected $78 from pot
*** SUMMARY ***
Total pot $78 | Rake $0
Board [Ks 7d 2c 9h Tc]
Seat 1: p1 (small blind) showed [As Kd] and lost with a pair of Kings
Seat 2: p2 (big blind) showed [7c 7h] and won ($78) with three of a kind, Sevens
Seat 3: p3 (button) folded on the Flop
"""


def test_a_hand_in_pokerstars_format() -> None:
    hand = deal(
        [10_000] * 3, game=spec(sb=100, bb=200), hole=["AsKd", "7c7h", "QsJs"], board="Ks7d2c9hTc"
    )
    act(hand, "r 600", "c", "c", "x", "b 1000", "f", "r 3000", "c")
    checks_down(hand)
    text = pokerstars_text(
        viewer_hand(hand, 0), hand_id=42, table_name="Alpha", started_at=WHEN, max_seats=6
    )
    assert text == EXPECTED


def test_names_money_and_rake_side_pots() -> None:
    assert money(50) == "$0.50" and money(250) == "$2.50" and money(300) == "$3"
    from pokerroom.cards import parse_cards
    from pokerroom.evaluation import evaluate

    assert pokerstars_hand_name(evaluate(parse_cards("Ah2c3d4s5h"))) == "a straight, Ace to Five"
    assert pokerstars_hand_name(evaluate(parse_cards("KhKdKc7s7c"))) == (
        "a full house, Kings full of Sevens"
    )
    assert pokerstars_hand_name(evaluate(parse_cards("AsKsQsJsTs"))) == "a Royal Flush"
    hand = deal(
        [300, 10_000, 10_000, 10_000],
        game=spec(sb=50, bb=100),
        house=load_preset("casino"),
        hole=["AsAd", "KsKd", "QsQd", "JsJd"],
        board="2c7h9dTc3s",
    )
    act(hand, "r 1000", "c", "c", "c")
    checks_down(hand)
    text = pokerstars_text(viewer_hand(hand, None), hand_id=7, table_name="Side", started_at=WHEN)
    assert "Total pot $33 Main pot $10.35. Side pot-1 $21. | Rake $1.65" in text
    assert "p1 collected $10.35 from main pot" in text and "from side pot-1" in text


def test_S_VIEW_1_a_history_shows_only_the_viewers_and_shown_cards() -> None:
    rng = random.Random(3)
    game = GameSpec(
        variant=Variant.OMAHA_HILO,
        structure=Structure.POT_LIMIT,
        stakes=Stakes(small_blind=1, big_blind=2),
    )
    for _ in range(200):
        n = rng.randint(2, 6)
        hand = Hand(
            spec=game,
            players=[Player(seat=i + 1, stack=400) for i in range(n)],
            deck=rng.sample(range(52), 52),
        )
        while not hand.is_over:
            legal = hand.legal_actions()
            roll = rng.random()
            if roll < 0.3 and legal.call_amount:
                hand.apply(Action(ActionKind.FOLD))
            else:
                hand.apply(Action(ActionKind.CHECK_OR_CALL))
        viewer = rng.randrange(n)
        text = pokerstars_text(
            viewer_hand(hand, viewer), hand_id=1, table_name="T", started_at=WHEN
        )
        for i in range(n):
            cards = " ".join(str(c) for c in hand.hole_cards(i))
            visible = i == viewer or hand.shown[i]
            assert (f"[{cards}]" in text) == visible, (i, viewer, text)
        collected = sum(int(float(m) * 100) for m in re.findall(r"collected \$([\d.]+) from", text))
        assert collected + hand.rake == sum(hand.starting_stacks) - sum(hand.stacks) + sum(
            hand.winnings
        )


def test_hands_shown_before_an_all_in_run_out_come_after_the_river_named() -> None:
    hand = deal(
        [10_000] * 3, game=spec(sb=100, bb=200), hole=["AsKd", "7c7h", "QsJs"], board="Ks7d2c9hTc"
    )
    act(hand, "f", "c", "x", "b 9800", "c")  # all-in on the flop: both show, then the run-out
    assert hand.is_over
    text = pokerstars_text(viewer_hand(hand, 0), hand_id=7, table_name="Alpha", started_at=WHEN)
    lines = text.splitlines()
    order = [lines.index(marker) for marker in ("*** SHOW DOWN ***", "*** SUMMARY ***")]
    turn = next(k for k, line in enumerate(lines) if line.startswith("*** TURN ***"))
    river = next(k for k, line in enumerate(lines) if line.startswith("*** RIVER ***"))
    assert turn < river < order[0] < order[1]  # streets first, as trackers read them
    assert "p1: shows [As Kd] (a pair of Kings)" in lines
    assert "p2: shows [7c 7h] (three of a kind, Sevens)" in lines
    assert any(line.endswith("won ($200) with three of a kind, Sevens") for line in lines)


def test_seats_are_listed_in_seat_order() -> None:
    # Positions run from the small blind: seats 4 (small blind), 6 (big blind), 1 (button).
    hand = Hand(
        spec=spec(sb=100, bb=200),
        players=[Player(seat=s, stack=10_000, name=f"s{s}") for s in (4, 6, 1)],
        deck=list(range(52)),
    )
    act(hand, "f", "f")
    text = pokerstars_text(
        viewer_hand(hand, 0), hand_id=9, table_name="Ring", started_at=WHEN, max_seats=6
    )
    lines = text.splitlines()
    header = [line.split(":")[0] for line in lines if line.endswith("in chips)")]
    summary = lines[lines.index("*** SUMMARY ***") :]
    listed = [line.split(":")[0] for line in summary if line.startswith("Seat ")]
    assert header == listed == ["Seat 1", "Seat 4", "Seat 6"]
    assert "Table 'Ring' 6-max Seat #1 is the button" in lines


def test_a_hilo_showdown_names_the_HI_and_LO_hands_as_pokerstars_does() -> None:
    hand = deal(
        [1_000] * 3,
        game=spec("omaha_hilo", "pot_limit", sb=5, bb=10),
        hole=["KhKdJsJc", "As3d9c9h", "QsQdTcTh"],
        board="2c5h8dKsQh",
    )
    checks_down(hand)  # p1 has the high hand, p2 the only low, p3 is beaten both ways
    lines = pokerstars_text(
        viewer_hand(hand, 1), hand_id=3, table_name="Eights", started_at=WHEN
    ).splitlines()
    assert "p1: shows [Kh Kd Js Jc] (HI: three of a kind, Kings)" in lines
    assert "p2: shows [As 3d 9c 9h] (HI: a pair of Nines; LO: 8,5,3,2,A)" in lines
    assert "p3: mucks hand" in lines
    assert lines.count("p1 collected $0.15 from pot") == lines.count("p2 collected $0.15 from pot")
    assert lines.count("p1 collected $0.15 from pot") == 1  # one line per half of the pot
    assert (
        "Seat 1: p1 (small blind) showed [Kh Kd Js Jc] and won ($0.15)"
        " with HI: three of a kind, Kings"
    ) in lines
    assert (
        "Seat 2: p2 (big blind) showed [As 3d 9c 9h] and won ($0.15)"
        " with HI: a pair of Nines; LO: 8,5,3,2,A"
    ) in lines
