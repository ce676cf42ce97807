"""The table echo (the ceiling for the room's actions/s): the room's sockets and
frames with no poker in between, driven by client processes as the load test's bots are."""

from __future__ import annotations

from pokerroom.cli.load_client import table_echo_ceiling
from pokerroom.cli.loadtest_words import one_node_in_words


async def test_the_table_echo_passes_the_turn_round_every_table() -> None:
    """Each action is answered by a frame to every socket of its table, the next in turn
    acting on its own: the count goes on only while the turn goes round (a frame that
    named nobody, or went to one table's socket only, would stop it at once)."""
    figures = await table_echo_ceiling(1.5, tables=3, players=4, processes=1)
    # 3 rings on loopback for 1.5 s: far more than one round of 4 each, however busy.
    assert figures["actions_per_second"] * 1.5 > 3 * 4 * 5
    assert figures["server_cpu"] > 0
    assert figures["client_cpu"] > 0


def test_the_figures_in_words_name_the_share_of_the_ceiling() -> None:
    result = {
        "tables": 100,
        "players": 6,
        "database": "sqlite",
        "think": 0.0,
        "seconds": 20.0,
        "hands_per_second": 50.0,
        "actions_per_second": 2_000.0,
        "p50_ms": 40.0,
        "p99_ms": 70.0,
        "errors": 0,
        "error_kinds": {},
        "books_balance": True,
        "server_cpu": 0.95,
        "postgres_cpu": None,
        "client_cpu": 0.5,
        "client_processes": 2,
        "load_average": 1.5,
        "ceiling_actions_per_second": 5_000.0,
        "of_ceiling": 0.4,
        "ceiling_cpu": 0.9,
        "ceiling_client_cpu": 0.8,
        "echo_messages_per_second": 40_000.0,
        "of_echo": 0.05,
        "echo_cpu": 0.9,
        "echo_client_cpu": 0.9,
    }
    words = one_node_in_words(result)
    assert "2000 actions/s" in words
    assert "5,000 actions/s" in words and "40% of it (the target: at least 30%)" in words
    assert "40,000 messages/s" in words
