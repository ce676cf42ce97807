"""Frames as JSON text: one encoder for every frame, and one table frame's encoding shared
by all its viewers (the hot path of a busy room)."""

from __future__ import annotations

import json
from typing import Any

# One encoder for every frame: ``json.dumps`` with separators builds a new one per call.
_ENCODER = json.JSONEncoder(separators=(",", ":"))


def encode(payload: dict[str, Any]) -> str:
    return _ENCODER.encode(payload)


class SharedEncoding:
    """One table frame's JSON for all its viewers, each shared part encoded once.

    A seated viewer's frame is the public one (``views.state_for_seat`` copies it) with a
    few fields of its own: its seat's cards and options, and for the player to act the
    legal actions. Encoding every viewer's frame whole encoded the same seats and board
    once per viewer (the room's largest CPU cost under load); here a field or a seat that is
    the public frame's own object is written from the public frame's encoding. ``encode``
    gives exactly what ``encode`` gives for the same payload (tests/server/test_frames.py).
    """

    __slots__ = ("_keys", "_parts", "_seats", "public", "whole")

    def __init__(self, public: dict[str, Any]) -> None:
        self.public = public
        self._keys = {key: json.dumps(key) for key in public}
        self._parts = {key: encode_value(value) for key, value in public.items()}
        seats = public.get("seats")
        self._seats = [encode_value(s) for s in seats] if isinstance(seats, list) else []
        self.whole = "{" + ",".join(f"{self._keys[k]}:{v}" for k, v in self._parts.items()) + "}"

    def encode(self, payload: dict[str, Any]) -> str:
        public, parts = self.public, []
        for key, value in payload.items():
            if key in public and value is public[key]:
                part = self._parts[key]
            elif key == "seats" and isinstance(value, list):
                part = self._encode_seats(value)
            else:
                part = encode_value(value)
            parts.append(f"{self._keys.get(key) or json.dumps(key)}:{part}")
        return "{" + ",".join(parts) + "}"

    def _encode_seats(self, seats: list[Any]) -> str:
        shared, encoded = self.public.get("seats"), self._seats
        assert isinstance(shared, list)
        return (
            "["
            + ",".join(
                encoded[i] if i < len(encoded) and seat is shared[i] else encode_value(seat)
                for i, seat in enumerate(seats)
            )
            + "]"
        )


def encode_value(value: Any) -> str:
    return _ENCODER.encode(value)
