"""A game's actions, and how a save writes them as JSON.

A :class:`~kniffel.engine.game.Game` is its header and the list of actions applied so far: the
decisions of the players (:class:`Throw`, :class:`UseChip`, :class:`Score`, :class:`Strike`; on a
score pad :class:`Enter` and :class:`Correct`) and the chance outcomes (:class:`Outcome`).
:func:`action_to_json` and :func:`action_from_json` are a save's codec for one action; the
``json_*`` readers check a save's values (also the header's, in :meth:`Game.from_json`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypeAlias

from kniffel.engine.dice import Keep, Roll
from kniffel.engine.errors import (
    CorruptSaveError,
    IllegalMoveError,
    InvalidDiceError,
    InvalidKeepError,
)
from kniffel.engine.rules import Box


def _box(value: object) -> Box:
    """An action's box: a :class:`Box`, or its id or name as text ("chance", "Chance");
    anything else raises :class:`~kniffel.engine.errors.UnknownBoxError`."""
    return value if isinstance(value, Box) else Box.parse(value)  # type: ignore[arg-type]


def as_keep(value: object) -> Keep:
    """A throw's keep: a :class:`Keep`, or the d6 faces to keep as a list or tuple
    (``(6, 6)``); anything else raises :class:`~kniffel.engine.errors.InvalidKeepError`."""
    if isinstance(value, Keep):
        return value
    if isinstance(value, (list, tuple)):
        return Keep(value)
    raise InvalidKeepError(f"a keep is a Keep or a list of d6 faces, got {value!r}",
                           code="keep.invalid")


def _roll(value: object, what: str) -> Roll:
    if isinstance(value, Roll):
        return value
    raise InvalidDiceError(f"{what} must be a Roll, got {value!r}", code="dice.invalid")


def _whole(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalMoveError(f"{what} must be a whole number, got {value!r}",
                               code="move.not_an_action")
    return value


@dataclass(frozen=True, slots=True)
class Throw:
    """Keep ``keep`` and throw the other dice (the first throw of a turn keeps nothing)."""

    keep: Keep = field(default_factory=Keep)

    def __post_init__(self) -> None:
        if type(self.keep) is not Keep:
            object.__setattr__(self, "keep", as_keep(self.keep))

    def __repr__(self) -> str:
        return "Throw()" if self.keep == Keep() else f"Throw({self.keep!r})"


@dataclass(frozen=True, slots=True)
class Outcome:
    """The chance action after a :class:`Throw`: the dice that came up (kept ones included)."""

    roll: Roll

    def __post_init__(self) -> None:
        _roll(self.roll, "an outcome's roll")


@dataclass(frozen=True, slots=True)
class UseChip:
    """Hand in a chip: in dice mode after the 3rd throw, for a 4th; at most one per turn."""


@dataclass(frozen=True, slots=True)
class Score:
    """Enter the dice on the table in ``box`` (dice mode); ``box`` may be given by its id
    (``Score("chance")`` is ``Score(Box.CHANCE)``)."""

    box: Box

    def __post_init__(self) -> None:
        if type(self.box) is not Box:
            object.__setattr__(self, "box", _box(self.box))


@dataclass(frozen=True, slots=True)
class Strike:
    """Strike ``box``: it holds 0 points (both modes). On a score pad ``dice`` records the
    roll typed in from real dice that the strike enters (checked: the roll must allow it)."""

    box: Box
    dice: Roll | None = None

    def __post_init__(self) -> None:
        if type(self.box) is not Box:
            object.__setattr__(self, "box", _box(self.box))
        if self.dice is not None:
            _roll(self.dice, "a strike's dice")

    def __repr__(self) -> str:
        dice = "" if self.dice is None else f", dice={self.dice!r}"
        return f"Strike(box={self.box!r}{dice})"


@dataclass(frozen=True, slots=True)
class Enter:
    """Write ``points`` in ``box`` (score-pad mode); ``extra_kniffel`` claims a further
    Kniffel's extra points where the rule set grants them; ``dice`` records the roll typed in
    from real dice that the entry comes from (checked: the roll must give these points)."""

    box: Box
    points: int
    extra_kniffel: bool = False
    dice: Roll | None = None

    def __post_init__(self) -> None:
        if type(self.box) is not Box:
            object.__setattr__(self, "box", _box(self.box))
        _whole(self.points, "an entry's points")
        if not isinstance(self.extra_kniffel, bool):
            raise IllegalMoveError(f"extra_kniffel must be True or False, got "
                                   f"{self.extra_kniffel!r}", code="move.not_an_action")
        if self.dice is not None:
            _roll(self.dice, "an entry's dice")

    def __repr__(self) -> str:
        extra = ", extra_kniffel=True" if self.extra_kniffel else ""
        dice = "" if self.dice is None else f", dice={self.dice!r}"
        return f"Enter({self.box!r}, {self.points!r}{extra}{dice})"


@dataclass(frozen=True, slots=True)
class Correct:
    """Score pad: put right player ``player``'s filled ``box`` — write ``points`` in it (checked
    like an :class:`Enter`), or strike it with ``points=None``. Any player, at any time, also
    after the last box; it is nobody's turn and the turn order stays. A box never goes back to
    open."""

    player: int
    box: Box
    points: int | None

    def __post_init__(self) -> None:
        _whole(self.player, "a correction's player")
        if type(self.box) is not Box:
            object.__setattr__(self, "box", _box(self.box))
        if self.points is not None:
            _whole(self.points, "a correction's points")

    def __repr__(self) -> str:
        return f"Correct({self.player!r}, {self.box!r}, {self.points!r})"


Action: TypeAlias = Throw | Outcome | UseChip | Score | Strike | Enter | Correct


def action_to_json(action: Action) -> dict[str, Any]:
    """The JSON object that stands for ``action`` in a save."""
    match action:
        case Throw(keep):
            return {"type": "throw", "keep": list(keep.d6), "keep_d10": keep.d10}
        case Outcome(roll):
            return {"type": "outcome", "d6": list(roll.d6), "d10": roll.d10}
        case UseChip():
            return {"type": "chip"}
        case Score(box):
            return {"type": "score", "box": box.value}
        case Strike(box, dice):
            return {"type": "strike", "box": box.value, **_dice_json(dice)}
        case Enter(box, points, extra, dice):
            return {"type": "enter", "box": box.value, "points": points, "extra_kniffel": extra,
                    **_dice_json(dice)}
        case Correct(player, box, points):
            return {"type": "correct", "player": player, "box": box.value, "points": points}
    raise TypeError(f"not an action: {action!r}")


def action_from_json(data: object) -> Action:
    """The action a save's JSON object stands for; raises KniffelError if it is malformed."""
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise CorruptSaveError(f"an action must be an object with a 'type', got {data!r}",
                               code="save.bad_action")
    kind = data["type"]
    try:
        if kind == "throw":
            return Throw(Keep(json_int_list(data["keep"]), json_opt_int(data.get("keep_d10"))))
        if kind == "outcome":
            return Outcome(Roll(json_int_list(data["d6"]), json_opt_int(data.get("d10"))))
        if kind == "chip":
            return UseChip()
        if kind in ("score", "strike"):
            box = Box.parse(json_str(data["box"]))
            return Score(box) if kind == "score" else Strike(box, _dice_from_json(data))
        if kind == "enter":
            extra = data.get("extra_kniffel", False)
            if not isinstance(extra, bool):
                raise CorruptSaveError(f"extra_kniffel must be true or false, got {extra!r}",
                                       code="save.bad_action")
            return Enter(Box.parse(json_str(data["box"])), json_int(data["points"]), extra,
                         _dice_from_json(data))
        if kind == "correct":
            return Correct(json_int(data["player"]), Box.parse(json_str(data["box"])),
                           json_opt_int(data["points"]))
    except KeyError as e:
        raise CorruptSaveError(f"the {kind!r} action {data!r} lacks {e.args[0]!r}",
                               code="save.bad_action") from None
    raise CorruptSaveError(f"unknown action type {kind!r}", code="save.bad_action")


def _dice_json(dice: Roll | None) -> dict[str, Any]:
    """The ``dice`` field of a pad entry's JSON: the typed roll, none when nothing was typed
    (so a save without typed dice reads as before)."""
    return {} if dice is None else {"dice": {"d6": list(dice.d6), "d10": dice.d10}}


def _dice_from_json(data: dict[str, Any]) -> Roll | None:
    """The typed roll of a pad entry's JSON ``data`` (None without a ``dice`` field)."""
    dice = data.get("dice")
    if dice is None:
        return None
    if not isinstance(dice, dict):
        raise CorruptSaveError(f"an entry's dice must be an object, got {dice!r}",
                               code="save.bad_value")
    return Roll(json_int_list(dice.get("d6")), json_opt_int(dice.get("d10")))


def json_int(value: object) -> int:
    """A save's whole number ``value``; raises CorruptSaveError for anything else (a bool too)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise CorruptSaveError(f"expected a whole number, got {value!r}", code="save.bad_value")
    return value


def json_opt_int(value: object) -> int | None:
    """A save's whole number or null ``value``."""
    return None if value is None else json_int(value)


def json_int_list(value: object) -> list[int]:
    """A save's list of whole numbers ``value``."""
    if not isinstance(value, list):
        raise CorruptSaveError(f"expected a list of numbers, got {value!r}",
                               code="save.bad_value")
    return [json_int(v) for v in value]


def json_str(value: object) -> str:
    """A save's text ``value``."""
    if not isinstance(value, str):
        raise CorruptSaveError(f"expected text, got {value!r}", code="save.bad_value")
    return value

