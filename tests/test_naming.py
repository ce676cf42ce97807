"""Tests and code are named for what they do, never for a tracker's issue number: a reader of
the project has no tracker to look the number up in. Rule and requirement IDs (R-*, S-*)
point into ../shared and stay."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCANNED = ("src", "tests", "benchmarks", "docs", "README.md", "pyproject.toml", "Makefile")
SKIPPED_DIRS = {"__pycache__", "vendor", "node_modules"}  # third-party code is not ours

# Built from parts so that this file's own source does not match it.
WORD = "iss" + "ues?"
CITATION = re.compile(
    rf"(?<![A-Za-z]){WORD}[\s_-]*(?:#|no\.?\s*)?\d+"  # the word and a number, in prose or a name
    r"|\((?:see\s+)?#\d+\)"  # a bare number in brackets, as trackers link them
    r"|\bGH-\d+\b",
    re.IGNORECASE,
)


def _texts() -> dict[str, str]:
    texts: dict[str, str] = {}
    for name in SCANNED:
        top = ROOT / name
        files = [top] if top.is_file() else sorted(p for p in top.rglob("*") if p.is_file())
        for path in files:
            if SKIPPED_DIRS & set(path.relative_to(ROOT).parts):
                continue
            try:
                texts[path.relative_to(ROOT).as_posix()] = path.read_text(encoding="utf-8")
            except UnicodeDecodeError:  # compiled modules and other binaries
                continue
    return texts


def citations(text: str) -> list[tuple[int, str]]:
    """Each issue citation in ``text`` with its line number."""
    return [(text.count("\n", 0, m.start()) + 1, m.group()) for m in CITATION.finditer(text)]


def test_the_pattern_finds_the_ways_an_issue_is_cited() -> None:
    n = "2" + "7"
    cited = [
        f"(iss{'ue'} {n})",
        f"def test_iss{'ue'}{n}_x",
        f"test_iss{'ue'}_{n}_y",
        f"Iss{'ue'} {n}: why",
        f"iss{'ues'} 5 and {n}",
        f"iss{'ue'}\n{n}",
        f"(#{n})",
        f"GH-{n}",
    ]
    assert [bool(citations(text)) for text in cited] == [True] * len(cited)
    names = ["Seat #3 is the button", "Tournament #7", "entry ann#2", "R-TIME-1", "S-AUDIT-2"]
    assert [citations(text) for text in names] == [[]] * len(names)


def test_no_file_cites_an_issue_number() -> None:
    found = [
        f"{name}:{line}: {cited!r}"
        for name, text in _texts().items()
        for line, cited in citations(text)
    ]
    assert not found, "name the behaviour, not the issue:\n" + "\n".join(found)
