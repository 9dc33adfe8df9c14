"""Fitting the win chances' spread model (:mod:`kniffel.engine.chances`) to the expert's games.

For each rule set, solitaire games of the ``expert`` player (exactly optimal where the rule set
has its value table) are played and replayed; every turn start gives one sample: the state, the
expected points still to come ``V`` and the points that came, ``R``. Then, in this order:

0. where ``V`` is the expert's model (Kniffel Extreme), the shift ``shift[n]``: the mean over
   the samples with ``n`` boxes open of what the expert's turns from there brought beyond V̂,
   as each turn's exact computation expects it (:func:`turns_ahead`: the dice's noise left
   out, so a few hundred games pin it to a tenth of a point); ``V`` is V̂ + shift from here on;

1. the bonus's logistic model: ``P(B = 1) = σ(w · f)``, ``B`` whether the bonus is reached
   later, ``f`` = :func:`~kniffel.engine.chances.bonus_features`, fitted by Newton's method
   (a small ridge keeps it finite) on the samples whose bonus is still open;
2. the gap between the two humps, ``R − V = (J₀ + J₁ · open upper boxes) · (B − p)``, by least
   squares on the same samples;
3. the per-box spread ``σ²_b``: the variance of the points box ``b`` ends with over the games
   (a regression of the squared errors on the open boxes cannot tell the boxes apart: early in
   a game they are all open);
4. the factor per number of open boxes ``n``: ``s[n]`` = the mean of ``(R − μ_B)²`` over the
   mean of ``Σ_open b σ²_b`` among the samples with ``n`` open (1 with fewer than 30 samples):
   it carries what the boxes' sum misses (how they compete for the rolls, fewer turns left);
5. then ``s[n]`` once more, by what the player reads: bisected until the range (10 %–90 %) of
   the model's distribution holds the points that came in 80 % of the samples with ``n`` open
   (:func:`coverage_scale`; the variance's factors are kept in the file's notes).

numpy only here (a desktop tool); the fitted numbers go into ``kniffel/engine/data/chances.json``
(``python scripts/fit_chances.py``).
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from typing import Any

from kniffel.engine.advice import Position
from kniffel.engine.chances import (
    CHANCE_FORMAT,
    CHANCE_VERSION,
    EXACT_OPEN,
    EXACT_OPEN_D10,
    HIGH_Q,
    LOW_Q,
    ChanceModel,
    PlayerState,
    SpreadModel,
    bonus_features,
)
from kniffel.engine.expert import expert_for
from kniffel.engine.game import Enter, Game, Score, Strike
from kniffel.engine.rules import Box, RuleSet, preset
from kniffel.engine.strategy import get_strategy
from kniffel.engine.values import values_for
from kniffel.simulate import game_seed, play_out

#: The most samples per number of open boxes the range's coverage is fitted on.
COVERAGE_SAMPLES = 200

#: The rule sets fitted, and how many games each by default.
FIT_GAMES = {"extreme": 1200, "kniffel": 3000, "kniffel-championship": 3000,
             "yahtzee": 3000, "kniffel-anleitung": 3000}


@dataclass(frozen=True)
class Sample:
    """One turn start of a played game: its state, V, the points that came, and whether the
    bonus was reached later."""

    state: PlayerState
    expected: float
    came: int
    bonus_later: bool
    #: The points of every box at the game's end.
    final_points: Mapping[Box, int]
    #: What the expert's turns from here on brought beyond V̂, as their exact computation
    #: expects it (see :func:`turns_ahead`; 0 where V is an exact table).
    ahead: float = 0.0


def turn_starts(game: Game) -> list[tuple[PlayerState, int]]:
    """Every turn start of player 0 in the finished ``game``: its state and the final total."""
    replay = game.at_start()
    states = [PlayerState.of(replay, 0)]
    for action in game.actions:
        replay.apply(action)
        if isinstance(action, Score | Strike | Enter) and not replay.is_over():
            states.append(PlayerState.of(replay, 0))
    final = replay.sheet(0).total
    return [(s, final) for s in states]


def turns_ahead(rules: RuleSet, states: Sequence[PlayerState]) -> list[float]:
    """For every turn start of one game of the expert (``states``, in order, to the last
    turn), Σ over the turns from there to the end of (T − V̂): T what the expert's exact
    computation of the turn expects it to bring (points + V̂ of the sheet it leaves), V̂ the
    model's value of the turn's start. The expert plays each turn to maximise exactly that, so
    the mean of the sum is the expert's expected final total from the state minus its V̂
    (the V̂ in between cancel), without the dice's noise: the shift's samples. All 0 where V
    is an exact table (there T = V)."""
    expert = expert_for(rules)
    if expert.source != "model":
        return [0.0] * len(states)
    bit = {box: 1 << b for b, box in enumerate(rules.boxes)}
    out = []
    tail = 0.0
    for state in reversed(states):
        mask = sum(bit[b] for b in state.entries)
        turn = expert.turn_start_value(Position(rules, state.entries, state.chips))
        tail += turn - expert.values.future(mask, state.upper, state.chips)
        out.append(tail)
    return out[::-1]


_Row = tuple[PlayerState, int, bool, Mapping[Box, int], float]


def _games(args: tuple[str, int, int, int]) -> list[_Row]:
    name, seed, start, stop = args
    rules = preset(name)
    strategy = get_strategy("expert", rules)
    out: list[_Row] = []
    for index in range(start, stop):
        game = Game(rules, ["fit"], seed=game_seed(seed, index))
        play_out(game, strategy, random.Random(f"chances:{seed}:{index}"))
        sheet = game.sheet(0)
        points = {b: e.points for b, e in sheet.entries.items()}
        starts = turn_starts(game)
        ahead = turns_ahead(rules, [s for s, _ in starts])
        out.extend((s, final, sheet.bonus > 0, points, a)
                   for (s, final), a in zip(starts, ahead, strict=True))
    return out


def play_samples(rules: RuleSet, games: int, seed: int, *, jobs: int = 2,
                 progress: Callable[[int], None] | None = None) -> list[Sample]:
    """Samples of ``games`` expert games of the preset ``rules`` (``jobs`` processes)."""
    model = ChanceModel(rules, spread=SpreadModel(rules.name, {}, (0.0, 0.0),
                                                  (0.0, 0.0, 0.0, 0.0, 0.0)))
    chunk = 25
    tasks = [(rules.name, seed, a, min(games, a + chunk)) for a in range(0, games, chunk)]
    samples: list[Sample] = []
    with ProcessPoolExecutor(jobs) as pool:
        for rows in pool.map(_games, tasks):
            for state, final, bonus_end, points, ahead in rows:
                bonus_now = state.upper >= rules.bonus_threshold
                samples.append(Sample(state, model.expected_rest(state), final - state.total,
                                      bonus_end and not bonus_now, points, ahead))
            if progress:
                progress(chunk)
    return samples


def _logistic_fit(x: Any, y: Any, ridge: float = 1e-3) -> Any:
    import numpy as np

    w = np.zeros(x.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-(x @ w)))
        grad = x.T @ (p - y) + ridge * w
        hess = (x.T * (p * (1 - p))) @ x + ridge * np.eye(x.shape[1])
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.max(np.abs(step)) < 1e-10:
            break
    return w


def fit_spread(rules: RuleSet, samples: Sequence[Sample], *,
               coverage: bool = True) -> SpreadModel:
    """The spread model of ``rules`` fitted to ``samples`` (see the module docstring;
    ``coverage``: the factors by the range's coverage, step 5)."""
    import numpy as np

    n_boxes = len(rules.boxes)
    shift = fit_shift(rules, samples)
    samples = [replace(s, expected=s.expected + shift[n_boxes - len(s.state.entries)])
               for s in samples]
    feats, ys, rest, ups, idx = [], [], [], [], []
    for i, s in enumerate(samples):
        f = bonus_features(rules, s.state.entries, s.state.upper, s.state.chips)
        if f is not None:
            feats.append(f)
            ys.append(1.0 if s.bonus_later else 0.0)
            rest.append(s.came - s.expected)
            ups.append(sum(1 for b in rules.upper_boxes if b not in s.state.entries))
            idx.append(i)
    mu = np.array([s.expected for s in samples], dtype=float)
    if feats:
        x = np.array(feats)
        y = np.array(ys)
        w = _logistic_fit(x, y)
        p = 1 / (1 + np.exp(-(x @ w)))
        d = y - p
        u = np.array(ups, dtype=float)
        g, *_ = np.linalg.lstsq(np.stack([d, d * u], axis=1), np.array(rest), rcond=None)
        gap = np.maximum(0.0, g[0] + g[1] * u)
        mu[np.array(idx)] += np.where(y > 0, (1 - p) * gap, -p * gap)
        weights = tuple(round(float(v), 6) for v in w)
        gap_pair = (float(g[0]), float(g[1]))
    else:
        weights, gap_pair = (0.0, 0.0, 0.0, 0.0, 0.0), (0.0, 0.0)
    came = np.array([s.came for s in samples], dtype=float)
    boxes = list(rules.boxes)
    a = np.array([[0.0 if b in s.state.entries else 1.0 for b in boxes] for s in samples])
    err2 = (came - mu) ** 2
    ends = {id(s.final_points): s.final_points for s in samples}.values()
    var = np.array([np.var([p[b] for p in ends]) for b in boxes])
    summed = a @ var
    n_open = a.sum(axis=1).astype(int)
    scale = []
    for n in range(len(boxes) + 1):
        at = n_open == n
        ok = at.sum() >= 30 and summed[at].mean() > 0
        scale.append(round(float(err2[at].mean() / summed[at].mean()), 6) if ok else 1.0)
    spread = SpreadModel(rules.name, {b: round(float(v), 6) for b, v in zip(boxes, var,
                                                                            strict=True)},
                         (round(float(gap_pair[0]), 6), round(float(gap_pair[1]), 6)),
                         (weights[0], weights[1], weights[2], weights[3], weights[4]),
                         tuple(scale), tuple(shift) if any(shift) else ())
    return replace(spread, scale=coverage_scale(rules, spread, samples)) if coverage else spread


def fit_shift(rules: RuleSet, samples: Sequence[Sample]) -> list[float]:
    """Per number of open boxes, the mean of the samples' ``ahead``: what the expert's play
    scores beyond its model's V̂ (0 for the classic rule sets and where fewer than 30 samples
    have that many open)."""
    sums: dict[int, list[float]] = {}
    for s in samples:
        sums.setdefault(len(rules.boxes) - len(s.state.entries), []).append(s.ahead)
    return [round(math.fsum(sums[n]) / len(sums[n]), 6) if len(sums.get(n, ())) >= 30 else 0.0
            for n in range(len(rules.boxes) + 1)]


def _coverage(model: ChanceModel, rows: Sequence[Sample]) -> float:
    """The share of ``rows`` whose points to come fall in the model's 10–90 % range."""
    inside = 0
    for s in rows:
        d = model.rest(s.state)
        inside += d.quantile(LOW_Q) <= s.came <= d.quantile(HIGH_Q)
    return inside / len(rows)


def coverage_scale(rules: RuleSet, spread: SpreadModel, samples: Sequence[Sample], *,
                   most: int = COVERAGE_SAMPLES, steps: int = 8) -> tuple[float, ...]:
    """The factors ``s[n]`` again, now so that the range (10 %–90 %) holds the points that
    came in 80 % of the samples with ``n`` open (up to ``most`` of them, evenly drawn), not
    only the variance: a bisection of ``s[n]`` between a fifth and 5 times the variance's
    factor (``steps`` halvings of its logarithm). A spread of lumpy points (a Kniffel is 0 or
    50) with the right variance can cover 70 %; the range is what the player reads. Where
    the distribution is exact (the endgame) or fewer than 30 samples are there, the variance's
    factor stays."""
    values = values_for(rules)
    scale = list(spread.scale)
    exact = EXACT_OPEN_D10 if rules.d10 else EXACT_OPEN
    by_open: dict[int, list[Sample]] = {}
    for s in samples:
        by_open.setdefault(len(rules.boxes) - len(s.state.entries), []).append(s)
    for n, group in sorted(by_open.items()):
        if n <= exact or len(group) < 30 or n >= len(scale):
            continue
        rows = group[::max(1, len(group) // most)][:most]
        lo, hi = math.log(scale[n] / 5), math.log(scale[n] * 5)
        for _ in range(steps):
            mid = (lo + hi) / 2
            trial = list(scale)
            trial[n] = math.exp(mid)
            model = ChanceModel(rules, values=values, spread=replace(spread, scale=tuple(trial)))
            if _coverage(model, rows) < 0.8:
                lo = mid
            else:
                hi = mid
        scale[n] = round(math.exp((lo + hi) / 2), 6)
    return tuple(scale)


def model_file(models: Sequence[SpreadModel], sources: dict[str, Any]) -> str:
    """The data file's text for ``models``."""
    data = {"format": CHANCE_FORMAT, "version": CHANCE_VERSION,
            "models": {m.rules_name: dict(m.to_json(), fitted=sources[m.rules_name])
                       for m in models}}
    return json.dumps(data, indent=1, sort_keys=True) + "\n"


__all__ = ["FIT_GAMES", "Sample", "coverage_scale", "fit_shift", "fit_spread", "model_file",
           "play_samples", "turn_starts", "turns_ahead"]
