"""An account's id, and the key it has in the table and tournament cores.

The id is an int from the accounts table to the socket; the cores below the store key a seat,
a waiting-list place and an entry by an opaque string, which for an account is its decimal id.
These two functions are the only place where the one becomes the other.
"""

from __future__ import annotations

from typing import NewType

AccountId = NewType("AccountId", int)


def player_key(account: int) -> str:
    """The account's key in a table (its seat, its place on the waiting list)."""
    return str(account)


def account_of(player: str) -> AccountId:
    """The account whose table key this is (a key that is not an account's raises ValueError)."""
    return AccountId(int(player))
