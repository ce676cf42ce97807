"""PHH reading, writing and replay, and the replay command line."""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pokerroom.cli import app
from pokerroom.history.phh import PHHError, load_text, replay, write_phh, write_phhs
from tests.helpers.hands import act, checks_down, deal, spec

HAND = """\
variant = 'NT'
ante_trimming_status = true
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = ['d dh p1 AsAd', 'd dh p2 ????', 'd dh p3 7c2d', 'p3 cbr 6', 'p1 cc', 'p2 f',
  'd db KsQsJd', 'p1 cc', 'p3 cc', 'd db 5h', 'p1 cbr 10', 'p3 cc', 'd db 4c', 'p1 cc',
  'p3 cc', 'p1 sm AsAd', 'p3 sm']
finishing_stacks = [118, 98, 84]
"""


def test_replay_with_unknown_cards_of_a_folded_player() -> None:
    result = replay(load_text(HAND)[0])
    assert result.finishing_stacks == result.expected == [118, 98, 84]


def test_hole_cards_dealt_in_several_actions_and_shown_cards() -> None:
    text = HAND.replace("'d dh p1 AsAd'", "'d dh p1 As', 'd dh p1 Ad'")
    assert replay(load_text(text)[0]).finishing_stacks == [118, 98, 84]


def test_heads_up_blinds_apply_reversed() -> None:
    text = """variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [50, 50]
actions = ['d dh p1 AsAd', 'd dh p2 KsKd', 'p2 cbr 50', 'p1 cc', 'p2 sm KsKd', 'p1 sm AsAd',
  'd db 2c7h9d', 'd db Tc', 'd db 3s']
"""
    hand = replay(load_text(text)[0]).hand
    # p2 is the button: it posted the small blind and acted first (R-BLIND-5).
    assert hand.stacks == [100, 0]


def test_fractional_amounts_need_a_scale_factor() -> None:
    text = HAND.replace("blinds_or_straddles = [1, 2, 0]", "blinds_or_straddles = [0.5, 1, 0]")
    text = text.replace("min_bet = 2", "min_bet = 1")
    refusal = r"0\.5 is not a whole number of chips \(give a scale factor"
    with pytest.raises(PHHError, match=refusal):
        replay(load_text(text)[0])
    scaled = text.replace("starting_stacks = [100, 100, 100]", "starting_stacks = [50, 50, 50]")
    scaled = scaled.replace("cbr 6", "cbr 3").replace("cbr 10", "cbr 5")
    assert replay(load_text(scaled)[0], scale=2).finishing_stacks == [118, 98, 84]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("variant = 'NT'\nactions = [", "not valid TOML"),
        ("hello = 1", "no hand found"),
        (HAND.replace("'NT'", "'XX'"), "unsupported PHH variant 'XX'"),
        (HAND.replace("min_bet = 2\n", ""), "needs 'min_bet'"),
        (HAND.replace("'p3 cbr 6'", "'p3 cbr 3'"), "minimum is 4"),
        (HAND.replace("'p3 cbr 6'", "'p2 cbr 6'"), "it is seat 3's turn"),
        (HAND.replace("'d dh p3 7c2d'", "'d dh p3 AsQc'"), "card As is dealt twice"),
        (HAND.replace("'d dh p3 7c2d'", "'d dh p3 7x2d'"), "not a card"),
        (
            HAND.replace(", 'p3 sm']", "]").replace("'p1 cc',\n  'p3 cc', 'p1 sm AsAd'", "'p1 cc'"),
            "ends before the hand",
        ),
        (
            HAND.replace("starting_stacks = [100, 100, 100]", "starting_stacks = [100, -5, 100]"),
            "negative",
        ),
        (HAND.replace("'p1 cc', 'p2 f'", "'p1 cc', 'p9 f'"), "not a player"),
        (HAND.replace("'p2 f'", "'p2 zz'"), "unknown action"),
    ],
)
def test_broken_histories_are_clear_errors(text: str, message: str) -> None:
    with pytest.raises(PHHError, match=message):
        replay(load_text(text)[0])


def test_written_history_has_the_fields_and_replays() -> None:
    hand = deal([100, 100, 100], game=spec("omaha_hilo", "pot_limit"))
    act(hand, "c", "c", "x")
    checks_down(hand)
    text = write_phh(hand)
    assert text.startswith("# PO/8 is pokerroom's code")
    fields = load_text(text)[0].fields
    for key in (
        "variant",
        "antes",
        "blinds_or_straddles",
        "min_bet",
        "starting_stacks",
        "actions",
        "players",
        "seats",
        "seat_count",
        "finishing_stacks",
        "_rake",
        "_house",
    ):
        assert key in fields
    assert fields["variant"] == "PO/8" and fields["_house"] == "standard"
    assert replay(load_text(text)[0]).finishing_stacks == hand.stacks


def test_phhs_holds_several_hands() -> None:
    hands = []
    for _ in range(3):
        hand = deal([100, 100])
        checks_down(hand)
        hands.append(hand)
    read = load_text(write_phhs(hands))
    assert [h.index for h in read] == [1, 2, 3]
    assert [replay(h).finishing_stacks for h in read] == [h.stacks for h in hands]


def test_cli_replay_json_lines_and_exit_status(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "good.phh").write_text(HAND)
    (tmp_path / "a" / "bad.phh").write_text(HAND.replace("'p3 cbr 6'", "'p3 cbr 3'"))
    hands = [deal([100, 100]) for _ in range(2)]
    for hand in hands:
        checks_down(hand)
    (tmp_path / "many.phhs").write_text(write_phhs(hands))
    runner = CliRunner()
    result = runner.invoke(app, ["replay", "--json", str(tmp_path)])
    assert result.exit_code == 1  # one hand failed; the others still printed
    lines = [json.loads(line) for line in result.output.splitlines()]
    by_name = {(Path(r["path"]).name, r["index"]): r for r in lines}
    assert by_name[("good.phh", 0)] == {
        "path": str(tmp_path / "a" / "good.phh"),
        "index": 0,
        "finishing_stacks": [118, 98, 84],
    }
    assert "minimum is 4" in by_name[("bad.phh", 0)]["error"]
    assert by_name[("many.phhs", 1)]["finishing_stacks"] == hands[0].stacks
    assert len(lines) == 4
    table = runner.invoke(app, ["replay", str(tmp_path / "a" / "good.phh")])
    assert table.exit_code == 0 and "match" in table.output
