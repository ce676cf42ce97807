"""RULES.md's worked examples, with the rules' own numbers, played through a Hand.

Every concrete example in RULES.md is a test. The examples that already had an
exact test elsewhere (R-PL-2 under the standard options, R-BLIND-7 at 100/200, R-LIM-4 on a
$20 round ...) are not repeated here; these are the ones that were missing or weaker.
"""

import pytest

from pokerroom.engine import IllegalActionError
from pokerroom.engine.events import RakeTaken
from pokerroom.rules import load_preset
from pokerroom.rules.game import Structure, Variant
from tests.helpers.hands import act, checks_down, deal, spec

NL_100_200 = spec(sb=100, bb=200)
#: The rooms that deal pot limit and their R-PL-3 pot basis (RULES.md presets table).
PL_BASIS = {"multipoker": "active_pot", "titan": "all_pots", "casino": "all_pots"}


def test_the_pot_limit_rooms_are_the_ones_in_the_presets_table() -> None:
    for name, basis in PL_BASIS.items():
        house = load_preset(name)
        assert (Variant.HOLDEM, Structure.POT_LIMIT) in house.games
        assert house.pl_pot_basis == basis
    for name in ("fortune", "sweden"):
        assert (Variant.HOLDEM, Structure.POT_LIMIT) not in load_preset(name).games


# --- The open question: a check, then an all-in bet below the minimum bet (R-NL-2) -------


def checked_to_a_short_all_in(stacks: list[int]):  # type: ignore[no-untyped-def]
    """100/200 no-limit, limped to the flop (each has put in 200); on the flop the small
    blind and the big blind check and position 2 is to act."""
    hand = deal(stacks, game=NL_100_200)
    act(hand, *["c"] * (len(stacks) - 1), "x")
    assert hand.street_name == "flop" and hand.pot == 200 * len(stacks)
    act(hand, "x", "x")
    assert hand.actor == 2
    return hand


def test_R_NL_2_R_ROUND_5_a_checker_facing_an_all_in_bet_under_the_minimum_may_not_raise() -> None:
    # Position 2 has 150 left: all-in for less than the minimum bet of 200. The check was an
    # action, and 150 is not a full bet, so the betting is not reopened for the checkers
    # (TDA 47-A: "players who have already acted and are not facing at least a full bet").
    hand = checked_to_a_short_all_in([10_000, 10_000, 350, 10_000])
    act(hand, "b 150")
    assert hand.all_in[2]
    legal = hand.legal_actions()  # the button has not acted: it may raise a full bet over it
    assert hand.actor == 3 and legal and legal.call_amount == 150 and legal.min_raise_to == 350
    act(hand, "c")
    legal = hand.legal_actions()  # back to the small blind, who checked
    assert hand.actor == 0 and legal and legal.call_amount == 150 and legal.can_fold
    assert not legal.can_raise and legal.min_raise_to is None
    with pytest.raises(IllegalActionError, match="not reopened by a full raise"):
        act(hand, "r 600")
    act(hand, "c")
    legal = hand.legal_actions()  # the big blind, who also checked: the same
    assert hand.actor == 1 and legal and not legal.can_raise
    act(hand, "c")
    assert hand.street_name == "turn" and hand.pot == 800 + 4 * 150


@pytest.mark.parametrize(
    ("stacks", "script", "facing"),
    [
        # An all-in of exactly the minimum bet is a full bet.
        ([10_000, 10_000, 400, 10_000], ("b 200",), 200),
        # Two short all-ins, 150 then 250: 250 since the checks is at least a full bet.
        ([10_000, 10_000, 350, 450, 10_000], ("b 150", "r 250"), 250),
    ],
)
def test_R_NL_2_a_checker_facing_at_least_a_full_bet_may_raise(
    stacks: list[int], script: tuple[str, ...], facing: int
) -> None:
    hand = checked_to_a_short_all_in(stacks)
    act(hand, *script, "c")  # the button, who has not acted, calls
    legal = hand.legal_actions()
    assert hand.actor == 0 and legal and legal.call_amount == facing
    # Reopened; the minimum raise is the last full bet (the big blind, 200) over the call.
    assert legal.can_raise and legal.min_raise_to == facing + 200


# --- R-PL-2 and R-PL-3 at the rooms that deal pot limit -----------------------------------


@pytest.mark.parametrize("room", sorted(PL_BASIS))
def test_R_PL_2_both_worked_examples_at_every_pot_limit_room(room: str) -> None:
    house = load_preset(room)
    # 000: pot $200, A bets $150, B calls $150, C may raise to $800 (150 + 650).
    hand = deal([10_000] * 4, game=spec(structure="pot_limit", sb=25, bb=50), house=house)
    act(hand, "c", "c", "c", "x")
    assert hand.pot == 200
    act(hand, "b 150", "c")
    legal = hand.legal_actions()
    assert legal and (legal.call_amount, legal.max_raise_to) == (150, 800)
    # 002: pot $50, A bets $10, B calls $10, C may raise by $80 = 50 + 20 + 10, to $90.
    hand = deal([1_000] * 5, game=spec(structure="pot_limit", sb=5, bb=10), house=house)
    act(hand, "c", "c", "c", "c", "x")
    assert hand.pot == 50
    act(hand, "b 10", "c")
    legal = hand.legal_actions()
    assert legal and (legal.call_amount, legal.max_raise_to) == (10, 90)


@pytest.mark.parametrize("room", sorted(PL_BASIS))
def test_R_PL_3_all_ins_of_30_and_60_by_room(room: str) -> None:
    # RULES.md's example at 5/10 pot limit: all-ins of 30 and 60 before the flop, the three
    # covering players bet 10 and call on the flop. active_pot (multipoker): only the bets
    # above the highest all-in count, so the maximum is 40; a cut at the lower all-in would
    # give 160. all_pots (titan, casino): both pots (270) and the bets count: 310.
    hand = deal(
        [1_000, 1_000, 1_000, 30, 60],
        game=spec(structure="pot_limit", sb=5, bb=10),
        house=load_preset(room),
    )
    act(hand, "c", "r 30", "r 60", "c", "c", "c")
    assert hand.all_in[3] and hand.all_in[4] and hand.pot == 270
    act(hand, "b 10", "c")
    legal = hand.legal_actions()
    expected = 10 + 20 + 10 if PL_BASIS[room] == "active_pot" else 10 + 270 + 20 + 10
    assert legal and legal.call_amount == 10 and legal.max_raise_to == expected


# --- R-RAKE-4 and R-RAKE-2 played in a hand ------------------------------------------------


def rake_taken(hand) -> list[tuple[int, int]]:  # type: ignore[no-untyped-def]
    return [(e.amount, e.pot) for e in hand.events if isinstance(e, RakeTaken)]


@pytest.mark.parametrize(("flop_callers", "pot", "rake"), [(3, 2000, 100), (5, 2400, 100)])
def test_R_RAKE_4_a_20_dollar_pot_at_2_4_six_handed_pays_1_dollar(
    flop_callers: int, pot: int, rake: int
) -> None:
    # 000 fixed limit $2/$4, 6 players dealt in: pot $20 -> $1.00 (and $24 still $1.00).
    game = spec(structure="fixed_limit", sb=100, bb=200)
    hand = deal([10_000] * 6, game=game, house=load_preset("multipoker"))
    act(hand, "c", "c", "c", "c", "c", "x")  # six in for $2: $12
    act(hand, "b 200", *["c"] * flop_callers, *["f"] * (5 - flop_callers))
    checks_down(hand)
    assert rake_taken(hand) == [(rake, pot)]


def test_R_RAKE_4_a_60_dollar_pot_at_2_4_six_handed_pays_3_dollars() -> None:
    game = spec(structure="fixed_limit", sb=100, bb=200)
    hand = deal([10_000] * 6, game=game, house=load_preset("multipoker"))
    act(hand, "c", "c", "c", "c", "c", "x")  # $12
    act(hand, "b 200", "c", "c", "c", "c", "c")  # $24
    act(hand, "b 400", "c", "c", "c", "c", "c")  # $48 (turn: the big bet)
    act(hand, "b 400", "c", "c", "f", "f", "f")  # $60
    checks_down(hand)
    assert rake_taken(hand) == [(300, 6000)]


@pytest.mark.parametrize(("players", "cap"), [(3, 100), (5, 200), (6, 300), (9, 300)])
def test_R_RAKE_2_the_cap_by_players_dealt_in_in_a_played_hand(players: int, cap: int) -> None:
    # 000 PL/NL: $0.05 per full $1, capped 2-3 -> $1, 4-5 -> $2, 6-9 -> $3. Everyone goes
    # all-in for $100, so the uncapped rake would be $5 x players.
    hand = deal([10_000] * players, game=NL_100_200, house=load_preset("multipoker"))
    act(hand, "r 10000", *["c"] * (players - 1))
    assert rake_taken(hand) == [(cap, 10_000 * players)]


# --- R-LIM-1 with 000's own $10/$20 example ----------------------------------------------


def test_R_LIM_1_at_10_20_bets_are_10_on_the_first_two_rounds_and_20_on_the_last_two() -> None:
    # 000: in a $10/$20 game bets and raises are $10 pre-flop and on the flop, $20 on the
    # turn and the river; "if someone raises $10 and you call, your bet is $20".
    hand = deal([1_000] * 3, game=spec(structure="fixed_limit", sb=5, bb=10))
    rounds = {
        "preflop": ("c", "c", "x"),
        "flop": ("b 10", "r 20"),
        "turn": ("x", "x", "x"),
        "river": ("x", "x", "x"),
    }
    sizes = []
    for street, script in rounds.items():
        assert hand.street_name == street
        legal = hand.legal_actions()
        assert legal and legal.min_raise_to is not None
        assert legal.min_raise_to == legal.max_raise_to
        sizes.append(legal.min_raise_to - legal.current_bet)
        act(hand, *script)
        if street == "flop":
            legal = hand.legal_actions()
            assert legal and legal.call_amount == 20  # the next player calls $20
            act(hand, "c", "c")
    assert sizes == [10, 10, 20, 20]
    assert hand.is_over
