"""A multi-table tournament on two nodes, in one process: node ``ta`` runs the
event (its lease, its coordinator and every table of it) and the players play it through
node ``tb``, which runs none of it (a node with leases of its own, or one that holds
sockets only). Bots over the real protocol: they register through their
node (forwarded to the owner), play at whichever table the event seats them and follow the
``moved`` notice to their new table when tables are balanced or broken, all through ``tb``
(the frames of the new table reach them there, and their actions reach the owner); a
player's chips go with them to the new seat. The prizes are paid once and the books balance
(S-AUDIT-2). Then the owner dies mid-event: ``tb`` adopts it once the lease runs out, every
player keeps the chips they had when the hands in progress began (R-DECK-5), and the event
is played to the end on ``tb``. Redis database 6 (test_nodes_tournaments.py's fixtures)."""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from sqlalchemy import func, select

from pokerroom.bots.strategy import Situation
from pokerroom.bots.tournament import run_tournament_bot
from pokerroom.engine.actions import Action, ActionKind
from pokerroom.server.sockets.protocol import TournamentNotice
from pokerroom.server.tournaments.runner import TournamentRunner
from pokerroom.store.db import Database
from pokerroom.store.models import HandPlayer, HandRecord, Transfer
from pokerroom.tournament.events import Moved
from tests.helpers.node_tournaments import STEADY, books, die, steady, two_nodes
from tests.helpers.nodes import Node, stop_node
from tests.helpers.waiting import WAIT, eventually

pytestmark = pytest.mark.postgres
__all__ = ["steady"]  # the fixture
ENTRANTS = 12  # two tables of six: busts at one make moves to balance, then a break
STRUCTURE = "mtt_turbo6"
PLAY_SECONDS = 240.0  # bounded: the event takes well under a minute on a quiet machine


class Shover:
    """All in with a share of its turns, else check or call (a shove: called now and
    then): a field that busts within a minute, one or two at a time, through moves.
    ``gate`` cleared: it waits before deciding (the hands stand)."""

    name = "shover"

    def __init__(self, seed: int, gate: threading.Event, share: float) -> None:
        self.rng, self.gate, self.share = random.Random(seed), gate, share
        self.table: str | None = None  # the table of the frame being answered
        self.decided_at: list[str] = []  # the table of each decision

    def decide(self, situation: Situation) -> Action:
        self.gate.wait(WAIT)
        assert self.table is not None
        self.decided_at.append(self.table)
        legal, roll = situation.legal, self.rng.random()
        if legal.can_raise and legal.max_raise_to is not None and roll < self.share:
            return Action(ActionKind.BET_OR_RAISE, legal.max_raise_to)
        if legal.call_amount > 10 * situation.big_blind and roll > 0.3:
            return Action(ActionKind.FOLD)  # most fold to a shove: busts come one by one
        return Action(ActionKind.CHECK_OR_CALL)


@dataclass
class Bot:
    name: str
    node: Node
    strategy: Shover
    frames: list[dict[str, Any]] = field(default_factory=list)

    def on_frame(self, frame: dict[str, Any]) -> None:
        self.frames.append(frame)
        if frame.get("type") == "table":
            self.strategy.table = frame["table"]

    def account(self) -> int:
        return int(next(f["account"] for f in self.frames if f.get("type") == "hello"))

    def moves(self) -> list[tuple[str | None, str, int | None, bool]]:
        """Each ``moved`` notice as this bot's client saw it: (the table it left, the table
        it was moved to, its chips at the first frame seen there, whether it never sat at
        the table it left again). The notice and the new table's frames come on different
        channels, in no order between them: the frame is looked for between the moves
        before and after this one."""
        notices = [
            i
            for i, f in enumerate(self.frames)
            if f.get("type") == "tournament" and f["kind"] == "moved"
        ]
        found = []
        for k, i in enumerate(notices):
            to = self.frames[i]["table"]
            after = notices[k + 1] if k + 1 < len(notices) else None
            window = self.frames[notices[k - 1] if k else 0 : after]
            earlier = [f for f in self.frames[:i] if seated(f) and f["table"] != to]
            came = [f for f in window if seated(f) and f["table"] == to]
            left = earlier[-1]["table"] if earlier else None
            later = self.frames[after:] if after is not None else []
            last = not any(seated(f) and f["table"] == left for f in later)
            found.append((left, to, stack(came[0]) if came else None, last))
        return found


@pytest.fixture(params=["leased", "sockets-only"])
async def owner_and_other(request: pytest.FixtureRequest) -> AsyncIterator[tuple[Node, Node]]:
    """The event's node and another: a node with leases of its own, or one that holds
    sockets only (``--sockets-only``: no lease pass reads the events for it)."""
    async with two_nodes(STEADY, sockets_only=request.param == "sockets-only") as started:
        yield started


def seated(frame: dict[str, Any]) -> bool:
    return frame.get("type") == "table" and frame.get("you") is not None


def stack(frame: dict[str, Any]) -> int:
    """The seat's chips, its bet in front of it included (a blind it posted at once at its
    new table: it has not acted there before its client sees the table)."""
    seat = next(s for s in frame["seats"] if s["seat"] == frame["you"])
    return int(seat["stack"]) + int(seat.get("bet") or 0)


def watch_moves(runner: TournamentRunner) -> list[Moved]:
    """Every move the coordinator makes (balance or break), as it makes them."""
    moves: list[Moved] = []
    original = runner.after

    def after(events: list[Any]) -> None:
        moves.extend(e for e in events if isinstance(e, Moved))
        original(events)

    runner.after = after  # type: ignore[method-assign]
    return moves


async def field_of(
    runner: TournamentRunner, bots: list[Bot]
) -> list[asyncio.Task[TournamentNotice]]:
    """The bots register through their nodes and play; the event starts once all are in."""
    tasks = [
        asyncio.create_task(
            run_tournament_bot(
                bot.node.base,
                bot.name,
                bot.strategy,
                tournament=runner.id,
                on_frame=bot.on_frame,
            )
        )
        for bot in bots
    ]
    failed = lambda: [t for t in tasks if t.done()]  # noqa: E731 (a registration refused)
    await eventually(lambda: len(runner.t.entries) == len(bots) or failed(), "every bot registered")
    for task in failed():
        task.result()
    runner.starts_at = runner.now()
    await runner.maybe_start()
    assert len(runner.t.tables) == 2
    return tasks


async def prizes(url: str, tournament: str) -> list[int]:
    """How many times each prize was paid (one transfer per place paid)."""
    db = Database(url)
    try:
        async with db.transaction() as session:
            rows = await session.execute(
                select(Transfer.idempotency_key, func.count())
                .where(Transfer.idempotency_key.startswith(f"t:{tournament}:prize:"))
                .group_by(Transfer.idempotency_key)
            )
            return [int(n) for _, n in rows]
    finally:
        await db.close()


async def last_stack(url: str, account: int, table: str) -> int | None:
    """The chips the account's last hand at ``table`` ended with (None: it played none)."""
    db = Database(url)
    try:
        async with db.transaction() as session:
            found = await session.scalar(
                select(HandPlayer.end_stack)
                .join(HandRecord, HandRecord.id == HandPlayer.hand_id)
                .where(HandRecord.table_id == table, HandPlayer.account_id == account)
                .where(HandRecord.status == "complete")
                .order_by(HandRecord.number.desc())
                .limit(1)
            )
            return None if found is None else int(found)
    finally:
        await db.close()


async def played_out(
    runner: TournamentRunner, tasks: list[asyncio.Task[TournamentNotice]], url: str
) -> None:
    """The bots play the event to the end: every place once, the pool paid out exactly,
    each prize once (players out in the same hand share their places' prizes)."""
    try:
        async with asyncio.timeout(PLAY_SECONDS):
            places = await asyncio.gather(*tasks)
    finally:
        for task in tasks:
            task.cancel()
    assert runner.t.finished
    assert sorted(p.place for p in places if p.place is not None) == list(range(1, ENTRANTS + 1))
    paid = [p.prize for p in places if p.prize]
    assert sum(paid) == runner.t.prize_pool == ENTRANTS * runner.t.structure.buy_in
    assert len(paid) >= len(runner.t.structure.payout_for(ENTRANTS))
    await eventually(lambda: runner.paid, "the places are final")
    assert await prizes(url, runner.id) == [1] * len(paid)


async def test_players_on_a_node_that_does_not_run_the_event_follow_its_moves(
    owner_and_other: tuple[Node, Node],
) -> None:
    a, b = owner_and_other
    runner = await a.app.state.tournaments.create(STRUCTURE)
    moves = watch_moves(runner)
    go = threading.Event()
    go.set()
    bots = [  # all through b, the socket node
        Bot(f"bot{k}", b, Shover(k, go, share=0.1)) for k in range(ENTRANTS)
    ]
    await played_out(runner, await field_of(runner, bots), a.database)

    assert any(m.reason == "break" for m in moves), moves  # two tables became one
    through_b = [(bot, m) for bot in bots for m in bot.moves()]
    assert through_b, "no bot on b was moved"
    checked = 0
    for bot, (left, to, chips, last) in through_b:
        # Its client, on b, got the new table's frames with its seat, and its chips with
        # it: those its last hand at the old table ended with (as stored), if it played one
        # (and never sat there again, so that its last hand there is the one before).
        assert left is not None and left != to and chips is not None, (bot.name, left, to)
        ended = await last_stack(a.database, bot.account(), left) if last else None
        assert ended is None or chips == ended, (bot.name, left, to, ended, chips)
        checked += ended is not None
    assert checked
    # ... and played there: its decisions at the new table reached the owner (the hand went
    # on with its action, none refused).
    assert any(to in bot.strategy.decided_at for bot, (_, to, _, _) in through_b)
    refused = [(bot.name, f) for bot in bots for f in bot.frames if f.get("type") == "error"]
    assert not [f for f in refused if "slow down" not in f[1]["message"]], refused
    await books(a.database, runner.id, f"{runner.id}-1")


def chips_at_hand_start(runner: TournamentRunner) -> dict[tuple[int, int], int]:
    """Every seat's chips as the hand in progress at its table began (or now, between
    hands): what an adoption must give back (R-DECK-5)."""
    chips = {}
    for number, table in runner.t.tables.items():
        chips.update({(number, n): seat.stack for n, seat in table.seats.items()})
        if table.hand is not None:
            starts = zip(table.hand_seats, table.hand.starting_stacks, strict=True)
            chips.update({(number, n): start for n, start in starts})
    return chips


async def test_the_owner_dies_mid_event_and_the_other_node_plays_it_to_the_end(
    steady: tuple[Node, Node],
) -> None:
    a, b = steady
    hall_b = b.app.state.tournaments
    runner = await a.app.state.tournaments.create(STRUCTURE)
    tid = runner.id
    go = threading.Event()
    go.set()
    # Nobody shoves until the owner is gone: the field stays on two tables meanwhile.
    bots = [Bot(f"bot{k}", b, Shover(k, go, share=0.0)) for k in range(ENTRANTS)]
    tasks = await field_of(runner, bots)

    def played() -> int:
        return sum(t.hand_number for t in runner.t.tables.values())

    await eventually(lambda: played() >= 4, "a few hands are played")
    assert len(runner.t.tables) == 2
    go.clear()  # the bots wait: each table's hand stands at a decision (none being stored)

    def standing() -> bool:
        return all(
            actor.hand_ends.ending is None
            and (actor.table.hand is None or actor.started is not None)
            and (actor.table.hand is not None or not runner.t.can_start(number, runner.now()))
            for number, actor in runner.actors.items()
        )

    await eventually(standing, "every hand stands at a decision")
    await asyncio.sleep(0.5)  # nothing moves while the bots wait
    assert standing()
    running = {runner.table_id(n): t.hand_number for n, t in runner.t.tables.items() if t.hand}
    before = chips_at_hand_start(runner)
    die(a)
    await eventually(
        lambda: tid in hall_b.runners, "b adopts the event once the lease expires", seconds=60
    )
    adopted = hall_b.runners[tid]
    after = {
        (number, n): seat.stack
        for number, table in adopted.t.tables.items()
        for n, seat in table.seats.items()
    }
    assert after == before  # every player's chips, the hands in progress cancelled
    await stop_node(a)
    for bot in bots:
        bot.strategy.share = 0.2
    go.set()
    await played_out(adopted, tasks, b.database)
    db = Database(b.database)
    try:
        async with db.transaction() as session:
            for table, number in running.items():
                statuses = await session.scalars(
                    select(HandRecord.status).where(
                        HandRecord.table_id == table, HandRecord.number == number
                    )
                )
                assert list(statuses) == ["cancelled"], (table, number)  # never settled
    finally:
        await db.close()
    await books(b.database, tid, f"{tid}-1")
