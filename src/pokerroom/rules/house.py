"""House options (typed, validated) and the five seed rooms' presets, loaded from data files."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, fields, replace
from functools import cache
from importlib import resources
from typing import Any, Literal, get_args

from pokerroom.rules.errors import RulesError
from pokerroom.rules.game import GameSpec, Stakes, Structure, Variant, small_blind_for
from pokerroom.rules.rake import RakeSchedule, load_rake_schedule

SbRounding = Literal["exact", "nearest_dollar"]
PotBasis = Literal["all_pots", "active_pot"]
ShowPolicy = Literal["voluntary", "last_aggressor_must_show", "all_show"]
TimeoutPolicy = Literal["allin_protection", "check_fold"]
FirstButton = Literal["first_seat", "draw"]
MlBackInBigBlind = Literal["big_blind_only", "pays_both"]
MissedSmallBlind = Literal["dead", "moving"]

_CHOICES: dict[str, tuple[str, ...]] = {
    "sb_rounding": get_args(SbRounding),
    "pl_pot_basis": get_args(PotBasis),
    "show_policy": get_args(ShowPolicy),
    "timeout_policy": get_args(TimeoutPolicy),
    "first_button": get_args(FirstButton),
    "ml_back_in_big_blind": get_args(MlBackInBigBlind),
    "missed_small_blind": get_args(MissedSmallBlind),
}
# A house saved before ``nearest_dollar`` replaced it (a table's snapshot): the table keeps
# its stored small blind, so only the option's name changes.
_RENAMED_CHOICES = {("sb_rounding", "floor_dollar"): "nearest_dollar"}


@dataclass(frozen=True, slots=True, kw_only=True)
class HouseOptions:
    """Everything the rooms disagree on (RULES.md, last section). Defaults: WSOP/PHH rules."""

    name: str = "standard"
    games: tuple[tuple[Variant, Structure], ...] = tuple((v, s) for v in Variant for s in Structure)
    sb_rounding: SbRounding = "exact"  # R-BLIND-3
    raise_cap: int | None = 4  # R-LIM-2: bets in a limit round, the first bet included
    heads_up_uncapped: bool = False  # R-LIM-3
    cash_table: bool = True  # R-LIM-3 applies at cash (and play-money) tables only
    pl_pot_basis: PotBasis = "all_pots"  # R-PL-3
    show_policy: ShowPolicy = "voluntary"  # R-SHOW-4
    no_flop_no_drop: bool = True  # R-RAKE-1
    rake: str | None = None  # a rake schedule's name (R-RAKE-*)
    min_rake: int | None = None  # R-RAKE-3: overrides the schedule's minimum when set
    timeout_policy: TimeoutPolicy = "check_fold"  # R-TIME-2
    first_button: FirstButton = "first_seat"  # R-BTN-2
    # R-SEAT-3: a player with ML back in the big blind posts it alone, or the dead small too
    ml_back_in_big_blind: MlBackInBigBlind = "big_blind_only"
    # R-SEAT-4: a missing small blind is dead, or the player due the big blind posts it
    missed_small_blind: MissedSmallBlind = "dead"
    seat_choices: tuple[int, ...] = (2, 3, 4, 5, 6, 7, 8, 9, 10)  # R-SEAT-1
    min_players: int = 2  # R-SEAT-1
    min_buy_in_bb: int = 20  # R-STAKE-2 (in big blinds = small bets)
    max_buy_in_bb: int = 100
    decision_seconds: int = 30  # R-TIME-1
    warning_after_seconds: int = 10  # R-TIME-1: shown as 10 s, then a countdown
    time_bank_seconds: int = 30
    time_bank_refill_seconds: int = 5
    time_bank_refill_hands: int = 10
    reconnect_extra_seconds: int = 20  # R-TIME-3
    timeouts_before_sit_out: int = 2
    # How long a cash-table seat may sit out before it is cashed out and freed (None: for
    # ever); the large rooms allow a few minutes.
    sit_out_seconds: int | None = 300
    rebuy_seconds: int = 60  # R-STAKE-2: how long a busted player keeps the seat to rebuy
    # Table options beyond the seeds, each off unless the table (a private game's host)
    # turns it on:
    straddle: bool = False  # R-STRADDLE-1: a live straddle left of the big blind
    run_it_twice: bool = False  # R-RIT-1: all-in players may agree to two run-outs
    # R-RIT-1: "a prompt with a few seconds to answer; no answer is no" (no time bank)
    runout_seconds: int = 5
    bomb_pot: bool = False  # R-BOMB-1: the host may mark a hand a bomb pot
    max_bomb_pot_bb: int = 20  # R-BOMB-1: the most big blinds a bomb pot may take
    notes: tuple[str, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        for key, choices in _CHOICES.items():
            if getattr(self, key) not in choices:
                raise RulesError(
                    f"house {self.name}: {key} must be one of {', '.join(choices)},"
                    f" got {getattr(self, key)!r}"
                )
        if self.raise_cap is not None and self.raise_cap < 2:
            raise RulesError(f"house {self.name}: raise_cap must be at least 2 bets")
        if not self.seat_choices or not all(2 <= s <= 10 for s in self.seat_choices):
            raise RulesError(f"house {self.name}: seat_choices must lie within 2..10")
        if not 2 <= self.min_players <= max(self.seat_choices):
            raise RulesError(f"house {self.name}: min_players {self.min_players} is not possible")
        if not 0 < self.min_buy_in_bb <= self.max_buy_in_bb:
            raise RulesError(
                f"house {self.name}: buy-in range {self.min_buy_in_bb}..{self.max_buy_in_bb}"
                " big blinds is empty"
            )
        if self.sit_out_seconds is not None and self.sit_out_seconds <= 0:
            raise RulesError(f"house {self.name}: sit_out_seconds must be positive (or none)")
        if self.rebuy_seconds < 0:
            raise RulesError(f"house {self.name}: rebuy_seconds cannot be negative")
        if not 0 <= self.warning_after_seconds <= self.decision_seconds:
            raise RulesError(f"house {self.name}: the warning must come within the time limit")
        if not self.games:
            raise RulesError(f"house {self.name}: no games")
        if self.runout_seconds < 1:
            raise RulesError(f"house {self.name}: runout_seconds must be at least 1")
        if self.max_bomb_pot_bb < 1:
            raise RulesError(f"house {self.name}: max_bomb_pot_bb must be at least 1")
        if self.rake is not None:
            self.rake_schedule()  # a schedule that does not load is an error now, not mid-hand

    @property
    def max_seats(self) -> int:
        return max(self.seat_choices)

    def rake_schedule(self) -> RakeSchedule | None:
        return None if self.rake is None else load_rake_schedule(self.rake)

    def small_blind(self, big_blind: int) -> int:
        return small_blind_for(big_blind, self.sb_rounding)

    def game(
        self, variant: Variant, structure: Structure, big_blind: int, **stakes: int
    ) -> GameSpec:
        """A game this house deals, with its small blind by R-BLIND-3."""
        if (variant, structure) not in self.games:
            raise RulesError(f"house {self.name} does not deal {structure.label} {variant.label}")
        small = stakes.pop("small_blind", self.small_blind(big_blind))
        return GameSpec(
            variant=variant,
            structure=structure,
            stakes=Stakes(small_blind=small, big_blind=big_blind, **stakes),
        )

    def check_table(self, spec: GameSpec, seats: int) -> list[str]:
        """Configuration check of a table under this house: errors raise, notes return."""
        if (spec.variant, spec.structure) not in self.games:
            raise RulesError(f"house {self.name} does not deal {spec.name}")
        if seats not in self.seat_choices:
            raise RulesError(f"house {self.name} has no {seats}-seat tables")
        if self.straddle and spec.structure is Structure.FIXED_LIMIT:
            raise RulesError(f"house {self.name}: no straddle in fixed-limit (R-STRADDLE-1)")
        schedule = self.rake_schedule()
        if schedule is None:
            return []
        return schedule.check(spec.structure, spec.stakes.big_blind, seats)

    def with_options(self, **changes: Any) -> HouseOptions:
        return replace(self, **changes)


_FIELDS = {f.name for f in fields(HouseOptions)}


def parse_house(data: dict[str, Any], name: str) -> HouseOptions:
    unknown = set(data) - _FIELDS
    if unknown:
        raise RulesError(f"house {name}: unknown options {', '.join(sorted(unknown))}")
    values = dict(data)
    try:
        if "games" in values:
            values["games"] = tuple(
                (Variant(v), Structure(s)) for v, s in (g.split("/") for g in values["games"])
            )
    except ValueError as error:
        raise RulesError(f"house {name}: games: {error}") from None
    for key in ("seat_choices", "notes"):
        if key in values:
            values[key] = tuple(values[key])
    for (key, old), new in _RENAMED_CHOICES.items():
        if values.get(key) == old:
            values[key] = new
    values.setdefault("name", name)
    try:
        return HouseOptions(**values)
    except TypeError as error:
        raise RulesError(f"house {name}: {error}") from None


def preset_names() -> list[str]:
    folder = resources.files("pokerroom.rules").joinpath("data", "presets")
    return sorted(
        p.name.removesuffix(".toml") for p in folder.iterdir() if p.name.endswith(".toml")
    )


@cache
def load_preset(name: str) -> HouseOptions:
    """One of the seed rooms: multipoker, fortune, titan, sweden, casino."""
    resource = resources.files("pokerroom.rules").joinpath("data", "presets", f"{name}.toml")
    if not resource.is_file():
        raise RulesError(f"no house preset {name!r}; presets: {', '.join(preset_names())}")
    try:
        data = tomllib.loads(resource.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise RulesError(f"preset {name!r} does not parse: {error}") from None
    return parse_house(data, name)


STANDARD = HouseOptions()
