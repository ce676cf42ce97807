"""One rollback policy: a join or an add-chips whose storage fails leaves the table
as it was and moves no chips; the player is told to try again and the table keeps running."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy.exc import OperationalError

from pokerroom.store.tables import store as room_store
from tests.helpers.attacks import GRANT, balance, handled, refused, sit
from tests.helpers.audit import assert_books_balance
from tests.helpers.room_tables import table_config
from tests.server.conftest import Server, person


def fail_saves(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Make writing the table snapshot fail, as a lost database would; the tables whose
    writes were refused are listed in the answer."""
    refused_for: list[str] = []

    async def down(session: Any, table_id: str, *args: Any, **kwargs: Any) -> None:
        refused_for.append(table_id)
        raise OperationalError("UPDATE tables", {}, Exception("the database is gone"))

    monkeypatch.setattr(room_store, "save_table", down)
    return refused_for


async def test_S_MONEY_3_a_join_whose_storage_fails_leaves_the_table_as_it_was(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    await server.room.open_table(table_config("rb1"))
    actor = server.room.actors["rb1"]
    ann = await person(server.base, "ann")
    await ann.send(type="watch", table="rb1")
    await handled(ann, "rb1")
    before, stored = actor.table.to_json(), actor.stored
    refused_for = fail_saves(monkeypatch)
    error = await refused(ann, type="join", table="rb1", seat=1, buy_in=4_000, request="j1")
    assert refused_for == ["rb1"]
    assert "not stored" in error and "try again" in error
    assert actor.table.to_json() == before and actor.stored == stored
    assert actor.table.seat_number(str(ann.account_id)) is None
    assert actor.faults == 0 and actor.recovery.pending is None  # not a fault of the table
    assert await balance(server, ann) == GRANT
    await assert_books_balance(server)
    monkeypatch.undo()  # the database is back: the same request now seats her
    await sit(ann, "rb1", 1, 4_000, "j1")
    assert await balance(server, ann) == GRANT - 4_000
    await assert_books_balance(server)


async def test_S_MONEY_3_add_chips_whose_storage_fails_leaves_the_table_as_it_was(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    await server.room.open_table(table_config("rb2"))
    actor = server.room.actors["rb2"]
    ann = await person(server.base, "ann")
    await ann.send(type="watch", table="rb2")
    await sit(ann, "rb2", 1, 4_000, "j1")
    await handled(ann, "rb2")
    before, stored = actor.table.to_json(), actor.stored
    refused_for = fail_saves(monkeypatch)
    error = await refused(ann, type="add_chips", table="rb2", amount=5_000, request="a1")
    assert refused_for == ["rb2"]
    assert "not stored" in error and "try again" in error
    assert actor.table.to_json() == before and actor.stored == stored
    assert actor.table.seats[1].stack == 4_000
    assert actor.faults == 0 and actor.recovery.pending is None
    assert await balance(server, ann) == GRANT - 4_000
    await assert_books_balance(server)
    monkeypatch.undo()
    await ann.send(type="add_chips", table="rb2", amount=5_000, request="a1")
    await ann.until(lambda f: f["seats"][0]["stack"] == 9_000)
    assert await balance(server, ann) == GRANT - 9_000
    await assert_books_balance(server)
