"""The engine's errors: each says who tried what, and why it is not allowed; those a player
is sent carry their ``code`` (pokerroom/errors.py)."""

from pokerroom.errors import CodedError


class HandError(CodedError, ValueError):
    """Base of every error the hand engine raises."""


class SetupError(HandError):
    """A hand that cannot be dealt as described (stacks, posts, deck, players)."""


class IllegalActionError(HandError):
    """An action that the rules do not allow in this state. The hand is unchanged."""


class NotYourTurnError(IllegalActionError):
    """The player is not the one to act."""


class InvalidAmountError(IllegalActionError):
    """A bet or raise below the minimum, above the maximum, or not the fixed-limit amount."""


class HandOverError(IllegalActionError):
    """The hand has ended (or was cancelled); nothing more can happen in it."""


class StraddleError(SetupError):
    """A straddle the table options or the hand do not allow (R-STRADDLE-1)."""


class BombPotError(SetupError):
    """A bomb pot the table options or the hand do not allow (R-BOMB-1)."""
