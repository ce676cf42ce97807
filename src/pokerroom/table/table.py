"""A cash table: hand after hand, with seats, buy-ins, blinds, sitting out and time.

Pure like the engine: no I/O, no asyncio, no wall clock. Time comes in as
``now`` (seconds on any monotonic clock) on every call, randomness from the
``RandomSource`` given at construction. Every change is a frozen event,
returned by the call that caused it (the caller keeps the log). A table can be
written to JSON at any moment -- between hands or in the middle of one -- and
restored; the hand in progress is rebuilt by re-applying its actions.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict
from typing import Any, Final

from pokerroom.cards import FULL_DECK
from pokerroom.engine.actions import Action, ActionKind
from pokerroom.engine.errors import IllegalActionError
from pokerroom.engine.events import Event
from pokerroom.engine.hand import Hand, Phase
from pokerroom.engine.setup import ExtraPost, Player
from pokerroom.rng import RandomSource, shuffled_codes
from pokerroom.rules.game import GameSpec, Stakes, Structure, Variant
from pokerroom.rules.house import HouseOptions, parse_house
from pokerroom.table.blinds import BlindPlan, clockwise, plan_first_hand, plan_hand, rotate_plan
from pokerroom.table.events import (
    BlindMissed,
    ButtonDrawn,
    ChipsAdded,
    ConnectionChanged,
    HandFinished,
    HandStarting,
    SeatLeft,
    SeatOffered,
    SeatStatusChanged,
    SeatTaken,
    TimeBankUsed,
    TimerExpired,
    TimerStarted,
    TimerWarning,
    WaitingListChanged,
)
from pokerroom.table.seats import PreAction, Seat, SeatStatus, TableError

_TIMEOUT: Final = ActionKind.TIMEOUT


class Table:
    """One cash table under one house's rules."""

    def __init__(
        self,
        *,
        spec: GameSpec,
        house: HouseOptions,
        seats: int,
        rng: RandomSource | None = None,
        name: str = "",
    ) -> None:
        house.check_table(spec, seats)
        self.spec = spec
        self.house = house
        self.max_seats = seats
        self.name = name
        self.rng = rng
        self.seats: dict[int, Seat] = {}
        self._seat_by_player: dict[str, Seat] = {}
        self.waiting_list: list[str] = []
        self.hand: Hand | None = None
        self.last_hand: Hand | None = None  # the hand that ended last (for its history)
        self.hand_number = 0
        self.hand_seats: list[int] = []  # seat of each position in the current hand
        self._last_plan: BlindPlan | None = None  # a cache: the previous_* fields rule
        self._players: dict[int, Player] = {}  # a cache of immutable records, by seat
        # The actions applied in the hand in progress, and by which position: two lists, as a
        # pair per action would cost an allocation on every action.
        self.hand_log: list[Action] = []
        self.hand_log_positions: list[int] = []
        self.hand_setup: dict[str, Any] = {}
        self.previous_big: int | None = None
        self.previous_small: int | None = None
        self.previous_button: int | None = None
        self.rake_total = 0
        self.joined = 0
        # R-DECK-5: a cancelled first hand's first player and the players it was drawn among:
        # the hand is dealt again from the same button, not from a new draw.
        self.first_again: list[Any] | None = None
        self._fresh_first: list[Any] | None = None  # this plan's, when it is a first hand
        self.deadline: float | None = None
        self.warning_at: float | None = None
        self.warned = False
        self.extra_given = False
        # Read at every turn; the house is fixed for the table's life.
        self._decision_seconds = float(house.decision_seconds)
        self._warning_seconds = float(house.warning_after_seconds)
        self._refill_every = max(house.time_bank_refill_hands, 1)
        self._min_buy_in = house.min_buy_in_bb * spec.stakes.big_blind  # R-STAKE-2
        self._max_buy_in = house.max_buy_in_bb * spec.stakes.big_blind

    # ---------------------------------------------------------------- queries

    @property
    def big_blind(self) -> int:
        return self.spec.stakes.big_blind

    @property
    def min_buy_in(self) -> int:
        return self._min_buy_in

    @property
    def max_buy_in(self) -> int:
        return self._max_buy_in

    def seat_number(self, player: str) -> int | None:
        """The player's seat, or None when they are not seated."""
        seat = self._seat_by_player.get(player)
        return None if seat is None else seat.number

    def seat_of(self, player: str) -> Seat:
        seat = self._seat_by_player.get(player)
        if seat is None:
            raise TableError(f"{player!r} is not seated at this table")
        return seat

    def in_hand(self, seat: int) -> bool:
        return self.hand is not None and not self.hand.is_over and seat in self.hand_seats

    def actor_seat(self) -> int | None:
        if self.hand is None or self.hand.actor is None:
            return None
        return self.hand_seats[self.hand.actor]

    def chips_on_table(self) -> int:
        """Stacks of seated players plus, during a hand, the chips in its pots."""
        if self.hand is not None and not self.hand.is_over:
            in_hand = set(self.hand_seats)
            behind = sum(s.stack for n, s in self.seats.items() if n not in in_hand)
            return behind + sum(self.hand.stacks) + self.hand.pot
        return sum(s.stack for s in self.seats.values())

    # ---------------------------------------------------------------- seats and money

    @staticmethod
    def _emit(events: list[Event], event: Event) -> None:
        events.append(event)

    def sit(
        self, player: str, seat: int, buy_in: int, *, name: str = "", post_now: bool = False
    ) -> list[Event]:
        """Take a seat with a buy-in between the table's minimum and maximum (R-STAKE-2)."""
        if not 1 <= seat <= self.max_seats:
            raise TableError(f"seat {seat} does not exist (seats 1..{self.max_seats})")
        if seat in self.seats:
            raise TableError(f"seat {seat} is taken")
        if player in self._seat_by_player:
            raise TableError(f"{player!r} already has a seat at this table")
        self._check_buy_in(buy_in, 0)
        events: list[Event] = []
        self.joined += 1
        self.seats[seat] = Seat(
            number=seat,
            player=player,
            name=name or player,
            stack=buy_in,
            status=SeatStatus.WAITING,
            joined=self.joined,
            time_bank=float(self.house.time_bank_seconds),
            post_now=post_now,
        )
        self._seat_by_player[player] = self.seats[seat]
        if player in self.waiting_list:
            self.waiting_list.remove(player)
            self._emit(events, WaitingListChanged(tuple(self.waiting_list)))
        self._emit(events, SeatTaken(seat, player, name or player, buy_in))
        return events

    def _check_buy_in(self, amount: int, stack: int) -> None:
        if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
            raise TableError(f"a buy-in must be a positive whole number of chips, got {amount!r}")
        if stack + amount < self.min_buy_in:
            raise TableError(
                f"buy-in of {amount} leaves {stack + amount} chips:"
                f" the minimum is {self.min_buy_in}"
            )
        if stack + amount > self.max_buy_in:
            raise TableError(
                f"buy-in of {amount} would make {stack + amount} chips: the maximum is"
                f" {self.max_buy_in}"
            )

    def add_chips(self, player: str, amount: int) -> list[Event]:
        """Top up or rebuy, only between hands for a player in the hand (R-STAKE-1)."""
        seat = self.seat_of(player)
        if self.in_hand(seat.number):
            raise TableError(
                f"seat {seat.number} cannot add chips during a hand (table stakes, R-STAKE-1)"
            )
        self._check_buy_in(amount, seat.stack)
        events: list[Event] = []
        seat.stack += amount
        self._emit(events, ChipsAdded(seat.number, amount, seat.stack))
        if seat.status is SeatStatus.BUSTED:
            seat.busted_at = None
            seat.status = SeatStatus.PLAYING if seat.paid_blinds else SeatStatus.WAITING
            self._emit(events, SeatStatusChanged(seat.number, str(seat.status), "rebuy"))
        return events

    def leave(self, player: str, now: float) -> list[Event]:
        """Leave now, or after this hand: a player to act is folded (an all-in player stays)."""
        seat = self.seat_of(player)
        events: list[Event] = []
        if self.in_hand(seat.number):
            seat.leave_after = True
            if self.actor_seat() == seat.number:
                events += self._after_change(now)  # folds them and moves the hand on
            return events
        self._stand(seat, "left", events)
        return events

    def _stand(self, seat: Seat, reason: str, events: list[Event]) -> None:
        del self.seats[seat.number]
        del self._seat_by_player[seat.player]
        self._emit(events, SeatLeft(seat.number, seat.player, seat.stack, reason))
        if self.waiting_list:  # a freed seat goes to the first in line
            self._emit(events, SeatOffered(seat.number, self.waiting_list[0]))

    def join_waiting_list(self, player: str) -> list[Event]:
        if player in self.waiting_list:
            raise TableError(f"{player!r} is already on the waiting list")
        if any(s.player == player for s in self.seats.values()):
            raise TableError(f"{player!r} already has a seat at this table")
        self.waiting_list.append(player)
        events: list[Event] = []
        self._emit(events, WaitingListChanged(tuple(self.waiting_list)))
        return events

    def sit_out(self, player: str) -> list[Event]:
        """Sit out (R-SEAT-5): at once between hands, else from the next hand."""
        seat = self.seat_of(player)
        events: list[Event] = []
        if self.in_hand(seat.number):
            seat.sit_out_next = True
        else:
            self._set_status(seat, SeatStatus.SITTING_OUT, "sit out", events)
        return events

    def sit_in(self, player: str, *, post_now: bool = False) -> list[Event]:
        """Come back: post at once where the rules allow (R-SEAT-2..4), else wait for the blind."""
        seat = self.seat_of(player)
        events: list[Event] = []
        seat.sit_out_next = False
        seat.post_now = post_now
        seat.timeouts = 0
        if seat.status is SeatStatus.SITTING_OUT:
            status = SeatStatus.PLAYING if seat.paid_blinds else SeatStatus.WAITING
            self._set_status(seat, status, "sit in", events)
        return events

    def set_options(
        self,
        player: str,
        *,
        auto_post: bool | None = None,
        post_now: bool | None = None,
        sit_out_next: bool | None = None,
        leave_after: bool | None = None,
        pre_action: PreAction | str | None = "unchanged",
    ) -> None:
        """The options players expect: auto-post, wait for the big blind, sit out next hand,
        leave after this hand, and a pre-action for their next decision."""
        seat = self.seat_of(player)
        if auto_post is not None:
            seat.auto_post = auto_post
        if post_now is not None:
            seat.post_now = post_now
        if sit_out_next is not None:
            seat.sit_out_next = sit_out_next
        if leave_after is not None:
            seat.leave_after = leave_after
        if pre_action != "unchanged":
            seat.pre_action = PreAction(pre_action) if pre_action is not None else None

    def _set_status(self, seat: Seat, status: SeatStatus, reason: str, events: list[Event]) -> None:
        if seat.status is not status:
            seat.status = status
            # str() of a StrEnum is its value (without the enum property's slower lookup)
            self._emit(events, SeatStatusChanged(seat.number, str(status), reason))

    # ---------------------------------------------------------------- hands

    def can_start(self) -> bool:
        if self.hand is not None and not self.hand.is_over:
            return False
        ready = [
            s
            for s in self.seats.values()
            if s.stack > 0 and s.status in (SeatStatus.PLAYING, SeatStatus.WAITING)
        ]
        return len(ready) >= self.house.min_players

    def start_hand(self, now: float, *, deck: Sequence[int] | None = None) -> list[Event]:
        """Deal the next hand if enough players are ready; events say who posts what."""
        if self.hand is not None and not self.hand.is_over:
            raise TableError("a hand is already in progress")
        events: list[Event] = []
        busted, waiting = SeatStatus.BUSTED, SeatStatus.WAITING  # read once, not per seat
        for seat in list(self.seats.values()):
            if seat.status is busted:  # R-STAKE-2: rebuy in time or lose the seat
                since = seat.busted_at
                if since is None or now - since >= self.house.rebuy_seconds:
                    self._stand(seat, "busted", events)
            elif seat.sit_out_next:
                seat.sit_out_next = False
                self._set_status(seat, SeatStatus.SITTING_OUT, "sit out next hand", events)
        plan = self._plan(events)
        if plan is None:
            return events
        # R-DECK-5: what dealing this hand settles, for a cancel to give back.
        before = {
            "first": self._fresh_first if plan.fresh else None,
            "previous": [self.previous_big, self.previous_small, self.previous_button],
            "seats": [
                self._obligations(self.seats[n])
                for n in sorted({*plan.positions, *(n for n, _ in plan.missed)})
            ],
        }
        if plan.fresh:
            for number in plan.positions:
                self.seats[number].paid_blinds = True  # everyone starts level
        self.first_again = None
        for number, blind in plan.missed:
            seat = self.seats[number]
            if blind == "big":
                seat.missed_big = True
            else:
                seat.missed_small = True
            self._emit(events, BlindMissed(number, blind))
        self.hand_number += 1
        self.hand_seats = list(plan.positions)
        posts = (
            [
                ExtraPost(
                    position=position,
                    live=plan.live_posts.get(n, 0),
                    dead=plan.dead_posts.get(n, 0),
                )
                for position, n in enumerate(plan.positions)
                if n in plan.live_posts or n in plan.dead_posts
            ]
            if plan.live_posts or plan.dead_posts
            else []
        )
        self.hand_setup = {
            "positions": plan.positions,
            "blinds": plan.blinds,
            "posts": [[p.position, p.live, p.dead] for p in posts],
            "deck": None if deck is None else list(deck),  # None: the hand shuffles
            "stacks": [self.seats[n].stack for n in plan.positions],
            "button": plan.button_seat,
            "small": plan.small_blind_seat,
            "big": plan.big_blind_seat,
            "before": before,
        }
        self.hand_log = []
        self.hand_log_positions = []
        self._emit(
            events,
            HandStarting(
                self.hand_number,
                plan.button_seat,
                plan.small_blind_seat,
                plan.big_blind_seat,
                tuple(plan.positions),
                plan.fresh,
            ),
        )
        self.hand = self._build_hand(self.hand_setup)
        self.hand_setup["deck"] = self.hand.deck  # what a restore deals again
        events.extend(self.hand.events)
        live_posts, dead_posts, big = plan.live_posts, plan.dead_posts, plan.big_blind_seat
        for n in plan.positions:
            seat = self.seats[n]
            if n == big or (live_posts and n in live_posts):
                seat.big_blinds_posted += n == big
                seat.paid_blinds = True
                seat.missed_big = seat.missed_small = False
            if dead_posts and n in dead_posts:
                seat.missed_small = False
            seat.post_now = False
            if seat.status is waiting:
                seat.status = SeatStatus.PLAYING
        self.previous_big = plan.big_blind_seat
        # Where the small blind was, posted or dead: the button goes there next (R-BLIND-6).
        small_seat = plan.small_blind_seat
        self.previous_small = small_seat if small_seat is not None else plan.dead_small_seat
        self.previous_button = plan.button_seat
        self._last_plan = plan
        if self.hand_number % self._refill_every == 0:
            full = float(self.house.time_bank_seconds)
            for seat in self.seats.values():
                if seat.time_bank < full:
                    seat.time_bank = min(full, seat.time_bank + self.house.time_bank_refill_seconds)
        events += self._after_change(now)
        return events

    def _plan(self, events: list[Event]) -> BlindPlan | None:
        """Plan the blinds; a player due a blind with auto-post off sits out instead."""
        small = self.spec.stakes.small_blind
        self._fresh_first = None
        if self._last_plan is not None:
            fast = rotate_plan(self._last_plan, self.seats, self.house.min_players)
            if (
                fast is not None
                and self.seats[fast.positions[0]].auto_post
                and self.seats[fast.positions[1]].auto_post
            ):
                return fast
        while self.can_start():
            plan: BlindPlan | None = None
            if self.previous_big is not None and self.previous_button is not None:
                plan = plan_hand(
                    self.seats,
                    self.previous_big,
                    self.previous_small,
                    self.previous_button,
                    self.max_seats,
                    small,
                    self.big_blind,
                    missed_small_blind=self.house.missed_small_blind,
                    ml_back_in_big_blind=self.house.ml_back_in_big_blind,
                )
                if plan is not None and len(plan.positions) < self.house.min_players:
                    plan = None  # R-SEAT-1: too few would be dealt in (others wait to post)
            if plan is None:  # a new table, or one restarting with too few to go on
                first = self._first_player(events)
                plan = plan_first_hand(self.seats, first, self.max_seats, small, self.big_blind)
                if plan is None:
                    return None
            refusing = [
                n
                for n in (plan.big_blind_seat, plan.small_blind_seat)
                if n is not None and not self.seats[n].auto_post
            ]
            if not refusing:
                return plan
            for number in refusing:
                self._set_status(
                    self.seats[number], SeatStatus.SITTING_OUT, "blind not posted", events
                )
        return None

    def _first_player(self, events: list[Event]) -> int:
        """R-BTN-2: the first seated (first_seat) or the high card by rank then suit (draw)."""
        ready = [
            s
            for s in self.seats.values()
            if s.stack > 0 and s.status in (SeatStatus.PLAYING, SeatStatus.WAITING)
        ]
        among = sorted(s.number for s in ready)
        again = self.first_again
        if again is not None and again[1] == among:
            self._fresh_first = again
            return int(again[0])  # R-DECK-5: the cancelled first hand, dealt again
        first = self._draw_first_player(ready, events)
        self._fresh_first = [first, among]
        return first

    def _draw_first_player(self, ready: list[Seat], events: list[Event]) -> int:
        if self.house.first_button == "first_seat":
            dealer = min(ready, key=lambda s: s.joined)
            if len(ready) == 2:
                return dealer.number  # heads-up the dealer posts the small blind (R-BLIND-5)
            others = clockwise([s.number for s in ready], dealer.number, self.max_seats)
            return others[0]  # the first seated deals; the next player is first
        deck = shuffled_codes(self.rng)
        cards = {s.number: deck[k] for k, s in enumerate(sorted(ready, key=lambda s: s.number))}
        first = max(cards, key=lambda n: cards[n])  # codes: rank * 4 + suit (R-DECK-4)
        drawn = tuple((n, FULL_DECK[c]) for n, c in sorted(cards.items()))
        self._emit(events, ButtonDrawn(drawn, first))
        return first

    def _build_hand(self, setup: dict[str, Any]) -> Hand:
        players = []
        made = self._players
        positions: list[int] = setup["positions"]
        stacks: list[int] = setup["stacks"]
        for k in range(len(positions)):
            n, stack = positions[k], stacks[k]
            player = made.get(n)
            name = self.seats[n].name
            if player is None or player.stack != stack or player.name != name:
                made[n] = player = Player(seat=n, stack=stack, name=name)
            players.append(player)
        return Hand(
            spec=self.spec,
            players=players,
            house=self.house,
            deck=setup["deck"],
            rng=self.rng,
            blinds=setup["blinds"],
            posts=[ExtraPost(position=p, live=lv, dead=d) for p, lv, d in setup["posts"]],
        )

    def act(self, player: str, action: Action, now: float) -> list[Event]:
        """A player's action in the hand (the engine checks it; errors change nothing)."""
        seat = self.seat_of(player)
        hand = self.hand
        actor = None if hand is None else hand.actor
        if hand is not None and actor is not None and self.hand_seats[actor] == seat.number:
            position = actor  # the usual case: the player to act acts
        elif hand is None or seat.number not in self.hand_seats:
            raise TableError(f"seat {seat.number} cannot act: it is not in a hand in progress")
        else:
            position = self.hand_seats.index(seat.number)  # the engine says why it may not
        events = hand.apply(action, position)  # the engine refuses illegal actions unchanged
        self.hand_log.append(action)
        self.hand_log_positions.append(position)
        if seat.timeouts and action.kind is not _TIMEOUT:
            seat.timeouts = 0
        actor = hand.actor
        if actor is not None and hand.betting:  # the usual next turn, inline
            following = self.hand_seats[actor]
            seat = self.seats[following]
            if not (seat.leave_after or seat.pre_action):
                events.append(self._start_timer(following, seat, now))
                return events
        events += self._after_change(now)
        return events

    def _act_for(self, number: int, action: Action) -> list[Event]:
        assert self.hand is not None
        return self._apply(self.hand_seats.index(number), action)

    def _apply(self, position: int, action: Action) -> list[Event]:
        assert self.hand is not None
        events = self.hand.apply(action, position)
        self.hand_log.append(action)
        self.hand_log_positions.append(position)
        return events

    def _after_change(self, now: float) -> list[Event]:
        """Pre-actions and leavers act at once; a new turn starts a timer; an ended hand settles."""
        events: list[Event] = []
        hand = self.hand
        while hand is not None and hand.actor is not None:
            number = self.hand_seats[hand.actor]
            seat = self.seats[number]
            if not (seat.leave_after or seat.pre_action) and hand.betting:
                events.append(self._start_timer(number, seat, now))
                break
            if seat.leave_after and hand.betting:
                events += self._act_for(number, Action(ActionKind.FOLD))
                continue
            if seat.pre_action is not None and hand.betting:
                legal = hand.legal_actions()
                assert legal is not None
                kind = (
                    ActionKind.CHECK_OR_CALL
                    if seat.pre_action is PreAction.CALL_ANY or legal.can_check
                    else ActionKind.FOLD
                )
                seat.pre_action = None
                events += self._act_for(number, Action(kind))
                continue
            if hand.phase is Phase.SHOWDOWN:
                events += self._act_for(number, Action(ActionKind.SHOW))
                continue
            events.append(self._start_timer(number, seat, now))
            break
        if hand is not None and hand.is_over:
            events += self._settle(now)
        return events

    def _start_timer(self, number: int, seat: Seat, now: float) -> TimerStarted:
        self.deadline = deadline = now + self._decision_seconds
        self.warning_at = warning = now + self._warning_seconds
        self.warned = self.extra_given = False
        return TimerStarted(number, deadline, warning, seat.time_bank)

    def _settle(self, now: float | None = None) -> list[Event]:
        assert self.hand is not None
        hand = self.hand
        events: list[Event] = []
        for position, number in enumerate(self.hand_seats):
            seat = self.seats[number]
            seat.stack = hand.stacks[position]
        self.rake_total += hand.rake
        self._emit(
            events,
            HandFinished(
                self.hand_number,
                tuple([(n, self.seats[n].stack) for n in self.hand_seats]),
                hand.rake,
                hand.phase is Phase.CANCELLED,
            ),
        )
        patience = self.house.timeouts_before_sit_out
        for number in self.hand_seats:
            seat = self.seats[number]
            if seat.leave_after:
                self._stand(seat, "left", events)
            elif seat.stack == 0:
                self._set_status(seat, SeatStatus.BUSTED, "no chips: rebuy or leave", events)
                seat.busted_at = now
            elif seat.sit_out_next or seat.timeouts >= patience:
                seat.sit_out_next = False
                self._set_status(seat, SeatStatus.SITTING_OUT, "sit out", events)
        self.last_hand = hand
        self.hand = None
        self.hand_seats = []
        self.hand_log = []
        self.hand_log_positions = []
        self.hand_setup = {}
        self.deadline = self.warning_at = None
        return events

    def cancel_hand(self, reason: str = "server fault") -> list[Event]:
        """R-DECK-5: cancel the hand in progress; every chip goes back, and so does every
        obligation the hand settled: the next hand has the same button, blinds and posts."""
        if self.hand is None or self.hand.is_over:
            raise TableError("no hand is in progress")
        events = self.hand.cancel(reason)
        before = self.hand_setup.get("before")
        if before is not None:
            self._restore_obligations(before)
        return events + self._settle()

    @staticmethod
    def _obligations(seat: Seat) -> list[Any]:
        """What dealing a hand may change in a seat's blinds and markers (R-DECK-5)."""
        return [
            seat.number,
            seat.player,
            str(seat.status),
            seat.paid_blinds,
            seat.missed_big,
            seat.missed_small,
            seat.post_now,
            seat.big_blinds_posted,
        ]

    def _restore_obligations(self, before: dict[str, Any]) -> None:
        self.previous_big, self.previous_small, self.previous_button = before["previous"]
        self.first_again = before["first"]
        self._last_plan = None  # the planner works the next hand out from ``previous``
        for number, player, status, paid, missed_big, missed_small, post_now, bigs in before[
            "seats"
        ]:
            seat = self.seats.get(number)
            if seat is None or seat.player != player:
                continue  # left during the hand: nothing is owed to the seat any more
            seat.paid_blinds, seat.missed_big, seat.missed_small = paid, missed_big, missed_small
            seat.post_now, seat.big_blinds_posted = post_now, bigs
            if status == SeatStatus.WAITING and seat.status is SeatStatus.PLAYING:
                seat.status = SeatStatus.WAITING  # dealt in as a newcomer: one again

    # ---------------------------------------------------------------- time (R-TIME-*)

    def tick(self, now: float) -> list[Event]:
        """Advance the clock: warnings, the time bank, and time-outs by the house rule."""
        events: list[Event] = []
        number = self.actor_seat()
        if number is None or self.deadline is None or self.warning_at is None:
            return events
        seat = self.seats[number]
        if not self.warned and now >= self.warning_at:
            self.warned = True
            self._emit(events, TimerWarning(number, max(0.0, self.deadline - now)))
        if now < self.deadline:
            return events
        if seat.time_bank > 0:
            used = seat.time_bank
            seat.time_bank = 0.0
            self.deadline += used
            self._emit(events, TimeBankUsed(number, used, self.deadline))
            if now < self.deadline:
                return events
        self._emit(events, TimerExpired(number))
        seat.timeouts += 1
        events += self._act_for(number, Action(ActionKind.TIMEOUT))
        return events + self._after_change(now)

    def disconnect(self, player: str, now: float) -> list[Event]:
        seat = self.seat_of(player)
        seat.connected = False
        events: list[Event] = []
        self._emit(events, ConnectionChanged(seat.number, False, 0.0))
        return events

    def reconnect(self, player: str, now: float) -> list[Event]:
        """R-TIME-3: back within their time, the player to act gets a further 20 s."""
        seat = self.seat_of(player)
        seat.connected = True
        extra = 0.0
        if (
            self.actor_seat() == seat.number
            and self.deadline is not None
            and now < self.deadline
            and not self.extra_given
        ):
            extra = float(self.house.reconnect_extra_seconds)
            self.deadline += extra
            self.extra_given = True
        events: list[Event] = []
        self._emit(events, ConnectionChanged(seat.number, True, extra))
        return events

    # ---------------------------------------------------------------- JSON

    def to_json(self) -> str:
        """The whole table, a hand in progress included, as JSON."""
        stakes = self.spec.stakes
        data = {
            "spec": {
                "variant": self.spec.variant.value,
                "structure": self.spec.structure.value,
                "stakes": asdict(stakes),
            },
            "house": _house_json(self.house),
            "max_seats": self.max_seats,
            "name": self.name,
            "seats": [s.to_json() for s in self.seats.values()],
            "waiting_list": self.waiting_list,
            "hand_number": self.hand_number,
            "previous": [self.previous_big, self.previous_small, self.previous_button],
            "rake_total": self.rake_total,
            "joined": self.joined,
            "first_again": self.first_again,
            "timer": [self.deadline, self.warning_at, self.warned, self.extra_given],
            "hand": (
                {
                    "setup": self.hand_setup,
                    "log": [  # (position, kind, amount); a kind is a StrEnum: its own JSON
                        (position, action.kind, action.amount)
                        for position, action in zip(
                            self.hand_log_positions, self.hand_log, strict=True
                        )
                    ],
                }
                if self.hand is not None and not self.hand.is_over
                else None
            ),
        }
        return json.dumps(data)

    @staticmethod
    def from_json(text: str, *, rng: RandomSource | None = None) -> Table:
        data = json.loads(text)
        spec = GameSpec(
            variant=Variant(data["spec"]["variant"]),
            structure=Structure(data["spec"]["structure"]),
            stakes=Stakes(**data["spec"]["stakes"]),
        )
        house = parse_house(data["house"], data["house"].get("name", "restored"))
        table = Table(spec=spec, house=house, seats=data["max_seats"], rng=rng, name=data["name"])
        for raw in data["seats"]:
            seat = Seat.from_json(raw)
            table.seats[seat.number] = seat
            table._seat_by_player[seat.player] = seat
        table.waiting_list = list(data["waiting_list"])
        table.hand_number = data["hand_number"]
        table.previous_big, table.previous_small, table.previous_button = data["previous"]
        table.rake_total = data["rake_total"]
        table.joined = data["joined"]
        table.first_again = data.get("first_again")  # absent in tables saved before it
        table.deadline, table.warning_at, table.warned, table.extra_given = data["timer"]
        if data["hand"] is not None:
            table.hand_setup = data["hand"]["setup"]
            table.hand_seats = list(table.hand_setup["positions"])
            table.hand = table._build_hand(table.hand_setup)
            for position, kind, amount in data["hand"]["log"]:
                action = Action(ActionKind(kind), amount)
                try:
                    table.hand.apply(action, position)
                except IllegalActionError as error:  # pragma: no cover - a corrupt file
                    raise TableError(f"cannot restore the hand: {error}") from None
                table.hand_log.append(action)
                table.hand_log_positions.append(position)
        return table


def _house_json(house: HouseOptions) -> dict[str, Any]:
    data = asdict(house)
    data["games"] = [f"{v.value}/{s.value}" for v, s in house.games]
    data["seat_choices"] = list(house.seat_choices)
    data["notes"] = list(house.notes)
    return data
