"""The deployment is chosen once, in the composition root (server/app.py): each mode's parts
(where the tables run, how the nodes are linked, where the events run, how a request for
another node's event reaches its owner) are built there and passed in, and no module of the
server outside it asks which of them it was given (docs/nodes.md, "The placement")."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from pokerroom.server.app import create_app
from pokerroom.server.nodes.event_requests import BusRequests, EventRequests
from pokerroom.server.nodes.event_views import EventViewer
from pokerroom.server.nodes.placement import BusLinks, Leased, SocketsOnly
from pokerroom.server.nodes.tournament_leases import TournamentLeases
from pokerroom.server.tables.placement import Links, Placement
from pokerroom.server.tournaments.hall import Events
from pokerroom.store.nodes.leases import LeaseSettings

SERVER = Path(__file__).resolve().parents[2] / "src" / "pokerroom" / "server"
# Never reached: the apps are built, not started (no database or Redis is opened).
POSTGRES = "postgresql+asyncpg://nobody:nothing@127.0.0.1:1/none"
REDIS = "redis://127.0.0.1:1/0"


def subclasses(cls: type) -> set[str]:
    found = {cls.__name__}
    for sub in cls.__subclasses__():
        found |= subclasses(sub)
    return found


# Every part of a placement, by class name (the composition root is imported above, so
# every one of them is loaded).
PARTS = set().union(*(subclasses(c) for c in (Placement, Links, Events, EventRequests)))


def asked(source: str, relative: str) -> list[str]:
    """Each ``isinstance``/``issubclass`` of a placement's part, or ``type(x) is`` one, in
    one file, as ``file:line``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        classes: list[ast.expr] = []
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id in ("isinstance", "issubclass") and len(node.args) == 2:
                second = node.args[1]
                classes = list(second.elts) if isinstance(second, ast.Tuple) else [second]
        elif (
            isinstance(node, ast.Compare)
            and isinstance(node.left, ast.Call)
            and isinstance(node.left.func, ast.Name)
            and node.left.func.id == "type"
        ):
            classes = list(node.comparators)
        for cls in classes:
            name = cls.attr if isinstance(cls, ast.Attribute) else getattr(cls, "id", None)
            if name in PARTS:
                found.append(f"{relative}:{node.lineno}: asks for {name}")
    return found


def test_no_server_module_but_the_composition_root_asks_which_placement_it_has() -> None:
    found = [
        line
        for path in sorted(SERVER.rglob("*.py"))
        if path != SERVER / "app.py"
        for line in asked(path.read_text(encoding="utf-8"), path.relative_to(SERVER).as_posix())
    ]
    assert not found, "the deployment is chosen in server/app.py only:\n" + "\n".join(found)


def test_the_scan_finds_each_question_of_a_placement_and_nothing_else() -> None:
    # The scan itself must see what it looks for, or the test above proves nothing.
    assert {"Leased", "SocketsOnly", "BusLinks", "TournamentLeases", "EventViewer"} <= PARTS
    assert {"BusRequests", "EventRequests", "Placement", "Links", "Events"} <= PARTS
    planted = "\n".join(
        [
            "if isinstance(links, BusLinks): pass",
            "ok = isinstance(p, (Leased, nodes.SocketsOnly))",
            "ok = issubclass(kind, TournamentLeases)",
            "ok = type(events) is EventViewer",
            "ok = isinstance(error, ElsewhereError)  # not a placement",
            "ok = type(x) is int",
            '"""isinstance(links, BusLinks) in a docstring is no call"""',
        ]
    )
    assert asked(planted, "x.py") == [
        "x.py:1: asks for BusLinks",
        "x.py:2: asks for Leased",
        "x.py:2: asks for SocketsOnly",
        "x.py:3: asks for TournamentLeases",
        "x.py:4: asks for EventViewer",
    ]


DEPLOYMENTS = {
    # mode: (create_app's arguments, the tables' placement, the links, the events, requests)
    "one node": ({}, Placement, Links, Events, None),
    "sockets only": ({"own_tables": False}, SocketsOnly, Links, EventViewer, EventRequests),
    "sockets only, bus": (
        {"own_tables": False, "redis": REDIS},
        SocketsOnly,
        BusLinks,
        EventViewer,
        BusRequests,
    ),
    "leased": ({"leases": LeaseSettings()}, Leased, Links, TournamentLeases, EventRequests),
    "leased, bus": (
        {"leases": LeaseSettings(), "redis": REDIS},
        Leased,
        BusLinks,
        TournamentLeases,
        BusRequests,
    ),
}


@pytest.mark.parametrize("mode", DEPLOYMENTS)
def test_each_deployment_gets_its_parts_from_the_composition_root(
    mode: str, tmp_path: Path
) -> None:
    arguments, placement, links, events, requests = DEPLOYMENTS[mode]
    leased = "leases" in arguments
    url = POSTGRES if leased else f"sqlite+aiosqlite:///{tmp_path / 'room.db'}"
    app = create_app(url, demo=False, node="n1", **arguments)
    room, hall = app.state.room, app.state.tournaments
    try:
        assert type(room.placement) is placement
        assert type(room.links) is links
        assert type(hall.events) is events
        parts: Any = hall.events
        if requests is None:
            return
        assert type(parts.requests) is requests
        assert parts.requests.events is parts
        if leased:  # the lease pass reads, renews and loses the events with the tables
            assert parts.leases is room.placement.leases
            assert room.placement.leases.coordinators is parts
        if requests is BusRequests:  # one bus: the links' carries the events' requests too
            bus = room.links.bus
            assert parts.requests.bus is bus
            assert bus.on_call == parts.requests.handle
            assert bus.tables_of == parts.table_ids
    finally:
        app.state.auth.close()
