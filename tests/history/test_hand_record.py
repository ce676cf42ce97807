"""Issue 13: a PHH history is dealt from the same ``HandSetup`` a table deals from, and the
hand it replays to rebuilds exactly from its setup and log (``Hand.replay``)."""

from __future__ import annotations

import itertools
import json
import os
from pathlib import Path

import pytest

from pokerroom.engine import ForcedBetKind, Hand, Move, PotShare
from pokerroom.engine.events import ActionTaken, ForcedBet, PotAwarded
from pokerroom.history.events_json import event_to_dict
from pokerroom.history.phh import iter_paths, load_file, load_text, replay, write_phh

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "phh"


def test_corpus_hands_rebuild_from_setup_and_log() -> None:
    if not CORPUS.is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"the shared corpus is not at {CORPUS}")
        pytest.skip(f"the shared corpus is not at {CORPUS}")
    checked = 0
    for path in itertools.islice(iter_paths([CORPUS]), 400):
        for phh in load_file(path):
            hand = replay(phh).hand
            again = Hand.replay(hand.setup, hand.log)
            assert again.events == hand.events, path
            assert again.stacks == hand.stacks, path
            checked += 1
    assert checked >= 400


def test_event_kinds_are_enums_that_write_the_same_strings() -> None:
    """JSON and PHH output stay as they were: the enums are str-valued."""
    text = """
variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = ["d dh p1 AcAd", "d dh p2 KcKd", "d dh p3 2c7d", "p3 f", "p1 cbr 6", "p2 f"]
"""
    hand = replay(load_text(text)[0]).hand
    forced = [e for e in hand.events if isinstance(e, ForcedBet)]
    taken = [e for e in hand.events if isinstance(e, ActionTaken)]
    awarded = [e for e in hand.events if isinstance(e, PotAwarded)]
    assert [e.what for e in forced] == [ForcedBetKind.SMALL_BLIND, ForcedBetKind.BIG_BLIND]
    assert [e.action for e in taken] == [Move.FOLD, Move.RAISE, Move.FOLD]
    assert [e.share for e in awarded] == [PotShare.WHOLE]
    assert all(type(e.what) is ForcedBetKind for e in forced)
    dumped = json.loads(json.dumps([event_to_dict(e) for e in hand.events]))
    assert [d["what"] for d in dumped if d["kind"] == "forced_bet"] == ["small_blind", "big_blind"]
    assert [d["action"] for d in dumped if d["kind"] == "action"] == ["fold", "raise", "fold"]
    assert "p1 cbr 6" in write_phh(hand) and "p3 f" in write_phh(hand)
