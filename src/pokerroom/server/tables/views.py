"""A table as one viewer may see it, as JSON (S-VIEW-1: built from the engine's views).

The part every viewer sees alike is built once per change (``public_state``); each seated
player's frame adds only their own cards, options and legal actions (``state_for_seat``).
"""

from __future__ import annotations

import operator
from collections.abc import Mapping
from typing import Any

from pokerroom.cards import FULL_DECK, Card
from pokerroom.engine.actions import LegalActions
from pokerroom.engine.events import (
    ActionTaken,
    BoardDealt,
    CardsShown,
    Event,
    ForcedBet,
    ForcedBetKind,
    Move,
    PotAwarded,
    PotShare,
)
from pokerroom.engine.hand import Hand, Phase
from pokerroom.engine.pots import build_pots
from pokerroom.engine.views import view_for
from pokerroom.errors import message
from pokerroom.evaluation import best_hand, omaha_best_hand, omaha_low
from pokerroom.fairness import Shuffle
from pokerroom.rules.game import GameSpec, Structure
from pokerroom.server.sockets import protocol
from pokerroom.table import SeatStatus, Table

# What a seat last did, as the wire names it (protocol.ActionKind's values: a dict of plain
# strings, looked up at every action).
FORCED_ACTIONS = {
    ForcedBetKind.SMALL_BLIND: protocol.ActionKind.SMALL_BLIND.value,
    ForcedBetKind.BIG_BLIND: protocol.ActionKind.BIG_BLIND.value,
    ForcedBetKind.ANTE: protocol.ActionKind.ANTE.value,
    ForcedBetKind.BIG_BLIND_ANTE: protocol.ActionKind.BIG_BLIND_ANTE.value,
    ForcedBetKind.STRADDLE: protocol.ActionKind.STRADDLE.value,
}
MOVE_ACTIONS = {
    Move.FOLD: protocol.ActionKind.FOLD.value,
    Move.CHECK: protocol.ActionKind.CHECK.value,
    Move.CALL: protocol.ActionKind.CALL.value,
    Move.BET: protocol.ActionKind.BET.value,
    Move.RAISE: protocol.ActionKind.RAISE_TO.value,
}
POST = protocol.ActionKind.POST.value
ALL_IN = protocol.ActionKind.ALL_IN.value
FOLD = protocol.ActionKind.FOLD.value
# An enum's ``value`` is a Python property and ``Card.__str__`` a Python method: a dict
# lookup costs a fraction (frames are built at every action).
STATUS_TEXT = {status: status.value for status in SeatStatus}
CARD_TEXT = {card: str(card) for card in FULL_DECK}


def tenths(seconds: Any) -> Any:
    """``round(seconds, 1)``, without its costly rounding of a float that is whole already
    (a time bank mostly is). ``Any``, not ``float``: compiled (mypyc), a ``float``
    parameter makes an integer a float, and ``0`` is not ``0.0`` in JSON."""
    if type(seconds) is float and seconds.is_integer():
        return seconds
    return round(seconds, 1)


def seconds_until(moment: float, now: float) -> float:
    """The seconds from ``now`` to ``moment``, none if past, to the millisecond: a
    difference of two clock readings carries float noise (a 30 s clock read as it starts
    says 30.000000000000057)."""
    return round(max(0.0, moment - now), 3)


def note_action(
    last_actions: dict[int, dict[str, Any]], event: ActionTaken | ForcedBet | BoardDealt
) -> dict[int, dict[str, Any]]:
    """What each seat last did this street, shown beside it (``raise_to`` 600): ``last_actions``
    after ``event`` (a new mapping on a new street, else the same one updated)."""
    if isinstance(event, BoardDealt):  # a new street: only folds stay marked
        return {s: a for s, a in last_actions.items() if a["action"] == FOLD}
    if isinstance(event, ForcedBet):
        action = FORCED_ACTIONS.get(event.what, POST)
        last_actions[event.seat] = {"action": action, "amount": event.amount}
    elif event.all_in:
        last_actions[event.seat] = {"action": ALL_IN, "amount": event.to}
    elif event.action is Move.FOLD or event.action is Move.CHECK:
        last_actions[event.seat] = {"action": MOVE_ACTIONS[event.action], "amount": None}
    else:
        amount = event.added if event.action is Move.CALL else event.to
        last_actions[event.seat] = {"action": MOVE_ACTIONS[event.action], "amount": amount}
    return last_actions


def best_five(hole: tuple[Card, ...], board: tuple[Card, ...]) -> tuple[Card, ...]:
    """The five cards that make a shown high hand, to highlight (none before a full board)."""
    if len(board) < 3:
        return ()
    if len(hole) == 4:
        return omaha_best_hand(hole, board).best_five
    return best_hand([*hole, *board]).best_five


def high_strength(hole: tuple[Card, ...], board: tuple[Card, ...]) -> int:
    """A shown high hand's strength on a full board (0 before it)."""
    if len(board) < 5:
        return 0
    if len(hole) == 4:
        return omaha_best_hand(hole, board).strength
    return best_hand([*hole, *board]).strength


def high_name(hole: tuple[Card, ...], board: tuple[Card, ...]) -> protocol.HandName | None:
    """A shown high hand's name on a full board (None before it)."""
    strength = high_strength(hole, board)
    return protocol.HandName.of(strength) if strength else None


def low_five(hole: tuple[Card, ...], board: tuple[Card, ...]) -> tuple[Card, ...]:
    """The five cards of a shown hand's qualifying eight-or-better low (none without one)."""
    if len(hole) != 4 or len(board) < 3:
        return ()
    low = omaha_low(hole, board)
    return () if low is None else low.cards


def low_name(hole: tuple[Card, ...], board: tuple[Card, ...]) -> str:
    """A shown hand's qualifying low on a full board, "8-6-4-2-A" ("" without one)."""
    if len(hole) != 4 or len(board) < 5:
        return ""
    low = omaha_low(hole, board)
    return "" if low is None else low.description


def pot_hand(hand: Hand, award: PotAwarded) -> tuple[protocol.HandName | None, str]:
    """The winning hand a pot's award names when it was shown, from the cards (the event
    names it in English, for the hand histories): its high name and its low."""
    if not award.hand:
        return None, ""
    hole = hand.hole_cards(award.winners[0][0])
    board = hand.second_board_cards() if award.run == 2 else hand.board_cards()
    if award.share is PotShare.LOW:
        return None, low_name(hole, board)
    # A whole pot in hi-lo names a low only when it had one contender, who had one.
    low = low_name(hole, board) if award.share is PotShare.WHOLE else ""
    return high_name(hole, board), low


def hand_result(
    table_id: str,
    number: int,
    *,
    hand: Hand | None = None,
    events: list[Event] | tuple[Event, ...] = (),
    rake: int = 0,
    cancelled: bool = False,
) -> protocol.HandResult:
    """The end of a hand as everyone may see it: board, shown cards, who won what (a hand
    cancelled before it was stored shows nothing: ``hand`` None)."""
    if hand is None:
        return protocol.HandResult(
            table=table_id, hand=number, board=[], shown=[], pots=[], rake=rake, cancelled=True
        )
    seats = hand.seats
    board = hand.board_cards()
    hi_lo = hand.spec.hi_lo
    shown = [
        protocol.ShownHand(
            seat=e.seat,
            cards=[str(c) for c in e.cards],
            # Cards shown at an all-in before the river are named once the board is out.
            high=high_name(e.cards, board),
            low=e.low or (low_name(e.cards, board) if hi_lo else ""),
            best=[str(c) for c in best_five(e.cards, board)],
            low_best=[str(c) for c in low_five(e.cards, board)] if hi_lo else [],
        )
        for e in events
        if isinstance(e, CardsShown)
    ]
    pots = [
        protocol.PotResult(
            pot=e.pot,
            amount=e.amount,
            share=e.share,
            hand=high,
            low=low,
            winners=[protocol.Winner(seat=seats[p], amount=a) for p, a in e.winners],
            run=e.run,
        )
        for e in events
        if isinstance(e, PotAwarded)
        for high, low in (pot_hand(hand, e),)
    ]
    return protocol.HandResult(
        table=table_id,
        hand=number,
        board=[str(c) for c in board],
        shown=shown,
        pots=pots,
        rake=rake,
        cancelled=cancelled,
        second_board=[str(c) for c in hand.second_board_cards()],
        bomb_pot=hand.bomb_pot,
    )


def stakes_pair(spec: GameSpec) -> tuple[int, int]:
    """How players name the stakes: the limits in fixed limit ("$2/$4"), else the blinds."""
    stakes = spec.stakes
    if spec.structure is Structure.FIXED_LIMIT:
        return stakes.small_bet, stakes.big_bet
    return stakes.small_blind, stakes.big_blind


def dealing(table: Table) -> dict[str, int]:
    """Whether the table can deal: ``ready`` players seated and able of the ``needed``
    (shown as "Waiting for players (ready of needed)" while it cannot)."""
    return {"ready": table.ready_count(), "needed": table.house.min_players}


def waiting_name(table: Table, player: str) -> str:
    return next((w.name for w in table.waiting.entries if w.player == player), player)


def waiting_frame(
    table: Table, table_id: str, player: str, *, now: float, note: str | None = None
) -> protocol.WaitingFrame:
    """The player's place on the table's waiting list, and the seat held for them if any;
    ``note`` is the code of why they left it without a seat (``waiting.*``)."""
    waiting = table.waiting
    offer = waiting.offers.get(player)
    return protocol.WaitingFrame(
        table=table_id,
        position=waiting.position(player),
        length=len(waiting),
        offer=None
        if offer is None
        else protocol.SeatOffer(
            seat=offer.seat, seconds=round(max(0.0, waiting.expires(offer) - now), 1)
        ),
        note=None if note is None else message(note),
        code=note,
    )


def lobby_entry(
    table: Table, table_id: str, *, closed: bool, figures: Mapping[str, int]
) -> dict[str, Any]:
    """The table as the lobby lists it; ``figures`` are the last 15 minutes' (``stats``):
    hands_per_hour, average_pot, players_per_flop."""
    return {
        "id": table_id,
        **game_fields(table),
        "seats": table.max_seats,
        "seated": len(table.seats),
        "players": sorted(s.name for s in table.seats.values()),
        "waiting": [w.name for w in table.waiting.entries],
        "min_buy_in": table.min_buy_in,
        "max_buy_in": table.max_buy_in,
        "average_pot": figures["average_pot"],
        "hands_per_hour": figures["hands_per_hour"],
        "players_per_flop": figures["players_per_flop"],
        "house": table.house.name,
        **dealing(table),
        "closed": closed,
        "hand": table.hand_number if table.hand is not None else None,
    }


def game_fields(table: Table) -> dict[str, Any]:
    """The table's name and game, as the lobby and the table frame both give them."""
    spec = table.spec
    return {
        "name": table.name,
        "game": spec.name,
        "variant": spec.variant.value,
        "structure": spec.structure.value,
        "small_blind": spec.stakes.small_blind,
        "big_blind": spec.stakes.big_blind,
        "stakes": stakes_pair(spec),
    }


def fixed_fields(table: Table) -> dict[str, Any]:
    """The members of a table frame that change only with the table's game and house (a
    tournament's level) or its name."""
    return {
        **game_fields(table),
        "min_buy_in": table.min_buy_in,
        "max_buy_in": table.max_buy_in,
        "decision_seconds": table.house.decision_seconds,
        "offers": offers(table),
    }


def offers(table: Table) -> dict[str, bool]:
    """The options beyond the seeds that the table offers (a straddle never in fixed limit,
    nor at a tournament's table, where ``Table.straddler`` never lets one be posted)."""
    house = table.house
    straddle = (
        house.straddle
        and table.spec.structure is not Structure.FIXED_LIMIT
        and not table.tournament
    )
    return {"straddle": straddle, "run_it_twice": house.run_it_twice, "bomb_pot": house.bomb_pot}


def options_marks(hand: Hand) -> dict[str, Any]:
    """What the table options made of the hand in play, for everyone to see: its straddle
    (the third blind: R-STRADDLE-1), its bomb pot (R-BOMB-1) and its second board (R-RIT-1)."""
    marks: dict[str, Any] = {}
    posters = [i for i, b in enumerate(hand.blinds) if b]
    if len(posters) > 2:
        third = posters[2]
        marks["straddle"] = {"seat": hand.seats[third], "amount": hand.blinds[third]}
    if hand.bomb_pot:
        big_blinds = hand.bomb_pot
        marks["bomb_pot"] = {"big_blinds": big_blinds, "amount": big_blinds * hand.big_blind}
    if hand.second_board:
        marks["second_board"] = [CARD_TEXT[c] for c in hand.second_board_cards()]
    return marks


class FixedFields:
    """One table's ``fixed_fields``, built again only when its game, house or name is
    another object, and its hand's shuffle commitments, hashed once a hand (a table's
    frame is built at every action)."""

    __slots__ = ("_commitments", "_fields", "_house", "_name", "_shuffle", "_spec")

    def __init__(self) -> None:
        self._spec: object = None
        self._house: object = None
        self._name = ""
        self._fields: dict[str, Any] = {}
        self._shuffle: Shuffle | None = None
        # ``...``: one tuple object, kept (compiled, a pair's type is rebuilt at each return)
        self._commitments: tuple[str | None, ...] = (None, None)

    def commitments(self, shuffle: Shuffle | None) -> tuple[str | None, ...]:
        """``shuffle``'s deck and seed commitments (None without one), a pair."""
        if shuffle is not self._shuffle:
            self._shuffle = shuffle
            pair = (
                (None, None) if shuffle is None else (shuffle.commitment, shuffle.seed_commitment)
            )
            self._commitments = pair
        return self._commitments

    def of(self, table: Table) -> dict[str, Any]:
        spec, house, name = table.spec, table.house, table.name
        if spec is not self._spec or house is not self._house or name != self._name:
            self._spec, self._house, self._name = spec, house, name
            self._fields = fixed_fields(table)
        return self._fields


def public_state(
    table: Table,
    *,
    table_id: str,
    version: int,
    now: float,
    last_actions: Mapping[int, dict[str, Any]] | None = None,
    on_time_bank: bool = False,
    shuffle: Shuffle | None = None,
    next_seed: str | None = None,
    fixed: FixedFields | None = None,
) -> dict[str, Any]:
    """The table as a spectator sees it: no hole card that has not been shown.
    ``on_time_bank``: the player to act has run through their decision time and is on
    their time bank (the actor knows it from the clock's events). ``shuffle`` is the hand's
    (only its commitments are shown), ``next_seed`` the next hand's seed commitment
    (docs/fairness.md). ``fixed``: the table's cache of its game's members."""
    hand = table.hand
    in_hand: dict[int, int] = {}
    view = None
    if hand is not None and not hand.is_over:
        in_hand = {seat: position for position, seat in enumerate(table.hand_seats)}
        view = view_for(hand, None)
    seats: list[dict[str, Any]] = []
    actions = last_actions or {}
    for number in range(1, table.max_seats + 1):
        seat = table.seats.get(number)
        if seat is None:
            held = table.waiting.reserved_for(number) if table.waiting.offers else None
            if held is None:
                seats.append({"seat": number, "empty": True})
            else:
                seats.append({"seat": number, "empty": True, "held_for": waiting_name(table, held)})
            continue
        position = in_hand.get(number)
        sv = None if view is None or position is None else view.seats[position]
        cards = None if sv is None else sv.cards
        entry: dict[str, Any] = {
            "seat": number,
            "empty": False,
            "name": seat.name,
            "stack": seat.stack if sv is None else sv.stack,
            "status": STATUS_TEXT[seat.status],
            "missed_big": seat.missed_big,
            "missed_small": seat.missed_small,
            "connected": seat.connected,
            "time_bank": tenths(seat.time_bank),
            "in_hand": position is not None,
            "cards": None if cards is None else [CARD_TEXT[c] for c in cards],
            "bet": 0 if sv is None else sv.bet,
            "last_action": actions.get(number),
        }
        if seat.status is SeatStatus.BUSTED and seat.busted_at is not None:
            # R-STAKE-2: the seat is kept this long for a rebuy (lost at the next deal after)
            left = seat.busted_at + table.house.rebuy_seconds - now
            entry["rebuy_seconds_left"] = round(max(0.0, left), 1)
        if sv is not None:
            entry["folded"] = sv.folded
            entry["all_in"] = sv.all_in
            entry["card_count"] = sv.card_count
            entry["shown"] = sv.shown
        seats.append(entry)
    state: dict[str, Any] = {
        "type": "table",
        "table": table_id,
        "version": version,
        **(fixed_fields(table) if fixed is None else fixed.of(table)),
        **dealing(table),
        "waiting": [w.name for w in table.waiting.entries],
        "seats": seats,
        "you": None,
        "options": None,
        "buy_in": None,
        "hand": None,
        "next_seed": next_seed,
    }
    if view is not None and hand is not None:
        commitment, seed_commitment = (fixed or FixedFields()).commitments(shuffle)
        # The pots in the middle, without this round's bets (shown in front of the seats).
        collected = build_pots(
            list(map(operator.sub, hand.live, hand.bets)),
            sum(hand.dead),
            list(map(hand.in_hand, range(hand.n))),
        )
        state["hand"] = {
            "number": table.hand_number,
            "phase": view.phase,
            "street": view.street,
            "board": [CARD_TEXT[c] for c in view.board],
            "pots": list(view.pots),
            "collected": [p.amount for p in collected if p.amount],
            "button": table.previous_button,
            "small_blind_seat": table.previous_small,
            "big_blind_seat": table.previous_big,
            "actor": view.actor_seat,
            "seconds_left": None if table.deadline is None else seconds_until(table.deadline, now),
            "warning_left": None
            if table.warning_at is None
            else seconds_until(table.warning_at, now),
            "time_bank": on_time_bank and table.deadline is not None,
            "legal": None,
            "commitment": commitment,
            "seed_commitment": seed_commitment,
        }
        if hand.house.straddle or hand.bomb_pot or hand.second_board:
            state["hand"].update(options_marks(hand))  # (most hands have none)
    return state


def state_for_seat(table: Table, public: dict[str, Any], viewer_seat: int) -> dict[str, Any]:
    """``public`` (not changed) with what only the player in ``viewer_seat`` may see."""
    state = dict(public)  # a shallow copy: the shared members are the public frame's
    state["you"] = viewer_seat
    seat = table.seats[viewer_seat]
    state["options"] = {
        "auto_post": seat.auto_post,
        "owes_blinds": not seat.paid_blinds or seat.missed_big or seat.missed_small,
        "wait_for_big_blind": not seat.post_now and not seat.paid_blinds,
        "sit_out_next": seat.sit_out_next,
        "leave_after": seat.leave_after,
        "pre_action": None if seat.pre_action is None else seat.pre_action.value,
        "auto_muck": seat.auto_muck,
        "straddle": seat.straddle,
        "run_it_twice": seat.run_it_twice,
    }
    state["buy_in"] = buy_in_range(table, seat.stack)
    hand = table.hand
    if public["hand"] is None or hand is None or viewer_seat not in table.hand_seats:
        return state
    position = table.hand_seats.index(viewer_seat)
    seats = list(public["seats"])
    mine = dict(seats[viewer_seat - 1])
    mine["cards"] = [CARD_TEXT[c] for c in hand.hole_cards(position)]  # a player sees their own
    seats[viewer_seat - 1] = mine
    state["seats"] = seats
    if hand.actor == position and hand.phase is Phase.RUNOUT:  # R-RIT-1: asked, by name
        state["hand"] = dict(public["hand"])
        state["hand"]["runout_prompt"] = True
        return state
    legal = hand.legal_actions() if hand.actor == position else None
    if legal is not None and hand.phase is Phase.BETTING:
        state["hand"] = dict(public["hand"])
        state["hand"]["legal"] = {
            "can_check": legal.can_check,
            "call": legal.call_amount,
            "call_all_in": legal.call_all_in,
            "min_raise_to": legal.min_raise_to,
            "max_raise_to": legal.max_raise_to,
            "is_bet": legal.is_bet,
            "current_bet": legal.current_bet,
            "pot": legal.pot,
            "all_in_to": hand.bets[position] + hand.stacks[position],
            **raise_presets(legal, table.spec.structure),
        }
    return state


def buy_in_range(table: Table, stack: int) -> dict[str, int]:
    """What a seated player may add to ``stack`` (R-STAKE-1/2, as ``Table.add_chips`` checks
    it): enough to reach the table's minimum, at most what reaches its maximum. ``max`` below
    ``min`` means the stack is already at the maximum."""
    return {"min": max(1, table.min_buy_in - stack), "max": table.max_buy_in - stack}


def raise_presets(legal: LegalActions, structure: Structure) -> dict[str, int | None]:
    """The "raise to" of the ½ Pot and Pot buttons, always within the legal bounds. A pot
    raise calls first, then raises by the pot after the call (R-PL-2); in pot limit that is
    the engine's own maximum (which knows the house's pot basis, R-PL-3)."""
    low, high = legal.min_raise_to, legal.max_raise_to
    if low is None or high is None:
        return {"half_pot_raise_to": None, "pot_raise_to": None}
    after_call = legal.pot + legal.call_amount
    pot = high if structure is Structure.POT_LIMIT else legal.current_bet + after_call
    half = legal.current_bet + after_call // 2
    return {
        "half_pot_raise_to": max(low, min(high, half)),
        "pot_raise_to": max(low, min(high, pot)),
    }
