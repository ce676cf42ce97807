"""docs/protocol.md and the server's frame models say the same: every frame type
and field documented for server-to-client frames exists in server/sockets/protocol.py's models, and
every model's frame type and field is documented."""

from __future__ import annotations

import json
import re
import typing
from pathlib import Path

from pydantic import BaseModel

from pokerroom.server.sockets import protocol

DOCS = Path(__file__).resolve().parents[3] / "docs" / "protocol.md"


def server_examples() -> list[str]:
    """The JSON examples of the "Server to client" section: code blocks and inline frames."""
    text = DOCS.read_text()
    section = text.split("## Server to client", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```json\n(.*?)```", section, flags=re.S)
    inline = re.findall(r"`(\{\"type\".*?\})`", section)
    return [*blocks, *inline]


def fields_seen(model: BaseModel, seen: dict[type[BaseModel], set[str]]) -> None:
    seen.setdefault(type(model), set()).update(model.model_fields_set)
    for name in model.model_fields_set:
        value = getattr(model, name)
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, BaseModel):
                fields_seen(item, seen)


def models_of(model: type[BaseModel], found: set[type[BaseModel]]) -> None:
    found.add(model)
    for info in model.model_fields.values():
        for arg in [info.annotation, *_args(info.annotation)]:
            if isinstance(arg, type) and issubclass(arg, BaseModel) and arg not in found:
                models_of(arg, found)


def _args(annotation: object) -> list[object]:
    out: list[object] = []
    for arg in typing.get_args(annotation):
        out += [arg, *_args(arg)]
    return out


def test_every_documented_server_frame_field_is_in_the_models() -> None:
    examples = server_examples()
    assert len(examples) >= 7
    for example in examples:
        data = json.loads(example)
        model = protocol.parse_server(example)  # an unknown type fails here
        # A documented field the model does not have would be dropped from the dump.
        assert model.model_dump(mode="json", by_alias=True, exclude_unset=True) == data


def test_every_model_frame_and_field_is_documented() -> None:
    seen: dict[type[BaseModel], set[str]] = {}
    for example in server_examples():
        fields_seen(protocol.parse_server(example), seen)
    everything: set[type[BaseModel]] = set()
    for frame in protocol.SERVER_FRAMES:
        models_of(frame, everything)
    for model in everything:
        assert model in seen, f"{model.__name__} has no example in docs/protocol.md"
        missing = set(model.model_fields) - seen[model]
        assert not missing, f"{model.__name__}: {sorted(missing)} not in docs/protocol.md"
