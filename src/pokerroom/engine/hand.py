"""One hand of poker as a pure, deterministic state machine.

No I/O, no clock, no global randomness: the same inputs give the same events.
Every change is a frozen event appended to ``events`` and returned by the call
that caused it. An illegal action raises a specific ``IllegalActionError`` and
leaves the hand exactly as it was (every check happens before any change).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from pokerroom.cards import FULL_DECK, Card
from pokerroom.engine.actions import Action, ActionKind, LegalActions, ShowdownChoice
from pokerroom.engine.errors import (
    HandOverError,
    IllegalActionError,
    InvalidAmountError,
    NotYourTurnError,
    SetupError,
)
from pokerroom.engine.events import (
    ActionTaken,
    BoardDealt,
    CardsShown,
    Event,
    ForcedBet,
    HandCancelled,
    HandEnded,
    HandMucked,
    HandStarted,
    HoleCardsDealt,
    PlayerProtected,
    PotAwarded,
    RakeTaken,
    UncalledBetReturned,
)
from pokerroom.engine.pots import Pot, build_pots, split, take_rake
from pokerroom.engine.setup import ExtraPost, Player, check_setup, default_blinds
from pokerroom.engine.showdown import best_high, describe_high, describe_low, low_score
from pokerroom.rng import RandomSource, shuffled_codes
from pokerroom.rules.errors import RulesError
from pokerroom.rules.game import GameSpec, Structure
from pokerroom.rules.house import STANDARD, HouseOptions

STREETS = ("preflop", "flop", "turn", "river")
# (rake schedule, game, big blind) found covered by its schedule: a table asks once, not
# every hand. Schedules are data shipped with the package, loaded once by name.
_COVERED: set[tuple[str, str, int]] = set()
BOARD_SIZES = (0, 3, 4, 5)


class Phase(StrEnum):
    BETTING = "betting"
    SHOWDOWN = "showdown"
    COMPLETE = "complete"
    CANCELLED = "cancelled"


class Hand:
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
    ) -> None:
        n = len(players)
        blinds = tuple(blinds) if blinds is not None else default_blinds(spec, n) if n >= 2 else ()
        stakes = spec.stakes
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
        self._rake_schedule = schedule
        self.spec = spec
        self.house = house
        self.variant = spec.variant
        self._hi_lo = spec.hi_lo
        self._two_plus_three = spec.two_plus_three
        self._show_policy = house.show_policy
        self.structure = spec.structure
        self._fixed_limit = spec.structure is Structure.FIXED_LIMIT
        self._no_limit = spec.structure is Structure.NO_LIMIT
        self.big_blind = stakes.big_blind
        self.auto_showdown = auto_showdown
        self.cash_table = house.cash_table if cash_table is None else cash_table
        self.n = n
        self.blinds = tuple(blinds)  # as set, not as posted: a short blind keeps its size
        self.seats = tuple(p.seat for p in players)
        self.names = tuple(p.name for p in players)
        self.starting_stacks = tuple(p.stack for p in players)
        self.stacks = [p.stack for p in players]
        self.bets = [0] * n
        self.live = [0] * n
        self.dead = [0] * n
        self.folded = [False] * n
        self.all_in = [False] * n
        self.protected = [False] * n
        self.out = [False] * n  # folded, all-in or protected: cannot act any more
        self.mucked = [False] * n
        self.shown = [False] * n
        self.acted = [False] * n
        self.matched_at = [0] * n
        self.deck = order
        self._next_card = 0
        self.hole: list[list[int]] = [[] for _ in range(n)]
        self.board: list[int] = []
        self.street = 0
        # The phase, and the two questions asked of it at every decision as flags; only
        # _set_phase changes them (``phase`` is read-only outside).
        self._phase = Phase.BETTING
        self._betting = True
        self._over = False
        self.current_bet = 0
        self.last_raise = stakes.big_blind
        self.full_level = 0  # fixed limit: the bet the last full bet or raise made (R-LIM-4)
        self.raises = 0
        # R-BLIND-7: the big blind was posted short and nobody has put in the full blind yet.
        self._short_blind = False
        self.aggressor: int | None = None
        self.actor: int | None = None
        self.showdown_order: list[int] = []
        self.rake = 0
        self.winnings = [0] * n
        self._in_pot = 0  # live + dead chips in the middle, kept as it changes
        self._remaining = n  # players who have not folded
        self._bounds_key = (-1, -1)
        self._bounds: tuple[int | None, int | None] = (None, None)
        self._showdown_pots: list[Pot] | None = None
        self._values: dict[int, tuple[int, int]] = {}
        self.events: list[Event] = []

        self._emit(
            HandStarted(
                game=spec.phh_code,
                seats=self.seats,
                stacks=self.starting_stacks,
                button_seat=self.seats[-1],
            )
        )
        for i, ante in enumerate(antes):
            if ante:
                what = "ante" if ante == stakes.ante else "big_blind_ante"
                self._post(i, ante, what, dead=not ante_trimming)
        names = _blind_names(blinds)
        for i, blind in enumerate(blinds):
            if blind:
                self._post(i, blind, names[i], dead=False)
        for post in posts:
            if post.live:
                self._post(post.position, post.live, "live_post", dead=False)
            if post.dead:
                self._post(post.position, post.dead, "dead_post", dead=True)
        # R-BLIND-7: the blinds keep their size even when posted short (all-in): the others
        # call the full blind, and raises are counted from it.
        nominal = max(blinds, default=0)
        self.current_bet = max(max(self.bets), nominal)
        self._short_blind = self.current_bet > max(self.bets)
        self.full_level = self.current_bet
        self.last_raise = max(stakes.big_blind, max(blinds))
        # R-LIM-2: pre-flop the big blind counts as the bet (a straddle as a raise).
        self.raises = sum(1 for name in names if name in ("big_blind", "straddle"))
        self._deal_hole_cards()
        biggest = n - 1  # the largest blind (the later position on a tie) acts last pre-flop
        if any(blinds):
            biggest = 0
            for i in range(1, n):
                if blinds[i] >= blinds[biggest]:
                    biggest = i
        self._start_round((biggest + 1) % n)

    # ----------------------------------------------------------------- queries

    @property
    def button(self) -> int:
        return self.n - 1

    @property
    def street_name(self) -> str:
        return STREETS[self.street]

    @property
    def pot(self) -> int:
        """Every chip in the middle: collected pots, dead money and this round's bets."""
        return self._in_pot

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def is_over(self) -> bool:
        return self._over

    @property
    def betting(self) -> bool:
        """A betting round is on (the phase is BETTING)."""
        return self._betting

    def in_hand(self, position: int) -> bool:
        return not self.folded[position] and not self.mucked[position]

    def pots(self) -> list[Pot]:
        """The pots as they stand (main pot first), bets of the current round included."""
        if self._showdown_pots is not None:  # contributions are final: only mucks change
            mucked = self.mucked
            return [
                Pot(p.amount, tuple([i for i in p.eligible if not mucked[i]]))
                for p in self._showdown_pots
            ]
        alive = [not f and not m for f, m in zip(self.folded, self.mucked, strict=True)]
        return build_pots(self.live, sum(self.dead), alive)

    def hole_cards(self, position: int) -> tuple[Card, ...]:
        return tuple([FULL_DECK[c] for c in self.hole[position]])

    def board_cards(self) -> tuple[Card, ...]:
        return tuple([FULL_DECK[c] for c in self.board])

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
            position=self.actor, seat=self.seats[self.actor], can_muck=self._may_muck(self.actor)
        )

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
            raise HandOverError(f"{name} cannot {verb}: the hand is {self.phase.value}")
        if self.actor is None:
            raise NotYourTurnError(f"{name} cannot {verb}: no one is to act")
        if who != self.actor:
            raise NotYourTurnError(
                f"{name} cannot {verb}: it is seat {self.seats[self.actor]}'s turn"
            )
        i = self.actor
        if self.phase is Phase.SHOWDOWN:
            if kind is ActionKind.SHOW:
                return
            if kind is ActionKind.MUCK:
                if not self._may_muck(i):
                    raise IllegalActionError(f"{name} cannot muck: {self._must_show_reason(i)}")
                return
            raise IllegalActionError(f"{name} cannot {verb} at showdown: show or muck")
        if kind in (ActionKind.SHOW, ActionKind.MUCK):
            raise IllegalActionError(f"{name} cannot {verb}: the {self.street_name} betting is on")
        to_call = self._owed(i)
        if kind is ActionKind.CHECK and to_call > 0:
            raise IllegalActionError(
                f"{name} cannot check: facing a bet of {self.current_bet} (to call: {to_call})"
            )
        if kind is ActionKind.CALL and to_call <= 0:
            raise IllegalActionError(f"{name} cannot call: there is no bet to call (check instead)")
        if kind is ActionKind.BET_OR_RAISE:
            self._verify_raise(i, action.amount, name)

    def _name(self, who: int | None) -> str:
        return f"seat {self.seats[who]}" if who is not None and 0 <= who < self.n else "nobody"

    # ----------------------------------------------------------------- actions

    def apply(self, action: Action, position: int | None = None) -> list[Event]:
        """Apply one action by the player to act (``position`` checks who that is)."""
        self.verify(action, position)
        start = len(self.events)
        i = self.actor
        assert i is not None
        kind = action.kind
        if self.phase is Phase.SHOWDOWN:
            if kind is ActionKind.SHOW:
                self._show(i)
            else:
                self._muck(i)
            self._next_shower()
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
        self._advance(i)
        return self.events[start:]

    def fold(self) -> list[Event]:
        return self.apply(Action(ActionKind.FOLD))

    def check_or_call(self) -> list[Event]:
        return self.apply(Action(ActionKind.CHECK_OR_CALL))

    def bet_or_raise(self, to: int) -> list[Event]:
        return self.apply(Action(ActionKind.BET_OR_RAISE, to))

    def finish_showdown(self) -> list[Event]:
        """Resolve every remaining showdown decision automatically (show if the hand can win)."""
        start = len(self.events)
        while self.phase is Phase.SHOWDOWN and self.actor is not None:
            i = self.actor
            if self._may_muck(i) and not self._can_win(i):
                self._muck(i)
            else:
                self._show(i)
            self._next_shower()
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

    def _set_phase(self, phase: Phase) -> None:
        self._phase = phase
        self._betting = phase is Phase.BETTING
        self._over = phase is Phase.COMPLETE or phase is Phase.CANCELLED

    def _emit(self, event: Event) -> None:
        self.events.append(event)

    def _draw(self) -> int:
        card = self.deck[self._next_card]
        self._next_card += 1
        return card

    def _post(self, i: int, amount: int, what: str, *, dead: bool) -> None:
        paid = min(amount, self.stacks[i])  # R-BLIND-7: post what you have, all-in
        self.stacks[i] -= paid
        self._in_pot += paid
        if dead:
            self.dead[i] += paid
        else:
            self.live[i] += paid
            if what not in ("ante", "big_blind_ante"):  # an ante is in the pot, not the bet
                self.bets[i] += paid
        if self.stacks[i] == 0:
            self.all_in[i] = True
            self.out[i] = True
        self._emit(
            ForcedBet(
                position=i,
                seat=self.seats[i],
                what=what,
                amount=paid,
                dead=dead,
                all_in=self.all_in[i],
            )
        )

    def _deal_hole_cards(self) -> None:
        # R-BTN-3: one card at a time, starting left of the button, the button last.
        for _ in range(self.spec.hole_cards):
            for i in range(self.n):
                self.hole[i].append(self._draw())
        for i in range(self.n):
            self._emit(HoleCardsDealt(position=i, seat=self.seats[i], cards=self.hole_cards(i)))

    def _can_act(self, i: int) -> bool:
        return not self.out[i]

    def _others_can_act(self, i: int) -> bool:
        """Is there anyone else who could answer a raise with more chips (a raise has a point)?"""
        bet, out, bets, stacks = self.current_bet, self.out, self.bets, self.stacks
        return any(j != i and not out[j] and bets[j] + stacks[j] > bet for j in range(self.n))

    def _needs_action(self, i: int) -> bool:
        if self.out[i]:
            return False
        if self.bets[i] < self.current_bet and (not self._short_blind or self._owed(i) > 0):
            return True
        return not self.acted[i] and self._others_can_act(i)

    def _owed(self, i: int) -> int:
        """What player i must put in to call (before the cap of their stack)."""
        owed = self.current_bet - self.bets[i]
        if self._short_blind and owed > 0:
            # R-BLIND-7: the full blind is owed while another player could still put it in;
            # against all-in players alone, only what they have in (more would come back).
            others = [j for j in range(self.n) if j != i and not self.folded[j]]
            if all(self.out[j] for j in others):
                owed = max(0, max([self.bets[j] for j in others], default=0) - self.bets[i])
        return owed

    def _start_round(self, first: int) -> None:
        self.actor = None
        for k in range(self.n):
            i = (first + k) % self.n
            if self._needs_action(i):
                self.actor = i
                return
        self._end_round()

    def _advance(self, last: int) -> None:
        if self._remaining == 1:
            self._end_round()
            return
        n, out, bets, acted, bet = self.n, self.out, self.bets, self.acted, self.current_bet
        for k in range(1, n + 1):
            i = (last + k) % n
            if out[i]:
                continue
            if (bets[i] < bet and (not self._short_blind or self._owed(i) > 0)) or (
                not acted[i] and self._others_can_act(i)
            ):
                self.actor = i
                return
        self._end_round()

    def _limit_size(self) -> int:
        return self.big_blind if self.street < 2 else 2 * self.big_blind

    def _capped(self) -> bool:
        """R-LIM-2: the round has its full number of bets (R-LIM-3: never heads-up at cash)."""
        cap = self.house.raise_cap
        if cap is None or self.raises < cap:
            return False
        if self.house.heads_up_uncapped and self.cash_table:
            return self._remaining > 2  # R-LIM-3
        return True

    def _reopened(self, i: int) -> bool:
        """Fixed limit: may player i raise again? Not after acting, until a full bet or raise
        (or an all-in counted as one, R-LIM-4) has raised the bet past what they matched."""
        return not self.acted[i] or self.full_level > self.matched_at[i]

    def _raise_bounds(self, i: int) -> tuple[int | None, int | None]:
        """Min and max "raise to" for player i, or (None, None) when they may not raise."""
        key = (len(self.events), i)  # every change emits an event: a cheap state version
        if key != self._bounds_key:
            self._bounds = self._compute_raise_bounds(i)
            self._bounds_key = key
        return self._bounds

    def _compute_raise_bounds(self, i: int) -> tuple[int | None, int | None]:
        all_in_to = self.bets[i] + self.stacks[i]
        if all_in_to <= self.current_bet or not self._others_can_act(i):
            return None, None
        if self._fixed_limit:
            # R-ROUND-5, R-LIM-4: a raise goes a full bet over the last full level, which a
            # short all-in does not move: facing an all-in bet of less than half a bet, the
            # next player completes it to the full bet.
            if not self._reopened(i) or self._capped():
                return None, None
            to = min(self.full_level + self._limit_size(), all_in_to)
            return to, to
        # R-ROUND-5, R-NL-2: a player who has acted may raise again only if the bet has
        # risen by at least a full raise since (a short all-in does not reopen).
        if self.acted[i] and self.current_bet - self.matched_at[i] < self.last_raise:
            return None, None
        increment = max(self.last_raise, self.big_blind)
        low = min(self.current_bet + increment, all_in_to)
        if self._no_limit:
            return low, all_in_to
        to_call = self.current_bet - self.bets[i]
        high = self.current_bet + self._pot_basis() + to_call  # R-PL-2
        return low, min(max(high, low), all_in_to)

    def _pot_basis(self) -> int:
        """The pot for the pot-limit maximum (R-PL-3)."""
        if self.house.pl_pot_basis == "all_pots":
            return self.pot
        prior = [self.live[j] - self.bets[j] for j in range(self.n)]
        levels = [prior[j] for j in range(self.n) if self.all_in[j] and not self.folded[j]]
        if not levels or max(levels) == 0:
            return self.pot
        cut = max(levels)  # only the pot still contested above the highest all-in counts
        return sum(max(0, p - cut) for p in prior) + sum(self.bets)

    def _verify_raise(self, i: int, to: int, name: str) -> None:
        verb = "bet" if self.current_bet == 0 else "raise to"
        if not isinstance(to, int) or isinstance(to, bool):
            raise InvalidAmountError(f"{name} cannot {verb} {to!r}: amounts are whole chips")
        low, high = self._raise_bounds(i)
        if low is None or high is None:
            raise IllegalActionError(f"{name} cannot {verb.split()[0]}: {self._no_raise_reason(i)}")
        if to < low:
            raise InvalidAmountError(f"{name} cannot {verb} {to}: minimum is {low}")
        if to > high:
            if self.structure is Structure.FIXED_LIMIT:
                raise InvalidAmountError(f"{name} cannot {verb} {to}: the limit bet is to {high}")
            raise InvalidAmountError(f"{name} cannot {verb} {to}: maximum is {high}")

    def _no_raise_reason(self, i: int) -> str:
        if self.bets[i] + self.stacks[i] <= self.current_bet:
            return f"only {self.stacks[i]} chips left, which does not exceed a call"
        if not self._others_can_act(i):
            return "every other player is all-in"
        if self._fixed_limit and not self._reopened(i):
            # R-LIM-4: only a full bet or raise, or an all-in of at least half a bet, reopens
            return "the betting was not reopened by a full bet or an all-in of half a bet or more"
        if self._fixed_limit and self._capped():
            return f"the betting is capped at {self.house.raise_cap} bets"
        return "the betting was not reopened by a full raise"

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
        self._emit(ActionTaken(i, self.seats[i], "fold", 0, self.bets[i], False, timed_out))

    def _check(self, i: int, *, timed_out: bool) -> None:
        self.acted[i] = True
        self.matched_at[i] = self.current_bet
        self._emit(ActionTaken(i, self.seats[i], "check", 0, self.bets[i], False, timed_out))

    def _call(self, i: int, *, timed_out: bool) -> None:
        amount = min(self._owed(i), self.stacks[i])
        self._commit(i, amount)
        if self._short_blind and self.bets[i] >= self.current_bet:
            self._short_blind = False
        self.acted[i] = True
        self.matched_at[i] = self.current_bet
        self._emit(
            ActionTaken(i, self.seats[i], "call", amount, self.bets[i], self.all_in[i], timed_out)
        )

    def _raise_to(self, i: int, to: int) -> None:
        increment = to - self.current_bet
        verb = "bet" if self.current_bet == 0 else "raise"
        if self._fixed_limit:
            # R-LIM-4: an all-in of at least half a bet over the last full level counts as a
            # full bet or raise (several short all-ins count together once they reach it).
            full = 2 * (to - self.full_level) >= self._limit_size()
        else:
            full = increment >= max(self.last_raise, self.big_blind)
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
        self._emit(ActionTaken(i, self.seats[i], verb, added, to, self.all_in[i]))

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

    def _return_uncalled(self) -> None:
        """R-POT-4: the uncalled part of the largest bet goes back before anything else."""
        bets = self.bets
        top, second = 0, 0  # the largest bet (first such position) and the next largest
        for j in range(1, self.n):
            if bets[j] > bets[top]:
                top = j
        for j in range(self.n):
            if j != top and bets[j] > second:
                second = bets[j]
        excess = bets[top] - second
        if excess > 0:
            self.bets[top] -= excess
            self.live[top] -= excess
            self._in_pot -= excess
            self.stacks[top] += excess
            if self.stacks[top] > 0 and self.all_in[top]:
                self.all_in[top] = False
                self.out[top] = self.folded[top] or self.protected[top]
            self._emit(UncalledBetReturned(top, self.seats[top], excess))

    def _end_round(self) -> None:
        self.actor = None
        self._return_uncalled()
        self.bets = [0] * self.n
        alive = [i for i in range(self.n) if not self.folded[i]]
        if len(alive) == 1:
            self._award()
            return
        able = 0
        for i in alive:
            if not self.out[i]:
                able += 1
        if self.street == 3 or able < 2:
            self._start_showdown()
            return
        self._deal_street()
        self.current_bet = 0
        self.last_raise = self._limit_size() if self._fixed_limit else self.big_blind
        self.full_level = 0
        self._short_blind = False
        self.raises = 0
        self.aggressor = None
        self.acted = [False] * self.n
        self.matched_at = [0] * self.n
        self._start_round(0)

    def _deal_street(self) -> None:
        self.street += 1
        self._draw()  # R-DECK-3: burn one before the flop, the turn and the river
        new = [self._draw() for _ in range(BOARD_SIZES[self.street] - len(self.board))]
        self.board.extend(new)
        self._emit(
            BoardDealt(street=STREETS[self.street], cards=tuple([FULL_DECK[c] for c in new]))
        )

    # ----------------------------------------------------------------- showdown

    def _start_showdown(self) -> None:
        """R-SHOW-4: the last aggressor of the last betting round shows first, else the first
        player left of the button; then clockwise."""
        self._set_phase(Phase.SHOWDOWN)
        in_hand = [not f for f in self.folded]
        self._showdown_pots = build_pots(self.live, sum(self.dead), in_hand)
        alive = [i for i in range(self.n) if not self.folded[i]]
        first = (
            self.aggressor
            if self.aggressor is not None and not self.folded[self.aggressor]
            else alive[0]
        )
        # Clockwise from ``first``: the positions from it on, then those before it.
        self.showdown_order = [i for i in alive if i >= first] + [i for i in alive if i < first]
        self.actor = None
        self._next_shower()

    def _runout(self) -> bool:
        return len(self.board) < 5

    def _must_show_reason(self, i: int) -> str | None:
        if self._show_policy == "all_show":
            return "the house shows every hand at showdown"
        if self.all_in[i] or self.protected[i]:
            return "an all-in hand is always shown"
        if self._runout():
            return "hands are shown before an all-in run-out"
        if self._show_policy == "last_aggressor_must_show" and i == self.aggressor:
            return "the last bettor on the river must show"
        if self._sole_claimant(i):
            return "no other hand is left to contest the pot"
        return None

    def _may_muck(self, i: int) -> bool:
        return self._must_show_reason(i) is None

    def _contested_pots(self, i: int) -> tuple[bool, bool]:
        """(in some pot of i's another hand is live, in some pot of i's none is)."""
        mucked = self.mucked
        some_contested = some_alone = False
        for pot in self._showdown_pots or ():
            if i in pot.eligible:
                if any(j != i and not mucked[j] for j in pot.eligible):
                    some_contested = True
                else:
                    some_alone = True
        return some_contested, some_alone

    def _sole_claimant(self, i: int) -> bool:
        """True when every other live hand in some pot of i's has been mucked."""
        return self._contested_pots(i)[1]

    def _value(self, i: int) -> tuple[int, int]:
        """(high strength, low score) of a hand on the complete board, computed once."""
        value = self._values.get(i)
        if value is None:
            high = best_high(self._two_plus_three, self.hole[i], self.board)
            low = low_score(self.hole[i], self.board) if self._hi_lo else 0
            value = self._values[i] = (high, low)
        return value

    def _can_win(self, i: int) -> bool:
        """Could this hand win or tie any part of a pot against the hands shown so far?"""
        if len(self.board) < 5:
            return True
        mine_high, mine_low = self._value(i)
        shown = self.shown
        for pot in self._showdown_pots or ():
            if i not in pot.eligible:
                continue
            rivals = [self._value(j) for j in pot.eligible if shown[j]]
            if not rivals:
                return True
            if mine_high >= max(v[0] for v in rivals):
                return True
            if mine_low and mine_low >= max(v[1] for v in rivals):
                return True
        return False

    def _next_shower(self) -> None:
        while self.showdown_order:
            i = self.showdown_order[0]
            if self._uncontested(i):  # R-POT-5: nobody left to show against
                self.showdown_order.pop(0)
                continue
            if self.auto_showdown:
                self.showdown_order.pop(0)
                if self._may_muck(i) and not self._can_win(i):
                    self._muck(i)
                else:
                    self._show(i)
                continue
            self.actor = i
            return
        self.actor = None
        while len(self.board) < 5:
            self._deal_street()
        self._award()

    def _uncontested(self, i: int) -> bool:
        """No other hand left in any pot of i's: i wins those without showing (R-POT-5)."""
        return not self._contested_pots(i)[0]

    def _show(self, i: int) -> None:
        if self.showdown_order and self.showdown_order[0] == i:
            self.showdown_order.pop(0)
        self.shown[i] = True
        high = low = ""
        if len(self.board) == 5:
            strength, score = self._value(i)
            high = describe_high(strength)
            low = describe_low(score)
        self._emit(CardsShown(i, self.seats[i], self.hole_cards(i), high, low))

    def _muck(self, i: int) -> None:
        if self.showdown_order and self.showdown_order[0] == i:
            self.showdown_order.pop(0)
        self.mucked[i] = True  # R-SHOW-9: a mucked hand gives up every claim
        self._emit(HandMucked(i, self.seats[i]))

    # ----------------------------------------------------------------- award

    def _rake_for(self, total: int) -> int:
        schedule = self._rake_schedule
        if schedule is None or total == 0:
            return 0
        if self.house.no_flop_no_drop and not self.board:
            return 0  # R-RAKE-1
        return schedule.rake(
            total,
            players=self.n,
            structure=self.structure,
            big_blind=self.big_blind,
            min_rake=self.house.min_rake,
        )

    def _award(self) -> None:
        self._set_phase(Phase.COMPLETE)
        self.actor = None
        pots = self.pots()
        total = sum(p.amount for p in pots)
        self.rake = self._rake_for(total)
        if self.rake:
            self._emit(RakeTaken(amount=self.rake, pot=total))
            pots = take_rake(pots, self.rake)
        strengths: dict[int, tuple[int, int]] = {}
        # R-POT-3: side pots first, from the last created to the main pot.
        for index in range(len(pots) - 1, -1, -1):
            pot = pots[index]
            if pot.amount == 0:
                continue
            contenders = [i for i in pot.eligible if self.in_hand(i)]
            if len(contenders) == 1:
                winner = contenders[0]
                name = self._shown_hand_name(winner) if self.shown[winner] else ""
                self._pay(index, pot.amount, "whole", [winner], name)
                continue
            for i in contenders:
                if i not in strengths:
                    strengths[i] = self._value(i)
            best_high = max(strengths[i][0] for i in contenders)
            high_winners = [i for i in contenders if strengths[i][0] == best_high]
            best_low = max(strengths[i][1] for i in contenders)
            if best_low:  # R-HILO-1; R-HILO-6: the odd chip between halves goes high
                low_winners = [i for i in contenders if strengths[i][1] == best_low]
                low_half = pot.amount // 2
                self._pay(
                    index, pot.amount - low_half, "high", high_winners, describe_high(best_high)
                )
                self._pay(index, low_half, "low", low_winners, describe_low(best_low))
            else:  # R-HILO-5, or a high-only game
                self._pay(index, pot.amount, "whole", high_winners, describe_high(best_high))
        for i in range(self.n):
            self.live[i] = 0
            self.dead[i] = 0
        self._in_pot = 0
        self._emit(HandEnded(stacks=tuple(self.stacks)))

    def _shown_hand_name(self, i: int) -> str:
        strength, score = self._value(i)
        name, low = describe_high(strength), describe_low(score)
        return f"{name}; {low} low" if low else name

    def _pay(self, index: int, amount: int, share: str, winners: list[int], hand: str) -> None:
        shares = split(amount, winners)
        for i, chips in shares:
            self.stacks[i] += chips
            self.winnings[i] += chips
        self._emit(PotAwarded(index, amount, share, tuple(shares), hand))


def _blind_names(blinds: Sequence[int]) -> list[str]:
    """Name each position's blind: small, big, then straddles (heads-up: reversed)."""
    names = [""] * len(blinds)
    posters = [i for i, b in enumerate(blinds) if b]
    if len(blinds) == 2 and len(posters) == 2:
        names[0], names[1] = "big_blind", "small_blind"
        return names
    labels = ["small_blind", "big_blind"] if len(posters) >= 2 else ["big_blind"]
    for n, i in enumerate(posters):
        names[i] = labels[n] if n < len(labels) else "straddle"
    return names
