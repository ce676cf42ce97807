"""One hand of poker as a pure, deterministic state machine.

No I/O, no clock, no global randomness: the same inputs give the same events.
Every change is a frozen event appended to ``events`` and returned by the call
that caused it. An illegal action raises a specific ``IllegalActionError`` and
leaves the hand exactly as it was (every check happens before any change).
The hand keeps its own history: ``setup`` and ``log`` rebuild it (``Hand.replay``).
The rules live beside it by concept: betting bounds (``betting``), the showdown
(``showdown``) and the award (``award``); the fields are ``HandState``'s.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Final

from pokerroom.engine.actions import (
    Action,
    ActionKind,
    LegalActions,
    RunoutChoice,
    ShowdownChoice,
)
from pokerroom.engine.betting import is_full_raise, raise_bounds
from pokerroom.engine.errors import (
    BombPotError,
    HandOverError,
    IllegalActionError,
    InvalidAmountError,
    NotYourTurnError,
    SetupError,
    StraddleError,
)
from pokerroom.engine.events import (
    ActionTaken,
    BombPot,
    Event,
    ForcedBetKind,
    HandCancelled,
    HandStarted,
    Move,
    PlayerProtected,
)
from pokerroom.engine.options import bomb_pot_amount, straddle_blinds
from pokerroom.engine.runout import answer_runout
from pokerroom.engine.setup import ExtraPost, HandSetup, Player, check_setup, default_blinds
from pokerroom.engine.showdown import (
    may_muck,
    muck,
    must_show_reason,
    show,
    shows_automatically,
)
from pokerroom.engine.state import STREETS, HandState, Phase
from pokerroom.engine.streets import (
    advance,
    blind_names,
    counts_as_bet,
    deal_hole_cards,
    end_round,
    next_shower,
    post_forced,
    run_out,
    start_round,
)
from pokerroom.rng import RandomSource, shuffled_codes
from pokerroom.rules.errors import RulesError
from pokerroom.rules.game import GameSpec, Structure
from pokerroom.rules.house import STANDARD, HouseOptions

__all__ = ["STREETS", "Hand", "Phase"]

# (rake schedule, game, big blind) found covered by its schedule: a table asks once, not
# every hand. Schedules are data shipped with the package, loaded once by name.
_COVERED: set[tuple[str, str, int]] = set()
# The moves as compiled constants (an enum member is otherwise looked up on every action).
_FOLD: Final = Move.FOLD
_CHECK: Final = Move.CHECK
_CALL: Final = Move.CALL
_BET: Final = Move.BET
_RAISE: Final = Move.RAISE
_TIMEOUT_KIND: Final = ActionKind.TIMEOUT


class Hand(HandState):
    """A hand from the posts to the last chip awarded.

    >>> from pokerroom.rules.game import GameSpec, Stakes, Structure, Variant
    >>> spec = GameSpec(variant=Variant.HOLDEM, structure=Structure.NO_LIMIT,
    ...                 stakes=Stakes(small_blind=1, big_blind=2))
    >>> hand = Hand(spec=spec, players=[Player(seat=1, stack=200), Player(seat=2, stack=200),
    ...             Player(seat=3, stack=200)], deck=range(52))
    >>> hand.legal_actions().min_raise_to, hand.legal_actions().max_raise_to
    (4, 200)
    >>> _ = hand.apply(Action(ActionKind.FOLD)); _ = hand.apply(Action(ActionKind.FOLD))
    >>> hand.phase, hand.stacks
    (<Phase.COMPLETE: 'complete'>, [201, 199, 200])
    """

    def __init__(
        self,
        *,
        spec: GameSpec,
        players: Sequence[Player],
        house: HouseOptions = STANDARD,
        deck: Sequence[int] | None = None,
        rng: RandomSource | None = None,
        blinds: Sequence[int] | None = None,
        antes: Sequence[int] | None = None,
        ante_trimming: bool = True,
        posts: Sequence[ExtraPost] = (),
        auto_showdown: bool = True,
        cash_table: bool | None = None,
        settled: HandSetup | None = None,
        straddle: bool = False,
        bomb_pot: int = 0,
    ) -> None:
        """Deal a hand; ``settled`` (see ``from_setup``) deals one from a ``HandSetup`` as it
        is, and then ``spec`` and ``players`` are its own. ``straddle``: the player left of
        the big blind straddles (R-STRADDLE-1); ``bomb_pot``: every player puts in that many
        big blinds and play starts on the flop (R-BOMB-1)."""
        n = len(players)
        stakes = spec.stakes
        if settled is not None:
            blinds, antes, posts = settled.blinds, settled.antes, settled.posts
            ante_trimming = settled.ante_trimming
            deck = settled.deck
            bomb_pot = settled.bomb_pot
        elif bomb_pot:
            if straddle:
                raise BombPotError("a bomb pot has no pre-flop betting, so no straddle")
            blinds = (0,) * n if blinds is None else tuple(blinds)
            amount = bomb_pot_amount(spec, house, bomb_pot, blinds, antes or (0,) * n)
            antes, ante_trimming = (amount,) * n, True  # live: a short player is all-in
        else:
            blinds = (
                tuple(blinds) if blinds is not None else default_blinds(spec, n) if n >= 2 else ()
            )
            if straddle:
                if stakes.straddle:
                    raise StraddleError("the stakes already have a forced straddle")
                blinds = straddle_blinds(spec, house, players, blinds, posts)
            if antes is None:
                antes = [stakes.ante] * n
                if stakes.big_blind_ante and n >= 2:
                    antes[0 if n == 2 else 1] += stakes.big_blind_ante
                    ante_trimming = ante_trimming and not stakes.big_blind_ante
        check_setup(spec, players, blinds, antes, posts)
        if deck is None:
            order = shuffled_codes(rng)
        else:
            order = list(deck)
            if sorted(order) != list(range(52)):
                raise SetupError("a deck must be an order of all 52 card codes")

        schedule = house.rake_schedule()
        if schedule is not None and house.rake is not None:  # refused now, not at payout
            covered = (house.rake, spec.phh_code, stakes.big_blind)
            if covered not in _COVERED:
                try:
                    schedule.band_for(spec.structure, stakes.big_blind)
                except RulesError as error:
                    raise SetupError(str(error)) from None
                _COVERED.add(covered)
        # Settled: no default left to apply, so the same setup deals the same hand again.
        super().__init__(
            spec=spec,
            house=house,
            players=players,
            deck=order,
            blinds=blinds,
            antes=antes,
            ante_trimming=ante_trimming,
            posts=posts,
            auto_showdown=settled.auto_showdown if settled else auto_showdown,
            cash_table=(
                settled.cash_table
                if settled
                else house.cash_table
                if cash_table is None
                else cash_table
            ),
            rake_schedule=schedule,
            settled=settled,
            bomb_pot=bomb_pot,
        )
        self._emit(
            HandStarted(
                game=spec.phh_code,
                seats=self.seats,
                stacks=self.starting_stacks,
                button_seat=self.seats[-1],
            )
        )
        if bomb_pot:
            self._emit(BombPot(big_blinds=bomb_pot, amount=bomb_pot * stakes.big_blind))
        for i, ante in enumerate(antes):
            if ante:
                what = (
                    ForcedBetKind.ANTE
                    if ante == stakes.ante or bomb_pot
                    else ForcedBetKind.BIG_BLIND_ANTE
                )
                post_forced(self, i, ante, what, dead=not ante_trimming)
        names = blind_names(blinds)
        for i, blind in enumerate(blinds):
            name = names[i]
            if blind and name is not None:
                post_forced(self, i, blind, name, dead=False)
        for post in posts:
            if post.live:
                post_forced(self, post.position, post.live, ForcedBetKind.LIVE_POST, dead=False)
            if post.dead:
                post_forced(self, post.position, post.dead, ForcedBetKind.DEAD_POST, dead=True)
        # R-BLIND-7: the blinds keep their size even when posted short (all-in): the others
        # call the full blind, and raises are counted from it.
        nominal = max(blinds, default=0)
        self.current_bet = max(max(self.bets), nominal)
        self._short_blind = self.current_bet > max(self.bets)
        self.full_level = self.current_bet
        self.last_raise = max(stakes.big_blind, max(blinds))
        # R-LIM-2: pre-flop the big blind counts as the bet (a straddle as a raise).
        raises = 0
        for name in names:
            raises += counts_as_bet(name)
        self.raises = raises
        deal_hole_cards(self)
        if bomb_pot:  # R-BOMB-1: no pre-flop betting; the flop, from left of the button
            end_round(self)
            return
        biggest = n - 1  # the largest blind (the later position on a tie) acts last pre-flop
        if any(blinds):
            biggest = 0
            for i in range(1, n):
                if blinds[i] >= blinds[biggest]:
                    biggest = i
        start_round(self, (biggest + 1) % n)

    @staticmethod
    def from_setup(setup: HandSetup) -> Hand:
        """The hand a setup deals, before any action."""
        return Hand(spec=setup.spec, players=setup.players, house=setup.house, settled=setup)

    @staticmethod
    def replay(setup: HandSetup, actions: Iterable[tuple[int, Action]]) -> Hand:
        """Rebuild a hand exactly from its setup and its log of (position, action); an
        action the rebuilt hand refuses raises its ``IllegalActionError``."""
        replayed: Hand | None = None
        for step in Hand.steps(setup, actions):
            replayed = step
        assert replayed is not None  # the hand as dealt comes first
        return replayed

    @staticmethod
    def steps(setup: HandSetup, actions: Iterable[tuple[int, Action]]) -> Iterator[Hand]:
        """The one replay: the hand as ``setup`` deals it, then after each action of the log
        in turn (the same object each time, changed). ``actions`` is read one at a time, after
        the hand before it is yielded, so a reader of another format (PHH) may look at the
        hand to decide what its next line means."""
        hand = Hand.from_setup(setup)
        yield hand
        for position, action in actions:
            hand.apply(action, position)
            yield hand

    # ----------------------------------------------------------------- queries

    def legal_actions(self) -> LegalActions | None:
        """The choices of the player to act, or None when no one is to act in a betting round."""
        if not self._betting or self.actor is None:
            return None
        i = self.actor
        to_call = min(self._owed(i), self.stacks[i])
        low, high = self._raise_bounds(i)
        return LegalActions(
            position=i,
            seat=self.seats[i],
            can_fold=True,
            can_check=to_call == 0,
            call_amount=to_call,
            call_all_in=to_call > 0 and to_call == self.stacks[i],
            min_raise_to=low,
            max_raise_to=high,
            is_bet=self.current_bet == 0,
            current_bet=self.current_bet,
            pot=self.pot,
        )

    def showdown_choice(self) -> ShowdownChoice | None:
        """At showdown: who is to show or muck, and whether they may muck."""
        if self.phase is not Phase.SHOWDOWN or self.actor is None:
            return None
        return ShowdownChoice(
            position=self.actor, seat=self.seats[self.actor], can_muck=may_muck(self, self.actor)
        )

    def runout_choice(self) -> RunoutChoice | None:
        """R-RIT-1: who is to answer whether to run the rest of the board twice."""
        if self.phase is not Phase.RUNOUT or self.actor is None:
            return None
        return RunoutChoice(position=self.actor, seat=self.seats[self.actor])

    def can_apply(self, action: Action, position: int | None = None) -> bool:
        try:
            self.verify(action, position)
        except IllegalActionError:
            return False
        return True

    def verify(self, action: Action, position: int | None = None) -> None:
        """Raise the specific IllegalActionError that ``apply`` would raise; change nothing."""
        who = self.actor if position is None else position
        kind = action.kind
        if self._betting and who == self.actor is not None:
            # The common case first; messages are only formatted for errors.
            if kind is ActionKind.CHECK_OR_CALL or kind is ActionKind.FOLD:
                return
            if kind is ActionKind.TIMEOUT:
                return
            if kind is ActionKind.BET_OR_RAISE and who is not None:
                low, high = self._raise_bounds(who)
                if low is not None and high is not None and low <= action.amount <= high:
                    return
        name = self._name(who)
        verb = kind.value.replace("_", " ")
        if self.is_over:
            raise HandOverError(code="hand.over", name=name, action=verb, phase=self.phase.value)
        if self.actor is None:
            raise NotYourTurnError(code="hand.no_one_to_act", name=name, action=verb)
        if who != self.actor:
            raise NotYourTurnError(
                code="hand.not_your_turn", name=name, action=verb, seat=self.seats[self.actor]
            )
        i = self.actor
        runout = kind is ActionKind.RUN_TWICE or kind is ActionKind.RUN_ONCE
        if self.phase is Phase.RUNOUT:
            if runout or kind is ActionKind.TIMEOUT:
                return
            raise IllegalActionError(code="hand.runout_asked", name=name, action=verb)
        if runout:
            raise IllegalActionError(code="hand.no_runout", name=name, action=verb)
        if self.phase is Phase.SHOWDOWN:
            if kind is ActionKind.SHOW:
                return
            if kind is ActionKind.MUCK:
                if not may_muck(self, i):
                    raise IllegalActionError(
                        code="hand.cannot_muck", name=name, reason=str(must_show_reason(self, i))
                    )
                return
            raise IllegalActionError(code="hand.showdown", name=name, action=verb)
        if kind in (ActionKind.SHOW, ActionKind.MUCK):
            raise IllegalActionError(
                code="hand.betting", name=name, action=verb, street=self.street_name
            )
        to_call = self._owed(i)
        if kind is ActionKind.CHECK and to_call > 0:
            raise IllegalActionError(
                code="hand.cannot_check", name=name, bet=self.current_bet, call=to_call
            )
        if kind is ActionKind.CALL and to_call <= 0:
            raise IllegalActionError(code="hand.nothing_to_call", name=name)
        if kind is ActionKind.BET_OR_RAISE:
            self._verify_raise(i, action.amount, name)

    # ----------------------------------------------------------------- actions

    def apply(self, action: Action, position: int | None = None) -> list[Event]:
        """Apply one action by the player to act (``position`` checks who that is)."""
        self.verify(action, position)
        start = len(self.events)
        i = self.actor
        assert i is not None
        kind = action.kind
        if not self._betting:
            self._record(i, action)
            if self.phase is Phase.RUNOUT:  # R-RIT-1: a time-out is no
                agreed = kind is ActionKind.RUN_TWICE
                if answer_runout(self, i, agreed=agreed, timed_out=kind is _TIMEOUT_KIND):
                    run_out(self)
            else:
                if kind is ActionKind.SHOW:
                    show(self, i)
                else:
                    muck(self, i)
                next_shower(self)
            return self.events[start:]
        if kind is ActionKind.TIMEOUT:
            self._timeout(i)
        elif kind is ActionKind.FOLD:
            self._fold(i, timed_out=False)
        elif kind is ActionKind.BET_OR_RAISE:
            self._raise_to(i, action.amount)
        elif self._owed(i) > 0:
            if kind is ActionKind.CHECK:  # pragma: no cover - verify() refused it
                raise AssertionError
            self._call(i, timed_out=False)
        else:
            self._check(i, timed_out=False)
        self._record(i, action)
        advance(self, i)
        return self.events[start:]

    def fold(self) -> list[Event]:
        return self.apply(Action(ActionKind.FOLD))

    def check_or_call(self) -> list[Event]:
        return self.apply(Action(ActionKind.CHECK_OR_CALL))

    def bet_or_raise(self, to: int) -> list[Event]:
        return self.apply(Action(ActionKind.BET_OR_RAISE, amount=to))

    def finish_showdown(self) -> list[Event]:
        """Resolve every remaining showdown decision automatically (show if the hand can win)."""
        start = len(self.events)
        while self.phase is Phase.SHOWDOWN and self.actor is not None:
            i = self.actor
            # Logged as the action it stands for: a replay of the log needs no second rule.
            if shows_automatically(self, i):
                show(self, i)
                self._record(i, Action(ActionKind.SHOW))
            else:
                muck(self, i)
                self._record(i, Action(ActionKind.MUCK))
            next_shower(self)
        return self.events[start:]

    def cancel(self, reason: str = "server fault") -> list[Event]:
        """R-DECK-5: cancel the hand; every chip committed to it goes back to its owner."""
        if self.is_over:
            raise HandOverError(f"cannot cancel: the hand is {self.phase.value}")
        start = len(self.events)
        refunds = [self.live[i] + self.dead[i] for i in range(self.n)]
        for i, refund in enumerate(refunds):
            self.stacks[i] += refund
        self.live = [0] * self.n
        self.dead = [0] * self.n
        self.bets = [0] * self.n
        self._in_pot = 0
        self._set_phase(Phase.CANCELLED)
        self.actor = None
        self._emit(HandCancelled(refunds=tuple(refunds), stacks=tuple(self.stacks), reason=reason))
        return self.events[start:]

    # ----------------------------------------------------------------- internals

    def _raise_bounds(self, i: int) -> tuple[int | None, int | None]:
        """Min and max "raise to" for player i, or (None, None) when they may not raise."""
        key = (len(self.events), i)  # every change emits an event: a cheap state version
        if key != self._bounds_key:
            low, high, _ = raise_bounds(self, i)
            self._bounds = (low, high)
            self._bounds_key = key
        return self._bounds

    def _verify_raise(self, i: int, to: int, name: str) -> None:
        verb = "bet" if self.current_bet == 0 else "raise to"
        if not isinstance(to, int) or isinstance(to, bool):
            raise InvalidAmountError(
                code="hand.whole_chips", name=name, action=verb, amount=repr(to)
            )
        low, high, why = raise_bounds(self, i)
        if low is None or high is None:
            raise IllegalActionError(
                code="hand.cannot_raise", name=name, action=verb.split()[0], reason=why
            )
        if to < low:
            raise InvalidAmountError(
                code="hand.below_minimum", name=name, action=verb, amount=to, min=low
            )
        if to > high:
            if self.structure is Structure.FIXED_LIMIT:
                raise InvalidAmountError(
                    code="hand.limit", name=name, action=verb, amount=to, max=high
                )
            raise InvalidAmountError(
                code="hand.above_maximum", name=name, action=verb, amount=to, max=high
            )

    def _no_raise_reason(self, i: int) -> str:
        """Why player i may not bet or raise ("" when they may)."""
        return raise_bounds(self, i)[2]

    def _commit(self, i: int, amount: int) -> None:
        self._in_pot += amount
        self.stacks[i] -= amount
        self.bets[i] += amount
        self.live[i] += amount
        if self.stacks[i] == 0:
            self.all_in[i] = True
            self.out[i] = True

    def _fold(self, i: int, *, timed_out: bool) -> None:
        self.folded[i] = True
        self.out[i] = True
        self._remaining -= 1
        self.acted[i] = True
        self._emit(_taken(i, self.seats[i], _FOLD, 0, self.bets[i], False, timed_out))

    def _check(self, i: int, *, timed_out: bool) -> None:
        self.acted[i] = True
        self.matched_at[i] = self.current_bet
        self._emit(_taken(i, self.seats[i], _CHECK, 0, self.bets[i], False, timed_out))

    def _call(self, i: int, *, timed_out: bool) -> None:
        amount = min(self._owed(i), self.stacks[i])
        self._commit(i, amount)
        if self._short_blind and self.bets[i] >= self.current_bet:
            self._short_blind = False
        self.acted[i] = True
        self.matched_at[i] = self.current_bet
        self._emit(_taken(i, self.seats[i], _CALL, amount, self.bets[i], self.all_in[i], timed_out))

    def _raise_to(self, i: int, to: int) -> None:
        increment = to - self.current_bet
        move = _BET if self.current_bet == 0 else _RAISE
        full = is_full_raise(self, to)
        added = to - self.bets[i]
        self._commit(i, added)
        self._short_blind = False
        if full:  # only a full bet or raise reopens the betting and counts to the cap
            self.last_raise = self._limit_size() if self._fixed_limit else increment
            self.full_level = to
            self.raises += 1
        self.current_bet = to
        self.acted[i] = True
        self.matched_at[i] = to
        self.aggressor = i
        self._emit(_taken(i, self.seats[i], move, added, to, self.all_in[i], False))

    def _timeout(self, i: int) -> None:
        """R-TIME-2: by the house's timeout policy."""
        to_call = self._owed(i)
        if self.house.timeout_policy == "check_fold":
            if to_call > 0:
                self._fold(i, timed_out=True)
            else:
                self._check(i, timed_out=True)
            return
        if self.live[i] + self.dead[i] == 0:
            self._fold(i, timed_out=True)
            return
        self.protected[i] = True
        self.out[i] = True
        self.acted[i] = True
        self._emit(PlayerProtected(position=i, seat=self.seats[i]))


def _taken(
    i: int, seat: int, move: Move, added: int, to: int, all_in: bool, timed_out: bool
) -> ActionTaken:
    return ActionTaken(
        position=i, seat=seat, action=move, added=added, to=to, all_in=all_in, timed_out=timed_out
    )
