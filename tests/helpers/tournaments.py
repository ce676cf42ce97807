"""Tournaments in a running room: a clock running faster, a signed-up player playing an event to
its end."""

from __future__ import annotations

import random
import time
from collections.abc import Coroutine
from typing import Any

from pokerroom.bots.strategy import RuleBot
from pokerroom.bots.tournament import run_tournament_bot
from tests.server.conftest import Server


class Fast:
    """The room's clock running ``speed`` times faster from now (levels pass in seconds)."""

    def __init__(self, speed: float) -> None:
        self.speed, self.origin = speed, time.time()

    def __call__(self) -> float:
        return self.origin + (time.time() - self.origin) * self.speed


def person(
    server: Server, tournament: str, name: str, data: dict[str, Any], **more: Any
) -> Coroutine[Any, Any, Any]:
    """A signed-up player playing ``tournament`` to their end, with the rule bot's choices."""
    return run_tournament_bot(
        server.base,
        name,
        RuleBot(random.Random(name)),
        tournament=tournament,
        token=data["token"],
        **more,
    )
