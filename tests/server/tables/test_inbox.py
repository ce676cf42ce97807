"""A table's inbox shares (S-ISOLATE-1): one connection, account or address holds only a
share of it; an account with nothing waiting gets past its address's share."""

from __future__ import annotations

from pokerroom.server.sockets.client import Client
from pokerroom.server.tables.inbox import CLIENT_WAITING, Shares


async def _never(text: str) -> None:
    raise AssertionError("nothing is sent here")


def client(account: int | None, address: str = "10.0.0.1") -> Client:
    return Client(send=_never, account_id=account, address=address)


def refused(shares: Shares, who: Client) -> tuple[str, dict[str, str | int]] | None:
    """The code and params of the refusal of ``who``'s next message at table "t", if any."""
    refusal = shares.refusal(who, "t")
    return None if refusal is None else (refusal.code, refusal.params)


YOURS_WAITING = ("table.yours_waiting", {"table": "t"})
BUSY = ("table.busy", {"table": "t"})


def fill(shares: Shares, who: Client, count: int) -> None:
    for _ in range(count):
        assert shares.refusal(who, "t") is None
        shares.take(who)


async def test_one_connection_holds_at_most_its_share() -> None:
    shares = Shares(1000)
    one = client(7)
    fill(shares, one, CLIENT_WAITING)
    assert refused(shares, one) == YOURS_WAITING
    assert shares.refusal(client(8), "t") is None


async def test_one_account_on_many_connections_holds_at_most_its_share() -> None:
    shares = Shares(1000)
    for _ in range(shares.per_account // CLIENT_WAITING):
        fill(shares, client(7), CLIENT_WAITING)
    fill(shares, client(7), shares.per_account % CLIENT_WAITING)
    assert refused(shares, client(7)) == YOURS_WAITING
    assert shares.refusal(client(8), "t") is None


async def test_a_full_address_lets_in_an_account_with_nothing_waiting_once() -> None:
    shares = Shares(1000)
    account = 100
    while (held := shares.held[("address", "10.0.0.1")]) < shares.per_address:
        account += 1
        fill(shares, client(account), min(CLIENT_WAITING, shares.per_address - held))
    assert shares.refusal(client(None), "t") is not None  # anonymous: no exemption
    assert shares.refusal(client(account), "t") is not None  # has messages waiting
    neighbour = client(5)  # behind the same address (a shared NAT), nothing waiting
    fill(shares, neighbour, 1)
    assert refused(shares, neighbour) == YOURS_WAITING
    assert shares.refusal(client(6, "10.0.0.2"), "t") is None  # another address


async def test_the_table_limit_still_holds_and_release_counts_what_was_taken() -> None:
    shares = Shares(40)
    first, second = client(None, "a"), client(2, "b")
    fill(shares, first, CLIENT_WAITING)
    fill(shares, second, 40 - CLIENT_WAITING)
    assert refused(shares, client(3, "c")) == BUSY
    first.account_id = 9  # it logged in while its watch waited
    for _ in range(40):
        shares.release()
    assert shares.queued == 0 and not shares.held
    assert first.waiting == 0 and second.waiting == 0


async def test_past_a_full_address_one_message_per_connection_whatever_its_accounts() -> None:
    shares = Shares(640)  # the address's share: 64
    fill(shares, client(1), CLIENT_WAITING)
    fill(shares, client(2), CLIENT_WAITING)
    switcher = client(3)
    fill(shares, switcher, 1)  # an account with nothing waiting: let past the full share
    switcher.account_id = 4  # the same socket says hello as another account
    assert refused(shares, switcher) == YOURS_WAITING
    assert shares.refusal(client(5), "t") is None  # a neighbour's own connection


async def test_forget_gives_back_what_an_ended_table_never_handled() -> None:
    shares = Shares(1000)
    one, two = client(1), client(2, "10.0.0.2")
    fill(shares, one, 3)
    fill(shares, two, 2)
    shares.release()
    shares.forget()
    assert shares.queued == 0 and not shares.held and not shares.sources
    assert one.waiting == 0 and two.waiting == 0
