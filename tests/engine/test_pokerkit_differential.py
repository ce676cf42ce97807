"""Differential tests against PokerKit: same cards, same actions, same legal amounts, same stacks.

Both engines play each random hand in lockstep. At every decision the player to
act, the amount to call and the minimum and maximum "raise to" must agree, and at
the end every stack must agree to the chip. Two rules differ by design, and the
harness checks that any disagreement is one of them before choosing an action both
engines allow:

- R-LIM-2: pre-flop the big blind counts as the first of four bets, and only full bets
  and raises count; PokerKit allows four raises on top of the big blind and counts a
  short all-in bet or raise towards the cap.
- R-NL-2 / R-ROUND-5: PokerKit measures the first raise of a pre-flop round against 0,
  so a short all-in over the big blind reopens the betting there; for us it does not.
- R-BLIND-7: a big blind posted short (all-in) keeps its size for us: the others call the
  full blind and raise from it. PokerKit asks them to call the chips posted. The harness
  checks both amounts at each such decision and folds (both engines allow it) until somebody
  has put in the full blind, which under folding nobody does: the hands stay in step.
- R-LIM-4: in fixed limit an all-in bet or raise of less than a full bet is a full one for us
  when it is at least half a bet, and otherwise moves nothing: the next raise goes a full bet
  over the last full level (completing a short all-in bet), and only a counted all-in
  reopens the betting. PokerKit raises a full bet over the all-in amount and reopens by its
  own count. Each such disagreement must come in a round with an all-in bet or raise of less
  than a full bet; the harness then calls or folds instead of raising.
- R-SHOW-6: we split each main and side pot on its own and give its odd chips one each
  to the tied winners in order left of the button. PokerKit gives all of a pot's odd
  chips to the first winner, and kills hands that cannot win before pushing, which can
  merge a losing all-in player's layer into the next pot. ``by_our_odd_chip_rule`` shares
  PokerKit's pots again by our rule, and then every stack must agree exactly.

Omaha Hi-Lo is compared at fixed limit, with the halves of each pot shared by R-HILO-6.

"""

import random
import warnings
from collections.abc import Iterator

import pytest
from pokerkit import (
    Automation,
    BetCollection,
    ChipsPushing,
    FixedLimitOmahaHoldemHighLowSplitEightOrBetter,
    FixedLimitPokerMixin,
    FixedLimitTexasHoldem,
    Folding,
    NoLimitTexasHoldem,
    PotLimitOmahaHoldem,
)

from pokerroom.engine import Action, ActionKind, Hand, Phase, Player
from pokerroom.engine.events import ActionTaken, BoardDealt, ForcedBet, PotAwarded
from pokerroom.rules import STANDARD
from pokerroom.rules.game import GameSpec, Stakes, Structure, Variant
from tests.engine.oracle import Ledger, layered_pots
from tests.helpers.repeats import fast_and_full

TEXT = [r + s for r in "23456789TJQKA" for s in "cdhs"]
# Hands a game: 250 in make test, 1,000 in make test-all (seeds 0.., so the fast tier's hands
# are the first of the full one's; the stacks below are already short-biased).
HANDS = fast_and_full(250, 1_000)
AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.RUNOUT_COUNT_SELECTION,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)
GAMES = {
    "no-limit hold'em": (Variant.HOLDEM, Structure.NO_LIMIT),
    "fixed-limit hold'em": (Variant.HOLDEM, Structure.FIXED_LIMIT),
    "pot-limit Omaha": (Variant.OMAHA, Structure.POT_LIMIT),
    "fixed-limit Omaha Hi-Lo": (Variant.OMAHA_HILO, Structure.FIXED_LIMIT),
}
# Short stacks for all-ins, side pots, short blinds (R-BLIND-7) and short limit all-ins
# (R-LIM-4); deep ones for raising wars. Omaha Hi-Lo plays deep: when several all-ins make
# layers whose low halves go to different players, PokerKit's merged pushes cannot be cut
# back into our layers (the pot oracle checks those hands against our own rules instead).
STACKS = [1, 2, 3, 5, 11, 20, 60, 150, 400, 1000]
DEEP_STACKS = [60, 61, 150, 401, 1000]
KNOWN = {
    "the betting is capped at 4 bets": "R-LIM-2",
    "the betting was not reopened by a full raise": "R-NL-2",
    "the betting was not reopened by a full bet or an all-in of half a bet or more": "R-LIM-4",
}


def short_all_in_this_round(hand: Hand) -> bool:
    """Has an all-in bet or raise of less than a full bet been made in this betting round?"""
    size = hand.big_blind if hand.street < 2 else 2 * hand.big_blind
    start = 0
    for k in range(len(hand.events) - 1, -1, -1):
        if isinstance(hand.events[k], BoardDealt):
            start = k + 1
            break
    current = hand.big_blind if hand.street == 0 else 0
    for event in hand.events[start:]:
        if isinstance(event, ActionTaken) and event.action in ("bet", "raise"):
            if event.all_in and event.to - current < size:
                return True
            current = max(current, event.to)
    return False


class FixedLimitOmahaHiLo(FixedLimitPokerMixin, FixedLimitOmahaHoldemHighLowSplitEightOrBetter):
    """PokerKit's "fixed-limit" Omaha Hi-Lo class bets pot limit (it takes the pot-limit
    mixin); the fixed-limit mixin first makes it the game its name says."""


def pokerkit_state(structure: Structure, variant: Variant, stacks: list[int]):  # type: ignore[no-untyped-def]
    n = len(stacks)
    if structure is Structure.NO_LIMIT:
        return NoLimitTexasHoldem.create_state(AUTOMATIONS, True, 0, (1, 2), 2, stacks, n)
    if structure is Structure.FIXED_LIMIT and variant is Variant.OMAHA_HILO:
        return FixedLimitOmahaHiLo.create_state(AUTOMATIONS, True, 0, (1, 2), 2, 4, stacks, n)
    if structure is Structure.FIXED_LIMIT:
        return FixedLimitTexasHoldem.create_state(AUTOMATIONS, True, 0, (1, 2), 2, 4, stacks, n)
    assert variant is Variant.OMAHA
    return PotLimitOmahaHoldem.create_state(AUTOMATIONS, True, 0, (1, 2), 2, stacks, n)


def deal_to_pokerkit(theirs, ours: Hand, deck: list[int], cards: Iterator[int], seed: int) -> None:  # type: ignore[no-untyped-def]
    """Deal PokerKit the cards our deck deals (``cards``: from the first burn on), choose two
    run-outs where it asks (R-RIT-1), and skip its checks that nobody could answer."""
    n = ours.n
    while True:
        if theirs.can_deal_hole():
            who = theirs.hole_dealee_index
            theirs.deal_hole(TEXT[deck[len(theirs.hole_cards[who]) * n + who]])
        elif theirs.can_select_runout_count():
            theirs.select_runout_count(2)
        elif theirs.can_burn_card():
            theirs.burn_card(TEXT[next(cards)])
        elif theirs.can_deal_board():
            count = theirs.board_dealing_count
            theirs.deal_board("".join(TEXT[next(cards)] for _ in range(count)))
        elif theirs.actor_index is not None and ours.actor is None:
            # PokerKit asks for a check that nobody could answer (everyone else is
            # all-in); we skip it. Anything but a free check would be a real difference.
            assert theirs.checking_or_calling_amount == 0, seed
            theirs.check_or_call()
        else:
            return


def play_both(
    seed: int, variant: Variant, structure: Structure, deviations: dict[str, int]
) -> None:
    rng = random.Random(seed)
    n = rng.randint(2, 9)
    stacks = [
        rng.choice(DEEP_STACKS if variant is Variant.OMAHA_HILO else STACKS) for _ in range(n)
    ]
    deck = rng.sample(range(52), 52)
    ours = Hand(
        spec=GameSpec(
            variant=variant, structure=structure, stakes=Stakes(small_blind=1, big_blind=2)
        ),
        players=[Player(seat=i + 1, stack=s) for i, s in enumerate(stacks)],
        deck=deck,
    )
    theirs = pokerkit_state(structure, variant, stacks)
    after_hole = n * variant.hole_cards
    street_cards = iter(deck[after_hole : after_hole + 8])  # burn, 3 flop, burn, turn, burn, river

    def deal_pokerkit() -> None:
        deal_to_pokerkit(theirs, ours, deck, street_cards, seed)

    deal_pokerkit()
    while not ours.is_over:
        assert ours.phase is Phase.BETTING
        legal = ours.legal_actions()
        assert legal is not None
        assert theirs.actor_index == ours.actor, seed
        i = legal.position
        if ours.current_bet > max(ours.bets):  # R-BLIND-7: nobody has put in the full blind
            assert any(
                isinstance(e, ForcedBet) and e.what == "big_blind" and e.all_in and e.amount < 2
                for e in ours.events
            ), seed
            others = [j for j in range(n) if j != i and not ours.folded[j]]
            # The full blind, unless only all-in players are left to be called.
            level = (
                max(ours.bets[j] for j in others)
                if all(ours.out[j] for j in others)
                else ours.current_bet
            )
            assert legal.call_amount == min(ours.stacks[i], level - ours.bets[i]), seed
            assert theirs.checking_or_calling_amount == min(
                ours.stacks[i], max(ours.bets) - ours.bets[i]
            ), seed
            deviations["R-BLIND-7"] += 1
            ours.fold()
            theirs.fold()
            deal_pokerkit()
            continue
        assert theirs.checking_or_calling_amount == legal.call_amount, seed
        can_raise = theirs.can_complete_bet_or_raise_to()
        both_raise = can_raise and legal.can_raise
        if both_raise and (
            theirs.min_completion_betting_or_raising_to_amount,
            theirs.max_completion_betting_or_raising_to_amount,
        ) != (legal.min_raise_to, legal.max_raise_to):
            # R-LIM-4: we raise a full bet over the last full level, PokerKit over the bet.
            assert structure is Structure.FIXED_LIMIT and short_all_in_this_round(ours), seed
            full = ours.full_level + (2 if ours.street < 2 else 4)
            assert legal.min_raise_to == min(full, ours.bets[i] + ours.stacks[i]), seed
            deviations["R-LIM-4"] += 1
            both_raise = False
        elif can_raise and not legal.can_raise:  # we refuse a raise PokerKit allows
            reason = ours._no_raise_reason(i)
            assert reason in KNOWN, (seed, reason)
            if KNOWN[reason] == "R-LIM-4":
                assert short_all_in_this_round(ours), seed
            deviations[KNOWN[reason]] += 1
        elif legal.can_raise and not can_raise:  # PokerKit refuses a raise we allow
            assert structure is Structure.FIXED_LIMIT, seed
            if theirs.completion_betting_or_raising_count == 4 > ours.raises:
                deviations["R-LIM-2"] += 1  # its count of short all-ins toward the cap
            else:  # our half-bet all-in reopened the betting; PokerKit's count did not
                assert short_all_in_this_round(ours), seed
                deviations["R-LIM-4"] += 1
        roll = rng.random()
        if roll < 0.2 and not legal.can_check:
            ours.fold()
            theirs.fold()
        elif roll < 0.6 or not both_raise:
            ours.check_or_call()
            theirs.check_or_call()
        else:
            to = rng.randint(legal.min_raise_to or 0, legal.max_raise_to or 0)
            ours.bet_or_raise(to)
            theirs.complete_bet_or_raise_to(to)
        deal_pokerkit()
    deal_pokerkit()
    assert not theirs.status, seed
    assert by_our_odd_chip_rule(theirs) == ours.stacks, (seed, stacks)
    if any(isinstance(e, PotAwarded) and len(e.winners) > 1 for e in ours.events):
        deviations["split pots"] += 1
    if any(isinstance(e, PotAwarded) and e.share == "low" for e in ours.events):
        deviations["hi-lo splits"] += 1


def by_our_odd_chip_rule(theirs) -> list[int]:  # type: ignore[no-untyped-def]
    """PokerKit's final stacks with each split pot shared again by R-SHOW-6.

    PokerKit gives all of a pot's odd chips to the first winner, and after killing the hands
    that cannot win it merges pots whose remaining players are the same. We split each
    layer of contribution (each of our main and side pots) on its own, the odd chips one
    each to the tied winners in order from the first seat left of the button (position 0,
    as PokerKit's player 0). So each of PokerKit's pushes is cut back into our layers,
    built from PokerKit's own record of the bets, and each layer is shared again."""
    n = len(theirs.stacks)
    ledger = Ledger(n=n, live=[0] * n, dead=[0] * n)
    for operation in theirs.operations:
        if isinstance(operation, BetCollection):
            ledger.live = [a + b for a, b in zip(ledger.live, operation.bets, strict=True)]
        elif isinstance(operation, Folding):
            ledger.folded.add(operation.player_index)
    layers = [amount for amount, _ in layered_pots(ledger)]
    stacks = list(theirs.stacks)
    # One pot's pushes: the whole pot, or (hi-lo) its high half then its low half.
    pots: dict[int, list[ChipsPushing]] = {}
    for operation in theirs.operations:
        if isinstance(operation, ChipsPushing):
            pots.setdefault(operation.pot_index, []).append(operation)
    for index in sorted(pots):
        pushes = pots[index]
        total = sum(push.total_amount for push in pushes)
        parts: list[int] = []
        while sum(parts) < total:
            parts.append(layers.pop(0))
        assert sum(parts) == total, "a PokerKit pot is not made of whole layers"
        halves = sorted(pushes, key=lambda push: push.hand_type_index or 0)
        for push in pushes:
            for i, chips in enumerate(push.amounts):
                stacks[i] -= chips
        for part in parts:
            # R-HILO-6: the odd chip between the halves goes to the high half.
            amounts = [part] if len(halves) == 1 else [part - part // 2, part // 2]
            for push, amount in zip(halves, amounts, strict=True):
                winners = [i for i, chips in enumerate(push.amounts) if chips > 0]
                share, odd = divmod(amount, len(winners))
                for k, i in enumerate(winners):
                    stacks[i] += share + (1 if k < odd else 0)
    return stacks


@pytest.mark.parametrize("hands", HANDS)
@pytest.mark.parametrize("game", list(GAMES))
def test_same_final_stacks_as_pokerkit(game: str, hands: int) -> None:
    variant, structure = GAMES[game]
    deviations = {"R-LIM-2": 0, "R-LIM-4": 0, "R-NL-2": 0, "R-BLIND-7": 0}
    deviations |= {"split pots": 0, "hi-lo splits": 0}
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a card PokerKit thinks is dealt twice is a failure
        for seed in range(hands):
            play_both(seed, variant, structure, deviations)
    # The harness really meets the known differences (and so really compares around them).
    if variant is not Variant.OMAHA_HILO:  # (deep stacks: no short blind or all-in there)
        assert deviations["R-BLIND-7"] > 0
    if structure is Structure.FIXED_LIMIT:
        assert deviations["R-LIM-2"] > 0
        assert deviations["R-LIM-4"] > 0 or variant is Variant.OMAHA_HILO
    else:
        assert deviations["R-NL-2"] > 0
    assert deviations["split pots"] >= hands // 100  # the odd-chip rule really is exercised
    if variant is Variant.OMAHA_HILO:
        assert deviations["hi-lo splits"] >= hands // 20, deviations


# R-RIT-1: PokerKit runs it twice too (cash-game mode, every player choosing two runs). Both
# halve each pot with the odd chip to the first board, and split a hi-lo half high then low
# with the odd chip high. Equal stacks make one pot (the folded blinds' chips in it), so
# PokerKit's merging of pots never meets our layers; a three-way tie would meet its odd-chip
# rule (all to the first winner), so such hands are counted and left out.
RUN_TWICE_GAMES = {
    "no-limit hold'em": (Variant.HOLDEM, Structure.NO_LIMIT),
    "pot-limit Omaha": (Variant.OMAHA, Structure.POT_LIMIT),
    "pot-limit Omaha Hi-Lo": (Variant.OMAHA_HILO, Structure.POT_LIMIT),
}
RUN_TWICE_HANDS = fast_and_full(60, 400)


def pokerkit_cash_state(variant: Variant, stacks: list[int]):  # type: ignore[no-untyped-def]
    from pokerkit import FixedLimitOmahaHoldemHighLowSplitEightOrBetter, Mode

    automations = tuple(a for a in AUTOMATIONS if a is not Automation.RUNOUT_COUNT_SELECTION)
    n = len(stacks)
    cash = {"mode": Mode.CASH_GAME}
    if variant is Variant.HOLDEM:
        return NoLimitTexasHoldem.create_state(automations, True, 0, (1, 2), 2, stacks, n, **cash)
    if variant is Variant.OMAHA:
        return PotLimitOmahaHoldem.create_state(automations, True, 0, (1, 2), 2, stacks, n, **cash)
    # PokerKit's class of this name bets pot limit (see ``FixedLimitOmahaHiLo`` above).
    return FixedLimitOmahaHoldemHighLowSplitEightOrBetter.create_state(
        automations, True, 0, (1, 2), 2, 4, stacks, n, **cash
    )


def run_twice_both(seed: int, variant: Variant, structure: Structure) -> str:
    """One all-in hand run twice by both engines; "" when compared, else why not."""
    rng = random.Random(seed)
    n = rng.randint(2, 4)
    stack = rng.randint(3, 400)
    stacks = [stack] * n
    deck = rng.sample(range(52), 52)
    ours = Hand(
        spec=GameSpec(
            variant=variant, structure=structure, stakes=Stakes(small_blind=1, big_blind=2)
        ),
        players=[Player(seat=i + 1, stack=s) for i, s in enumerate(stacks)],
        house=STANDARD.with_options(run_it_twice=True),
        deck=deck,
    )
    theirs = pokerkit_cash_state(variant, stacks)
    cards = iter(deck[n * variant.hole_cards :])  # both run-outs, burns included

    def deal_pokerkit() -> None:
        deal_to_pokerkit(theirs, ours, deck, cards, seed)

    deal_pokerkit()
    folds = rng.randint(0, n - 2)  # the first players to act fold, the rest go all-in
    while ours.phase is Phase.BETTING:
        legal = ours.legal_actions()
        assert legal is not None and theirs.actor_index == ours.actor, seed
        if folds:
            folds -= 1
            ours.fold()
            theirs.fold()
        elif legal.max_raise_to is not None and theirs.can_complete_bet_or_raise_to():
            ours.bet_or_raise(legal.max_raise_to)
            theirs.complete_bet_or_raise_to(legal.max_raise_to)
        else:
            ours.check_or_call()
            theirs.check_or_call()
        deal_pokerkit()
    while ours.phase is Phase.RUNOUT:
        ours.apply(Action(ActionKind.RUN_TWICE))
    deal_pokerkit()
    assert ours.is_over and not theirs.status, seed
    if ours.runs != 2:
        return "one player left"
    if any(isinstance(e, PotAwarded) and len(e.winners) > 2 for e in ours.events):
        return "three-way tie"
    assert list(theirs.stacks) == ours.stacks, (seed, stacks)
    return ""


@pytest.mark.parametrize("hands", RUN_TWICE_HANDS)
@pytest.mark.parametrize("game", list(RUN_TWICE_GAMES))
def test_R_RIT_1_run_twice_same_final_stacks_as_pokerkit(game: str, hands: int) -> None:
    variant, structure = RUN_TWICE_GAMES[game]
    compared = 0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for seed in range(hands):
            compared += run_twice_both(seed, variant, structure) == ""
    assert compared >= hands // 2  # most hands really run twice and are compared
