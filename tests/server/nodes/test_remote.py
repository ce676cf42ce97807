"""The bus's frames between nodes (server/nodes/remote.py): one message per node, a frame every
spectator there sees alike sent once, each viewer's own frame only to its connection."""

from __future__ import annotations

from pokerroom.server.nodes.remote import Frame, decode_batch, encode_batch, remote_client


def test_a_shared_frame_goes_once_with_its_connections_and_private_ones_alone() -> None:
    public = '{"type": "table", "version": 7, "seats": []}'
    ann = '{"type": "table", "version": 7, "you": 1, "cards": ["As", "Kd"]}'
    bob = '{"type": "table", "version": 7, "you": 2, "cards": ["7c", "7d"]}'
    frames = [
        Frame(("1",), "t", 7, "frame", ann),
        Frame(("2",), "t", 7, "frame", public),
        Frame(("3",), "t", 7, "frame", bob),
        Frame(("4",), "t", 7, "frame", public),
        Frame(("5",), "", 1008, "drop", "too slow"),
    ]
    payload = encode_batch(frames)
    assert payload.count(public.encode()) == 1  # sent once for both spectators
    got = decode_batch(payload)
    assert [(f.conns, f.text) for f in got] == [
        (("1",), ann),
        (("2", "4"), public),
        (("3",), bob),
        (("5",), "too slow"),
    ]
    assert got[-1].kind == "drop" and got[-1].version == 1008
    assert all(f.table == "t" and f.version == 7 for f in got[:3])


def test_equal_texts_of_two_broadcasts_are_not_merged() -> None:
    """Only the very same text object is merged: equal texts from two changes stay two
    frames, so every connection gets its frames in their order."""
    first = "".join(["{", '"v": 1', "}"])
    again = "".join(["{", '"v": 1', "}"])
    assert first == again and first is not again
    got = decode_batch(
        encode_batch([Frame(("1",), "t", 1, "frame", first), Frame(("1",), "t", 2, "frame", again)])
    )
    assert [f.version for f in got] == [1, 2]


def test_a_text_sent_again_never_overtakes_a_connection_s_earlier_frame() -> None:
    notice = '{"type": "error", "message": "busy"}'  # one object, sent at two moments
    frames = [
        Frame(("1",), "", None, "frame", notice),
        Frame(("2",), "t", 8, "frame", '{"version": 8}'),
        Frame(("2",), "", None, "frame", notice),
        Frame(("3",), "", None, "frame", notice),
    ]
    got = decode_batch(encode_batch(frames))
    assert [(f.conns, f.version) for f in got] == [(("1",), None), (("2",), 8), (("2", "3"), None)]


def test_non_ascii_text_keeps_its_length_in_bytes() -> None:
    chat = '{"type": "chat", "text": "Bergen ✓ Åse"}'
    got = decode_batch(
        encode_batch(
            [Frame(("1",), "", None, "frame", chat), Frame(("2",), "", None, "frame", "{}")]
        )
    )
    assert [f.text for f in got] == [chat, "{}"]


def test_a_remote_client_sends_to_its_node_and_stops_when_dropped() -> None:
    sent: list[tuple[str, Frame]] = []
    forgotten = []
    remote = remote_client(
        "node-b.1a2b3c", "7", lambda node, frame: sent.append((node, frame)), forgotten.append
    )
    remote.deliver('{"type": "table"}', "t", 3)
    remote.drop(1008, "suspended")
    remote.deliver("after", "t", 4)
    assert [(n, f.conns, f.kind, f.version) for n, f in sent] == [
        ("node-b.1a2b3c", ("7",), "frame", 3),
        ("node-b.1a2b3c", ("7",), "drop", 1008),
    ]
    assert forgotten == [remote] and remote.closed
