"""The table options beyond the seeds, hand by hand: R-STRADDLE-1 (a live straddle),
R-RIT-1 (run it twice) and R-BOMB-1 (a bomb pot); chips conserved with them on."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerroom.cards import parse_cards
from pokerroom.engine import (
    Action,
    ActionKind,
    BombPotError,
    Hand,
    IllegalActionError,
    Phase,
    Player,
    StraddleError,
)
from pokerroom.engine.events import (
    BombPot,
    ForcedBet,
    PotAwarded,
    RakeTaken,
    RunoutAnswered,
    SecondBoardDealt,
)
from pokerroom.engine.setup import ExtraPost, arrange_deck
from pokerroom.engine.views import view_for
from pokerroom.history.phh import load_text, replay, write_phh
from pokerroom.history.record import hand_record, read_record
from pokerroom.rules import STANDARD, load_preset
from pokerroom.rules.game import GameSpec, Stakes, Structure, Variant
from tests.helpers.repeats import fast_and_full

OPTIONS = STANDARD.with_options(straddle=True, run_it_twice=True, bomb_pot=True)
TWICE = Action(ActionKind.RUN_TWICE)
ONCE = Action(ActionKind.RUN_ONCE)


def spec(structure: Structure = Structure.NO_LIMIT, variant: Variant = Variant.HOLDEM) -> GameSpec:
    return GameSpec(variant=variant, structure=structure, stakes=Stakes(small_blind=1, big_blind=2))


def players(*stacks: int) -> list[Player]:
    return [Player(seat=i + 1, stack=s) for i, s in enumerate(stacks)]


def codes(text: str) -> list[int | None]:
    return [c.code for c in parse_cards(text)]


# ----------------------------------------------------------------- R-STRADDLE-1


def test_R_STRADDLE_1_a_third_blind_left_of_the_big_blind_who_acts_last() -> None:
    hand = Hand(
        spec=spec(),
        players=players(100, 100, 100, 100, 100),
        house=OPTIONS,
        deck=range(52),
        straddle=True,
    )
    straddle = [e for e in hand.events if isinstance(e, ForcedBet) and e.what == "straddle"]
    assert [(e.position, e.amount) for e in straddle] == [(2, 4)]  # twice the big blind
    legal = hand.legal_actions()
    assert legal is not None and legal.position == 3  # left of the straddler
    assert legal.call_amount == 4 and legal.min_raise_to == 8  # raises count from it
    hand.check_or_call()  # position 3
    hand.fold()  # the button
    hand.check_or_call()  # the small blind
    hand.check_or_call()  # the big blind
    option = hand.legal_actions()
    assert option is not None and option.position == 2  # the straddler's option, last
    assert option.can_check and option.min_raise_to == 8
    hand.bet_or_raise(12)
    assert hand.actor == 3 and hand.street == 0


@pytest.mark.parametrize(
    ("house", "structure", "stacks", "posts", "why"),
    [
        (STANDARD, Structure.NO_LIMIT, (100,) * 4, (), "does not offer"),
        (OPTIONS, Structure.FIXED_LIMIT, (100,) * 4, (), "fixed-limit"),
        (OPTIONS, Structure.NO_LIMIT, (100,) * 3, (), "4 players"),
        (OPTIONS, Structure.NO_LIMIT, (100,) * 4, (ExtraPost(2, dead=1),), "missed"),
        (OPTIONS, Structure.NO_LIMIT, (100, 100, 3, 100), (), "do not cover"),
    ],
)
def test_R_STRADDLE_1_refused_with_the_reason(
    house: object,
    structure: Structure,
    stacks: tuple[int, ...],
    posts: tuple[ExtraPost, ...],
    why: str,
) -> None:
    with pytest.raises(StraddleError, match=why):
        Hand(
            spec=spec(structure),
            players=players(*stacks),
            house=house,  # type: ignore[arg-type]
            deck=range(52),
            straddle=True,
            posts=posts,
        )


# ----------------------------------------------------------------- R-RIT-1


def all_in_heads_up_of_three(house: object = OPTIONS) -> Hand:
    """The small blind folds (its chip stays in: an odd pot of 101); the big blind and the
    button are all-in for 50 before the flop. The first board is the big blind's (aces),
    the second the button's (a set of kings)."""
    deck = arrange_deck(
        [codes("2c7d"), codes("AsAh"), codes("KsKh")],
        codes("3c8d9hJc4s"),
        2,
        codes("Kd5c6hTc2s"),
    )
    hand = Hand(spec=spec(), players=players(100, 50, 50), house=house, deck=deck)  # type: ignore[arg-type]
    hand.bet_or_raise(50)  # the button
    hand.fold()  # the small blind
    hand.check_or_call()  # the big blind, all-in
    return hand


def test_R_RIT_1_every_player_still_in_agrees_and_each_board_wins_half() -> None:
    hand = all_in_heads_up_of_three()
    assert hand.phase is Phase.RUNOUT and not hand.board
    choice = hand.runout_choice()
    assert choice is not None and choice.position == 1  # from the first left of the button
    assert view_for(hand, 1).runout == choice and view_for(hand, 2).runout is None
    hand.apply(TWICE)
    hand.apply(TWICE, 2)
    assert hand.is_over and hand.runs == 2
    assert "".join(map(str, hand.board_cards())) == "3c8d9hJc4s"
    assert "".join(map(str, hand.second_board_cards())) == "Kd5c6hTc2s"
    awards = [(e.run, e.amount, e.winners) for e in hand.events if isinstance(e, PotAwarded)]
    assert awards == [(1, 51, ((1, 51),)), (2, 50, ((2, 50),))]  # the odd chip to the first
    assert hand.stacks == [99, 51, 50]
    view = view_for(hand, None)
    assert len(view.board) == 5 and len(view.second_board) == 5
    assert len([e for e in hand.events if isinstance(e, SecondBoardDealt)]) == 3


@pytest.mark.parametrize("answer", [ONCE, Action(ActionKind.TIMEOUT)])
def test_R_RIT_1_one_no_or_no_answer_runs_it_once(answer: Action) -> None:
    hand = all_in_heads_up_of_three()
    hand.apply(TWICE)
    hand.apply(answer)
    assert hand.is_over and hand.runs == 1 and not hand.second_board
    answers = [(e.position, e.agreed) for e in hand.events if isinstance(e, RunoutAnswered)]
    assert answers == [(1, True), (2, False)]
    assert hand.stacks == [99, 101, 0]  # aces hold on the one board


def test_R_RIT_1_answers_only_when_asked() -> None:
    hand = Hand(spec=spec(), players=players(100, 100, 100), house=OPTIONS, deck=range(52))
    with pytest.raises(IllegalActionError, match="no run-out to choose"):
        hand.apply(TWICE)
    running = all_in_heads_up_of_three()
    with pytest.raises(IllegalActionError, match="run it twice"):
        running.fold()
    with pytest.raises(IllegalActionError, match="turn"):
        running.apply(TWICE, 2)  # not yet: the big blind answers first


def test_R_RIT_1_not_offered_when_off_or_when_the_deck_is_short() -> None:
    assert all_in_heads_up_of_three(STANDARD).is_over  # the option off: it runs once
    omaha = spec(Structure.POT_LIMIT, Variant.OMAHA)  # 10 x 4 hole cards leave one run-out
    hand = Hand(spec=omaha, players=players(*[2] * 10), house=OPTIONS, deck=range(52))
    while hand.phase is Phase.BETTING:
        hand.check_or_call()
    assert hand.is_over and hand.runs == 1


def test_R_RIT_1_rake_once_from_the_whole_pot_before_the_halves() -> None:
    house = load_preset("titan").with_options(run_it_twice=True)
    game = house.game(Variant.HOLDEM, Structure.NO_LIMIT, 200)
    hand = Hand(spec=game, players=players(10_000, 10_000, 10_000), house=house, deck=range(52))
    hand.bet_or_raise(10_000)
    hand.check_or_call()
    hand.check_or_call()
    while hand.phase is Phase.RUNOUT:
        hand.apply(TWICE)
    rakes = [e for e in hand.events if isinstance(e, RakeTaken)]
    assert len(rakes) == 1 and rakes[0].pot == 30_000 and hand.rake > 0
    paid = sum(e.amount for e in hand.events if isinstance(e, PotAwarded))
    assert paid + hand.rake == 30_000
    assert {e.run for e in hand.events if isinstance(e, PotAwarded)} == {1, 2}


def test_R_RIT_1_hi_lo_halves_are_split_high_and_low_again() -> None:
    hilo = spec(Structure.POT_LIMIT, Variant.OMAHA_HILO)
    deck = arrange_deck(
        [codes("2c7d9s9h"), codes("AsKs2d3d"), codes("QcQdJhJs")],
        codes("4h5c8hKhTd"),
        4,
        codes("4c6dQhKdTc"),
    )
    hand = Hand(spec=hilo, players=players(100, 101, 101), house=OPTIONS, deck=deck)
    while hand.phase is Phase.BETTING:
        legal = hand.legal_actions()
        assert legal is not None
        if legal.max_raise_to is not None:
            hand.bet_or_raise(legal.max_raise_to)
        else:
            hand.check_or_call()
    while hand.phase is Phase.RUNOUT:
        hand.apply(TWICE)
    awards = [(e.run, e.share) for e in hand.events if isinstance(e, PotAwarded)]
    assert (1, "low") in awards and (1, "high") in awards  # the first board has a low
    assert sum(hand.stacks) == 302


# ----------------------------------------------------------------- R-BOMB-1


def test_R_BOMB_1_everyone_puts_in_n_big_blinds_and_play_starts_on_the_flop() -> None:
    hand = Hand(
        spec=spec(), players=players(100, 7, 100), house=OPTIONS, deck=range(52), bomb_pot=5
    )
    assert [e for e in hand.events if isinstance(e, BombPot)] == [BombPot(5, 10)]
    posted = [(e.position, e.amount, e.all_in) for e in hand.events if isinstance(e, ForcedBet)]
    assert posted == [(0, 10, False), (1, 7, True), (2, 10, False)]  # short: all-in
    assert hand.street == 1 and len(hand.board) == 3  # no pre-flop betting
    assert hand.actor == 0  # the first player left of the button
    assert [p.amount for p in hand.pots()] == [21, 6]  # the side pot follows
    while not hand.is_over:
        hand.check_or_call()
    assert sum(hand.stacks) == 207


@pytest.mark.parametrize(
    ("house", "big_blinds", "why"),
    [
        (STANDARD, 5, "does not offer"),
        (OPTIONS, 0, None),  # 0 is an ordinary hand
        (OPTIONS, -1, "1 to 20"),
        (OPTIONS, 21, "1 to 20"),
    ],
)
def test_R_BOMB_1_amount_must_be_offered_and_valid(
    house: object, big_blinds: int, why: str | None
) -> None:
    def deal() -> Hand:
        return Hand(
            spec=spec(),
            players=players(100, 100),
            house=house,  # type: ignore[arg-type]
            deck=range(52),
            bomb_pot=big_blinds,
        )

    if why is None:
        assert deal().bomb_pot == 0  # 0 is an ordinary hand
        return
    with pytest.raises(BombPotError, match=why):
        deal()


def test_R_BOMB_1_no_straddle_or_blinds_in_a_bomb_pot() -> None:
    with pytest.raises(BombPotError, match="no straddle"):
        Hand(
            spec=spec(),
            players=players(*[100] * 4),
            house=OPTIONS,
            deck=range(52),
            bomb_pot=2,
            straddle=True,
        )
    with pytest.raises(BombPotError, match="no blinds"):
        Hand(
            spec=spec(),
            players=players(100, 100),
            house=OPTIONS,
            deck=range(52),
            bomb_pot=2,
            blinds=[2, 1],
        )


# ----------------------------------------------------------------- chips conserved

HANDS = fast_and_full(150, 1_500)


@pytest.mark.parametrize("hands", HANDS)
@pytest.mark.parametrize("variant", list(Variant))
def test_R_STRADDLE_1_R_RIT_1_R_BOMB_1_random_hands_conserve_chips_and_replay(
    variant: Variant, hands: int
) -> None:
    @settings(max_examples=hands, deadline=None)
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        n = data.draw(st.integers(2, 9), label="players")
        structure = data.draw(st.sampled_from(list(Structure)), label="structure")
        stacks = data.draw(st.lists(st.integers(1, 300), min_size=n, max_size=n), label="stacks")
        house = OPTIONS.with_options(rake=data.draw(st.sampled_from([None, "titan"])))
        bomb = data.draw(st.sampled_from([0, 0, 1, 3]), label="bomb pot")
        straddle = not bomb and n >= 4 and structure is not Structure.FIXED_LIMIT
        straddle = straddle and stacks[2] >= 4 and data.draw(st.booleans())
        seed = data.draw(st.integers(0, 2**32), label="deck seed")
        stakes = (
            Stakes(small_blind=100, big_blind=200)
            if house.rake
            else Stakes(small_blind=1, big_blind=2)
        )
        scale = 100 if house.rake else 1
        game = GameSpec(variant=variant, structure=structure, stakes=stakes)
        hand = Hand(
            spec=game,
            players=players(*[s * scale for s in stacks]),
            house=house,
            deck=random.Random(seed).sample(range(52), 52),
            straddle=straddle,
            bomb_pot=bomb,
        )
        total = sum(hand.starting_stacks)
        for _ in range(400):
            if hand.is_over:
                break
            assert sum(hand.stacks) + hand.pot == total and min(hand.stacks) >= 0
            if hand.phase is Phase.RUNOUT:
                hand.apply(data.draw(st.sampled_from([TWICE, TWICE, ONCE]), label="runs"))
                continue
            legal = hand.legal_actions()
            assert legal is not None
            options = [Action(ActionKind.FOLD), Action(ActionKind.CHECK_OR_CALL)] * 2
            if legal.min_raise_to is not None and legal.max_raise_to is not None:
                options.append(Action(ActionKind.BET_OR_RAISE, legal.max_raise_to))
                options.append(Action(ActionKind.BET_OR_RAISE, legal.min_raise_to))
            hand.apply(data.draw(st.sampled_from(options), label="action"))
        assert hand.is_over
        assert sum(hand.stacks) + hand.rake == total and min(hand.stacks) >= 0
        if not house.rake:  # PHH names the house by preset name: a changed rake is the record's
            assert replay(load_text(write_phh(hand))[0]).finishing_stacks == hand.stacks
        assert read_record(hand_record(hand)).stacks == hand.stacks

    run()
