"""``pokerroom protocol-types``: the browser client's types for the WebSocket frames, written
from the protocol's models (server/sockets/protocol.py) as a TypeScript declaration file that
the client's JSDoc comments import and ``tsc`` checks (``make lint``). The page never loads it.

The file is committed; a test fails when it differs from what this writes from the models now.
"""

from __future__ import annotations

import enum
import types
import typing
from pathlib import Path
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import typer
from pydantic import BaseModel

from pokerroom.server.sockets.protocol import ClientMessage, ServerFrame

TARGET = Path(__file__).resolve().parents[1] / "web" / "js" / "protocol.d.ts"

_HEADER = """\
// The WebSocket frames as the server's models define them (server/sockets/protocol.py).
// Written by `pokerroom protocol-types`; do not edit (a test compares it with the models).
// A field with a default in the model (but the `type` tag) is optional here: the model
// accepts it left out.
"""


def _union_members(annotation: Any) -> list[Any]:
    """The members of an ``Annotated[A | B, Field(discriminator=...)]`` union, in order."""
    if get_origin(annotation) is Annotated:
        annotation = get_args(annotation)[0]
    return list(get_args(annotation))


def _ts(annotation: Any, models: dict[str, type[BaseModel]]) -> str:
    """One Python annotation as a TypeScript type; a nested model is collected in ``models``."""
    if annotation is type(None) or annotation is None:
        return "null"
    if annotation is Any:
        return "any"  # the model leaves it open (a private game is the REST API's shape)
    if annotation is str:
        return "string"
    if annotation in (int, float):
        return "number"
    if annotation is bool:
        return "boolean"
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        # The wire carries an enum's values (an action, a hand's category, a rank).
        return " | ".join(
            f'"{member.value}"' if isinstance(member.value, str) else str(member.value)
            for member in annotation
        )
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        models.setdefault(annotation.__name__, annotation)
        return annotation.__name__
    origin, args = get_origin(annotation), get_args(annotation)
    if origin is Annotated:
        return _ts(args[0], models)
    if origin is Literal:
        return " | ".join(f'"{value}"' if isinstance(value, str) else str(value) for value in args)
    if origin in (Union, types.UnionType):
        return " | ".join(_ts(arg, models) for arg in args)
    if origin is list:
        inner = _ts(args[0], models)
        return f"({inner})[]" if " " in inner else f"{inner}[]"
    if origin is tuple:
        return "[" + ", ".join(_ts(arg, models) for arg in args) + "]"
    if origin is dict:
        return f"Record<{_ts(args[0], models)}, {_ts(args[1], models)}>"
    raise TypeError(f"no TypeScript type for {annotation!r}: teach protocol_types.py")


def _interface(model: type[BaseModel], models: dict[str, type[BaseModel]]) -> str:
    hints = typing.get_type_hints(model, include_extras=True)
    lines = []
    doc = (model.__doc__ or "").strip()
    if doc and model.__doc__ != BaseModel.__doc__:
        lines.append("/** " + " ".join(doc.split()) + " */")
    lines.append(f"export interface {model.__name__} {{")
    for name, field in model.model_fields.items():
        wire = field.serialization_alias or field.alias or name
        # The tag is sent with every frame, its default notwithstanding.
        optional = "" if field.is_required() or name == "type" else "?"
        key = wire if wire.isidentifier() else repr(wire)
        lines.append(f"  {key}{optional}: {_ts(hints[name], models)};")
    lines.append("}")
    return "\n".join(lines)


def _union(name: str, members: list[Any], models: dict[str, type[BaseModel]]) -> str:
    return f"export type {name} =\n" + "\n".join(f"  | {_ts(m, models)}" for m in members) + ";"


def protocol_types() -> str:
    """The text of ``protocol.d.ts`` for the models as they are."""
    models: dict[str, type[BaseModel]] = {}
    unions = [
        _union("ServerFrame", _union_members(ServerFrame), models),
        _union("ClientMessage", _union_members(ClientMessage), models),
    ]
    written: dict[str, str] = {}
    while len(written) < len(models):  # a model's fields may name models not yet seen
        for name, model in list(models.items()):
            if name not in written:
                written[name] = _interface(model, models)
    parts = [_HEADER, *unions, *(written[name] for name in sorted(written))]
    return "\n\n".join(part.rstrip("\n") for part in parts) + "\n"


def protocol_types_command(
    check: bool = typer.Option(False, "--check", help="Only say whether the file is current."),
) -> None:
    """Write web/js/protocol.d.ts (the client's frame types) from the protocol's models."""
    text = protocol_types()
    if check:
        current = TARGET.read_text(encoding="utf-8") if TARGET.exists() else ""
        if current != text:
            typer.echo(f"{TARGET} is out of date: run `pokerroom protocol-types`", err=True)
            raise typer.Exit(1)
        return
    TARGET.write_text(text, encoding="utf-8")
    typer.echo(f"wrote {TARGET}")
