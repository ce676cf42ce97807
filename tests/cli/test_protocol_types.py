"""``pokerroom protocol-types``: the browser client's frame types (web/js/protocol.d.ts) are
written from the protocol's models, and the committed file is what the models give now."""

from __future__ import annotations

from typer.testing import CliRunner

from pokerroom.cli.app import app
from pokerroom.cli.protocol_types import TARGET, protocol_types


def test_the_committed_protocol_types_are_what_the_models_give() -> None:
    assert TARGET.read_text(encoding="utf-8") == protocol_types(), "run `pokerroom protocol-types`"


def test_every_server_frame_and_client_message_is_declared_with_its_tag() -> None:
    text = protocol_types()
    assert 'export interface TableFrame {\n  type: "table";' in text
    assert 'export interface Watch {\n  type: "watch" | "resync";' in text
    assert "  | HandResult\n" in text and "  | WaitingList;" in text


def test_a_field_sent_under_an_alias_is_declared_by_its_wire_name() -> None:
    assert (
        'export interface ChatFrame {\n  type: "chat";\n  table: string;\n  from: string;'
        in protocol_types()
    )


def test_optional_and_nested_fields_keep_their_types() -> None:
    text = protocol_types()
    assert "  offer?: SeatOffer | null;" in text  # a default: may be left out
    assert "  position: number | null;" in text  # required, may be null
    assert "  stakes: [number, number];" in text
    assert "  params?: Record<string, string | number>;" in text


def test_check_fails_when_the_file_differs(tmp_path, monkeypatch) -> None:
    stale = tmp_path / "protocol.d.ts"
    stale.write_text("// old\n", encoding="utf-8")
    monkeypatch.setattr("pokerroom.cli.protocol_types.TARGET", stale)
    runner = CliRunner()
    assert runner.invoke(app, ["protocol-types", "--check"]).exit_code == 1
    assert runner.invoke(app, ["protocol-types"]).exit_code == 0
    assert stale.read_text(encoding="utf-8") == protocol_types()
    assert runner.invoke(app, ["protocol-types", "--check"]).exit_code == 0
