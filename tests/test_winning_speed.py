"""The to-win player's faster arithmetic gives the numbers of the plain formulas: the tilt by
powers of exp(θ) against a tilt by logarithms with correctly rounded sums (the way it was
computed before), the mixture's masses against Φ number by number; a mover certain to win or
lose computes no points to come; the memories forget the longest unused; the head-to-head's
interval and its file after a stop (``benchmarks/bench_play_to_win.py``)."""

from __future__ import annotations

import json
import math
import random
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kniffel.engine.chances import PlayerState, _masses, chance_model, mixture, tilted
from kniffel.engine.distribution import Distribution
from kniffel.engine.expert_model import load_model
from kniffel.engine.game import Game, Mode, Player
from kniffel.engine.rules import preset
from kniffel.engine.winning import Column, ModelWorth, _recall, _remember

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import bench_play_to_win as bench


def tilt_by_logarithms(base: Distribution, mean: float) -> Distribution:
    """The tilt ``p_x ∝ q_x · exp(θ·x)`` with the mean ``mean``, each weight an exponential of
    ``log q_x + θ·(x - mean)``, every sum correctly rounded, θ by bisection to 1e-13."""
    xs = [base.offset + k for k, q in enumerate(base.probs) if q > 0]
    logs = [math.log(q) for q in base.probs if q > 0]

    def weights(theta: float) -> list[float]:
        exps = [lq + theta * (x - mean) for lq, x in zip(logs, xs, strict=True)]
        top = max(exps)
        ws = [math.exp(e - top) for e in exps]
        total = math.fsum(ws)
        return [w / total for w in ws]

    def gap(theta: float) -> float:
        return math.fsum(w * (x - mean) for w, x in zip(weights(theta), xs, strict=True))

    low, high = -1.0, 1.0
    while gap(low) > 0:
        low *= 2
    while gap(high) < 0:
        high *= 2
    for _ in range(200):
        mid = (low + high) / 2
        if gap(mid) > 0:
            high = mid
        else:
            low = mid
        if high - low < 1e-13:
            break
    ws = weights((low + high) / 2)
    probs = [0.0] * (xs[-1] - xs[0] + 1)
    for w, x in zip(ws, xs, strict=True):
        probs[x - xs[0]] = w
    return Distribution(xs[0], tuple(probs))


@pytest.mark.parametrize("seed", range(6))
def test_the_tilt_by_powers_gives_the_tilt_by_logarithms(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(20):
        top = rng.randint(20, 700)
        sd = rng.uniform(2.0, 60.0)
        v = rng.uniform(0.2 * top, 0.8 * top)
        p, gap = rng.random(), rng.uniform(0.0, 60.0)
        base = mixture(((p, v + (1 - p) * gap), (1 - p, v - p * gap)), sd, top)
        want = rng.uniform(base.mean - sd, base.mean + sd)
        lo, hi = base.offset, base.offset + len(base.probs) - 1
        if not lo + 1 < want < hi - 1:
            continue
        got = tilted(base, want, top)
        ref = tilt_by_logarithms(base, want)
        assert got.offset == ref.offset
        assert len(got.probs) == len(ref.probs)
        assert max(abs(a - b) for a, b in zip(got.probs, ref.probs, strict=True)) < 1e-10
        assert got.mean == pytest.approx(want, abs=1e-9)


@settings(max_examples=60, deadline=None)
@given(mean=st.floats(0.0, 400.0), sd=st.floats(0.5, 60.0), weight=st.floats(0.01, 1.0))
def test_the_mixtures_masses_are_the_normals_mass_of_each_unit_interval(
        mean: float, sd: float, weight: float) -> None:
    lo, hi = max(0, math.floor(mean - 6 * sd)), math.ceil(mean + 6 * sd)

    def phi(z: float) -> float:
        return 0.5 * math.erfc(-z / math.sqrt(2.0))
    want = [weight * (phi((x + 0.5 - mean) / sd) - phi((x - 0.5 - mean) / sd))
            for x in range(lo, hi + 1)]
    got = _masses(((weight, mean),), sd, lo, hi)
    assert len(got) == len(want)
    assert max(abs(a - b) for a, b in zip(got, want, strict=True)) < 1e-15


def test_a_mover_certain_to_lose_or_to_win_computes_no_points_to_come() -> None:
    rules = preset("kniffel")
    game = Game(rules, [Player("A"), Player("B")], mode=Mode.DICE, seed=3)
    column = Column.of(game, 0)
    model = chance_model(rules)
    far_ahead = [Distribution.point(5000)]  # beyond anything the mover can reach
    rests: dict[tuple[object, ...], Distribution] = {}
    lost = ModelWorth(model, column, far_ahead, rests)
    assert lost.certain == 0.0
    worth = lost.of(0)
    assert all(worth(box, 0, 0) == 0.0 for box in rules.boxes)
    assert rests == {}
    won = ModelWorth(model, Column(column.entries, 10, 0, 0), [Distribution.point(0)], rests)
    assert won.certain == 1.0
    assert all(won.of(0)(box, 3, 0) == 1.0 for box in rules.boxes)
    assert rests == {}
    open_game = ModelWorth(model, column, [model.final(PlayerState.of(game, 1))], rests)
    assert open_game.certain is None


def test_the_memory_of_points_to_come_forgets_the_longest_unused() -> None:
    memory: dict[tuple[object, ...], Distribution] = {}
    for k in range(3):
        _remember(memory, (k,), Distribution.point(k), 3)
    assert _recall(memory, (0,)) == Distribution.point(0)  # used again: kept
    _remember(memory, (3,), Distribution.point(3), 3)
    assert set(memory) == {(0,), (2,), (3,)}  # (1,) was the longest unused
    assert _recall(memory, (1,)) is None


def test_the_extreme_experts_values_are_remembered_as_computed() -> None:
    values = load_model(preset("extreme"))
    values._seen.clear()
    for mask, upper, x in ((0, 0, 3), (0b101, 4, 2), (1 << 20, 0, 1)):
        first = values.future(mask, upper, x)
        assert (mask, upper, x) in values._seen
        assert values.future(mask, upper, x) == first == values._future(mask, upper, x)


def test_the_head_to_heads_interval_is_wilsons() -> None:
    low, high = bench.wilson(0.5, 100)
    assert (round(low, 4), round(high, 4)) == (0.4038, 0.5962)
    low, high = bench.wilson(0.0, 10)
    assert low == pytest.approx(0.0, abs=1e-12)
    assert 0.0 < high < 0.35
    assert bench.wilson(0.3, 0) == (0.0, 1.0)


def test_a_head_to_head_file_cut_off_by_a_stop_keeps_its_finished_games(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "games.jsonl"
    row = {"index": 0, "seed": 1, "totals": [200, 190], "share": 1.0, "decided": [1],
           "differ": [0], "two": [0], "model": []}
    out.write_text(json.dumps(row) + "\n" + '{"index": 1, "se')
    rows = bench.read_rows(out)
    assert rows == [row]
    assert "cut off" in capsys.readouterr().err
    summary = bench.summary(rows, 2)
    assert summary["games"] == 1
    assert summary["rounds"][1] == {"decisions": 1, "differ": 0, "two_answers": 0,
                                    "differ_rate": 0.0}
