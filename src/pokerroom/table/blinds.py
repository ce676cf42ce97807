"""Who is dealt in, who posts what, and where the button is (R-BTN-*, R-BLIND-*, R-SEAT-*).

The big blind moves forward one player every hand, so everyone who stays dealt
in pays it exactly once an orbit and nobody pays it twice in a row. The small
blind is posted from the seat that had the big blind; the button goes where the
small blind was. When a player has left or is sitting out, the small blind or
the button may be dead (nobody posts, nobody holds it) for a hand. A house may
follow seed 001 instead (R-SEAT-4 `moving`): the player due the big blind posts
the missing small blind and the next player the big blind, which lets that
player skip one big blind, as 001 does. Players who sit out as the blinds pass
them collect ML and MS markers (R-SEAT-3, R-SEAT-4).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Final

from pokerroom.records import Record
from pokerroom.rules.house import MissedSmallBlind, MlBackInBigBlind
from pokerroom.table.seats import Seat, SeatStatus


class BlindPlan(Record):
    """Who is dealt in and who posts what in the next hand (a record: mypyc compiles it)."""

    __match_args__: ClassVar[tuple[str, ...]] = (
        "positions",
        "blinds",
        "live_posts",
        "dead_posts",
        "button_seat",
        "small_blind_seat",
        "big_blind_seat",
        "missed",
        "fresh",
        "dead_small_seat",
    )

    def __init__(
        self,
        *,
        positions: list[int],
        blinds: list[int],
        live_posts: dict[int, int] | None = None,
        dead_posts: dict[int, int] | None = None,
        button_seat: int = 0,
        small_blind_seat: int | None = None,
        big_blind_seat: int = 0,
        missed: list[tuple[int, str]] | None = None,
        fresh: bool = False,
        dead_small_seat: int | None = None,
    ) -> None:
        self.positions: Final = positions  # dealt-in seats, first left of the button first
        self.blinds: Final = blinds  # per position: small/big blind amounts
        self.live_posts: Final = {} if live_posts is None else live_posts  # seat -> live chips
        self.dead_posts: Final = {} if dead_posts is None else dead_posts  # seat -> dead chips
        self.button_seat: Final = button_seat
        self.small_blind_seat: Final = small_blind_seat
        self.big_blind_seat: Final = big_blind_seat
        self.missed: Final = missed or []  # (seat, big/small)
        self.fresh: Final = fresh  # a new rotation: everybody dealt in starts level
        # The seat whose small blind is dead this hand: the button goes there next hand.
        self.dead_small_seat: Final = dead_small_seat


AWAY = (SeatStatus.SITTING_OUT, SeatStatus.BUSTED)
_NO_POSTS: Final[dict[int, int]] = {}  # shared by quick plans; no plan is ever changed
_NONE_MISSED: Final[list[tuple[int, str]]] = []  # seated, not dealt in: blinds pass them


def clockwise(seats: Sequence[int], after: int, max_seats: int) -> list[int]:
    """``seats`` in clockwise order starting just after seat ``after``."""
    return sorted(seats, key=lambda s: (s - after - 1) % max_seats)


def between(seat: int, start: int, end: int, max_seats: int) -> bool:
    """Is ``seat`` strictly inside the clockwise arc from ``start`` to ``end``?"""
    span = (end - start) % max_seats
    offset = (seat - start) % max_seats
    return 0 < offset < span


def plan_first_hand(
    seats: dict[int, Seat], first: int, max_seats: int, small: int, big: int
) -> BlindPlan | None:
    """The first hand of a table: ``first`` is the first player (small blind, R-BTN-2)."""
    dealt = [s for s in seats.values() if s.status in (SeatStatus.PLAYING, SeatStatus.WAITING)]
    numbers = [s.number for s in dealt if s.stack > 0]
    if len(numbers) < 2:
        return None
    order = clockwise(numbers, first - 1, max_seats)  # first player leads
    if len(order) == 2:
        # R-BLIND-5: heads-up the button posts the small blind; ``first`` has the button.
        button, other = order[0], order[1]
        return BlindPlan(
            positions=[other, button],
            blinds=[big, small],
            button_seat=button,
            small_blind_seat=button,
            big_blind_seat=other,
            fresh=True,
        )
    positions = order  # first = small blind, next = big blind, the last has the button
    blinds = [small, big] + [0] * (len(order) - 2)
    return BlindPlan(
        positions=positions,
        blinds=blinds,
        button_seat=order[-1],
        small_blind_seat=order[0],
        big_blind_seat=order[1],
        fresh=True,
    )


def rotate_plan(previous: BlindPlan, seats: dict[int, Seat], min_players: int) -> BlindPlan | None:
    """The common case, cheaply: the same three or more players as last hand, all playing
    and owing nothing, so the blinds and the button move on one seat. None whenever
    anything else holds; then ``plan_hand`` works the hand out (it gives the same plan here).
    """
    positions = previous.positions
    if (
        len(positions) < max(3, min_players)
        or len(seats) != len(positions)
        or previous.live_posts
        or previous.dead_posts
        or previous.small_blind_seat != positions[0]
        or previous.big_blind_seat != positions[1]
    ):
        return None
    for number in positions:
        seat = seats.get(number)
        if (
            seat is None
            or seat.stack <= 0
            or seat.status is not SeatStatus.PLAYING
            or not seat.paid_blinds
            or seat.missed_big
            or seat.missed_small
        ):
            return None
    moved = positions[1:] + positions[:1]
    return BlindPlan(
        positions=moved,
        blinds=previous.blinds,  # plans are never changed: they can share
        live_posts=_NO_POSTS,
        dead_posts=_NO_POSTS,
        missed=_NONE_MISSED,
        button_seat=positions[0],
        small_blind_seat=positions[1],
        big_blind_seat=positions[2],
    )


def _regular(seat: Seat) -> bool:
    """Playing, paid up and owing nothing: may post a small blind and take the button next."""
    return (
        seat.status is SeatStatus.PLAYING
        and seat.paid_blinds
        and not (seat.missed_big or seat.missed_small)
    )


def plan_hand(
    seats: dict[int, Seat],
    previous_big: int,
    previous_small: int | None,
    previous_button: int,
    max_seats: int,
    small: int,
    big: int,
    *,
    missed_small_blind: MissedSmallBlind = "dead",
    ml_back_in_big_blind: MlBackInBigBlind = "big_blind_only",
) -> BlindPlan | None:
    """Plan the next hand from where the blinds were last hand (``previous_small``: the seat
    of last hand's small blind, posted or dead)."""
    occupied = sorted(seats)
    active = {
        n
        for n, s in seats.items()
        if s.stack > 0 and s.status in (SeatStatus.PLAYING, SeatStatus.WAITING)
    }
    # The big blind: the next seat after last hand's that will take it.
    candidates = [n for n in clockwise(occupied, previous_big, max_seats) if n in active]
    if not candidates:
        return None
    big_seat = candidates[0]
    missed_small: list[tuple[int, str]] = []
    small_seat: int | None = previous_big if previous_big != big_seat else None
    dead_small: int | None = None
    if small_seat is not None:
        holder = seats.get(small_seat)
        if holder is None or holder.number not in active or holder.status is not SeatStatus.PLAYING:
            if (
                holder is not None
                and holder.status in AWAY
                and holder.paid_blinds
                and not (holder.missed_big or holder.missed_small)
            ):
                missed_small.append((small_seat, "small"))  # R-SEAT-4
            dead_small, small_seat = small_seat, None  # a dead small blind this hand
            button = previous_small if previous_small is not None else previous_button
            if (
                missed_small_blind == "moving"
                and len(candidates) >= 3
                and _regular(seats[candidates[0]])
                and between(candidates[1], previous_big, button, max_seats)
            ):
                # R-SEAT-4 `moving` (001): the player due the big blind posts the small blind,
                # the next active player the big blind; the button goes to last hand's small
                # blind (so both blinds must fall before it: too few players, and it is dead).
                small_seat, big_seat, dead_small = candidates[0], candidates[1], None
    missed: list[tuple[int, str]] = []
    for n in occupied:
        seat = seats[n]
        passed = between(n, previous_big, big_seat, max_seats) and seat.paid_blinds
        if passed and seat.status in AWAY and not seat.missed_big:
            missed.append((n, "big"))  # R-SEAT-3: the next active player posts it
    missed += missed_small
    button_anchor = previous_small if previous_small is not None else previous_button
    if button_anchor in (big_seat, small_seat):
        button_anchor = (small_seat if small_seat is not None else big_seat) - 1
    live_posts: dict[int, int] = {}
    dead_posts: dict[int, int] = {}
    dealt: list[int] = []
    first_blind = small_seat if small_seat is not None else big_seat
    for n in occupied:
        seat = seats[n]
        if n not in active:
            continue
        if n in (big_seat, small_seat):
            if n == big_seat and seat.missed_big and ml_back_in_big_blind == "pays_both":
                dead_posts[n] = small  # R-SEAT-3 (001): back in the big blind, the small dead
            dealt.append(n)
            continue
        if seat.arrived and between(n, button_anchor, first_blind, max_seats):
            continue  # TDA 8A, 10A: a tournament entrant just seated waits for the button
        # Past the big blind and before the button's seat: posting there is dealt in at once.
        # The button's own seat waits too: a player owing blinds may not take the button
        # with a single post (R-BLIND-6); it is a dead button this hand.
        left_of_blinds = between(n, big_seat, button_anchor, max_seats)
        owes = seat.missed_big or seat.missed_small or not seat.paid_blinds
        if not owes:
            dealt.append(n)
            continue
        if not (seat.post_now and left_of_blinds):
            continue  # wait for the big blind (or for the button to pass, R-SEAT-2, R-SEAT-4)
        if seat.missed_big or not seat.paid_blinds:
            live_posts[n] = big  # R-SEAT-2, R-SEAT-3: a live big blind ...
            if seat.missed_big:
                dead_posts[n] = small  # ... and the small blind dead
        elif seat.missed_small:
            dead_posts[n] = small  # R-SEAT-4: the small blind, dead
        dealt.append(n)
    if len(dealt) < 2:
        return None
    if len(dealt) == 2:
        other = big_seat
        button = next(n for n in dealt if n != big_seat)
        owing = seats[button]
        if not owing.paid_blinds or owing.missed_big or owing.missed_small:
            return None  # heads-up with a newcomer on the button: the table starts afresh
        return BlindPlan(
            positions=[other, button],
            blinds=[big, small],
            live_posts={k: v for k, v in live_posts.items() if k not in (other, button)},
            dead_posts={k: v for k, v in dead_posts.items() if k not in (other, button)},
            button_seat=button,
            small_blind_seat=button,
            big_blind_seat=other,
            missed=missed,
        )
    positions = clockwise(dealt, button_anchor, max_seats)
    blinds = [big if n == big_seat else small if n == small_seat else 0 for n in positions]
    return BlindPlan(
        positions=positions,
        blinds=blinds,
        live_posts=live_posts,
        dead_posts=dead_posts,
        button_seat=button_anchor % max_seats or max_seats,
        small_blind_seat=small_seat,
        big_blind_seat=big_seat,
        missed=missed,
        dead_small_seat=dead_small,
    )
