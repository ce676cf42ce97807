"""A private sit & go (R-PRIV-1): the tournament structure its host's settings make (one table,
the seats, the buy-in and fee or free, the starting stack, a blind levels' preset and each
level's minutes), and what the game asks of the room's tournaments. The event itself is an
ordinary one of the hall (``server/tournaments``): its registrations, refunds, levels, tables
and prizes are the hall's, through the ledger; the game only decides who may register.

The hall is reached through ``Hall`` and ``Event`` (the composition root hands it over): the
private games and the tournaments are sibling concerns, neither imports the other."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Protocol

from pokerroom.rules import HouseOptions, RulesError, Structure, Variant
from pokerroom.rules.tournament import TournamentStructure, parse_tournament_structure
from pokerroom.store.tables.private_games import PrivateSettings

# The big blinds of a sit & go's levels as a share of the starting stack (a 1,500 stack's
# 10/20, 15/30, 25/50 ...: the room's sng6 ladder); an ante of an eighth of the big blind
# from ANTES_FROM on. A preset starts further up the ladder: fewer big blinds to begin with.
LADDER: Final = (
    20,
    30,
    50,
    80,
    100,
    150,
    200,
    300,
    400,
    600,
    800,
    1000,
    1500,
    2000,
    3000,
    4000,
    6000,
    8000,
    10000,
    15000,
    20000,
)
LADDER_STACK: Final = 1500
ANTES_FROM: Final = 6  # the 7th rung (0-based index)
BLINDS: Final = {"regular": 0, "turbo": 2, "hyper": 4}  # the rung each preset starts at
# Paid places by the field: 2-3 entrants, winner takes all; 4-6: 65/35; 7-10: 50/30/20.
PAYOUTS: Final = ((2, 3, (100,)), (4, 6, (65, 35)), (7, 10, (50, 30, 20)))
CASH_ONLY: Final = (
    "big_blind",
    "min_buy_in_bb",
    "max_buy_in_bb",
    "straddle",
    "run_it_twice",
    "bomb_pot",
)


def levels(settings: PrivateSettings) -> list[dict[str, int]]:
    """The blind levels of the settings' preset, scaled to the starting stack."""
    stack, levels = settings.starting_stack, []
    for rung, big in enumerate(LADDER[BLINDS[settings.blinds] :], start=BLINDS[settings.blinds]):
        big_blind = max(2, big * stack // LADDER_STACK)
        level = {
            "small_blind": big_blind // 2,
            "big_blind": big_blind,
            "minutes": settings.level_minutes,
        }
        if rung >= ANTES_FROM and big_blind // 8:
            level["ante"] = big_blind // 8
        levels.append(level)
    return levels


def structure_data(settings: PrivateSettings) -> dict[str, Any]:
    """The settings as a tournament structure's data (as a data file has it)."""
    seats = settings.seats
    payouts = [
        {"entrants": [low, min(high, seats)], "places": list(places)}
        for low, high, places in PAYOUTS
        if low <= seats
    ]
    return {
        "description": settings.name,
        "kind": "sng",
        "game": f"{settings.variant}/{settings.structure}",
        "table_size": seats,
        "entrants": [2, seats],
        "starting_stack": settings.starting_stack,
        "buy_in": settings.buy_in,
        "fee": settings.fee,
        "levels": levels(settings),
        "payouts": payouts,
    }


def event_house(settings: PrivateSettings, house: HouseOptions) -> HouseOptions:
    """The preset's house with the host's time limits (R-TIME-1: the warning within it)."""
    chosen: dict[str, Any] = {}
    if settings.decision_seconds is not None:
        chosen["decision_seconds"] = settings.decision_seconds
        chosen["warning_after_seconds"] = min(10, settings.decision_seconds)
    if settings.time_bank_seconds is not None:
        chosen["time_bank_seconds"] = settings.time_bank_seconds
    return house.with_options(**chosen) if chosen else house


def structure(settings: PrivateSettings, house: HouseOptions, name: str) -> TournamentStructure:
    """The event's structure, checked: RulesError naming the setting refused (``field``)."""
    variant, game = Variant(settings.variant), Structure(settings.structure)
    if (variant, game) not in house.games:
        field = "structure" if any(v is variant for v, _ in house.games) else "variant"
        raise RefusedSettingError(field, f"{settings.preset} does not deal {variant}/{game}")
    if settings.seats not in house.seat_choices:
        raise RefusedSettingError("seats", f"{settings.preset} has no tables of {settings.seats}")
    for field in CASH_ONLY:
        if getattr(settings, field):
            raise RefusedSettingError(
                field, f"a sit & go has no {field} (its blinds are its levels)"
            )
    if settings.blinds not in BLINDS:
        raise RefusedSettingError("blinds", f"blinds are one of {', '.join(BLINDS)}")
    try:
        return parse_tournament_structure(structure_data(settings), name)
    except RulesError as error:
        raise RefusedSettingError("starting_stack", str(error)) from None


class RefusedSettingError(ValueError):
    def __init__(self, field: str, reason: str) -> None:
        super().__init__(reason)
        self.field = field


class Event(Protocol):
    """What a private game asks of its sit & go's runner (``TournamentRunner``)."""

    id: str
    config: dict[str, Any]
    starts_at: float | None

    @property
    def status(self) -> str: ...

    def now(self) -> float: ...

    def entry_of(self, account: int | None) -> str | None: ...

    def view(self, now: float) -> dict[str, Any]: ...

    async def register(self, account: int, name: str, request: str) -> str: ...

    async def unregister(self, account: int) -> None: ...

    async def cancel(self) -> None: ...

    async def maybe_start(self) -> None: ...


class Hall(Protocol):
    """What a private game asks of the room's tournaments (``Tournaments``)."""

    @property
    def runners(self) -> Mapping[str, Event]: ...

    async def create(self, structure: str, **fields: Any) -> Event: ...
