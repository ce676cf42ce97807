"""PokerKit, PHH's reference implementation, as a second reader of our histories: the stacks
it replays a PHH text to, and the one designed difference in how it splits a pot."""

from __future__ import annotations

import warnings

from pokerkit import HandHistory

from pokerroom.engine import Hand
from pokerroom.engine.events import PotAwarded


def pokerkit_history(text: str) -> HandHistory:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PokerKit warns about fields its own parser sets
        return HandHistory.loads(text)


def pokerkit_stacks(text: str) -> list[int]:
    """The stacks PokerKit plays a PHH text to (it raises when it cannot load or play it)."""
    history = pokerkit_history(text)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        *_, state = iter(history)
    return [int(s) for s in state.stacks]


def same_or_odd_chips(ours: list[int], theirs: list[int], hand: Hand) -> bool:
    """Equal stacks, or R-SHOW-6's one designed difference: PokerKit gives a split pot's odd
    chips to one tied winner, we give them one each left of the button."""
    if ours == theirs:
        return True
    tied = {
        p
        for e in hand.events
        if isinstance(e, PotAwarded) and len(e.winners) > 1
        for p, _ in e.winners
    }
    differ = [i for i, (a, b) in enumerate(zip(ours, theirs, strict=True)) if a != b]
    close = all(i in tied and abs(ours[i] - theirs[i]) < hand.n for i in differ)
    return sum(ours) == sum(theirs) and close
