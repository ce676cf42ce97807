"""A PHH history is dealt from the same ``HandSetup`` a table deals from, and the
hand it replays to rebuilds exactly from its setup and log (``Hand.replay``)."""

from __future__ import annotations

import itertools
import json
import os
from datetime import UTC, datetime
from pathlib import Path

import pytest

from pokerroom.engine import (
    ForcedBetKind,
    Hand,
    Move,
    Phase,
    PotShare,
)
from pokerroom.engine.events import ActionTaken, ForcedBet, PotAwarded
from pokerroom.history.phh import iter_paths, load_file, load_text, replay, write_phh
from pokerroom.history.pokerstars import pokerstars_text
from pokerroom.history.record import (
    RecordError,
    cancel_reason,
    hand_record,
    interrupted_record,
    phh_record,
    read_record,
)
from pokerroom.history.viewer import EVERYONE, viewer_hand
from pokerroom.rules import STANDARD, load_preset
from pokerroom.rules.game import Structure, Variant
from pokerroom.server.tables.replayer import replay_frames
from tests.helpers.hand_records import house_options, played_hand

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "phh"
WHEN = datetime(2026, 12, 1, tzinfo=UTC)


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
    dumped = json.loads(json.dumps([e.as_dict() for e in forced + taken]))
    assert [d["what"] for d in dumped[:2]] == ["small_blind", "big_blind"]
    assert [d["action"] for d in dumped[2:]] == ["fold", "raise", "fold"]
    record = json.loads(hand_record(hand))  # the stored log keys on the action kinds' values
    assert [kind for _, kind, _ in record["log"]] == ["fold", "bet_or_raise", "fold"]
    assert "p1 cbr 6" in write_phh(hand) and "p3 f" in write_phh(hand)


# ---------------------------------------------------------------- the stored record


def _exports(hand: Hand) -> list[str]:
    out = []
    for viewer in (None, EVERYONE, *range(hand.n)):
        seen = viewer_hand(hand, viewer)
        out.append(write_phh(seen))
        out.append(pokerstars_text(seen, hand_id=7, table_name="t", started_at=WHEN))
        if viewer is not EVERYONE:
            out.append(json.dumps(replay_frames(seen)))
    return out


@pytest.mark.parametrize(
    ("variant", "house"),
    [
        (variant, name)
        for name in ("standard", "titan", "casino")
        for variant in Variant
        if any(v is variant for v, _ in house_options(name).games)
    ],
)
def test_a_stored_record_reads_back_the_same_hand_and_the_same_exports(
    variant: Variant, house: str
) -> None:
    """S-AUDIT-1: a hand is stored as one record (setup, actions, result) and
    read back by ``Hand.replay`` to the same events and stacks, so every export derived
    from what is read back is the export of the hand as it was played."""
    options = house_options(house)
    structures = [s for v, s in options.games if v is variant]
    for seed in range(12):
        hand = played_hand(seed, variant, structures[seed % len(structures)], options)
        text = hand_record(hand)
        again = read_record(text)
        assert again.events == hand.events and again.stacks == hand.stacks, seed
        assert again.setup == hand.setup and again.log == hand.log and again.rake == hand.rake
        assert _exports(again) == _exports(hand), seed
        stored = json.loads(text)
        assert stored["version"] == 1 and stored["result"]["stacks"] == hand.stacks


def test_a_cancelled_hand_is_stored_and_read_back_cancelled() -> None:
    """R-DECK-5: a hand cancelled at the table reads back cancelled, every chip returned."""
    hand = played_hand(1, Variant.HOLDEM, Structure.NO_LIMIT, STANDARD)
    live = Hand.from_setup(hand.setup)
    live.apply(*reversed(hand.log[0]))
    live.cancel("floor: misdeal")
    again = read_record(hand_record(live))
    assert again.phase is Phase.CANCELLED and again.stacks == list(hand.starting_stacks)
    assert cancel_reason(again) == "floor: misdeal" and again.events == live.events
    assert "_cancelled = true" in write_phh(viewer_hand(again, 0))


def test_a_record_that_does_not_replay_to_its_result_is_refused() -> None:
    """S-AUDIT-1: a stored hand replays to the stacks it ended with, or reading it fails."""
    hand = played_hand(2, Variant.HOLDEM, Structure.NO_LIMIT, STANDARD)
    stored = json.loads(hand_record(hand))
    stored["result"]["stacks"][0] += 1
    with pytest.raises(RecordError, match="replays to stacks"):
        read_record(json.dumps(stored))
    stored = json.loads(hand_record(hand))
    stored["log"] = stored["log"][:1]
    with pytest.raises(RecordError, match="log ends before the hand does"):
        read_record(json.dumps(stored))
    stored["log"] = [[stored["log"][0][0] + 1, "show", 0]]
    with pytest.raises(RecordError, match="does not replay"):
        read_record(json.dumps(stored))
    with pytest.raises(RecordError, match="version 9"):
        read_record(json.dumps({"version": 9}))
    with pytest.raises(RecordError, match="not a hand record"):
        read_record("phh?")
    with pytest.raises(RecordError, match="recorded when it is over"):
        hand_record(Hand.from_setup(hand.setup))


def test_a_hand_cut_off_by_a_crash_stores_only_why_and_does_not_replay() -> None:
    text = interrupted_record("server restart")
    assert json.loads(text) == {"version": 1, "result": {"cancelled": "server restart"}}
    with pytest.raises(RecordError, match=r"interrupted \(server restart\)"):
        read_record(text)


def test_a_hand_stored_as_phh_before_records_reads_back_through_phh() -> None:
    """Store migration 0007 keeps a hand stored before records as its PHH (``version`` 0)."""
    hand = played_hand(4, Variant.OMAHA, Structure.POT_LIMIT, load_preset("titan"))
    again = read_record(phh_record(write_phh(hand, _table="t1", hand=3)))
    assert again.stacks == hand.stacks and again.rake == hand.rake
    assert " # timeout" in write_phh(hand)
    assert again.events == hand.events  # a time-out read back as one (R-TIME-2)
    for viewer in range(hand.n):  # the same cards hidden from each player
        assert write_phh(viewer_hand(again, viewer)) == write_phh(viewer_hand(hand, viewer))
    wrong = write_phh(hand).replace("finishing_stacks = [", "finishing_stacks = [1")
    with pytest.raises(RecordError, match="PHH replays to stacks"):
        read_record(phh_record(wrong))
