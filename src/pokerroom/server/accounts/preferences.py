"""A player's client preferences, saved per account: the wire type, checked here
before anything is stored.

``GET /api/preferences`` answers the whole object; ``PUT /api/preferences`` takes any part of
it, and a field that is unknown or has a bad value is refused with nothing stored. The client
reads ``language`` (``null``: follow the browser), the others are its table options.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from pokerroom.server.sockets.errors import ApiError

LANGUAGES = ("en", "nb", "da", "sv", "hu")
MAX_BODY_BYTES = 2048  # the whole object is about 120 bytes
Language = Literal["en", "nb", "da", "sv", "hu"]
Percent = Annotated[int, Field(ge=1, le=1000)]


class Preferences(BaseModel):
    """Every preference with its default; strict (``true`` is not 1, ``"50"`` is not 50)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    language: Language | None = None
    deck: Literal["four", "two"] = "four"
    auto_muck: bool = True  # as the big rooms: a losing hand that may be mucked is mucked
    bet_presets: list[Percent] = Field(default=[50, 75, 100], min_length=1, max_length=4)
    hotkeys: bool = True
    # The F key when checking is free: ask first (a second F folds), or check.
    free_check_f: Literal["ask", "check"] = "ask"

    @field_validator("bet_presets")
    @classmethod
    def _distinct(cls, presets: list[int]) -> list[int]:
        if len(set(presets)) != len(presets):
            raise ValueError("bet presets must be distinct")
        return presets


FIELDS = frozenset(Preferences.model_fields)


def saved(stored: dict[str, Any]) -> Preferences:
    """The preferences as stored, each field that no longer validates (a language dropped
    since, say) back at its default: a stored object never makes the account unusable."""
    kept: dict[str, Any] = {}
    for name in FIELDS & stored.keys():
        try:
            Preferences.model_validate({name: stored[name]})
        except ValidationError:
            continue
        kept[name] = stored[name]
    return Preferences.model_validate(kept)


def changed(stored: dict[str, Any], change: dict[str, Any]) -> dict[str, Any]:
    """The whole object to store: ``change`` (part of the object) over what is ``stored``.
    Raises ApiError (422, code ``preferences.*``) naming the first bad field."""
    for name in change:
        if name not in FIELDS:
            raise ApiError(422, "preferences.unknown", field=str(name)[:40])
    merged = {**saved(stored).model_dump(), **change}
    try:
        return Preferences.model_validate(merged).model_dump()
    except ValidationError as error:
        first = error.errors()[0]
        field = str(first["loc"][0]) if first["loc"] else "preferences"
        reason = str(first["msg"]).removeprefix("Value error, ")
        raise ApiError(422, "preferences.invalid", field=field, reason=reason) from None
