"""Button and blinds hand after hand: R-BTN-1, R-BTN-2, R-BTN-4, R-DECK-4, R-BLIND-5,
R-BLIND-6, R-SEAT-2, R-SEAT-3, R-SEAT-4, R-SEAT-5."""

import pytest

from pokerroom.cards import Card
from pokerroom.rng import SeededRandomSource, shuffled_codes
from pokerroom.rules import load_preset
from pokerroom.rules.game import Structure, Variant
from pokerroom.table import Table
from pokerroom.table.events import BlindMissed, ButtonDrawn, HandStarting
from tests.helpers.tables import BB, make_table, play, posts

STACK = 40 * BB


def rotation(table, hands: int) -> list[tuple[int, int | None, int]]:
    out = []
    for k in range(hands):
        started = play(table, float(k))
        assert started is not None
        out.append((started.button_seat, started.small_blind_seat, started.big_blind_seat))
    return out


def test_R_BTN_2_first_seat_deals_and_the_next_posts_the_small_blind() -> None:
    table = make_table(players={})
    for seat in (4, 2, 6):  # seated in this order: seat 4 first
        table.sit(f"p{seat}", seat, STACK)
    assert rotation(table, 1) == [(4, 6, 2)]


def test_R_BTN_1_R_BTN_4_button_moves_one_active_player_each_hand() -> None:
    table = make_table(players={1: STACK, 3: STACK, 5: STACK, 6: STACK})
    assert rotation(table, 5) == [(1, 3, 5), (3, 5, 6), (5, 6, 1), (6, 1, 3), (1, 3, 5)]


class StackedSource:
    """A RandomSource whose first draw shuffles the deck into exactly ``deck``'s order (the
    number that the Fisher-Yates reading of ``shuffled_codes`` turns into it); then seeded."""

    def __init__(self, deck: list[int]) -> None:
        order, digits = list(range(52)), {}
        for i in range(51, 0, -1):  # replay the shuffle, choosing each swap
            j = order.index(deck[i])
            digits[i] = j
            order[i], order[j] = order[j], order[i]
        self.first: int | None = 0
        for i in range(1, 52):
            self.first = self.first * (i + 1) + digits[i]
        self.rest = SeededRandomSource(1)

    def randbelow(self, n: int) -> int:
        first, self.first = self.first, None
        return first if first is not None else self.rest.randbelow(n)


def test_R_BTN_2_R_DECK_4_draw_for_the_button_high_card_then_suit() -> None:
    # Cards by seat order: seat 1 Ah, seat 4 As, seat 7 Kd, seat 9 2c: two aces; spades win.
    deck = [c.code for c in (Card.parse(t) for t in ("Ah", "As", "Kd", "2c"))]
    deck += [c for c in range(52) if c not in deck]
    assert shuffled_codes(StackedSource(deck)) == deck
    house = load_preset("casino")
    spec = house.game(Variant.HOLDEM, Structure.NO_LIMIT, BB)
    table = Table(spec=spec, house=house, seats=10, rng=StackedSource(deck))
    for seat in (1, 4, 7, 9):
        table.sit(f"p{seat}", seat, 100 * BB)
    events = table.start_hand(0.0)
    drawn = next(e for e in events if isinstance(e, ButtonDrawn))
    assert drawn.first_seat == 4
    started = next(e for e in events if isinstance(e, HandStarting))
    # The high card is first and posts the small blind; the button is on their right.
    assert (started.small_blind_seat, started.big_blind_seat, started.button_seat) == (4, 7, 1)


def test_R_BLIND_5_heads_up_button_posts_small_blind() -> None:
    table = make_table(players={2: STACK, 5: STACK})
    hands = rotation(table, 3)
    for button, small, big in hands:
        assert button == small and big != button
    assert [h[2] for h in hands] == [5, 2, 5]  # the big blind alternates


def test_R_BLIND_5_three_to_two_and_back_without_skipping_or_doubling_the_big_blind() -> None:
    table = make_table(players={1: STACK, 2: STACK, 3: STACK})
    first = rotation(table, 2)  # (1, 2, 3), (2, 3, 1)
    assert first == [(1, 2, 3), (2, 3, 1)]
    table.leave("p3", 0.0)  # the last small blind leaves: heads-up
    heads_up = rotation(table, 2)
    assert heads_up[0][2] == 2  # the big blind moves on from seat 1 to seat 2
    assert heads_up[1][2] == 1
    table.sit("p3", 3, STACK)  # a third player comes back as a new player
    bigs = [h[2] for h in rotation(table, 4)]
    for a, b in zip([1, *bigs], bigs, strict=False):
        assert a != b  # nobody posts the big blind twice in a row


def test_R_BLIND_6_R_SEAT_2_new_player_between_button_and_blinds_waits() -> None:
    table = make_table(players={1: STACK, 3: STACK, 5: STACK})
    assert rotation(table, 1) == [(1, 3, 5)]
    # Next hand: button 3, small blind 5, big blind 1. Seat 4 is between button and blinds.
    table.sit("p4", 4, STACK, post_now=True)
    started = play(table, 1.0)
    assert started is not None and 4 not in started.seats  # must wait for the button to pass
    hands = rotation(table, 4)
    # p4 is dealt in only when the big blind reaches seat 4 -- never on the button unpaid.
    first_in = next(k for k, h in enumerate(hands) if h[2] == 4)
    assert all(h[0] != 4 for h in hands[: first_in + 1])


def test_R_BLIND_6_a_new_player_in_the_button_seat_waits_even_with_post_now() -> None:
    """Found by a long random session: heads-up, then newcomers sit down, one of them in the
    seat where the button lands next. Posting a big blind there would give them the button
    without the small blind."""
    table = make_table(seats=9, players={2: STACK, 7: STACK})
    assert rotation(table, 2) == [(2, 2, 7), (7, 7, 2)]
    table.sit("p8", 8, STACK, post_now=True)  # the big blind reaches seat 8 next hand
    table.sit("p1", 1, STACK, post_now=True)  # just before seat 2: the next button's seat
    started = play(table, 2.0)
    # p8, directly left of the big blind (seat 7), is dealt in at once (R-SEAT-2); p1, on the
    # seat the button moves to, waits: the button is dead there this hand.
    assert started is not None and started.seats == (2, 7, 8)
    assert started.button_seat == 1 and 1 not in started.seats
    hands = rotation(table, 3)
    assert [h[2] for h in hands] == [8, 1, 2]
    assert all(h[0] != 1 for h in hands)  # p1 has the button only after paying a big blind


def test_R_SEAT_2_new_player_left_of_the_blinds_may_post_at_once() -> None:
    players = {1: STACK, 2: STACK, 3: STACK, 4: STACK, 5: STACK}
    table = make_table(players=players)
    assert rotation(table, 1) == [(1, 2, 3)]
    # Next hand: button 2, small blind 3, big blind 4; seat 6 is left of the blinds.
    table.sit("p6", 6, STACK, post_now=True)
    events = table.start_hand(1.0)
    assert (6, "live_post", BB) in posts(events)
    assert 6 in next(e for e in events if isinstance(e, HandStarting)).seats
    waiting = make_table(players=players)
    rotation(waiting, 1)
    waiting.sit("p6", 6, STACK)  # without post_now: waits for the big blind
    events = waiting.start_hand(1.0)
    assert 6 not in next(e for e in events if isinstance(e, HandStarting)).seats


def test_R_SEAT_2_directly_left_of_the_next_big_blind_posting_now_is_dealt_in_at_once() -> None:
    table = make_table(players={1: STACK, 2: STACK, 3: STACK, 4: STACK})
    rotation(table, 1)  # next: big blind 4, then seat 6 (5 is empty)
    table.sit("p6", 6, STACK, post_now=True)
    events = table.start_hand(1.0)
    assert 6 in next(e for e in events if isinstance(e, HandStarting)).seats
    assert (6, "live_post", BB) in posts(events)
    from tests.helpers.tables import finish_hand

    finish_hand(table, 1.0)
    events = table.start_hand(2.0)
    assert (6, "big_blind", BB) in posts(events)  # then the big blind reaches the seat
    waiting = make_table(players={1: STACK, 2: STACK, 3: STACK, 4: STACK})
    rotation(waiting, 1)
    waiting.sit("p6", 6, STACK)  # without post_now: waits the one hand for the big blind
    events = waiting.start_hand(1.0)
    assert 6 not in next(e for e in events if isinstance(e, HandStarting)).seats


def test_R_SEAT_2_in_the_big_blind_seat_the_new_player_must_post_it() -> None:
    table = make_table(players={1: STACK, 2: STACK, 4: STACK})
    assert rotation(table, 1) == [(1, 2, 4)]
    table.sit("p5", 5, STACK)  # the big blind moves from 4 to 5 next hand
    events = table.start_hand(1.0)
    assert (5, "big_blind", BB) in posts(events)


def test_R_SEAT_3_missed_big_blind_marker_and_both_blinds_to_return() -> None:
    table = make_table(players={1: STACK, 2: STACK, 3: STACK, 4: STACK, 5: STACK, 6: STACK})
    assert rotation(table, 1) == [(1, 2, 3)]
    table.sit_out("p4")  # would be the big blind next hand
    events = table.start_hand(1.0)
    assert [(e.seat, e.blind) for e in events if isinstance(e, BlindMissed)] == [(4, "big")]
    started = next(e for e in events if isinstance(e, HandStarting))
    assert started.big_blind_seat == 5  # the next active player posts it
    from tests.helpers.tables import finish_hand

    finish_hand(table, 1.0)
    assert table.seats[4].missed_big
    table.sit_in("p4", post_now=True)
    for k in range(6):  # between the button and the blinds it waits; then it posts both
        events = table.start_hand(2.0 + k)
        started = next(e for e in events if isinstance(e, HandStarting))
        if 4 in started.seats:
            assert (4, "live_post", BB) in posts(events)
            assert (4, "dead_post", table.spec.stakes.small_blind) in posts(events)
            break
        assert started.button_seat != 4
        finish_hand(table, 2.0 + k)
    else:
        pytest.fail("the player with a missed big blind never came back")
    finish_hand(table, 9.0)
    assert not table.seats[4].missed_big


def test_R_SEAT_4_missed_small_blind_dead_small_and_returns_after_the_button() -> None:
    table = make_table(players={1: STACK, 2: STACK, 3: STACK, 4: STACK, 5: STACK})
    assert rotation(table, 1) == [(1, 2, 3)]
    table.sit_out("p3")  # last big blind: due the small blind next hand
    events = table.start_hand(1.0)
    assert [(e.seat, e.blind) for e in events if isinstance(e, BlindMissed)] == [(3, "small")]
    started = next(e for e in events if isinstance(e, HandStarting))
    assert started.small_blind_seat is None and started.big_blind_seat == 4
    assert all(what != "small_blind" for _, what, _ in posts(events))
    from tests.helpers.tables import finish_hand

    finish_hand(table, 1.0)
    table.sit_in("p3", post_now=True)
    # Seat 3 sits between the button (2) and the big blind (5) next hand: it waits.
    events = table.start_hand(2.0)
    assert 3 not in next(e for e in events if isinstance(e, HandStarting)).seats
    finish_hand(table, 2.0)
    # Next hand the button has passed seat 3: it comes back with the small blind, dead.
    events = table.start_hand(3.0)
    started = next(e for e in events if isinstance(e, HandStarting))
    assert (started.button_seat, started.big_blind_seat) == (4, 1) and 3 in started.seats
    small = table.spec.stakes.small_blind
    assert posts(events) == [
        (5, "small_blind", small),
        (1, "big_blind", BB),
        (3, "dead_post", small),
    ]


def test_R_SEAT_5_a_sitting_out_player_is_not_dealt_in() -> None:
    table = make_table(players={1: STACK, 2: STACK, 3: STACK})
    table.sit_out("p2")
    started = play(table)
    assert started is not None and 2 not in started.seats


def test_R_BTN_1_R_SEAT_4_after_a_dead_small_blind_the_button_is_dead_where_it_was() -> None:
    table = make_table(players={1: STACK, 2: STACK, 3: STACK, 4: STACK, 5: STACK})
    assert rotation(table, 1) == [(1, 2, 3)]
    table.sit_out("p3")  # due the small blind next hand: it is dead
    assert rotation(table, 2) == [(2, None, 4), (3, 4, 5)]  # then a dead button on seat 3
    started = table.last_hand
    assert started is not None and started.seats == (4, 5, 1, 2)  # seat 2 acts last


def _fortune(players: dict[int, int], seats: int = 10) -> Table:
    return make_table("fortune", seats=seats, players=players, structure=Structure.FIXED_LIMIT)


def test_R_SEAT_4_moving_the_big_blind_posts_the_missing_small_blind() -> None:
    """001: the acting big blind posts the small blind, the next active player the big blind;
    the button then goes to the player who posted the small blind the hand before."""
    table = _fortune({1: STACK, 2: STACK, 3: STACK, 4: STACK, 5: STACK})
    assert rotation(table, 1) == [(1, 2, 3)]
    table.sit_out("p3")  # due the small blind next hand
    events = table.start_hand(1.0)
    assert [(e.seat, e.blind) for e in events if isinstance(e, BlindMissed)] == [(3, "small")]
    started = next(e for e in events if isinstance(e, HandStarting))
    assert (started.button_seat, started.small_blind_seat, started.big_blind_seat) == (2, 4, 5)
    small = table.spec.stakes.small_blind
    assert posts(events) == [(4, "small_blind", small), (5, "big_blind", BB)]
    from tests.helpers.tables import finish_hand

    finish_hand(table, 1.0)
    assert rotation(table, 2) == [(4, 5, 1), (5, 1, 2)]  # the button to the small blind


def test_R_SEAT_4_dead_keeps_the_big_blind_where_it_was_due() -> None:
    house = load_preset("fortune").with_options(missed_small_blind="dead")
    spec = house.game(Variant.HOLDEM, Structure.FIXED_LIMIT, BB)
    table = Table(spec=spec, house=house, seats=5, rng=SeededRandomSource(1))
    for seat in range(1, 6):
        table.sit(f"p{seat}", seat, STACK)
    assert rotation(table, 1) == [(1, 2, 3)]
    table.sit_out("p3")
    assert rotation(table, 2) == [(2, None, 4), (3, 4, 5)]


def _ml_back_in_the_big_blind(table: Table) -> list[tuple[int, str, int]]:
    """p4 misses the big blind, comes back without posting, and waits for the big blind:
    the posts of the hand in which the big blind reaches seat 4 again."""
    from tests.helpers.tables import finish_hand

    assert rotation(table, 1) == [(1, 2, 3)]
    table.sit_out("p4")  # due the big blind next hand: ML
    play(table, 1.0)
    assert table.seats[4].missed_big
    table.sit_in("p4")  # no post_now: wait for the big blind
    for k in range(8):
        events = table.start_hand(2.0 + k)
        started = next(e for e in events if isinstance(e, HandStarting))
        if started.big_blind_seat == 4:
            return [p for p in posts(events) if p[0] == 4]
        assert 4 not in started.seats
        finish_hand(table, 2.0 + k)
    raise AssertionError("the big blind never reached seat 4")


def test_R_SEAT_3_pays_both_back_in_the_big_blind_posts_the_dead_small_too() -> None:
    table = _fortune(dict.fromkeys(range(1, 7), STACK))  # fortune: ml_back_in_big_blind pays_both
    small = table.spec.stakes.small_blind
    assert _ml_back_in_the_big_blind(table) == [(4, "big_blind", BB), (4, "dead_post", small)]
    assert not table.seats[4].missed_big and not table.seats[4].missed_small


def test_R_SEAT_3_big_blind_only_back_in_the_big_blind_posts_it_alone() -> None:
    table = make_table(players=dict.fromkeys(range(1, 7), STACK))  # titan: big_blind_only
    assert _ml_back_in_the_big_blind(table) == [(4, "big_blind", BB)]
    assert not table.seats[4].missed_big
