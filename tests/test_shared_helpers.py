"""Test modules share code through ``tests/helpers`` (or a conftest's fixtures), never by
importing each other's ``test_*.py``: a test module is free to change without breaking
another, and pytest never collects one module's tests through another."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def _is_test_module(dotted: str) -> bool:
    return dotted.split(".")[-1].startswith("test_")


def imported_test_modules(source: str) -> list[str]:
    """The ``test_*`` modules that ``source`` imports, by dotted name (relative ones with
    their dots)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if _is_test_module(a.name)]
        elif isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            if node.module and _is_test_module(node.module):
                found.append(module)
            found += [f"{module}.{a.name}" for a in node.names if _is_test_module(a.name)]
    return found


def test_the_check_finds_every_way_to_import_a_test_module() -> None:
    sources = [
        "from tests.server.tables.test_e2e import table_config",
        "from tests.server import test_e2e",
        "import tests.server.tables.test_e2e",
        "from .test_e2e import table_config",
        "def f():\n    from tests.server.tables.test_e2e import table_config",
    ]
    assert [bool(imported_test_modules(s)) for s in sources] == [True] * len(sources)
    helpers = ["from tests.helpers.room_tables import table_config", "import pytest"]
    assert [imported_test_modules(s) for s in helpers] == [[], []]


def test_no_test_module_imports_another() -> None:
    found = [
        f"{path.relative_to(TESTS.parent)}: {module}"
        for path in sorted(TESTS.rglob("*.py"))
        for module in imported_test_modules(path.read_text(encoding="utf-8"))
    ]
    assert not found, "move what is shared to tests/helpers:\n" + "\n".join(found)
