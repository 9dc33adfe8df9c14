"""The exceptions raised by kniffel.

Every error is a :class:`KniffelError`, itself a :class:`ValueError`, and its message names the
offending value and the state it was checked against.
"""

from __future__ import annotations


class KniffelError(ValueError):
    """Base class of every error kniffel raises on bad input."""


class InvalidDiceError(KniffelError):
    """Dice that cannot exist: a wrong count, a face outside the die, not a number."""


class InvalidKeepError(KniffelError):
    """A choice of dice to keep that is not part of the current roll."""


class UnknownBoxError(KniffelError):
    """A box id that no rule set knows, or one that the chosen rule set does not have."""


class UnknownRuleSetError(KniffelError):
    """A rule set name that is not one of the presets."""


class IllegalMoveError(KniffelError):
    """An action that the rules do not allow in the current state of the game."""


class NotYourTurnError(IllegalMoveError):
    """An action for a player whose turn it is not."""


class GameOverError(IllegalMoveError):
    """An action after every box of every player is filled."""


class InvalidGameError(KniffelError):
    """A game that cannot be set up: no players, too many, duplicate or empty names."""


class SaveError(KniffelError):
    """A saved game that cannot be read."""


class CorruptSaveError(SaveError):
    """A save that is not valid JSON, is truncated, or holds values or actions that are wrong."""


class UnsupportedVersionError(SaveError):
    """A save written by a newer version of kniffel (or of an unknown format)."""


class UnknownStrategyError(KniffelError):
    """A computer strategy name that is not registered."""


class HistoryError(KniffelError):
    """The game history database cannot be used: locked, corrupt, or written by a newer version."""


class HistoryLockedError(HistoryError):
    """Another program holds the history database locked."""


class CorruptHistoryError(HistoryError):
    """The history database file is not a kniffel database or is damaged."""


class HistoryVersionError(HistoryError):
    """The history database was written by a newer version of kniffel."""


class InvalidImportError(KniffelError):
    """A history export file that cannot be imported; nothing was changed."""
