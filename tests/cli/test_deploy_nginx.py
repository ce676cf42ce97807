"""docs/deploy.md's nginx configuration, as printed, in front of a room: nginx runs it (its
upstream addresses, port and certificate swapped for the test's, nothing else), the page's
WebSocket smoke test answers 101 through it, and two browser-like sockets (each sending the
Origin a browser on that page sends) play a hand through it, the books balancing after.

nginx is Debian's package (``make test`` installs it when missing). Under CI=true a missing
nginx fails the test; elsewhere the test is skipped, saying so."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import ssl
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from pokerroom.server.ops.process import free_port, spawn_room
from pokerroom.store.db import sqlite_url
from tests.helpers.audit import audit_database
from tests.server.conftest import Person, person

DEPLOY = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"
WAIT = 60.0  # bounded waits on a busy machine


def nginx_binary() -> str:
    found = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/sbin")
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail("nginx is not installed (make test installs Debian's nginx package)")
        pytest.skip("nginx is not installed (make test installs it; CI=true requires it)")
    return found


def block(language: str) -> str:
    """The one fenced block of ``language`` in docs/deploy.md, as printed."""
    found = re.findall(rf"```{language}\n(.*?)```", DEPLOY.read_text(), flags=re.DOTALL)
    assert len(found) == 1, f"docs/deploy.md has {len(found)} ```{language} blocks"
    return str(found[0])


def smoke_test() -> str:
    """The page's one-line WebSocket smoke test (a ``curl`` with a browser's Origin)."""
    lines = [x for x in DEPLOY.read_text().splitlines() if x.startswith("curl ") and "Origin" in x]
    assert len(lines) == 1, "docs/deploy.md has one curl line with an Origin"
    return lines[0]


def documented_config(node_port: int, port: int, cert: Path, key: Path) -> str:
    """The page's configuration with the test's addresses, port and certificate: every
    other line as printed. Each swap must find what it swaps (the page changed otherwise)."""
    text = block("nginx")
    swaps = (
        (r"server 10\.0\.0\.1\d:8000", f"server 127.0.0.1:{node_port}"),
        (r"listen 443 ssl", f"listen 127.0.0.1:{port} ssl"),
        (r"/etc/ssl/poker\.example\.org\.crt", str(cert)),
        (r"/etc/ssl/poker\.example\.org\.key", str(key)),
    )
    for pattern, replacement in swaps:
        text, count = re.subn(pattern, replacement, text)
        assert count, f"docs/deploy.md's nginx block has no {pattern!r}"
    return text


@contextlib.contextmanager
def nginx(config: str, prefix: Path) -> Iterator[subprocess.Popen[bytes]]:
    """nginx in the foreground, one process (no workers to switch user), its pid, logs and
    temporary files under ``prefix``, the page's block in its ``http`` context."""
    binary = nginx_binary()
    temp = "\n".join(
        f"    {kind}_temp_path {prefix / kind};" for kind in ("client_body", "proxy", "fastcgi")
    )
    temp += f"\n    uwsgi_temp_path {prefix / 'uwsgi'};\n    scgi_temp_path {prefix / 'scgi'};"
    whole = (
        f"daemon off;\nmaster_process off;\npid {prefix / 'nginx.pid'};\n"
        f"error_log {prefix / 'error.log'} info;\nevents {{ worker_connections 64; }}\n"
        f"http {{\n    access_log {prefix / 'access.log'};\n{temp}\n{config}\n}}\n"
    )
    (prefix / "nginx.conf").write_text(whole)
    command = [binary, "-p", str(prefix), "-c", str(prefix / "nginx.conf")]
    command += ["-e", str(prefix / "error.log")]
    checked = subprocess.run([*command, "-t"], capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0, checked.stderr
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def certificate(directory: Path) -> tuple[Path, Path, ssl.SSLContext]:
    """A self-signed certificate for 127.0.0.1, and a context that trusts it."""
    cert, key = directory / "room.crt", directory / "room.key"
    request = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj"]
    request += ["/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"]
    subprocess.run(
        ["openssl", *request, "-keyout", str(key), "-out", str(cert)],
        check=True,
        capture_output=True,
        timeout=60,
    )
    return cert, key, ssl.create_default_context(cafile=str(cert))


async def answering(base: str, tls: ssl.SSLContext) -> None:
    async with asyncio.timeout(WAIT), httpx.AsyncClient(base_url=base, verify=tls) as http:
        while True:
            with contextlib.suppress(httpx.HTTPError):
                if (await http.get("/api/lobby")).status_code == 200:
                    return
            await asyncio.sleep(0.1)


async def one_hand(someone: Person, table: str, pick: int) -> int:
    """Sit at ``table`` (the free seat ``pick``: 0 first, -1 last), check or call at every
    turn until a hand ends: its number."""
    await someone.send(type="watch", table=table)
    frame = await someone.next("table", WAIT)
    free = [s["seat"] for s in frame["seats"] if s.get("empty")]
    await someone.send(
        type="join", table=table, seat=free[pick], buy_in=frame["min_buy_in"], request="sit"
    )
    async with asyncio.timeout(WAIT):
        while True:
            frame = await someone.next("table", WAIT)  # frames in between are recorded
            ended = [f for f in someone.frames if f.get("type") == "hand_result"]
            if ended:
                return int(ended[0]["hand"])
            hand = frame.get("hand")
            if hand and hand["actor"] == frame.get("you") and hand["legal"] is not None:
                number = hand["number"]
                await someone.send(type="act", table=table, action="check_or_call", hand=number)


async def test_the_documented_nginx_config_carries_a_browser_websocket_and_a_hand(
    tmp_path: Path,
) -> None:
    nginx_binary()  # skipped or failed at once, before starting a room
    node_port, port = free_port(), free_port()
    database = sqlite_url(tmp_path / "room.db")
    room = await spawn_room(database, node_port, pause=0.05)
    cert, key, tls = certificate(tmp_path)
    prefix = tmp_path / "nginx"
    prefix.mkdir()
    base = f"https://127.0.0.1:{port}"
    try:
        with nginx(documented_config(node_port, port, cert, key), prefix):
            await answering(base, tls)
            smoke = smoke_test().replace("https://poker.example.org/ws", f"{base}/ws")
            smoke = smoke.replace("curl ", f"curl --cacert {cert} ", 1)
            answer = subprocess.run(
                ["bash", "-c", smoke], capture_output=True, text=True, timeout=60
            )
            assert answer.stdout.strip() == "403", answer  # another site's Origin: refused
            smoke = smoke.replace("Origin: https://poker.example.org", f"Origin: {base}")
            answer = subprocess.run(
                ["bash", "-c", smoke], capture_output=True, text=True, timeout=60
            )
            assert answer.stdout.strip() == "101", answer
            ann = await person(base, "ann", origin=base, tls=tls)
            bob = await person(base, "bob", origin=base, tls=tls)
            numbers = await asyncio.gather(
                one_hand(ann, "hu-nlhe", 0), one_hand(bob, "hu-nlhe", -1)
            )
            assert numbers[0] == numbers[1] >= 1
            await ann.ws.close()
            await bob.ws.close()
    finally:
        room.terminate()
        room.wait(timeout=30)
    report = await audit_database(database)
    assert report.ok, report.problems
