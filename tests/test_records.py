"""Records: immutable, comparable, hashable, picklable -- like frozen dataclasses."""

import copy
import pickle
from dataclasses import FrozenInstanceError
from typing import ClassVar

import pytest

from pokerroom.engine.events import ActionTaken, Event
from pokerroom.records import record


@record
class Point:
    kind: ClassVar[str] = "point"
    x: int
    y: int = 0


def test_records_are_immutable() -> None:
    p = Point(1, 2)
    with pytest.raises(FrozenInstanceError, match="'x'"):
        p.x = 3  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        del p.y  # type: ignore[misc]
    with pytest.raises(AttributeError):
        p.z = 1  # type: ignore[attr-defined]


def test_records_compare_hash_copy_pickle_and_match() -> None:
    p = Point(1)
    assert p == Point(x=1, y=0) and p != Point(1, 1)
    assert hash(p) == hash(Point(1, 0)) and len({p, Point(1, 0)}) == 1
    assert repr(p) == "Point(x=1, y=0)" and p.kind == "point"
    assert pickle.loads(pickle.dumps(p)) == p and copy.deepcopy(p) == p
    match p:
        case Point(x, y):
            assert (x, y) == (1, 0)


def test_events_are_records() -> None:
    event = ActionTaken(0, 1, "call", 2, 2, False)
    assert isinstance(event, Event) and event.kind == "action"
    with pytest.raises(FrozenInstanceError):
        event.added = 5  # type: ignore[misc]
