"""Long random sessions at one table: joins, leaves, sit-outs, time-outs, disconnects, rebuys.

Invariants, checked throughout:
- chips are conserved: on the table (stacks and pots) + taken off + rake = bought in;
- a player who stays dealt in for a full orbit posts the big blind exactly once in it;
- nobody posts the big blind in two hands in a row;
- the button never goes to a player who has not paid a big blind (R-BLIND-6);
- with three or more dealt in, the button goes to the seat of last hand's small blind;
- writing the table to JSON at a random moment and restoring it changes nothing after;
- a hand deals at least the room's minimum of players (R-SEAT-1: four at the casino).
Sessions run under every preset.

Under R-SEAT-4 `dead` (titan) the small blind is always posted from last hand's big blind
seat, or is dead. Under `moving` (fortune, 001's own procedure) a small blind whose player is
missing moves on: the player due the big blind posts the small blind, the next player dealt
in the big blind (so that player skips one big blind, as 001 allows), and the button follows
to that small blind next hand (001: the player who posted the small blind the hand before
gets the button). Every other invariant holds under both.
"""

import copy
import itertools
import random

import pytest

from pokerroom.engine.events import Event, ForcedBet
from pokerroom.rules import load_preset
from pokerroom.rules.game import Structure, Variant
from pokerroom.table import SeatStatus, Table, TableError
from pokerroom.table.events import ChipsAdded, HandStarting, SeatLeft, SeatTaken
from tests.helpers.tables import BB, make_table, random_policy

SESSIONS = 10
HANDS_PER_SESSION = 500  # 5,000 hands in all


class Ledger:
    """Follows the table's events: money in and out, and the blind history."""

    def __init__(self) -> None:
        self.bought = 0
        self.taken = 0
        self.sittings = 0
        self.sitting: dict[int, str] = {}  # seat -> this sitting (leaving and coming back is new)
        self.hands: list[tuple[HandStarting, dict[int, str]]] = []
        self.paid: set[str] = set()
        self.moved = 0  # hands whose missing small blind moved on (R-SEAT-4 `moving`)

    def feed(self, table: Table, events: list[Event]) -> None:
        for event in events:
            if isinstance(event, SeatTaken):
                self.bought += event.stack
                self.sittings += 1
                self.sitting[event.seat] = f"{event.player}#{self.sittings}"
            elif isinstance(event, ChipsAdded):
                self.bought += event.amount
            elif isinstance(event, SeatLeft):
                self.taken += event.stack
            elif isinstance(event, HandStarting):
                assert len(event.seats) >= table.house.min_players  # R-SEAT-1
                owners = {n: self.sitting[n] for n in event.seats}
                button_player = owners.get(event.button_seat)  # None: a dead button
                if not event.fresh and button_player is not None:
                    assert button_player in self.paid, "the button went to an unpaid player"
                else:
                    self.paid.update(owners.values())
                self.hands.append((event, owners))
            elif isinstance(event, ForcedBet) and event.what in ("big_blind", "live_post"):
                self.paid.add(self.hands[-1][1][self.hands[-1][0].seats[event.position]])

    def check_chips(self, table: Table) -> None:
        assert table.chips_on_table() + self.taken + table.rake_total == self.bought

    def check_moves(self, missed_small_blind: str) -> int:
        """The button and the small blind from one hand to the next; returns how many hands
        moved a missing small blind on (R-SEAT-4 `moving`)."""
        moved = 0
        for (previous, _), (hand, _) in itertools.pairwise(self.hands):
            if hand.fresh or len(hand.seats) < 3 or len(previous.seats) < 3:
                continue
            if previous.small_blind_seat not in (None, hand.small_blind_seat, hand.big_blind_seat):
                # (When the players between them left, last hand's small blind posts a blind
                # now and the button is dead just before the small blind.)
                assert hand.button_seat == previous.small_blind_seat, (previous, hand)
            small = hand.small_blind_seat
            if small is None or small == previous.big_blind_seat:
                continue  # dead, or posted from last hand's big blind seat
            # The small blind moved on: only under `moving`, from the player due the big
            # blind (last hand's big blind is not dealt in), and the next player posts it.
            assert missed_small_blind == "moving", (previous, hand)
            assert previous.big_blind_seat not in hand.seats, (previous, hand)
            assert hand.seats[:2] == (small, hand.big_blind_seat), hand
            moved += 1
        return moved

    def check_blinds(self, share: int = 10) -> None:
        """Blind invariants; at least one hand in ``share`` must close a full orbit."""
        bigs = [
            (e.fresh, owners[e.big_blind_seat], frozenset(owners.values()))
            for e, owners in self.hands
        ]
        for (_, a, _), (fresh, b, _) in itertools.pairwise(bigs):
            assert fresh or a != b, "the same player posted the big blind twice in a row"
        # Runs of hands with the same players dealt in: each posts once every len(run) hands.
        run: list[str] = []
        players: frozenset[str] = frozenset()
        windows = 0
        for fresh, big, dealt in bigs:
            if fresh or dealt != players:
                run, players = [], dealt
            run.append(big)
            k = len(players)
            if len(run) >= k:
                window = run[-k:]
                assert len(set(window)) == k, f"big blinds {window} in an orbit of {k}"
                windows += 1
        assert windows > len(bigs) // share, f"{windows} full orbits in {len(bigs)} hands"


def step(table: Table, rng: random.Random, now: float, names: list[str]) -> list[Event]:
    """One random thing happens at the table."""
    events: list[Event] = []
    before = table.to_json()
    try:
        if table.hand is None:
            roll = rng.random()
            free = [n for n in range(1, table.max_seats + 1) if n not in table.seats]
            seated = list(table.seats.values())
            if roll < 0.08 and free:
                name = rng.choice([n for n in names if all(s.player != n for s in seated)] or ["x"])
                events += table.sit(
                    name,
                    rng.choice(free),
                    rng.randint(table.min_buy_in, table.max_buy_in),
                    post_now=rng.random() < 0.5,
                )
            elif roll < 0.12 and seated:
                events += table.leave(rng.choice(seated).player, now)
            elif roll < 0.16 and seated:
                events += table.sit_out(rng.choice(seated).player)
            elif roll < 0.26 and seated:
                out = [s for s in seated if s.status is SeatStatus.SITTING_OUT]
                if out:
                    events += table.sit_in(rng.choice(out).player, post_now=rng.random() < 0.5)
            elif roll < 0.32 and seated:
                seat = rng.choice(seated)
                room = table.max_buy_in - seat.stack
                if room > 0:
                    floor = max(1, table.min_buy_in - seat.stack)
                    if floor <= room:
                        events += table.add_chips(seat.player, rng.randint(floor, room))
            elif roll < 0.35 and seated:
                table.set_options(rng.choice(seated).player, auto_post=rng.random() < 0.8)
            events += table.start_hand(now)
            return events
        roll = rng.random()
        actor = table.actor_seat()
        assert actor is not None
        if roll < 0.04:
            events += table.tick(now + 100.0)  # the player to act runs out of time
        elif roll < 0.06:
            player = table.seats[actor].player
            events += table.disconnect(player, now) + table.reconnect(player, now + 1.0)
        elif roll < 0.07:
            events += table.leave(rng.choice(list(table.seats.values())).player, now)
        else:
            events += random_policy(table, rng, now)
    except TableError:  # a refused request (a random one may be) changes nothing
        assert table.to_json() == before
    return events


def run_session(seed: int, hands: int = HANDS_PER_SESSION, preset: str = "titan") -> Ledger:
    rng = random.Random(seed)
    names = [f"n{k}" for k in range(14)]
    house = load_preset(preset)
    seats = rng.choice([2, 6, 9] if preset == "titan" else house.seat_choices)
    limit = (Variant.HOLDEM, Structure.NO_LIMIT) not in house.games  # fortune deals limit only
    structure = Structure.FIXED_LIMIT if limit else Structure.NO_LIMIT
    table = make_table(preset, seats=seats, structure=structure, seed=seed)
    ledger = Ledger()
    buy_in = 2 * table.min_buy_in  # 40 big blinds at titan
    first = 3 if preset == "titan" else house.min_players + 2  # casino deals with 4+
    for k in range(min(first, table.max_seats)):
        ledger.feed(table, table.sit(names[k], k + 1, buy_in))
    restore_at = rng.randint(50, 400)
    now = 0.0
    steps = 0
    while table.hand_number < hands and steps < hands * 60:
        steps += 1
        now += 1.0
        if steps == restore_at:
            now = check_restore(table, ledger, rng, now, names)
        events = step(table, rng, now, names)
        ledger.feed(table, events)
        ledger.check_chips(table)
        if len(table.seats) < 2 and table.hand is None:  # keep the table going
            free = [n for n in range(1, table.max_seats + 1) if n not in table.seats]
            taken = {s.player for s in table.seats.values()}
            name = next(n for n in names if n not in taken)
            ledger.feed(table, table.sit(name, free[0], buy_in))
    # At the casino (4 to deal) a player leaving often restarts the table afresh: fewer orbits.
    ledger.check_blinds(share=10 if house.min_players < 4 else 30)
    ledger.moved = ledger.check_moves(table.house.missed_small_blind)
    assert table.hand_number >= hands
    return ledger


def check_restore(
    table: Table, ledger: Ledger, rng: random.Random, now: float, names: list[str]
) -> float:
    """Restored from JSON, the table does exactly what the original does from then on."""
    restored = Table.from_json(table.to_json(), rng=copy.deepcopy(table.rng))
    script = random.Random(rng.random())
    script_copy = copy.deepcopy(script)
    for k in range(200):
        events = step(table, script, now + k, names)
        ledger.feed(table, events)
        ledger.check_chips(table)
        assert step(restored, script_copy, now + k, names) == events
    assert table.to_json() == restored.to_json()
    return now + 200


@pytest.mark.parametrize("seed", range(SESSIONS))
def test_random_sessions_keep_every_invariant(seed: int) -> None:
    run_session(seed)  # R-SEAT-4 `dead`


def test_R_SEAT_4_moving_random_sessions_keep_001s_invariants() -> None:
    moved = sum(run_session(seed, preset="fortune").moved for seed in range(SESSIONS))
    assert moved > 0  # the sessions really met missing small blinds and moved them on


@pytest.mark.parametrize("preset", ["casino", "fortune", "multipoker", "sweden"])
def test_random_sessions_under_every_preset_keep_every_invariant(preset: str) -> None:
    run_session(20, hands=300, preset=preset)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(100, 110))
def test_long_random_sessions_keep_every_invariant(seed: int) -> None:
    run_session(seed, hands=5_000)  # 50,000 hands: make test-all
    run_session(seed, hands=1_000, preset="fortune")


@pytest.mark.parametrize("seats", [6, 9])
def test_the_quick_rotation_plans_what_the_full_planner_plans(seats: int) -> None:
    """Each time the table moves the blinds on by the quick path, the full planner, asked
    the same question, gives the same plan: over quiet stretches and the hands right after
    someone sits out, comes back, leaves, joins or busts."""
    from pokerroom.table import blinds

    checked = []

    def compare(table: Table) -> None:
        """Ask both planners what the table's next hand is, as start_hand would."""
        previous = table._last_plan
        if previous is None:
            return
        quick = blinds.rotate_plan(previous, table.seats, table.house.min_players)
        if quick is not None:
            full = blinds.plan_hand(
                table.seats,
                previous.big_blind_seat,
                previous.small_blind_seat,
                previous.button_seat,
                seats,
                BB // 2,
                BB,
            )
            assert full == quick
            checked.append(quick)

    rng = random.Random(seats)
    table = make_table(seats=seats, players=dict.fromkeys(range(1, seats), 40 * BB), seed=seats)
    now = 0.0
    while table.hand_number < 400:
        now += 1.0
        if table.hand is None:
            roll = rng.random()
            seated = list(table.seats.values())
            if roll < 0.02:
                table.sit_out(rng.choice(seated).player)
            elif roll < 0.08:
                for seat in seated:
                    if seat.status is SeatStatus.SITTING_OUT:
                        table.sit_in(seat.player, post_now=rng.random() < 0.5)
            elif roll < 0.09 and len(seated) > 3:
                table.leave(rng.choice(seated).player, now)
            elif roll < 0.10 and len(seated) < seats:
                free = next(n for n in range(1, seats + 1) if n not in table.seats)
                table.sit(f"x{table.hand_number}", free, 40 * BB)
            for seat in list(table.seats.values()):
                if seat.status is SeatStatus.BUSTED:
                    table.add_chips(seat.player, 40 * BB)
            compare(table)
            table.start_hand(now)
            continue
        random_policy(table, rng, now)
    assert len(checked) > 50  # the quick path was taken, and agreed every time
