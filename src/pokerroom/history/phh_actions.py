"""A PHH history's action lines as the engine's log of (position, action): what each line
means, read one at a time beside the hand they are replayed on (``Hand.steps``), since a
line's meaning may depend on the hand so far."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

from pokerroom.engine.actions import Action, ActionKind
from pokerroom.engine.hand import Hand, Phase

# Actions are immutable records: the ones with no amount are made once.
_FOLD = Action(ActionKind.FOLD)
_CHECK_OR_CALL = Action(ActionKind.CHECK_OR_CALL)
_TIMEOUT = Action(ActionKind.TIMEOUT)
_SHOW = Action(ActionKind.SHOW)
_MUCK = Action(ActionKind.MUCK)
_RUN_TWICE = Action(ActionKind.RUN_TWICE)
_RUN_ONCE = Action(ActionKind.RUN_ONCE)
# R-RIT-1: a player's answer, written as a comment (PHH has no notation for it; PokerKit
# writes a hand run twice as its boards one after the other and reads no answer)
RUN_TWICE_NOTE = "runs it twice"
RUN_ONCE_NOTE = "runs it once"


class PHHError(ValueError):
    """A hand history that cannot be read or replayed, with the reason."""


def chips(value: Any, scale: int, what: str) -> int:
    """An amount in the file as whole chips (times ``scale``), or a PHHError naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise PHHError(f"{what}: {value!r} is not an amount")
    scaled = value * scale
    if isinstance(scaled, float):
        if not math.isfinite(scaled) or scaled != int(scaled):
            hint = "" if scale != 1 else " (give a scale factor to replay fractional amounts)"
            raise PHHError(f"{what}: {value!r} is not a whole number of chips{hint}")
        scaled = int(scaled)
    if scaled < 0:
        raise PHHError(f"{what}: {value!r} is negative")
    return scaled


def player_index(token: str, n: int, action: str) -> int:
    """``p3`` as position 2 of ``n``."""
    if not token.startswith("p") or not token[1:].isdigit() or not 1 <= int(token[1:]) <= n:
        raise PHHError(f"action {action!r}: {token!r} is not a player p1..p{n}")
    return int(token[1:]) - 1


def _number(text: str, where: str) -> int | float:
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            raise PHHError(f"{where}: {text!r} is not an amount") from None


class PHHLog:
    """A history's actions as the engine's log of (position, action), read one line at a
    time while ``Hand.steps`` replays them: a line's meaning may depend on the hand so far
    (a showdown in another program's order, a check nobody can bet against), so the reader
    looks at ``hand`` (the hand being replayed) before giving the next action."""

    def __init__(self, lines: list[str], scale: int) -> None:
        self.hand: Hand | None = None  # set once dealt, before the first line is read
        self.lines = lines
        self.scale = scale
        self.number = 0  # the line being read (from 1), for errors
        self.line = ""  # the line the last action came from
        # showdown actions the file gives before the engine asks for them
        self.pending: dict[int, ActionKind] = {}

    @property
    def where(self) -> str:
        """The line being read, as errors name it ("" before the first)."""
        if not self.number:
            return ""
        return f"action {self.number} ({self.lines[self.number - 1]!r})"

    def actions(self) -> Iterator[tuple[int, Action]]:
        hand, pending = self.hand, self.pending
        assert hand is not None, "read after the deal"
        n = hand.n
        board_seen = 0
        for number, action in enumerate(self.lines, start=1):
            self.number = number
            text, _, comment = action.partition("#")
            text = self.line = text.strip()
            if not text:
                timeout = comment.split()
                if len(timeout) == 2 and timeout[1] == "timeout":  # ours: all-in protection
                    self.line = action
                    yield player_index(timeout[0], n, action), _TIMEOUT
                elif timeout and " ".join(timeout[1:]) in (RUN_TWICE_NOTE, RUN_ONCE_NOTE):
                    self.line = action
                    twice = " ".join(timeout[1:]) == RUN_TWICE_NOTE
                    yield player_index(timeout[0], n, action), _RUN_TWICE if twice else _RUN_ONCE
                continue
            parts = text.split()
            if parts[0] == "d":
                if len(parts) < 3 or parts[1] not in ("dh", "db"):
                    raise PHHError(f"{self.where}: unknown dealing action")
                if parts[1] == "db":
                    board_seen += len(parts[2]) // 2
                    ready = len(hand.board) >= board_seen or hand.phase is not Phase.BETTING
                    if not ready:
                        who = hand.seats[hand.actor] if hand.actor is not None else "?"
                        raise PHHError(f"{self.where}: board dealt while seat {who} is to act")
                continue
            i = player_index(parts[0], n, action)
            verb = parts[1] if len(parts) > 1 else ""
            if verb == "sm" and hand.phase is Phase.SHOWDOWN and hand.actor != i:
                # Another program's showdown order (PokerKit's, when everyone is all-in):
                # held until the engine asks this player, then applied as the file says.
                if i in pending:
                    raise PHHError(f"{self.where}: p{i + 1} shows or mucks twice")
                pending[i] = ActionKind.MUCK if len(parts) == 2 else ActionKind.SHOW
                continue
            asked = hand.phase is Phase.BETTING and hand.actor == i
            if verb == "cc" and not asked and _unopposed(hand, i):
                continue  # a check no opponent can bet against: moves no chip
            if (
                verb in ("f", "cc")
                and comment.strip() == "timeout"
                and _times_out_to(hand, i, verb)
            ):
                yield i, _TIMEOUT  # ours: the clock acted for the player
            elif verb == "f":
                yield i, _FOLD
            elif verb == "cc":
                yield i, _CHECK_OR_CALL
            elif verb == "cbr" and len(parts) == 3:
                where = self.where
                amount = chips(_number(parts[2], where), self.scale, where)
                yield i, Action(ActionKind.BET_OR_RAISE, amount=amount)
            elif verb == "sm":
                yield i, _MUCK if len(parts) == 2 else _SHOW
            else:
                raise PHHError(f"{self.where}: unknown action")
            while hand.phase is Phase.SHOWDOWN and hand.actor in pending:
                j = hand.actor
                yield j, _MUCK if pending.pop(j) is ActionKind.MUCK else _SHOW

    def check_end(self, hand: Hand) -> None:
        """A show the engine never asked for (a hand no one is left to contest) moves no
        chip; a muck it never asked for would give up a pot: not the hand the engine played."""
        for i, kind in sorted(self.pending.items()):
            if kind is ActionKind.MUCK or hand.phase is Phase.SHOWDOWN:
                raise PHHError(
                    f"p{i + 1} shows or mucks out of turn (the hand is {hand.phase.value})"
                )


def _times_out_to(hand: Hand, i: int, verb: str) -> bool:
    """A fold or check written ``# timeout`` is what the house's time-out policy (R-TIME-2)
    does for player i now: then it is read as the time-out it was."""
    legal = hand.legal_actions()
    if legal is None or legal.position != i:
        return False
    if hand.house.timeout_policy == "check_fold":
        return verb == ("f" if legal.call_amount else "cc")
    return verb == "f" and hand.live[i] + hand.dead[i] == 0


def _unopposed(hand: Hand, i: int) -> bool:
    """Player i is in the hand with chips, owes nothing, and every opponent still in it is
    all-in: nobody can bet against them, so a check by them changes nothing."""
    if not hand.in_hand(i) or hand.all_in[i] or hand.bets[i] < max(hand.bets):
        return False
    return all(hand.all_in[j] for j in range(hand.n) if j != i and hand.in_hand(j))
