"""The hand engine: one hand, as a pure deterministic state machine."""

from pokerroom.engine.actions import (
    Action,
    ActionKind,
    LegalActions,
    RunoutChoice,
    ShowdownChoice,
)
from pokerroom.engine.errors import (
    BombPotError,
    HandError,
    HandOverError,
    IllegalActionError,
    InvalidAmountError,
    NotYourTurnError,
    SetupError,
    StraddleError,
)
from pokerroom.engine.events import ForcedBetKind, Move, PotShare
from pokerroom.engine.hand import Hand, Phase
from pokerroom.engine.pots import Pot
from pokerroom.engine.setup import ExtraPost, HandSetup, Player
from pokerroom.engine.views import HandView, SeatView, view_for

__all__ = [
    "Action",
    "ActionKind",
    "BombPotError",
    "ExtraPost",
    "ForcedBetKind",
    "Hand",
    "HandError",
    "HandOverError",
    "HandSetup",
    "HandView",
    "IllegalActionError",
    "InvalidAmountError",
    "LegalActions",
    "Move",
    "NotYourTurnError",
    "Phase",
    "Player",
    "Pot",
    "PotShare",
    "RunoutChoice",
    "SeatView",
    "SetupError",
    "ShowdownChoice",
    "StraddleError",
    "view_for",
]
