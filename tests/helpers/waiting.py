"""Bounded waits for what a test names: poll until it holds, or fail saying what never came.
No bare sleeps and no timed assertions: the bound is generous (the machine may be loaded) and
only says when to give up."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable
from typing import Any

WAIT = 30.0  # far above what anything a test waits for takes on a busy machine


async def eventually(
    check: Callable[[], Any],
    what: str | Callable[[], str],
    seconds: float = WAIT,
    every: float | None = None,
) -> Any:
    """Call ``check()`` (awaiting it if it is a coroutine function's) until it gives something
    true, and return that. Polled every ``every`` seconds (by default 0.05, or 0.1 for an
    awaited check: a request or a query); after ``seconds`` fail naming ``what`` (or what it
    gives, if a function, so the message can say how far things got)."""
    try:
        async with asyncio.timeout(seconds):
            while True:
                found = check()
                if inspect.isawaitable(found):
                    found = await found
                    every = 0.1 if every is None else every
                if found:
                    return found
                await asyncio.sleep(0.05 if every is None else every)
    except TimeoutError:
        said = what() if callable(what) else what
        raise AssertionError(f"not within {seconds} s: {said}") from None
