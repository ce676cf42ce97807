"""A cash (or tournament) table: hand after hand, with seats, buy-ins, blinds, sitting out and time.

Pure like the engine: no I/O, no asyncio, no wall clock. Time comes in as
``now`` (seconds on any monotonic clock) on every call, randomness from the
``RandomSource`` given at construction. Every change is a frozen event,
returned by the call that caused it (the caller keeps the log). A table can be
written to JSON at any moment -- between hands or in the middle of one -- and
restored (``table.snapshot``); the hand in progress is rebuilt from its setup and its log
(``Hand.replay``). The turn clock is a ``TurnClock`` (``table.clock``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Final

from pokerroom.cards import FULL_DECK
from pokerroom.engine.actions import Action, ActionKind
from pokerroom.engine.errors import HandError
from pokerroom.engine.events import Event
from pokerroom.engine.hand import Hand, Phase
from pokerroom.engine.setup import ExtraPost, Player
from pokerroom.engine.showdown import shows_automatically
from pokerroom.rng import RandomSource, shuffled_codes
from pokerroom.rules.game import Structure
from pokerroom.rules.house import parse_house
from pokerroom.table.blinds import BlindPlan, clockwise, plan_first_hand, plan_hand, rotate_plan
from pokerroom.table.errors import TableError
from pokerroom.table.events import (
    BlindMissed,
    ButtonDrawn,
    HandFinished,
    HandStarting,
)
from pokerroom.table.seating import SeatedTable
from pokerroom.table.seats import PreAction, Seat, SeatStatus
from pokerroom.table.snapshot import (
    VERSION,
    house_json,
    json_text,
    log_from_json,
    log_json,
    restored_setup,
    setup_json,
    spec_from_json,
    spec_json,
)
from pokerroom.table.waiting import WaitingList

_TIMEOUT: Final = ActionKind.TIMEOUT
_SHOW: Final = Action(ActionKind.SHOW)
_MUCK: Final = Action(ActionKind.MUCK)
_RUN_TWICE: Final = Action(ActionKind.RUN_TWICE)
_ONCE: Final = Action(ActionKind.RUN_ONCE)


class Table(SeatedTable):
    """One cash table under one house's rules."""

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

    # ---------------------------------------------------------------- hands

    def mark_bomb_pot(self, big_blinds: int) -> None:
        """R-BOMB-1: the host makes the next hand a bomb pot of ``big_blinds`` big blinds
        each (0 takes the mark back); the engine checks the amount again as it deals."""
        if big_blinds == 0:
            self.bomb_pot_next = 0
            return
        if not self.house.bomb_pot:
            raise TableError(code="table.no_bomb_pots")
        limit = self.house.max_bomb_pot_bb
        if not isinstance(big_blinds, int) or isinstance(big_blinds, bool):
            raise TableError(code="table.bomb_pot_whole", big_blinds=repr(big_blinds))
        if not 1 <= big_blinds <= limit:
            raise TableError(code="table.bomb_pot_size", big_blinds=big_blinds, limit=limit)
        self.bomb_pot_next = big_blinds

    def straddler(self, plan: BlindPlan) -> int | None:
        """R-STRADDLE-1: the seat that straddles in a planned hand, if any: the player
        directly left of the big blind, with the straddle option on, at least 4 dealt in,
        no missed blinds and no post owed, and chips for the straddle."""
        if not self.house.straddle or self.bomb_pot_next or self.tournament:
            return None
        positions = plan.positions
        if len(positions) < 4 or self.spec.structure is Structure.FIXED_LIMIT:
            return None
        big = positions.index(plan.big_blind_seat)
        if big + 1 >= len(positions) or any(plan.blinds[big + 1 :]):
            return None
        seat = self.seats[positions[big + 1]]
        n = seat.number
        if not seat.straddle or seat.missed_big or seat.missed_small or seat.post_now:
            return None
        if n in plan.live_posts or n in plan.dead_posts:
            return None
        return n if seat.stack >= 2 * self.big_blind else None

    def can_start(self) -> bool:
        if self.hand is not None and not self.hand.is_over:
            return False
        return self.ready_count() >= self.house.min_players

    def ready_count(self) -> int:
        """Seated players able to be dealt in: chips, and neither sitting out nor busted (the
        lobby's "Waiting for players (N of M)": N of ``house.min_players``)."""
        return sum(
            1
            for s in self.seats.values()
            if s.stack > 0 and s.status in (SeatStatus.PLAYING, SeatStatus.WAITING)
        )

    def start_hand(self, now: float, *, deck: Sequence[int] | None = None) -> list[Event]:
        """Deal the next hand if enough players are ready; events say who posts what."""
        if self.hand is not None and not self.hand.is_over:
            raise TableError(code="hand.in_progress")
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
        before: dict[str, Any] = {
            "bomb_pot": self.bomb_pot_next,
            "first": self._fresh_first if plan.fresh else None,
            "previous": [self.previous_big, self.previous_small, self.previous_button],
            "seats": [
                self._obligations(self.seats[n])
                for n in sorted({*plan.positions, *(n for n, _ in plan.missed)})
            ],
        }
        if self.tournament:  # entrants dealt their first hand here: new again if cancelled
            before["arrived"] = [n for n in plan.positions if self.seats[n].arrived]
            for n in before["arrived"]:
                self.seats[n].arrived = False
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
            self._emit(events, BlindMissed(seat=number, blind=blind))
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
        self.hand_before = before
        straddler = self.straddler(plan)  # before the seats' markers change below
        self._emit(
            events,
            HandStarting(
                number=self.hand_number,
                button_seat=plan.button_seat,
                small_blind_seat=plan.small_blind_seat,
                big_blind_seat=plan.big_blind_seat,
                seats=tuple(plan.positions),
                fresh=plan.fresh,
            ),
        )
        self.hand = self._build_hand(
            plan.positions, plan.blinds, posts, deck, straddle=straddler is not None
        )
        self.bomb_pot_next = 0
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
        if self.clock.refill_due(self.hand_number):
            self.clock.refill(self.seats.values())
        # R-DECK-5: the time bank (and time-outs) each player had as the hand began.
        seats = self.seats
        before["clock"] = [
            [n, seats[n].player, seats[n].time_bank, seats[n].timeouts] for n in plan.positions
        ]
        events += self._after_change(now)
        return events

    def _plan(self, events: list[Event]) -> BlindPlan | None:
        """Plan the blinds; a player due a blind with auto-post off sits out instead."""
        small = self.spec.stakes.small_blind
        self._fresh_first = None
        if self._last_plan is not None:
            fast = rotate_plan(self._last_plan, self.seats, self.house.min_players)
            if fast is not None and (
                self.tournament
                or (
                    self.seats[fast.positions[0]].auto_post
                    and self.seats[fast.positions[1]].auto_post
                )
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
            if not refusing or self.tournament:  # a tournament always posts (TDA 71)
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
        self._emit(events, ButtonDrawn(cards=drawn, first_seat=first))
        return first

    def _build_hand(
        self,
        positions: Sequence[int],
        blinds: Sequence[int],
        posts: Sequence[ExtraPost],
        deck: Sequence[int] | None,
        *,
        straddle: bool = False,
    ) -> Hand:
        """Deal a hand to the seats in ``positions`` with their stacks of the moment; a bomb
        pot (R-BOMB-1) takes no blinds, though the blinds move on as if posted."""
        players = []
        made = self._players
        for n in positions:
            stack = self.seats[n].stack
            player = made.get(n)
            name = self.seats[n].name
            if player is None or player.stack != stack or player.name != name:
                made[n] = player = Player(seat=n, stack=stack, name=name)
            players.append(player)
        stakes = self.spec.stakes
        antes: list[int] | None = None
        bomb = self.bomb_pot_next
        if bomb:
            blinds = [0] * len(positions)
        elif stakes.big_blind_ante:
            # TDA RP-11: the big blind is taken before the big-blind ante, so a short big blind
            # posts the blind in full and only what is left of the ante (dead money either way).
            big = max(range(len(blinds)), key=lambda k: (blinds[k], k))
            antes = [stakes.ante] * len(positions)
            left = players[big].stack - blinds[big] - stakes.ante
            antes[big] += max(0, min(stakes.big_blind_ante, left))
        return Hand(
            spec=self.spec,
            players=players,
            house=self.house,
            deck=deck,
            rng=self.rng,
            blinds=blinds,
            antes=antes,
            ante_trimming=antes is None,
            posts=posts,
            # The engine mucks every losing hand it may (the same decision as auto-muck);
            # a player who shows losing hands makes the table decide each showdown in turn.
            auto_showdown=all(self.seats[n].auto_muck for n in positions),
            straddle=straddle,
            bomb_pot=bomb,
        )

    def act(self, player: str, action: Action, now: float) -> list[Event]:
        """A player's action in the hand (the engine checks it; errors change nothing)."""
        seat = self.seat_of(player)
        hand = self.hand
        actor = None if hand is None else hand.actor
        if hand is not None and actor is not None and self.hand_seats[actor] == seat.number:
            position = actor  # the usual case: the player to act acts
        elif hand is None or seat.number not in self.hand_seats:
            raise TableError(code="hand.not_in_hand", seat=seat.number)
        else:
            position = self.hand_seats.index(seat.number)  # the engine says why it may not
        events = hand.apply(action, position)  # the engine refuses illegal actions unchanged
        if seat.timeouts and action.kind is not _TIMEOUT:
            seat.timeouts = 0
        actor = hand.actor
        if actor is not None and hand.betting:  # the usual next turn, inline
            following = self.hand_seats[actor]
            seat = self.seats[following]
            if not (seat.leave_after or seat.pre_action):
                events.append(self.clock.start(following, seat, now))
                return events
        events += self._after_change(now)
        return events

    def _act_for(self, number: int, action: Action) -> list[Event]:
        assert self.hand is not None
        return self.hand.apply(action, self.hand_seats.index(number))

    def _after_change(self, now: float) -> list[Event]:
        """Pre-actions and leavers act at once; a new turn starts a timer; an ended hand settles."""
        events: list[Event] = []
        hand = self.hand
        while hand is not None and hand.actor is not None:
            number = self.hand_seats[hand.actor]
            seat = self.seats[number]
            if not (seat.leave_after or seat.pre_action) and hand.betting:
                events.append(self.clock.start(number, seat, now))
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
            if hand.phase is Phase.RUNOUT:
                # R-RIT-1: a seat that agrees ahead says yes at once, a leaving one no;
                # the others are asked (the clock runs, and no answer is no).
                if seat.run_it_twice or seat.leave_after:
                    events += self._act_for(number, _RUN_TWICE if seat.run_it_twice else _ONCE)
                    continue
                events.append(self.clock.start_prompt(number, seat, now))
                break
            if hand.phase is Phase.SHOWDOWN:
                # R-SHOW-4: a hand that must be shown or can win is shown; a losing hand that
                # may be mucked is mucked for a player with auto-muck on, else shown.
                shows = not seat.auto_muck or shows_automatically(hand, hand.actor)
                events += self._act_for(number, _SHOW if shows else _MUCK)
                continue
            events.append(self.clock.start(number, seat, now))
            break
        if hand is not None and hand.is_over:
            events += self._settle(now)
        return events

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
                number=self.hand_number,
                stacks=tuple([(n, self.seats[n].stack) for n in self.hand_seats]),
                rake=hand.rake,
                cancelled=hand.phase is Phase.CANCELLED,
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
            elif not self.tournament and (seat.sit_out_next or seat.timeouts >= patience):
                seat.sit_out_next = False
                self._set_status(seat, SeatStatus.SITTING_OUT, "sit out", events)
        self.last_hand = hand
        self.hand = None
        self.hand_seats = []
        self.hand_before = None
        self.clock.stop()
        return events

    def cancel_hand(self, reason: str = "server fault") -> list[Event]:
        """R-DECK-5: cancel the hand in progress; every chip goes back, and so does every
        obligation the hand settled: the next hand has the same button, blinds and posts,
        and each player has the time bank they had when it was dealt."""
        if self.hand is None or self.hand.is_over:
            raise TableError(code="hand.none")
        events = self.hand.cancel(reason)
        before = self.hand_before
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
        self.bomb_pot_next = before.get("bomb_pot", 0)  # R-BOMB-1: dealt again as a bomb pot
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
        for number, player, bank, timeouts in before.get("clock", ()):
            seat = self.seats.get(number)
            if seat is not None and seat.player == player:  # a cancelled hand used no time
                seat.time_bank, seat.timeouts = float(bank), int(timeouts)
        for number in before.get("arrived", ()):
            seat = self.seats.get(number)
            if seat is not None:
                seat.arrived = True

    # ---------------------------------------------------------------- time (R-TIME-*)

    def tick(self, now: float) -> list[Event]:
        """Advance the clock: warnings, the time bank, and time-outs by the house rule."""
        events: list[Event] = []
        number = self.actor_seat()
        if number is None:
            return events
        seat = self.seats[number]
        prompt = self.hand is not None and self.hand.phase is Phase.RUNOUT
        if not self.clock.tick(number, seat, now, events, bank=not prompt):
            return events
        if not prompt:
            seat.timeouts += 1  # not answering whether to run it twice is a "no" (R-RIT-1)
        events += self._act_for(number, Action(ActionKind.TIMEOUT))
        return events + self._after_change(now)

    def stand_sat_out(self, now: float) -> list[Event]:
        """Cash out and free each cash-table seat that has sat out the house's
        ``sit_out_seconds``. A seat's time starts when this first sees it sitting out (so
        after a restart, whose clock is another, it starts again then, still limited)."""
        limit = self.house.sit_out_seconds
        events: list[Event] = []
        if self.tournament or limit is None:
            return events
        sitting_out = SeatStatus.SITTING_OUT
        for seat in list(self.seats.values()):
            since = seat.sat_out_at
            if seat.status is not sitting_out or self.in_hand(seat.number):
                seat.sat_out_at = None
            elif since is None or since > now:
                seat.sat_out_at = now
            elif now - since >= limit:
                self._stand(seat, "sat out too long", events)
        return events

    def sit_out_deadline(self) -> float | None:
        """When the first seat sitting out reaches the house's limit (None: none does)."""
        limit = self.house.sit_out_seconds
        if self.tournament or limit is None:
            return None
        times = [s.sat_out_at for s in self.seats.values() if s.sat_out_at is not None]
        return min(times) + limit if times else None

    # ---------------------------------------------------------------- JSON

    def to_json(self) -> str:
        """The whole table, a hand in progress included, as JSON (``table.snapshot``)."""
        spec = self.spec
        hand = self.hand
        data = {
            "version": VERSION,
            "spec": spec_json(spec),
            "house": house_json(self.house),
            "max_seats": self.max_seats,
            "name": self.name,
            "tournament": self.tournament,
            "seats": [s.to_json() for s in self.seats.values()],
            "waiting_list": self.waiting.to_json(),
            "hand_number": self.hand_number,
            "previous": [self.previous_big, self.previous_small, self.previous_button],
            "rake_total": self.rake_total,
            "bomb_pot_next": self.bomb_pot_next,
            "joined": self.joined,
            "first_again": self.first_again,
            "timer": self.clock.to_json(),
            "hand": (
                {
                    "setup": setup_json(hand.setup),
                    "before": self.hand_before,
                    "log": log_json(hand.log),
                }
                if hand is not None and not hand.is_over
                else None
            ),
        }
        return json_text(data)

    @staticmethod
    def from_json(text: str, *, rng: RandomSource | None = None) -> Table:
        """The table ``to_json`` wrote, a hand in progress replayed to where it was."""
        data = json.loads(text)
        spec = spec_from_json(data["spec"])
        house = parse_house(data["house"], data["house"].get("name", "restored"))
        table = Table(
            spec=spec,
            house=house,
            seats=data["max_seats"],
            rng=rng,
            name=data["name"],
            tournament=bool(data.get("tournament", False)),  # absent before tournaments
        )
        for raw in data["seats"]:
            seat = Seat.from_json(raw)
            table.seats[seat.number] = seat
            table._seat_by_player[seat.player] = seat
        table.waiting = WaitingList.from_json(data["waiting_list"])
        table.hand_number = data["hand_number"]
        table.previous_big, table.previous_small, table.previous_button = data["previous"]
        table.rake_total = data["rake_total"]
        table.bomb_pot_next = data.get("bomb_pot_next", 0)  # absent before R-BOMB-1
        table.joined = data["joined"]
        table.first_again = data.get("first_again")  # absent in tables saved before it
        table.clock.restore(data["timer"])
        raw_hand = data["hand"]
        if raw_hand is not None:
            raw_setup = raw_hand["setup"]
            # Before version 2 the cancel record sat inside the setup.
            table.hand_before = raw_hand.get("before", raw_setup.get("before"))
            names = raw_setup.get("names") or [table.seats[n].name for n in raw_setup["positions"]]
            setup = restored_setup(raw_setup, spec, house, names)
            table.hand_seats = list(setup.seats)
            log = log_from_json(raw_hand["log"])
            try:
                table.hand = Hand.replay(setup, log)
            except HandError as error:  # pragma: no cover - a corrupt file
                raise TableError(f"cannot restore the hand: {error}") from None
        return table
