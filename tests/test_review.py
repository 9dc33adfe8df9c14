"""Tests of `kniffel review`: every decision of a game against the optimal choice."""

from __future__ import annotations

import json
import random
import re
from decimal import Decimal
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from kniffel.cli import main
from kniffel.engine import expert as expert_module
from kniffel.engine import expert_model
from kniffel.engine.dice import Keep, Roll
from kniffel.engine.errors import IllegalMoveError
from kniffel.engine.expert import Expert
from kniffel.engine.expert_model import (
    MODEL_FORMAT,
    MODEL_VERSION,
    ValueModel,
    model_from_json,
    params_digest,
)
from kniffel.engine.game import Game, Mode, Outcome, Score, Strike, Throw
from kniffel.engine.match import Match
from kniffel.engine.messages import number
from kniffel.engine.review import LuckSkill, review_game
from kniffel.engine.rules import Box, Lang, preset
from kniffel.engine.strategy import get_strategy
from kniffel.engine.values import TableValues
from kniffel.history import History
from kniffel.solver.review import review
from kniffel.solver.solve import solve
from kniffel.storage import save_game

FREE = preset("kniffel", free_strike=True)


def _last_turn_game() -> Game:
    """Classic Kniffel with free strikes: every box but chance struck in the first 12 turns,
    then a last turn of 1 1 1 1 2 (keeps the four ones), 1 1 1 1 6, and scores chance."""
    game = Game(FREE, ["Anna"], seed=1)
    for box in FREE.boxes:
        if box is Box.CHANCE:
            continue
        game.apply(Throw())
        game.apply(Outcome(Roll((1, 2, 3, 4, 6))))
        game.apply(Strike(box))
    game.apply(Throw())
    game.apply(Outcome(Roll((1, 1, 1, 1, 2))))
    game.apply(Throw(Keep((1, 1, 1, 1))))
    game.apply(Outcome(Roll((1, 1, 1, 1, 6))))
    game.apply(Score(Box.CHANCE))
    return game


# With only chance open, a die thrown once more is worth 3.5 on average; with two throws left
# it is kept from 4 up (4, 5, 6: 5 on average), else thrown again: 1/2 · 5 + 1/2 · 3.5 = 4.25.
# After 1 1 1 1 2 with two throws left the best is to throw all five dice: 5 · 4.25 = 21.25.
# Keeping the four ones throws one die, and the last throw may take up every die again: a 6
# keeps the 6 (6 + 4 · 3.5 = 20), a 5 or 4 keeps it (19, 18), a 1–3 throws all five (17.5):
# (3 · 17.5 + 18 + 19 + 20) / 6 = 18.25, a loss of 3. After 1 1 1 1 6 with one throw left the
# best is to keep the 6: 6 + 4 · 3.5 = 20; scoring chance now gives 10, a loss of 10.


def test_review_finds_the_hand_computed_losses_of_the_last_turn(tmp_path: Path) -> None:
    result = review(_last_turn_game(), directory=tmp_path, build=True)
    assert not result.uncovered
    last = result.decisions[-2:]
    assert [d.taken.action for d in last] == [Throw(Keep((1, 1, 1, 1))), Score(Box.CHANCE)]
    assert last[0].best.action == Throw()
    assert last[0].taken.expected - last[0].position.score_so_far == pytest.approx(18.25,
                                                                                  abs=1e-9)
    assert last[0].loss == pytest.approx(3.0, abs=1e-9)
    assert last[1].best.action == Throw(Keep((6,)))
    assert last[1].loss == pytest.approx(10.0, abs=1e-9)
    assert last[1].best.expected - last[1].taken.expected == pytest.approx(10.0, abs=1e-9)
    assert all(d.round == 13 for d in last)


def test_review_totals_and_ranks_every_decision(tmp_path: Path) -> None:
    result = review(_last_turn_game(), directory=tmp_path, build=True)
    assert len(result.decisions) == 12 + 2, "each strike and both decisions of the last turn"
    assert result.total_loss() == pytest.approx(sum(d.loss for d in result.decisions))
    assert result.total_loss(0) == result.total_loss()
    costly = result.costliest(3)
    assert len(costly) == 3
    assert [d.loss for d in costly] == sorted((d.loss for d in result.decisions),
                                              reverse=True)[:3]
    assert all(d.loss >= 0 for d in result.decisions)


def test_review_of_an_extreme_game_far_from_the_end_says_which_table_is_missing(
    tmp_path: Path,
) -> None:
    game = Game(preset("extreme"), ["Anna"], seed=2)
    game.apply(Throw())
    game.apply(Outcome(Roll((6, 6, 6, 2, 1), d10=3)))
    game.apply(Score(Box.SIXES))
    result = review(game, directory=tmp_path, expert=False)
    assert not result.decisions
    assert len(result.uncovered) == 1
    assert "kniffel solve --rules extreme" in result.uncovered[0].reason


def test_review_refuses_a_score_pad_game() -> None:
    with pytest.raises(IllegalMoveError, match="dice mode"):
        review(Game(FREE, ["Anna"], mode=Mode.PAD))


def test_cli_review_of_a_save_file_and_of_a_history_game(tmp_path: Path) -> None:
    game = _last_turn_game()
    save = tmp_path / "game.json"
    save_game(game, save)
    cache = str(tmp_path / "cache")
    res = CliRunner().invoke(main, ["review", str(save), "--cache-dir", cache, "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["decisions"][-1]["loss"] == pytest.approx(10.0, abs=1e-6)
    assert data["decisions"][-1]["best"] == {"type": "throw", "keep": [6], "keep_d10": None}
    assert len(data["costliest"]) == 3
    db = tmp_path / "h.db"
    with History(db) as h:
        gid = h.start(game)
    res = CliRunner().invoke(main, ["review", "--history", str(gid), "--db", str(db),
                                    "--cache-dir", cache, "--lang", "en"])
    assert res.exit_code == 0, res.output
    assert "Anna: 14 decisions, " in res.output
    assert "points given away in all" in res.output
    assert "costliest" in res.output
    none = CliRunner().invoke(main, ["review"])
    assert none.exit_code == 2
    assert "Gib eine Spielstand-Datei oder --history ID an." in none.output
    assert "give a save file" not in none.output


# --- the expert where no table covers a position (issue 12) ------------------------------------

EXTREME = preset("extreme")


def _model() -> ValueModel:
    """A small value model of the expert's form (not fitted: the review only needs one)."""
    nb = 22
    params = {"layer": [[2.0 * x + 10.0 * n for x in range(4)] for n in range(nb + 1)],
              "box": [[float(b) for b in range(nb)] for _ in range(nb + 1)],
              "chip": [[[0.0] * 4 for _ in range(nb)] for _ in range(nb + 1)],
              "pair": [[[0.0] * nb for _ in range(nb)] for _ in range(nb + 1)],
              "upper": [[[[0.5 * k, 0.0]] * 4 for k in range(75)] for _ in range(64)],
              "upper_lower": [[[0.0] * 17 for _ in range(75)] for _ in range(64)]}
    return model_from_json(EXTREME, {"format": MODEL_FORMAT, "version": MODEL_VERSION,
                                     "rules": repr(EXTREME), "params": params,
                                     "sha256": params_digest(params)})


def _extreme_game() -> Game:
    game = Game(EXTREME, ["Anna"], seed=2)
    game.apply(Throw())
    game.apply(Outcome(Roll((6, 6, 6, 2, 1), d10=3)))
    game.apply(Throw(Keep((6, 6, 6))))
    game.apply(Outcome(Roll((6, 6, 6, 6, 1), d10=6)))
    game.apply(Score(Box.SIXES))
    return game


def test_review_falls_back_to_the_expert_where_no_table_covers_and_says_so(
        tmp_path: Path) -> None:
    model = _model()
    expert = Expert(EXTREME, values=model)
    result = review(_extreme_game(), directory=tmp_path, expert=expert)
    assert not result.uncovered
    assert [d.source for d in result.decisions] == ["model", "model"]
    assert result.by_source() == {"model": 2}
    alone = review_game(_extreme_game(), expert=expert)
    assert [(d.taken, d.best, d.loss) for d in alone.decisions] == [
        (d.taken, d.best, d.loss) for d in result.decisions]


def test_review_without_table_or_model_lists_the_decision_with_both_reasons(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(expert_model, "model_bytes", lambda rules: None)
    # an expert built by an earlier test still holds the model: without the model there is none
    expert_model.load_model.cache_clear()
    expert_module._expert.cache_clear()
    try:
        result = review(_extreme_game(), directory=tmp_path)
    finally:
        expert_model.load_model.cache_clear()
        expert_module._expert.cache_clear()
    assert not result.decisions
    assert len(result.uncovered) == 2
    reason = result.uncovered[0].reason
    assert "kniffel solve --rules extreme" in reason
    assert "fit_expert_model.py" in reason


def test_the_experts_review_of_a_classic_game_equals_the_exact_review(tmp_path: Path) -> None:
    game = _last_turn_game()
    exact = review(game, directory=tmp_path, build=True)
    values = TableValues(FREE, (tmp_path / "kniffel-free-strike.table").read_bytes())
    mine = review_game(game, expert=Expert(FREE, values=values, use_numpy=False))
    assert [d.index for d in mine.decisions] == [d.index for d in exact.decisions]
    for a, b in zip(mine.decisions, exact.decisions, strict=True):
        assert a.loss == pytest.approx(b.loss, abs=1e-9)
        assert a.taken.action == b.taken.action
        assert a.source == b.source == "table"
    assert mine.total_loss() == pytest.approx(exact.total_loss(), abs=1e-9)


def test_cli_review_says_which_decisions_the_expert_judged(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    model = _model()
    monkeypatch.setattr(expert_module, "values_for", lambda rules, build=True: model)
    expert_module._expert.cache_clear()
    save = tmp_path / "game.json"
    save_game(_extreme_game(), save)
    cache = str(tmp_path / "cache")
    try:
        res = CliRunner().invoke(main, ["review", str(save), "--cache-dir", cache, "--lang",
                                        "de"])
        data = CliRunner().invoke(main, ["review", str(save), "--cache-dir", cache, "--json"])
    finally:
        expert_module._expert.cache_clear()
    assert res.exit_code == 0, res.output
    assert "2 Entscheidungen deckt keine genaue Wertetabelle ab" in res.output
    assert "≈" in res.output
    assert json.loads(data.output)["sources"] == {"model": 2}


# --- the review a person reads (issue 19) ------------------------------------------------------

NARROW = {"COLUMNS": "80", "NO_COLOR": "1", "LC_ALL": None, "LANG": None}
#: A row of the decisions table: the round, then the throw ("2." / "2", or the chip).
ROW = re.compile(r"^\s*\d+\s+(\d\.?|Chip|chip)\s+\d")


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache folder holding the (small, quickly built) table of Kniffel with free strikes."""
    folder = tmp_path_factory.mktemp("tables")
    solve(FREE, directory=folder)
    return folder


def _three_player_game() -> Game:
    """Anna and Cleo play greedily, Ben at random (fixed seeds): every one of them loses
    points, Ben the most."""
    game = Game(FREE, ["Anna", "Ben", "Cleo"], seed=19)
    greedy = get_strategy("greedy", FREE)
    Match(game, strategies={0: greedy, 1: get_strategy("random", FREE), 2: greedy},
          rng=random.Random(5)).play_out()
    assert game.is_over()
    return game


def _cli_review(save: Path, tables: Path, *more: str) -> str:
    res = CliRunner().invoke(main, ["review", str(save), "--cache-dir", str(tables), *more],
                             env=NARROW)
    assert res.exit_code == 0, res.output
    return res.stdout


def _sections(output: str, names: list[str]) -> dict[str, list[str]]:
    """The lines of each player's section (from the player's own total line on)."""
    out: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in output.splitlines():
        head = next((n for n in names if line.startswith(f"{n}: ")
                     and ("Entscheidungen," in line or "decisions," in line)), None)
        if head is not None:
            current = out.setdefault(head, [])
        if current is not None:
            current.append(line)
    return out


def test_cli_review_at_80_columns_shows_each_player_their_own_total_and_costliest_decisions(
        tmp_path: Path, tables: Path) -> None:
    game = _three_player_game()
    save = save_game(game, tmp_path / "game.json")
    result = review(game, directory=tables)
    names = [p.name for p in game.players]
    output = _cli_review(save, tables, "--lang", "de")
    assert all(len(line) <= 80 for line in output.splitlines())
    sections = _sections(output, names)
    assert list(sections) == names
    whole_table = [d.index for d in result.costliest(3)]
    differs = False
    for i, name in enumerate(names):
        lines = sections[name]
        own = [d for d in result.decisions if d.player == i]
        assert lines[0] == (f"{name}: {len(own)} Entscheidungen, zusammen "
                            f"{number(result.total_loss(i), 'de', 2)} Punkte verschenkt")
        mine = sorted(own, key=lambda d: (-d.loss, d.index))[:3]
        assert lines[1] == "Die teuersten Entscheidungen (Verlust in Punkten):"
        # the costliest in points (two decimals), not those for the chance to win ("−4,1 Pp.")
        costly = [line for line in lines if re.match(r"^\s+−\d+,\d\d\s", line)]
        for line, d in zip(costly, mine, strict=True):
            assert line.split()[:3] == [f"−{number(d.loss, 'de', 2)}", "Runde", f"{d.round},"]
            assert f"{d.position.rolls_used}. Wurf" in line
        differs |= [d.index for d in mine] != whole_table
        rows = [line for line in lines if ROW.match(line)]
        assert len(rows) == sum(d.loss >= 0.5 for d in own), "only who lost half a point"
    assert differs, "each player sees their own costliest decisions, not the table's"
    assert not re.search(r"\d\.\d", output), "a German reader never sees a decimal point"
    assert re.search(r"\d,\d\d\b", output)
    hidden = sum(d.loss < 0.5 for d in result.decisions)
    assert f"{hidden} Entscheidungen, die weniger als 0,5 Punkte kosteten" in " ".join(
        output.split())
    every = _cli_review(save, tables, "--lang", "de", "--all")
    assert len(output.splitlines()) < len(every.splitlines())
    assert len([line for line in every.splitlines() if ROW.match(line)]) == len(
        result.decisions), "--all shows every decision"
    # the hidden decisions' rows are what --all adds (the costliest lists, in points and for the
    # chance to win, are the same)
    assert len(every.splitlines()) - len(output.splitlines()) >= hidden


def test_cli_review_in_english_writes_english_numbers_and_words(
        tmp_path: Path, tables: Path) -> None:
    game = _three_player_game()
    save = save_game(game, tmp_path / "game.json")
    result = review(game, directory=tables)
    output = _cli_review(save, tables, "--lang", "en")
    for i, player in enumerate(game.players):
        assert (f"{player.name}: {sum(d.player == i for d in result.decisions)} decisions, "
                f"{number(result.total_loss(i), 'en', 2)} points given away in all") in output
    assert "The costliest decisions (points lost):" in output
    assert not re.search(r"\d,\d\d\b", output)
    for german in ("Runde", "Punkte", "Entscheidungen", "Wurf"):
        assert german not in output


def test_cli_review_json_keeps_every_decision_at_full_precision_and_adds_each_players_own(
        tmp_path: Path, tables: Path) -> None:
    game = _three_player_game()
    save = save_game(game, tmp_path / "game.json")
    result = review(game, directory=tables)
    data = json.loads(_cli_review(save, tables, "--json"))
    assert {"rules", "decisions", "sources", "uncovered", "total_loss",
            "costliest"} <= data.keys()
    assert len(data["decisions"]) == len(result.decisions)
    assert [d["loss"] for d in data["decisions"]] == [round(d.loss, 6) for d in result.decisions]
    assert any(round(d["loss"], 2) != d["loss"] for d in data["decisions"])
    assert data["costliest"] == [d.index for d in result.costliest(3)]
    assert data["total_loss"] == {p.name: round(result.total_loss(i), 6)
                                  for i, p in enumerate(game.players)}
    for i, entry in enumerate(data["players"]):
        own = sorted((d for d in result.decisions if d.player == i),
                     key=lambda d: (-d.loss, d.index))
        assert entry["name"] == game.players[i].name
        assert entry["costliest"] == [d.index for d in own[:3]]
        assert entry["decisions"] == len(own)
    assert {d["throw"] for d in data["decisions"]} <= {1, 2, 3}
    first = data["decisions"][0]
    assert {"index", "player", "round", "roll", "taken", "taken_text", "best", "best_text",
            "loss", "source", "throw", "chip_used"} <= first.keys()


def test_cli_review_names_the_decisions_not_judged_in_the_players_language_only(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(expert_model, "model_bytes", lambda rules: None)
    monkeypatch.setattr(expert_model, "load_model", expert_model.load_model.__wrapped__)
    expert_module._expert.cache_clear()
    save = save_game(_extreme_game(), tmp_path / "game.json")
    cache = str(tmp_path / "cache")
    german = CliRunner().invoke(main, ["review", str(save), "--cache-dir", cache], env=NARROW)
    english = CliRunner().invoke(main, ["review", str(save), "--cache-dir", cache, "--lang",
                                        "en"], env=NARROW)
    data = json.loads(CliRunner().invoke(main, ["review", str(save), "--cache-dir", cache,
                                                "--json"]).stdout)
    assert german.exit_code == 0, german.output
    de = " ".join(german.stdout.split())
    assert "2 Entscheidungen ohne Bewertung: Für Kniffel Extreme" in de
    assert "hat der Experte noch kein Wertemodell" in de
    assert "Anna: keine Entscheidung bewertet" in de
    for english_word in ("decisions not judged", "no value table", "the expert has no"):
        assert english_word not in de
    en = " ".join(english.stdout.split())
    assert "2 decisions not judged: There is no value table of Kniffel Extreme" in en
    assert "Anna: no decision judged" in en
    assert "kniffel solve --rules extreme" in data["uncovered"][0]["reason"]
    assert "Wertetabelle" in data["uncovered"][0]["why"]


# --- the split and the costliest decisions, computed and rounded once (issue 33) -------------


@settings(max_examples=300, deadline=None)
@given(final=st.integers(0, 1600), expected=st.floats(0, 1000), skill=st.floats(0, 600))
def test_a_shown_split_adds_up_to_the_final_total_and_rounds_each_number_at_most_a_tenth(
        final: int, expected: float, skill: float) -> None:
    split = LuckSkill(0, expected, final, skill, final - expected + skill)
    shown = split.shown()
    tenths = [Decimal(f"{v:.1f}") for v in (shown.expected, shown.skill, shown.luck)]
    assert tenths[0] - tenths[1] + tenths[2] == final
    assert (shown.final, shown.expected, shown.skill) == (final, round(expected, 1),
                                                          round(skill, 1))
    assert abs(shown.luck - split.luck) <= 0.1 + 1e-9


def test_shown_luck_is_the_rest_of_the_shown_numbers_where_rounding_it_alone_misses_a_tenth(
) -> None:
    # 221 = 248.076… − 13.927… − 13.149…: rounded one by one 248.1 − 13.9 − 13.1 = 221.1
    split = LuckSkill(0, 248.0761494649385, 221, 13.927040049102487, -13.149109415836023)
    assert round(split.luck, 1) == -13.1
    assert split.shown() == LuckSkill(0, 248.1, 221, 13.9, -13.2)


def test_a_players_costliest_decisions_are_their_own_dearest_ones_dearest_first(
        tables: Path) -> None:
    result = review(_three_player_game(), directory=tables)
    for player in range(3):
        own = [d for d in result.decisions if d.player == player]
        costly = result.costliest(3, player)
        assert len(costly) == 3  # every player gives points away
        assert all(d.player == player and d.loss > 0 for d in costly)
        assert [d.loss for d in costly] == sorted((d.loss for d in costly), reverse=True)
        assert all(d.loss <= costly[-1].loss for d in own if d not in costly)
    everyone = result.costliest(3)
    assert all(d.loss <= everyone[-1].loss for d in result.decisions if d not in everyone)
    assert result.costliest(3, 5) == ()  # no such player: no decisions


@pytest.mark.parametrize("width", [50, 60])
def test_cli_review_in_a_narrow_terminal_cuts_no_word_and_keeps_every_row(
        tmp_path: Path, tables: Path, width: int) -> None:
    # a new player at 60 columns read "Dreierpa… 28 Punkte": the box's name is what a row is
    # read for; the choices' words wrap, and a word wider than its column folds
    game = _three_player_game()
    save = save_game(game, tmp_path / "game.json")
    res = CliRunner().invoke(main, ["review", str(save), "--cache-dir", str(tables), "--all",
                                    "--lang", "de"], env={**NARROW, "COLUMNS": str(width)})
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert "…" not in res.stdout
    assert all(len(line.rstrip()) <= width for line in lines)
    result = review(game, directory=tables)
    # a row starts at the left (its round), a wrapped line of it far to the right
    rows = [line for line in lines if re.match(r"^ {0,6}\d+ +(\d\.?|Chip|chip) +\d", line)]
    assert len(rows) == len(result.decisions)


# --- the chance to win beside the points (issue 41) -----------------------------------------------


def test_a_review_of_a_game_of_several_judges_each_decision_by_its_chance_to_win_too(
        tables: Path) -> None:
    from kniffel.engine.advice import Position
    from kniffel.engine.winning import win_advisor

    game = _three_player_game()
    result = review(game, directory=tables)
    assert result.judges_wins
    advisor = win_advisor(FREE)
    for d in result.decisions:
        assert d.win_best is not None
        assert d.win_taken is not None
        assert 0 <= d.win_taken <= d.win_best.win + 1e-9
        assert d.win_loss == max(0.0, d.win_best.win - d.win_taken)
        if d.taken.action == d.win_best.action:
            assert d.win_loss == 0
    # one decision judged again by hand: the replayed position's own win advice
    dearest = result.costliest_for_win(1)[0]
    replay = game.at_start()
    for action in game.actions[:dearest.index]:
        replay.apply(action)
    advice = advisor.advise(replay, Position.from_game(replay))
    taken = next(o for o in advice.options if o.action == game.actions[dearest.index])
    assert dearest.win_taken == pytest.approx(taken.win)
    assert dearest.win_best == advice.for_win
    assert dearest.win_loss > 0.01  # Ben, playing at random, gives chances away
    assert result.total_win_loss(1) > result.total_win_loss(0)


def test_a_review_without_the_chances_or_of_a_solitaire_game_judges_the_points_alone(
        tables: Path) -> None:
    game = _three_player_game()
    assert not review(game, directory=tables, to_win=False).judges_wins
    alone = Game(FREE, ["Anna"], seed=3)
    Match(alone, strategies={0: get_strategy("greedy", FREE)}, rng=random.Random(1)).play_out()
    result = review(alone, directory=tables)
    assert not result.judges_wins
    assert all(d.win_loss == 0 for d in result.decisions)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_cli_review_says_what_each_decision_cost_in_chance_to_win_beside_its_points(
        tmp_path: Path, tables: Path, lang: Lang) -> None:
    game = _three_player_game()
    save = save_game(game, tmp_path / "game.json")
    result = review(game, directory=tables)
    output = _cli_review(save, tables, "--lang", lang)
    flat = " ".join(output.split())
    assert all(len(line) <= 80 for line in output.splitlines())
    dearest = result.costliest_for_win(1, 1)[0]  # Ben's
    pp = number(100 * dearest.win_loss, lang, 1)
    if lang == "de":
        assert "Die teuersten Entscheidungen für die Gewinnchance (Verlust in Prozentpunkten):" \
            in output
        assert f"−{pp} Pp. Runde {dearest.round}," in flat
        assert "Prozentpunkte Gewinnchance" in flat
        assert "Sieg: wie viele Prozentpunkte Gewinnchance" in flat
    else:
        assert "The costliest decisions for the chance to win (loss in percentage points):" \
            in output
        assert f"−{pp} pp round {dearest.round}," in flat
        assert "percentage points of winning chance" in flat
    solitaire = Game(FREE, ["Anna"], seed=3)
    Match(solitaire, strategies={0: get_strategy("greedy", FREE)},
          rng=random.Random(1)).play_out()
    alone = _cli_review(save_game(solitaire, tmp_path / "alone.json"), tables, "--lang", lang)
    assert "Prozentpunkte" not in alone
    assert "percentage points" not in alone


def test_cli_review_json_carries_every_decisions_chance_to_win(
        tmp_path: Path, tables: Path) -> None:
    game = _three_player_game()
    save = save_game(game, tmp_path / "game.json")
    result = review(game, directory=tables)
    data = json.loads(_cli_review(save, tables, "--json"))
    for entry, d in zip(data["decisions"], result.decisions, strict=True):
        assert d.win_best is not None
        assert entry["win_taken"] == round(d.win_taken or 0, 6)
        assert entry["win_best"] == round(d.win_best.win, 6)
        assert entry["win_loss"] == round(d.win_loss, 6)
        assert entry["best_for_win_text"] == d.win_best.describe(FREE, "de")
    for i, player in enumerate(data["players"]):
        assert player["total_win_loss"] == round(result.total_win_loss(i), 6)
        assert player["costliest_for_win"] == [d.index for d in result.costliest_for_win(3, i)]
