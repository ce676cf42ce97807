"""The state of one hand: what ``Hand`` and its rule modules (betting, showdown, award)
read and change. Only the engine writes it; everything else reads ``Hand``'s queries."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from pokerroom.cards import FULL_DECK, Card
from pokerroom.engine.actions import Action
from pokerroom.engine.events import Event
from pokerroom.engine.pots import Pot, build_pots
from pokerroom.engine.setup import ExtraPost, HandSetup, Player
from pokerroom.rules.game import GameSpec, Structure
from pokerroom.rules.house import HouseOptions
from pokerroom.rules.rake import RakeSchedule

STREETS = ("preflop", "flop", "turn", "river")
BOARD_SIZES = (0, 3, 4, 5)


class Phase(StrEnum):
    BETTING = "betting"
    SHOWDOWN = "showdown"
    RUNOUT = "runout"  # R-RIT-1: the players still in are asked whether to run it twice
    COMPLETE = "complete"
    CANCELLED = "cancelled"


class HandState:
    """The fields of a hand by position (0 is left of the button, the button last)."""

    def __init__(
        self,
        *,
        spec: GameSpec,
        house: HouseOptions,
        players: Sequence[Player],
        deck: list[int],
        blinds: tuple[int, ...],
        antes: Sequence[int],
        ante_trimming: bool,
        posts: Sequence[ExtraPost],
        auto_showdown: bool,
        cash_table: bool,
        rake_schedule: RakeSchedule | None,
        settled: HandSetup | None,
        bomb_pot: int = 0,
    ) -> None:
        n = len(players)
        # The setup is built when first asked for (most hands are never replayed); these
        # are its settled parts.
        self._setup = settled
        self._players = players
        self._antes = antes
        self._posts = posts
        self._ante_trimming = ante_trimming
        self._rake_schedule = rake_schedule
        self.spec = spec
        self.house = house
        self.variant = spec.variant
        self._hi_lo = spec.hi_lo
        self._two_plus_three = spec.two_plus_three
        self._show_policy = house.show_policy
        self.structure = spec.structure
        self._fixed_limit = spec.structure is Structure.FIXED_LIMIT
        self._no_limit = spec.structure is Structure.NO_LIMIT
        self.big_blind = spec.stakes.big_blind
        self.auto_showdown = auto_showdown
        self.cash_table = cash_table
        self.bomb_pot = bomb_pot  # R-BOMB-1: big blinds each, 0 in an ordinary hand
        self.n = n
        self.blinds = blinds  # as set, not as posted: a short blind keeps its size
        self.seats = tuple([p.seat for p in players])
        self.names = tuple([p.name for p in players])
        self.starting_stacks = tuple([int(p.stack) for p in players])
        self.stacks = list(self.starting_stacks)
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
        self.deck = deck  # the order dealt from, never changed
        self._next_card = 0
        self.hole: list[list[int]] = [[] for _ in range(n)]
        self.board: list[int] = []
        # R-RIT-1: how many times the board ran, the second board (the cards shared with
        # the first, then its own), and who is still to answer whether to run it twice.
        self.runs = 1
        self.second_board: list[int] = []
        self.runout_voters: list[int] = []
        self.street = 0
        # The phase, and the two questions asked of it at every decision as flags; only
        # _set_phase changes them (``phase`` is read-only outside).
        self._phase = Phase.BETTING
        self._betting = True
        self._over = False
        self.current_bet = 0
        self.last_raise = spec.stakes.big_blind
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
        # Every action applied and the position that took it (see ``log``): two lists, as a
        # pair per action would cost an allocation on every action.
        self._logged_positions: list[int] = []
        self._logged_actions: list[Action] = []

    # ----------------------------------------------------------------- queries

    @property
    def log(self) -> list[tuple[int, Action]]:
        """Every action applied, with the position that took it: with ``setup``, the hand."""
        return list(zip(self._logged_positions, self._logged_actions, strict=True))

    def _record(self, i: int, action: Action) -> None:
        self._logged_positions.append(i)
        self._logged_actions.append(action)

    @property
    def setup(self) -> HandSetup:
        """What the hand was dealt from: with ``log``, the whole hand (``Hand.replay``)."""
        setup = self._setup
        if setup is None:
            setup = self._setup = HandSetup(
                spec=self.spec,
                house=self.house,
                players=tuple(self._players),
                deck=tuple(self.deck),
                blinds=self.blinds,
                antes=tuple(self._antes),
                ante_trimming=self._ante_trimming,
                posts=tuple(self._posts),
                auto_showdown=self.auto_showdown,
                cash_table=self.cash_table,
                bomb_pot=self.bomb_pot,
            )
        return setup

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
                Pot(amount=p.amount, eligible=tuple([i for i in p.eligible if not mucked[i]]))
                for p in self._showdown_pots
            ]
        alive = [not f and not m for f, m in zip(self.folded, self.mucked, strict=True)]
        return build_pots(self.live, sum(self.dead), alive)

    def hole_cards(self, position: int) -> tuple[Card, ...]:
        return tuple([FULL_DECK[c] for c in self.hole[position]])

    def board_cards(self) -> tuple[Card, ...]:
        return tuple([FULL_DECK[c] for c in self.board])

    def second_board_cards(self) -> tuple[Card, ...]:
        """R-RIT-1: the second run's whole board (empty unless the board ran twice)."""
        return tuple([FULL_DECK[c] for c in self.second_board])

    # ----------------------------------------------------------------- shared internals

    def _name(self, who: int | None) -> str:
        return f"seat {self.seats[who]}" if who is not None and 0 <= who < self.n else "nobody"

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

    def _others_can_act(self, i: int) -> bool:
        """Is there anyone else who could answer a raise with more chips (a raise has a point)?"""
        bet, out, bets, stacks = self.current_bet, self.out, self.bets, self.stacks
        return any(j != i and not out[j] and bets[j] + stacks[j] > bet for j in range(self.n))

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

    def _limit_size(self) -> int:
        return self.big_blind if self.street < 2 else 2 * self.big_blind
