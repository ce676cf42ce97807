"""The replayer of hands with the table options: a hand run twice shows its second board and
each run's awards (R-RIT-1), a bomb pot says so (R-BOMB-1), and a straddle is named
(R-STRADDLE-1), in English and as the client's catalogue keys."""

from __future__ import annotations

from pokerroom.engine import Action, ActionKind, Hand, Phase, Player
from pokerroom.history.viewer import viewer_hand
from pokerroom.rules import STANDARD
from pokerroom.rules.game import GameSpec, Stakes, Structure, Variant
from pokerroom.server.tables.replayer import replay_frames

HOUSE = STANDARD.with_options(straddle=True, run_it_twice=True, bomb_pot=True)
SPEC = GameSpec(
    variant=Variant.HOLDEM, structure=Structure.NO_LIMIT, stakes=Stakes(small_blind=1, big_blind=2)
)


def test_R_RIT_1_the_replayer_shows_the_second_board_and_each_runs_awards() -> None:
    players = [Player(seat=i + 1, stack=100 + i, name=f"p{i}") for i in range(4)]
    hand = Hand(spec=SPEC, players=players, house=HOUSE, deck=range(52), straddle=True)
    hand.bet_or_raise(103)  # the button, left of the straddler
    hand.check_or_call()  # the small blind
    hand.fold()
    hand.fold()  # the straddler
    while hand.phase is Phase.RUNOUT:
        hand.apply(Action(ActionKind.RUN_TWICE))
    frames = replay_frames(viewer_hand(hand, 0))["frames"]
    last = frames[-1]
    assert last["result"]["board"] == last["board"] and len(last["board"]) == 5
    assert last["second_board"] == last["result"]["second_board"]
    assert len(last["second_board"]) == 5
    assert not set(last["second_board"]) & set(last["board"])  # all-in pre-flop: none shared
    assert sorted({p["run"] for p in last["result"]["pots"]}) == [1, 2]
    lines = [line for f in frames for line in f["lines"]]
    keys = [item["key"] for f in frames for item in f["items"]]
    assert "p2 straddles $0.04" in lines
    assert keys.count("replay.run_twice") == 2 and keys.count("replay.second_board") == 3
    assert any(line.startswith("Second run, Flop: ") for line in lines)
    assert sum(line.endswith(" on run 1") for line in lines) >= 1
    assert sum(line.endswith(" on run 2") for line in lines) >= 1


def test_R_BOMB_1_the_replayer_says_the_hand_is_a_bomb_pot() -> None:
    players = [Player(seat=i + 1, stack=100, name=f"p{i}") for i in range(3)]
    hand = Hand(spec=SPEC, players=players, house=HOUSE, deck=range(52), bomb_pot=5)
    while not hand.is_over:
        hand.check_or_call()
    frames = replay_frames(viewer_hand(hand, 1))["frames"]
    assert "Bomb pot: $0.10 from each player" in frames[0]["lines"]
    assert frames[-1]["result"]["bomb_pot"] == 5
    assert frames[-1]["second_board"] == []
