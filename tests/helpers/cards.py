"""The cards named in an export's text, for S-EXPORT-1 checks."""

from __future__ import annotations

import re

# One card ("Ks") or a PHH run of them ("As2d7h7c"), not part of a longer word ("Kings").
CARDS = re.compile(r"(?<![A-Za-z0-9])((?:[2-9TJQKA][cdhs])+)(?![A-Za-z0-9])")


def cards_in(text: str) -> set[str]:
    """Every card named in ``text`` ("As", "2d", ...)."""
    return {run[k : k + 2] for run in CARDS.findall(text) for k in range(0, len(run), 2)}
