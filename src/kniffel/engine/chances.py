"""Win chances: who is likely to win from here, if everyone plays well.

For every player of a game in progress (any rule set, 1–8 players, score pad or dice game) this
computes the distribution of the final total if the player plays like the expert from here
(for the classic rule sets: optimally), and from those distributions each player's chance of
ending above all others (a tie shared equally), the expected final total and a range (10 %–90 %).

**One player's final total.** The points on the sheet ``s`` plus the points still to come
``R``. The mean of ``R`` is the expert's value of the turn-start state, exactly,
``E[R] = V(filled boxes, upper sum, extra state)`` (:meth:`ChanceModel.expected_rest`): the
exact table's value for the classic sets (:mod:`kniffel.engine.values`); on Kniffel Extreme
the exact value where the program knows it (the solved optimum of the empty sheet, the exact
endgame) and else the expert's model V̂ plus the fitted ``shift[n]``, what the expert's own
play from ``n`` open boxes scores beyond V̂ on average. The upper bonus makes ``R``
two-humped, so its shape is a mixture of two normal distributions, one for the games that
still reach the bonus (probability ``p``) and one for those that do not (where one or two
boxes are open it is exact instead: :mod:`kniffel.engine.endgame`):

    p · N(μ₁, σ²) + (1 − p) · N(μ₀, σ²),   μ₁ = V + (1 − p)·J,   μ₀ = V − p·J,

``J`` the gap between the two humps (the bonus and the upper points that come with it).
``p`` is a logistic function of the points the bonus still needs per open upper face, of how
many upper and other boxes are open and of the chips left; ``p`` is 0 when the bonus is out of
reach and there is no mixture once it is reached. The spread is a sum over
the open boxes, times a factor for how many are open, ``σ² = s[n] · Σ_open b σ²_b`` (a box
open near the end has fewer turns to fit its roll in). ``J``, ``p``'s weights, ``σ²_b`` and
``s`` are fitted per rule set to the expert's own games (:mod:`kniffel.chances_fit`, the data
file ``kniffel/engine/data/chances.json``; ``s`` so that the 10–90 % range holds 80 % of
what came). The mixture is put on the whole numbers from 0 to the most points the open boxes
can still bring, which cuts it, and a cut moves its mean (late in a game by up to 10 points:
ones, four of a kind and Kniffel open leave 0–85 to come around a mean of 18). So it is then
tilted exponentially, ``P(x) ∝ q(x)·exp(θ·x)`` (:func:`tilted`), θ solved so that the mean is
``V`` again to 1e-10: a tilted normal is the same normal moved by θσ², so this is the mixture
moved until its cut has the right mean; support and shape stay, the chances sum to 1. A
finished sheet is its total.

**Who wins.** With every player's distribution ``P_j`` (independent: nobody's dice depend on
another's), player ``i`` wins with

    P(i wins) = Σ_x P_i(x) · E[1/(1+K) · 1{all others ≤ x}],

``K`` the number of others who end on ``x`` as well. The expectation is the integral over ``t``
in [0, 1] of ``Π_{j≠i} (P(X_j < x) + P(X_j = x)·t)``, a polynomial of degree ≤ 7 in ``t``,
which a 4-point Gauss–Legendre rule integrates exactly. The chances sum to 1 and need no guess
about pairs.

Pure Python (it runs in the browser); no random generator.
"""

from __future__ import annotations

import json
import math
import operator
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import accumulate, chain, islice, repeat
from typing import Any

from kniffel.engine.catalog import package_file
from kniffel.engine.distribution import Distribution
from kniffel.engine.endgame import endgame_rest
from kniffel.engine.errors import ExpertError
from kniffel.engine.game import Enter, Game, Score, Strike
from kniffel.engine.rules import Box, Entry, ExtraKniffel, RuleSet
from kniffel.engine.states import DEAD, max_count, upper_key
from kniffel.engine.values import Values, known_value, on_providers_changed, values_for

#: The format of the data file; a file of another version is refused.
CHANCE_FORMAT = "kniffel-chance-model"
CHANCE_VERSION = 1
#: The data file in the package (``kniffel/engine/data``).
CHANCE_FILE = "chances.json"
#: The range's quantiles.
LOW_Q, HIGH_Q = 0.1, 0.9
#: With at most this many boxes open the distribution is exact (the endgame's recursion), on
#: every rule set: the final points of two open boxes are too lumpy for any smooth shape (with
#: a normal one on Kniffel Extreme, 39 % of the totals fell below the 10–90 % range). A cold
#: call on Kniffel Extreme costs three turns' recursions (about 0.1 s in pure Python, 0.2–0.5 s
#: in the browser's Pyodide), once per player and game.
EXACT_OPEN, EXACT_OPEN_D10 = 2, 2
#: Normal tails beyond this many standard deviations are left out (then renormalised).
_TAILS = 6.0
#: How close the tilted distribution's mean comes to the expected value (points).
_MEAN_TOLERANCE = 1e-10
#: A mean closer than this to an end of the support is given by the two points around it.
_EDGE = 1e-6

# the 4-point Gauss–Legendre rule on [0, 1]: exact for polynomials of degree ≤ 7 (8 players)
_A, _B = math.sqrt(3 / 7 - 2 / 7 * math.sqrt(6 / 5)), math.sqrt(3 / 7 + 2 / 7 * math.sqrt(6 / 5))
_WA, _WB = (18 + math.sqrt(30)) / 36, (18 - math.sqrt(30)) / 36
_ROOT2 = math.sqrt(2.0)
_NODES = ((0.5 - _B / 2, _WB / 2), (0.5 - _A / 2, _WA / 2), (0.5 + _A / 2, _WA / 2),
          (0.5 + _B / 2, _WB / 2))


def win_probabilities(dists: Sequence[Distribution]) -> tuple[float, ...]:
    """Each player's chance of the highest total, a tie shared equally (see the module
    docstring): exact for independent totals, summing to 1."""
    n = len(dists)
    if n == 0:
        return ()
    if n == 1:
        return (1.0,)
    lo = min(d.offset for d in dists)
    hi = max(d.offset + len(d.probs) - 1 for d in dists)
    below = [0.0] * n  # P(X_j < x)
    wins = [0.0] * n
    for x in range(lo, hi + 1):
        at = []
        for d in dists:
            k = x - d.offset
            at.append(d.probs[k] if 0 <= k < len(d.probs) else 0.0)
        if any(at):
            for t, w in _NODES:
                factors = [b + a * t for a, b in zip(at, below, strict=True)]
                # prefix and suffix products: Π over everyone but i
                pre = [1.0] * (n + 1)
                for j in range(n):
                    pre[j + 1] = pre[j] * factors[j]
                suf = 1.0
                for i in range(n - 1, -1, -1):
                    if at[i]:
                        wins[i] += w * at[i] * pre[i] * suf
                    suf *= factors[i]
            for j in range(n):
                below[j] += at[j]
    total = sum(wins)
    return tuple(w / total for w in wins)


# --- the model of one player's points still to come ------------------------------------------


@dataclass(frozen=True)
class SpreadModel:
    """The fitted spread of the points still to come for one rule set (see the module
    docstring): ``box_variance[b]`` = σ²_b, ``gap`` = (J's constant, J per open upper box),
    ``bonus_weights`` = the logistic weights of (1, need per open upper face, open upper boxes,
    open other boxes, chips left), ``scale[n]`` = s[n], the factor of σ² with ``n`` boxes
    open (1 where missing), ``shift[n]`` = what the expert's play from a sheet with ``n``
    boxes open scores on average beyond its model's value V̂ (0 where missing; none where the
    values are an exact table, which is what optimal play scores)."""

    rules_name: str
    box_variance: Mapping[Box, float]
    gap: tuple[float, float]
    bonus_weights: tuple[float, float, float, float, float]
    scale: tuple[float, ...] = ()
    shift: tuple[float, ...] = ()

    def shift_of(self, open_boxes: int) -> float:
        """The expert's points beyond V̂ with ``open_boxes`` open (0 where not fitted)."""
        return self.shift[open_boxes] if open_boxes < len(self.shift) else 0.0

    def variance(self, open_boxes: Sequence[Box]) -> float:
        """σ² of the points still to come with ``open_boxes`` open."""
        n = len(open_boxes)
        factor = self.scale[n] if n < len(self.scale) else 1.0
        return factor * sum(self.box_variance.get(b, 0.0) for b in open_boxes)

    def to_json(self) -> dict[str, Any]:
        return {"box_variance": {b.value: v for b, v in self.box_variance.items()},
                "gap": list(self.gap), "bonus_weights": list(self.bonus_weights),
                "scale": list(self.scale), "shift": list(self.shift)}

    @classmethod
    def from_json(cls, name: str, data: Mapping[str, Any]) -> SpreadModel:
        weights = tuple(float(w) for w in data["bonus_weights"])
        gap = tuple(float(g) for g in data["gap"])
        if len(weights) != 5 or len(gap) != 2:
            raise ValueError("bonus_weights needs 5 numbers, gap 2")
        return cls(name, {Box(k): float(v) for k, v in data["box_variance"].items()},
                   (gap[0], gap[1]), (weights[0], weights[1], weights[2], weights[3],
                                      weights[4]),
                   tuple(float(f) for f in data.get("scale", ())),
                   tuple(float(f) for f in data.get("shift", ())))


def bonus_features(rules: RuleSet, entries: Mapping[Box, Entry], upper: int,
                   chips: int) -> tuple[float, float, float, float, float] | None:
    """The features of the bonus's logistic model, or None when the bonus is settled (already
    reached, out of reach, or no upper box open)."""
    open_upper = [b for b in rules.upper_boxes if b not in entries]
    need = rules.bonus_threshold - upper
    if need <= 0 or not open_upper or rules.bonus_points == 0:
        return None
    mask = 0
    for i, b in enumerate(rules.boxes):
        if b in entries and b.is_upper:
            mask |= 1 << i
    if upper_key(mask & 63, upper, rules.bonus_threshold, max_count(rules)) == DEAD:
        return None
    if need > sum(rules.max_points(b) for b in open_upper):
        return None
    faces = sum(b.face or 0 for b in open_upper)
    others = sum(1 for b in rules.boxes if b not in entries and not b.is_upper)
    return (1.0, need / faces, float(len(open_upper)), float(others), float(chips))


def _logistic(z: float) -> float:
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def mixture(components: Sequence[tuple[float, float]], sd: float, top: int) -> Distribution:
    """The mixture of normals ``(weight, mean)`` with spread ``sd``, on the whole numbers
    0…``top`` (each number the mass of its unit interval; what falls outside is left out and
    the rest renormalised)."""
    if sd <= 1e-9 or top <= 0:
        mean = sum(w * m for w, m in components)
        return Distribution.point(min(top, max(0, round(mean))))
    lo = max(0, math.floor(min(m for _, m in components) - _TAILS * sd))
    hi = min(top, math.ceil(max(m for _, m in components) + _TAILS * sd))
    if lo > hi:  # every hump beyond the range: the nearer end
        return Distribution.point(0 if hi <= 0 else top)
    probs = _masses(components, sd, lo, hi)
    total = sum(probs)
    if total <= 0:
        mean = sum(w * m for w, m in components)
        return Distribution.point(min(top, max(0, round(mean))))
    return Distribution(lo, tuple(map(operator.truediv, probs, repeat(total))))


def _masses(components: Sequence[tuple[float, float]], sd: float, lo: int,
            hi: int) -> list[float]:
    """Every whole number's mass ``lo``…``hi`` of the mixture (not renormalised): per
    component, its weight times Φ's difference over the number's unit interval,
    ``Φ(z) = erfc(-z/√2)/2``."""
    erfc = math.erfc
    scale = -1.0 / (sd * _ROOT2)
    probs: list[float] = []
    for w, m in components:
        # erfc(-z/√2) at every unit interval's end x + ½, x = lo - 1 … hi
        ends = list(map(erfc, map(operator.mul, map(operator.add, range(lo - 1, hi + 1),
                                                     repeat(0.5 - m)), repeat(scale))))
        masses = map(operator.mul, repeat(0.5 * w), map(operator.sub, islice(ends, 1, None),
                                                         ends))
        probs = list(masses) if not probs else list(map(operator.add, probs, masses))
    return probs


#: Beyond this |θ| times the support's width the tilt's weights are computed from logarithms
#: (a power of ``exp(θ)`` would leave the floating-point range).
_POWER_SPAN = 600.0


def tilted(base: Distribution, mean: float, top: int) -> Distribution:
    """``base`` (on the whole numbers 0…``top``) tilted exponentially so that its mean is
    ``mean`` exactly: ``p_x ∝ q_x · exp(θ·x)`` with θ solved by Newton's method, safeguarded
    by bisection. The tilt keeps the support and the shape (a tilted normal is a normal moved
    by θσ², so a cut normal or mixture becomes the one whose cut has the mean asked for). A
    ``mean`` at or beyond the ends of the support (where no tilt reaches it) gives the two
    whole numbers around it (one where it is whole), inside 0…``top``.

    ``exp(θ·x)`` on the whole numbers is a power of ``exp(θ)``: one exponential per step of
    Newton's method, the powers by repeated multiplication (to about 1e-13 relative; by
    logarithms where a far tilt would leave the floating-point range). Pure Python: numpy is
    no faster on vectors of a few hundred numbers whose sums are Python's."""
    mean = min(max(mean, 0.0), float(top))
    probs = base.probs
    first = next((k for k, q in enumerate(probs) if q > 0), None)
    if first is None:
        return _two_point(mean)
    last = next(k for k in range(len(probs) - 1, -1, -1) if probs[k] > 0)
    lo, hi = base.offset + first, base.offset + last
    if not lo + _EDGE < mean < hi - _EDGE:
        return _two_point(mean)
    qs = probs[first:last + 1]
    centre = min(len(qs) - 1, max(0, round(mean) - lo))  # exp(θ·(x - x_centre)) stays moderate
    tilt = _Tilt(qs, lo, mean, centre)
    theta, low, high = 0.0, -math.inf, math.inf
    total, m = tilt.moments(theta)
    for _ in range(200):
        if abs(m) <= _MEAN_TOLERANCE:
            break
        if m > 0:
            high = theta
        else:
            low = theta
        v = tilt.variance(m, total)
        step = theta - m / v if v > 0 else math.nan
        if not low < step < high:  # Newton leaves the bracket: bisect, or widen it
            if math.isfinite(low) and math.isfinite(high):
                step = (low + high) / 2
            elif math.isinf(high):
                step = theta + max(1e-3, abs(theta))
            else:
                step = theta - max(1e-3, abs(theta))
        theta = step
        total, m = tilt.moments(theta)
    return Distribution(lo, tuple(map(operator.truediv, tilt.last, repeat(total))))


class _Tilt:
    """The weights ``q_x · exp(θ·(x - x_c))`` of a tilt and their moments about the mean asked
    for, in pure Python (``last``: the weights of the latest θ)."""

    def __init__(self, qs: Sequence[float], lo: int, mean: float, centre: int) -> None:
        self.qs = list(qs)
        self.dx = list(map(operator.sub, range(lo, lo + len(qs)), repeat(mean)))
        self.dx2 = list(map(operator.mul, self.dx, self.dx))
        self.centre = centre
        self.span = float(max(centre, len(qs) - 1 - centre))
        self.last: list[float] = self.qs

    def weights(self, theta: float) -> list[float]:
        qs = self.qs
        if theta == 0.0:
            return qs
        if abs(theta) * self.span <= _POWER_SPAN:
            powers = accumulate(chain((math.exp(-theta * self.centre),),
                                      repeat(math.exp(theta), len(qs) - 1)), operator.mul)
            return list(map(operator.mul, qs, powers))
        return _far_weights(qs, self.dx, theta)

    def moments(self, theta: float) -> tuple[float, float]:
        """The weights' total and mean (about the mean asked for) at ``theta`` (its weights
        kept in ``last``)."""
        ws = self.last = self.weights(theta)
        total = sum(ws)
        return total, sum(map(operator.mul, ws, self.dx)) / total

    def variance(self, m: float, total: float) -> float:
        """The variance of the latest weights, whose ``total`` and mean ``m`` are given."""
        ws = self.last
        v: float = sum(map(operator.mul, ws, self.dx2)) / total - m * m
        if v < 1e-6 * (m * m):  # the difference cancelled: sum the squares about the mean
            v = sum(w * ((d - m) * (d - m)) for w, d in zip(ws, self.dx, strict=True)) / total
        return v


def _far_weights(qs: Sequence[float], dx: Sequence[float], theta: float) -> list[float]:
    """A far tilt's weights by logarithms, scaled by the largest."""
    exps = [math.log(q) + theta * d if q > 0 else -math.inf
            for q, d in zip(qs, dx, strict=True)]
    top_exp = max(exps)
    return [math.exp(e - top_exp) for e in exps]


def _two_point(mean: float) -> Distribution:
    """The distribution on the two whole numbers around ``mean`` with that mean (one number
    where ``mean`` is whole)."""
    below = math.floor(mean)
    frac = mean - below
    if frac <= _MEAN_TOLERANCE:
        return Distribution.point(below)
    if frac >= 1 - _MEAN_TOLERANCE:
        return Distribution.point(below + 1)
    return Distribution(below, (1.0 - frac, frac))


# --- a player's state at the start of their turn -----------------------------------------------


@dataclass(frozen=True)
class PlayerState:
    """What decides a player's future: the filled boxes, points on the sheet, chips left (at
    the start of the turn), the upper sum."""

    entries: Mapping[Box, Entry]
    total: int
    upper: int
    chips: int

    @classmethod
    def of(cls, game: Game, player: int) -> PlayerState:
        """Player ``player``'s state in ``game`` at the start of their current (or next) turn:
        a chip handed in during the turn in progress still counts as theirs."""
        sheet = game.sheet(player)
        chips = sheet.chips_left
        turn = game.turn
        if turn is not None and turn.chip_used and game.current_player == player:
            chips += 1
        return cls(dict(sheet.entries), sheet.total, sheet.upper_sum, chips)


def most_to_come(rules: RuleSet, entries: Mapping[Box, Entry], upper: int) -> int:
    """The most points the boxes open beside ``entries`` can still bring, the upper sum being
    ``upper``: their highest points, the bonus while it is open, and further Kniffels' extra
    points for every open box where the rules grant them."""
    open_boxes = [b for b in rules.boxes if b not in entries]
    top = sum(rules.max_points(b) for b in open_boxes)
    if upper < rules.bonus_threshold and any(b.is_upper for b in open_boxes):
        top += rules.bonus_points
    if rules.extra_kniffel is not ExtraKniffel.NONE and Box.KNIFFEL in rules.boxes:
        top += rules.extra_kniffel_bonus * len(open_boxes)
    return top


class ChanceModel:
    """Final-total distributions for the players of one rule set (values and spread loaded
    once)."""

    def __init__(self, rules: RuleSet, *, values: Values | None = None,
                 spread: SpreadModel | None = None, build: bool = True,
                 exact_open: int | None = None) -> None:
        self.rules = rules
        #: Up to this many open boxes the distribution is exact (:mod:`kniffel.engine.endgame`).
        self.exact_open = (exact_open if exact_open is not None else
                           EXACT_OPEN_D10 if rules.d10 else EXACT_OPEN)
        self.values = values if values is not None else values_for(rules, build=build)
        self.spread = spread if spread is not None else spread_model(rules)
        self._bit = {box: 1 << b for b, box in enumerate(rules.boxes)}
        self._further = (rules.extra_kniffel is not ExtraKniffel.NONE
                         and Box.KNIFFEL in rules.boxes)
        # the distributions of states seen lately: after an entry only one player's changed
        self._seen: dict[tuple[object, ...], Distribution] = {}

    @property
    def source(self) -> str:
        """Where the expected values come from: "table" or "model"."""
        return self.values.source

    def expected_rest(self, state: PlayerState) -> float:
        """V: the expected points still to come from ``state`` if the player plays like the
        expert. Where the value of the state is known exactly it is that value
        (:func:`kniffel.engine.values.known_value`: every state of a classic rule set's table,
        the empty sheet of Kniffel Extreme; the exact endgame's mean where few boxes are open);
        else the expert's model V̂ plus what the expert's
        own play from a sheet with this many open boxes scores beyond V̂ on average (the
        spread model's ``shift``, fitted to the expert's games)."""
        rules = self.rules
        mask = 0
        for box in state.entries:
            mask |= self._bit[box]
        if rules.chips:
            x = state.chips
        elif self._further and Box.KNIFFEL in state.entries:
            x = 1 if state.entries[Box.KNIFFEL].points > 0 else 0
        else:
            x = 0
        known = known_value(rules, self.values, mask, state.upper, x)
        if known is not None:
            return known
        open_boxes = len(rules.boxes) - len(state.entries)
        if open_boxes <= self.exact_open:
            exact = endgame_rest(rules, state.entries, state.upper, state.chips,
                                 limit=self.exact_open)
            if exact is not None:
                return exact.mean
        return self.values.future(mask, state.upper, x) + self.spread.shift_of(open_boxes)

    def most_to_come(self, state: PlayerState) -> int:
        """The most points the open boxes can still bring (:func:`most_to_come`)."""
        return most_to_come(self.rules, state.entries, state.upper)

    @staticmethod
    def _key(state: PlayerState) -> tuple[object, ...]:
        return (tuple(sorted((b.value, e.points, e.struck) for b, e in state.entries.items())),
                state.upper, state.chips)

    def at_hand(self, state: PlayerState) -> bool:
        """Whether :meth:`rest` of ``state`` comes at once: remembered, or not a cold exact
        endgame of a d10 rule set (two boxes open on Kniffel Extreme: three turns' recursions,
        0.2–0.5 s in the browser, where every other state takes milliseconds)."""
        if not self.rules.d10 or self._key(state) in self._seen:
            return True
        return not 2 <= len(self.rules.boxes) - len(state.entries) <= self.exact_open

    def rest(self, state: PlayerState) -> Distribution:
        """The distribution of the points still to come from ``state`` (remembered for the
        last few hundred states)."""
        key = self._key(state)
        found = self._seen.get(key)
        if found is None:
            if len(self._seen) >= 512:
                self._seen.clear()
            found = self._seen[key] = self._rest(state)
        return found

    def _rest(self, state: PlayerState) -> Distribution:
        rules = self.rules
        open_boxes = [b for b in rules.boxes if b not in state.entries]
        if not open_boxes:
            return Distribution.point(0)
        if len(open_boxes) <= self.exact_open:
            exact = endgame_rest(rules, state.entries, state.upper, state.chips,
                                 limit=self.exact_open)
            if exact is not None:
                return exact
        v = self.expected_rest(state)
        top = self.most_to_come(state)
        sd = math.sqrt(max(self.spread.variance(open_boxes), 0.0))
        features = bonus_features(rules, state.entries, state.upper, state.chips)
        if features is None:
            return tilted(mixture(((1.0, v),), sd, top), v, top)
        z = sum(w * f for w, f in zip(self.spread.bonus_weights, features, strict=True))
        p = _logistic(z)
        ups = sum(1 for b in open_boxes if b.is_upper)
        gap = max(0.0, self.spread.gap[0] + self.spread.gap[1] * ups)
        return tilted(mixture(((p, v + (1 - p) * gap), (1 - p, v - p * gap)), sd, top), v, top)

    def final(self, state: PlayerState) -> Distribution:
        """The distribution of the final total from ``state``."""
        return self.rest(state).shifted(state.total)


@cache
def _spread_models() -> dict[str, SpreadModel]:
    raw = package_file("data", CHANCE_FILE).decode("utf-8")
    data = json.loads(raw)
    if data.get("format") != CHANCE_FORMAT or data.get("version") != CHANCE_VERSION:
        raise ExpertError("the win-chance model file has another format",
                          code="chances.model_format", params={"file": CHANCE_FILE})
    return {name: SpreadModel.from_json(name, m) for name, m in data["models"].items()}


def spread_model(rules: RuleSet) -> SpreadModel:
    """The fitted spread of ``rules``: its own where the data file has one, else that of the
    preset it is closest to (Kniffel Extreme for rules with the d10, Kniffel otherwise)."""
    models = _spread_models()
    found = models.get(rules.name)
    if found is None:
        found = models["extreme" if rules.d10 else "kniffel"]
    return found


@cache
def _model(rules: RuleSet, build: bool) -> ChanceModel:
    return ChanceModel(rules, build=build)


def chance_model(rules: RuleSet, *, build: bool = True) -> ChanceModel:
    """The shared model of ``rules`` (its values and spread loaded once); ``build=False``
    never builds a missing value table (:class:`ExpertError` instead, e.g. for a view)."""
    return _model(rules, build)


on_providers_changed(_model.cache_clear)


def start_expectation(rules: RuleSet, *, model: ChanceModel | None = None) -> float:
    """The expected final total of a player at the start of a game of ``rules``."""
    model = model or chance_model(rules)
    return model.expected_rest(PlayerState({}, 0, 0, rules.chips))


# --- the answer ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Outlook:
    """One player's prospects: the chance to win (a tie shared), the points now, the expected
    final total and the range the final total falls in with 80 % (``low`` = 10 %, ``high`` =
    90 % quantile); ``finished`` when the sheet is full."""

    name: str
    win: float
    total: int
    expected: float
    low: int
    high: int
    finished: bool

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "win": self.win, "expected": self.expected,
                "low": self.low, "high": self.high, "total": self.total,
                "finished": self.finished}


@dataclass(frozen=True)
class Chances:
    """Every player's :class:`Outlook`, in player order."""

    players: tuple[Outlook, ...]
    source: str

    @property
    def leader(self) -> int | None:
        """The player with the best chance (None when two share it)."""
        best = max(o.win for o in self.players)
        top = [i for i, o in enumerate(self.players) if abs(o.win - best) < 1e-9]
        return top[0] if len(top) == 1 else None

    def to_json(self) -> dict[str, Any]:
        return {"players": [o.to_json() for o in self.players], "source": self.source}


def chances_of(names: Sequence[str], dists: Sequence[Distribution],
               finished: Sequence[bool], totals: Sequence[int], source: str) -> Chances:
    """The :class:`Chances` of players with final-total distributions ``dists``."""
    wins = win_probabilities(dists)
    return Chances(tuple(
        Outlook(name, w, total, d.mean, d.quantile(LOW_Q), d.quantile(HIGH_Q), done)
        for name, w, d, done, total in zip(names, wins, dists, finished, totals, strict=True)),
        source)


@dataclass(frozen=True)
class GameSheets:
    """What a game's chances are computed from, taken at one moment (so that a thread may
    compute them while the game goes on): every player's name, total, and turn-start state
    (None where the sheet is full)."""

    rules: RuleSet
    names: tuple[str, ...]
    totals: tuple[int, ...]
    states: tuple[PlayerState | None, ...]

    @classmethod
    def of(cls, game: Game) -> GameSheets:
        """The sheets of ``game`` now (:meth:`PlayerState.of` for the unfinished ones)."""
        sheets = [game.sheet(i) for i in range(len(game.players))]
        return cls(game.rules, tuple(p.name for p in game.players),
                   tuple(s.total for s in sheets),
                   tuple(None if s.is_full else PlayerState.of(game, i)
                         for i, s in enumerate(sheets)))


def chances_key(game: Game) -> tuple[object, ...]:
    """What the chances of ``game`` depend on: its rules and every player's filled boxes (they
    change with entries, corrections and undos, not with throws or a chip handed in)."""
    return (game.rules, tuple(frozenset(game.sheet(i).entries.items())
                              for i in range(len(game.players))))


def chances_from(sheets: GameSheets, model: ChanceModel) -> Chances:
    """The :class:`Chances` of the players of ``sheets`` (a full sheet is its total)."""
    dists = [Distribution.point(total) if state is None else model.final(state)
             for state, total in zip(sheets.states, sheets.totals, strict=True)]
    return chances_of(sheets.names, dists, [state is None for state in sheets.states],
                      sheets.totals, model.source)


def chances_at_hand(sheets: GameSheets, model: ChanceModel) -> bool:
    """Whether :func:`chances_from` of ``sheets`` comes at once (:meth:`ChanceModel.at_hand`
    for every unfinished player)."""
    return all(state is None or model.at_hand(state) for state in sheets.states)


def win_chances(game: Game, *, model: ChanceModel | None = None) -> Chances:
    """Every player's chances in ``game`` from the start of the turn in progress (the dice of
    a turn in progress are not counted: the chances change with entries, not throws). A game
    that is over gives its winners 1 (shared on a tie)."""
    return chances_from(GameSheets.of(game), model or chance_model(game.rules))


@dataclass(frozen=True)
class ChancePoint:
    """The chances after action number ``index`` (an entry; -1: before the first), in round
    ``round``."""

    index: int
    round: int
    chances: Chances


def chances_over_game(game: Game, *, model: ChanceModel | None = None) -> tuple[ChancePoint, ...]:
    """The chances before the first entry and after every entry (score, strike or a score
    pad's entry) of ``game``, replayed from its actions."""
    model = model or chance_model(game.rules)
    replay = game.at_start()
    points = [ChancePoint(-1, replay.round, win_chances(replay, model=model))]
    for index, action in enumerate(game.actions):
        replay.apply(action)
        if isinstance(action, Score | Strike | Enter):
            points.append(ChancePoint(index, replay.round, win_chances(replay, model=model)))
    return tuple(points)


__all__ = ["ChanceModel", "ChancePoint", "Chances", "Distribution", "GameSheets", "Outlook",
           "PlayerState", "SpreadModel", "chance_model", "chances_at_hand", "chances_from",
           "chances_key",
           "chances_over_game", "mixture", "spread_model", "start_expectation", "tilted",
           "win_chances", "win_probabilities"]
