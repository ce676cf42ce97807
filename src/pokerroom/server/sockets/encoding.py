"""Frames as JSON text: one encoder for every frame, and one table frame's encoding shared
by all its viewers (the hot path of a busy room).

orjson (a compiled encoder) writes a whole table frame in a few microseconds: measured
under load, the standard library's encoder was the room's largest CPU cost per action,
and stitching the viewers' frames from shared parts in Python saved less than
orjson gives for encoding each frame whole (measured again with a cache of each seat's
entry and player's options kept from frame to frame, and the public frame's text cut where
each viewer's members go: with a hundred tables in turn, each table's cached members are
out of the processor's caches when its next frame is built, and the room spent as much as
before). Its output is the compact JSON the standard
library gives with ``separators=(",", ":")``, except that text is written as UTF-8
rather than ``\\u`` escapes (the same JSON to every parser).
"""

from __future__ import annotations

from typing import Any

import orjson

# Integer keys written as strings, as ``json.dumps`` does (a parser sees the same object):
# only for a payload that has them, since the option makes orjson about twice as slow and a
# table frame has string keys only.
_OPTIONS = orjson.OPT_NON_STR_KEYS


def encode(payload: dict[str, Any]) -> str:
    return encode_utf8(payload).decode()


def encode_utf8(payload: dict[str, Any]) -> bytes:
    """``encode``'s text as UTF-8, as the encoder gives it: a seated player's frame goes to
    its socket as these bytes, never made a ``str`` and encoded again."""
    try:
        return orjson.dumps(payload)
    except orjson.JSONEncodeError:  # a key that is not a string (or a value orjson refuses)
        return orjson.dumps(payload, option=_OPTIONS)


class SharedEncoding:
    """The public frame (what a spectator sees) of one broadcast, ``whole``: encoded once
    and only if some viewer sees it (a table of players only never does). A seated
    viewer's frame (``views.state_for_seat``: the public one with its own cards, options
    and legal actions) is its own, by ``encode_utf8``
    (tests/server/tables/test_frames_afresh.py)."""

    __slots__ = ("_whole", "public")

    def __init__(self, public: dict[str, Any]) -> None:
        self.public = public
        self._whole: str | None = None

    @property
    def whole(self) -> str:
        if self._whole is None:
            self._whole = encode(self.public)
        return self._whole
