"""What a hand is dealt from: the players in position order, the posts, the deck."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Final

from pokerroom.cards import Card
from pokerroom.engine.errors import SetupError
from pokerroom.records import Record
from pokerroom.rules.game import GameSpec
from pokerroom.rules.house import HouseOptions


class Player(Record):
    """One player dealt in. Positions run from the first seat left of the button (0)
    to the button (last); heads-up, position 0 is the big blind and 1 the button."""

    __match_args__: ClassVar[tuple[str, ...]] = ("seat", "stack", "name")

    def __init__(self, seat: int, stack: int | float, name: str = "") -> None:
        # Typed to admit a float so that one reaches this check (compiled code would
        # refuse it with a bare TypeError first).
        if not isinstance(stack, int) or isinstance(stack, bool) or stack < 0:
            raise SetupError(f"seat {seat}: stack must be a whole number >= 0, got {stack!r}")
        self.seat: Final = seat
        self.stack: Final = stack
        self.name: Final = name


class ExtraPost(Record):
    """A post outside the blinds: a new player's live big blind (R-SEAT-2, R-BLIND-8) or a
    returning player's dead small blind (R-SEAT-3, R-SEAT-4). Live chips count towards the
    player's bet; dead chips go straight to the pot."""

    __match_args__: ClassVar[tuple[str, ...]] = ("position", "live", "dead")

    def __init__(self, position: int, live: int = 0, dead: int = 0) -> None:
        self.position: Final = position
        self.live: Final = live
        self.dead: Final = dead


class HandSetup(Record):
    """Everything a hand is dealt from, settled: the game and house, the players in position
    order, the deck order, the blinds, antes and posts. With the actions applied to it
    (``Hand.log``), it rebuilds the hand exactly (``Hand.replay``)."""

    __match_args__: ClassVar[tuple[str, ...]] = (
        "spec",
        "house",
        "players",
        "deck",
        "blinds",
        "antes",
        "ante_trimming",
        "posts",
        "auto_showdown",
        "cash_table",
        "bomb_pot",
    )

    def __init__(
        self,
        *,
        spec: GameSpec,
        house: HouseOptions,
        players: tuple[Player, ...],
        deck: tuple[int, ...],
        blinds: tuple[int, ...],
        antes: tuple[int, ...],
        ante_trimming: bool,
        posts: tuple[ExtraPost, ...],
        auto_showdown: bool,
        cash_table: bool,
        bomb_pot: int = 0,
    ) -> None:
        self.spec: Final = spec
        self.house: Final = house
        self.players: Final = players  # by position; the button last
        self.deck: Final = deck  # the order dealt from (shuffled before the hand began)
        self.blinds: Final = blinds  # as set, not as posted (R-BLIND-7)
        self.antes: Final = antes
        self.ante_trimming: Final = ante_trimming
        self.posts: Final = posts
        self.auto_showdown: Final = auto_showdown
        self.cash_table: Final = cash_table
        # R-BOMB-1: big blinds each player puts in before a hand with no pre-flop betting
        self.bomb_pot: Final = bomb_pot

    @property
    def seats(self) -> tuple[int, ...]:
        return tuple([p.seat for p in self.players])

    @property
    def stacks(self) -> tuple[int, ...]:
        return tuple([int(p.stack) for p in self.players])

    @property
    def button_seat(self) -> int:
        return self.players[-1].seat


def default_blinds(spec: GameSpec, players: int) -> tuple[int, ...]:
    """Blinds and straddle by position (R-BLIND-1); heads-up the button posts the small
    blind (R-BLIND-5), so the array is reversed as in PHH."""
    stakes = spec.stakes
    blinds = [0] * players
    if players == 2:
        blinds[0], blinds[1] = stakes.big_blind, stakes.small_blind
        return tuple(blinds)
    blinds[0], blinds[1] = stakes.small_blind, stakes.big_blind
    if stakes.straddle and players > 3:
        blinds[2] = stakes.straddle
    return tuple(blinds)


def check_setup(
    spec: GameSpec,
    players: Sequence[Player],
    blinds: Sequence[int],
    antes: Sequence[int],
    posts: Sequence[ExtraPost],
) -> None:
    n = len(players)
    if not 2 <= n <= 10:
        raise SetupError(f"a hand needs 2 to 10 players, got {n}")
    seats = [p.seat for p in players]
    if len(set(seats)) != n:
        raise SetupError(f"seats must be distinct, got {seats}")
    if len(blinds) != n or len(antes) != n:
        raise SetupError(f"blinds and antes need one entry per player ({n})")
    if any(b < 0 for b in blinds) or any(a < 0 for a in antes):
        raise SetupError("blinds and antes cannot be negative")
    for post in posts:
        if not 0 <= post.position < n or post.live < 0 or post.dead < 0:
            raise SetupError(f"extra post {post} is not valid for {n} players")
    cards_needed = spec.hole_cards * n + 8  # five board cards and three burns
    if cards_needed > 52:
        raise SetupError(f"{n} players need {cards_needed} cards")


def arrange_deck(
    hole: Sequence[Sequence[int | None]],
    board: Sequence[int | None],
    hole_count: int,
    second_run: Sequence[int | None] = (),
) -> list[int]:
    """A 52-card order under which the engine deals exactly these cards.

    ``hole[i]`` are position i's hole cards, ``board`` the board in order; None
    (or a missing card) is any card not named. The engine deals hole cards one at
    a time from position 0 (R-BTN-3) and burns before each street (R-DECK-3).
    ``second_run``: the cards of a second run-out (R-RIT-1: 5, 2 or 1 of them, dealt
    after the first board, each street after a burn).
    """
    n = len(hole)
    padded = [list(h) + [None] * (hole_count - len(h)) for h in hole]
    if any(len(h) > hole_count for h in hole):
        raise SetupError(f"more than {hole_count} hole cards for a player")
    if len(board) > 5:
        raise SetupError(f"{len(board)} board cards; a board has 5")
    full_board = list(board) + [None] * (5 - len(board))
    if len(second_run) not in (0, 1, 2, 5):
        raise SetupError(f"a second run-out of {len(second_run)} cards; it has 5, 2 or 1")
    known = [c for h in padded for c in h if c is not None] + [
        c for c in [*full_board, *second_run] if c is not None
    ]
    if not all(isinstance(c, int) and 0 <= c < 52 for c in known):
        raise SetupError(f"not card codes: {[c for c in known if not 0 <= c < 52]}")
    seen: set[int] = set()
    for code in known:
        if code in seen:
            raise SetupError(f"card {Card.from_code(code)} is dealt twice")
        seen.add(code)
    taken = set(known)
    spare = iter(c for c in range(52) if c not in taken)
    layout: list[int | None] = []
    for k in range(hole_count):
        layout.extend(padded[i][k] for i in range(n))
    layout += [None, *full_board[:3], None, full_board[3], None, full_board[4]]
    streets = {5: (3, 1, 1), 2: (1, 1), 1: (1,)}.get(len(second_run), ())
    rest = iter(second_run)
    for size in streets:
        layout += [None, *(next(rest) for _ in range(size))]
    deck = [c if c is not None else next(spare) for c in layout]
    deck.extend(spare)
    return deck
