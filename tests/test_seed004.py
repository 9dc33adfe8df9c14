"""Seed 004 ("Kniffel Anleitung") as it is written: the ``kniffel-anleitung`` preset.

Every test quotes the sentence of the seed it checks. Where the seed leaves a case open (a
Kniffel while the kniffel box is still open or after it was struck) the most literal reading is
taken and documented at :attr:`kniffel.engine.rules.ExtraKniffel.BONUS_ONLY`.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from kniffel.browser import advice_view
from kniffel.browser.view import meta
from kniffel.cli import main
from kniffel.engine.advice import Advice, Position
from kniffel.engine.dice import Roll
from kniffel.engine.expert import Expert
from kniffel.engine.game import Enter, Game, Mode, Outcome, Score, Strike, Throw
from kniffel.engine.rules import (
    CLASSIC_BOXES,
    PRESETS,
    Box,
    Choice,
    Entry,
    ExtraKniffel,
    StrikeRule,
    choices,
    describe,
    preset,
)
from kniffel.engine.strategy import get_strategy
from kniffel.engine.values import TableValues
from kniffel.solver import SolverError, solve, solve_in_memory
from kniffel.solver.advise import Advisor
from kniffel.solver.table import make_layout
from test_solver import BruteForce, _sheet_except, _solver_value

RULES = preset("kniffel-anleitung")
#: The expected final score of optimal play on the seed's rules (the solver's exact table).
OPTIMAL = 253.9702

# The seed's sentences, word for word.
SEED_DICE = ('"Kniffel" ist ein bekanntes Würfelspiel (auch bekannt als "Yatzee"), das mit 5 '
             'normalen Würfeln gespielt wird')
SEED_THROWS = ("Man würfelt abwechselnd, jede Person bis zu (maximal) 3 mal pro Runde")
SEED_STRIKE = ("Nach jeder Würfelrunde eines Spielers muss jener seinen Wurf werten lassen und "
               "die entsprechende Punktzahl in seine Punktetabelle eintragen; eine Alternative: "
               "will er nichts eintragen, kann er einen Wert streichen (0 Punkte)")
SEED_KNIFFEL = ("Kniffel - ein Fünfling (5 gleiche Augen); man erhält pauschal 50 Punkte und für "
                "jeden weiteren Kniffel nochmals 100 Punkte")
SEED_BONUS = ("Ist die Summe des oberen Blocks (1er - 6er) größer oder gleich 63, erhält man 35 "
              "Punkte zusätzlich, den sogenannten Bonus.")
SEED_STRAIGHT = ("Große Straße - 5 aufeinander folgende Zahlen (entweder 1-2-3-4-5 oder "
                 "2-3-4-5-6); man erhält pauschal 40 Punkte")


def roll(*values: int) -> Roll:
    return Roll(values)


def scored(entries: dict[Box, Entry], dice: Roll) -> dict[Box, int]:
    """The boxes ``dice`` can be scored in (not struck) on the sheet ``entries``."""
    return {c.box: c.points for c in choices(RULES, entries, dice) if not c.strike}


def take_turn(game: Game, dice: Roll, final: Score | Strike) -> None:
    game.apply(Throw())
    game.apply(Outcome(dice))
    game.apply(final)


# --- the sheet ---------------------------------------------------------------------------------


def test_seed004_is_played_with_five_d6_three_throws_and_the_thirteen_boxes() -> None:
    assert "5 normalen Würfeln" in SEED_DICE
    assert "bis zu (maximal) 3 mal" in SEED_THROWS
    assert RULES.dice_count == 5
    assert not RULES.d10
    assert RULES.rolls == 3
    assert RULES.chips == 0
    assert RULES.boxes == CLASSIC_BOXES
    assert [RULES.box_name(b) for b in RULES.boxes] == [
        "Einser", "Zweier", "Dreier", "Vierer", "Fünfer", "Sechser", "Dreierpasch",
        "Viererpasch", "Full House", "Kleine Straße", "Große Straße", "Kniffel", "Chance"]


def test_seed004_has_its_own_name_in_german_and_english() -> None:
    assert RULES.name == "kniffel-anleitung"
    assert RULES.title("de") == "Kniffel (Anleitung, ohne Joker)"
    assert RULES.title("en") == "Kniffel (rule sheet, no joker)"
    titles = {preset(n).title(lang) for n in PRESETS if n != RULES.name for lang in ("de", "en")}
    assert RULES.title("de") not in titles
    assert RULES.title("en") not in titles


# "<box> - <rule of the seed>", a roll that fits with its points, and one that does not fit
BOX_EXAMPLES = [
    ("1er - es wird das Vorkommen aller 1er eines Wurfes gezählt und mit 1 malgenommen",
     Box.ONES, roll(1, 1, 3, 4, 1), 3, roll(2, 3, 4, 5, 6)),
    ("2er - es wird das Vorkommen aller 2er eines Wurfes gezählt und mit 2 malgenommen",
     Box.TWOS, roll(2, 2, 5, 6, 1), 4, roll(1, 3, 4, 5, 6)),
    ("3er - es wird das Vorkommen aller 3er eines Wurfes gezählt und mit 3 malgenommen",
     Box.THREES, roll(3, 3, 3, 6, 1), 9, roll(1, 2, 4, 5, 6)),
    ("4er - es wird das Vorkommen aller 4er eines Wurfes gezählt und mit 4 malgenommen",
     Box.FOURS, roll(4, 2, 2, 1, 1), 4, roll(1, 2, 3, 5, 6)),
    ("5er - es wird das Vorkommen aller 5er eines Wurfes gezählt und mit 5 malgenommen",
     Box.FIVES, roll(5, 5, 5, 5, 2), 20, roll(1, 2, 3, 4, 6)),
    ("6er - es wird das Vorkommen aller 6er eines Wurfes gezählt und mit 6 malgenommen",
     Box.SIXES, roll(6, 6, 1, 2, 3), 12, roll(1, 2, 3, 4, 5)),
    ("Dreierpasch - Es werden, wenn es 3 gleiche Zahlen im Wurf gibt, alle Augen "
     "(=Würfelzahlen) addiert", Box.THREE_OF_A_KIND, roll(3, 3, 3, 5, 6), 20,
     roll(4, 4, 2, 2, 1)),
    ("Viererpasch - Es werden, wenn es 4 gleiche Zahlen im Wurf gibt, alle Augen "
     "(=Würfelzahlen) addiert", Box.FOUR_OF_A_KIND, roll(5, 5, 5, 5, 2), 22,
     roll(5, 5, 5, 2, 2)),
    ("Full House - Man braucht einen Drilling (3 gleiche Zahlen) und einen Zwilling (2 gleiche "
     "Zahlen); man erhält pauschal 25 Punkte", Box.FULL_HOUSE, roll(3, 3, 3, 6, 6), 25,
     roll(3, 3, 3, 6, 5)),
    ("Kleine Straße - 4 aufeinander folgende Zahlen (entweder 1-2-3-4, 2-3-4-5 oder 3-4-5-6); "
     "man erhält pauschal 30 Punkte", Box.SMALL_STRAIGHT, roll(3, 4, 5, 6, 6), 30,
     roll(1, 2, 3, 5, 6)),
    (SEED_STRAIGHT, Box.LARGE_STRAIGHT, roll(2, 3, 4, 5, 6), 40, roll(1, 2, 3, 4, 6)),
    (SEED_KNIFFEL, Box.KNIFFEL, roll(4, 4, 4, 4, 4), 50, roll(4, 4, 4, 4, 3)),
    ("Chance - es werden alle Augen addiert (sozusagen ein Joker)", Box.CHANCE,
     roll(1, 3, 4, 6, 6), 20, None),
]


@pytest.mark.parametrize(("sentence", "box", "fits", "points", "misses"), BOX_EXAMPLES,
                         ids=[b.value for _, b, _, _, _ in BOX_EXAMPLES])
def test_each_box_scores_what_the_seed_says_on_an_example_roll(
        sentence: str, box: Box, fits: Roll, points: int, misses: Roll | None) -> None:
    assert sentence  # the seed's rule for this box
    assert scored({}, fits)[box] == points
    if misses is not None:
        assert box not in scored({}, misses)


@pytest.mark.parametrize("dice", [roll(1, 2, 3, 4, 6), roll(2, 3, 4, 5, 5), roll(1, 3, 4, 5, 6)])
def test_every_small_straight_of_the_seed_scores_30(dice: Roll) -> None:
    """ "(entweder 1-2-3-4, 2-3-4-5 oder 3-4-5-6)" """
    assert scored({}, dice)[Box.SMALL_STRAIGHT] == 30


def test_both_large_straights_of_the_seed_score_40_and_score_as_a_small_straight_too() -> None:
    assert "(entweder 1-2-3-4-5 oder 2-3-4-5-6)" in SEED_STRAIGHT
    for dice in (roll(1, 2, 3, 4, 5), roll(2, 3, 4, 5, 6)):
        assert scored({}, dice)[Box.LARGE_STRAIGHT] == 40
        assert scored({}, dice)[Box.SMALL_STRAIGHT] == 30


# --- the bonus -------------------------------------------------------------------------------


@pytest.mark.parametrize(("ones", "bonus"), [(3, 35), (2, 0)])
def test_the_bonus_is_35_at_exactly_63_and_none_at_62(ones: int, bonus: int) -> None:
    assert "größer oder gleich 63, erhält man 35 Punkte zusätzlich" in SEED_BONUS
    game = Game(RULES, ["Anna"], mode=Mode.PAD)
    for box, points in zip(RULES.upper_boxes, (ones, 6, 9, 12, 15, 18), strict=True):
        game.apply(Enter(box, points))
    sheet = game.sheet(0)
    assert sheet.upper_sum == 60 + ones
    assert sheet.bonus == bonus
    assert sheet.total == 60 + ones + bonus


# --- further Kniffel, no joker ---------------------------------------------------------------


def test_a_second_kniffel_earns_100_more_and_a_third_another_100() -> None:
    assert "für jeden weiteren Kniffel nochmals 100 Punkte" in SEED_KNIFFEL
    game = Game(RULES, ["Anna"], seed=1)
    take_turn(game, roll(6, 6, 6, 6, 6), Score(Box.KNIFFEL))
    assert game.sheet(0).extra_bonus == 0
    take_turn(game, roll(6, 6, 6, 6, 6), Score(Box.SIXES))
    assert game.sheet(0).extra_bonus == 100
    take_turn(game, roll(2, 2, 2, 2, 2), Score(Box.CHANCE))
    sheet = game.sheet(0)
    assert sheet.extra_bonus == 200
    assert sheet.total == 50 + 30 + 10 + 200


def test_no_joker_a_further_kniffel_goes_only_where_it_fits_at_its_real_points() -> None:
    """The seed names no joker: a sixth 6-6-6-6-6 with Sechser filled is no Große Straße (not
    "5 aufeinander folgende Zahlen"), no Kleine Straße and no Full House; it fits Dreier- and
    Viererpasch and Chance, with the 100 for a further Kniffel."""
    entries = {Box.KNIFFEL: Entry(50), Box.SIXES: Entry(30)}
    sixes = roll(6, 6, 6, 6, 6)
    got = choices(RULES, entries, sixes)
    assert scored(entries, sixes) == {Box.THREE_OF_A_KIND: 30, Box.FOUR_OF_A_KIND: 30,
                                      Box.CHANCE: 30}
    assert {c.bonus for c in got} == {100}
    assert Choice(Box.LARGE_STRAIGHT, 40, bonus=100) not in got
    assert Choice(Box.LARGE_STRAIGHT, 0, strike=True, bonus=100) in got  # only struck
    # Hasbro's joker (the yahtzee preset) would score it there for 40
    assert Choice(Box.LARGE_STRAIGHT, 40, bonus=100) in choices(preset("yahtzee"), entries,
                                                                sixes)
    assert RULES.extra_kniffel is ExtraKniffel.BONUS_ONLY


def test_a_further_kniffel_with_its_upper_box_open_fits_there_too() -> None:
    entries = {Box.KNIFFEL: Entry(50)}
    assert scored(entries, roll(3, 3, 3, 3, 3)) == {
        Box.THREES: 15, Box.THREE_OF_A_KIND: 15, Box.FOUR_OF_A_KIND: 15, Box.CHANCE: 15}


def test_a_kniffel_while_the_box_is_open_or_struck_is_no_further_kniffel() -> None:
    """The seed leaves this open; read literally, "weiteren Kniffel" is one after the Kniffel that
    got "pauschal 50 Punkte": while the box is open, or after it was struck, there is none."""
    assert "pauschal 50 Punkte und für jeden weiteren Kniffel" in SEED_KNIFFEL
    fives = roll(5, 5, 5, 5, 5)
    assert {c.bonus for c in choices(RULES, {}, fives)} == {0}
    assert {c.bonus for c in choices(RULES, {Box.KNIFFEL: Entry(0, struck=True)}, fives)} == {0}
    game = Game(RULES, ["Anna"], seed=2)
    take_turn(game, fives, Score(Box.FIVES))  # the box stays open
    take_turn(game, fives, Strike(Box.KNIFFEL))  # a Kniffel may be struck, too
    take_turn(game, fives, Score(Box.CHANCE))
    assert game.sheet(0).extra_bonus == 0


def test_the_100_come_with_a_further_kniffel_however_it_is_entered_even_struck() -> None:
    game = Game(RULES, ["Anna"], seed=3)
    take_turn(game, roll(1, 1, 1, 1, 1), Score(Box.KNIFFEL))
    take_turn(game, roll(1, 1, 1, 1, 1), Strike(Box.LARGE_STRAIGHT))
    assert game.sheet(0).extra_bonus == 100
    assert game.sheet(0).entries[Box.LARGE_STRAIGHT] == Entry(0, struck=True)


# --- striking ----------------------------------------------------------------------------------


def test_any_open_box_may_be_struck_at_any_time_even_when_the_roll_fits() -> None:
    assert "will er nichts eintragen, kann er einen Wert streichen (0 Punkte)" in SEED_STRIKE
    assert RULES.strike is StrikeRule.FREE
    assert RULES.free_strike
    for dice in (roll(1, 2, 3, 4, 5), roll(6, 6, 6, 6, 6), roll(1, 1, 2, 4, 6)):
        struck = {c.box for c in choices(RULES, {}, dice) if c.strike}
        assert struck == set(RULES.boxes)
    game = Game(RULES, ["Anna"], seed=4)
    take_turn(game, roll(2, 3, 4, 5, 6), Strike(Box.LARGE_STRAIGHT))
    assert game.sheet(0).entries[Box.LARGE_STRAIGHT] == Entry(0, struck=True)


def test_the_free_strike_option_changes_nothing_on_seed004() -> None:
    assert preset("kniffel-anleitung", free_strike=True) == RULES


# --- where the preset is listed ----------------------------------------------------------------


@pytest.mark.parametrize("lang", ["de", "en"])
def test_kniffel_rules_lists_the_seed004_sheet_and_its_rules(lang: str) -> None:
    env: dict[str, str | None] = {"COLUMNS": "250", "NO_COLOR": "1", "LANG": None,
                                  "LC_ALL": None, "LC_MESSAGES": None}
    result = CliRunner().invoke(main, ["rules", "--rules", "kniffel-anleitung", "--lang", lang],
                                env=env)
    assert result.exit_code == 0, result.output
    de = lang == "de"
    assert RULES.title("de" if de else "en") in result.output
    lines = describe(RULES, "de" if de else "en")
    for line in lines:
        assert line in result.output
    extra = lines[-1]
    assert "100" in extra
    assert ("kein Joker" if de else "no joker") in extra
    assert ("jederzeit gestrichen" if de else "struck at any time") in result.output
    # the seed's own rule, not the championship's house rule
    assert ("Meisterschaft" if de else "championship") not in result.output


def test_the_command_line_offers_the_preset_and_names_it_in_its_help() -> None:
    assert "kniffel-anleitung" in PRESETS
    result = CliRunner().invoke(main, ["--help"], env={"COLUMNS": "250"})
    assert "kniffel-anleitung" in result.output


def test_the_browser_start_screen_offers_seed004_from_the_engine() -> None:
    presets = {p["name"]: p for p in meta()["presets"]}
    shown = presets["kniffel-anleitung"]
    assert shown["title"] == {"de": "Kniffel (Anleitung, ohne Joker)",
                              "en": "Kniffel (rule sheet, no joker)"}
    assert shown["free_strike"]
    assert not shown["free_strike_option"]  # striking is always free
    assert [b["id"] for b in shown["boxes"]] == [b.value for b in CLASSIC_BOXES]
    assert RULES in advice_view.browser_rule_sets()
    assert advice_view.table_file_name(RULES) == "kniffel-anleitung.table"
    assert advice_view.status_key(RULES) == "kniffel-anleitung"


# --- the exact table and the expert ------------------------------------------------------------


SMALL_GAMES = [
    # (open boxes, points of the filled boxes): further Kniffel with and without a fitting box
    ([Box.SIXES, Box.LARGE_STRAIGHT], {Box.KNIFFEL: 50, Box.FIVES: 25}),
    ([Box.FULL_HOUSE, Box.FOUR_OF_A_KIND], {Box.KNIFFEL: 50, Box.SIXES: 30, Box.FIVES: 25}),
    ([Box.KNIFFEL, Box.LARGE_STRAIGHT, Box.TWOS], {Box.SIXES: 24, Box.FIVES: 20}),
    ([Box.THREES, Box.SMALL_STRAIGHT], {Box.SIXES: 30, Box.FIVES: 25}),  # kniffel struck
]


@pytest.mark.parametrize(("open_boxes", "points"), SMALL_GAMES,
                         ids=["-".join(b.value for b in g[0]) for g in SMALL_GAMES])
@pytest.mark.solve
def test_the_solver_matches_brute_force_expectimax_on_seed004_endgames(
        open_boxes: list[Box], points: dict[Box, int]) -> None:
    entries = _sheet_except(RULES, open_boxes, points)
    expected = BruteForce(RULES).value(entries)
    assert _solver_value(RULES, entries) == pytest.approx(expected, abs=1e-9)


def test_a_kernel_built_before_the_seed004_rule_refuses_it_instead_of_solving_it_wrongly(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from kniffel.engine.messages import render
    from kniffel.solver import kernel
    from kniffel.solver.tables import build_tables

    assert kernel.extra_rules() >= 6  # this build knows the rule
    monkeypatch.setattr(kernel, "extra_rules", lambda: 0)  # a library from older sources
    layout = make_layout(build_tables(RULES), 0)
    with pytest.raises(SolverError) as refused:
        kernel.Prepared(build_tables(RULES), layout.base)
    assert refused.value.code == "solver.kernel_stale"
    assert "Kniffel (Anleitung, ohne Joker)" in render(refused.value, "de")
    kernel.Prepared(build_tables(preset("yahtzee")), layout.base)  # the older rules still run


@pytest.fixture(scope="module")
def table_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Seed 004's exact table, solved once into a scratch cache."""
    directory = tmp_path_factory.mktemp("seed004")
    solve(RULES, directory=directory)
    return directory


def test_the_exact_table_solves_and_gives_the_expected_score_of_optimal_play(
        table_dir: Path) -> None:
    table = solve(RULES, directory=table_dir)  # loaded, not solved again
    assert table.path == table_dir / "kniffel-anleitung.table"
    assert round(table.expected_score(), 4) == OPTIMAL
    assert solve_in_memory(RULES).expected_score() == table.expected_score()
    # between Hasbro's joker rules and the championship rules' restricted further Kniffel
    assert (solve_in_memory(preset("kniffel-championship")).expected_score()
            < table.expected_score() < 254.5896)


def _positions(games: int, seed: int) -> Iterator[Position]:
    rng = random.Random(seed)
    for g in range(games):
        game = Game(RULES, ["a"], seed=seed + g)
        strategy = get_strategy("random" if g % 2 else "greedy", RULES)
        while not game.is_over():
            if game.is_chance_node():
                game.apply(game.sample_outcome(rng))
                continue
            yield Position.from_game(game)
            game.apply(strategy.choose(game, rng))


FURTHER = [
    Position(RULES),
    Position(RULES, {Box.KNIFFEL: Entry(50), Box.SIXES: Entry(30)}, roll=roll(6, 6, 6, 6, 6),
             rolls_used=1),
    Position(RULES, {Box.KNIFFEL: Entry(50)}, roll=roll(2, 2, 2, 2, 2), rolls_used=3),
    Position(RULES, {Box.KNIFFEL: Entry(0, struck=True)}, roll=roll(4, 4, 4, 4, 4),
             rolls_used=2),
    Position(RULES, {Box.ONES: Entry(3)}, roll=roll(1, 1, 1, 1, 1), rolls_used=1),
]


def _same(a: Advice, b: Advice) -> None:
    mine = {o.action: o.expected for o in a.options}
    theirs = {o.action: o.expected for o in b.options}
    assert mine.keys() == theirs.keys()
    for action, expected in mine.items():
        assert expected == pytest.approx(theirs[action], abs=1e-9)
    assert b.options[[o.action for o in b.options].index(a.best.action)].loss == pytest.approx(
        0.0, abs=1e-9)


def test_the_expert_plays_exactly_on_the_seed004_table(table_dir: Path) -> None:
    path = table_dir / "kniffel-anleitung.table"
    expert = Expert(RULES, values=TableValues(RULES, path.read_bytes(), where=str(path)))
    exact = Advisor(RULES, directory=table_dir)
    assert expert.advise(Position(RULES)).best.expected == pytest.approx(OPTIMAL, abs=1e-4)
    count = 0
    for pos in [*FURTHER, *_positions(4, seed=4)]:
        _same(expert.advise(pos), exact.advise(pos))
        count += 1
    assert count > 150


@pytest.mark.solve
def test_the_site_ships_seed004s_exact_table_in_float32(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from kniffel.web.server import expert_tables

    monkeypatch.setenv("KNIFFEL_CACHE_DIR", str(tmp_path))
    expert_tables.cache_clear()  # built here, from the scratch cache
    try:
        tables = expert_tables()
    finally:
        expert_tables.cache_clear()
    data = tables["kniffel/browser/tables/kniffel-anleitung.table"]
    assert len(data) < 1.5e6
    values = TableValues(RULES, data)
    assert values.header["dtype"] == "<f4"
    assert values.future(0, 0, 0) == pytest.approx(OPTIMAL, abs=1e-3)
    assert (tmp_path / "kniffel-anleitung.table").exists()  # solved in the scratch cache
