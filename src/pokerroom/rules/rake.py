"""Rake schedules (R-RAKE-1 .. R-RAKE-5), read from data files and validated on load.

A schedule has *bands* by betting structure and stakes (the big blind, which is
the small bet in limit games). Each band has rows by the number of players
dealt in; a row is either a threshold table (the rake is the value at the
highest pot threshold reached) or an amount per full step of pot, and has a
cap. Amounts are in the table's smallest unit (cents).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from pokerroom.rules.errors import RulesError
from pokerroom.rules.game import Structure


@dataclass(frozen=True, slots=True)
class RakeRow:
    min_players: int
    max_players: int
    cap: int
    thresholds: tuple[tuple[int, int], ...] = ()
    step: int = 0
    per_step: int = 0

    def rake(self, pot: int) -> int:
        if self.thresholds:
            value = 0
            for threshold, amount in self.thresholds:
                if pot >= threshold:
                    value = amount
            return min(value, self.cap)
        return min((pot // self.step) * self.per_step, self.cap)


@dataclass(frozen=True, slots=True)
class RakeBand:
    structures: frozenset[Structure]
    min_big_blind: int
    max_big_blind: int | None
    rows: tuple[RakeRow, ...]
    min_rake: int = 0

    def covers(self, structure: Structure, big_blind: int) -> bool:
        upper_ok = self.max_big_blind is None or big_blind <= self.max_big_blind
        return structure in self.structures and self.min_big_blind <= big_blind and upper_ok

    def row_for(self, players: int) -> RakeRow:
        """The row for this many players dealt in; past the last row, the last row (R-RAKE-5)."""
        for row in self.rows:
            if row.min_players <= players <= row.max_players:
                return row
        if players > self.rows[-1].max_players:
            return self.rows[-1]
        raise RulesError(f"no rake row for {players} players")


@dataclass(frozen=True, slots=True)
class RakeSchedule:
    name: str
    bands: tuple[RakeBand, ...]

    def band_for(self, structure: Structure, big_blind: int) -> RakeBand:
        for band in self.bands:
            if band.covers(structure, big_blind):
                return band
        raise RulesError(
            f"rake schedule {self.name!r} has no band for {structure.value} with big blind"
            f" {big_blind}: a table outside the bands needs its own schedule"
        )

    def rake(
        self,
        pot: int,
        *,
        players: int,
        structure: Structure,
        big_blind: int,
        min_rake: int | None = None,
    ) -> int:
        """The rake of a pot; below the minimum rake nothing is taken (R-RAKE-3)."""
        band = self.band_for(structure, big_blind)
        value = band.row_for(players).rake(pot)
        floor = band.min_rake if min_rake is None else min_rake
        return value if value >= floor else 0

    def check(self, structure: Structure, big_blind: int, max_seats: int) -> list[str]:
        """Configuration notes for a table: which rows it uses beyond the schedule (R-RAKE-5)."""
        band = self.band_for(structure, big_blind)
        last = band.rows[-1].max_players
        if max_seats > last:
            return [
                f"rake {self.name}: {last + 1}-{max_seats} players are not in the schedule;"
                f" the {band.rows[-1].min_players}-{last} row is used"
            ]
        return []


def _int(table: dict[str, Any], key: str, where: str, default: int | None = None) -> int:
    value = table.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise RulesError(f"{where}: {key} must be a whole number >= 0, got {value!r}")
    return value


def _row(data: dict[str, Any], where: str) -> RakeRow:
    players = data.get("players")
    if (
        not isinstance(players, list)
        or len(players) != 2
        or not all(isinstance(p, int) for p in players)
        or not 2 <= players[0] <= players[1] <= 10
    ):
        raise RulesError(f"{where}: players must be [low, high] within 2..10, got {players!r}")
    cap = _int(data, "cap", where)
    if "thresholds" in data:
        if "step" in data or "per_step" in data:
            raise RulesError(f"{where}: a row has thresholds or a step, not both")
        raw = data["thresholds"]
        pairs: list[tuple[int, int]] = []
        for pair in raw if isinstance(raw, list) else [None]:
            if not (
                isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, int) for x in pair)
            ):
                raise RulesError(f"{where}: thresholds are [pot, rake] pairs, got {pair!r}")
            pairs.append((pair[0], pair[1]))
        if not pairs or [p for p, _ in pairs] != sorted({p for p, _ in pairs}):
            raise RulesError(f"{where}: thresholds must rise strictly")
        if [r for _, r in pairs] != sorted(r for _, r in pairs):
            raise RulesError(f"{where}: rake must not fall as the pot grows")
        if pairs[-1][1] > cap:
            raise RulesError(f"{where}: a threshold's rake {pairs[-1][1]} exceeds the cap {cap}")
        return RakeRow(players[0], players[1], cap, thresholds=tuple(pairs))
    step, per_step = _int(data, "step", where), _int(data, "per_step", where)
    if step == 0 or per_step == 0:
        raise RulesError(f"{where}: step and per_step must be positive")
    return RakeRow(players[0], players[1], cap, step=step, per_step=per_step)


def _band(data: dict[str, Any], where: str) -> RakeBand:
    try:
        structures = frozenset(Structure(s) for s in data.get("structures", []))
    except ValueError as error:
        raise RulesError(f"{where}: {error}") from None
    if not structures:
        raise RulesError(f"{where}: structures must name at least one betting structure")
    low = _int(data, "min_big_blind", where, 0)
    high = data.get("max_big_blind")
    if high is not None and (not isinstance(high, int) or high < low):
        raise RulesError(f"{where}: max_big_blind {high!r} is below min_big_blind {low}")
    rows = tuple(_row(r, f"{where} row {i + 1}") for i, r in enumerate(data.get("rows", [])))
    if not rows:
        raise RulesError(f"{where}: a band needs at least one row")
    expected = 2
    for row in rows:  # rows must cover 2.. without a gap, else some pot is uncovered
        if row.min_players != expected:
            raise RulesError(
                f"{where}: players {expected}..{row.min_players - 1} are not covered"
                if row.min_players > expected
                else f"{where}: rows overlap at {row.min_players} players"
            )
        expected = row.max_players + 1
    return RakeBand(structures, low, high, rows, min_rake=_int(data, "min_rake", where, 0))


def parse_rake_schedule(text: str, name: str) -> RakeSchedule:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise RulesError(f"rake schedule {name!r} does not parse: {error}") from None
    bands = tuple(_band(b, f"rake {name} band {i + 1}") for i, b in enumerate(data.get("band", [])))
    if not bands:
        raise RulesError(f"rake schedule {name!r} has no bands")
    for i, a in enumerate(bands):
        for b in bands[i + 1 :]:
            shared = a.structures & b.structures
            a_high = a.max_big_blind if a.max_big_blind is not None else 1 << 62
            b_high = b.max_big_blind if b.max_big_blind is not None else 1 << 62
            if shared and a.min_big_blind <= b_high and b.min_big_blind <= a_high:
                raise RulesError(f"rake schedule {name!r}: two bands cover the same stakes")
    return RakeSchedule(name=str(data.get("name", name)), bands=bands)


def load_rake_schedule(name_or_path: str | Path) -> RakeSchedule:
    """A schedule shipped in the package (by name) or from a file path."""
    if isinstance(name_or_path, str) and not name_or_path.endswith(".toml"):
        return _packaged(name_or_path)  # the common case, cached: no file system look-up
    path = Path(name_or_path)
    if path.suffix == ".toml" and path.exists():
        return parse_rake_schedule(path.read_text(encoding="utf-8"), path.stem)
    return _packaged(str(name_or_path))


@cache
def _packaged(name: str) -> RakeSchedule:
    """A schedule shipped with the package; parsed once (schedules are immutable)."""
    resource = resources.files("pokerroom.rules").joinpath("data", "rake", f"{name}.toml")
    if not resource.is_file():
        raise RulesError(f"no rake schedule named {name!r}")
    return parse_rake_schedule(resource.read_text(encoding="utf-8"), name)
