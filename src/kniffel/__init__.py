"""kniffel: rules engine, score pad and game for Kniffel Extreme and classic Kniffel.

>>> from kniffel import Roll, Box, RuleSet, points
>>> points(Box.TWO_TRIPLES, Roll((5, 5, 5, 6, 6), d10=6))
45
"""

from typing import TYPE_CHECKING, Any

from kniffel.engine.dice import Keep, Roll, all_rolls, outcomes, roll_dice, seeded_rng, sub_keeps
from kniffel.engine.errors import (
    CorruptSaveError,
    GameOverError,
    IllegalMoveError,
    InvalidArgumentError,
    InvalidDiceError,
    InvalidGameError,
    InvalidKeepError,
    KniffelError,
    NotYourTurnError,
    SaveError,
    UnknownBoxError,
    UnknownRuleSetError,
    UnsupportedVersionError,
)
from kniffel.engine.rules import (
    BOX_TEXTS,
    DEFAULT_RULES,
    PRESETS,
    Box,
    Choice,
    Entry,
    ExtraKniffel,
    RuleSet,
    StrikeRule,
    choices,
    evaluate,
    fits,
    points,
    preset,
)

if TYPE_CHECKING:
    from kniffel.engine.game import (
        Action,
        Correct,
        Enter,
        Game,
        Mode,
        Outcome,
        Player,
        PlayerKind,
        RollOff,
        Score,
        Sheet,
        Strike,
        Throw,
        Turn,
        UseChip,
        roll_off,
    )
    from kniffel.engine.saves import loads_game

#: The names of the game and its saves, imported on first use (``kniffel.Game``): a program
#: that needs only the rules (``kniffel solve``) starts without them. Only the engine's: this
#: package runs in the browser too, so the desktop's files (``save_game``, ``load_game``) are
#: :mod:`kniffel.storage`'s.
_LAZY = {
    **dict.fromkeys(("Action", "Correct", "Enter", "Game", "Mode", "Outcome", "Player",
                     "PlayerKind", "RollOff", "Score", "Sheet", "Strike", "Throw", "Turn",
                     "UseChip", "roll_off"), "kniffel.engine.game"),
    "loads_game": "kniffel.engine.saves",
}

__version__ = "0.1.0"

__all__ = [
    "BOX_TEXTS",
    "DEFAULT_RULES",
    "PRESETS",
    "Action",
    "Box",
    "Choice",
    "Correct",
    "CorruptSaveError",
    "Enter",
    "Entry",
    "ExtraKniffel",
    "Game",
    "GameOverError",
    "IllegalMoveError",
    "InvalidArgumentError",
    "InvalidDiceError",
    "InvalidGameError",
    "InvalidKeepError",
    "Keep",
    "KniffelError",
    "Mode",
    "NotYourTurnError",
    "Outcome",
    "Player",
    "PlayerKind",
    "Roll",
    "RollOff",
    "RuleSet",
    "SaveError",
    "Score",
    "Sheet",
    "Strike",
    "StrikeRule",
    "Throw",
    "Turn",
    "UnknownBoxError",
    "UnknownRuleSetError",
    "UnsupportedVersionError",
    "UseChip",
    "all_rolls",
    "choices",
    "evaluate",
    "fits",
    "loads_game",
    "outcomes",
    "points",
    "preset",
    "roll_dice",
    "roll_off",
    "seeded_rng",
    "sub_keeps",
]


def __getattr__(name: str) -> Any:
    """The lazily imported names of :data:`_LAZY` (PEP 562)."""
    if name in _LAZY:
        from importlib import import_module

        value = getattr(import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
