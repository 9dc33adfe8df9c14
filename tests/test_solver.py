"""Tests of the solver: published values, brute-force cross-checks, tables, advice, the player."""

from __future__ import annotations

import dataclasses
import importlib
import json
import math
import random
import statistics
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from kniffel.cli import main
from kniffel.engine.dice import Keep, Roll, outcomes, sub_keeps
from kniffel.engine.game import Action, Game, Score, Strike, Throw, UseChip
from kniffel.engine.rules import Box, Entry, ExtraKniffel, RuleSet, choices, preset
from kniffel.engine.table_format import HEADER_SIZE
from kniffel.solver import (
    Progress,
    SolverError,
    TableMismatchError,
    TableMissingError,
    load_table,
    solve,
    solve_in_memory,
)
from kniffel.solver.advise import Advisor, OptimalStrategy, Position, advise
from kniffel.solver.table import ValueTable, read_header
from kniffel.solver.tables import build_tables

EXTREME = preset("extreme")
KNIFFEL = preset("kniffel")
CHAMPIONSHIP = preset("kniffel-championship")
YAHTZEE = preset("yahtzee")
YAHTZEE_FORCED = dataclasses.replace(YAHTZEE, extra_kniffel=ExtraKniffel.FORCED_JOKER)

Sheet = Mapping[Box, Entry]


# --- a separate plain-Python expectimax over the engine's own moves -------------------------


def _total(rules: RuleSet, entries: Sheet) -> int:
    upper = sum(e.points for b, e in entries.items() if b.is_upper)
    bonus = rules.bonus_points if upper >= rules.bonus_threshold else 0
    return upper + bonus + sum(e.points for b, e in entries.items() if not b.is_upper)


class BruteForce:
    """Expected points still to come under optimal play, by plain expectimax.

    It knows nothing of the solver: moves come from the engine (``choices``, ``sub_keeps``,
    ``outcomes``), points from the sheet totals, and states are the exact sheets.
    """

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.turn_value = cache(self._turn_value)

    def gain(self, entries: Sheet, box: Box, points: int, struck: bool, bonus: int) -> float:
        after = {**entries, box: Entry(points, struck)}
        return _total(self.rules, after) - _total(self.rules, entries) + bonus

    def entry_values(self, entries: Sheet, roll: Roll, chips: int) -> list[tuple[Action, float]]:
        """(action, value) of every legal entry of ``roll``."""
        out: list[tuple[Action, float]] = []
        for ch in choices(self.rules, entries, roll):
            after = {**entries, ch.box: Entry(ch.points, ch.strike)}
            v = self.gain(entries, ch.box, ch.points, ch.strike, ch.bonus) + self.turn_value(
                _key(after), chips)
            out.append((Strike(ch.box) if ch.strike else Score(ch.box), v))
        return out

    def score_now(self, entries: Sheet, roll: Roll, chips: int) -> float:
        return max(v for _, v in self.entry_values(entries, roll, chips))

    def stages(self, entries: Sheet, chips: int) -> list[Callable[[Roll], float]]:
        """Value of the hand after roll 1, 2, 3 (and the chip roll) for this turn."""
        rules = self.rules
        d10 = rules.d10

        def expect(keep: Keep, after: Callable[[Roll], float]) -> float:
            return sum(p * after(r) for r, p in outcomes(keep, d10=d10))

        @cache
        def chip_roll(roll: Roll) -> float:  # after the 4th throw: chips - 1 left
            return self.score_now(entries, roll, chips - 1)

        @cache
        def chip_keep(keep: Keep) -> float:
            return expect(keep, chip_roll)

        @cache
        def last(roll: Roll) -> float:
            v = self.score_now(entries, roll, chips)
            if chips > 0:
                v = max(v, chip_roll(roll), *(chip_keep(k) for k in _rethrows(roll)))
            return v

        fns: list[Callable[[Roll], float]] = [last]
        for _ in range(rules.rolls - 1):
            nxt = fns[0]
            keep_cache: dict[Keep, float] = {}

            def keep_value(keep: Keep, nxt: Callable[[Roll], float] = nxt,
                           memo: dict[Keep, float] = keep_cache) -> float:
                if keep not in memo:
                    memo[keep] = expect(keep, nxt)
                return memo[keep]

            def hand(roll: Roll, keep_value: Callable[[Keep], float] = keep_value) -> float:
                return max(self.score_now(entries, roll, chips),
                           *(keep_value(k) for k in _rethrows(roll)))

            fns.insert(0, cache(hand))
        return fns

    def _turn_value(self, key: tuple[tuple[Box, int, bool], ...], chips: int) -> float:
        entries = {b: Entry(p, s) for b, p, s in key}
        if len(entries) == len(self.rules.boxes):
            return 0.0
        first = self.stages(entries, chips)[0]
        return sum(p * first(r) for r, p in outcomes(Keep(), d10=self.rules.d10))

    def value(self, entries: Sheet, chips: int = 0) -> float:
        return self.turn_value(_key(entries), chips)


def _key(entries: Sheet) -> tuple[tuple[Box, int, bool], ...]:
    return tuple(sorted(((b, e.points, e.struck) for b, e in entries.items()),
                        key=lambda t: t[0].value))


def _rethrows(roll: Roll) -> list[Keep]:
    return [k for k in sub_keeps(roll) if k.size < len(roll.values)]


def _sheet_except(rules: RuleSet, open_boxes: list[Box], points: Mapping[Box, int],
                  ) -> dict[Box, Entry]:
    """Every box but ``open_boxes`` filled: with ``points`` where given, else struck."""
    return {b: (Entry(points[b]) if b in points else Entry(0, struck=True))
            for b in rules.boxes if b not in open_boxes}


def _solver_value(rules: RuleSet, entries: Sheet, chips: int = 0) -> float:
    pos = Position(rules, entries, chips_left=chips if rules.chips else None)
    adv = Advisor(rules, table=None, directory=Path("/nonexistent-kniffel-cache"))
    result = adv.advise(pos)
    return result.best.expected - result.score_so_far


SMALL_GAMES = [
    # (rules, open boxes, points of filled boxes, chips)
    (YAHTZEE, [Box.ONES, Box.KNIFFEL, Box.LARGE_STRAIGHT], {Box.SIXES: 24, Box.FIVES: 20}, 0),
    (YAHTZEE, [Box.FULL_HOUSE, Box.LARGE_STRAIGHT, Box.FIVES], {Box.KNIFFEL: 50}, 0),
    (YAHTZEE, [Box.FULL_HOUSE, Box.TWOS], {Box.KNIFFEL: 0, Box.SIXES: 30, Box.FIVES: 25}, 0),
    (YAHTZEE_FORCED, [Box.SMALL_STRAIGHT, Box.THREES, Box.ONES],
     {Box.KNIFFEL: 50, Box.SIXES: 30}, 0),
    (KNIFFEL, [Box.FOURS, Box.FULL_HOUSE, Box.SMALL_STRAIGHT], {Box.KNIFFEL: 50, Box.SIXES: 30,
                                                                Box.FIVES: 20}, 0),
    (KNIFFEL, [Box.KNIFFEL, Box.LARGE_STRAIGHT, Box.SIXES], {Box.FIVES: 25, Box.FOURS: 16}, 0),
    (preset("kniffel", free_strike=True), [Box.TWOS, Box.KNIFFEL], {Box.SIXES: 30}, 0),
    (CHAMPIONSHIP, [Box.FOUR_OF_A_KIND, Box.FIVES], {Box.KNIFFEL: 50, Box.SIXES: 24}, 0),
    (CHAMPIONSHIP, [Box.ONES, Box.FULL_HOUSE], {Box.KNIFFEL: 50}, 0),
    (EXTREME, [Box.SIXES], {Box.FIVES: 25, Box.FOURS: 20}, 1),
    (EXTREME, [Box.KNIFFEL_EXTREME, Box.TWO_TRIPLES], {}, 1),
    (EXTREME, [Box.HIGHWAY, Box.TEN_OR_LESS], {Box.SIXES: 30}, 0),
]


@pytest.mark.parametrize(("rules", "open_boxes", "points", "chips"), SMALL_GAMES,
                         ids=[f"{g[0].name}-{'-'.join(b.value for b in g[1])}"
                              for g in SMALL_GAMES])
@pytest.mark.solve
def test_solver_matches_brute_force_expectimax_on_small_sub_games(
    rules: RuleSet, open_boxes: list[Box], points: dict[Box, int], chips: int
) -> None:
    entries = _sheet_except(rules, open_boxes, points)
    expected = BruteForce(rules).value(entries, chips)
    assert _solver_value(rules, entries, chips) == pytest.approx(expected, abs=1e-9)


@pytest.mark.solve
def test_advice_for_a_roll_matches_brute_force_for_every_option() -> None:
    rules = KNIFFEL
    entries = _sheet_except(rules, [Box.SIXES, Box.KNIFFEL, Box.FULL_HOUSE],
                            {Box.FIVES: 25, Box.FOURS: 12})
    brute = BruteForce(rules)
    roll = Roll((6, 6, 6, 2, 2))
    after_first = brute.stages(entries, 0)[1]  # value of the hand after roll 2
    result = advise(Position(rules, entries, roll=roll, rolls_used=1),
                    directory=Path("/nonexistent-kniffel-cache"))
    so_far = result.score_so_far
    got = {o.action: o.expected - so_far for o in result.options}
    want: dict[Action, float] = dict(brute.entry_values(entries, roll, 0))
    for keep in _rethrows(roll):
        want[Throw(keep)] = sum(p * after_first(r) for r, p in outcomes(keep, d10=False))
    assert set(got) == set(want)
    for action, value in want.items():
        assert got[action] == pytest.approx(value, abs=1e-9), action
    assert result.options[0].loss == 0
    assert all(o.loss >= 0 for o in result.options)


@pytest.mark.solve
def test_advice_with_a_chip_matches_brute_force() -> None:
    rules = EXTREME
    entries = _sheet_except(rules, [Box.KNIFFEL, Box.HIGHWAY], {})
    brute = BruteForce(rules)
    roll = Roll((6, 6, 6, 6, 2), d10=6)
    result = advise(Position(rules, entries, chips_left=1, roll=roll, rolls_used=3),
                    directory=Path("/nonexistent-kniffel-cache"))
    got = {o.action: o.expected - result.score_so_far for o in result.options}
    entries_now = dict(brute.entry_values(entries, roll, 1))
    after_chip = cache(lambda r: brute.score_now(entries, r, 0))
    chip_options = [after_chip(roll)] + [
        sum(p * after_chip(r) for r, p in outcomes(k, d10=True)) for k in _rethrows(roll)]
    assert set(got) == {*entries_now, UseChip()}
    for action, value in entries_now.items():
        assert got[action] == pytest.approx(value, abs=1e-9)
    assert got[UseChip()] == pytest.approx(max(chip_options), abs=1e-9)
    assert not any(isinstance(a, Throw) for a in got), "no throw after the 3rd without a chip"


def test_advice_after_a_chip_offers_the_fourth_throw() -> None:
    rules = EXTREME
    entries = _sheet_except(rules, [Box.KNIFFEL, Box.CHANCE], {})
    roll = Roll((6, 6, 6, 6, 2), d10=3)
    result = advise(Position(rules, entries, chips_left=0, roll=roll, rolls_used=3,
                             chip_used=True), directory=Path("/nonexistent-kniffel-cache"))
    actions = {o.action for o in result.options}
    assert Throw(Keep((6, 6, 6, 6))) in actions
    assert Score(Box.CHANCE) in actions
    assert UseChip() not in actions


# --- published and whole-game values ------------------------------------------------------


@pytest.fixture(scope="module")
def yahtzee_table() -> ValueTable:
    return solve_in_memory(YAHTZEE)


def test_yahtzee_reproduces_verhoeffs_optimal_expected_score(yahtzee_table: ValueTable) -> None:
    assert round(yahtzee_table.expected_score(), 4) == 254.5896


@pytest.mark.solve
def test_classic_kniffel_and_championship_values_lie_near_yahtzee() -> None:
    kniffel = solve_in_memory(KNIFFEL).expected_score()
    championship = solve_in_memory(CHAMPIONSHIP).expected_score()
    assert 240 < kniffel < championship < 254.5896
    free = solve_in_memory(preset("kniffel", free_strike=True)).expected_score()
    assert free > kniffel, "striking freely can only help"


def test_values_never_decrease_with_more_chips() -> None:
    table = solve_in_memory(EXTREME, max_open=2)
    lay = table.layout
    t = table.tables
    for o, masks in lay.layers():
        for mask in masks[:200]:
            xf = t.x_of(int(mask))
            for k in range(int(t.n_u[int(mask) & 63])):
                vals = [table.value(int(mask), k, x) for x in range(xf)]
                assert vals == sorted(vals), (o, mask, k)


def test_full_table_covers_every_endgame_layout_it_contains(yahtzee_table: ValueTable) -> None:
    small = solve_in_memory(YAHTZEE, max_open=3)
    lay = small.layout
    diffs = []
    for _, masks in lay.layers():
        for mask in masks:
            b_small = lay.base[mask]
            b_full = yahtzee_table.layout.base[mask]
            n = lay.lanes(int(mask))
            diffs.append(np.max(np.abs(small.values[b_small:b_small + n]
                                       - yahtzee_table.values[b_full:b_full + n])))
    assert max(diffs) == 0.0


# --- the table file ----------------------------------------------------------------------


def test_solve_writes_a_checked_table_and_loads_it_memory_mapped(tmp_path: Path) -> None:
    table = solve(YAHTZEE, directory=tmp_path)
    assert table.path == tmp_path / "yahtzee.table"
    assert isinstance(table.values, np.memmap)
    header = table.header
    assert header["rules"] == repr(YAHTZEE)
    assert header["version"] == 1
    assert header["complete"] is True
    assert len(header["sha256"]) == 64
    assert round(header["expected"], 4) == 254.5896
    again = load_table(YAHTZEE, directory=tmp_path)
    assert again.expected_score() == table.expected_score()
    assert not list(tmp_path.glob("*.partial"))


def test_a_damaged_table_is_refused_and_recomputed(tmp_path: Path) -> None:
    solve(YAHTZEE, max_open=4, directory=tmp_path)
    path = tmp_path / "yahtzee-open4.table"
    data = bytearray(path.read_bytes())
    data[HEADER_SIZE + 80] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(TableMismatchError, match="checksum"):
        load_table(YAHTZEE, max_open=4, directory=tmp_path)
    notes: list[str] = []
    table = solve(YAHTZEE, max_open=4, directory=tmp_path, notice=notes.append)
    assert any("checksum" in n for n in notes)
    fresh = solve_in_memory(YAHTZEE, max_open=4)
    assert np.array_equal(np.asarray(table.values), fresh.values)


@pytest.mark.parametrize("damage", ["rules", "version", "truncate", "magic", "json"])
def test_a_table_that_does_not_match_is_refused_never_misread(tmp_path: Path,
                                                              damage: str) -> None:
    solve(YAHTZEE, max_open=2, directory=tmp_path)
    path = tmp_path / "yahtzee-open2.table"
    raw = path.read_bytes()
    header = json.loads(raw[len(b"KNIFFEL-TABLE\n"):HEADER_SIZE].decode())
    if damage in ("rules", "version"):
        header["rules" if damage == "rules" else "version"] = (
            repr(KNIFFEL) if damage == "rules" else 99)
        body = b"KNIFFEL-TABLE\n" + json.dumps(header).encode()
        raw = body + b" " * (HEADER_SIZE - 1 - len(body)) + b"\n" + raw[HEADER_SIZE:]
    elif damage == "truncate":
        raw = raw[:-8]
    elif damage == "magic":
        raw = b"X" + raw[1:]
    else:
        raw = raw[:20] + b"{{{" + raw[23:]
    path.write_bytes(raw)
    with pytest.raises(TableMismatchError):
        load_table(YAHTZEE, max_open=2, directory=tmp_path)


def test_an_interrupted_solve_resumes_at_the_next_layer(tmp_path: Path) -> None:
    class StopError(Exception):
        pass

    def interrupt(p: Progress) -> None:
        if p.layer >= 3:
            raise StopError

    with pytest.raises(StopError):
        solve(KNIFFEL, max_open=5, directory=tmp_path, progress=interrupt, checkpoint_seconds=0)
    partial = tmp_path / "kniffel-open5.table.partial"
    assert partial.exists()
    assert read_header(partial)["layers_done"] >= 3
    assert not (tmp_path / "kniffel-open5.table").exists()
    notes: list[str] = []
    seen: list[Progress] = []
    table = solve(KNIFFEL, max_open=5, directory=tmp_path, notice=notes.append,
                  progress=seen.append)
    assert any("resuming" in n for n in notes)
    assert seen[0].resumed > 0
    fresh = solve_in_memory(KNIFFEL, max_open=5)
    assert np.array_equal(np.asarray(table.values), fresh.values)


def test_an_interrupted_solve_resumes_inside_the_layer_it_was_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    solve_module = importlib.import_module("kniffel.solver.solve")
    monkeypatch.setattr(solve_module, "BATCH_STATES", 500)

    class StopError(Exception):
        pass

    layer_starts: dict[int, int] = {}

    def interrupt(p: Progress) -> None:
        layer_starts.setdefault(p.layer, p.done)
        if p.layer == 4 and p.done - layer_starts[4] > 2000:
            raise StopError

    with pytest.raises(StopError):
        solve(KNIFFEL, max_open=5, directory=tmp_path, progress=interrupt,
              checkpoint_seconds=0)
    partial = tmp_path / "kniffel-open5.table.partial"
    header = read_header(partial)
    assert header["layers_done"] == 4
    assert header["sets_done"] > 0
    notes: list[str] = []
    seen: list[Progress] = []
    table = solve(KNIFFEL, max_open=5, directory=tmp_path, notice=notes.append,
                  progress=seen.append)
    assert any("resuming" in n and "sets" in n for n in notes), notes
    lay = table.layout
    before = sum(lay.layer_states(m) for o, m in lay.layers() if o < 4)
    assert seen[0].resumed > before, "the finished part of layer 4 is not computed again"
    fresh = solve_in_memory(KNIFFEL, max_open=5)
    assert np.array_equal(np.asarray(table.values), fresh.values)


def test_unsupported_requests_are_refused_with_a_reason() -> None:
    with pytest.raises(SolverError, match="max_open"):
        solve_in_memory(YAHTZEE, max_open=14)
    with pytest.raises(TableMissingError):
        load_table(YAHTZEE, directory=Path("/nonexistent-kniffel-cache"))


def test_advice_without_a_table_far_from_the_end_says_how_to_build_it() -> None:
    with pytest.raises(TableMissingError, match="kniffel solve --rules extreme"):
        advise(Position(EXTREME), directory=Path("/nonexistent-kniffel-cache"))


def test_position_checks_its_input() -> None:
    with pytest.raises(SolverError.__mro__[1]):
        Position(EXTREME, chips_left=4)
    with pytest.raises(Exception, match="rolls used"):
        Position(YAHTZEE, roll=Roll((1, 2, 3, 4, 5)), rolls_used=4)
    with pytest.raises(Exception, match="chip"):
        Position(YAHTZEE, roll=Roll((1, 2, 3, 4, 5)), rolls_used=3, chip_used=True)


# --- the optimal player ------------------------------------------------------------------


def test_optimal_player_reaches_the_tables_value_within_three_standard_errors(
    tmp_path: Path, yahtzee_table: ValueTable
) -> None:
    player = OptimalStrategy(YAHTZEE, directory=tmp_path)
    rng = random.Random(2026)
    totals = []
    for seed in range(150):
        game = Game(YAHTZEE, ["Optimal"], seed=seed)
        while not game.is_over():
            if game.is_chance_node():
                game.apply(game.sample_outcome(rng))
            else:
                action = player.choose(game, rng)
                assert action in game.legal_actions()
                game.apply(action)
        totals.append(game.scores()[0])
    mean = statistics.fmean(totals)
    se = statistics.stdev(totals) / math.sqrt(len(totals))
    assert abs(mean - yahtzee_table.expected_score()) < 3 * se


def test_optimal_player_for_extreme_without_its_table_says_how_to_build_it(
    tmp_path: Path,
) -> None:
    with pytest.raises(TableMissingError, match="kniffel solve --rules extreme"):
        OptimalStrategy(EXTREME, directory=tmp_path)


def test_optimal_player_takes_a_sure_kniffel_extreme_in_the_last_turn() -> None:
    rules = EXTREME
    entries = _sheet_except(rules, [Box.KNIFFEL_EXTREME], {})
    pos = Position(rules, entries, chips_left=0, roll=Roll((4, 4, 4, 4, 4), d10=4), rolls_used=1)
    result = advise(pos, directory=Path("/nonexistent-kniffel-cache"))
    assert result.best.action == Score(Box.KNIFFEL_EXTREME)
    assert result.best.expected == result.score_so_far + 75


# --- command line ------------------------------------------------------------------------


def test_cli_solve_prints_the_expected_optimal_score(tmp_path: Path) -> None:
    res = CliRunner().invoke(main, ["solve", "--rules", "yahtzee", "--cache-dir",
                                    str(tmp_path), "--lang", "en"])
    assert res.exit_code == 0, res.output
    assert "254.5896" in res.output
    again = CliRunner().invoke(main, ["solve", "--rules", "yahtzee", "--cache-dir",
                                      str(tmp_path)])
    assert "254,5896" in again.output  # German: the decimal comma


def test_cli_solve_shows_a_progress_bar_on_a_terminal_and_none_in_a_pipe(tmp_path: Path) -> None:
    """A terminal sees the solve's progress bar; a file or a pipe gets the result lines only
    (and the command does not load the bar's code)."""
    import os
    import pty
    import subprocess
    import sys

    args = [sys.executable, "-m", "kniffel", "solve", "--rules", "yahtzee", "--force",
            "--cache-dir", str(tmp_path), "--lang", "en"]
    piped = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    assert "254.5896" in piped
    assert "━" not in piped
    assert "%" not in piped
    leader, follower = pty.openpty()
    env = {**os.environ, "TERM": "xterm", "COLUMNS": "100"}
    done = subprocess.run(args, stdout=follower, stderr=follower, env=env, check=True)
    os.close(follower)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal closed
            break
        if not chunk:
            break
        seen += chunk
    os.close(leader)
    text = seen.decode("utf-8", "replace")
    assert done.returncode == 0
    assert "━" in text
    assert "100%" in text
    assert "359,424" in text
    assert "254.5896" in text


def test_cli_solve_max_open_and_gpu_refusal(tmp_path: Path) -> None:
    res = CliRunner().invoke(main, ["solve", "--rules", "extreme", "--max-open", "1",
                                    "--cache-dir", str(tmp_path)])
    assert res.exit_code == 0, res.output
    assert "höchstens 1" in res.output
    assert (tmp_path / "extreme-open1.table").exists()
    gpu = CliRunner().invoke(main, ["solve", "--device", "gpu"])
    assert gpu.exit_code == 2
    assert "GPU" in gpu.output


def test_cli_advise_ranks_keeps_and_scores(tmp_path: Path) -> None:
    CliRunner().invoke(main, ["solve", "--rules", "yahtzee", "--cache-dir", str(tmp_path)])
    res = CliRunner().invoke(main, ["advise", "--rules", "yahtzee", "--cache-dir", str(tmp_path),
                                    "--json", "--top", "0", "1", "3", "3", "5", "6"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["options"][0]["action"] == {"type": "throw", "keep": [3, 3], "keep_d10": None}
    assert data["options"][0]["expected"] == pytest.approx(251.40724413, abs=1e-6)
    assert [o["loss"] for o in data["options"]] == sorted(o["loss"] for o in data["options"])


def test_cli_advise_extreme_endgame_and_bad_input(tmp_path: Path) -> None:
    filled = ",".join(f"{b.value}=-" for b in EXTREME.boxes
                      if b not in (Box.CHANCE, Box.SUPER_CHANCE))
    res = CliRunner().invoke(main, ["advise", "--filled", filled, "--chips", "1",
                                    "--rolls-used", "3", "--cache-dir", str(tmp_path),
                                    "--lang", "en", "6", "6", "6", "6", "5", "9"])
    assert res.exit_code == 0, res.output
    assert "Super chance" in res.output or "Super Chance" in res.output
    bad = CliRunner().invoke(main, ["advise", "--filled", "fives=7", "--cache-dir",
                                    str(tmp_path), "--lang", "en", "1", "2", "3", "4", "5", "6"])
    assert bad.exit_code == 2
    assert "Fives cannot hold 7 points" in bad.output
    # far from the end no table covers the sheet: the expert's estimate (tests/test_advise_cli.py)
    far = CliRunner().invoke(main, ["advise", "--cache-dir", str(tmp_path), "--json", "1", "2",
                                    "3", "4", "5", "6"])
    assert far.exit_code == 0, far.output
    assert json.loads(far.output)["source"] == "model"


def test_tables_number_every_hand_and_keep_like_the_engine() -> None:
    t = build_tables(EXTREME)
    assert t.nh == 2520
    assert len(t.multisets) == 462
    seen = {t.hand_index(r) for r, _ in outcomes(Keep(), d10=True)}
    assert seen == set(range(2520))
    assert abs(t.p0.sum() - 1) < 1e-12
    keeps = {t.keep_index(k) for r, _ in outcomes(Keep(), d10=True) for k in sub_keeps(r)}
    assert len(keeps) == 462 * 11


def test_cli_advise_reads_the_position_of_a_saved_game(tmp_path: Path) -> None:
    from kniffel.engine.game import Outcome
    from kniffel.storage import save_game

    game = Game(YAHTZEE, ["Anna"], seed=3)
    game.apply(Throw())
    game.apply(Outcome(Roll((2, 2, 2, 5, 6))))
    game.apply(Throw(Keep((2, 2, 2))))
    game.apply(Outcome(Roll((2, 2, 2, 2, 6))))
    save = tmp_path / "game.json"
    save_game(game, save)
    CliRunner().invoke(main, ["solve", "--rules", "yahtzee", "--cache-dir", str(tmp_path)])
    res = CliRunner().invoke(main, ["advise", "--game", str(save), "--cache-dir", str(tmp_path),
                                    "--json", "--top", "0"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    actions = [o["action"] for o in data["options"]]
    assert {"type": "throw", "keep": [2, 2, 2, 2], "keep_d10": None} in actions
    assert {"type": "score", "box": "twos"} in actions
    assert all(a["type"] != "chip" for a in actions)
    pos = Position.from_game(game)
    assert pos.rolls_used == 2
    best = OptimalStrategy(YAHTZEE, directory=tmp_path).choose(game, random.Random(0))
    assert best == advise(pos, directory=tmp_path).best.action


@pytest.mark.solve
def test_optimal_joins_the_strategies_of_simulate_and_is_deterministic(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kniffel.engine.strategy import strategy_names

    monkeypatch.setenv("KNIFFEL_CACHE_DIR", str(tmp_path))
    assert "optimal" in strategy_names()
    args = ["simulate", "--rules", "yahtzee", "--strategy", "optimal", "--games", "40",
            "--seed", "5", "--json"]
    first = CliRunner().invoke(main, args)
    assert first.exit_code == 0, first.output
    again = CliRunner().invoke(main, args)
    a, b = json.loads(first.stdout), json.loads(again.stdout)
    assert a["totals"] == b["totals"]
    assert a["strategy"] == "optimal"
    assert 200 < a["mean"] < 310
    assert (tmp_path / "yahtzee.table").exists(), "the classic table is built once and kept"


def test_simulate_and_play_refuse_the_optimal_extreme_player_without_its_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KNIFFEL_CACHE_DIR", str(tmp_path))
    res = CliRunner().invoke(main, ["simulate", "--rules", "extreme", "--strategy", "optimal",
                                    "--games", "2"])
    assert res.exit_code == 2
    assert "kniffel solve --rules extreme" in res.output
    res = CliRunner().invoke(main, ["play", "--db", str(tmp_path / "h.db"), "--player", "Anna",
                                    "--player", "Bot:optimal"])
    assert res.exit_code == 2
    assert "kniffel solve --rules extreme" in res.output


# --- the sample of a table (what the expert's value model is fitted to) ----------------------


def test_a_sample_holds_every_state_of_the_sets_it_draws_with_their_values() -> None:
    from kniffel.solver.sample import draw_sample

    table = solve_in_memory(preset("extreme"), max_open=2)
    t = table.tables
    sample = draw_sample(table, per_layer=20, seed=3)
    masks = sorted(set(sample.mask.tolist()))
    open_counts = [t.nb - bin(m).count("1") for m in masks]
    # at most 20 sets per number of open boxes; the layers with fewer sets are all there
    assert open_counts.count(0) == 1
    assert open_counts.count(1) == 20
    assert open_counts.count(2) == 20
    for m in masks:
        rows = np.nonzero(sample.mask == m)[0]
        assert len(rows) == table.layout.lanes(m)
        for r in rows:
            # -1 is the solver's merged state "bonus out of reach" (its upper_state of -1 too)
            k = t.upper_state(m & 63, int(sample.upper[r]))
            want = np.float32(table.value(m, k, int(sample.extra[r])))  # stored as float32
            assert float(want) == float(sample.value[r])
    assert set(sample.extra.tolist()) == {0, 1, 2, 3}


def test_a_sample_round_trips_and_a_damaged_or_foreign_one_is_refused(tmp_path: Path) -> None:
    from kniffel.solver.sample import (
        SAMPLE_VERSION,
        Sample,
        draw_sample,
        read_sample,
        write_sample,
    )

    sample = draw_sample(solve_in_memory(KNIFFEL, max_open=2), per_layer=5)
    path = tmp_path / "k.sample.npz"
    write_sample(sample, path)
    again = read_sample(path)
    assert np.array_equal(again.value, sample.value)
    assert np.array_equal(again.mask, sample.mask)
    assert again.meta == sample.meta
    assert again.count is None
    counts = np.arange(len(sample.value), dtype=np.int32)
    counted = Sample(sample.mask, sample.upper, sample.extra, sample.value, sample.meta, counts)
    write_sample(counted, tmp_path / "k.visits.npz")
    back = read_sample(tmp_path / "k.visits.npz")
    assert back.count is not None
    assert np.array_equal(back.count, counts)
    assert "visited" in repr(back)
    path.write_bytes(b"not a sample")
    with pytest.raises(SolverError) as damaged:
        read_sample(path)
    assert damaged.value.code == "solver.sample_unreadable"
    meta = dict(sample.meta, version=SAMPLE_VERSION + 1)
    np.savez_compressed(path, mask=sample.mask, upper=sample.upper, extra=sample.extra,
                        value=sample.value, meta=np.array(json.dumps(meta)))
    with pytest.raises(SolverError) as foreign:
        read_sample(path)
    assert foreign.value.code == "solver.sample_version"


def test_the_c_kernel_reads_the_parameters_by_the_names_and_order_of_the_tables() -> None:
    import re

    from kniffel.solver import tables

    source = (Path(tables.__file__).parent / "_kernel.c").read_text()
    enum = re.search(r"enum \{([^}]*)\}", source)
    assert enum is not None
    names = [n.strip() for n in enum.group(1).split(",") if n.strip()]
    for index, name in enumerate(names):
        assert getattr(tables, name) == index, name
    assert len(names) == len(build_tables(KNIFFEL).params)
