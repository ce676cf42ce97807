"""No source module is a monster of several concepts (over 1,500 lines).

A module holds one concept whole (DESIGN.md, principle 10). Its length is no measure of that:
a tighter cap split classes into mixins that declare each other's state, where one concept was
then spread over six files. So this bound is set where only a file that has plainly swallowed
several concepts reaches it (PokerKit's 6,000-line ``state.py`` is the thing to avoid); below
it, the cut is by concept, and the import contracts (pyproject.toml) hold the shape.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "src" / "pokerroom"
LIMIT = 1500


def test_no_module_is_a_monster() -> None:
    lines = {
        path.relative_to(ROOT).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
        for path in sorted(ROOT.rglob("*.py"))
    }
    over = {name: n for name, n in lines.items() if n > LIMIT}
    assert not over, f"modules over {LIMIT} lines: several concepts in one file? {over}"
