"""Every limit and lock-out keys on the canonical identity (S-RATE-1): the spellings of one
user name (letter case, surrounding spaces, Unicode compatibility forms) and of one address
(IPv4-mapped IPv6, brackets, a zone, upper case, leading zeros) share one budget. Requests
go through the in-process app with the client address each test names."""

from __future__ import annotations

import asyncio
import dataclasses
import unicodedata
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect

from pokerroom.server.accounts.auth import AuthLimits, TokenBuckets, TryLaterError
from pokerroom.server.sockets.addresses import canonical_address
from pokerroom.server.tables.account_limits import CHAT_BURST
from pokerroom.server.tables.room import Limits
from pokerroom.store.accounts.accounts import canonical_username
from tests.helpers.room_tables import table_config
from tests.server.conftest import Person, Server, person

# One name, spelled as a client may send it: letter case, surrounding spaces (an ideographic
# space and a tab too), fullwidth letters, all or some; every one is the account "ann".
ANN = ["ann", "ANN", " Ann ", "\u3000ann", "ａｎｎ", "Ａｎｎ", "ａnn\t"]
# One address: IPv4 as itself, IPv4-mapped IPv6 (a dual-stack listener's report of it), and
# with leading zeros.
V4 = ["192.0.2.7", "::ffff:192.0.2.7", "::FFFF:c000:207", "[::ffff:192.0.2.7]", "192.000.002.007"]
# One IPv6 address: compressed and not, upper case, bracketed, with a zone.
V6 = [
    "2001:db8::7",
    "2001:DB8::7",
    "2001:0db8:0000:0000:0000:0000:0000:0007",
    "[2001:db8::7]",
    "2001:db8::7%eth0",
]
LOOPBACK = ["127.0.0.1", "::ffff:127.0.0.1", "::1", "[::1]", "0:0:0:0:0:0:0:1", "::0001"]


@pytest.mark.parametrize("spellings", [ANN, ["sigurd_x", "SIGURD_X", "ſigurd_x"]])
def test_S_RATE_1_a_name_has_one_key_in_every_spelling(spellings: list[str]) -> None:
    assert len({canonical_username(s) for s in spellings}) == 1
    nfd = unicodedata.normalize("NFD", "zoé")  # e + combining acute, where NFC has é
    assert canonical_username(nfd) == canonical_username("ZOÉ") == "zoé"


@pytest.mark.parametrize("spellings", [V4, V6, LOOPBACK[:2], LOOPBACK[2:]])
def test_S_RATE_1_an_address_has_one_key_in_every_spelling(spellings: list[str]) -> None:
    assert len({canonical_address(s) for s in spellings}) == 1
    assert canonical_address(spellings[0]) == spellings[0]  # the canonical one is itself


def test_S_RATE_1_distinct_addresses_keep_distinct_keys() -> None:
    others = ["192.0.2.8", "2001:db8::8", "::192.0.2.7", "testclient", "192.0.2"]
    assert len({canonical_address(a) for a in [V4[0], V6[0], *others]}) == 2 + len(others)


def buckets() -> TokenBuckets:
    return TokenBuckets(2, 1 / 3600)  # two requests, then none for the test's life


def test_S_RATE_1_the_per_username_limit_holds_across_spellings() -> None:
    limits = AuthLimits(per_username=buckets(), exempt=frozenset())
    for spelling, address in zip(ANN[:2], ("192.0.2.1", "192.0.2.2"), strict=True):
        limits.check(limits.log_ins_per_address, address, spelling)
    for spelling in ANN[2:]:
        with pytest.raises(TryLaterError):
            limits.check(limits.log_ins_per_address, "192.0.2.3", spelling)


@pytest.mark.parametrize("spellings", [V4, V6])
def test_S_RATE_1_the_per_address_limits_hold_across_spellings(spellings: list[str]) -> None:
    limits = AuthLimits(
        log_ins_per_address=buckets(), sign_ups_per_address=buckets(), exempt=frozenset()
    )
    for by_address in (limits.log_ins_per_address, limits.sign_ups_per_address):
        for k, address in enumerate(spellings[:2]):
            limits.check(by_address, address, f"name_{id(by_address)}_{k}")
        for k, address in enumerate(spellings[2:]):
            with pytest.raises(TryLaterError):
                limits.check(by_address, address, f"other_{id(by_address)}_{k}")


def test_S_RATE_1_an_exempt_address_is_exempt_in_every_spelling() -> None:
    limits = AuthLimits(log_ins_per_address=TokenBuckets(1, 1 / 3600))  # loopback exempt
    for k, address in enumerate(LOOPBACK * 2):
        limits.check(limits.log_ins_per_address, address, f"name_{k}")
    chosen = AuthLimits.from_env({"POKERROOM_LOGIN_EXEMPT": "::FFFF:10.0.0.2, [::1]"})
    assert chosen.exempt == {"10.0.0.2", "::1"}


async def log_in_from(server: Server, address: str, name: str) -> httpx.Response:
    """A log-in through the app in this process, from ``address``."""
    transport = httpx.ASGITransport(app=server.app, client=(address, 50000))
    async with httpx.AsyncClient(transport=transport, base_url="http://room", timeout=60) as http:
        return await http.post("/api/login", json={"username": name, "password": "a guess at"})


async def test_S_RATE_1_log_ins_from_one_address_share_its_limit_however_spelled(
    server: Server,
) -> None:
    auth = server.app.state.auth
    auth.limits = AuthLimits(log_ins_per_address=buckets(), exempt=frozenset())
    answers = [await log_in_from(server, address, f"ghost_{k}") for k, address in enumerate(V4[:4])]
    assert [r.status_code for r in answers] == [401, 401, 429, 429]
    assert auth.passwords.verified == 2  # the refused ones were never checked


async def test_S_RATE_1_log_ins_as_one_name_share_its_limit_however_spelled(
    server: Server,
) -> None:
    auth = server.app.state.auth
    auth.limits = AuthLimits(per_username=buckets(), exempt=frozenset())
    answers = [
        await log_in_from(server, f"192.0.2.{k}", spelling) for k, spelling in enumerate(ANN)
    ]
    assert [r.status_code for r in answers] == [401, 401] + [429] * (len(ANN) - 2)


class RawSocket:
    """A WebSocket to the app in this process from a chosen address (an ASGI scope of its
    own), to see whether the room accepts it."""

    def __init__(self, app: Any, address: str) -> None:
        self.incoming: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.outgoing: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        scope = {
            "type": "websocket",
            "asgi": {"version": "3.0"},
            "scheme": "ws",
            "path": "/ws",
            "raw_path": b"/ws",
            "query_string": b"",
            "root_path": "",
            "headers": [(b"host", b"room")],
            "client": (address, 50000),
            "server": ("room", 80),
            "subprotocols": [],
        }
        self.incoming.put_nowait({"type": "websocket.connect"})
        self.task = asyncio.create_task(app(scope, self.incoming.get, self.outgoing.put))

    async def answer(self) -> str:
        """``websocket.accept`` or ``websocket.close``: the room's first word."""
        async with asyncio.timeout(30):
            message = await self.outgoing.get()
        kind: str = message["type"]
        return kind

    async def close(self) -> None:
        await self.incoming.put({"type": "websocket.disconnect", "code": 1000})
        async with asyncio.timeout(30):
            await self.task


async def test_S_RATE_1_connections_from_one_address_share_its_limit_however_spelled(
    server: Server,
) -> None:
    room = server.room
    room.limits = dataclasses.replace(Limits(), connections_per_address=2)
    sockets = [RawSocket(server.app, address) for address in V6[:2]]
    assert [await s.answer() for s in sockets] == ["websocket.accept"] * 2
    assert dict(room.per_address) == {"2001:db8::7": 2}  # the inbox's shares use it too
    for address in V6[2:]:
        refused = RawSocket(server.app, address)
        assert await refused.answer() == "websocket.close"
        await refused.close()
    other = RawSocket(server.app, "2001:db8::8")  # another address has its own
    assert await other.answer() == "websocket.accept"
    for s in [*sockets, other]:
        await s.close()


async def test_S_RATE_1_an_accounts_sockets_share_its_chat_limit(server: Server) -> None:
    """Five lines from one socket, then a second socket of the same account is refused: the
    budget is the account's (another account at the table keeps its own)."""
    await server.room.open_table(table_config("c1"))
    ann = await person(server.base, "ann")
    again = await connect(server.base.replace("http", "ws", 1) + "/ws")
    ann_too = Person(name="ann", token=ann.token, account_id=ann.account_id, ws=again)
    await ann_too.next("welcome")
    await ann_too.send(type="hello", token=ann.token)
    await ann_too.next("hello")
    bob = await person(server.base, "bob")
    for someone in (ann, ann_too, bob):
        await someone.send(type="watch", table="c1")
        await someone.next("table")
    for k in range(CHAT_BURST):
        await ann.send(type="chat", table="c1", text=f"line {k}")
        await ann.next("chat")
    await ann_too.send(type="chat", table="c1", text="one more, from the other socket")
    assert "too many chat messages" in (await ann_too.next("error"))["message"]
    await bob.send(type="chat", table="c1", text="hello")
    for _ in range(CHAT_BURST + 1):  # ann's lines reach bob too, then his own
        line = await bob.next("chat")
        if line["text"] == "hello":
            break
    assert line["text"] == "hello" and line["from"] == "bob"
