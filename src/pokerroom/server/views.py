"""A table as one viewer may see it, as JSON (S-VIEW-1: built from the engine's views)."""

from __future__ import annotations

from typing import Any

from pokerroom.engine.hand import Phase
from pokerroom.engine.views import view_for
from pokerroom.table import Table


def table_state(
    table: Table, *, table_id: str, viewer_seat: int | None, version: int, now: float
) -> dict[str, Any]:
    hand = table.hand
    in_hand: dict[int, int] = {}
    view = None
    if hand is not None and not hand.is_over:
        in_hand = {seat: position for position, seat in enumerate(table.hand_seats)}
        view = view_for(hand, in_hand.get(viewer_seat) if viewer_seat is not None else None)
    seats = []
    for number in range(1, table.max_seats + 1):
        seat = table.seats.get(number)
        if seat is None:
            seats.append({"seat": number, "empty": True})
            continue
        entry: dict[str, Any] = {
            "seat": number,
            "empty": False,
            "name": seat.name,
            "stack": seat.stack,
            "status": seat.status.value,
            "missed_big": seat.missed_big,
            "missed_small": seat.missed_small,
            "connected": seat.connected,
            "in_hand": number in in_hand,
            "cards": None,
            "bet": 0,
        }
        if view is not None and number in in_hand:
            sv = view.seats[in_hand[number]]
            entry.update(
                stack=sv.stack,
                bet=sv.bet,
                folded=sv.folded,
                all_in=sv.all_in,
                cards=None if sv.cards is None else [str(c) for c in sv.cards],
                card_count=sv.card_count,
                shown=sv.shown,
            )
        seats.append(entry)
    state: dict[str, Any] = {
        "type": "table",
        "table": table_id,
        "version": version,
        "name": table.name,
        "game": table.spec.name,
        "variant": table.spec.variant.value,
        "small_blind": table.spec.stakes.small_blind,
        "big_blind": table.spec.stakes.big_blind,
        "min_buy_in": table.min_buy_in,
        "max_buy_in": table.max_buy_in,
        "seats": seats,
        "you": viewer_seat,
        "hand": None,
    }
    if view is not None and hand is not None:
        legal = view.legal
        state["hand"] = {
            "number": table.hand_number,
            "phase": view.phase,
            "street": view.street,
            "board": [str(c) for c in view.board],
            "pots": list(view.pots),
            "button": table.previous_button,
            "actor": view.actor_seat,
            "seconds_left": None if table.deadline is None else max(0.0, table.deadline - now),
            "legal": None
            if legal is None or hand.phase is not Phase.BETTING
            else {
                "can_check": legal.can_check,
                "call": legal.call_amount,
                "call_all_in": legal.call_all_in,
                "min_raise_to": legal.min_raise_to,
                "max_raise_to": legal.max_raise_to,
                "is_bet": legal.is_bet,
                "pot": legal.pot,
            },
        }
    return state
