"""The soak, short: the room in its own process, honest bots at two tables from a
second process, a hostile client in a third that floods, never reads, watches and hangs up,
reuses request keys, chats from 40 sockets of one account, toggles a sat-out seat's options
from 20 and floods options from the bots' own address; afterwards the audit reconciles, the
attackers were dropped and refused, and no hand was cancelled (S-ISOLATE-1, S-MONEY-3,
S-AUDIT-2). ``make bench`` runs the long version and prints the latencies and hands dealt
beside the same load without attackers."""

from __future__ import annotations

import pytest
from benchmarks.soak import run_soak

from pokerroom.server.tables.account_limits import CHAT_BURST, CHAT_WINDOW


@pytest.mark.slow
async def test_S_ISOLATE_1_soak_in_three_processes_books_reconcile_attackers_dropped() -> None:
    result = await run_soak(tables=2, players=3, seconds=10.0, think=0.5, attackers=True)
    attacks = result["attacks"]
    print(
        f"honest: {result['actions']} actions, p50 {result['p50_ms']:.1f} ms,"
        f" p99 {result['p99_ms']:.1f} ms; attacks: {attacks}"
    )
    assert result["audit_ok"], result["audit"]  # `pokerroom audit` on that database
    assert result["hands_cancelled"] == 0 and result["faults"] == 0
    assert result["hands_complete"] >= 1 and result["actions"] >= 10
    assert attacks.get("flood closed 1008", 0) >= 1  # flooders are closed for flooding
    assert attacks.get("watch and close", 0) >= 10
    assert attacks.get("key reuse refused", 0) >= 1 and "key reuse SEATED" not in attacks
    assert attacks["attacker balance change"] == 0  # no chip gained by reusing keys
    assert not [k for k in attacks if k.startswith("attack ended by")]  # every attack ran
    # one account's share, whatever its sockets: 5 lines per 10 s at a table, and a rate of
    # seat changes; the flood from the bots' own address is closed and reopens
    assert attacks.get("chat refused chat.slow_down", 0) >= 1
    assert attacks.get("toggle refused protocol.account_slow_down", 0) >= 1
    assert sum(n for k, n in attacks.items() if k.startswith("options flood closed")) >= 1
    watched = result["watched"]
    windows = watched["spectator seconds"] / CHAT_WINDOW + 1
    assert watched.get("spectator chat lines from the chatter", 0) <= CHAT_BURST * windows
