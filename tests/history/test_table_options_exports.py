"""Exports of hands with the options beyond the seeds: a straddle (R-STRADDLE-1), a hand run
twice (R-RIT-1) and a bomb pot (R-BOMB-1) in PHH and PokerStars text; each replays to the
same stacks through the room's own replay."""

from __future__ import annotations

from datetime import UTC, datetime

from pokerkit import HandHistory

from pokerroom.engine import Action, ActionKind, Hand, Phase, Player
from pokerroom.history.phh import load_text, replay, write_phh
from pokerroom.history.pokerstars import pokerstars_text
from pokerroom.history.record import hand_record, read_record
from pokerroom.history.viewer import EVERYONE, viewer_hand
from pokerroom.rules import STANDARD
from pokerroom.rules.game import GameSpec, Stakes, Structure, Variant

HOUSE = STANDARD.with_options(straddle=True, run_it_twice=True, bomb_pot=True)
SPEC = GameSpec(
    variant=Variant.HOLDEM, structure=Structure.NO_LIMIT, stakes=Stakes(small_blind=1, big_blind=2)
)


def text(hand: Hand) -> str:
    return pokerstars_text(
        viewer_hand(hand, EVERYONE),
        hand_id=7,
        table_name="T",
        started_at=datetime(2024, 1, 1, tzinfo=UTC),
    )


def same_stacks_everywhere(hand: Hand) -> str:
    phh = write_phh(hand)
    assert replay(load_text(phh)[0]).finishing_stacks == hand.stacks
    assert read_record(hand_record(hand)).stacks == hand.stacks
    return phh


def run_twice_hand() -> Hand:
    players = [Player(seat=i + 1, stack=100 + i) for i in range(4)]
    hand = Hand(spec=SPEC, players=players, house=HOUSE, deck=range(52), straddle=True)
    hand.bet_or_raise(103)  # the button, left of the straddler
    hand.check_or_call()  # the small blind
    hand.fold()
    hand.fold()  # the straddler
    while hand.phase is Phase.RUNOUT:
        hand.apply(Action(ActionKind.RUN_TWICE))
    return hand


def test_R_RIT_1_R_STRADDLE_1_phh_writes_both_boards_and_replays() -> None:
    hand = run_twice_hand()
    assert hand.runs == 2
    phh = same_stacks_everywhere(hand)
    fields = load_text(phh)[0].fields
    assert fields["blinds_or_straddles"] == [1, 2, 4, 0]  # the straddle, as PHH writes one
    assert fields["_run_count"] == 2
    actions = fields["actions"]
    assert "# p1 runs it twice" in actions and "# p4 runs it twice" in actions
    assert sum(1 for a in actions if a.startswith("d db")) == 6  # two boards, street by street


def test_R_RIT_1_R_STRADDLE_1_pokerstars_text_names_both_boards() -> None:
    lines = text(run_twice_hand()).splitlines()
    assert "Seat 3: posts straddle $0.04" in lines
    for street in ("FIRST FLOP", "FIRST TURN", "FIRST RIVER", "SECOND FLOP", "SECOND RIVER"):
        assert any(line.startswith(f"*** {street} ***") for line in lines), street
    assert "Hand was run twice" in lines
    assert any(line.startswith("FIRST Board [") for line in lines)
    assert any(line.startswith("SECOND Board [") for line in lines)


def test_R_BOMB_1_phh_and_text_replay_and_pokerkit_reads_the_phh() -> None:
    players = [Player(seat=1, stack=100), Player(seat=2, stack=7), Player(seat=3, stack=100)]
    hand = Hand(spec=SPEC, players=players, house=HOUSE, deck=range(52), bomb_pot=5)
    hand.bet_or_raise(20)
    hand.check_or_call()
    while not hand.is_over:
        hand.check_or_call()
    phh = same_stacks_everywhere(hand)
    fields = load_text(phh)[0].fields
    assert fields["_bomb_pot"] == 5 and fields["antes"] == [10, 7, 10]
    assert fields["ante_trimming_status"] is True  # live: the short player is all-in
    # PokerKit knows no bomb pot; it plays the missing pre-flop round as checks (its repair of
    # a history), which moves no chip: the same stacks.
    pokerkit = HandHistory.loads(phh.split("\n", 1)[1] if phh.startswith("#") else phh)
    *_, state = iter(pokerkit)
    assert list(state.stacks) == hand.stacks
    assert "Seat 2: posts the ante $0.07 and is all-in" in text(hand).splitlines()
