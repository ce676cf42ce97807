"""Immutable records that are cheap to create.

``@dataclass(frozen=True)`` stores every field through ``object.__setattr__``,
which made event creation about a third of the engine's time (dozens of events
a hand). ``record`` builds the same kind of class -- slots, ``__eq__``,
``__repr__``, ``__match_args__``, a field hash -- with an ``__init__`` that
stores fields through their slot descriptors (then calls ``__post_init__``,
if the class has one). Assigning or deleting a field
afterwards raises ``FrozenInstanceError``, exactly as with ``frozen=True``.
"""

from __future__ import annotations

from dataclasses import MISSING, FrozenInstanceError, dataclass, fields
from typing import Any, TypeVar, dataclass_transform

T = TypeVar("T")


def _refuse_set(self: object, name: str, value: object) -> None:
    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def _refuse_delete(self: object, name: str) -> None:
    raise FrozenInstanceError(f"cannot delete field {name!r}")


@dataclass_transform(eq_default=True, frozen_default=True)
def record(cls: type[T]) -> type[T]:
    """Make ``cls`` an immutable slotted dataclass with a fast ``__init__``."""
    made: Any = dataclass(slots=True, eq=True)(cls)
    names = [f.name for f in fields(made)]
    namespace: dict[str, Any] = {f"_set_{n}": getattr(made, n).__set__ for n in names}
    params = []
    for f in fields(made):
        if f.default is not MISSING:
            namespace[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        elif f.default_factory is not MISSING:
            raise TypeError(f"{made.__name__}.{f.name}: records take plain defaults only")
        else:
            params.append(f.name)
    body = "".join(f"    _set_{n}(self, {n})\n" for n in names) or "    pass\n"
    if hasattr(made, "__post_init__"):  # validation hooks run as with a dataclass
        body += "    self.__post_init__()\n"
    exec(f"def __init__(self, {', '.join(params)}):\n{body}", namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{made.__qualname__}.__init__"
    made.__init__ = init
    made.__setattr__ = _refuse_set
    made.__delattr__ = _refuse_delete
    made.__hash__ = lambda self: hash(tuple(getattr(self, n) for n in names))
    setters = [getattr(made, n).__set__ for n in names]

    def set_state(self: object, state: tuple[object, ...]) -> None:  # pickle and copy
        for set_field, value in zip(setters, state, strict=True):
            set_field(self, value)

    made.__getstate__ = lambda self: tuple(getattr(self, n) for n in names)
    made.__setstate__ = set_state
    result: type[T] = made
    return result
