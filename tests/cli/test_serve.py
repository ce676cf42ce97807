"""``pokerroom serve`` on a port already in use: one clear line on stderr and exit status 1,
not a traceback after uvicorn's "startup complete"; on a free port it serves as before."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from pokerroom.cli.serve import RECEIVE_BUFFER, SEND_BUFFER, _listen
from pokerroom.server.ops.process import free_port, spawn_room
from pokerroom.store.db import sqlite_url


def serve(port: int, database: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pokerroom.cli",
            "serve",
            "--no-bots",
            "--port",
            str(port),
            "--database",
            database,
        ],
        capture_output=True,
        text=True,
        timeout=120,  # bounded: it must exit on its own, long before this
        check=False,
        # at a room's own password cost: the suite's cheap one is said on stderr at start
        env={k: v for k, v in os.environ.items() if k != "POKERROOM_PASSWORD_COST"},
    )


def test_serve_on_a_port_in_use_says_so_in_one_line_and_exits_1(tmp_path: Path) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = serve(port, sqlite_url(tmp_path / "room.db"))
    assert done.returncode == 1, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert f"cannot listen on 127.0.0.1:{port}" in lines[0]
    assert "in use" in lines[0]
    assert "startup complete" not in done.stdout + done.stderr


async def test_serve_on_a_free_port_serves(tmp_path: Path) -> None:
    port = free_port()
    process = await spawn_room(sqlite_url(tmp_path / "room.db"), port, pause=0.05)
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
            lobby = await http.get("/api/lobby")
        assert lobby.status_code == 200 and lobby.json()
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_serve_with_an_unknown_sit_and_go_says_which_exist_and_exits_2(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "pokerroom.cli", "serve", "--no-bots", "--port", "0"]
    command += ["--database", sqlite_url(tmp_path / "r.db"), "--sit-and-go", "sng99"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 2, done.stderr
    assert "no tournament structure 'sng99'" in done.stderr and "sng6" in done.stderr


def test_serve_refuses_to_believe_every_sender_of_x_forwarded_for(tmp_path: Path) -> None:
    """With ``*`` any client could name loopback as its address and pass every per-address
    limit: refused, saying what to give instead."""
    command = [sys.executable, "-m", "pokerroom.cli", "serve", "--no-bots", "--port", "0"]
    command += ["--database", sqlite_url(tmp_path / "r.db"), "--forwarded-allow-ips", "10.0.0.1,*"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 2, done.stderr
    assert "name the balancers' addresses" in done.stderr


def test_serve_refuses_an_unknown_password_cost_and_warns_of_the_cheapest(
    tmp_path: Path,
) -> None:
    """The suite's cheap password hashing is said on stderr at start, so a room started so by
    mistake shows it; a cost the room does not know stops it before it listens."""
    command = [sys.executable, "-m", "pokerroom.cli", "serve", "--no-bots", "--port", "0"]
    command += ["--database", sqlite_url(tmp_path / "r.db"), "--sit-and-go", "sng99"]
    for cost, said in (
        ("low", "POKERROOM_PASSWORD_COST is recommended or cheapest, not 'low'"),
        ("cheapest", "POKERROOM_PASSWORD_COST=cheapest hashes passwords at argon2's lowest"),
    ):
        env = {**os.environ, "POKERROOM_PASSWORD_COST": cost}
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=120, check=False, env=env
        )
        assert done.returncode == 2 and said in done.stderr, done.stderr


async def test_serve_with_sit_and_go_none_opens_no_tournament(tmp_path: Path) -> None:
    """An empty setting reads as unset in click: "none" is how to say none."""
    port = free_port()
    env = {"POKERROOM_SIT_AND_GO": "none"}
    process = await spawn_room(sqlite_url(tmp_path / "room.db"), port, pause=0.05, env=env)
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
            lobby = await http.get("/api/lobby")  # answered once the room has started
            events = await http.get("/api/tournaments")
        assert lobby.status_code == 200 and events.status_code == 200
        assert events.json() == []
    finally:
        process.terminate()
        process.wait(timeout=30)


async def test_serve_keeps_a_sit_and_go_of_each_game_open_in_the_lobby(tmp_path: Path) -> None:
    """``make serve``'s sit & gos: no-limit and fixed-limit hold'em, pot-limit Omaha and
    Omaha Hi-Lo, each open for registration and named by its game in the lobby."""
    makefile = (Path(__file__).parents[2] / "Makefile").read_text(encoding="utf-8")
    games = "sng6,sng6_limit,sng6_plo,sng6_plo8"
    assert f"pokerroom serve --sit-and-go {games}" in makefile
    port = free_port()
    env = {"POKERROOM_SIT_AND_GO": games}
    process = await spawn_room(sqlite_url(tmp_path / "room.db"), port, pause=0.05, env=env)
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
            deadline = time.monotonic() + 60
            while True:  # the hall opens them on its first pass
                events = (await http.get("/api/tournaments")).json()
                if len(events) >= 4 or time.monotonic() > deadline:
                    break
                await asyncio.sleep(0.1)
        shown = {e["structure"]["name"]: e["structure"]["game_name"] for e in events}
        assert shown == {
            "sng6": "No Limit Hold'em",
            "sng6_limit": "Limit Hold'em",
            "sng6_plo": "Pot Limit Omaha",
            "sng6_plo8": "Pot Limit Omaha Hi-Lo",
        }
        assert {e["status"] for e in events} == {"registering"}
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_serve_names_the_api_docs_that_are_served(tmp_path: Path) -> None:
    """Swagger UI at /docs is off unless POKERROOM_DOCS=1: the startup line says where the
    API is described either way, never a page that answers 404."""
    for setting, expected in (("", "API docs at /openapi.json"), ("1", "API docs at /docs")):
        command = [sys.executable, "-m", "pokerroom.cli", "serve", "--no-bots"]
        command += ["--port", str(free_port()), "--database", sqlite_url(tmp_path / "r.db")]
        env = {**os.environ, "POKERROOM_DOCS": setting}
        with subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env) as process:
            try:
                assert process.stdout is not None
                first = process.stdout.readline()  # printed before the room starts
            finally:
                process.terminate()
                process.wait(timeout=30)
        assert expected in first, first


def test_S_ISOLATE_1_connections_get_small_kernel_buffers() -> None:
    """A flooding client can put at most a few tens of kilobytes of frames in front of the
    room's parser at once, and a client that never reads fills its bounded queue after a
    hundred kilobytes, not megabytes (the kernel doubles what is asked)."""
    listening = _listen("127.0.0.1", free_port())
    with listening:
        listening.listen()
        with socket.create_connection(listening.getsockname()) as _, listening.accept()[0] as conn:
            assert conn.getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF) <= 4 * RECEIVE_BUFFER
            assert conn.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF) <= 4 * SEND_BUFFER


async def test_serve_trusts_x_forwarded_for_only_from_forwarded_allow_ips(tmp_path: Path) -> None:
    """/metrics answers loopback only: a request from loopback that says it forwards another
    address is refused when loopback is a trusted balancer (the default), and answered when
    ``--forwarded-allow-ips`` names another balancer (the header is not believed)."""
    forwarded = {"X-Forwarded-For": "203.0.113.7"}
    for option, status in (((), 403), (("--forwarded-allow-ips", "10.1.2.3"), 200)):
        port = free_port()
        database = sqlite_url(tmp_path / f"room{status}.db")
        process = await spawn_room(database, port, pause=0.05, options=option)
        try:
            async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
                assert (await http.get("/metrics", headers=forwarded)).status_code == status
        finally:
            process.terminate()
            process.wait(timeout=30)


def test_serve_with_an_unknown_schedule_says_which_exist_and_exits_2(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "pokerroom.cli", "serve", "--no-bots", "--port", "0"]
    command += ["--database", sqlite_url(tmp_path / "r.db"), "--schedule", "weekly99"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 2, done.stderr
    assert "no schedule 'weekly99'" in done.stderr and "demo" in done.stderr


async def test_make_serve_lists_its_schedule_with_start_times_and_guarantees(
    tmp_path: Path,
) -> None:
    """``make serve``'s schedule (rules/data/schedules/demo.toml): the next run of each
    event listed ahead of its time, the PKO with its guarantee, the satellite tied to it."""
    makefile = (Path(__file__).parents[2] / "Makefile").read_text(encoding="utf-8")
    assert "--schedule demo" in makefile
    port = free_port()
    env = {"POKERROOM_SIT_AND_GO": "none", "POKERROOM_SCHEDULE": "demo"}
    process = await spawn_room(sqlite_url(tmp_path / "room.db"), port, pause=0.05, env=env)
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
            deadline = time.monotonic() + 60
            while True:  # the hall lists them on its first pass
                events = (await http.get("/api/tournaments")).json()
                if len(events) >= 2 or time.monotonic() > deadline:
                    break
                await asyncio.sleep(0.1)
    finally:
        process.terminate()
        process.wait(timeout=30)
    now = time.time()
    pko = min(
        (e for e in events if e["structure"]["name"] == "mtt_pko"), key=lambda e: e["starts_at"]
    )
    assert pko["status"] == "registering" and pko["guarantee"] == 50_000
    assert now < pko["starts_at"] <= now + 3600 and pko["structure"]["bounty"] == [1000, True]
    satellite = next(e for e in events if e["structure"]["name"] == "satellite_pko")
    target = next(e for e in events if e["id"] == satellite["target"])  # listed with it
    assert target["structure"]["name"] == "mtt_pko"
    assert satellite["starts_at"] < target["starts_at"] <= satellite["starts_at"] + 3600
