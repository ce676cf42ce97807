"""The WebSocket protocol: every client message is typed and parsed here, at the edge
(DESIGN 7, S-INPUT-1). Anything malformed or unknown becomes an ``error`` message and
never reaches a table. See docs/protocol.md for every message with an example."""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from pokerroom.errors import CodedError, code_of
from pokerroom.evaluation import Category, name_in_english, named_ranks

PROTOCOL_VERSION = 1
MAX_MESSAGE_BYTES = 4096  # UTF-8 bytes of one frame, not characters
# uvicorn's ``ws_max_size``: a frame past it is refused (close 1009) before it is read into
# memory; one between the two limits is read and answered "message too long".
MAX_FRAME_BYTES = 4 * MAX_MESSAGE_BYTES
MAX_DEPTH = 4  # nesting of arrays and objects; every message is one flat object
MAX_CHAT = 200


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Hello(_Message):
    type: Literal["hello"]
    token: str = Field(min_length=1, max_length=128)


class Watch(_Message):  # "resync": a gap in the table's versions (the whole state again)
    type: Literal["watch", "resync"]
    table: str = Field(min_length=1, max_length=64)


class Unwatch(_Message):
    """The client shows the table no more (its view closed, or the player was moved on from
    it): its frames stop. A seat or a place on the waiting list there keeps them coming."""

    type: Literal["unwatch"]
    table: str = Field(min_length=1, max_length=64)


class Join(_Message):
    type: Literal["join"]
    table: str = Field(min_length=1, max_length=64)
    seat: int = Field(ge=1, le=10)
    buy_in: int = Field(gt=0, le=10**12)
    request: str = Field(min_length=1, max_length=64)  # idempotency key of the buy-in


class AddChips(_Message):
    """Top up or rebuy between hands (R-STAKE-1, R-STAKE-2), from the balance."""

    type: Literal["add_chips"]
    table: str = Field(min_length=1, max_length=64)
    amount: int = Field(gt=0, le=10**12)
    request: str = Field(min_length=1, max_length=64)  # idempotency key of the transfer


class Act(_Message):
    type: Literal["act"]
    table: str = Field(min_length=1, max_length=64)
    # run_twice / run_once: the answer to the run-it-twice prompt (R-RIT-1)
    action: Literal[
        "fold", "check", "call", "check_or_call", "bet_or_raise", "run_twice", "run_once"
    ]
    amount: int = Field(default=0, ge=0, le=10**12)
    hand: int = Field(ge=1)  # the hand the player acts in: stale clicks are refused


class Leave(_Message):
    type: Literal["leave"]
    table: str = Field(min_length=1, max_length=64)


class SitOut(_Message):
    type: Literal["sit_out", "sit_in"]
    table: str = Field(min_length=1, max_length=64)


class Options(_Message):
    """A seated player's options; a field left out is left as it is."""

    type: Literal["options"]
    table: str = Field(min_length=1, max_length=64)
    auto_post: bool | None = None
    wait_for_big_blind: bool | None = None
    sit_out_next: bool | None = None
    leave_after: bool | None = None
    pre_action: Literal["check_fold", "call_any", "none"] | None = None
    # where the table offers them: straddle whenever left of the big blind (R-STRADDLE-1),
    # and agree ahead to run it twice (R-RIT-1)
    straddle: bool | None = None
    run_it_twice: bool | None = None


class Chat(_Message):
    type: Literal["chat"]
    table: str = Field(min_length=1, max_length=64)
    text: str = Field(min_length=1, max_length=MAX_CHAT)


class Ping(_Message):
    type: Literal["ping"]


class Seed(_Message):
    """A seated player's own randomness for the next shuffle (docs/fairness.md), bound to the
    next hand's seed commitment (the table frame's ``next_seed``) that it was sent after."""

    type: Literal["seed"]
    table: str = Field(min_length=1, max_length=64)
    seed: str = Field(pattern=r"^[0-9a-f]{16,64}$")
    commitment: str = Field(pattern=r"^[0-9a-f]{64}$")


class WaitingList(_Message):
    """Join or leave a table's waiting list: a freed seat is held for the first in
    line for a short time (``waiting`` frames tell the player)."""

    type: Literal["waiting_list"]
    table: str = Field(min_length=1, max_length=64)
    action: Literal["join", "leave"]


ClientMessage = Annotated[
    Hello
    | Watch
    | Unwatch
    | Join
    | AddChips
    | Act
    | Leave
    | SitOut
    | Options
    | Chat
    | Ping
    | Seed
    | WaitingList,
    Field(discriminator="type"),
]
_ADAPTER: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)


class ProtocolError(CodedError, ValueError):
    """A message that is not one of the protocol's, with the reason (its ``code``). ``fatal``
    ones (binary or deeply nested frames: no client of ours sends them) close the connection
    after the error."""

    def __init__(self, code: str, *, fatal: bool = False, **params: str | int) -> None:
        super().__init__(code=code, **params)
        self.fatal = fatal


def parse_frame(text: str | None, data: bytes | None) -> ClientMessage:
    """A WebSocket frame (text or binary) to a typed message."""
    if text is None:
        size = 0 if data is None else len(data)
        raise ProtocolError("protocol.binary", fatal=True, size=size)
    return parse(text)


def parse(raw: str | bytes) -> ClientMessage:
    """One client frame to a typed message, or a ProtocolError saying what is wrong."""
    size = len(raw.encode("utf-8", "surrogatepass")) if isinstance(raw, str) else len(raw)
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError("protocol.too_long", size=size, limit=MAX_MESSAGE_BYTES)
    if isinstance(raw, str) and nesting(raw) > MAX_DEPTH:
        raise ProtocolError("protocol.too_deep", fatal=True, limit=MAX_DEPTH)
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as error:
        raise ProtocolError("protocol.not_json", reason=str(error)) from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise ProtocolError("protocol.no_type")
    try:
        return _ADAPTER.validate_python(data)
    except ValidationError as error:
        first = error.errors()[0]
        loc = list(first["loc"])
        if loc and loc[0] == data.get("type"):  # the union's tag, not a field
            loc = loc[1:]
        where = ".".join(str(p) for p in loc) or "message"
        raise ProtocolError(
            "protocol.invalid", type=str(data.get("type")), field=where, reason=first["msg"]
        ) from None


def nesting(raw: str) -> int:
    """How deep arrays and objects nest in ``raw`` (JSON or not), outside strings."""
    if raw.count("[") + raw.count("{") <= MAX_DEPTH:  # the usual case: no need to scan
        return 1
    depth = deepest = 0
    in_string = escaped = False
    for char in raw:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def error(failure: Exception, *, request: str | None = None, table: str | None = None) -> str:
    """An error; one about a table names it, so the client shows it on that table. Its
    ``code`` and ``params`` are the error's own (pokerroom/errors.py), for the client's
    language; an exception with none is ``error.unknown``."""
    code, params = code_of(failure)
    return frame(
        ErrorFrame(message=str(failure), code=code, params=params, request=request, table=table)
    )


# ------------------------------------------------------------------ server to client
# Every frame the server sends, as a model: the bots parse frames with these, and a test
# checks docs/protocol.md against them. The small frames are built as models; the ``table``
# frame (the hot path: one per viewer per change) is built as a plain dict by
# ``views.public_state``/``state_for_seat`` and checked against ``TableFrame`` in tests,
# because constructing a nested model per viewer per change costs more than the frame.


class _Frame(BaseModel):
    # Fields the client does not know are ignored, so the server may add fields first.
    model_config = ConfigDict(frozen=True, populate_by_name=True)


class Welcome(_Frame):
    type: Literal["welcome"] = "welcome"
    version: int


class HelloOk(_Frame):
    type: Literal["hello"] = "hello"
    account: int
    name: str
    # The tables where the account has a seat: a client opens them at once.
    seated: list[str] = Field(default_factory=list)


class Pong(_Frame):
    type: Literal["pong"] = "pong"


class ErrorFrame(_Frame):
    type: Literal["error"] = "error"
    message: str  # in English, as before codes
    # pokerroom/errors.py: a key ``error.<code>`` of every catalogue
    code: str = "error.unknown"
    params: dict[str, str | int] = Field(default_factory=dict)
    request: str | None = None
    table: str | None = None


class ChatFrame(_Frame):
    type: Literal["chat"] = "chat"
    table: str
    # ``from`` is a Python keyword: built as ``sender``, sent and parsed as ``from``.
    sender: str = Field(serialization_alias="from", validation_alias="from")
    text: str


class SeatOffer(_Frame):
    seat: int
    seconds: float  # how long the seat is held for you


class WaitingFrame(_Frame):
    """Your place on a table's waiting list, sent to you whenever it changes."""

    type: Literal["waiting"] = "waiting"
    table: str
    position: int | None  # 1 = first in line; None = not on the list (any more)
    length: int  # players on the list
    offer: SeatOffer | None = None  # a seat held for you: sit down in it before the time is up
    note: str | None = None  # why you left the list without a seat (passed over), in English
    code: str | None = None  # the note's code (pokerroom/errors.py), for the client's language
    params: dict[str, str | int] = Field(default_factory=dict)


class HandCategory(StrEnum):
    """A hand's category on the wire; the client names it from its catalogues (key
    ``hand.<value>``). A royal flush is named apart from the other straight flushes."""

    HIGH_CARD = "high_card"
    PAIR = "pair"
    TWO_PAIR = "two_pair"
    THREE_OF_A_KIND = "three_of_a_kind"
    STRAIGHT = "straight"
    FLUSH = "flush"
    FULL_HOUSE = "full_house"
    FOUR_OF_A_KIND = "four_of_a_kind"
    STRAIGHT_FLUSH = "straight_flush"
    ROYAL_FLUSH = "royal_flush"


class Rank(StrEnum):
    """A rank a hand's name says (catalogue keys ``rank.<value>``, plural ``ranks.<value>``)."""

    TWO = "two"
    THREE = "three"
    FOUR = "four"
    FIVE = "five"
    SIX = "six"
    SEVEN = "seven"
    EIGHT = "eight"
    NINE = "nine"
    TEN = "ten"
    JACK = "jack"
    QUEEN = "queen"
    KING = "king"
    ACE = "ace"


RANKS = tuple(Rank)  # by the evaluator's rank index, deuce 0 .. ace 12
_CATEGORIES = {category: HandCategory(category.name.lower()) for category in Category}


class HandName(_Frame):
    """A shown hand's name: its category and the ranks the name says, in the order it says
    them (``{"category": "full_house", "ranks": ["king", "seven"]}``: Kings over Sevens;
    one rank for the others, none for a royal flush)."""

    category: HandCategory
    ranks: list[Rank]

    @classmethod
    def of(cls, strength: int) -> HandName:
        """The name of a high hand's strength (1..7462, pokerroom.evaluation)."""
        category, ranks = named_ranks(strength)
        if category is Category.STRAIGHT_FLUSH and RANKS[ranks[0]] is Rank.ACE:
            return cls(category=HandCategory.ROYAL_FLUSH, ranks=[])
        return cls(category=_CATEGORIES[category], ranks=[RANKS[r] for r in ranks])

    def english(self) -> str:
        """The name in English, as the hand histories write it: "Full House, Kings over Sevens"."""
        if self.category is HandCategory.ROYAL_FLUSH:
            return name_in_english(Category.STRAIGHT_FLUSH, (RANKS.index(Rank.ACE),))
        ranks = tuple(RANKS.index(rank) for rank in self.ranks)
        return name_in_english(Category[self.category.name], ranks)


class ShownHand(_Frame):
    seat: int
    cards: list[str]
    high: HandName | None  # None before a full board
    low: str  # a qualifying low, "8-6-4-2-A" (hi-lo), else ""
    best: list[str]
    low_best: list[str] = Field(default_factory=list)  # the five of a qualifying low (hi-lo)


class Winner(_Frame):
    seat: int
    amount: int


class PotResult(_Frame):
    pot: int
    amount: int
    share: str
    hand: HandName | None  # the winning high hand, when it was shown
    low: str  # the winning low, "8-6-4-2-A", when it was shown (hi-lo), else ""
    winners: list[Winner]
    run: int = 0  # R-RIT-1: the board this half was won on (1 or 2); 0: the board ran once


class HandResult(_Frame):
    type: Literal["hand_result"] = "hand_result"
    table: str
    hand: int
    board: list[str]
    shown: list[ShownHand]
    pots: list[PotResult]
    rake: int
    cancelled: bool
    second_board: list[str] = Field(default_factory=list)  # R-RIT-1: run twice
    bomb_pot: int = 0  # R-BOMB-1: big blinds each in a bomb pot (0: an ordinary hand)


class ActionKind(StrEnum):
    """What a seat last did, on the wire; the client names it (catalogue key
    ``action.<value>``)."""

    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE_TO = "raise_to"
    ALL_IN = "all_in"
    SMALL_BLIND = "sb"
    BIG_BLIND = "bb"
    ANTE = "ante"
    BIG_BLIND_ANTE = "bb_ante"
    STRADDLE = "straddle"
    POST = "post"


class LastAction(_Frame):
    action: ActionKind
    amount: int | None


class SeatState(_Frame):
    seat: int
    empty: bool
    name: str | None = None
    stack: int | None = None
    status: str | None = None
    missed_big: bool | None = None
    missed_small: bool | None = None
    connected: bool | None = None
    time_bank: float | None = None
    in_hand: bool | None = None
    bet: int | None = None
    folded: bool | None = None
    all_in: bool | None = None
    cards: list[str] | None = None
    card_count: int | None = None
    shown: bool | None = None
    last_action: LastAction | None = None
    held_for: str | None = None  # an empty seat held for the first on the waiting list
    rebuy_seconds_left: float | None = None  # a busted seat: its rebuy window (R-STAKE-2)


class SeatOptions(_Frame):
    auto_post: bool
    owes_blinds: bool
    wait_for_big_blind: bool
    sit_out_next: bool
    leave_after: bool
    pre_action: str | None
    auto_muck: bool = True  # the account's preference, applied by the server at showdown
    straddle: bool = False  # R-STRADDLE-1: straddle whenever left of the big blind
    run_it_twice: bool = False  # R-RIT-1: agreed ahead to run it twice


class BuyInRange(_Frame):
    min: int
    max: int


class Legal(_Frame):
    can_check: bool
    call: int
    call_all_in: bool
    min_raise_to: int | None
    max_raise_to: int | None
    is_bet: bool
    current_bet: int
    pot: int
    all_in_to: int
    half_pot_raise_to: int | None
    pot_raise_to: int | None


class Straddle(_Frame):
    """R-STRADDLE-1: the live straddle of the hand."""

    seat: int
    amount: int


class BombPotMark(_Frame):
    """R-BOMB-1: the hand is a bomb pot, ``big_blinds`` (``amount`` chips) from each."""

    big_blinds: int
    amount: int


class HandState(_Frame):
    number: int
    phase: str
    street: str
    board: list[str]
    pots: list[int]
    collected: list[int]
    button: int | None
    small_blind_seat: int | None
    big_blind_seat: int | None
    actor: int | None
    seconds_left: float | None
    warning_left: float | None = None  # until the clock's warning (0 once given)
    time_bank: bool = False  # the player to act is on their time bank
    legal: Legal | None
    commitment: str | None = None  # SHA-256(server seed + deck), published as it is dealt
    seed_commitment: str | None = None  # SHA-256(server seed), published before it
    straddle: Straddle | None = None
    bomb_pot: BombPotMark | None = None
    second_board: list[str] = Field(default_factory=list)  # R-RIT-1: the second run's board
    # R-RIT-1: you are asked whether to run it twice (``run_twice`` / ``run_once``) within
    # ``seconds_left``; no answer is no. Only in the frame of the seat asked.
    runout_prompt: bool = False


class TournamentInfo(_Frame):
    """A tournament table's level and standing."""

    id: str
    name: str
    level: int
    small_blind: int
    big_blind: int
    ante: int
    big_blind_ante: int
    next_level_seconds: float | None  # until the next level (or the break's end)
    on_break: bool
    hand_for_hand: bool
    final_table: bool  # one table left: a deal may be proposed
    players_left: int
    entrants: int
    prize_pool: int
    payouts: list[int]  # place 1 first
    ranks: list[list[int]]  # [seat, place by chips among the players left]
    bounties: list[list[int]] = Field(default_factory=list)  # knockout: [seat, bounty]


class TableOffers(_Frame):
    """The table options beyond the seeds that this table offers (RULES.md)."""

    straddle: bool = False
    run_it_twice: bool = False
    bomb_pot: bool = False


class TableFrame(_Frame):
    type: Literal["table"] = "table"
    table: str
    version: int
    name: str
    game: str
    variant: str
    structure: str
    small_blind: int
    big_blind: int
    stakes: tuple[int, int]
    min_buy_in: int
    max_buy_in: int
    decision_seconds: float
    offers: TableOffers = Field(default_factory=TableOffers)
    ready: int = 0  # players seated and able to be dealt in ...
    needed: int = 2  # ... of those the table needs to deal
    waiting: list[str] = Field(default_factory=list)  # names on the waiting list, in order
    you: int | None
    options: SeatOptions | None
    buy_in: BuyInRange | None
    seats: list[SeatState]
    hand: HandState | None
    next_seed: str | None = None  # the next hand's seed commitment: a ``seed`` binds to it
    tournament: TournamentInfo | None = None  # at a tournament's table


class DeckReveal(_Frame):
    """A hand's shuffle revealed when it has ended, to the players dealt into it (never to
    watchers, never for a cancelled hand): ``pokerroom.fairness.verify`` checks it."""

    type: Literal["deck_reveal"] = "deck_reveal"
    table: str
    hand: int
    hand_id: int
    format: str
    commitment: str
    seed_commitment: str
    server_seed: str
    client_seeds: list[str]
    deck: list[int]


class TournamentNotice(_Frame):
    """A tournament's word to one player: it started, you were moved (``table`` is your table
    now: your screen opens it), hand-for-hand, the final table, you finished (``place`` and
    ``prize``), you won."""

    type: Literal["tournament"] = "tournament"
    tournament: str
    kind: str  # started, moved, hand_for_hand, final_table, eliminated, finished, won, ...
    text: str  # in English
    code: str | None = None  # the text's code (pokerroom/errors.py), for the client's language
    params: dict[str, str | int] = Field(default_factory=dict)
    table: str | None = None
    place: int | None = None
    prize: int | None = None


class PrivateGameFrame(_Frame):
    """A private game as this viewer sees it, after a host's act (docs/private-games.md);
    ``act``: the logged act that changed it."""

    type: Literal["private_game"] = "private_game"
    table: str
    game: dict[str, Any]
    act: dict[str, Any] | None = None


class PrivateRequestFrame(_Frame):
    """To a private game's host: a player asks to sit."""

    type: Literal["private_request"] = "private_request"
    table: str
    account: int
    name: str


ServerFrame = Annotated[
    Welcome
    | HelloOk
    | Pong
    | ErrorFrame
    | ChatFrame
    | HandResult
    | TableFrame
    | DeckReveal
    | WaitingFrame
    | TournamentNotice
    | PrivateGameFrame
    | PrivateRequestFrame,
    Field(discriminator="type"),
]
SERVER_FRAMES: tuple[type[_Frame], ...] = (
    Welcome,
    HelloOk,
    Pong,
    ErrorFrame,
    ChatFrame,
    HandResult,
    TableFrame,
    DeckReveal,
    WaitingFrame,
    TournamentNotice,
    PrivateGameFrame,
    PrivateRequestFrame,
)
_SERVER_ADAPTER: TypeAdapter[ServerFrame] = TypeAdapter(ServerFrame)


def parse_server(raw: str | bytes) -> ServerFrame:
    """One server frame to its model (the bots' side; tests check the server's with it)."""
    return _SERVER_ADAPTER.validate_json(raw)


def server_frame(data: dict[str, Any]) -> ServerFrame:
    """A server frame already decoded from JSON to its model."""
    return _SERVER_ADAPTER.validate_python(data)


def frame(model: _Frame) -> str:
    """A frame model as sent: JSON with the wire names (``from``), every field present."""
    return model.model_dump_json(by_alias=True)
