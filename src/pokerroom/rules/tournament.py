"""Tournament structures: data files validated on load, like the house presets.

A structure says what a tournament deals and how it grows: the game, the table size, the
starting stack, the levels (small blind, big blind, ante or big-blind ante, minutes), the
breaks, late registration, re-entries, rebuys and the add-on, and a payout table for every
number of entrants. Money (buy-in, fee, rebuy and add-on prices) is in the room's smallest
unit; chips are tournament chips. Payout percentages are written with up to two decimals
and held as basis points (1% = 100), so every sum is an exact integer.

>>> s = load_tournament_structure("sng9")
>>> s.table_size, s.starting_stack, s.payout_for(9)
(9, 1500, (5000, 3000, 2000))
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from itertools import pairwise
from typing import Any, Literal

from pokerroom.rules.errors import RulesError
from pokerroom.rules.game import Stakes, Structure, Variant

Kind = Literal["sng", "mtt"]
CapLifts = Literal["never", "heads_up"]
WHOLE = 10_000  # basis points in 100%


@dataclass(frozen=True, slots=True, kw_only=True)
class Level:
    """One blind level; ``ante`` is posted by everyone, ``big_blind_ante`` by the big blind."""

    small_blind: int
    big_blind: int
    ante: int = 0
    big_blind_ante: int = 0
    minutes: int

    @property
    def stakes(self) -> Stakes:
        return Stakes(
            small_blind=self.small_blind,
            big_blind=self.big_blind,
            ante=self.ante,
            big_blind_ante=self.big_blind_ante,
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class Rebuy:
    """Rebuys through the end of level ``until_level``, for a stack at or below ``at_or_below``
    chips (0: only when busted), at most ``max`` per player."""

    until_level: int
    max: int
    chips: int
    price: int
    at_or_below: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class AddOn:
    """One add-on per player in the break after level ``after_level``."""

    after_level: int
    chips: int
    price: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Bounty:
    """A knockout event: ``amount`` of each buy-in is the entry's bounty, not prize pool.
    Progressive (PKO): a knockout pays half the busted player's bounty to the knocker and adds
    half to the knocker's own; plain: it pays the whole bounty. The winner gets their own."""

    amount: int
    progressive: bool = True


@dataclass(frozen=True, slots=True, kw_only=True)
class Satellite:
    """The prizes are seats in an event of structure ``target``: each worth the target's
    buy-in and fee (``seat``); N = pool // seat equal seats to the top N, what is left over to
    place N + 1 in cash; the event ends once N seats are decided."""

    target: str
    seat: int  # the target's buy-in plus its fee, in the room's smallest unit


@dataclass(frozen=True, slots=True, kw_only=True)
class PayoutTier:
    """For ``min_entrants``..``max_entrants`` entries: basis points per place, place 1 first."""

    min_entrants: int
    max_entrants: int
    places: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class TournamentStructure:
    name: str
    description: str
    kind: Kind
    variant: Variant
    structure: Structure
    table_size: int
    min_entrants: int
    max_entrants: int
    starting_stack: int
    buy_in: int  # to the prize pool
    fee: int  # the house's
    levels: tuple[Level, ...]
    breaks: tuple[tuple[int, int], ...]  # (after level, minutes)
    late_registration_levels: int  # entries are taken through the end of this level
    re_entries: int  # new entries a player may buy after busting (in late registration)
    rebuy: Rebuy | None
    addon: AddOn | None
    payouts: tuple[PayoutTier, ...]
    # R-LIM-3, TDA 48: in fixed limit the cap stays heads-up, or lifts once the whole event is
    # down to two players.
    limit_cap_lifts: CapLifts = "never"
    bounty: Bounty | None = None
    satellite: Satellite | None = None

    @property
    def bounty_amount(self) -> int:
        """Each entry's bounty at registration (0: not a knockout event)."""
        return 0 if self.bounty is None else self.bounty.amount

    @property
    def pool_share(self) -> int:
        """What each entry's buy-in puts in the prize pool (the buy-in less its bounty)."""
        return self.buy_in - self.bounty_amount

    def level(self, index: int) -> Level:
        """Level ``index`` (0-based); after the last level the last one stays."""
        return self.levels[min(index, len(self.levels) - 1)]

    def break_after(self, level_number: int) -> int:
        """Minutes of the break after level ``level_number`` (1-based), 0 when none."""
        return next((m for after, m in self.breaks if after == level_number), 0)

    def payout_for(self, entrants: int) -> tuple[int, ...]:
        """Basis points for each paid place, place 1 first (none: a satellite pays seats)."""
        if self.satellite is not None:
            return ()
        for tier in self.payouts:
            if tier.min_entrants <= entrants <= tier.max_entrants:
                return tier.places
        raise RulesError(
            f"structure {self.name}: no payout for {entrants} entrants"
            f" ({self.min_entrants}..{self.max_entrants})"
        )

    def level_schedule(self) -> list[tuple[float, float]]:
        """(start, end) of each level in seconds from the start, breaks between them."""
        spans = []
        at = 0.0
        for number, level in enumerate(self.levels, start=1):
            spans.append((at, at + level.minutes * 60))
            at += level.minutes * 60 + self.break_after(number) * 60
        return spans


_KEYS = {
    "name",
    "description",
    "kind",
    "game",
    "table_size",
    "entrants",
    "starting_stack",
    "buy_in",
    "fee",
    "levels",
    "breaks",
    "late_registration_levels",
    "re_entries",
    "rebuy",
    "addon",
    "payouts",
    "limit_cap_lifts",
    "bounty",
    "satellite",
}


def _whole(where: str, value: Any, *, minimum: int = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise RulesError(f"{where} must be a whole number >= {minimum}, got {value!r}")
    return value


def _table(where: str, data: Any, keys: set[str], required: set[str]) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise RulesError(f"{where} must be a table, got {data!r}")
    unknown = set(data) - keys
    if unknown:
        raise RulesError(f"{where}: unknown keys {', '.join(sorted(unknown))}")
    missing = required - set(data)
    if missing:
        raise RulesError(f"{where}: missing {', '.join(sorted(missing))}")
    return data


def _basis_points(where: str, percent: Any) -> int:
    if isinstance(percent, bool) or not isinstance(percent, int | float) or percent <= 0:
        raise RulesError(f"{where}: a percentage must be a positive number, got {percent!r}")
    points = round(percent * 100)
    if abs(points - percent * 100) > 1e-6:
        raise RulesError(f"{where}: {percent}% has more than two decimals")
    return points


def _levels(name: str, raw: Any) -> tuple[Level, ...]:
    if not isinstance(raw, list) or not raw:
        raise RulesError(f"structure {name}: levels must be a non-empty list")
    levels: list[Level] = []
    for number, item in enumerate(raw, start=1):
        where = f"structure {name}: level {number}"
        data = _table(
            where,
            item,
            {"small_blind", "big_blind", "ante", "big_blind_ante", "minutes"},
            {"small_blind", "big_blind", "minutes"},
        )
        level = Level(
            small_blind=_whole(f"{where} small_blind", data["small_blind"], minimum=1),
            big_blind=_whole(f"{where} big_blind", data["big_blind"], minimum=1),
            ante=_whole(f"{where} ante", data.get("ante", 0)),
            big_blind_ante=_whole(f"{where} big_blind_ante", data.get("big_blind_ante", 0)),
            minutes=_whole(f"{where} minutes", data["minutes"], minimum=1),
        )
        if level.small_blind > level.big_blind:
            raise RulesError(f"{where}: small blind {level.small_blind} exceeds the big blind")
        if level.ante and level.big_blind_ante:
            raise RulesError(f"{where}: an ante and a big-blind ante together")
        if levels and level.big_blind < levels[-1].big_blind:
            raise RulesError(f"{where}: the big blind goes down ({levels[-1].big_blind} before)")
        levels.append(level)
    return tuple(levels)


def _payouts(name: str, raw: Any, low: int, high: int) -> tuple[PayoutTier, ...]:
    if not isinstance(raw, list) or not raw:
        raise RulesError(f"structure {name}: payouts must be a non-empty list")
    tiers = []
    for item in raw:
        data = _table(f"structure {name}: payout", item, {"entrants", "places"}, set(item))
        span = data.get("entrants")
        if not (isinstance(span, list) and len(span) == 2):
            raise RulesError(f"structure {name}: payout entrants must be [min, max], got {span!r}")
        first = _whole(f"structure {name}: payout entrants", span[0], minimum=1)
        last = _whole(f"structure {name}: payout entrants", span[1], minimum=first)
        where = f"structure {name}: payout for {first}..{last} entrants"
        raw_places = data.get("places")
        if not isinstance(raw_places, list) or not raw_places:
            raise RulesError(f"{where}: places must be a non-empty list")
        places: list[int] = []
        for group in raw_places:
            # A percentage for the next place, or [first, last, percent each] for a band.
            if isinstance(group, list):
                if len(group) != 3:
                    raise RulesError(f"{where}: a band is [first, last, percent], got {group!r}")
                a = _whole(f"{where} band", group[0], minimum=1)
                b = _whole(f"{where} band", group[1], minimum=a)
                if a != len(places) + 1:
                    raise RulesError(f"{where}: band {a}..{b} does not follow place {len(places)}")
                places += [_basis_points(where, group[2])] * (b - a + 1)
            else:
                places.append(_basis_points(where, group))
        if sum(places) != WHOLE:
            raise RulesError(f"{where}: percentages sum to {sum(places) / 100}, not 100")
        if any(later > earlier for earlier, later in pairwise(places)):
            raise RulesError(f"{where}: a lower place pays more than a higher one")
        if len(places) > first:
            raise RulesError(f"{where}: {len(places)} places paid with only {first} entrants")
        tiers.append(PayoutTier(min_entrants=first, max_entrants=last, places=tuple(places)))
    tiers.sort(key=lambda t: t.min_entrants)
    expected = low
    for tier in tiers:
        if tier.min_entrants != expected:
            raise RulesError(
                f"structure {name}: payouts do not cover {expected} entrants"
                f" (next tier starts at {tier.min_entrants})"
            )
        expected = tier.max_entrants + 1
    if expected <= high:
        raise RulesError(f"structure {name}: payouts stop at {expected - 1} of {high} entrants")
    return tuple(tiers)


def parse_tournament_structure(data: dict[str, Any], name: str) -> TournamentStructure:
    """Validate a structure read from a data file; every error names the file and the key."""
    unknown = set(data) - _KEYS
    if unknown:
        raise RulesError(f"structure {name}: unknown keys {', '.join(sorted(unknown))}")
    missing = {"kind", "game", "table_size", "entrants", "starting_stack", "levels", "payouts"}
    missing -= set(data) | ({"payouts"} if "satellite" in data else set())
    if missing:
        raise RulesError(f"structure {name}: missing {', '.join(sorted(missing))}")
    where = f"structure {name}"
    kind = data["kind"]
    if kind not in ("sng", "mtt"):
        raise RulesError(f"{where}: kind must be sng or mtt, got {kind!r}")
    try:
        variant_name, structure_name = str(data["game"]).split("/")
        variant, structure = Variant(variant_name), Structure(structure_name)
    except ValueError:
        raise RulesError(
            f"{where}: game must be variant/structure (holdem/no_limit), got {data['game']!r}"
        ) from None
    table_size = _whole(f"{where}: table_size", data["table_size"], minimum=2)
    if table_size > 10:
        raise RulesError(f"{where}: table_size {table_size} is over 10 seats")
    span = data["entrants"]
    if not (isinstance(span, list) and len(span) == 2):
        raise RulesError(f"{where}: entrants must be [min, max], got {span!r}")
    low = _whole(f"{where}: entrants", span[0], minimum=2)
    high = _whole(f"{where}: entrants", span[1], minimum=low)
    if kind == "sng" and high > table_size:
        raise RulesError(f"{where}: a sit & go seats at most {table_size}, not {high}")
    levels = _levels(name, data["levels"])
    breaks = []
    for item in data.get("breaks", []):
        raw = _table(
            f"{where}: break", item, {"after_level", "minutes"}, {"after_level", "minutes"}
        )
        after = _whole(f"{where}: break after_level", raw["after_level"], minimum=1)
        if after > len(levels):
            raise RulesError(f"{where}: a break after level {after} of {len(levels)}")
        breaks.append((after, _whole(f"{where}: break minutes", raw["minutes"], minimum=1)))
    late = _whole(f"{where}: late_registration_levels", data.get("late_registration_levels", 0))
    if late > len(levels):
        raise RulesError(f"{where}: late registration beyond the last level ({late})")
    re_entries = _whole(f"{where}: re_entries", data.get("re_entries", 0))
    if re_entries and not late:
        raise RulesError(f"{where}: re-entries need late registration")
    rebuy = None
    if "rebuy" in data:
        raw = _table(
            f"{where}: rebuy",
            data["rebuy"],
            {"until_level", "max", "chips", "price", "at_or_below"},
            {"until_level", "max", "chips", "price"},
        )
        rebuy = Rebuy(
            until_level=_whole(f"{where}: rebuy until_level", raw["until_level"], minimum=1),
            max=_whole(f"{where}: rebuy max", raw["max"], minimum=1),
            chips=_whole(f"{where}: rebuy chips", raw["chips"], minimum=1),
            price=_whole(f"{where}: rebuy price", raw["price"], minimum=1),
            at_or_below=_whole(f"{where}: rebuy at_or_below", raw.get("at_or_below", 0)),
        )
        if rebuy.until_level > len(levels):
            raise RulesError(f"{where}: rebuys until level {rebuy.until_level} of {len(levels)}")
    addon = None
    if "addon" in data:
        raw = _table(
            f"{where}: addon", data["addon"], {"after_level", "chips", "price"}, {"after_level"}
        )
        addon = AddOn(
            after_level=_whole(f"{where}: addon after_level", raw["after_level"], minimum=1),
            chips=_whole(f"{where}: addon chips", raw.get("chips"), minimum=1),
            price=_whole(f"{where}: addon price", raw.get("price"), minimum=1),
        )
        if not any(after == addon.after_level for after, _ in breaks):
            raise RulesError(f"{where}: the add-on needs a break after level {addon.after_level}")
    lifts = data.get("limit_cap_lifts", "never")
    if lifts not in ("never", "heads_up"):
        raise RulesError(f"{where}: limit_cap_lifts must be never or heads_up, got {lifts!r}")
    buy_in = _whole(f"{where}: buy_in", data.get("buy_in", 0))
    bounty = _bounty(where, data.get("bounty"), buy_in, rebuy is not None or addon is not None)
    satellite = None
    if "satellite" in data:
        raw = _table(f"{where}: satellite", data["satellite"], {"target"}, {"target"})
        target = load_tournament_structure(str(raw["target"]))
        seat = target.buy_in + target.fee
        if bounty is not None or rebuy is not None or addon is not None or "payouts" in data:
            raise RulesError(
                f"{where}: a satellite pays seats: no payouts, bounty, rebuy or add-on"
            )
        if seat <= 0:
            raise RulesError(f"{where}: target {target.name} costs nothing: no seat to win")
        satellite = Satellite(target=target.name, seat=seat)
    return TournamentStructure(
        bounty=bounty,
        satellite=satellite,
        limit_cap_lifts=lifts,
        name=name,
        description=str(data.get("description", name)),
        kind=kind,
        variant=variant,
        structure=structure,
        table_size=table_size,
        min_entrants=low,
        max_entrants=high,
        starting_stack=_whole(f"{where}: starting_stack", data["starting_stack"], minimum=1),
        buy_in=buy_in,
        fee=_whole(f"{where}: fee", data.get("fee", 0)),
        levels=levels,
        breaks=tuple(sorted(breaks)),
        late_registration_levels=late,
        re_entries=re_entries,
        rebuy=rebuy,
        addon=addon,
        payouts=() if satellite is not None else _payouts(name, data["payouts"], low, high),
    )


def _bounty(where: str, raw: Any, buy_in: int, buys: bool) -> Bounty | None:
    if raw is None:
        return None
    data = _table(f"{where}: bounty", raw, {"amount", "progressive"}, {"amount"})
    amount = _whole(f"{where}: bounty amount", data["amount"], minimum=1)
    progressive = data.get("progressive", True)
    if not isinstance(progressive, bool):
        raise RulesError(f"{where}: bounty progressive must be true or false, got {progressive!r}")
    if amount >= buy_in:
        raise RulesError(f"{where}: a bounty of {amount} leaves nothing of the {buy_in} buy-in")
    if buys:  # a rebuy's price would need its own share of a bounty: not offered
        raise RulesError(f"{where}: a knockout event has no rebuy or add-on")
    return Bounty(amount=amount, progressive=progressive)


def _folder() -> Any:
    return resources.files("pokerroom.rules").joinpath("data", "tournaments")


def tournament_structure_names() -> list[str]:
    return sorted(
        p.name.removesuffix(".toml") for p in _folder().iterdir() if p.name.endswith(".toml")
    )


def structure_of(config: dict[str, Any]) -> TournamentStructure:
    """An event's structure from its stored config: one a host composed for a private sit &
    go (``structure_data``, checked as a data file is), else the shipped one it names."""
    data = config.get("structure_data")
    if data is not None:
        return parse_tournament_structure(data, str(config["structure"]))
    return load_tournament_structure(str(config["structure"]))


@cache
def load_tournament_structure(name: str) -> TournamentStructure:
    """One of the shipped structures (``tournament_structure_names()``)."""
    resource = _folder().joinpath(f"{name}.toml")
    if not resource.is_file():
        raise RulesError(
            f"no tournament structure {name!r}; structures:"
            f" {', '.join(tournament_structure_names())}"
        )
    try:
        data = tomllib.loads(resource.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise RulesError(f"structure {name!r} does not parse: {error}") from None
    return parse_tournament_structure(data, name)
