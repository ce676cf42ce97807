"""The hand engine: one hand, as a pure deterministic state machine."""

from pokerroom.engine.actions import Action, ActionKind, LegalActions, ShowdownChoice
from pokerroom.engine.errors import (
    HandError,
    HandOverError,
    IllegalActionError,
    InvalidAmountError,
    NotYourTurnError,
    SetupError,
)
from pokerroom.engine.hand import Hand, Phase
from pokerroom.engine.pots import Pot
from pokerroom.engine.setup import ExtraPost, Player

__all__ = [
    "Action",
    "ActionKind",
    "ExtraPost",
    "Hand",
    "HandError",
    "HandOverError",
    "IllegalActionError",
    "InvalidAmountError",
    "LegalActions",
    "NotYourTurnError",
    "Phase",
    "Player",
    "Pot",
    "SetupError",
    "ShowdownChoice",
]
