"""House options and presets: R-BLIND-3, R-SEAT-1, R-STAKE-2, R-TIME-1, R-BTN-2 (options)."""

import pytest

from pokerroom.engine.events import ActionTaken, PlayerProtected
from pokerroom.rng import SeededRandomSource
from pokerroom.rules import STANDARD, HouseOptions, RulesError, load_preset, preset_names
from pokerroom.rules.game import GameSpec, Stakes, Structure, Variant, small_blind_for
from pokerroom.rules.house import parse_house
from pokerroom.table import Table, TableError
from pokerroom.table.events import ButtonDrawn, HandStarting, TimerStarted, TimerWarning


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


BB = 200
#: RULES.md's presets table, played at a table of each room (not read back from its files).
MIN_BUY_IN_BB = {"multipoker": 20, "fortune": 10, "titan": 20, "sweden": 20, "casino": 50}
TIME_OUT = {  # (decision seconds, warning after, what a time-out with chips in does)
    "multipoker": (30, 10, "protected"),
    "fortune": (30, 10, "fold"),
    "titan": (30, 10, "fold"),
    "sweden": (30, 10, "fold"),
    "casino": (30, 10, "fold"),
}
FIRST_BUTTON = {"multipoker": "first_seat", "fortune": "first_seat", "titan": "first_seat"}
FIRST_BUTTON |= {"sweden": "first_seat", "casino": "draw"}


def preset_table(name: str, joined: tuple[int, ...] = ()) -> Table:
    """A ten-seat table of the room's first game at a $2 big blind, players seated in order."""
    house = load_preset(name)
    variant, structure = house.games[0]
    spec = house.game(variant, structure, BB)
    table = Table(spec=spec, house=house, seats=10, rng=SeededRandomSource(7))
    for seat in joined:
        table.sit(f"p{seat}", seat, 100 * BB)
    return table


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


def test_the_presets_tables_cover_every_room() -> None:
    assert sorted(MIN_BUY_IN_BB) == sorted(TIME_OUT) == sorted(FIRST_BUTTON) == preset_names()


@pytest.mark.parametrize("name", preset_names())
def test_R_STAKE_2_minimum_buy_in_by_room(name: str) -> None:
    table = preset_table(name)
    least = MIN_BUY_IN_BB[name] * BB
    with pytest.raises(TableError) as refused:
        table.sit("ann", 1, least - 1)
    assert (
        str(refused.value)
        == f"buy-in of {least - 1} leaves {least - 1} chips: the minimum is {least}"
    )
    table.sit("ann", 1, least)
    assert table.seats[1].stack == least


@pytest.mark.parametrize("name", preset_names())
def test_R_TIME_1_time_limit_and_R_TIME_2_time_out_by_room(name: str) -> None:
    seconds, warning, time_out = TIME_OUT[name]
    players = max(2, load_preset(name).min_players)
    table = preset_table(name, tuple(range(1, players + 1)))
    started = [e for e in table.start_hand(100.0) if isinstance(e, TimerStarted)]
    assert [(e.deadline, e.warning_at) for e in started] == [(100.0 + seconds, 100.0 + warning)]
    seat = started[0].seat
    assert table.tick(100.0 + warning - 0.5) == []
    assert [e.seat for e in table.tick(100.0 + warning) if isinstance(e, TimerWarning)] == [seat]
    if players == 2:  # heads-up the small blind acts first, with chips in the pot
        table.seats[seat].time_bank = 0.0
        events = table.tick(100.0 + seconds)
        protected = [e.seat for e in events if isinstance(e, PlayerProtected)]
        folded = [e.seat for e in events if isinstance(e, ActionTaken) and e.timed_out]
        assert (protected, folded) == (([seat], []) if time_out == "protected" else ([], [seat]))


@pytest.mark.parametrize("name", preset_names())
def test_R_BTN_2_first_button_by_room(name: str) -> None:
    players = (3, 1, 5, 7)  # seated in this order: seat 3 first
    table = preset_table(name, players)
    events = table.start_hand(0.0)
    started = next(e for e in events if isinstance(e, HandStarting))
    drawn = [e for e in events if isinstance(e, ButtonDrawn)]
    if FIRST_BUTTON[name] == "first_seat":  # the first seated deals, the next is first
        assert not drawn
        assert (started.button_seat, started.small_blind_seat) == (3, 5)
    else:  # the high card by rank, then suit, is first; the button is on their right
        assert len(drawn) == 1 and [seat for seat, _ in drawn[0].cards] == sorted(players)
        high = max(drawn[0].cards, key=lambda pair: (pair[1].rank, pair[1].suit))[0]
        assert drawn[0].first_seat == started.small_blind_seat == high
        ring = sorted(players)
        assert started.button_seat == ring[ring.index(high) - 1]


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
