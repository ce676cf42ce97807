"""House options and presets: R-BLIND-3, R-SEAT-1, R-STAKE-2, R-TIME-1, R-BTN-2 (options)."""

import pytest

from pokerroom.rules import STANDARD, HouseOptions, RulesError, load_preset, preset_names
from pokerroom.rules.game import GameSpec, Stakes, Structure, Variant, small_blind_for
from pokerroom.rules.house import parse_house


def test_the_five_presets_load_from_data_files() -> None:
    assert preset_names() == ["casino", "fortune", "multipoker", "sweden", "titan"]
    for name in preset_names():
        assert load_preset(name).name == name


@pytest.mark.parametrize(
    ("big_blind", "rounding", "small"),
    [
        (1000, "exact", 500),
        (500, "exact", 250),  # $5/$10 -> $2.50 (002/003)
        (500, "nearest_dollar", 200),  # $5/$10 -> $2: half a dollar goes down (000/001)
        (1500, "nearest_dollar", 700),  # $15/$30 -> $7
        (100, "nearest_dollar", 50),  # $1/$2 -> $0.50: a half under $1 stays exact
        (200, "nearest_dollar", 100),  # $2/$4 -> $1
        (350, "nearest_dollar", 200),  # $3.50/$7 -> $2: $1.75 is nearer $2 than $1
        (300, "nearest_dollar", 100),  # $3/$6 -> $1: $1.50 goes down
        (450, "nearest_dollar", 200),  # $4.50/$9 -> $2: $2.25 is nearer $2
        (1300, "nearest_dollar", 600),  # $13/$26 -> $6: $6.50 goes down
        (350, "exact", 175),
    ],
)
def test_R_BLIND_3_small_blind_rounding(big_blind: int, rounding: str, small: int) -> None:
    assert small_blind_for(big_blind, rounding) == small


def test_R_BLIND_3_floor_dollar_is_gone_but_a_saved_house_still_loads() -> None:
    with pytest.raises(RulesError, match="unknown sb_rounding 'floor_dollar'"):
        small_blind_for(500, "floor_dollar")
    with pytest.raises(RulesError, match="sb_rounding must be one of exact, nearest_dollar"):
        HouseOptions(sb_rounding="floor_dollar")  # type: ignore[arg-type]
    # A table snapshot written before the rename keeps its stored small blind.
    assert parse_house({"sb_rounding": "floor_dollar"}, "saved").sb_rounding == "nearest_dollar"


def test_R_BLIND_3_presets_set_the_rounding_and_a_table_may_override_it() -> None:
    # RULES.md presets table: nearest_dollar at multipoker (000) and fortune (001).
    rounding = {name: load_preset(name).sb_rounding for name in preset_names()}
    assert rounding == {
        "multipoker": "nearest_dollar",
        "fortune": "nearest_dollar",
        "titan": "exact",
        "sweden": "exact",
        "casino": "exact",
    }
    assert load_preset("fortune").small_blind(350) == 200  # $3.50/$7 -> $2
    assert load_preset("multipoker").small_blind(500) == 200
    assert load_preset("titan").small_blind(500) == 250
    game = load_preset("multipoker").game(
        Variant.HOLDEM, Structure.FIXED_LIMIT, 500, small_blind=250
    )
    assert game.stakes.small_blind == 250


def test_R_SEAT_1_seats_and_minimum_players_per_room() -> None:
    assert load_preset("fortune").seat_choices == (2, 5, 10)
    assert load_preset("casino").seat_choices == (10,) and load_preset("casino").min_players == 4
    assert load_preset("multipoker").max_seats == 10 and load_preset("titan").min_players == 2
    spec = load_preset("fortune").game(Variant.HOLDEM, Structure.FIXED_LIMIT, 200)
    with pytest.raises(RulesError, match="no 6-seat tables"):
        load_preset("fortune").check_table(spec, 6)


def test_R_STAKE_2_minimum_buy_in_by_room() -> None:
    assert load_preset("fortune").min_buy_in_bb == 10  # 10 x the small bet
    assert load_preset("casino").min_buy_in_bb == 50
    assert load_preset("multipoker").min_buy_in_bb == 20


def test_R_TIME_1_multipoker_time_limit_and_R_TIME_2_policies() -> None:
    multipoker = load_preset("multipoker")
    assert (multipoker.decision_seconds, multipoker.warning_after_seconds) == (30, 10)
    assert multipoker.timeout_policy == "allin_protection"
    assert load_preset("titan").timeout_policy == "check_fold"


def test_R_SEAT_3_R_SEAT_4_missed_blind_options_by_room() -> None:
    """RULES.md presets table: fortune follows 001's own procedures, the rest the convention."""
    options = {
        name: (load_preset(name).ml_back_in_big_blind, load_preset(name).missed_small_blind)
        for name in preset_names()
    }
    assert options == {
        "fortune": ("pays_both", "moving"),
        "multipoker": ("big_blind_only", "dead"),
        "titan": ("big_blind_only", "dead"),
        "sweden": ("big_blind_only", "dead"),
        "casino": ("big_blind_only", "dead"),
    }
    assert (STANDARD.ml_back_in_big_blind, STANDARD.missed_small_blind) == (
        "big_blind_only",
        "dead",
    )
    with pytest.raises(RulesError, match="ml_back_in_big_blind must be one of big_blind_only"):
        parse_house({"ml_back_in_big_blind": "never"}, "odd")
    with pytest.raises(RulesError, match="missed_small_blind must be one of dead, moving"):
        parse_house({"missed_small_blind": "skipped"}, "odd")


def test_R_BTN_2_first_button_option_by_room() -> None:
    assert load_preset("casino").first_button == "draw"
    assert {load_preset(n).first_button for n in preset_names() if n != "casino"} == {"first_seat"}


def test_games_each_room_deals() -> None:
    assert len(load_preset("titan").games) == 9
    with pytest.raises(RulesError, match="does not deal Pot Limit Omaha"):
        load_preset("multipoker").game(Variant.OMAHA, Structure.POT_LIMIT, 200)


def test_bad_house_options_are_clear_errors() -> None:
    with pytest.raises(RulesError, match="show_policy must be one of"):
        HouseOptions(show_policy="sometimes")  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="unknown options colour"):
        parse_house({"colour": "green"}, "odd")
    with pytest.raises(RulesError, match="buy-in range"):
        HouseOptions(min_buy_in_bb=50, max_buy_in_bb=20)
    with pytest.raises(RulesError, match="no rake schedule named 'nowhere'"):
        HouseOptions(rake="nowhere")
    with pytest.raises(RulesError, match="games"):
        parse_house({"games": ["holdem/stud"]}, "odd")
    with pytest.raises(RulesError, match="no house preset 'atlantis'"):
        load_preset("atlantis")


def test_stakes_are_validated() -> None:
    with pytest.raises(RulesError, match="small blind 3 exceeds big blind 2"):
        Stakes(small_blind=3, big_blind=2)
    with pytest.raises(RulesError, match="whole number"):
        Stakes(small_blind=1.5, big_blind=2)  # type: ignore[arg-type]
    stakes = Stakes(small_blind=1, big_blind=2)
    assert (stakes.small_bet, stakes.big_bet) == (2, 4)  # R-BLIND-2, R-LIM-1


def test_phh_codes_for_all_nine_games() -> None:
    codes = {
        GameSpec(variant=v, structure=s, stakes=Stakes(small_blind=1, big_blind=2)).phh_code
        for v in Variant
        for s in Structure
    }
    assert codes == {"FT", "PT", "NT", "FO", "PO", "NO", "FO/8", "PO/8", "NO/8"}
    assert STANDARD.raise_cap == 4 and STANDARD.pl_pot_basis == "all_pots"
