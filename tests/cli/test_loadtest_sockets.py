"""``pokerroom loadtest --clients 2``: the bots' sockets held by two client processes,
and the room's figures for them read from the room itself (/metrics and /proc): the
connections it counts are the sockets the bots opened, its memory per table and per
connection add up to what its resident memory grew by, and its CPU per action is its CPU
over the actions measured."""

from __future__ import annotations

from pytest import approx

from pokerroom.cli.loadtest import run_loadtest
from pokerroom.cli.loadtest_words import one_node_in_words

TABLES, PLAYERS = 20, 3


async def test_two_client_processes_hold_every_socket_and_the_room_reports_its_cost() -> None:
    result = await run_loadtest(TABLES, PLAYERS, 4.0, think=0.2, clients=2)
    sockets = TABLES * PLAYERS
    assert result["client_processes"] == 2
    assert result["sockets_opened"] == sockets and result["sockets_failed"] == 0
    # The room's own count, read once every bot had its seat, is the bots' sockets.
    assert result["websockets_open"] == sockets
    assert result["players_seated"] == sockets
    assert result["server_sockets"] >= sockets  # its listener (and its own) besides
    assert result["actions"] > 0 and result["hands_per_second"] > 0
    assert result["p99_ms"] >= result["p50_ms"] > 0
    assert result["books_balance"] is True
    # Memory: the room's, in MB, and its growth per table and per connection, which add up.
    assert 0 < result["rss_empty_mb"] <= result["rss_peak_mb"]
    assert result["rss_mb"] <= result["rss_peak_mb"] < 4096
    grown_by_tables = (result["rss_tables_open_mb"] - result["rss_empty_mb"]) * 1024
    assert result["memory_per_table_kb"] * TABLES == approx(grown_by_tables)
    grown_by_sockets = (result["rss_mb"] - result["rss_tables_open_mb"]) * 1024
    assert result["memory_per_connection_kb"] * sockets == approx(grown_by_sockets)
    # CPU per action: the room's cores over the actions measured per second.
    per_action = 1000 * result["server_cpu"] / result["actions_per_second"]
    assert result["server_cpu_ms_per_action"] == approx(per_action) and per_action > 0
    words = one_node_in_words(result)
    assert f"{sockets:,} opened by the bots" in words and "KB a connection" in words
