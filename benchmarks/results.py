"""My results: the page's data for one player with 100,000 hands, from the rows written at
each hand's end (``store/tables/results.py``) beside a scan that replays every record, on one
SQLite database in the same run; and what the rows cost a hand's end (the facts computed
in the writer's unit of work, per hand).

The hands are real (played through the engine by random legal actions, six-handed, every
record replayed and checked), a pool of distinct hands stored again under new ids up to the
count: a replay costs the same whichever hand it is. ``POKERROOM_BENCH_RESULTS_HANDS`` sets
the count (default 100,000).
"""

from __future__ import annotations

import asyncio
import os
import random
import tempfile
import time
from dataclasses import asdict
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import insert
from sqlalchemy.orm import Session
from tests.helpers.hands import play_randomly

from benchmarks.report import Report, Row
from pokerroom.engine import Hand, Player
from pokerroom.history.record import hand_record
from pokerroom.rng import SeededRandomSource
from pokerroom.rules.game import GameSpec, Stakes, Structure, Variant
from pokerroom.store.db import Database, sqlite_url
from pokerroom.store.models import Account, HandPlayer, HandRecord, HandResult, TableRecord
from pokerroom.store.tables.results import (
    HandToCount,
    facts_of,
    results_page_sync,
    scan_page_sync,
)

POOL = 2_000
START = datetime(2026, 1, 1, tzinfo=UTC)
SPEC = GameSpec(
    variant=Variant.HOLDEM, structure=Structure.NO_LIMIT, stakes=Stakes(small_blind=1, big_blind=2)
)


def _pool() -> list[Hand]:
    rng = random.Random(5)
    return [
        play_randomly(
            Hand(
                spec=SPEC,
                players=[Player(seat=k + 1, stack=200) for k in range(6)],
                rng=SeededRandomSource(k),
            ),
            rng,
        )
        for k in range(POOL)
    ]


def _fill(session: Session, hands: list[Hand], count: int) -> float:
    """``count`` hands of account 1 (at position k % 6), with their rows; gives the
    seconds the facts took per hand (all six players')."""
    session.execute(
        insert(Account),
        [
            {
                "id": a,
                "username": f"p{a}",
                "display_name": f"p{a}",
                "password_hash": "-",
                "role": "player",
                "created_at": START,
                "suspended": False,
            }
            for a in range(1, 7)
        ],
    )
    session.add(TableRecord(id="t1", name="t1", config="{}", snapshot="{}", updated_at=START))
    records = [hand_record(h) for h in hands]
    facts_time = 0.0
    for first in range(0, count, 10_000):
        batch = range(first + 1, min(count, first + 10_000) + 1)
        hand_rows, player_rows, result_rows = [], [], []
        for hand_id in batch:
            hand = hands[hand_id % len(hands)]
            at = START + timedelta(minutes=hand_id)
            hand_rows.append(
                {
                    "id": hand_id,
                    "table_id": "t1",
                    "number": hand_id,
                    "status": "complete",
                    "deck_commitment": "-",
                    "deck_reveal": "",
                    "record": records[hand_id % len(hands)],
                    "rake": hand.rake,
                    "started_at": at,
                    "ended_at": at,
                }
            )
            accounts = [(1 + (p + hand_id) % 6, p) for p in range(6)]
            player_rows += [
                {
                    "hand_id": hand_id,
                    "account_id": a,
                    "seat": p + 1,
                    "position": p,
                    "start_stack": hand.starting_stacks[p],
                    "end_stack": hand.stacks[p],
                }
                for a, p in accounts
            ]
            started = time.process_time()
            facts = facts_of(HandToCount(hand, accounts, "t1", False), hand_id=hand_id, at=at)
            facts_time += time.process_time() - started
            for f in facts:
                row = asdict(f)
                row["account_id"] = row.pop("account")
                result_rows.append(row)
        session.execute(insert(HandRecord), hand_rows)
        session.execute(insert(HandPlayer), player_rows)
        session.execute(insert(HandResult), result_rows)
    return facts_time / count


async def _measure(count: int) -> tuple[float, float, float, bool]:
    with tempfile.TemporaryDirectory() as folder:
        db = Database(sqlite_url(Path(folder) / "results.db"))
        try:
            await db.migrate()
            hands = _pool()
            per_hand = await db.run(lambda s: _fill(s, hands, count))
            by_rows = scanned = float("inf")
            page = replayed = None
            for _ in range(3):
                started = time.perf_counter()
                page = await db.run(lambda s: results_page_sync(s, 1))
                by_rows = min(by_rows, time.perf_counter() - started)
            started = time.perf_counter()
            replayed = await db.run(lambda s: scan_page_sync(s, 1))
            scanned = time.perf_counter() - started
            same = page is not None and page.as_json() == replayed.as_json()
            return by_rows, scanned, per_hand, same
        finally:
            await db.close()


def run() -> Report:
    count = int(os.environ.get("POKERROOM_BENCH_RESULTS_HANDS", "100000"))
    by_rows, scanned, per_hand, same = asyncio.run(_measure(count))
    report = Report(f"My results: one player's page over {count:,} hands (SQLite)")
    report.add(
        Row(
            "page from the hand_results rows",
            by_rows,
            "s",
            {"replay of every record": scanned},
            higher_is_better=False,
            target=f"{scanned / by_rows:,.0f}x faster; same page: {same}",
        )
    )
    report.add(
        Row(
            "facts of one hand (six players) at its end",
            per_hand * 1e6,
            "us",
            higher_is_better=False,
        )
    )
    return report


if __name__ == "__main__":
    run().print()
