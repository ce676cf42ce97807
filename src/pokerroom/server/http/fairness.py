"""A hand's shuffle as a file a player can check offline (``pokerroom verify``) or in the
replayer's "Verify this shuffle" panel: only for a player dealt into the hand, only after it
ended, never for a cancelled hand (docs/fairness.md)."""

import asyncio
import json
from typing import Any

from fastapi import APIRouter, HTTPException

from pokerroom.fairness import Shuffle
from pokerroom.history.record import read_record
from pokerroom.server.http.deps import Player, Store
from pokerroom.server.http.hands import HandId
from pokerroom.server.sockets.errors import ApiError
from pokerroom.store.models import HandPlayer, HandRecord

router = APIRouter(prefix="/api")


def shuffle_document(record: HandRecord, player: HandPlayer) -> dict[str, Any]:
    """The reveal of a finished hand with the player's own cards and the board, which the
    check finds at their places in the deck. Replays the hand: call it off the event loop."""
    if record.status == "cancelled":
        raise ApiError(409, "fairness.cancelled", hand=str(record.id))
    stored = json.loads(record.deck_reveal or "{}")
    if "client_seeds" not in stored:
        raise ApiError(409, "fairness.unseeded", hand=str(record.id))
    shuffle = Shuffle(
        bytes.fromhex(stored["salt"]), tuple(stored["client_seeds"]), tuple(stored["deck"])
    )
    if shuffle.commitment != record.deck_commitment:  # pragma: no cover - our own records agree
        raise HTTPException(
            500, f"hand {record.id}: the stored reveal does not match its commitment"
        )
    hand = read_record(record.record)
    return {
        **shuffle.reveal(),
        "table": record.table_id,
        "hand": record.number,
        "hand_id": record.id,
        "game": hand.spec.name,
        "players": hand.n,
        "hole_cards": hand.spec.hole_cards,
        "position": player.position,
        "your_cards": [str(c) for c in hand.hole_cards(player.position)],
        "board": [str(c) for c in hand.board_cards()],
    }


@router.get("/hands/{hand_id}/shuffle.json")
async def hand_shuffle(hand_id: HandId, account: Player, store: Store) -> dict[str, Any]:
    """The verification file of one finished hand of the player's."""
    found = await store.viewer_hand(account.id, hand_id)
    if found is None:
        raise ApiError(404, "hands.not_found", hand=str(hand_id))
    return await asyncio.to_thread(shuffle_document, *found)
