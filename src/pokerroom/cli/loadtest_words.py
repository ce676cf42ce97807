"""``pokerroom loadtest``'s one-node figures beside the ceilings measured right after the
run by the same client processes, and the figures in words."""

from __future__ import annotations

import asyncio
import os
from typing import Any

from pokerroom.cli.load_client import echo_ceiling, table_echo_ceiling


def beside_ceilings(result: dict[str, Any], seconds: float, clients: int) -> dict[str, Any]:
    """The table echo's actions/s (the ceiling for the room's actions: its sockets and frames
    with no poker) and the bare echo's messages/s, each with the run's share of it."""
    tables, players = result["tables"], result["players"]
    ceiling = asyncio.run(table_echo_ceiling(seconds, tables, players, processes=clients))
    echo = asyncio.run(echo_ceiling(seconds, processes=clients))
    actions = result["actions_per_second"]
    return {
        "ceiling_actions_per_second": ceiling["actions_per_second"],
        "of_ceiling": actions / ceiling["actions_per_second"],
        "ceiling_cpu": ceiling["server_cpu"],
        "ceiling_client_cpu": ceiling["client_cpu"],
        "echo_messages_per_second": echo["messages_per_second"],
        "of_echo": actions / echo["messages_per_second"],
        "echo_cpu": echo["server_cpu"],
        "echo_client_cpu": echo["client_cpu"],
    }


def one_node_in_words(result: dict[str, Any]) -> str:
    server_cpu = result["server_cpu"]
    postgres_cpu = result["postgres_cpu"]
    lines = [
        f"{result['tables']} tables x {result['players']} players on {result['database']}, "
        f"thinking {result['think']:g} s, for {result['seconds']} s: "
        f"{result['hands_per_second']:.1f} hands/s, "
        f"{result['actions_per_second']:.0f} actions/s, "
        f"action -> broadcast p50 {result['p50_ms']:.1f} ms, p99 {result['p99_ms']:.1f} ms, "
        f"{result['errors']} refused actions {result['error_kinds'] or ''}, "
        f"books {'balance' if result['books_balance'] else 'DO NOT BALANCE'}",
        f"CPU (cores): room {'?' if server_cpu is None else f'{server_cpu:.2f}'}, load "
        f"client {result['client_cpu']:.2f} in {result['client_processes']} processes"
        + (
            ""
            if postgres_cpu is None
            else f", PostgreSQL {postgres_cpu:.2f} (its background processes "
            f"{result['postgres_background_cpu']:.2f})"
        )
        + "; "
        f"group commit: mean batch {result.get('mean_batch', 0):.1f} units, mean commit "
        f"{result.get('mean_commit_ms', 0):.1f} ms; "
        f"load average {result['load_average']:.1f} on {os.cpu_count()} cores",
    ]
    if "sockets_opened" in result:  # (a run's figures; a summary may leave them out)
        lines.append(sockets_in_words(result))
    if "ceiling_actions_per_second" in result:
        lines += [
            f"table echo (the same sockets and frames, no poker), same client processes: "
            f"{result['ceiling_actions_per_second']:,.0f} actions/s (its CPU "
            f"{result['ceiling_cpu']:.2f}, client CPU {result['ceiling_client_cpu']:.2f}); the "
            f"room's actions/s are {result['of_ceiling']:.0%} of it (the target: at least 30%)",
            f"bare WebSocket echo server, same client processes: "
            f"{result['echo_messages_per_second']:,.0f} messages/s (its CPU "
            f"{result['echo_cpu']:.2f}, client CPU {result['echo_client_cpu']:.2f}); the room's "
            f"actions/s are {result['of_echo']:.0%} of it",
        ]
    return "\n".join(lines)


def sockets_in_words(result: dict[str, Any]) -> str:
    """The sockets opened and held, the room's memory for them and its CPU an action."""
    per_action = result.get("server_cpu_ms_per_action")
    text = (
        f"sockets: {result['sockets_opened']:,} opened by the bots "
        f"({result['sockets_failed']} failed {result['failed_kinds'] or ''}), the room counts "
        f"{result.get('websockets_open', 0):,.0f} WebSockets open and holds "
        f"{result.get('server_sockets', 0):,} sockets; room CPU "
        f"{'?' if per_action is None else f'{per_action:.2f}'} ms an action"
    )
    if "rss_mb" in result:
        text += (
            f"; room memory {result['rss_mb']:,.0f} MB resident (peak "
            f"{result['rss_peak_mb']:,.0f} MB), "
            f"{result.get('memory_per_table_kb', 0):,.1f} KB a table opened, "
            f"{result.get('memory_per_connection_kb', 0):,.1f} KB a connection"
        )
    return text
