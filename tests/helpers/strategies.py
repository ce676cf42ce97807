"""Bot strategies that tests share (the room's own are in ``pokerroom.bots.strategy``)."""

from __future__ import annotations

from pokerroom.bots.strategy import Situation
from pokerroom.engine.actions import Action, ActionKind


class CallingStation:
    """Checks or calls everything and never bets: a person's all-in is called by every
    bot, and among such bots alone nobody is ever all in before the blinds outgrow them."""

    def decide(self, situation: Situation) -> Action:
        return Action(ActionKind.CHECK_OR_CALL)
