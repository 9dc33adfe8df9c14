"""Dice values: a roll of five d6 (and the d10 of Kniffel Extreme), and a choice of dice to keep.

A :class:`Roll` stores the five d6 sorted and the d10 apart (``None`` when the rule set has
none), so two rolls that show the same faces are equal. A :class:`Keep` names the dice that
stay on the table before a re-roll by their faces, not by their positions. Rolling takes a caller's
:class:`random.Random`; nothing here owns a random generator.
"""

from __future__ import annotations

import itertools
import math
import random
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from kniffel.engine.errors import InvalidDiceError, InvalidKeepError, dice_param

D6_COUNT = 5
D6_FACES = range(1, 7)
D10_FACES = range(0, 10)


def _check_face(value: object, faces: range, what: str) -> int:
    die = "d10" if faces == D10_FACES else "d6"
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidDiceError(f"{what} must be a whole number, got {value!r}",
                               code="dice.not_a_number", params={"value": repr(value)})
    if value not in faces:
        raise InvalidDiceError(
            f"{what} shows {value}, but a {die} shows {faces.start}–{faces.stop - 1}",
            code="dice.face_out_of_range",
            params={"die": die, "value": value, "low": faces.start, "high": faces.stop - 1})
    return value


def _faces(d6: object, error: type[InvalidDiceError] | type[InvalidKeepError],
           code: str) -> tuple[int, ...]:
    """The d6 faces of a roll or keep as a tuple: from any iterable but text (whose characters
    are not faces); anything else raises ``error``."""
    if isinstance(d6, tuple):
        return d6
    if isinstance(d6, (str, bytes)) or not hasattr(d6, "__iter__"):
        raise error(f"the d6 faces must be a list or tuple of numbers, got {d6!r}", code=code)
    return tuple(d6)


@dataclass(frozen=True, slots=True)
class Roll:
    """Five d6 (stored sorted) and, for Kniffel Extreme, one d10 showing 0–9.

    >>> Roll((6, 5, 5, 6, 5), d10=6)
    Roll((5, 5, 5, 6, 6), d10=6)
    """

    d6: tuple[int, ...]
    d10: int | None = None

    def __init__(self, d6: Iterable[int], d10: int | None = None) -> None:
        faces = _faces(d6, InvalidDiceError, "dice.invalid")
        if len(faces) != D6_COUNT:
            raise InvalidDiceError(
                f"a roll has {D6_COUNT} d6, got {len(faces)}: {list(faces)}",
                code="dice.wrong_count", params={"want": D6_COUNT, "got": len(faces)})
        checked = sorted(
            _check_face(v, D6_FACES, f"d6 #{i + 1}") for i, v in enumerate(faces)
        )
        if d10 is not None:
            _check_face(d10, D10_FACES, "the d10")
        object.__setattr__(self, "d6", tuple(checked))
        object.__setattr__(self, "d10", d10)

    def __repr__(self) -> str:
        if self.d10 is None:
            return f"Roll({self.d6!r})"
        return f"Roll({self.d6!r}, d10={self.d10!r})"

    def __str__(self) -> str:
        text = " ".join(map(str, self.d6))
        return text if self.d10 is None else f"{text} | {self.d10}"

    @property
    def values(self) -> tuple[int, ...]:
        """All faces: the five d6 in sorted order, then the d10 if there is one."""
        return self.d6 if self.d10 is None else (*self.d6, self.d10)

    @property
    def total(self) -> int:
        """The sum of all dice, the d10 included."""
        return sum(self.values)

    @classmethod
    def parse(cls, text: str | Sequence[str | int], *, d10: bool) -> Roll:
        """Read a roll from text ("5 5 5 6 6 6", "5,5,5,6,6,6") or a sequence of faces.

        With ``d10`` the sixth and last value is the d10. Raises :class:`InvalidDiceError` naming
        the problem.
        """
        if isinstance(text, str):
            parts: list[str | int] = [p for p in re.split(r"[\s,;]+", text.strip()) if p]
        else:
            parts = list(text)
        values: list[int] = []
        for i, part in enumerate(parts):
            if isinstance(part, int) and not isinstance(part, bool):
                values.append(part)
                continue
            try:
                values.append(int(str(part).strip()))
            except ValueError:
                raise InvalidDiceError(f"die #{i + 1} is not a number: {part!r}",
                                       code="dice.not_a_number",
                                       params={"value": str(part)}) from None
        want = D6_COUNT + (1 if d10 else 0)
        if len(values) != want:
            described = "five d6, then the d10" if d10 else "five d6"
            raise InvalidDiceError(f"expected {want} dice ({described}), got {len(values)}: "
                                   f"{' '.join(map(str, values)) or '(none)'}",
                                   code="dice.wrong_count_d10" if d10 else "dice.wrong_count",
                                   params={"want": want, "got": len(values)})
        if d10:
            return cls(values[:D6_COUNT], _check_face(values[-1], D10_FACES, "the d10"))
        return cls(values)

    def counts(self) -> tuple[int, ...]:
        """How many dice show each face 0..9: a tuple of length 10."""
        return _counts(self)


@cache
def _counts(roll: Roll) -> tuple[int, ...]:
    c = [0] * 10
    for v in roll.values:
        c[v] += 1
    return tuple(c)


@dataclass(frozen=True, slots=True)
class Keep:
    """The dice left on the table before a re-roll: some d6 faces (sorted) and maybe the d10.

    ``Keep()`` keeps nothing; ``Keep((5, 5), d10=5)`` keeps two fives and a d10 showing 5.
    """

    d6: tuple[int, ...] = ()
    d10: int | None = None

    def __init__(self, d6: Iterable[int] = (), d10: int | None = None) -> None:
        faces = _faces(d6, InvalidKeepError, "keep.invalid")
        if len(faces) > D6_COUNT:
            raise InvalidKeepError(f"at most {D6_COUNT} d6 can be kept, got {len(faces)}",
                                   code="keep.too_many", params={"most": D6_COUNT,
                                                                 "got": len(faces)})
        try:
            checked = sorted(_check_face(v, D6_FACES, "a kept d6") for v in faces)
            if d10 is not None:
                _check_face(d10, D10_FACES, "the kept d10")
        except InvalidDiceError as e:
            raise e.as_type(InvalidKeepError) from None
        object.__setattr__(self, "d6", tuple(checked))
        object.__setattr__(self, "d10", d10)

    def __repr__(self) -> str:
        args = [repr(self.d6)] if self.d6 else []
        if self.d10 is not None:
            args.append(f"d10={self.d10!r}")
        return f"Keep({', '.join(args)})"

    def __str__(self) -> str:
        parts = [" ".join(map(str, self.d6))] if self.d6 else []
        if self.d10 is not None:
            parts.append(f"d10={self.d10}")
        return ", ".join(parts) if parts else "nothing"

    @property
    def size(self) -> int:
        """How many dice are kept."""
        return len(self.d6) + (self.d10 is not None)

    def is_part_of(self, roll: Roll) -> bool:
        """Whether these dice all lie in ``roll`` (as a multiset, the d10 apart)."""
        if self.d10 is not None and self.d10 != roll.d10:
            return False
        return not Counter(self.d6) - Counter(roll.d6)

    def check_part_of(self, roll: Roll) -> None:
        """Raise :class:`InvalidKeepError` unless these dice lie in ``roll``."""
        if not self.is_part_of(roll):
            raise InvalidKeepError(f"cannot keep {self} from the roll {roll}",
                                   code="keep.not_in_roll",
                                   params={"keep": dice_param(self), "roll": dice_param(roll)})

    @classmethod
    def everything(cls, roll: Roll) -> Keep:
        """All dice of ``roll``."""
        return cls(roll.d6, roll.d10)

    @classmethod
    def from_positions(cls, roll: Roll, positions: Iterable[int]) -> Keep:
        """The dice at ``positions`` (0-based) of ``roll.values``: 0–4 the sorted d6, 5 the d10."""
        values = roll.values
        chosen = sorted(set(positions))
        for p in chosen:
            if not 0 <= p < len(values):
                raise InvalidKeepError(
                    f"there is no die #{p + 1} in the roll {roll} ({len(values)} dice)",
                    code="keep.no_such_die", params={"position": p + 1, "count": len(values)})
        d6 = [values[p] for p in chosen if p < D6_COUNT]
        d10 = roll.d10 if D6_COUNT in chosen else None
        return cls(d6, d10)


def keep_positions(roll: Roll, keep: Keep) -> tuple[int, ...]:
    """The positions in ``roll.values`` of the dice ``keep`` holds (the first of equal dice;
    the inverse of :meth:`Keep.from_positions`)."""
    wanted = list(keep.d6)
    out = []
    for i, v in enumerate(roll.d6):
        if v in wanted:
            wanted.remove(v)
            out.append(i)
    if keep.d10 is not None and roll.d10 is not None:
        out.append(len(roll.d6))
    return tuple(out)


def sub_keeps(roll: Roll) -> tuple[Keep, ...]:
    """Every distinct choice of dice to keep from ``roll``, from keeping nothing to keeping all."""
    return _sub_keeps(roll)


@cache
def _sub_keeps(roll: Roll) -> tuple[Keep, ...]:
    d10_choices: list[int | None] = [None] if roll.d10 is None else [None, roll.d10]
    return tuple(Keep(c, d) for d in d10_choices for c in d6_sub_multisets(roll.d6))


@cache
def d6_sub_multisets(d6: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every distinct sub-multiset of the sorted d6 faces ``d6``, by size and then by faces
    (the d6 parts of :func:`sub_keeps`, in its order)."""
    return tuple(sorted(
        {tuple(c) for n in range(len(d6) + 1) for c in itertools.combinations(d6, n)},
        key=lambda c: (len(c), c),
    ))


def roll_dice(keep: Keep, rng: random.Random, *, d10: bool) -> Roll:
    """Keep ``keep`` and roll the other dice with ``rng``: d6 faces 1–6, the d10 0–9."""
    fresh = [rng.randint(1, 6) for _ in range(D6_COUNT - len(keep.d6))]
    ten: int | None = None
    if d10:
        ten = keep.d10 if keep.d10 is not None else rng.randrange(10)
    elif keep.d10 is not None:
        raise InvalidKeepError(f"this rule set has no d10, so {keep} cannot be kept",
                               code="keep.no_d10")
    return Roll((*keep.d6, *fresh), ten)


@cache
def _d6_multisets(n: int) -> tuple[tuple[tuple[int, ...], float], ...]:
    """Every sorted multiset of ``n`` d6 faces with its probability when ``n`` d6 are rolled."""
    total = 6**n
    out = []
    for combo in itertools.combinations_with_replacement(D6_FACES, n):
        ways = math.factorial(n)
        for c in Counter(combo).values():
            ways //= math.factorial(c)
        out.append((combo, ways / total))
    return tuple(out)


def outcomes(keep: Keep, *, d10: bool) -> tuple[tuple[Roll, float], ...]:
    """Every roll that can follow ``keep`` with its probability (they sum to 1)."""
    return _outcomes(keep, d10)


@cache
def _outcomes(keep: Keep, d10: bool) -> tuple[tuple[Roll, float], ...]:
    if not d10 and keep.d10 is not None:
        raise InvalidKeepError(f"this rule set has no d10, so {keep} cannot be kept",
                               code="keep.no_d10")
    return tuple((Roll(d6, ten), p) for d6, ten, p in rethrow_faces(keep.d6, keep.d10, d10))


def d10_after(kept_d10: int | None, d10: bool) -> tuple[tuple[int | None, float], ...]:
    """What the d10 shows after a throw, with probabilities: nothing without a d10, the kept
    face, or each face 0–9 at 1/10."""
    if not d10:
        return ((None, 1.0),)
    if kept_d10 is not None:
        return ((kept_d10, 1.0),)
    return tuple((t, 0.1) for t in D10_FACES)


def rethrow_faces(kept: tuple[int, ...], kept_d10: int | None,
                  d10: bool) -> tuple[tuple[tuple[int, ...], int | None, float], ...]:
    """:func:`outcomes` of ``Keep(kept, kept_d10)`` as (sorted d6, d10, probability), without
    building rolls: for callers that index every outcome of every keep. The d6 outcomes come
    first, each with every face of :func:`d10_after`."""
    tens = d10_after(kept_d10, d10)
    result: dict[tuple[tuple[int, ...], int | None], float] = {}
    for faces, p in _d6_multisets(D6_COUNT - len(kept)):
        d6 = tuple(sorted((*kept, *faces)))
        for ten, q in tens:
            result[d6, ten] = result.get((d6, ten), 0.0) + p * q
    return tuple((d6, ten, p) for (d6, ten), p in result.items())


def all_rolls(*, d10: bool) -> tuple[Roll, ...]:
    """Every distinct roll: 252 of five d6, or 2,520 with the d10."""
    return tuple(roll for roll, _ in outcomes(Keep(), d10=d10))


def seeded_rng(seed: int, step: int) -> random.Random:
    """A generator for the dice thrown at action number ``step`` of a game with ``seed``.

    Deriving it from both numbers makes every throw of a game reproducible from its seed and the
    actions before it, also after a reload or an undo.
    """
    return random.Random(f"kniffel:{seed}:{step}")
