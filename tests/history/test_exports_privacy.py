"""S-EXPORT-1: every per-player export holds only cards that player could see at the table:
their own, the board and hands shown at showdown -- never a folded or mucked hand (R-SHOW-8)."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from pokerroom.cards import Card
from pokerroom.engine import Hand
from pokerroom.engine.events import CardsShown, HandMucked
from pokerroom.history.phh import load_text, phh_fields, replay, to_toml, write_phh
from pokerroom.history.pokerstars import pokerstars_text
from pokerroom.history.viewer import EVERYONE, viewer_hand
from pokerroom.server.tables.replayer import replay_frames
from tests.helpers.cards import cards_in
from tests.helpers.hands import act, checks_down, deal, spec

WHEN = datetime(2026, 11, 30, tzinfo=UTC)


def omaha_hilo_with_a_showdown_muck() -> Hand:
    """Four players: p4 folds, p1 and p2 show, p3 mucks at the showdown."""
    hand = deal(
        [1_000] * 4,
        game=spec("omaha_hilo", "pot_limit", sb=5, bb=10),
        hole=["As2d7h7c", "KhKdQsJs", "2h3dKc5d", "9c9d8s8h"],
        board="Ks4c6hTdJc",
        auto_showdown=False,
    )
    act(hand, "c", "f", "c", "x")  # p4 folds before the flop
    checks_down(hand)
    while not hand.is_over:  # p3 gives up at the showdown; the others show
        act(hand, "muck" if hand.actor == 2 else "show")
    return hand


def exports_for(hand: Hand, viewer: int | None) -> dict[str, str]:
    seen = viewer_hand(hand, viewer)
    return {
        "phh": write_phh(seen),
        "text": pokerstars_text(seen, hand_id=1, table_name="Hi-Lo", started_at=WHEN),
        "replay": json.dumps(replay_frames(seen)),
        "phhs": "[1]\n" + to_toml(phh_fields(seen)),
    }


def test_S_EXPORT_1_a_mucked_omaha_hilo_hand_is_in_no_export_of_another_player() -> None:
    hand = omaha_hilo_with_a_showdown_muck()
    mucked = {e.position for e in hand.events if isinstance(e, HandMucked)}
    shown = {e.position for e in hand.events if isinstance(e, CardsShown)}
    assert mucked == {2} and shown == {0, 1} and hand.folded[3]

    def names(cards: tuple[Card, ...]) -> set[str]:
        return {str(c) for c in cards}

    board = names(hand.board_cards())
    public = board | names(hand.hole_cards(0)) | names(hand.hole_cards(1))
    for viewer in (None, 0, 1, 2, 3):
        own = set() if viewer is None else names(hand.hole_cards(viewer))
        for kind, text in exports_for(hand, viewer).items():
            held = cards_in(text)
            assert held <= public | own, (viewer, kind, sorted(held - public - own))
            assert public <= held, (viewer, kind, "a shown hand or the board is missing")
            if kind != "replay" or viewer is not None:
                assert own <= held, (viewer, kind, "the viewer's own cards are missing")
    assert "d dh p3 ????????" in exports_for(hand, 0)["phh"]  # hidden, not left out
    assert "p3: mucks hand" in exports_for(hand, 0)["text"]


def test_S_EXPORT_1_a_viewers_phh_replays_to_the_same_result_as_the_record() -> None:
    hand = omaha_hilo_with_a_showdown_muck()
    record = write_phh(viewer_hand(hand, EVERYONE))
    assert "d dh p3 2h3dKc5d" in record  # the room's own record keeps every card (R-SHOW-8)
    assert record == write_phh(hand)
    for viewer in range(hand.n):
        replayed = replay(load_text(write_phh(viewer_hand(hand, viewer)))[0])
        assert replayed.finishing_stacks == hand.stacks
