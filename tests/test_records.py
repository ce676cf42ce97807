"""Records: immutable, comparable, hashable, picklable -- like frozen dataclasses."""

import copy
import os
import pickle

import pytest

from pokerroom.engine import Action, ActionKind, Player
from pokerroom.engine.errors import InvalidAmountError, SetupError
from pokerroom.engine.events import ActionTaken, Event, HandEnded, Move
from pokerroom.table.events import SeatTaken


def _call() -> ActionTaken:
    return ActionTaken(position=0, seat=1, action=Move.CALL, added=2, to=2, all_in=False)


@pytest.mark.skipif(
    os.environ.get("POKERROOM_PURE") == "1",
    reason="uncompiled (POKERROOM_PURE=1), records are immutable to mypy only",
)
def test_records_are_immutable() -> None:
    event = _call()
    with pytest.raises(AttributeError):
        event.added = 5  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del event.seat  # type: ignore[misc]
    with pytest.raises(AttributeError):
        event.extra = 1  # type: ignore[attr-defined]
    assert event.added == 2 and event.seat == 1


def test_records_compare_hash_copy_pickle_and_match() -> None:
    event = _call()
    assert event == ActionTaken(position=0, seat=1, action=Move.CALL, added=2, to=2, all_in=False)
    assert event != ActionTaken(
        position=0, seat=1, action=Move.CALL, added=2, to=2, all_in=False, timed_out=True
    )
    assert event != HandEnded(stacks=(1, 2))
    assert hash(event) == hash(_call())
    assert len({event, _call()}) == 1
    assert repr(event) == (
        "ActionTaken(position=0, seat=1, action='call', added=2, to=2, all_in=False,"
        " timed_out=False)"
    )
    assert pickle.loads(pickle.dumps(event)) == event and copy.deepcopy(event) == event
    match event:
        case ActionTaken(position, seat, "call", added):
            assert (position, seat, added) == (0, 1, 2)
        case _:
            pytest.fail("the event did not match its own fields")
    assert event.as_dict()["to"] == 2 and event.values()[:2] == (0, 1)


def test_events_are_records_with_kinds() -> None:
    assert isinstance(_call(), Event)
    assert ActionTaken.kind == "action" and SeatTaken.kind == "seat_taken"
    assert isinstance(SeatTaken(1, "p", "P", 100), Event)


def test_records_refuse_fractional_chips_with_specific_errors() -> None:
    with pytest.raises(InvalidAmountError, match="whole chips"):
        Action(ActionKind.BET_OR_RAISE, 4.5)
    with pytest.raises(InvalidAmountError, match="whole chips"):
        Action(ActionKind.BET_OR_RAISE, True)
    with pytest.raises(SetupError, match="whole number"):
        Player(seat=1, stack=99.5)
    with pytest.raises(SetupError, match="whole number"):
        Player(seat=1, stack=-1)


def test_every_record_names_all_its_fields_in_order() -> None:
    """``__match_args__`` drives equality, hashing, repr, copies and the JSON event log: a
    field assigned in ``__init__`` but not named there would silently drop out of all five."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "src" / "pokerroom"
    checked = 0
    for path in root.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in tree.body:
            if not isinstance(node, ast.ClassDef):
                continue
            named: list[str] | None = None
            assigned: list[str] = []
            for item in node.body:
                if (
                    isinstance(item, ast.AnnAssign)
                    and isinstance(item.target, ast.Name)
                    and item.target.id == "__match_args__"
                    and item.value is not None
                ):
                    named = list(ast.literal_eval(item.value))
                if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                    assigned = [
                        stmt.target.attr
                        for stmt in ast.walk(item)
                        if isinstance(stmt, ast.AnnAssign)
                        and isinstance(stmt.target, ast.Attribute)
                        and isinstance(stmt.target.value, ast.Name)
                        and stmt.target.value.id == "self"
                    ]
            if named is not None and named:
                assert named == assigned, f"{path.name}: {node.name}"
                checked += 1
    assert checked >= 35  # events, actions, players, posts, pots, blind plans


def test_events_are_built_by_keyword_in_the_source() -> None:
    """Every event in ``src`` is built naming its fields
    (``ActionTaken(position=..., seat=..., action=Move.FOLD, ...)``), so that a field added,
    removed or reordered can never shift a value into the wrong one."""
    import ast
    from pathlib import Path

    import pokerroom.engine.events as engine_events
    import pokerroom.table.events as table_events

    events = {
        name
        for module in (engine_events, table_events)
        for name, value in vars(module).items()
        if isinstance(value, type) and issubclass(value, Event) and value is not Event
    }
    root = Path(__file__).resolve().parents[1] / "src" / "pokerroom"
    built = 0
    positional: list[str] = []
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            if node.func.id in events:
                built += 1
                if node.args:
                    positional.append(f"{path.relative_to(root)}:{node.lineno} {node.func.id}")
    assert not positional, positional
    assert built >= 30 and len(events) >= 25
