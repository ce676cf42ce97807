"""The tournament coordinator: one object above a tournament's tables, pure like
them (no I/O; ``now`` and a ``RandomSource`` come in). It registers entries, seats them at
random (TDA 7), applies each level from the next hand (TDA 23), balances the tables between
hands (TDA 11A), breaks tables in a fixed order with a random redraw (TDA 10B), forms the
final table, plays hand-for-hand near the money, and ranks the eliminated (``places``).

Each table is a real ``pokerroom.table.Table`` in tournament mode: entries are dealt in at
once, absent ones are blinded off, nobody is sat out (TDA 71). A table is addressed by its
number; a player at a table by their entry id (``p7``, a re-entry ``p7#2``).
"""

from __future__ import annotations

from collections.abc import Sequence
from math import ceil
from typing import Any

from pokerroom.engine.actions import Action
from pokerroom.engine.errors import HandError
from pokerroom.rng import RandomSource
from pokerroom.rules.errors import RulesError
from pokerroom.rules.game import GameSpec
from pokerroom.rules.house import HouseOptions
from pokerroom.rules.tournament import TournamentStructure
from pokerroom.table import Table
from pokerroom.table.errors import TableError
from pokerroom.table.events import HandStarting
from pokerroom.tournament import rebuys, results
from pokerroom.tournament.balancing import balance
from pokerroom.tournament.bounties import knockers, share_bounty
from pokerroom.tournament.clock import LevelClock
from pokerroom.tournament.entries import Entry, RebuyOffer, entry_id
from pokerroom.tournament.events import (
    BountyWon,
    Eliminated,
    Finished,
    HandDealt,
    HandDone,
    HandForHand,
    LevelStarted,
    RebuyOffered,
    Registered,
    RegistrationClosed,
    Seated,
    TournamentError,
    Unregistered,
)
from pokerroom.tournament.places import Bust, Place, prizes, satellite_prizes
from pokerroom.tournament.seats import draw_seat, shuffle


class Tournament:
    def __init__(
        self,
        *,
        structure: TournamentStructure,
        house: HouseOptions,
        rng: RandomSource,
        name: str = "",
    ) -> None:
        s = self.structure = structure
        self._specs: dict[int, GameSpec] = {}
        try:
            self.house = house.with_options(
                cash_table=False,  # R-LIM-3: the cap stays heads-up in a tournament
                rake=None,
                missed_small_blind="dead",  # TDA 32: the dead button
                timeout_policy="check_fold",  # TDA 71: an absent player checks or folds
                seat_choices=(s.table_size,),
                min_players=2,
                # A busted seat's rebuy window is the player's decision time: the table shows
                # that countdown and never stands the seat up before the coordinator's offer
                # lapses (no hand is dealt at a table with an offer due, ``_may_deal``).
                rebuy_seconds=house.decision_seconds,
            )
            self.house.check_table(self._spec(0), s.table_size)
        except RulesError as error:
            raise TournamentError(f"{name}: {error}") from None
        self.rng = rng
        self.name = name = name or structure.name
        self.clock = LevelClock(s)
        self.entries: dict[str, Entry] = {}
        self._current: dict[str, str] = {}  # player -> their entry in play
        self._used: dict[str, int] = {}  # player -> entries bought
        self.left = 0  # entries still in
        self.auto_rebuy: set[str] = set()  # entries that rebuy at once when they bust
        self.offers: dict[str, RebuyOffer] = {}  # busted entries deciding whether to rebuy
        self.tables: dict[int, Table] = {}
        self.held: set[int] = set()  # idle tables waiting for a balancing partner
        self.groups: list[list[Bust]] = []  # eliminated, by hand, first out first
        self._group_of: dict[str, int] = {}
        self._hand: dict[int, tuple[str, dict[str, int], dict[str, tuple[int, ...]]]] = {}
        self.level_shown = 0
        self.closed = False  # registration
        self.finished = False
        self.hand_for_hand = False
        self.round = 0
        self._round_dealt: set[int] = set()
        self.rebuys = self.addons = 0
        self.chips_issued = 0
        self.hands = self.moves = self.tables_max = self.max_table_gap = 0
        self.short_hands = 0  # hands dealt at a table two or more players short of the fullest
        self.winner: str | None = None
        self.seat_winners: list[str] = []  # a satellite ended with its seats decided: best first
        self.deal: dict[str, int] | None = None  # entry -> amount, once all agreed
        self.deal_keep = 0
        self.deal_proposed: list[str] | None = None  # asked to agree a deal (the room's)
        self.deals_asked: dict[str, int] = {}  # entry -> the level of their last proposal
        # The room's: entry -> [request key, "rebuy:2" or "addon"], its last purchase.
        self.requests: dict[str, list[str]] = {}
        self.bounties: list[BountyWon] = []  # every bounty paid, in order (the room pays them)
        # A guaranteed prize pool: when registration closes on less, the house adds the
        # difference (the overlay, paid through the room's ledger).
        self.guarantee = 0
        self.overlay = 0

    # ---------------------------------------------------------------- queries

    def _spec(self, level: int) -> GameSpec:
        """The game at ``level`` (0-based), built and checked once a level, not every hand."""
        spec = self._specs.get(level)
        if spec is None:
            s, stakes = self.structure, self.structure.level(level)
            spec = self._specs[level] = self.house.game(
                s.variant,
                s.structure,
                stakes.big_blind,
                small_blind=stakes.small_blind,
                ante=stakes.ante,
                big_blind_ante=stakes.big_blind_ante,
            )
        return spec

    @property
    def started(self) -> bool:
        return self.clock.start is not None

    @property
    def prize_pool(self) -> int:
        s = self.structure
        rebuy = s.rebuy.price if s.rebuy else 0
        addon = s.addon.price if s.addon else 0
        paid = s.pool_share * len(self.entries) + rebuy * self.rebuys + addon * self.addons
        return paid + self.overlay

    @property
    def fees(self) -> int:
        return self.structure.fee * len(self.entries)

    def entries_used(self, player: str) -> int:
        """How many entries the player has bought (the first and any re-entries)."""
        return self._used.get(player, 0)

    def remaining(self) -> list[str]:
        return [e.id for e in self.entries.values() if not e.out]

    def live_tables(self) -> list[int]:
        return sorted(self.tables)

    def table_of(self, entry: str) -> Table:
        e = self.entries.get(entry)
        if e is None:
            raise TournamentError(f"{self.name} has no entry {entry!r}")
        if e.table is None:
            raise TournamentError(f"entry {entry} has no seat in {self.name}")
        return self.tables[e.table]

    def paid_places(self) -> int:
        """The places paid; a satellite's bubble is its last seat (place N + 1 is paid what
        is left over in cash, no seat)."""
        if self.structure.satellite is not None:
            return self.seats()
        return len(self.structure.payout_for(len(self.entries)))

    def seats(self) -> int:
        """A satellite's seats in its target: N = pool // a seat's value (0 otherwise)."""
        rule = self.structure.satellite
        return 0 if rule is None else self.prize_pool // rule.seat

    def seats_decided(self) -> bool:
        """A satellite whose field is final and whose players left all win a seat: it deals
        no more hands, and ends once the hands still in play are over."""
        return self.closed and self.structure.satellite is not None and self.left <= self.seats()

    def chips_in_play(self) -> int:
        return sum(t.chips_on_table() for t in self.tables.values())

    def registration_open(self, now: float) -> bool:
        if self.closed or self.finished:
            return False
        return not self.started or self.clock.late_registration_open(now)

    # ---------------------------------------------------------------- registration

    def register(self, player: str, now: float, *, name: str = "") -> list[Any]:
        """A new entry (before the start, or a late entry or re-entry in late registration);
        the buy-in goes to the prize pool, the fee to the house."""
        s = self.structure
        if not self.registration_open(now):
            raise TournamentError(code="tournament.registration_closed", event=self.name)
        current = self._current.get(player)
        if current is not None and not self.entries[current].out:
            raise TournamentError(
                code="tournament.already_in", player=player, event=self.name, entry=current
            )
        used = self.entries_used(player)
        if used and used > s.re_entries:
            raise TournamentError(
                code="tournament.re_entries_used",
                player=player,
                used=used - 1,
                limit=s.re_entries,
                event=self.name,
            )
        if len(self.entries) >= s.max_entrants:
            raise TournamentError(code="tournament.full", event=self.name, limit=s.max_entrants)
        entry = Entry(
            id=entry_id(player, used + 1),
            player=player,
            number=used + 1,
            name=name,
            bounty=s.bounty_amount,
        )
        self.entries[entry.id] = entry
        self._current[player] = entry.id
        self._used[player] = used + 1
        self.left += 1
        self.chips_issued += s.starting_stack
        events: list[Any] = [Registered(entry.id, player, s.starting_stack, self.started)]
        if self.started:  # TDA 8A: a full stack and a seat from the same draw as everyone
            events += self._seat_late(entry, name or player)
            events += balance(self)
        return events

    def unregister(self, player: str) -> list[Any]:
        """Take an entry back before the start (the room refunds the buy-in and the fee)."""
        entry = self._current.get(player)
        if entry is None:
            raise TournamentError(code="tournament.not_registered", player=player, event=self.name)
        if self.started:
            raise TournamentError(
                code="tournament.cannot_unregister", event=self.name, player=player
            )
        del self.entries[entry], self._current[player]
        self._used[player] -= 1
        self.left -= 1
        self.chips_issued -= self.structure.starting_stack
        self.auto_rebuy.discard(entry)
        return [Unregistered(entry, player)]

    def _seat_late(self, entry: Entry, name: str) -> list[Any]:
        size = self.structure.table_size
        open_tables = [t for t in self.live_tables() if len(self.tables[t].seats) < size]
        if not open_tables:
            number = max(self.tables, default=0) + 1
            self.tables[number] = self._new_table(number)
            open_tables = [number]
        fewest = min(len(self.tables[t].seats) for t in open_tables)
        choice = [t for t in open_tables if len(self.tables[t].seats) == fewest]
        number = choice[self.rng.randbelow(len(choice))]
        seat = draw_seat(self.tables[number], self.rng, posted_big_last=False)
        self.tables[number].seat_entrant(entry.id, seat, self.structure.starting_stack, name=name)
        entry.table = number
        self.tables_max = max(self.tables_max, len(self.tables))
        return [Seated(entry.id, number, seat, "late")]

    def _new_table(self, number: int) -> Table:
        return Table(
            spec=self._spec(self.clock.level_index(self.clock.start or 0.0)),
            house=self.house,
            seats=self.structure.table_size,
            rng=self.rng,
            name=f"{self.name} table {number}",
            tournament=True,
        )

    def start(self, now: float) -> list[Any]:
        """TDA 7: every entry to a random seat; as many tables as needed, within one player."""
        s = self.structure
        if self.started:
            raise TournamentError(code="tournament.started", event=self.name)
        if len(self.entries) < s.min_entrants:
            raise TournamentError(
                f"{self.name} needs {s.min_entrants} entries to start, has {len(self.entries)}"
            )
        self.clock.start = now
        count = ceil(len(self.entries) / s.table_size)
        for number in range(1, count + 1):
            self.tables[number] = self._new_table(number)
        order = list(self.entries)
        shuffle(order, self.rng)
        events: list[Any] = []
        for k, key in enumerate(order):
            entry = self.entries[key]
            number = k % count + 1
            table = self.tables[number]
            seat = draw_seat(table, self.rng, posted_big_last=False)
            table.seat_entrant(entry.id, seat, s.starting_stack, name=entry.name or entry.player)
            entry.table = number
            events.append(Seated(entry.id, number, seat, "draw"))
        self.tables_max = count
        events += self._announce_level(now)
        events += balance(self)
        return events

    # ---------------------------------------------------------------- rebuys and add-on

    def can_rebuy(self, entry: str, now: float) -> bool:
        return rebuys.can_rebuy(self, entry, now)

    def decline_rebuy(self, entry: str, now: float) -> list[Any]:
        """A busted entry refuses the rebuy offered: out, in the hand they busted in."""
        if entry not in self.offers:
            raise TournamentError(code="tournament.no_rebuy_offer", entry=entry, event=self.name)
        return self._eliminate(entry, self.offers.pop(entry)) + self._settle()

    def expire_offers(self, number: int, now: float) -> list[Any]:
        """Rebuy offers at table ``number`` whose time is up: refused."""
        lapsed = [
            entry
            for entry, offer in self.offers.items()
            if offer.until <= now and self.entries[entry].table == number
        ]
        if not lapsed:
            return []
        events = [e for entry in lapsed for e in self._eliminate(entry, self.offers.pop(entry))]
        return events + self._settle()

    def offer_deadline(self, number: int) -> float | None:
        """When the first rebuy offer open at table ``number`` lapses."""
        return min(
            (o.until for entry, o in self.offers.items() if self.entries[entry].table == number),
            default=None,
        )

    def rebuy(self, entry: str, now: float) -> list[Any]:
        return rebuys.rebuy(self, entry, now)

    def withdraw(self, entry: str) -> list[Any]:  # a late entry the room did not store
        return rebuys.withdraw(self, entry)

    def can_addon(self, entry: str, now: float) -> bool:
        return rebuys.can_addon(self, entry, now)

    def addon(self, entry: str, now: float) -> list[Any]:
        return rebuys.addon(self, entry, now)

    # ---------------------------------------------------------------- hands

    def can_start(self, number: int, now: float) -> bool:
        """May table ``number`` deal its next hand now?"""
        if self.finished or not self.started or self.clock.on_break(now):
            return False
        return self._may_deal(number, self.fullest(), now)

    def fullest(self) -> int:
        """The players at the fullest table."""
        return max((len(table.seats) for table in self.tables.values()), default=0)

    def short(self, number: int, fullest: int) -> bool:
        """TDA 11: a table two or more players short of the fullest deals no hand until it is
        balanced (by a move here, or by a breaking table's redraw)."""
        return len(self.tables[number].seats) <= fullest - 2

    def _may_deal(self, number: int, fullest: int, now: float) -> bool:
        table = self.tables.get(number)
        if table is None or table.hand is not None or number in self.held:
            return False
        if self.short(number, fullest) or self.seats_decided():
            return False
        due = self.offer_deadline(number)
        if due is not None and due <= now:  # a lapsed rebuy offer is settled first
            return False
        if sum(1 for seat in table.seats.values() if seat.stack > 0) < 2:
            return False
        if self.hand_for_hand:  # every table deals together; the next round when all are done
            if number in self._round_dealt:
                return False
            return all(self.tables[t].hand is None or t in self._round_dealt for t in self.tables)
        return True

    def startable(self, now: float) -> list[int]:
        """The tables that may deal now."""
        if self.finished or not self.started or self.clock.on_break(now):
            return []
        fullest = self.fullest()
        return [n for n in self.live_tables() if self._may_deal(n, fullest, now)]

    def start_hand(
        self, number: int, now: float, *, deck: Sequence[int] | None = None
    ) -> list[Any]:
        """Deal the next hand at table ``number`` at the level of the moment (TDA 23), from
        ``deck`` when given (the table's verifiable shuffle), else from the table's source."""
        if not self.can_start(number, now):
            raise TournamentError(f"{self.name} table {number} cannot deal now")
        events = self._announce_level(now)
        if not self.closed and not self.clock.late_registration_open(now):
            events += self._close_registration()
        table = self.tables[number]
        table.set_stakes(self._spec(self.clock.level_index(now)).stakes)
        if self.structure.limit_cap_lifts == "heads_up" and self.left == 2:
            # TDA 48: the event is down to two: the engine's uncapped heads-up rule applies.
            table.house = self.house.with_options(heads_up_uncapped=True, cash_table=True)
        gap = self.fullest() - len(table.seats)  # measured at every deal
        dealt = table.start_hand(now, deck=deck)
        events += dealt
        start = next(e for e in dealt if isinstance(e, HandStarting))
        self.hands += 1
        self.max_table_gap = max(self.max_table_gap, gap)
        self.short_hands += gap >= 2
        hand = table.hand if table.hand is not None else table.last_hand  # it may be over
        assert hand is not None
        chips = {table.seats[n].player: hand.starting_stacks[k] for k, n in enumerate(start.seats)}
        size = table.max_seats
        order: dict[str, tuple[int, ...]] = {
            table.seats[n].player: (number, (n - start.button_seat - 1) % size) for n in start.seats
        }
        if self.hand_for_hand:
            self._round_dealt.add(number)
        # A hand's elimination group: the round's when hand for hand, else its own. A table
        # number comes back when a late entry opens a table again, its hands counted anew:
        # a key of a hand over already is never reused.
        key = f"r{self.round}" if self.hand_for_hand else f"t{number}h{table.hand_number}"
        while key in self._group_of and not self.hand_for_hand:
            key += "'"
        self._hand[number] = (key, chips, order)
        big = table.seats[start.big_blind_seat].player
        for entry in chips:
            e = self.entries[entry]
            e.big_blind_last, e.moved = entry == big, False
        rnd = self.round if self.hand_for_hand else None
        events.append(HandDealt(number, self.hands, tuple(chips), big, rnd))
        if table.hand is None:  # over at once (everybody all-in on the blinds)
            events += self._after_hand(number, now)
        return events

    def act(self, entry: str, action: Action, now: float) -> list[Any]:
        """An entry's action at their table; the end of a hand settles busts and moves."""
        table = self.table_of(entry)
        number = self.entries[entry].table
        assert number is not None
        try:
            events: list[Any] = list(table.act(entry, action, now))
        except (TableError, HandError) as error:  # refused: nothing changed
            raise TournamentError(str(error)) from None
        if table.hand is None:
            events += self._after_hand(number, now)
        return events

    def tick(self, now: float) -> list[Any]:
        """Time-outs at every table (an absent player checks or folds, TDA 71)."""
        return [event for number in self.live_tables() for event in self.tick_table(number, now)]

    def tick_table(self, number: int, now: float) -> list[Any]:
        """Time-outs at one table (on a server each table's own task runs its clock)."""
        table = self.tables.get(number)
        if table is None or table.hand is None:
            return []
        events: list[Any] = list(table.tick(now))
        if table.hand is None:
            events += self._after_hand(number, now)
        return events

    def _after_hand(self, number: int, now: float) -> list[Any]:
        table = self.tables[number]
        key, chips, order = self._hand.pop(number)
        busted = [entry for entry in chips if table.seat_of(entry).stack == 0]
        events: list[Any] = [HandDone(number, self.hands, tuple(busted))]
        if self.structure.bounty is not None and table.last_hand is not None:
            for entry in busted:  # (a knockout event has no rebuys: each bust is out)
                weights = knockers(table.last_hand, list(chips), entry)
                events.append(self._pay_bounty(entry, weights, number, table.hand_number))
        if key not in self._group_of:
            self._group_of[key] = len(self.groups)
            self.groups.append([])
        group = self._group_of[key]
        for entry in busted:
            offer = RebuyOffer(now + self.house.decision_seconds, group, chips[entry], order[entry])
            if not self.can_rebuy(entry, now):
                events += self._eliminate(entry, offer)
            elif entry in self.auto_rebuy:
                events += self.rebuy(entry, now)
            else:  # the seat waits, dealt out, for the player's decision
                self.offers[entry] = offer
                events.append(RebuyOffered(entry, offer.until))
        return events + self._settle()

    def _eliminate(self, entry: str, bust: RebuyOffer) -> list[Any]:
        e = self.entries[entry]
        assert e.table is not None
        events: list[Any] = self.tables[e.table].remove(entry, "busted")
        e.out, e.table = True, None
        self.left -= 1
        self.groups[bust.group].append(Bust(entry, bust.chips, bust.order))
        events.append(Eliminated(entry, bust.group, bust.chips))
        return events

    def _settle(self) -> list[Any]:
        """After busts: balance, the hand-for-hand round, the end."""
        events = balance(self)
        if self.hand_for_hand and self._round_over():
            self.round += 1  # every table has dealt this round's hand: the next round
            self._round_dealt = set()
        events += self._update_hand_for_hand()
        idle = all(table.hand is None for table in self.tables.values())
        if self.seats_decided() and idle and self.left > 0 and not self.finished:
            events += self._seats_decided()
        elif self.left == 1:
            left = self.remaining()
            if not self.closed:
                events += self._close_registration()
            self.finished = True
            self.winner = left[0]
            if self.structure.bounty is not None:  # the winner takes their own bounty
                events.append(self._pay_bounty(left[0], [(left[0], 1)], None, None))
            events.append(Finished(left[0]))
        return events

    def _seats_decided(self) -> list[Any]:
        """A satellite's last seat is decided: every player left wins one; the event ends,
        the players left ranked by chips (their places are cosmetic: the seats are equal)."""
        stacks = {
            e: self.tables[self.entries[e].table or 0].seat_of(e).stack for e in self.remaining()
        }
        self.seat_winners = sorted(stacks, key=lambda e: -stacks[e])
        self.finished = True
        self.winner = self.seat_winners[0]
        return [Finished(self.winner)]

    def _pay_bounty(
        self, busted: str, weights: list[tuple[str, int]], table: int | None, hand: int | None
    ) -> BountyWon:
        """``busted``'s bounty to its knockers (``weights``): cash, and on a progressive
        event a part added to each knocker's own bounty (the winner's own is all cash)."""
        rule, e = self.structure.bounty, self.entries[busted]
        assert rule is not None
        own = weights == [(busted, 1)]
        shares = share_bounty(e.bounty, weights, rule.progressive and not own)
        e.bounty = 0
        paid = []
        for share in shares:
            knocker = self.entries[share.entry]
            knocker.bounty += share.added
            knocker.bounties_won += share.cash
            paid.append((share.entry, share.cash, share.added, knocker.bounty))
        won = BountyWon(busted, table, hand, tuple(paid))
        self.bounties.append(won)
        return won

    # ---------------------------------------------------------------- levels and phases

    def _announce_level(self, now: float) -> list[Any]:
        number = self.clock.level_number(now)
        if number <= self.level_shown:
            return []
        self.level_shown = number
        level = self.structure.level(number - 1)
        return [
            LevelStarted(
                number, level.small_blind, level.big_blind, level.ante, level.big_blind_ante
            )
        ]

    def close_registration(self) -> list[Any]:
        """Close registration now, before late registration would end (the director's call,
        or a simulation with no one left to come): the field and the payouts are final."""
        if self.closed:
            raise TournamentError(f"{self.name}: registration is already closed")
        if not self.started:
            raise TournamentError(f"{self.name}: registration closes after the start")
        return self._close_registration()

    def _close_registration(self) -> list[Any]:
        self.closed = True
        self.overlay = max(0, self.guarantee - self.prize_pool)  # the field is final
        final = self.structure.rebuy is None and self.structure.addon is None
        events: list[Any] = [
            RegistrationClosed(len(self.entries), self.prize_pool if final else None)
        ]
        return events + self._update_hand_for_hand()

    def _round_over(self) -> bool:
        """Has every table played this hand-for-hand round's hand, or sat it out (too few
        players, or held for balancing: the round does not wait for a table that cannot
        deal)?"""
        fullest = self.fullest()
        return all(
            table.hand is None
            and (
                n in self._round_dealt
                or n in self.held
                or len(table.seats) < 2
                or self.short(n, fullest)
            )
            for n, table in self.tables.items()
        )

    def _update_hand_for_hand(self) -> list[Any]:
        """Near the money, every table deals hand for hand: busts in one round are at once.
        It ends only when the round ends: a bust that reaches the money while another table
        still plays the round's hand is in the same round as any bust there."""
        on = False
        if self.closed and len(self.tables) > 1:
            left, paid = self.left, self.paid_places()
            on = paid < left <= paid + len(self.tables)
        if on == self.hand_for_hand:
            return []
        if not on and any(table.hand is not None for table in self.tables.values()):
            return []
        self.hand_for_hand = on
        self.round += on
        self._round_dealt = set()
        return [HandForHand(on)]

    def cancel_hands(self) -> list[Any]:
        """R-DECK-5 after a restart: every hand in progress goes back to its start (each
        chip to its owner, the same button and blinds next); nothing it did is settled."""
        return [
            event for number in list(self.tables) for event in self.cancel_hand(number, "restart")
        ]

    def cancel_hand(self, number: int, reason: str) -> list[Any]:
        """R-DECK-5 at one table (a fault there): its hand in progress back to its start."""
        table = self.tables.get(number)
        if table is None or table.hand is None or table.hand.is_over:
            return []
        events: list[Any] = list(table.cancel_hand(reason))
        self._hand.pop(number, None)
        self._round_dealt.discard(number)
        self.hands -= 1
        return events

    # ---------------------------------------------------------------- results

    def places(self) -> list[Place]:
        """Every place from 1 to the number of entries, with its prize (when finished)."""
        return results.places(self)

    def places_so_far(self) -> list[Place]:
        return results.places_so_far(self)

    def prizes(self) -> list[int]:
        """Each paid place's prize, place 1 first (a satellite's: seats, then the rest)."""
        rule = self.structure.satellite
        if rule is not None:
            return satellite_prizes(self.prize_pool, rule.seat)
        return prizes(self.prize_pool, self.structure.payout_for(len(self.entries)))

    def pool_final(self, now: float) -> bool:
        return results.pool_final(self, now)

    def settled_places(self, now: float) -> list[Place]:
        return results.settled_places(self, now)
