"""Betting bounds: the least and the most a player may bet or raise to, and why they may not.

One function, ``raise_bounds``, answers all three (the pot basis and the cap included), so
the amounts offered and the reason a raise is refused cannot disagree.
"""

from __future__ import annotations

from pokerroom.engine.state import HandState

# The reasons a raise is refused (the bounds are then (None, None)).
NOT_REOPENED = "the betting was not reopened by a full raise"
# R-LIM-4: only a full bet or raise, or an all-in of at least half a bet, reopens.
NOT_REOPENED_LIMIT = "the betting was not reopened by a full bet or an all-in of half a bet or more"
EVERYONE_ALL_IN = "every other player is all-in"


def raise_bounds(h: HandState, i: int) -> tuple[int | None, int | None, str]:
    """(min "raise to", max "raise to", "") for player i, or (None, None, why not)."""
    all_in_to = h.bets[i] + h.stacks[i]
    if all_in_to <= h.current_bet:
        return None, None, f"only {h.stacks[i]} chips left, which does not exceed a call"
    if not h._others_can_act(i):
        return None, None, EVERYONE_ALL_IN
    if h._fixed_limit:
        # R-ROUND-5, R-LIM-4: a raise goes a full bet over the last full level, which a
        # short all-in does not move: facing an all-in bet of less than half a bet, the
        # next player completes it to the full bet.
        if not reopened(h, i):
            return None, None, NOT_REOPENED_LIMIT
        if capped(h):
            return None, None, f"the betting is capped at {h.house.raise_cap} bets"
        to = min(h.full_level + h._limit_size(), all_in_to)
        return to, to, ""
    # R-ROUND-5, R-NL-2: a player who has acted may raise again only if the bet has
    # risen by at least a full raise since (a short all-in does not reopen).
    if h.acted[i] and h.current_bet - h.matched_at[i] < h.last_raise:
        return None, None, NOT_REOPENED
    increment = max(h.last_raise, h.big_blind)
    low = min(h.current_bet + increment, all_in_to)
    if h._no_limit:
        return low, all_in_to, ""
    to_call = h.current_bet - h.bets[i]
    high = h.current_bet + pot_basis(h) + to_call  # R-PL-2
    return low, min(max(high, low), all_in_to), ""


def capped(h: HandState) -> bool:
    """R-LIM-2: the round has its full number of bets (R-LIM-3: never heads-up at cash)."""
    cap = h.house.raise_cap
    if cap is None or h.raises < cap:
        return False
    if h.house.heads_up_uncapped and h.cash_table:
        return h._remaining > 2  # R-LIM-3
    return True


def reopened(h: HandState, i: int) -> bool:
    """Fixed limit: may player i raise again? Not after acting, until a full bet or raise
    (or an all-in counted as one, R-LIM-4) has raised the bet past what they matched."""
    return not h.acted[i] or h.full_level > h.matched_at[i]


def pot_basis(h: HandState) -> int:
    """The pot for the pot-limit maximum (R-PL-3)."""
    if h.house.pl_pot_basis == "all_pots":
        return h.pot
    n = h.n
    prior = [h.live[j] - h.bets[j] for j in range(n)]
    levels = [prior[j] for j in range(n) if h.all_in[j] and not h.folded[j]]
    if not levels or max(levels) == 0:
        return h.pot
    cut = max(levels)  # only the pot still contested above the highest all-in counts
    return sum(max(0, p - cut) for p in prior) + sum(h.bets)


def is_full_raise(h: HandState, to: int) -> bool:
    """Does a raise to ``to`` reopen the betting and count towards the cap?"""
    if h._fixed_limit:
        # R-LIM-4: an all-in of at least half a bet over the last full level counts as a
        # full bet or raise (several short all-ins count together once they reach it).
        return 2 * (to - h.full_level) >= h._limit_size()
    return to - h.current_bet >= max(h.last_raise, h.big_blind)
