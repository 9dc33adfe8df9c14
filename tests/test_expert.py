"""Tests of the expert player (kniffel.engine.expert): exact within a turn, valued at its end by the
exact tables (classic rule sets) or the fitted model (Kniffel Extreme)."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import kniffel
from kniffel.engine import expert_model
from kniffel.engine.advice import Advice, Position
from kniffel.engine.dice import Roll
from kniffel.engine.errors import ExpertError, KniffelError
from kniffel.engine.expert import Expert, ExpertStrategy
from kniffel.engine.expert_model import (
    MODEL_FORMAT,
    MODEL_VERSION,
    PACKED_MAGIC,
    ValueModel,
    load_model,
    model_from_bytes,
    model_from_json,
    pack_model,
    params_digest,
)
from kniffel.engine.game import Game, Score, UseChip
from kniffel.engine.messages import CATALOG, render
from kniffel.engine.rules import Box, Entry, RuleSet, preset
from kniffel.engine.states import DEAD, upper_key, upper_states
from kniffel.engine.strategy import get_strategy, strategy_names
from kniffel.engine.table_format import full_layout
from kniffel.engine.values import TableValues, compact_table
from kniffel.expert_fit import draw_visits, fit_model, model_text
from kniffel.solver.advise import Advisor
from kniffel.solver.sample import Sample, write_sample
from kniffel.solver.solve import solve
from kniffel.solver.table import load_table, make_layout
from kniffel.solver.tables import build_tables

CLASSIC = {"yahtzee": preset("yahtzee"), "kniffel": preset("kniffel"),
           "kniffel-championship": preset("kniffel-championship"),
           "kniffel-free-strike": preset("kniffel", free_strike=True)}


@pytest.fixture(scope="module")
def table_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The exact tables of every classic rule set, built once for the module."""
    directory = tmp_path_factory.mktemp("tables")
    for rules in CLASSIC.values():
        solve(rules, directory=directory)
    return directory


def table_values(rules: RuleSet, directory: Path) -> TableValues:
    table = Advisor(rules, directory=directory)._stored_table()
    assert table is not None
    assert table.path is not None
    return TableValues(rules, table.path.read_bytes(), where=str(table.path))


def positions(rules: RuleSet, games: int, seed: int) -> Iterator[tuple[Game, Position]]:
    """Every decision of ``games`` solitaire games, played half by greedy, half at random."""
    rng = random.Random(seed)
    for g in range(games):
        game = Game(rules, ["a"], seed=seed + g)
        strategy = get_strategy("random" if g % 2 else "greedy", rules)
        while not game.is_over():
            if game.is_chance_node():
                game.apply(game.sample_outcome(rng))
                continue
            yield game, Position.from_game(game)
            game.apply(strategy.choose(game, rng))


def same_values(a: Advice, b: Advice) -> None:
    """The same options with the same expected scores (to 1e-9; the order of exact ties may
    differ with the floating-point rounding)."""
    mine = {o.action: (o.expected, o.points) for o in a.options}
    theirs = {o.action: (o.expected, o.points) for o in b.options}
    assert mine.keys() == theirs.keys()
    for action, (expected, points) in mine.items():
        assert expected == pytest.approx(theirs[action][0], abs=1e-9)
        assert points == theirs[action][1]
    assert a.best.expected == pytest.approx(b.best.expected, abs=1e-9)
    assert a.source == b.source


def test_upper_states_and_table_layout_match_the_solvers_numbering() -> None:
    for rules in (preset("extreme"), *CLASSIC.values()):
        t = build_tables(rules)
        states = upper_states(rules.bonus_threshold, 6 if rules.d10 else 5)
        for mask in range(64):
            assert list(states[mask]) == t.uval[mask, :t.n_u[mask]].tolist()
    for rules in CLASSIC.values():
        base, states_n = full_layout(rules)
        layout = make_layout(build_tables(rules))
        assert base == layout.base.tolist()
        assert states_n == layout.states


@pytest.mark.parametrize("name", list(CLASSIC))
@pytest.mark.solve
def test_classic_expert_is_exact_and_the_same_with_and_without_numpy(
        name: str, table_dir: Path) -> None:
    rules = CLASSIC[name]
    values = table_values(rules, table_dir)
    exact = Advisor(rules, directory=table_dir)
    with_numpy = Expert(rules, use_numpy=True, values=values)
    pure = Expert(rules, use_numpy=False, values=values)
    count = 0
    for _, pos in positions(rules, 24, seed=len(name)):
        a = with_numpy.advise(pos)
        b = pure.advise(pos)
        assert [(o.action, o.expected, o.loss) for o in a.options] == [
            (o.action, o.expected, o.loss) for o in b.options], "numpy and lists bit for bit"
        same_values(a, exact.advise(pos))
        count += 1
    assert count > 900


def test_expert_strategy_is_registered_and_plays_classic_games_exactly(table_dir: Path) -> None:
    assert "expert" in strategy_names()
    rules = CLASSIC["yahtzee"]
    values = table_values(rules, table_dir)
    strategy = ExpertStrategy(rules, values=values)
    exact = Advisor(rules, directory=table_dir)
    rng = random.Random(5)
    game = Game(rules, ["a"], seed=5)
    while not game.is_over():
        if game.is_chance_node():
            game.apply(game.sample_outcome(rng))
            continue
        action = strategy.choose(game, rng)
        assert action in game.legal_actions()
        if game.turn is not None and game.turn.roll is not None:
            advice = exact.advise(Position.from_game(game))
            taken = next(o for o in advice.options if o.action == action)
            assert taken.loss == pytest.approx(0.0, abs=1e-9)
        game.apply(action)


def test_a_float32_table_gives_the_same_decisions_within_float32_rounding(
        table_dir: Path) -> None:
    rules = CLASSIC["kniffel"]
    full = table_values(rules, table_dir)
    raw = Advisor(rules, directory=table_dir)._stored_table()
    assert raw is not None
    assert raw.path is not None
    small = compact_table(rules, raw.path.read_bytes())
    assert len(small) < 1_500_000
    half = TableValues(rules, small)
    for mask in (0, 1, 77, 4095, 8190):
        assert half.future(mask, 0, 0) == pytest.approx(full.future(mask, 0, 0), abs=1e-3)
    a = Expert(rules, values=full).advise(Position(rules))
    b = Expert(rules, values=half).advise(Position(rules))
    assert a.best.expected == pytest.approx(248.0761, abs=1e-4)
    assert b.best.expected == pytest.approx(a.best.expected, abs=1e-3)


def test_a_damaged_or_foreign_table_is_refused_with_a_message(table_dir: Path) -> None:
    rules = CLASSIC["kniffel"]
    table = Advisor(rules, directory=table_dir)._stored_table()
    assert table is not None
    assert table.path is not None
    data = table.path.read_bytes()
    middle = len(data) // 2
    damaged = data[:middle] + bytes([data[middle] ^ 1]) + data[middle + 1:]
    cases = {"checksum does not match": damaged, "no table header": b"nonsense",
             "rules is": data}
    for problem, raw in cases.items():
        target = CLASSIC["yahtzee"] if problem == "rules is" else rules
        with pytest.raises(ExpertError) as e:
            TableValues(target, raw, where="x.table")
        assert e.value.code == "expert.table_mismatch"
        assert problem in str(e.value)
        assert "x.table" in render(e.value, "de")


def test_every_expert_code_is_in_the_catalog() -> None:
    for code in ("expert.error", "expert.wrong_rules", "expert.table_missing",
                 "expert.table_mismatch", "expert.model_missing", "expert.model_unreadable",
                 "expert.model_version", "expert.model_rules", "expert.model_checksum"):
        assert code in CATALOG


def test_the_expert_refuses_a_position_of_other_rules(table_dir: Path) -> None:
    rules = CLASSIC["kniffel"]
    expert = Expert(rules, values=table_values(rules, table_dir))
    with pytest.raises(KniffelError) as e:
        expert.advise(Position(CLASSIC["yahtzee"]))
    assert e.value.code == "expert.wrong_rules"
    assert np.isfinite(expert.advise(Position(rules)).best.expected)


# --- the fitted model (Kniffel Extreme) -------------------------------------------------------

EXTREME = preset("extreme")


def true_params() -> dict[str, Any]:
    """A value function of the model's own form, for a synthetic sample."""
    nb, nx = 22, 4
    return {
        "layer": [[2.0 * x + 3.0 * n for x in range(nx)] for n in range(nb + 1)],
        "box": [[(b + 1) * (1 + n / 10) for b in range(nb)] for n in range(nb + 1)],
        "chip": [[[0.5 * x * (b % 3) + 0.1 * n for x in range(nx)] for b in range(nb)]
                 for n in range(nb + 1)],
        "pair": [[[0.1 * (c - b) if c > b else 0.0 for c in range(nb)] for b in range(nb)]
                 for n in range(nb + 1)],
        "upper": [[[[0.3 * k + bin(u6).count("1") + x, 0.02 * u6] for x in range(nx)]
                   for k in range(75)] for u6 in range(64)],
        "upper_lower": [[[0.0] * 17 for _ in range(75)] for _ in range(64)],
    }


def model_doc(params: dict[str, Any], rules: RuleSet = EXTREME) -> dict[str, Any]:
    return {"format": MODEL_FORMAT, "version": MODEL_VERSION, "rules": repr(rules),
            "params": params, "sha256": params_digest(params)}


@pytest.fixture(scope="module")
def synthetic() -> tuple[Sample, ValueModel]:
    """A sample of every state of 250 random filled-box sets (all layers), valued by a model
    of known parameters."""
    truth = model_from_json(EXTREME, model_doc(true_params()))
    rng = random.Random(3)
    states = upper_states(73, 6)
    rows: list[tuple[int, int, int, float]] = []
    for i in range(250):
        n_filled = i % 22
        mask = sum(1 << b for b in rng.sample(range(22), n_filled))
        for u in states[mask & 63]:
            upper = 0 if u == DEAD else u  # a dead state: any sum that cannot reach 73
            if u == DEAD:
                upper = next(s for s in range(73) if upper_key(mask & 63, s, 73, 6) == DEAD)
            for x in range(4):
                rows.append((mask, u, x, truth.future(mask, upper, x)))
    sample = Sample(np.array([r[0] for r in rows], np.int32),
                    np.array([r[1] for r in rows], np.int16),
                    np.array([r[2] for r in rows], np.int8),
                    np.array([r[3] for r in rows], np.float32),
                    {"version": 1, "rules": "extreme", "seed": 0, "per_layer": 0})
    return sample, truth


@pytest.mark.solve
def test_the_fit_recovers_a_value_function_of_its_own_form_bit_for_bit_again(
        synthetic: tuple[Sample, ValueModel]) -> None:
    sample, truth = synthetic
    doc = fit_model(sample)
    assert doc["fit"]["rms"] < 0.05
    model = model_from_json(EXTREME, doc)
    rng = random.Random(9)
    for _ in range(200):
        i = rng.randrange(len(sample.value))
        mask, u, x = int(sample.mask[i]), int(sample.upper[i]), int(sample.extra[i])
        if u == DEAD:
            continue
        assert model.future(mask, u, x) == pytest.approx(truth.future(mask, u, x), abs=0.2)
    assert model_text(fit_model(sample)) == model_text(doc), "the same sample, the same file"


def test_the_fit_refuses_a_sample_of_other_rules(synthetic: tuple[Sample, ValueModel]) -> None:
    sample, _ = synthetic
    other = Sample(sample.mask, sample.upper, sample.extra, sample.value,
                   dict(sample.meta, rules="kniffel"))
    with pytest.raises(KniffelError):
        fit_model(other)


@pytest.mark.solve
def test_the_fit_script_writes_the_model_file(tmp_path: Path,
                                              synthetic: tuple[Sample, ValueModel]) -> None:
    sample, _ = synthetic
    path = tmp_path / "s.sample.npz"
    write_sample(sample, path)
    script = Path(__file__).parent.parent / "scripts" / "fit_expert_model.py"
    env = dict(os.environ, PYTHONPATH=str(Path(kniffel.__file__).parent.parent))
    out = tmp_path / "model.json"
    done = subprocess.run([sys.executable, str(script), str(path), str(out), "--no-visits"],
                          env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "bytes" in done.stdout
    model_from_bytes(EXTREME, out.read_bytes())
    bad = subprocess.run([sys.executable, str(script), str(tmp_path / "none.npz"), str(out)],
                         env=env, capture_output=True, text=True, check=False)
    assert bad.returncode == 2
    # without --no-visits the visits are drawn from the full table, which is not there
    before = out.read_bytes()
    no_table = subprocess.run([sys.executable, str(script), str(path), str(out)], env=env,
                              capture_output=True, text=True, check=False)
    assert no_table.returncode == 2
    assert "no table for extreme" in no_table.stderr
    assert out.read_bytes() == before, "a failed fit leaves the model file as it was"
    assert not (tmp_path / "s.visits.npz").exists()
    assert "none.npz" in bad.stderr


def test_visits_are_the_end_of_turn_states_optimal_play_asks_about_with_their_values(
        table_dir: Path) -> None:
    kniffel_rules = CLASSIC["kniffel"]
    table = load_table(kniffel_rules, directory=table_dir)
    visits = draw_visits(table, games=3, seed=5)
    assert visits.count is not None
    assert visits.meta["games"] == 3
    t = table.tables
    keys = list(zip(visits.mask.tolist(), visits.upper.tolist(), visits.extra.tolist(),
                    strict=True))
    assert keys == sorted(keys, key=lambda k: (k[0], t.upper_state(k[0] & 63, k[1]), k[2]))
    for i in range(len(keys)):
        mask, upper, x = keys[i]
        k = t.upper_state(mask & 63, upper)
        assert float(visits.value[i]) == float(np.float32(table.value(mask, k, x)))
    # every first turn compares every box: each one-box sheet is asked about in every game
    first: dict[int, int] = {}
    for m, c in zip(visits.mask.tolist(), visits.count.tolist(), strict=True):
        if bin(m).count("1") == 1:
            first[m] = first.get(m, 0) + c
    assert sorted(first) == [1 << b for b in range(13)]
    assert all(c >= 3 for c in first.values())
    # each of the 3 games asks about the sheets after each of its 13 turns
    assert len(set(visits.mask.tolist())) > 13 * 3
    again = draw_visits(table, games=3, seed=5, jobs=2)
    assert again.count is not None
    assert np.array_equal(again.count, visits.count), "the same visits in two processes"
    assert np.array_equal(again.mask, visits.mask)
    assert draw_visits(table, games=3, seed=6).meta["seed"] == 6


@pytest.mark.solve
def test_a_visit_asked_four_times_weighs_as_much_as_two_sampled_states(
        synthetic: tuple[Sample, ValueModel]) -> None:
    sample, _ = synthetic
    noisy = Sample(sample.mask, sample.upper, sample.extra,
                   (sample.value + np.float32(3) * np.sin(np.arange(len(sample.value)))
                    ).astype(np.float32), dict(sample.meta, table_sha256="t"))
    rows = np.arange(0, len(noisy.value), 7)
    visits = Sample(noisy.mask[rows], noisy.upper[rows], noisy.extra[rows], noisy.value[rows],
                    dict(noisy.meta, games=1), np.full(len(rows), 4, np.int32))

    def twice(a: Any) -> Any:
        return np.concatenate([a, a[rows], a[rows]])

    repeated_sample = Sample(twice(noisy.mask), twice(noisy.upper), twice(noisy.extra),
                             twice(noisy.value), noisy.meta)
    weighted = model_from_json(EXTREME, doc := fit_model(noisy, visits=visits))
    repeated = model_from_json(EXTREME, fit_model(repeated_sample))
    plain_doc = fit_model(noisy)
    plain = model_from_json(EXTREME, plain_doc)
    assert doc["visits"]["states"] == len(rows)
    assert doc["visits"]["asked"] == 4 * len(rows)
    assert doc["sample"]["states"] == plain_doc["sample"]["states"], "visits are not sampled"
    moved = 0
    for i in rows[::5].tolist():
        state = (int(noisy.mask[i]), int(noisy.upper[i]), int(noisy.extra[i]))
        if state[1] == DEAD:
            continue
        assert weighted.future(*state) == pytest.approx(repeated.future(*state), abs=1e-4)
        moved += abs(weighted.future(*state) - plain.future(*state)) > 1e-3
    assert moved > 0, "the visits move the fit"
    with pytest.raises(KniffelError) as other_table:
        fit_model(noisy, visits=Sample(visits.mask, visits.upper, visits.extra, visits.value,
                                       dict(visits.meta, table_sha256="u"), visits.count))
    assert other_table.value.code == "expert.visits_mismatch"


@pytest.mark.parametrize(("change", "code"), [
    ("checksum", "expert.model_checksum"), ("rules", "expert.model_rules"),
    ("version", "expert.model_version"), ("shape", "expert.model_checksum"),
    ("garbage", "expert.model_unreadable")])
def test_a_model_file_that_does_not_match_is_refused_with_a_clear_message(
        change: str, code: str) -> None:
    doc = model_doc(true_params())
    if change == "checksum":
        doc["params"]["box"][3][4] += 0.5
    elif change == "rules":
        doc = model_doc(true_params(), preset("kniffel"))
    elif change == "version":
        doc["version"] = MODEL_VERSION + 1
    elif change == "shape":
        doc["params"]["layer"].pop()
    raw = b"{not json" if change == "garbage" else json.dumps(doc).encode()
    with pytest.raises(ExpertError) as e:
        model_from_bytes(EXTREME, raw, where="expert-extreme.json")
    assert e.value.code == code
    for lang in ("de", "en"):
        text = render(e.value, lang)
        assert "expert-extreme.json" in text
        assert text != render(KniffelError("x"), lang)


@pytest.mark.parametrize(("table", "bad"), [
    ("layer", "row too short"), ("upper", "row too long"), ("box", "a string"),
    ("pair", "a boolean"), ("chip", "a list for a number"), ("upper_lower", "a huge integer")])
def test_a_model_with_the_right_checksum_but_bad_parameters_is_refused(table: str,
                                                                       bad: str) -> None:
    """The checksum only says the file is as it was written: the reader still checks the
    shape of every table and that every parameter is a finite number."""
    params = true_params()
    row: Any = params[table]
    while isinstance(row[0], list):
        row = row[-1]
    if bad == "row too short":
        row.pop()
    elif bad == "row too long":
        row.append(1.0)
    elif bad == "a string":
        row[0] = "1.0"
    elif bad == "a boolean":
        row[0] = True
    elif bad == "a list for a number":
        row[0] = [1.0]
    else:
        row[0] = 10**400
    with pytest.raises(ExpertError) as e:
        model_from_bytes(EXTREME, json.dumps(model_doc(params)).encode(), where="m.json")
    assert e.value.code == "expert.model_unreadable"


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity"])
def test_a_model_with_a_parameter_that_is_no_finite_number_is_refused(value: str) -> None:
    raw = json.dumps(model_doc(true_params())).replace("0.0,", f"{value},", 1).encode()
    with pytest.raises(ExpertError) as e:
        model_from_bytes(EXTREME, raw, where="m.json")
    assert e.value.code == "expert.model_checksum"


def test_a_packed_model_reads_back_the_same_tables_and_fields() -> None:
    model = model_from_json(EXTREME, model_doc(true_params()))
    raw = pack_model(model)
    assert raw.startswith(PACKED_MAGIC)
    assert pack_model(model) == raw  # byte for byte the same
    back = model_from_bytes(preset("extreme", free_strike=True), raw)
    for name in ("layer", "box", "chip", "pair", "upper", "upper_lower"):
        assert getattr(back, name) == getattr(model, name), name
    assert back.meta == model.meta
    rng = random.Random(5)
    for _ in range(200):
        mask, upper, x = rng.randrange(1 << 22), rng.randrange(80), rng.randrange(4)
        assert back.future(mask, upper, x) == model.future(mask, upper, x)


@pytest.mark.parametrize(("change", "code"), [
    ("payload", "expert.model_checksum"), ("truncated", "expert.model_unreadable"),
    ("version", "expert.model_version"), ("rules", "expert.model_rules"),
    ("header", "expert.model_unreadable")])
def test_a_damaged_packed_model_is_refused_with_a_clear_message(change: str, code: str) -> None:
    model = model_from_json(EXTREME, model_doc(true_params()))
    raw = pack_model(model)
    head, _, payload = raw[len(PACKED_MAGIC):].partition(b"\n")
    header = json.loads(head)
    if change == "payload":
        payload = payload[:100] + bytes([payload[100] ^ 1]) + payload[101:]
    elif change == "truncated":
        payload = payload[:-8]
    elif change == "version":
        header["version"] = MODEL_VERSION + 1
    elif change == "rules":
        header["rules"] = repr(preset("kniffel"))
    bad = (PACKED_MAGIC + (b"{not json" if change == "header" else json.dumps(header).encode())
           + b"\n" + payload)
    with pytest.raises(ExpertError) as e:
        model_from_bytes(EXTREME, bad, where="expert-extreme.packed")
    assert e.value.code == code
    assert "expert-extreme.packed" in render(e.value, "de")


def test_a_missing_model_is_refused_with_the_command_that_builds_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(expert_model, "model_bytes", lambda rules: None)
    load_model.cache_clear()
    try:
        with pytest.raises(ExpertError) as e:
            load_model(EXTREME)
    finally:
        load_model.cache_clear()
    assert e.value.code == "expert.model_missing"
    assert "scripts/fit_expert_model.py" in render(e.value, "de")


def test_the_packaged_model_matches_its_checksum_and_rules_when_present() -> None:
    raw = expert_model.model_bytes(EXTREME)
    if raw is None:
        pytest.skip("no model file in the package yet (it is fitted to the full table's sample)")
    model = model_from_bytes(EXTREME, raw)
    assert model.meta["rules"] == repr(EXTREME)
    assert len(raw) < 2_000_000
    assert load_model(preset("extreme", free_strike=True)).rules == EXTREME


@pytest.mark.solve
def test_extreme_expert_is_the_same_with_and_without_numpy(
        synthetic: tuple[Sample, ValueModel]) -> None:
    model = model_from_json(EXTREME, fit_model(synthetic[0]))
    count = 0
    for rules in (EXTREME, preset("extreme", free_strike=True)):
        with_numpy = Expert(rules, use_numpy=True, values=model)
        pure = Expert(rules, use_numpy=False, values=model)
        chips = False
        for _, pos in positions(rules, 8, seed=11):
            a = with_numpy.advise(pos)
            b = pure.advise(pos)
            assert [(o.action, o.expected, o.loss, o.points) for o in a.options] == [
                (o.action, o.expected, o.loss, o.points) for o in b.options]
            assert a.source == "model"
            chips = chips or any(isinstance(o.action, UseChip) for o in a.options)
            count += 1
        assert chips, "chip decisions were compared"
    assert count > 1200


def test_extreme_expert_values_agree_with_its_own_value_function_at_the_turns_end(
        synthetic: tuple[Sample, ValueModel]) -> None:
    """An entry is worth its points (and bonus) plus V̂ of the sheet after it; a chip after
    the third throw is worth at least entering the roll with one chip fewer."""
    model = synthetic[1]
    expert = Expert(EXTREME, values=model)
    sheet = {box: Entry(0, struck=True) for box in EXTREME.boxes[6:20]}
    sheet[Box.SIXES] = Entry(24)
    pos = Position(EXTREME, sheet, 2, Roll((6, 6, 6, 6, 2), d10=6), 3)
    advice = expert.advise(pos)
    mask = sum(1 << b for b, box in enumerate(EXTREME.boxes) if box in sheet)
    by_action = {o.action: o for o in advice.options}
    twos = by_action[Score(Box.TWOS)]
    assert twos.expected == pytest.approx(24 + 2 + model.future(mask | 2, 26, 2), abs=1e-9)
    chip = by_action[UseChip()]
    one_chip_fewer = [24 + expert.entry_value(mask, 24, 1, o.action.box, o.points or 0)
                      for o in advice.options if isinstance(o.action, Score)]
    assert chip.expected >= max(one_chip_fewer) - 1e-9
