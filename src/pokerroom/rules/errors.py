"""The rules layer's errors."""


class RulesError(ValueError):
    """A game spec, house option, preset or rake schedule that is not valid."""
