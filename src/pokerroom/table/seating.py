"""A table's seats and money, and the state ``Table`` deals hands from (see ``table``)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from pokerroom.engine.events import Event
from pokerroom.engine.hand import Hand
from pokerroom.engine.setup import Player
from pokerroom.rng import RandomSource
from pokerroom.rules.game import GameSpec, Stakes, Structure
from pokerroom.rules.house import HouseOptions
from pokerroom.table.blinds import BlindPlan
from pokerroom.table.clock import TurnClock
from pokerroom.table.errors import TableError
from pokerroom.table.events import (
    ChipsAdded,
    ConnectionChanged,
    PassedOver,
    SeatLeft,
    SeatOffered,
    SeatStatusChanged,
    SeatTaken,
    WaitingListChanged,
)
from pokerroom.table.seats import PreAction, Seat, SeatStatus
from pokerroom.table.waiting import WaitingList


class SeatedTable:
    """A table's state, and everything about its seats that is not a hand: sitting down
    with a buy-in (R-STAKE-2), adding chips, the waiting list, sitting out and in, the
    players' options, and their connections. ``Table`` deals the hands."""

    def __init__(
        self,
        *,
        spec: GameSpec,
        house: HouseOptions,
        seats: int,
        rng: RandomSource | None = None,
        name: str = "",
        tournament: bool = False,
    ) -> None:
        house.check_table(spec, seats)
        # A tournament table: entrants are seated with their chips and dealt in at
        # once, the stakes follow the levels, and nobody is ever sat out by the room (TDA 71).
        self.tournament = tournament
        self.spec = spec
        self.house = house
        self.max_seats = seats
        self.name = name
        self.rng = rng
        self.seats: dict[int, Seat] = {}
        self._seat_by_player: dict[str, Seat] = {}
        self.waiting = WaitingList()  # offers a freed seat to the first in line
        self.hand: Hand | None = None
        self.last_hand: Hand | None = None  # the hand that ended last (for its history)
        self.hand_number = 0
        self.hand_seats: list[int] = []  # seat of each position in the current hand
        self._last_plan: BlindPlan | None = None  # a cache: the previous_* fields rule
        self._players: dict[int, Player] = {}  # a cache of immutable records, by seat
        # R-DECK-5: what dealing the hand in progress settled, for a cancel to give back.
        self.hand_before: dict[str, Any] | None = None
        self.previous_big: int | None = None
        self.previous_small: int | None = None
        self.previous_button: int | None = None
        self.rake_total = 0
        self.bomb_pot_next = 0  # R-BOMB-1: big blinds each in the next hand (0: none)
        self.joined = 0
        # R-DECK-5: a cancelled first hand's first player and the players it was drawn among:
        # the hand is dealt again from the same button, not from a new draw.
        self.first_again: list[Any] | None = None
        self._fresh_first: list[Any] | None = None  # this plan's, when it is a first hand
        self.clock = TurnClock(house)
        self._min_buy_in = house.min_buy_in_bb * spec.stakes.big_blind  # R-STAKE-2
        self._max_buy_in = house.max_buy_in_bb * spec.stakes.big_blind

    # ---------------------------------------------------------------- queries

    @property
    def deadline(self) -> float | None:
        """When the player to act runs out of time (None: no one is on the clock)."""
        return self.clock.deadline

    @property
    def warning_at(self) -> float | None:
        return self.clock.warning_at

    @property
    def warned(self) -> bool:
        return self.clock.warned

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
            raise TableError(code="seat.not_seated", player=player)
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
        self._check_seat_free(player, seat)
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
        if self.waiting.remove(player):
            self._emit(events, WaitingListChanged(players=tuple(self.waiting.players)))
        self._emit(events, SeatTaken(seat=seat, player=player, name=name or player, stack=buy_in))
        return events

    def seat_entrant(self, player: str, seat: int, stack: int, *, name: str = "") -> list[Event]:
        """Tournament: seat an entrant with their chips, dealt in from the next hand with no
        post (a new entry, a move, a redraw; the coordinator picks the seat, TDA 7, 10, 11),
        except in a seat between that hand's button and small blind: then from the hand
        after, once the button has passed (TDA 8A, 10A)."""
        if not self.tournament:
            raise TableError("only a tournament table seats entrants; a cash table takes a buy-in")
        self._check_seat_free(player, seat)
        _check_chips(stack, "an entrant's chips")
        self.joined += 1
        entrant = Seat(
            number=seat,
            player=player,
            name=name or player,
            stack=stack,
            status=SeatStatus.PLAYING,
            joined=self.joined,
            time_bank=float(self.house.time_bank_seconds),
            paid_blinds=True,  # a tournament owes no blinds for a new seat (TDA 8, 10, 11)
            arrived=True,
        )
        self.seats[seat] = entrant
        self._seat_by_player[player] = entrant
        events: list[Event] = []
        self._emit(events, SeatTaken(seat=seat, player=player, name=entrant.name, stack=stack))
        return events

    def _check_seat_free(self, player: str, seat: int) -> None:
        if not 1 <= seat <= self.max_seats:
            raise TableError(code="seat.no_such", seat=seat, seats=self.max_seats)
        if seat in self.seats:
            raise TableError(code="seat.taken", seat=seat)
        if player in self._seat_by_player:
            raise TableError(code="seat.player_seated", player=player)
        held = self.waiting.reserved_for(seat)
        if held is not None and held != player:
            raise TableError(code="waiting.held", seat=seat)
        if player not in self.waiting and self.waiting.unoffered():
            raise TableError(code="waiting.join_the_list", count=len(self.waiting))

    def remove(self, player: str, reason: str) -> list[Event]:
        """Take a player and their chips off the table between their hands (a tournament move
        or elimination); the chips leave with them (``SeatLeft.stack``)."""
        seat = self.seat_of(player)
        if self.in_hand(seat.number):
            raise TableError(code="seat.in_hand", seat=seat.number)
        events: list[Event] = []
        self._stand(seat, reason, events)
        return events

    def set_stakes(self, stakes: Stakes) -> None:
        """New blinds and antes from the next hand (a tournament level, TDA 23)."""
        if self.hand is not None and not self.hand.is_over:
            raise TableError(code="table.stakes_during_hand")
        if stakes != self.spec.stakes:
            self.spec = replace(self.spec, stakes=stakes)
            self._last_plan = None  # its blinds were the old level's
            self._min_buy_in = self.house.min_buy_in_bb * stakes.big_blind
            self._max_buy_in = self.house.max_buy_in_bb * stakes.big_blind

    def _check_buy_in(self, amount: int, stack: int) -> None:
        if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
            raise TableError(code="chips.not_whole", amount=_shown(amount))
        if stack + amount < self.min_buy_in:
            raise TableError(
                code="chips.below_minimum", amount=amount, total=stack + amount, min=self.min_buy_in
            )
        if stack + amount > self.max_buy_in:
            raise TableError(
                code="chips.above_maximum", amount=amount, total=stack + amount, max=self.max_buy_in
            )

    def add_chips(self, player: str, amount: int) -> list[Event]:
        """Top up or rebuy, only between hands for a player in the hand (R-STAKE-1)."""
        seat = self.seat_of(player)
        if self.in_hand(seat.number):
            raise TableError(code="chips.during_hand", seat=seat.number)
        if not self.tournament:
            self._check_buy_in(amount, seat.stack)
        else:
            _check_chips(amount, "a tournament rebuy")
        events: list[Event] = []
        seat.stack += amount
        self._emit(events, ChipsAdded(seat=seat.number, amount=amount, stack=seat.stack))
        if seat.status is SeatStatus.BUSTED:
            seat.busted_at = None
            seat.status = SeatStatus.PLAYING if seat.paid_blinds else SeatStatus.WAITING
            self._emit(
                events, SeatStatusChanged(seat=seat.number, status=str(seat.status), reason="rebuy")
            )
        return events

    def _stand(self, seat: Seat, reason: str, events: list[Event]) -> None:
        del self.seats[seat.number]
        del self._seat_by_player[seat.player]
        self._emit(
            events, SeatLeft(seat=seat.number, player=seat.player, stack=seat.stack, reason=reason)
        )
        # The freed seat is offered to the first in line by ``offer_seats`` (which the owner
        # of the table calls after every change, with the time).

    # ---------------------------------------------------------------- the waiting list

    def join_waiting_list(self, player: str, now: float, *, name: str = "") -> list[Event]:
        """Join the end of the waiting list (``waiting``); a free seat is offered at once."""
        if self.tournament:
            raise TableError(code="waiting.tournament")
        if player in self._seat_by_player:
            raise TableError(code="seat.player_seated", player=name or player)
        if player in self.waiting:
            raise TableError(code="seat.waiting_already", player=name or player)
        self.waiting.join(player, name)
        events: list[Event] = []
        self._emit(events, WaitingListChanged(players=tuple(self.waiting.players)))
        return events + self.offer_seats(now)

    def leave_waiting_list(self, player: str, now: float) -> list[Event]:
        """Leave the waiting list; a seat held for the player goes to the next in line."""
        if not self.waiting.remove(player):
            raise TableError(code="waiting.not_on_list")
        events: list[Event] = []
        self._emit(events, WaitingListChanged(players=tuple(self.waiting.players)))
        return events + self.offer_seats(now)

    def pass_over(self, player: str, reason: str, now: float) -> list[Event]:
        """Take a player off the list without a seat (the server found they cannot buy in);
        their offered seat goes to the next in line."""
        offer = self.waiting.offers.get(player)
        if not self.waiting.remove(player):
            return []
        events: list[Event] = []
        seat = 0 if offer is None else offer.seat
        self._emit(events, PassedOver(player=player, seat=seat, reason=reason))
        self._emit(events, WaitingListChanged(players=tuple(self.waiting.players)))
        return events + self.offer_seats(now)

    def offer_seats(self, now: float) -> list[Event]:
        """Pass over the players whose offer ran out, then offer each free seat to the next
        in line (``SeatOffered``). Called after every change of the table, with the time."""
        events: list[Event] = []
        waiting = self.waiting
        if not waiting.entries:
            return events
        lapsed = waiting.lapse(now)
        for offer in lapsed:
            reason = "the seat was not taken in time"
            self._emit(events, PassedOver(player=offer.player, seat=offer.seat, reason=reason))
        free = [n for n in range(1, self.max_seats + 1) if n not in self.seats]
        for offer in waiting.offer(free, now):
            self._emit(events, SeatOffered(seat=offer.seat, player=offer.player))
        if lapsed:
            self._emit(events, WaitingListChanged(players=tuple(waiting.players)))
        return events

    def sit_out(self, player: str) -> list[Event]:
        """Sit out (R-SEAT-5): at once between hands, else from the next hand."""
        seat = self.seat_of(player)
        if self.tournament:
            raise TableError(code="seat.no_sit_out", seat=seat.number)
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
        auto_muck: bool | None = None,
        straddle: bool | None = None,
        run_it_twice: bool | None = None,
    ) -> None:
        """The options players expect: auto-post, wait for the big blind, sit out next hand,
        leave after this hand, a pre-action for their next decision, and auto-muck (at a
        showdown, muck a hand that may be mucked and cannot win: R-SHOW-4); where the table
        offers them, straddle when left of the big blind (R-STRADDLE-1) and agree to run it
        twice (R-RIT-1)."""
        seat = self.seat_of(player)
        if straddle:
            if not self.house.straddle:
                raise TableError(code="seat.no_straddle", seat=seat.number)
            if self.spec.structure is Structure.FIXED_LIMIT:
                raise TableError(code="seat.no_straddle_limit", seat=seat.number)
        if run_it_twice and not self.house.run_it_twice:
            raise TableError(code="seat.no_run_it_twice", seat=seat.number)
        if straddle is not None:
            seat.straddle = straddle
        if run_it_twice is not None:
            seat.run_it_twice = run_it_twice
        if auto_muck is not None:
            seat.auto_muck = auto_muck
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
            self._emit(
                events, SeatStatusChanged(seat=seat.number, status=str(status), reason=reason)
            )

    def disconnect(self, player: str, now: float) -> list[Event]:
        seat = self.seat_of(player)
        seat.connected = False
        events: list[Event] = []
        self._emit(events, ConnectionChanged(seat=seat.number, connected=False, extra_seconds=0.0))
        return events

    def reconnect(self, player: str, now: float) -> list[Event]:
        """R-TIME-3: back within their time, the player to act gets a further 20 s."""
        seat = self.seat_of(player)
        seat.connected = True
        extra = self.clock.reconnect(now) if self.actor_seat() == seat.number else 0.0
        events: list[Event] = []
        self._emit(events, ConnectionChanged(seat=seat.number, connected=True, extra_seconds=extra))
        return events


def _check_chips(amount: int, what: str) -> None:
    if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
        raise TableError(f"{what} must be a positive whole number of chips, got {amount!r}")


def _shown(amount: object) -> str | int:
    """A buy-in as its error names it: a whole number as it is, anything else as written."""
    return amount if type(amount) is int else repr(amount)
