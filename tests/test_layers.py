"""The core below ``server`` reads no wall clock and draws no randomness of its own.

``lint-imports`` (``make lint``, contracts in pyproject.toml ``[tool.importlinter]``) keeps
the layer order and keeps ``time``, asyncio, databases and the network out of the core. An
import contract can't see ``datetime.now()`` (``datetime`` is also a plain value type) or a
call on the ``random`` module, so these tests read the core's source for them. Time and
randomness are passed in (DESIGN.md, "The shape"): that is what makes a hand replayable.

The contracts inside ``server`` and ``store`` hold the shape of DESIGN.md ("one folder per
concept") with no exception: the last test here fails if a contract ignores an import (a
breach is fixed in the code: a Protocol or a type moved down, a module split).
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"

# Calls that read the wall clock, by the attribute called and the name it is called on.
CLOCK_CALLS = {
    "now": {"datetime", "date"},
    "utcnow": {"datetime"},
    "today": {"datetime", "date"},
    "time": {"time"},
    "time_ns": {"time"},
    "monotonic": {"time"},
    "monotonic_ns": {"time"},
    "perf_counter": {"time"},
    "perf_counter_ns": {"time"},
}
# rng.py's seeded source is the one place the ``random`` module is used (never for live deals).
RANDOM_ALLOWED = {"pokerroom/rng.py": {"Random"}}


def contracts() -> list[dict[str, Any]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    return list(config["contracts"])


def pure_core_packages() -> list[str]:
    """The packages below ``server``, as the import contract names them (one list, not two)."""
    (contract,) = (c for c in contracts() if c["id"] == "pure-core")
    return list(contract["source_modules"])


def files_of(module: str) -> list[Path]:
    path = SRC / module.replace(".", "/")
    if path.is_dir():
        return sorted(path.rglob("*.py"))
    return [path.with_suffix(".py")] if path.with_suffix(".py").is_file() else []


def dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = dotted(node.value)
        return None if base is None else f"{base}.{node.attr}"
    return None


def offences(path: Path, source: str, relative: str) -> list[str]:
    """Each wall-clock read and each use of the ``random`` module in one file, as ``file:line``."""
    found: list[tuple[int, str]] = []
    allowed_random = RANDOM_ALLOWED.get(relative, set())
    for node in ast.walk(ast.parse(source, filename=str(path))):
        line = getattr(node, "lineno", 0)
        where = f"{relative}:{line}"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            name = dotted(node.func.value)
            owners = CLOCK_CALLS.get(node.func.attr, set())
            if name is not None and name.rsplit(".", 1)[-1] in owners:
                found.append((line, f"{where}: reads the wall clock: {name}.{node.func.attr}()"))
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if node.value.id == "random" and node.attr not in allowed_random:
                found.append((line, f"{where}: uses the random module: random.{node.attr}"))
        elif isinstance(node, ast.ImportFrom) and node.module == "random" and not node.level:
            names = ", ".join(alias.name for alias in node.names)
            found.append((line, f"{where}: uses the random module: from random import {names}"))
        elif (
            isinstance(node, ast.Import)
            and "random" in {a.name for a in node.names}
            and not allowed_random  # rng.py imports it for its seeded source
        ):
            found.append((line, f"{where}: uses the random module: import random"))
    return [text for _, text in sorted(found)]


def core_offences() -> list[str]:
    found: list[str] = []
    for path in (p for module in pure_core_packages() for p in files_of(module)):
        relative = path.relative_to(SRC).as_posix()
        found.extend(offences(path, path.read_text(encoding="utf-8"), relative))
    return found


def test_pure_core_packages_all_exist() -> None:
    # A renamed package would silently drop out of both the contract and these scans.
    missing = [m for m in pure_core_packages() if not files_of(m)]
    assert not missing, f"the pure-core contract names packages that do not exist: {missing}"


def test_core_below_server_reads_no_wall_clock() -> None:
    found = [o for o in core_offences() if "wall clock" in o]
    assert not found, "the core below server takes the time as an argument:\n" + "\n".join(found)


def test_S_RNG_1_core_below_server_draws_randomness_only_through_rng() -> None:
    found = [o for o in core_offences() if "random module" in o]
    assert not found, "the core below server draws only from a RandomSource:\n" + "\n".join(found)


def test_scan_finds_each_clock_read_and_each_random_use() -> None:
    # The scan itself must see what it looks for, or the test above proves nothing.
    planted = "\n".join(
        [
            "import random",
            "from random import shuffle",
            "from datetime import datetime, date",
            "import time, datetime as dt",
            "a = datetime.now()",
            "b = dt.datetime.utcnow()",
            "c = date.today()",
            "d = time.time()",
            "e = time.monotonic()",
            "f = random.shuffle",
            "g = random.Random(1)",
            "h = dt.timedelta(seconds=1)  # not a clock read",
            '"""time.time() in a docstring is no call"""',
        ]
    )
    found = offences(Path("x.py"), planted, "pokerroom/engine/x.py")
    assert [line.split(": ", 1)[0] for line in found] == [
        f"pokerroom/engine/x.py:{n}" for n in (1, 2, 5, 6, 7, 8, 9, 10, 11)
    ], found
    # rng.py may build its seeded source, and only that.
    in_rng = offences(Path("rng.py"), "import random\nr = random.Random(1)\n", "pokerroom/rng.py")
    assert in_rng == []
    in_rng = offences(Path("rng.py"), "import random\nr = random.random()\n", "pokerroom/rng.py")
    assert in_rng == ["pokerroom/rng.py:2: uses the random module: random.random"]


def test_no_contract_ignores_an_import() -> None:
    ignoring = {c["id"]: c["ignore_imports"] for c in contracts() if c.get("ignore_imports")}
    assert not ignoring, f"contracts that let a breach through: {ignoring}; fix the import instead"
