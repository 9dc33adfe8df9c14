"""The exceptions raised by kniffel.

Every error is a :class:`KniffelError`, itself a :class:`ValueError`, and its message names the
offending value and the state it was checked against. Besides its English message (``str(e)``,
for Python users and logs) every error carries a stable dotted ``code`` and JSON-able ``params``:
:func:`kniffel.engine.messages.render` turns those into plain German or English for a player.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Self


class KniffelError(ValueError):
    """Base class of every error kniffel raises on bad input.

    >>> e = KniffelError("box 'x' is given twice", code="advise.box_twice",
    ...                  params={"box": "x"})
    >>> str(e), e.code, e.params
    ("box 'x' is given twice", 'advise.box_twice', {'box': 'x'})
    """

    #: The code of an error raised without one (each subclass names its own).
    default_code: ClassVar[str] = "error"

    def __init__(self, message: str = "", *, code: str | None = None,
                 params: Mapping[str, object] | None = None) -> None:
        super().__init__(message)
        self.code: str = code or type(self).default_code
        self.params: dict[str, object] = dict(params or {})

    def within(self, where: str, message: str | None = None, **extra: object) -> Self:
        """The same error (type, code, params) placed in ``where``, a file name (shown as
        it is in every language): the English message becomes ``"{where}: {message}"`` and
        ``params["where"]`` names the place (unless ``extra`` holds a ``where`` already)."""
        params = {**self.params, **extra}
        params.setdefault("where", where)
        return type(self)(f"{where}: {self if message is None else message}", code=self.code,
                          params=params)

    def as_type(self, cls: type[KniffelError]) -> KniffelError:
        """This error as an instance of ``cls`` (same message, code and params)."""
        return cls(str(self), code=self.code, params=self.params)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), str(self), self.code, self.params))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self)!r}, code={self.code!r}, params={self.params!r})"


def _rebuild(cls: type[KniffelError], message: str, code: str,
             params: dict[str, object]) -> KniffelError:
    return cls(message, code=code, params=params)


class InvalidDiceError(KniffelError):
    """Dice that cannot exist: a wrong count, a face outside the die, not a number."""

    default_code = "dice.invalid"


class InvalidKeepError(KniffelError):
    """A choice of dice to keep that is not part of the current roll."""

    default_code = "keep.invalid"


class UnknownBoxError(KniffelError):
    """A box id that no rule set knows, or one that the chosen rule set does not have."""

    default_code = "box.unknown"


class UnknownRuleSetError(KniffelError):
    """A rule set name that is not one of the presets."""

    default_code = "rules.unknown"


class IllegalMoveError(KniffelError):
    """An action that the rules do not allow in the current state of the game."""

    default_code = "move.illegal"


class NotYourTurnError(IllegalMoveError):
    """An action for a player whose turn it is not."""

    default_code = "move.not_your_turn"


class GameOverError(IllegalMoveError):
    """An action after every box of every player is filled."""

    default_code = "move.game_over"


class InvalidGameError(KniffelError):
    """A game that cannot be set up: no players, too many, duplicate or empty names."""

    default_code = "game.invalid"


class InvalidArgumentError(KniffelError):
    """A library call given a value of the wrong type or outside what it takes (a random
    generator that is none, a path that is no path): the library refuses it at the door."""

    default_code = "argument.invalid"


class SaveError(KniffelError):
    """A saved game that cannot be read."""

    default_code = "save.invalid"


class CorruptSaveError(SaveError):
    """A save that is not valid JSON, is truncated, or holds values or actions that are wrong."""

    default_code = "save.corrupt"


class UnsupportedVersionError(SaveError):
    """A save written by a newer version of kniffel (or of an unknown format)."""

    default_code = "save.newer_version"


class UnknownStrategyError(KniffelError):
    """A computer strategy name that is not registered."""

    default_code = "strategy.unknown"


class ExpertError(KniffelError):
    """The expert cannot play: its value data is missing, damaged or for other rules."""

    default_code = "expert.error"


class InvalidImportError(KniffelError):
    """A history export file that cannot be imported; nothing was changed."""

    default_code = "import.invalid"


def dice_param(dice: Any) -> dict[str, object]:
    """A roll or a keep (anything with ``d6`` and ``d10``) as an error parameter:
    ``{"d6": [...], "d10": n | None}``; :func:`kniffel.engine.messages.render` writes it with the
    player's die label ("W10" in German, "d10" in English)."""
    return {"d6": list(dice.d6), "d10": dice.d10}


def cause_param(error: KniffelError) -> dict[str, object]:
    """An error inside another (a bad action inside a save) as an error parameter."""
    return {"code": error.code, "params": error.params}
