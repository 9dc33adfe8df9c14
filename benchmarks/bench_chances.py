"""Benchmark of the win chances' calibration: how well :func:`kniffel.engine.chances.win_chances`
predicts who wins, measured on played games, against a Monte Carlo reference.

Run: ``.venv/bin/python benchmarks/bench_chances.py`` (``--help`` for options; ``--quick`` for a
one-minute run; the defaults took 6.6 minutes on two cores).

For each rule set (Kniffel Extreme with the ``expert``, ``kniffel`` with the ``expert``, which is
exact there: it plays from the value table) games of 2, 3 and 4 players (in turn) are played to
the end by that player in every seat. Each game is cut at turn starts (the position before an
entry: at the start or right after an entry), two (``--cuts-per-stage``) drawn at random from
each third of the game's entries (early, middle, late); at every cut the game's actions up to
there are replayed and the chances computed. Every player's predicted chance is then compared
with their share of the win (1 for the winner, 1/k each for k who tie, else 0):

* the **expected calibration error** (ECE): the predictions in 10 equal-width bins, the mean of
  |mean prediction − mean outcome| over the bins, weighted by how many predictions each holds,
  and beside it the ECE a perfectly calibrated forecaster would show on the same predictions
  (the noise floor: winners drawn from the predictions themselves, the mean of 20 draws);
* the **Brier score** (the mean squared difference over every player's prediction) and the
  **Brier skill score** against the reference 1/n (n the number of players): 1 − Brier/Brier(1/n);
  1 is a perfect forecast, 0 no better than 1/n;
* the **log loss** of the winner's forecast: per cut −Σ outcome·ln(prediction), predictions
  below 10⁻⁶ counted as 10⁻⁶, against ln n of the reference; and the **long shots**: how many
  predictions under 0.1 % still won, against how many a calibrated forecast expects (their sum);

each over all cuts and per stage; the Brier skill with a 95 % interval from resampling whole
games (bootstrap; the calibration error is compared with its noise floor instead, as a
resample's duplicates make it larger).

**The Monte Carlo reference.** For the first few games (one cut each, the stages in turn) the
position at the cut is played on many times with new dice by the same players; each player's
share of the wins over those continuations is the reference's prediction. Its Brier skill on the
same positions (raw, and corrected for the noise of a finite number of continuations: the sample
variance of each player's mean share subtracted) is what the model's Brier skill is compared
with: the ratio model/MC.

**The expected total and its range, per number of open boxes** (issue 32). Solitaire games of
the expert (``--totals-extreme-games``, ``--totals-kniffel-games``; ``--totals-only`` runs just
these), and at every turn start the shown expected final total and range (10 %–90 %) against a
reference and against the total reached, per number of open boxes: the **bias** (shown − the
reference: mean, its standard error, the largest), shown − reached, and how often the total
reached fell in the range, below it and above it (a calibrated range: 80 %, 10 %, 10 %). The
reference is total + V of the exact table on ``kniffel`` (the expert is the optimal player
there), and on Kniffel Extreme the expert's own expected total from the position, estimated
from the same game without the dice's noise (:func:`play_totals`).

Everything is seeded (``--seed``): the same options give the same numbers. ``--json PATH`` writes
the results, ``--plot PATH`` the reliability diagram (by default
``docs/plots/chances-reliability.png``; a ``--quick`` run draws none unless asked).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import multiprocessing
import random
import statistics
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from rich.progress import Progress

from kniffel.engine.chances import ChanceModel, PlayerState, chance_model, win_chances
from kniffel.engine.game import Action, Enter, Game, Score, Strike
from kniffel.engine.rules import Box, ExtraKniffel, RuleSet, preset
from kniffel.engine.strategy import Strategy, get_strategy
from kniffel.simulate import game_seed, play_out

ROOT = Path(__file__).resolve().parent.parent
#: Where the reliability diagram goes by default.
PLOT = ROOT / "docs" / "plots" / "chances-reliability.png"
#: The rule sets measured, their player and their names in the report.
RULE_SETS = {"extreme": "Kniffel Extreme", "kniffel": "Kniffel"}
PLAYER = "expert"
#: Games, Monte Carlo positions and continuations per position: the full run and ``--quick``.
SIZES = {"extreme": (300, 60, 30), "kniffel": (2000, 200, 40)}
QUICK = {"extreme": (24, 6, 10), "kniffel": (150, 15, 20)}
#: Solitaire games of the per-open-box tables of the expected total: the full run and --quick.
TOTALS = {"extreme": 600, "kniffel": 2000}
TOTALS_QUICK = {"extreme": 30, "kniffel": 200}
STAGES = ("early", "middle", "late")
#: The calibration error's bins, the smallest prediction the log loss counts, the goals.
BINS = 10
EPS = 1e-6
GOAL_ECE = 0.03
GOAL_RATIO = 0.90


# --- the metrics -----------------------------------------------------------------------------
# Each takes the cuts' predictions and outcomes: one sequence per cut, one number per player.

Rows = Sequence[Sequence[float]]


def win_shares(totals: Sequence[int]) -> tuple[float, ...]:
    """Each player's share of the win for final ``totals``: 1/k for each of the k best."""
    best = max(totals)
    k = sum(1 for t in totals if t == best)
    return tuple(1.0 / k if t == best else 0.0 for t in totals)


@dataclass(frozen=True)
class Bin:
    """One bin of the reliability diagram: predictions in [``lo``, ``hi``), how many, their
    mean and the mean outcome."""

    lo: float
    hi: float
    count: int
    predicted: float
    observed: float


def reliability(preds: Rows, outcomes: Rows, bins: int = BINS) -> list[Bin]:
    """Every player's prediction in ``bins`` equal-width bins of [0, 1] (1 in the last), with
    the mean prediction and mean outcome of each; empty bins left out."""
    sums = [[0, 0.0, 0.0] for _ in range(bins)]
    for ps, ys in zip(preds, outcomes, strict=True):
        for p, y in zip(ps, ys, strict=True):
            b = min(int(p * bins), bins - 1)
            sums[b][0] += 1
            sums[b][1] += p
            sums[b][2] += y
    return [Bin(b / bins, (b + 1) / bins, int(n), s / n, o / n)
            for b, (n, s, o) in enumerate(sums) if n]


def calibration_error(preds: Rows, outcomes: Rows, bins: int = BINS) -> float:
    """The expected calibration error: Σ over the bins of (share of predictions) ×
    |mean prediction − mean outcome|."""
    table = reliability(preds, outcomes, bins)
    n = sum(b.count for b in table)
    return sum(b.count * abs(b.predicted - b.observed) for b in table) / n


def calibration_floor(preds: Rows, draws: int = 20, seed: int = 0, bins: int = BINS) -> float:
    """The mean ECE of a perfectly calibrated forecaster with these predictions: each cut's
    winner drawn from its own predictions, ``draws`` times."""
    rng = random.Random(seed)
    errors = []
    for _ in range(draws):
        outcomes = []
        for ps in preds:
            winner = rng.choices(range(len(ps)), weights=ps)[0]
            outcomes.append([1.0 if i == winner else 0.0 for i in range(len(ps))])
        errors.append(calibration_error(preds, outcomes, bins))
    return statistics.fmean(errors)


def uniform(outcomes: Rows) -> list[list[float]]:
    """The reference forecast: 1/n for each of a cut's n players."""
    return [[1.0 / len(ys)] * len(ys) for ys in outcomes]


def brier_score(preds: Rows, outcomes: Rows, noise: Rows | None = None) -> float:
    """The mean of (prediction − outcome)² over every player of every cut; with ``noise``
    (each prediction's variance as an estimate) that variance is subtracted from its term,
    which estimates the score of the predictions' expectation."""
    total, n = 0.0, 0
    for c, (ps, ys) in enumerate(zip(preds, outcomes, strict=True)):
        for i, (p, y) in enumerate(zip(ps, ys, strict=True)):
            total += (p - y) ** 2 - (noise[c][i] if noise is not None else 0.0)
            n += 1
    return total / n


def brier_skill(preds: Rows, outcomes: Rows, noise: Rows | None = None) -> float:
    """The Brier skill score against 1/n: 1 − Brier(preds)/Brier(1/n)."""
    return 1.0 - brier_score(preds, outcomes, noise) / brier_score(uniform(outcomes), outcomes)


def log_loss(preds: Rows, outcomes: Rows, eps: float = EPS) -> float:
    """The mean over the cuts of −Σ outcome · ln(prediction), a prediction below ``eps``
    counted as ``eps`` (natural logarithm; 1/n gives the mean ln n)."""
    total = 0.0
    for ps, ys in zip(preds, outcomes, strict=True):
        total -= sum(y * math.log(max(p, eps)) for p, y in zip(ps, ys, strict=True) if y)
    return total / len(preds)


def long_shots(preds: Rows, outcomes: Rows, below: float = 0.001) -> tuple[int, float]:
    """How many predictions under ``below`` still won (or shared a win), and how many a
    calibrated forecast would expect: the sum of those predictions."""
    won, expected = 0, 0.0
    for ps, ys in zip(preds, outcomes, strict=True):
        for p, y in zip(ps, ys, strict=True):
            if p < below:
                won += y > 0
                expected += p
    return won, expected


def bootstrap(stat: Callable[[Sequence[int]], float], groups: Sequence[Sequence[int]],
              times: int, seed: int) -> tuple[float, float]:
    """The 95 % interval (2.5 % and 97.5 % quantiles) of ``stat`` over ``times`` resamples of
    whole ``groups`` of cut indices (drawn with replacement); resamples where ``stat`` is not a
    number are left out (NaN when all are)."""
    rng = random.Random(seed)
    values = []
    for _ in range(times):
        picked = [i for _ in groups for i in groups[rng.randrange(len(groups))]]
        value = stat(picked)
        if not math.isnan(value):
            values.append(value)
    if not values:
        return math.nan, math.nan
    values.sort()
    n = len(values)
    return values[int(0.025 * (n - 1))], values[math.ceil(0.975 * (n - 1))]


def summary(preds: Rows, outcomes: Rows, groups: Sequence[Sequence[int]], times: int,
            seed: int) -> dict[str, Any]:
    """Every metric of the cuts, with 95 % intervals over the ``groups`` (the games)."""

    def pick(rows: Rows, idx: Sequence[int]) -> list[Sequence[float]]:
        return [rows[i] for i in idx]

    def bss(idx: Sequence[int]) -> float:
        return brier_skill(pick(preds, idx), pick(outcomes, idx))

    out: dict[str, Any] = {
        "cuts": len(preds), "predictions": sum(len(p) for p in preds),
        "ece": calibration_error(preds, outcomes), "ece_floor": calibration_floor(preds),
        "brier": brier_score(preds, outcomes),
        "brier_reference": brier_score(uniform(outcomes), outcomes),
        "brier_skill": brier_skill(preds, outcomes),
        "log_loss": log_loss(preds, outcomes),
        "log_loss_reference": log_loss(uniform(outcomes), outcomes),
        "long_shots": dict(zip(("won", "expected"), long_shots(preds, outcomes), strict=True)),
    }
    if times:
        out["brier_skill_95"] = bootstrap(bss, groups, times, seed + 1)
    return out


def reference_summary(model: Rows, mc: Rows, noise: Rows, outcomes: Rows, times: int,
                      seed: int) -> dict[str, Any]:
    """The model against the Monte Carlo reference on the same positions: both Brier skills
    (the reference's raw and noise-corrected), both ECEs and the ratios of the skills."""
    groups = [[i] for i in range(len(model))]

    def pick(rows: Rows, idx: Sequence[int]) -> list[Sequence[float]]:
        return [rows[i] for i in idx]

    def ratio(idx: Sequence[int], corrected: bool) -> float:
        ys = pick(outcomes, idx)
        ref = brier_skill(pick(mc, idx), ys, pick(noise, idx) if corrected else None)
        return brier_skill(pick(model, idx), ys) / ref if ref > 0 else math.nan

    out: dict[str, Any] = {
        "positions": len(model),
        "brier_skill_model": brier_skill(model, outcomes),
        "brier_skill_mc": brier_skill(mc, outcomes),
        "brier_skill_mc_corrected": brier_skill(mc, outcomes, noise),
        "ece_model": calibration_error(model, outcomes),
        "ece_mc": calibration_error(mc, outcomes),
        "mean_abs_difference": statistics.fmean(
            abs(p - q) for ps, qs in zip(model, mc, strict=True)
            for p, q in zip(ps, qs, strict=True)),
        "ratio": ratio(range(len(model)), False),
        "ratio_corrected": ratio(range(len(model)), True),
    }
    if times:
        out["ratio_95"] = bootstrap(lambda idx: ratio(idx, False), groups, times, seed)
        out["ratio_corrected_95"] = bootstrap(lambda idx: ratio(idx, True), groups, times,
                                              seed + 1)
    return out


# --- playing and cutting -------------------------------------------------------------------


@dataclass(frozen=True)
class Cut:
    """One cut of a played game: the game's number, its stage (0–2) and which of the stage's
    cuts it is, the entries made before it and in the whole game, the actions up to it, the
    model's chances and the outcome."""

    game: int
    stage: int
    draw: int
    entries: int
    of: int
    prefix: tuple[Action, ...] = field(repr=False)
    start_player: int
    win: tuple[float, ...]
    outcome: tuple[float, ...]
    seconds: float


@cache
def _players(name: str) -> tuple[RuleSet, Strategy, ChanceModel]:
    """The rules, the player and the chance model of one worker process, built once."""
    rules = preset(name)
    return rules, get_strategy(PLAYER, rules), chance_model(rules)


def _names(n: int) -> list[str]:
    return [f"Spieler {k + 1}" for k in range(n)]


def cut_points(entries: int, per_stage: int, rng: random.Random) -> dict[int, tuple[int, int]]:
    """``per_stage`` different turn starts (the numbers of entries made before them) drawn from
    each third of a game of ``entries`` entries: each with its stage and its number there."""
    out = {}
    for s in range(3):
        stage = [e for e in range(entries) if e * 3 // entries == s]
        for k, e in enumerate(rng.sample(stage, min(per_stage, len(stage)))):
            out[e] = (s, k)
    return out


def play_and_cut(task: tuple[str, int, int, int, int]) -> tuple[list[Cut], float]:
    """Games ``start``…``stop`` − 1 of a rule set, played and each cut ``per_stage`` times in
    each third (see the module docstring); the cuts and the seconds spent playing."""
    name, seed, start, stop, per_stage = task
    rules, strategy, model = _players(name)
    cuts: list[Cut] = []
    playing = 0.0
    for index in range(start, stop):
        players = 2 + index % 3
        clock = time.perf_counter()
        game = Game(rules, _names(players), seed=game_seed(seed, index))
        play_out(game, strategy, random.Random(f"bench-chances:{name}:{seed}:{index}"))
        playing += time.perf_counter() - clock
        outcome = win_shares([game.sheet(i).total for i in range(players)])
        total = players * len(rules.boxes)
        wanted = cut_points(total, per_stage,
                            random.Random(f"bench-chances:cut:{name}:{seed}:{index}"))
        replay = game.at_start()
        entries = 0
        for position in range(len(game.actions) + 1):
            if entries in wanted and (position == 0 or isinstance(
                    game.actions[position - 1], Score | Strike | Enter)):
                clock = time.perf_counter()
                chances = win_chances(replay, model=model)
                stage, draw = wanted[entries]
                cuts.append(Cut(index, stage, draw, entries, total,
                                tuple(game.actions[:position]), game.start_player,
                                tuple(o.win for o in chances.players), outcome,
                                time.perf_counter() - clock))
            if position == len(game.actions) or entries > max(wanted):
                break
            action = game.actions[position]
            replay.apply(action)
            if isinstance(action, Score | Strike | Enter):
                entries += 1
    return cuts, playing


def continuation_seed(name: str, seed: int, game: int, k: int) -> int:
    """The dice seed of continuation ``k`` of game ``game``'s reference position."""
    digest = hashlib.sha256(f"bench-chances:mc:{name}:{seed}:{game}:{k}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


def continue_games(task: tuple[str, int, Cut, int]) -> tuple[int, list[float], list[float]]:
    """The Monte Carlo reference at ``cut``: ``count`` continuations with new dice by the same
    player; the game's number, each player's mean share of the wins and its variance (the
    sample variance over the continuations / their number)."""
    name, seed, cut, count = task
    rules, strategy, _ = _players(name)
    players = len(cut.win)
    shares: list[tuple[float, ...]] = []
    for k in range(count):
        game = Game(rules, _names(players), seed=continuation_seed(name, seed, cut.game, k),
                    start_player=cut.start_player, actions=cut.prefix)
        play_out(game, strategy, random.Random(f"bench-chances:mc:{name}:{seed}:{cut.game}:{k}"))
        shares.append(win_shares([game.sheet(i).total for i in range(players)]))
    means = [statistics.fmean(s[i] for s in shares) for i in range(players)]
    variances = [statistics.variance([s[i] for s in shares]) / count if count > 1 else 0.0
                 for i in range(players)]
    return cut.game, means, variances


# --- the expected total and its range, per number of open boxes ------------------------------


@dataclass(frozen=True)
class TotalRow:
    """One turn start of a solitaire game: how many boxes were open, the points on the sheet,
    the shown expected final total and range (10 %–90 %), the final total reached, and the
    reference: the exact expected total (total + V of the value table) where the rule set has
    one, else the expert's own expected total estimated from this game (see
    :func:`play_totals`)."""

    game: int
    open: int
    total: int
    expected: float
    low: int
    high: int
    final: int
    reference: float


def _raw_value(model: ChanceModel, state: PlayerState) -> float:
    """V of ``state`` as the values (table or the expert's model) give it, untouched."""
    rules = model.rules
    mask = sum(1 << b for b, box in enumerate(rules.boxes) if box in state.entries)
    kniffel = state.entries.get(Box.KNIFFEL)
    if rules.chips:
        x = state.chips
    elif (rules.extra_kniffel is not ExtraKniffel.NONE and Box.KNIFFEL in rules.boxes
          and kniffel is not None):
        x = 1 if kniffel.points > 0 else 0
    else:
        x = 0
    return model.values.future(mask, state.upper, x)


def _turn_value(expert: Any, pos: Any) -> float:
    """What the expert's exact computation of the turn starting at ``pos`` expects it to bring
    (points + V̂ after it); through the first throw's advice where the expert has no
    ``turn_start_value`` (an older kniffel, for a before/after comparison)."""
    found = getattr(expert, "turn_start_value", None)
    if found is not None:
        return float(found(pos))
    return float(expert.advise(pos).options[0].expected - pos.score_so_far)


def play_totals(task: tuple[str, int, int, int]) -> tuple[list[TotalRow], float]:
    """Solitaire games ``start``…``stop`` − 1 of the expert, and at each turn start the shown
    expected total and range against what came.

    The reference is exact where the values are a table (the expert is the optimal player
    there): total + V. Where they are the expert's model (Kniffel Extreme) it is the expert's
    own expected total from the position, estimated without the dice's noise: V̂ of the
    position plus, for every turn from there to the end, what the turn's exact computation
    expects (the value of its first throw, points + V̂ after it) less V̂ at the turn's start.
    The expert plays each turn to maximise exactly that, so each term's mean is what its turn
    really adds over V̂'s guess, and the sum's mean is the expert's expected final total minus
    V̂: an unbiased estimate whose spread is a few points where the final total's is 60."""
    from kniffel.chances_fit import turn_starts
    from kniffel.engine.advice import Position
    from kniffel.engine.expert import expert_for

    name, seed, start, stop = task
    rules, strategy, model = _players(name)
    exact = model.values.source == "table"
    expert = expert_for(rules)
    rows: list[TotalRow] = []
    clock = time.perf_counter()
    for index in range(start, stop):
        game = Game(rules, ["totals"], seed=game_seed(seed, index))
        play_out(game, strategy, random.Random(f"bench-chances:totals:{name}:{seed}:{index}"))
        starts = turn_starts(game)
        tail = 0.0
        found: list[TotalRow] = []
        for state, final in reversed(starts):
            v_hat = _raw_value(model, state)
            if exact:
                reference = state.total + v_hat
            else:
                pos = Position(rules, state.entries, state.chips)
                turn = _turn_value(expert, pos)
                tail += turn - v_hat
                reference = state.total + v_hat + tail
            dist = model.final(state)
            found.append(TotalRow(index, len(rules.boxes) - len(state.entries), state.total,
                                  dist.mean, dist.quantile(0.1), dist.quantile(0.9), final,
                                  reference))
        rows.extend(reversed(found))
    return rows, time.perf_counter() - clock


def total_table(rows: Sequence[TotalRow]) -> list[dict[str, Any]]:
    """Per number of open boxes: positions, the bias of the shown expected total against the
    reference (mean, its standard error, the largest), the mean of shown − reached (and its
    standard error), and how often the final total fell in the range, below it, above it."""
    by_open: dict[int, list[TotalRow]] = {}
    for row in rows:
        by_open.setdefault(row.open, []).append(row)
    out = []
    for n in sorted(by_open):
        group = by_open[n]
        bias = [r.expected - r.reference for r in group]
        error = [r.expected - r.final for r in group]
        k = len(group)

        def se(xs: list[float], k: int = k) -> float:
            return statistics.stdev(xs) / math.sqrt(k) if k > 1 else math.nan

        out.append({
            "open": n, "positions": k,
            "bias": statistics.fmean(bias), "bias_se": se(bias),
            "bias_max": max(bias, key=abs),
            "error": statistics.fmean(error), "error_se": se(error),
            "coverage": sum(r.low <= r.final <= r.high for r in group) / k,
            "below": sum(r.final < r.low for r in group) / k,
            "above": sum(r.final > r.high for r in group) / k,
        })
    return out


def run_totals(sizes: dict[str, int], seed: int, jobs: int) -> dict[str, dict[str, Any]]:
    """The per-open-box tables of every rule set (``sizes``: solitaire games of each)."""
    out: dict[str, dict[str, Any]] = {}
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(jobs, mp_context=context) as pool, Progress() as progress:
        for name, games in sizes.items():
            if not games:
                continue
            bar = progress.add_task(f"{RULE_SETS[name]}: totals", total=games)
            chunk = 10 if name == "extreme" else 50
            futures = [pool.submit(play_totals, (name, seed, a, min(games, a + chunk)))
                       for a in range(0, games, chunk)]
            rows: list[TotalRow] = []
            seconds = 0.0
            for done in as_completed(futures):
                got, spent = done.result()
                rows.extend(got)
                seconds += spent
                progress.advance(bar, len({r.game for r in got}))
            exact = chance_model(preset(name)).values.source == "table"
            out[name] = {"games": games, "seconds": seconds,
                         "reference": "exact table" if exact else "expert's play (estimated)",
                         "table": total_table(rows)}
    return out


def print_totals(name: str, result: dict[str, Any]) -> None:
    """The per-open-box table of one rule set as text."""
    print(f"\n{RULE_SETS[name]} · expected final total and range per number of open boxes · "
          f"{result['games']} solitaire games of the expert · reference: {result['reference']}")
    print(f"{'open':>4} {'positions':>9} {'bias':>8} {'± se':>6} {'largest':>8} "
          f"{'shown−reached':>14} {'± se':>6} {'in range':>9} {'below':>6} {'above':>6}")
    for row in result["table"]:
        print(f"{row['open']:4d} {row['positions']:9d} {row['bias']:+8.3f} "
              f"{row['bias_se']:6.3f} {row['bias_max']:+8.3f} {row['error']:+14.2f} "
              f"{row['error_se']:6.2f} {100 * row['coverage']:8.1f}% "
              f"{100 * row['below']:5.1f}% {100 * row['above']:5.1f}%")


# --- the run -----------------------------------------------------------------------------------


@dataclass
class Measured:
    """What one rule set's run produced."""

    cuts: list[Cut]
    playing: float
    references: dict[int, tuple[list[float], list[float]]]
    positions: int
    continuations: int

    def is_reference(self, cut: Cut) -> bool:
        """Whether the Monte Carlo reference is played from ``cut``: the first cut of stage
        ``game`` mod 3 of each of the first games."""
        return cut.game < self.positions and cut.stage == cut.game % 3 and cut.draw == 0


def run(sizes: dict[str, tuple[int, int, int]], seed: int, jobs: int,
        per_stage: int) -> dict[str, Measured]:
    """Play, cut and continue every rule set's games in a pool of ``jobs`` processes."""
    measured = {name: Measured([], 0.0, {}, positions, count)
                for name, (_, positions, count) in sizes.items()}
    # spawned workers: no fork of a process whose progress bar runs a thread
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(jobs, mp_context=context) as pool, Progress() as progress:
        bars = {}
        games: dict[Future[tuple[list[Cut], float]], tuple[str, int]] = {}
        for name, (n, positions, _) in sizes.items():
            bars[name] = progress.add_task(f"{RULE_SETS[name]}: games", total=n)
            if positions:
                bars[f"{name}:mc"] = progress.add_task(
                    f"{RULE_SETS[name]}: Monte Carlo", total=min(positions, n))
            chunk = 4 if name == "extreme" else 25
            for start in range(0, n, chunk):
                task = (name, seed, start, min(n, start + chunk), per_stage)
                games[pool.submit(play_and_cut, task)] = (name, task[3] - task[2])
        references: dict[Future[tuple[int, list[float], list[float]]], str] = {}
        for done in as_completed(list(games)):
            name, count = games[done]
            cuts, playing = done.result()
            m = measured[name]
            m.cuts.extend(cuts)
            m.playing += playing
            for cut in cuts:
                if m.is_reference(cut):
                    task_mc = (name, seed, cut, m.continuations)
                    references[pool.submit(continue_games, task_mc)] = name
            progress.advance(bars[name], count)
        for finished in as_completed(list(references)):
            name = references[finished]
            game, means, variances = finished.result()
            measured[name].references[game] = (means, variances)
            progress.advance(bars[f"{name}:mc"], 1)
    for m in measured.values():
        m.cuts.sort(key=lambda c: (c.game, c.stage, c.draw))
    return measured


def model_fit() -> dict[str, Any]:
    """Which fit of the model was measured: the data file's SHA-256 and its ``fitted`` notes."""
    raw = resources.files("kniffel.engine").joinpath("data", "chances.json").read_bytes()
    data = json.loads(raw)
    return {"sha256": hashlib.sha256(raw).hexdigest(),
            "fitted": {name: m.get("fitted") for name, m in data["models"].items()}}


def evaluate(name: str, m: Measured, times: int, seed: int) -> dict[str, Any]:
    """The report of one rule set: all cuts, per stage, the reference and the diagram's bins."""
    games: dict[int, list[int]] = {}
    for i, cut in enumerate(m.cuts):
        games.setdefault(cut.game, []).append(i)
    preds = [c.win for c in m.cuts]
    outcomes = [c.outcome for c in m.cuts]
    result: dict[str, Any] = {
        "rules": name, "player": PLAYER, "games": len(games),
        "values": chance_model(preset(name)).source,
        "players": "2–4 (in turn)", "all": summary(preds, outcomes, list(games.values()),
                                                    times, seed),
        "stages": {},
        "bins": [vars(b) for b in reliability(preds, outcomes)],
        "seconds_per_game": m.playing / max(1, len(games)),
        "ms_per_chances": 1000 * statistics.fmean(c.seconds for c in m.cuts),
    }
    for s, stage in enumerate(STAGES):
        idx = [i for i, c in enumerate(m.cuts) if c.stage == s]
        by_game: dict[int, list[int]] = {}
        for k, i in enumerate(idx):
            by_game.setdefault(m.cuts[i].game, []).append(k)
        groups = list(by_game.values())
        result["stages"][stage] = summary([preds[i] for i in idx], [outcomes[i] for i in idx],
                                          groups, times, seed + 10 * (s + 1))
    refs = [c for c in m.cuts if m.is_reference(c)]
    if refs:
        result["reference"] = dict(
            reference_summary([c.win for c in refs], [m.references[c.game][0] for c in refs],
                              [m.references[c.game][1] for c in refs],
                              [c.outcome for c in refs], times, seed + 100),
            continuations=m.continuations)
    return result


# --- the report ----------------------------------------------------------------------------


def _interval(row: dict[str, Any], key: str, fmt: str) -> str:
    got = row.get(f"{key}_95")
    return f" [{got[0]:{fmt}}, {got[1]:{fmt}}]" if got else ""


def print_report(result: dict[str, Any]) -> None:
    """The report of one rule set as text."""
    name = RULE_SETS[result["rules"]]
    head = result["all"]
    print(f"\n{name} · {result['player']} (values: {result['values']}) · {result['games']} "
          f"games of {result['players']} players · {head['cuts']} cuts · "
          f"{head['predictions']} predictions · "
          f"{result['seconds_per_game']:.2f} s per game · "
          f"{result['ms_per_chances']:.1f} ms per win_chances")
    print(f"{'stage':8} {'cuts':>5} {'ECE':>7} {'floor':>6} {'Brier':>7} {'(1/n)':>7} "
          f"{'Brier skill':>24} {'log loss':>9} {'(ln n)':>7} {'< 0.1 % won':>12}")
    rows = [("all", head), *result["stages"].items()]
    for stage, row in rows:
        print(f"{stage:8} {row['cuts']:5d} {row['ece']:7.4f} "
              f"{row['ece_floor']:6.4f} {row['brier']:7.4f} {row['brier_reference']:7.4f} "
              f"{row['brier_skill']:7.4f}{_interval(row, 'brier_skill', '.4f'):17} "
              f"{row['log_loss']:9.4f} {row['log_loss_reference']:7.4f} "
              f"{row['long_shots']['won']:4d} ({row['long_shots']['expected']:5.2f})")
    ref = result.get("reference")
    if ref:
        print(f"Monte Carlo reference: {ref['positions']} positions × {ref['continuations']} "
              f"continuations; mean |model − MC| {ref['mean_abs_difference']:.4f}")
        print(f"  Brier skill: model {ref['brier_skill_model']:.4f}, MC {ref['brier_skill_mc']:.4f}"
              f" (noise-corrected {ref['brier_skill_mc_corrected']:.4f}); ECE there: model "
              f"{ref['ece_model']:.4f}, MC {ref['ece_mc']:.4f}")
        print(f"  ratio model/MC {100 * ref['ratio']:.1f} %{_pct(ref, 'ratio')}, against the "
              f"corrected MC {100 * ref['ratio_corrected']:.1f} %{_pct(ref, 'ratio_corrected')}"
              f" (goal ≥ {100 * GOAL_RATIO:.0f} %)")
    verdict = "met" if head["ece"] <= GOAL_ECE else "missed"
    print(f"  calibration error {head['ece']:.4f} (a calibrated forecast's floor here "
          f"{head['ece_floor']:.4f}): goal ≤ {GOAL_ECE} {verdict}")


def _pct(row: dict[str, Any], key: str) -> str:
    got = row.get(f"{key}_95")
    return f" [{100 * got[0]:.1f}, {100 * got[1]:.1f}]" if got else ""


def plot(results: Sequence[dict[str, Any]], path: Path) -> None:
    """The reliability diagram of every rule set: observed against predicted win chance per
    bin (with a binomial 95 % bar), and how many predictions each bin holds."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, len(results), figsize=(5 * len(results), 6.4), dpi=100,
                             gridspec_kw={"height_ratios": [3, 1]}, squeeze=False)
    for col, result in enumerate(results):
        top, bottom = axes[0][col], axes[1][col]
        bins = result["bins"]
        xs = [b["predicted"] for b in bins]
        ys = [b["observed"] for b in bins]
        errs = [1.96 * math.sqrt(max(b["observed"] * (1 - b["observed"]), 1e-9) / b["count"])
                for b in bins]
        top.plot([0, 1], [0, 1], color="#999999", linestyle=":", label="perfect calibration")
        top.errorbar(xs, ys, yerr=errs, color="#0072B2", marker="o", capsize=3,
                     label="observed (95 %)")
        head = result["all"]
        top.set_title(f"{RULE_SETS[result['rules']]} · {result['games']} games · "
                      f"{head['predictions']} predictions\nECE {head['ece']:.3f} · Brier skill "
                      f"{head['brier_skill']:.3f}", fontsize=10)
        top.set_xlim(0, 1)
        top.set_ylim(-0.02, 1.02)
        top.set_ylabel("share of wins")
        top.legend(loc="upper left", fontsize=9)
        bottom.bar([(b["lo"] + b["hi"]) / 2 for b in bins], [b["count"] for b in bins],
                   width=0.09, color="#0072B2")
        bottom.set_xlim(0, 1)
        bottom.set_xlabel("predicted win chance (bins of 0.1)")
        bottom.set_ylabel("predictions")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", nargs="+", choices=list(RULE_SETS), default=list(RULE_SETS))
    for name, (games, positions, count) in SIZES.items():
        parser.add_argument(f"--{name}-games", type=int, help=f"games (default {games})")
        parser.add_argument(f"--{name}-positions", type=int,
                            help=f"Monte Carlo positions (default {positions})")
        parser.add_argument(f"--{name}-continuations", type=int,
                            help=f"continuations per position (default {count})")
    parser.add_argument("--quick", action="store_true", help="small sizes: about a minute")
    parser.add_argument("--cuts-per-stage", type=int, default=2,
                        help="cuts of each game in each third (default 2)")
    parser.add_argument("--seed", type=int, default=20261222,
                        help="(not the fit's seed: other games than those it was fitted to)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--bootstrap", type=int, default=200, help="resamples for the intervals")
    parser.add_argument("--json", type=Path, help="write the results here")
    parser.add_argument("--plot", type=Path, help=f"the reliability diagram (default {PLOT}; "
                                                  "none for --quick)")
    parser.add_argument("--no-plot", action="store_true")
    for name, games in TOTALS.items():
        parser.add_argument(f"--totals-{name}-games", type=int,
                            help=f"solitaire games for the per-open-box table (default {games}; "
                                 "0: none)")
    parser.add_argument("--totals-only", action="store_true",
                        help="only the per-open-box tables of the expected total and range")
    args = parser.parse_args(argv)
    base = QUICK if args.quick else SIZES
    sizes = {}
    for name in args.rules:
        games, positions, count = base[name]
        games = getattr(args, f"{name}_games") or games
        positions = getattr(args, f"{name}_positions")
        positions = base[name][1] if positions is None else positions
        count = getattr(args, f"{name}_continuations") or count
        sizes[name] = (games, min(positions, games), count)
    totals_sizes = {}
    for name in args.rules:
        games = getattr(args, f"totals_{name}_games")
        totals_sizes[name] = (TOTALS_QUICK if args.quick else TOTALS)[name] if games is None \
            else games
    start = time.perf_counter()
    totals = run_totals(totals_sizes, args.seed, args.jobs)
    measured = {} if args.totals_only else run(sizes, args.seed, args.jobs,
                                               args.cuts_per_stage)
    results = [evaluate(name, measured[name], args.bootstrap, args.seed) for name in measured]
    seconds = time.perf_counter() - start
    for name, result_totals in totals.items():
        print_totals(name, result_totals)
    for result in results:
        print_report(result)
    print(f"\n{seconds:.0f} s in all ({args.jobs} processes)")
    if args.json:
        report = {"benchmark": "bench_chances", "seed": args.seed, "jobs": args.jobs,
                  "cuts_per_stage": args.cuts_per_stage,
                  "quick": args.quick, "seconds": seconds, "model": model_fit(),
                  "sizes": {n: dict(zip(("games", "positions", "continuations"), s,
                                        strict=True)) for n, s in sizes.items()},
                  "totals_games": totals_sizes,
                  "results": {r["rules"]: r for r in results},
                  "totals": totals}
        args.json.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", "utf-8")
        print(f"wrote {args.json}")
    target = args.plot or (None if args.quick else PLOT)
    if target and not args.no_plot and results:
        plot(results, target)
        print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
