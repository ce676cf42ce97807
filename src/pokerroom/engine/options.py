"""Table options settled as a hand is dealt: a live straddle (R-STRADDLE-1) and a bomb pot
(R-BOMB-1). Each check raises a specific error naming what is wrong; the table layer decides
who is offered an option, the engine refuses one the rules do not allow."""

from __future__ import annotations

from collections.abc import Sequence

from pokerroom.engine.errors import BombPotError, StraddleError
from pokerroom.engine.setup import ExtraPost, Player
from pokerroom.rules.game import GameSpec, Structure
from pokerroom.rules.house import HouseOptions

MIN_STRADDLE_PLAYERS = 4


def straddle_position(blinds: Sequence[int]) -> int:
    """The position directly left of the big blind, the last of the (at most two) blinds;
    -1 when nobody posts a blind."""
    posters = [i for i, b in enumerate(blinds) if b]
    return posters[-1] + 1 if posters else -1


def straddle_blinds(
    spec: GameSpec,
    house: HouseOptions,
    players: Sequence[Player],
    blinds: Sequence[int],
    posts: Sequence[ExtraPost],
) -> tuple[int, ...]:
    """R-STRADDLE-1: the blinds with a live straddle of twice the big blind posted by the
    player directly left of the big blind."""
    n = len(players)
    position = straddle_position(blinds)
    who = f"seat {players[position].seat}" if 0 < position < n else "nobody"
    if not house.straddle:
        raise StraddleError(f"{who} cannot straddle: the table does not offer straddles")
    if spec.structure is Structure.FIXED_LIMIT:
        raise StraddleError(f"{who} cannot straddle: there is no straddle in fixed-limit")
    if n < MIN_STRADDLE_PLAYERS:
        raise StraddleError(
            f"{who} cannot straddle: a straddle needs {MIN_STRADDLE_PLAYERS} players dealt in,"
            f" not {n}"
        )
    if position <= 0:
        raise StraddleError("nobody can straddle: there is no big blind to straddle")
    if sum(1 for b in blinds if b) > 2:
        raise StraddleError(f"{who} cannot straddle: a third blind is already posted")
    if any(p.position == position for p in posts):
        raise StraddleError(f"{who} cannot straddle: they are posting a missed or new blind")
    amount = 2 * spec.stakes.big_blind
    stack = players[position].stack
    if stack < amount:
        raise StraddleError(
            f"{who} cannot straddle: {stack} chips do not cover the straddle of {amount}"
        )
    out = list(blinds)
    out[position] = amount
    return tuple(out)


def bomb_pot_amount(
    spec: GameSpec,
    house: HouseOptions,
    big_blinds: int,
    blinds: Sequence[int],
    antes: Sequence[int],
) -> int:
    """R-BOMB-1: what each player puts in a bomb pot of ``big_blinds`` big blinds."""
    if not house.bomb_pot:
        raise BombPotError("no bomb pot: the table does not offer bomb pots")
    if not isinstance(big_blinds, int) or isinstance(big_blinds, bool):
        raise BombPotError(f"a bomb pot is a whole number of big blinds, not {big_blinds!r}")
    if not 1 <= big_blinds <= house.max_bomb_pot_bb:
        raise BombPotError(
            f"a bomb pot of {big_blinds} big blinds: the table allows 1 to {house.max_bomb_pot_bb}"
        )
    if any(blinds) or any(antes):
        raise BombPotError("a bomb pot takes no blinds, antes or straddle besides")
    return big_blinds * spec.stakes.big_blind
