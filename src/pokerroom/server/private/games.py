"""Private games (R-PRIV-1, docs/private-games.md): a cash table a player (the host) sets
up, found only by its invite link or code; who may see, sit and chat there; the host's acts
(each logged); a game left empty an hour ends. Its table is an ordinary table of the room
(its actor, its recovery, its ledger paths), run with ``PrivateDealing`` and unlisted; the
chips move only as at any table, through the ledger (the host has no way to move them).

Who may do what is the game's ``status_of`` an account: ``host``, ``approved``, ``pending``,
``denied``, ``removed``, or None (never showed the code or link): None sees nothing, not
even that the game exists (404, the socket's "no table")."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
import time
from collections import deque
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Final

from pokerroom.rules import HouseOptions, RulesError, Structure, Variant, load_preset
from pokerroom.server.clock import utcnow
from pokerroom.server.private.dealing import PrivateDealing
from pokerroom.server.private.sit_and_go import (
    Event,
    Hall,
    RefusedSettingError,
    event_house,
    structure,
    structure_data,
)
from pokerroom.server.sockets import protocol
from pokerroom.server.sockets.errors import ApiError, RefusalError
from pokerroom.server.tables.actor import TableActor
from pokerroom.server.tables.inbox import Close, Suspend
from pokerroom.server.tables.room import Room, TableConfig
from pokerroom.store.account_ids import AccountId
from pokerroom.store.tables.private_games import (
    Act,
    CodeTakenError,
    PrivateGamesStore,
    PrivateSettings,
    StoredGame,
)
from pokerroom.table import TableError

PREFIX: Final = "p_"  # a private table's id; the floor's ids ([a-z0-9-]) never have "_"
# Codes people read out and type: no 0/O, 1/I/L.
ALPHABET: Final = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH: Final = 7  # 31**7: 27 billion codes
IDLE: Final = timedelta(hours=1)  # a game with nobody seated this long ends
SWEEP_SECONDS: Final = 60.0
HOSTED: Final = 5  # open games one player may host
WRONG_CODES: Final = 10  # wrong codes an account may try ...
WRONG_WINDOW: Final = 600.0  # ... in this many seconds
MEMBERS: Final = frozenset({"host", "approved"})
READERS: Final = frozenset({"host", "approved", "removed"})  # the ledger, hands and log
# What a player may send a table only once approved; the rest follows watching.
APPROVED_ONLY = (protocol.Join, protocol.AddChips, protocol.Chat, protocol.WaitingList)

log = logging.getLogger("pokerroom.private")


def private_table(table_id: str) -> bool:
    return table_id.startswith(PREFIX)


@dataclass
class Game:
    """An open game as the room holds it (the store holds the same)."""

    table_id: str
    host: int
    host_name: str
    code: str
    invite: str
    settings: PrivateSettings
    big_blind: int
    paused: bool
    bomb_pot_next: int
    created_at: datetime
    members: dict[int, str] = field(default_factory=dict)  # account -> status
    empty_since: datetime | None = None  # nobody seated since (the idle hour)
    ended: bool = False
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # one host act at a time

    @classmethod
    def of(cls, stored: StoredGame) -> Game:
        return cls(
            table_id=stored.table_id,
            host=stored.host_id,
            host_name=stored.host_name,
            code=stored.code,
            invite=stored.invite,
            settings=stored.settings,
            big_blind=stored.big_blind,
            paused=stored.paused,
            bomb_pot_next=stored.bomb_pot_next,
            created_at=stored.created_at,
        )

    def status_of(self, account: int | None) -> str | None:
        if account is None:
            return None
        if account == self.host:
            return "host"
        return self.members.get(account)


def config_of(table_id: str, settings: PrivateSettings) -> TableConfig:
    """The table a cash game's settings make: the preset with the host's options (its house
    carries straddle, run it twice and bomb pots: R-STRADDLE-1, R-RIT-1, R-BOMB-1)."""
    overrides = {
        name: getattr(settings, name)
        for name in PrivateSettings.OPTIONS
        if getattr(settings, name) is not None
    }
    warning = overrides.get("decision_seconds")
    if warning is not None:  # the warning comes within the time limit (R-TIME-1)
        overrides["warning_after_seconds"] = min(10, int(warning))
    return TableConfig(
        table_id,
        settings.name,
        settings.preset,
        settings.variant,
        settings.structure,
        int(settings.big_blind or 0),
        settings.seats,
        tuple(sorted(overrides.items())),
    )


@functools.cache
def preset_house(preset: str) -> HouseOptions:
    return load_preset(preset)


def in_force(settings: PrivateSettings, house: HouseOptions | None) -> dict[str, Any]:
    """The settings with those the host left out filled with the values in force: the
    table's house's (``house``), or the preset's once the table is gone."""
    if house is None:
        house = preset_house(settings.preset)
    filled = settings.as_json()
    for name in PrivateSettings.DEFAULTED:
        if filled.get(name) is None:
            filled[name] = getattr(house, name)
    return filled


def refused_setting(settings: PrivateSettings) -> str:
    """The setting a refused cash game's settings are refused for (the ``field`` of
    ``private.invalid``): the first of the game, its stakes, its seats and then the host's
    options, added one at a time, that the house does not take."""
    house = preset_house(settings.preset)
    variant, structure = Variant(settings.variant), Structure(settings.structure)
    if (variant, structure) not in house.games:
        return "structure" if any(v is variant for v, _ in house.games) else "variant"
    seats = settings.seats
    try:
        spec = house.game(variant, structure, int(settings.big_blind or 0))
    except (RulesError, ValueError):
        return "big_blind"
    if seats not in house.seat_choices:
        return "seats"
    try:
        house.check_table(spec, seats)
    except RulesError:
        return "big_blind"  # the rake's schedule has no such stakes
    chosen: dict[str, Any] = {}
    for name in PrivateSettings.OPTIONS:
        value = getattr(settings, name)
        if value is None:
            continue
        chosen[name] = value
        if name == "decision_seconds":
            chosen["warning_after_seconds"] = min(10, int(value))
        try:
            house.with_options(**chosen).check_table(spec, seats)
        except (RulesError, ValueError, TypeError):
            return name
    return "preset"


def draw_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def read_code(text: str) -> str:
    """A code as typed: any case, spaces and dashes ignored."""
    return "".join(c for c in text.upper() if c not in " -")


class PrivateGames:
    def __init__(self, room: Room, store: PrivateGamesStore) -> None:
        self.room = room
        self.store = store
        self.games: dict[str, Game] = {}  # open games, by their table's id
        self.wrong: dict[int, deque[float]] = {}  # wrong codes per account (monotonic)
        self.sweeper: asyncio.Task[None] | None = None
        # The room's tournaments, handed over by the composition root: a sit & go is their
        # event (None: this room makes no private sit & gos).
        self.hall: Hall | None = None
        # The room's hooks: private tables deal through the game and are never listed.
        room.prepare = self._prepare
        room.unlisted = private_table

    # ------------------------------------------------------------ the room's side

    def _prepare(self, actor: TableActor) -> None:
        """A private table as the room adds it (opened, or restored at a restart: no hand is
        dealt before its game is read back and found open)."""
        if not private_table(actor.table_id):
            return
        table_id = actor.table_id
        actor.dealing = PrivateDealing(
            actor.dealing,
            lambda: self.games.get(table_id),
            lambda: self.store.dealt_bomb_pot(table_id),
        )

    async def start(self) -> None:
        """The open games read back after the room started (their tables restored)."""
        now = utcnow()
        for stored in await self.store.open_games():
            game = Game.of(stored)
            game.members = {m.account: m.status for m in await self.store.members(game.table_id)}
            game.empty_since = now
            self.games[game.table_id] = game
            if game.settings.sit_and_go:
                await self._event_over(game, now)  # its event ended while the room was down
            elif game.table_id not in self.room.actors:  # its table is gone (closed by the floor)
                await self._end(game, None, "end", now)
        self.sweeper = asyncio.create_task(self._sweep_forever(), name="private games")

    async def stop(self) -> None:
        if self.sweeper is not None:
            self.sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.sweeper

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                await self.sweep(utcnow())
            except Exception:  # the next sweep tries again; the room goes on
                log.exception("the private games' sweep failed")

    async def sweep(self, now: datetime) -> list[str]:
        """End every game with nobody seated for ``IDLE`` (``now``: the wall clock, passed
        in); the games ended."""
        ended = []
        for game in list(self.games.values()):
            if game.settings.sit_and_go:  # no idle hour: it ends with its event
                if await self._event_over(game, now):
                    ended.append(game.table_id)
                continue
            actor = self.room.actors.get(game.table_id)
            if actor is not None and actor.table.seats:
                game.empty_since = None
                continue
            if game.empty_since is None:
                game.empty_since = now
            elif now - game.empty_since >= IDLE:
                async with game.lock:
                    if not game.ended:
                        await self._end(game, None, "idle_close", now)
                        ended.append(game.table_id)
        return ended

    def refusal(self, account: int | None, message: Any) -> RefusalError | None:
        """Why the socket refuses a message to a private table (None: it goes on). Without
        a status, or watching a game whose spectators are off without approval: as if the
        table did not exist."""
        table = message.table
        if not private_table(table):
            return None
        game = self.game_of_table(table)
        status = None if game is None else game.status_of(account)
        if game is None or status is None:
            return RefusalError(code="table.not_found", table=table)
        if status in MEMBERS:
            return None
        if not game.settings.spectators:
            return RefusalError(code="table.not_found", table=table)
        if isinstance(message, APPROVED_ONLY):
            return RefusalError(code="private.not_approved")
        return None

    # ------------------------------------------------------------ finding a game

    def game_of_table(self, table_id: str) -> Game | None:
        """The open game a table is of: a cash game's own, or a sit & go's (its event's
        tables are ``<game>-<number>``)."""
        game = self.games.get(table_id)
        if game is None:
            event, _, number = table_id.rpartition("-")
            game = self.games.get(event) if number.isdigit() else None
            if game is not None and not game.settings.sit_and_go:
                game = None
        return game

    def game_for(self, table_id: str, account: int, *, readers: bool = False) -> Game:
        """The open game ``account`` has a status in (``readers``: one that reads its books);
        404 otherwise, as for a game that does not exist."""
        game = self.games.get(table_id)
        status = None if game is None else game.status_of(account)
        if game is None or status is None or (readers and status not in READERS):
            raise ApiError(404, "private.not_found", game=table_id)
        return game

    async def readable(self, table_id: str, account: int) -> tuple[StoredGame, str]:
        """A game, open or ended, whose books ``account`` may read, with the account's
        status; else 404."""
        stored = await self.store.game(table_id) if private_table(table_id) else None
        if stored is None:
            raise ApiError(404, "private.not_found", game=table_id)
        game = self.games.get(table_id)
        if game is not None:
            status = game.status_of(account)
        elif stored.host_id == account:
            status = "host"
        else:
            members = await self.store.members(table_id)
            status = next((m.status for m in members if m.account == account), None)
        if status not in READERS:
            raise ApiError(404, "private.not_found", game=table_id)
        assert status is not None
        return stored, status

    def hosted(self, table_id: str, account: int) -> Game:
        game = self.game_for(table_id, account)
        if game.host != account:
            raise ApiError(403, "private.hosts_only")
        return game

    # ------------------------------------------------------------ players

    async def create(self, host: int, settings: PrivateSettings) -> Game:
        """A new game and its table, or its sit & go open for registration (422
        ``private.invalid``: settings no table or event can have)."""
        if sum(1 for g in self.games.values() if g.host == host) >= HOSTED:
            raise ApiError(422, "private.too_many", count=HOSTED)
        table_id = PREFIX + secrets.token_hex(6)
        if settings.sit_and_go:
            return await self._create_event(host, table_id, settings)
        if settings.big_blind is None:
            raise ApiError(422, "private.stakes_needed", field="big_blind")
        config = config_of(table_id, settings)
        try:
            config.build()  # the preset, the game, the seats and the options, checked
        except (RulesError, TableError, ValueError, TypeError) as error:
            field = refused_setting(settings)
            raise ApiError(422, "private.invalid", reason=str(error), field=field) from None
        now = utcnow()
        game = await self._stored(host, table_id, settings, settings.big_blind, now)
        try:
            await self.room.open_table(config)
        except Exception:
            await self._end(game, host, "end", now)
            raise
        return game

    async def _stored(
        self, host: int, table_id: str, settings: PrivateSettings, big_blind: int, now: datetime
    ) -> Game:
        """The game stored with a fresh code and invite, and held open here."""
        for _ in range(5):  # a code drawn twice (27 billion): draw again
            try:
                stored = await self.store.create(
                    table_id,
                    host=host,
                    code=draw_code(),
                    invite=secrets.token_urlsafe(32),
                    settings=settings,
                    big_blind=big_blind,
                    now=now,
                )
                break
            except CodeTakenError:
                continue
        else:
            raise RuntimeError("no free private game code after 5 draws")
        game = Game.of(stored)
        game.members = {host: "approved"}
        game.empty_since = now
        self.games[table_id] = game  # before its table runs: it deals through the game
        return game

    async def ask(self, account: int, *, code: str | None, invite: str | None) -> Game:
        """A player shows a code or link: a request to sit (approved at once when the game
        does not ask its host); a wrong one is a 404, and too many are a 429."""
        wrong = self.wrong.setdefault(account, deque())
        moment = time.monotonic()
        while wrong and moment - wrong[0] > WRONG_WINDOW:
            wrong.popleft()
        if len(wrong) >= WRONG_CODES:
            seconds = int(WRONG_WINDOW - (moment - wrong[0])) + 1
            raise ApiError(429, "private.slow_down", seconds=seconds)
        found = None
        if code is not None and read_code(code):
            found = await self.store.find(code=read_code(code))
        elif invite is not None and invite:
            found = await self.store.find(invite=invite)
        game = None if found is None else self.games.get(found)
        if game is None:
            wrong.append(moment)
            raise ApiError(404, "private.bad_code")
        if game.status_of(account) == "host":
            return game
        asked = "approved" if not game.settings.approve_seats else "pending"
        async with game.lock:
            status = await self.store.ask(game.table_id, account, asked, now=utcnow())
            before = game.members.get(account)
            game.members[account] = status
        if status == "pending" and before != "pending":
            self._tell_host(game, account)
        return game

    # ------------------------------------------------------------ the host's acts

    async def decide(self, table_id: str, host: int, account: int, approve: bool) -> Game:
        game = self.hosted(table_id, host)
        if account == game.host:
            raise ApiError(422, "private.host_stays")
        async with game.lock:
            self._open(game)
            status, act = ("approved", "approve") if approve else ("denied", "deny")
            if not approve:
                await self._withdraw(game, account)
            if not await self.store.decide(
                table_id, account, status, host=host, act=act, now=utcnow()
            ):
                raise ApiError(404, "private.no_request", account=account)
            game.members[account] = status
            if not approve:
                self._stand(game, account)
        await self._told(game)
        return game

    async def remove(self, table_id: str, host: int, account: int) -> Game:
        """Removed: sat out and cashed out after the hand in play (at once between hands),
        as the floor does with a suspended account; no seat, chat or watching unless asked
        and approved again."""
        game = self.hosted(table_id, host)
        if account == game.host:
            raise ApiError(422, "private.host_stays")
        async with game.lock:
            self._open(game)
            await self._withdraw(game, account)
            if not await self.store.decide(
                table_id, account, "removed", host=host, act="remove", now=utcnow()
            ):
                raise ApiError(404, "private.no_request", account=account)
            game.members[account] = "removed"
            self._stand(game, account)
        await self._told(game)
        return game

    async def pause(self, table_id: str, host: int, paused: bool) -> Game:
        game = self.hosted(table_id, host)
        self._cash_only(game)
        async with game.lock:
            self._open(game)
            if game.paused == paused:
                raise ApiError(409, "private.paused" if paused else "private.not_paused")
            act = "pause" if paused else "resume"
            await self.store.change(
                table_id, host=host, act=act, detail={}, now=utcnow(), paused=paused
            )
            game.paused = paused
        await self._told(game)
        return game

    async def stakes(self, table_id: str, host: int, big_blind: int) -> Game:
        """The stakes of the next hand on: checked now against the table's house."""
        game = self.hosted(table_id, host)
        self._cash_only(game)
        actor = self._actor(game)
        table = actor.table
        try:
            if not 1 <= big_blind <= 10**9:
                raise RulesError(f"a big blind of {big_blind} is out of range")
            spec = table.house.game(table.spec.variant, table.spec.structure, big_blind)
        except RulesError as error:
            raise ApiError(422, "private.invalid", reason=str(error), field="big_blind") from None
        detail = {"big_blind": big_blind, "small_blind": spec.stakes.small_blind}
        async with game.lock:
            self._open(game)
            await self.store.change(
                table_id, host=host, act="stakes", detail=detail, now=utcnow(), big_blind=big_blind
            )
            game.big_blind = big_blind
        await self._told(game)
        return game

    async def bomb_pot(self, table_id: str, host: int, big_blinds: int) -> Game:
        """R-BOMB-1: the next hand a bomb pot (0 takes it back), marked on the table as that
        hand is dealt (``PrivateDealing``); checked now as ``mark_bomb_pot`` checks it."""
        game = self.hosted(table_id, host)
        self._cash_only(game)
        house = self._actor(game).table.house
        if big_blinds and not house.bomb_pot:
            raise ApiError(422, "private.no_bomb_pots", field="big_blinds")
        if not 0 <= big_blinds <= house.max_bomb_pot_bb:
            limit = house.max_bomb_pot_bb
            raise ApiError(422, "private.bomb_pot_size", limit=limit, field="big_blinds")
        async with game.lock:
            self._open(game)
            await self.store.change(
                table_id,
                host=host,
                act="bomb_pot",
                detail={"big_blinds": big_blinds},
                now=utcnow(),
                bomb_pot_next=big_blinds,
            )
            game.bomb_pot_next = big_blinds
        await self._told(game)
        return game

    async def end(self, table_id: str, host: int) -> Game:
        """A cash game ended; a sit & go not started cancelled, every registration refunded
        (409 ``private.running`` once it runs: it is played to its end)."""
        game = self.hosted(table_id, host)
        async with game.lock:
            self._open(game)
            if game.settings.sit_and_go:
                event = self._event(game)
                if event.status != "registering":
                    raise ApiError(409, "private.running")
                await event.cancel()
                await self._end(game, host, "cancel", utcnow())
            else:
                await self._end(game, host, "end", utcnow())
        return game

    # ------------------------------------------------------------ a sit & go

    async def _create_event(self, host: int, table_id: str, settings: PrivateSettings) -> Game:
        """A sit & go open for registration: the hall's event, with this game's id, run by
        the hall as any, found only through the game."""
        if self.hall is None:
            raise ApiError(422, "private.no_sit_and_go", field="kind")
        try:
            house = event_house(settings, preset_house(settings.preset))
            shape = structure(settings, house, table_id)
        except (RulesError, ValueError, TypeError) as error:
            field = error.field if isinstance(error, RefusedSettingError) else "decision_seconds"
            raise ApiError(422, "private.invalid", reason=str(error), field=field) from None
        now = utcnow()
        game = await self._stored(host, table_id, settings, shape.levels[0].big_blind, now)
        try:
            await self.hall.create(
                table_id,
                tournament_id=table_id,
                structure_data=structure_data(settings),
                house=house,
                name=settings.name,
                private=True,
            )
        except Exception:
            await self._end(game, host, "end", now)
            raise
        return game

    def _event(self, game: Game) -> Event:
        event = None if self.hall is None else self.hall.runners.get(game.table_id)
        if event is None or game.ended:
            raise ApiError(409, "private.ended")
        return event

    async def register(self, table_id: str, account: int, name: str, request: str) -> str:
        """An approved player (or the host) registers in the game's sit & go, paying its
        buy-in and fee through the ledger as any registration (the entry's id)."""
        game = self.game_for(table_id, account)
        if game.status_of(account) not in MEMBERS:
            raise ApiError(403, "private.not_approved")
        if not game.settings.sit_and_go:
            raise ApiError(409, "private.sit_and_go_only")
        async with game.lock:  # not while the host removes the player or cancels
            self._open(game)
            return await self._event(game).register(account, name, request)

    async def unregister(self, table_id: str, account: int) -> None:
        """The player takes their registration back before the start (refunded)."""
        game = self.game_for(table_id, account)
        if not game.settings.sit_and_go:
            raise ApiError(409, "private.sit_and_go_only")
        async with game.lock:
            self._open(game)
            await self._event(game).unregister(account)

    async def start_event(self, table_id: str, host: int) -> Game:
        """The host starts the sit & go before it is full (two entrants at least)."""
        game = self.hosted(table_id, host)
        if not game.settings.sit_and_go:
            raise ApiError(409, "private.sit_and_go_only")
        async with game.lock:
            self._open(game)
            event = self._event(game)
            if event.status != "registering":
                raise ApiError(409, "private.running")
            entrants = int(event.view(event.now())["entrants"])
            if entrants < 2:
                raise ApiError(409, "private.too_few", count=entrants)
            event.starts_at = event.now()  # due now, with enough entrants: it starts
            await event.maybe_start()
            detail = {"entrants": entrants}
            await self.store.change(table_id, host=host, act="start", detail=detail, now=utcnow())
        await self._told(game)
        return game

    async def _withdraw(self, game: Game, account: int) -> None:
        """A sit & go's player denied or removed: their registration taken back (refunded)
        before the start; once it runs, refused (409 ``private.running``)."""
        if not game.settings.sit_and_go:
            return
        event = self._event(game)
        if event.entry_of(account) is None:
            return
        if event.status != "registering":
            raise ApiError(409, "private.running")
        await event.unregister(account)

    async def _event_over(self, game: Game, now: datetime) -> bool:
        """A sit & go whose event is over (finished, or cancelled) ends with it (``finish``
        in its log, the room's act); True if it ended now."""
        event = None if self.hall is None else self.hall.runners.get(game.table_id)
        if event is not None and event.status not in ("finished", "cancelled"):
            return False
        async with game.lock:
            if game.ended:
                return False
            await self._end(game, None, "finish", now)
        return True

    def _cash_only(self, game: Game) -> None:
        if game.settings.sit_and_go:
            raise ApiError(409, "private.cash_only")

    async def _end(self, game: Game, host: int | None, act: str, now: datetime) -> None:
        """Every player cashed out through the ledger (the hand in play cancelled, every
        chip back: R-DECK-5), the table closed, the game ended and logged."""
        actor = self.room.actors.get(game.table_id)
        if actor is not None and not actor.closed:
            try:
                await actor.call(Close, "the private game ended")
            except TableError as error:  # recovering from a fault: try again later
                raise ApiError(409, "table.busy", table=game.table_id) from error
        await self.store.end(game.table_id, host=host, act=act, now=now)
        game.ended = True
        await self._told(game)
        self.games.pop(game.table_id, None)

    # ------------------------------------------------------------ telling

    def view(
        self, game: Game | StoredGame, account: int, status: str | None = None
    ) -> dict[str, Any]:
        """The game as ``account`` sees it (docs/private-games.md)."""
        if isinstance(game, Game):
            status = game.status_of(account) if status is None else status
            ended, ended_at, host, host_name = game.ended, None, game.host, game.host_name
        else:
            ended, ended_at = game.ended_at is not None, game.ended_at
            host, host_name = game.host_id, game.host_name
            status = "host" if host == account else status
        actor = self.room.actors.get(game.table_id)
        house = None if actor is None else actor.table.house
        small = None if house is None else house.small_blind(game.big_blind)
        return {
            "id": game.table_id,
            "table": game.table_id,
            "name": game.settings.name,
            "host": {"account": host, "name": host_name},
            "settings": in_force(game.settings, house),
            "small_blind": small,
            "big_blind": game.big_blind,
            "paused": game.paused,
            "ended": ended,
            "created_at": game.created_at.isoformat(),
            "ended_at": None if ended_at is None else ended_at.isoformat(),
            "you": status,
            "code": game.code if status in MEMBERS else None,
            "invite": game.invite if status == "host" else None,
            "bomb_pot_next": game.bomb_pot_next,
            "event": self._event_view(game, status),
        }

    def event_view(self, table_id: str, account: int) -> dict[str, Any] | None:
        """The sit & go's event as ``account`` may see it (404 to a non-member)."""
        game = self.game_for(table_id, account, readers=True)
        return self._event_view(game, game.status_of(account))

    def _event_view(self, game: Game | StoredGame, status: str | None) -> dict[str, Any] | None:
        """A sit & go's event as the tournament lobby would list it, to its members only."""
        if not game.settings.sit_and_go or status not in READERS or self.hall is None:
            return None
        event = self.hall.runners.get(game.table_id)
        return None if event is None else event.view(event.now())

    async def _told(self, game: Game) -> None:
        """The game's watchers see it as it is now, with the act that changed it."""
        actors = [a for a in self.room.actors.values() if self._of(game, a.table_id)]
        if not actors:
            return
        acts = await self.store.acts(game.table_id)
        last = None if not acts else act_json(acts[-1])
        for client in {id(c): c for a in actors for c in a.watchers}.values():
            account = client.account_id
            if account is None:
                continue
            frame = protocol.PrivateGameFrame(
                table=game.table_id, game=self.view(game, account), act=last
            )
            client.deliver(protocol.frame(frame))

    @staticmethod
    def _of(game: Game, table_id: str) -> bool:
        """A table of the game: its own, or one of its sit & go's."""
        if table_id == game.table_id:
            return True
        return game.settings.sit_and_go and table_id.startswith(f"{game.table_id}-")

    def _tell_host(self, game: Game, account: int) -> None:
        name = next((c.name for c in self.room.clients if c.account_id == account and c.name), None)
        frame = protocol.frame(
            protocol.PrivateRequestFrame(table=game.table_id, account=account, name=name or "")
        )
        for client in self.room.connections_of(game.host):
            client.deliver(frame)

    # ------------------------------------------------------------ helpers

    def _actor(self, game: Game) -> TableActor:
        actor = self.room.actors.get(game.table_id)
        if actor is None or game.ended:
            raise ApiError(409, "private.ended")
        return actor

    def _open(self, game: Game) -> None:
        if game.ended:
            raise ApiError(409, "private.ended")

    def _stand(self, game: Game, account: int) -> None:
        """The floor's rule for a suspended account at this table: off its watchers and its
        waiting list, sat out, cashed out after the hand in play."""
        actor = self.room.actors.get(game.table_id)
        if actor is not None:
            actor.post(Suspend(AccountId(account)))
        for client in self.room.connections_of(account):
            client.tables.discard(game.table_id)


def act_json(act: Act) -> dict[str, Any]:
    return {
        "at": act.at.isoformat(),
        "host": act.host,
        "host_name": act.host_name,
        "act": act.act,
        "target": act.target,
        "target_name": act.target_name,
        "detail": act.detail,
    }
