"""The message catalog: every error code has German and English words, every place that raises
an error names a code of the catalog with the params its words need, and the German words are
German."""

from __future__ import annotations

import ast
import importlib
import io
import json
import pickle
import pkgutil
import random
import re
import zipfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kniffel
from kniffel.engine import catalog
from kniffel.engine.dice import Keep, Roll
from kniffel.engine.errors import (
    CorruptSaveError,
    IllegalMoveError,
    InvalidDiceError,
    KniffelError,
    dice_param,
)
from kniffel.engine.game import Action, Game, Outcome, Score, Strike, Throw, UseChip
from kniffel.engine.messages import (
    CATALOG,
    STRATEGY_NAMES,
    dice_text,
    fields,
    render,
    render_code,
    strategy_name,
)
from kniffel.engine.rules import Box, preset

SRC = Path(kniffel.__file__).parent
TUI = SRC / "tui"

#: Files whose errors are internal to the solver (a bug or a damaged table, never a player's
#: input): they may rely on their class's default code.
DEFAULT_CODE_FILES = {"solver/tables.py", "solver/table.py", "solver/kernel.py"}

#: Words that give away an English developer message inside a German sentence.
ENGLISH = re.compile(r"\b(the|must|cannot|got|is not|expected|allowed|already|throw|strike|"
                     r"score|game|file|roll)\b")


def _import_everything() -> None:
    for info in pkgutil.walk_packages([str(SRC)], prefix="kniffel."):
        if info.name == "kniffel.__main__":  # runs the command line
            continue
        try:
            importlib.import_module(info.name)
        except ImportError:  # an optional dependency (numba, textual) that is missing
            continue


def _error_classes() -> dict[str, type[KniffelError]]:
    _import_everything()
    found: dict[str, type[KniffelError]] = {}
    todo: list[type[KniffelError]] = [KniffelError]
    while todo:
        cls = todo.pop()
        found[cls.__name__] = cls
        todo.extend(cls.__subclasses__())
    return found


def _codes(node: ast.expr) -> list[str] | None:
    """The codes an expression can give: a string, or conditional strings."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        a, b = _codes(node.body), _codes(node.orelse)
        return None if a is None or b is None else a + b
    return None


def _error_constructions() -> list[tuple[str, int, str, ast.Call]]:
    classes = _error_classes()
    out = []
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and (
                    node.func.id in classes):
                out.append((rel, node.lineno, node.func.id, node))
    return out


CONSTRUCTIONS = _error_constructions()


def test_the_source_raises_many_kniffel_errors() -> None:
    # guards the test below against finding nothing
    assert len(CONSTRUCTIONS) > 150
    assert {rel for rel, *_ in CONSTRUCTIONS} >= {"engine/game.py", "engine/dice.py",
                                                   "engine/rules.py", "history.py",
                                                   "engine/history_file.py", "browser/bridge.py",
                                                   "engine/strategy.py", "solver/advise.py",
                                                   "cli/advise.py", "storage.py"}


@pytest.mark.parametrize(("rel", "line", "cls", "call"), CONSTRUCTIONS,
                         ids=[f"{r}:{n}" for r, n, _, _ in CONSTRUCTIONS])
def test_every_raise_site_names_a_catalog_code_and_the_params_its_words_need(
        rel: str, line: int, cls: str, call: ast.Call) -> None:
    keywords = {k.arg: k.value for k in call.keywords}
    if "code" not in keywords:
        assert rel in DEFAULT_CODE_FILES, f"{rel}:{line}: {cls}(...) without code="
        codes = [_error_classes()[cls].default_code]
    else:
        found = _codes(keywords["code"])
        assert found is not None, f"{rel}:{line}: the code is not a literal"
        codes = found
    params = keywords.get("params")
    if params is None:
        given: set[str] = set()
    else:
        assert isinstance(params, ast.Dict), f"{rel}:{line}: params is not a dict literal"
        given = set()
        for key in params.keys:
            assert isinstance(key, ast.Constant), f"{rel}:{line}"
            assert isinstance(key.value, str), f"{rel}:{line}"
            given.add(key.value)
    for code in codes:
        assert code in CATALOG, f"{rel}:{line}: the code {code!r} is not in the catalog"
        for words in CATALOG[code]:
            missing = fields(words) - given
            assert not missing, f"{rel}:{line}: {code} needs the params {missing}"


def test_every_error_class_has_a_default_code_in_the_catalog() -> None:
    for name, cls in _error_classes().items():
        assert cls.default_code in CATALOG, name


#: Texts that are the same in German and English: the game's and its boxes' names, the rule
#: sets' titles that both languages share, and "Bonus", "Chips", "Computer", "optimal".
SAME_IN_BOTH = {"Bonus", "Chance", "Chips", "Computer", "Full House", "Highway", "Kniffel",
                "Kniffel Extreme", "Yahtzee (Hasbro)", "optimal"}


def test_every_code_has_german_and_english_words_with_the_same_params() -> None:
    for code, (de, en) in CATALOG.items():
        assert de.strip(), code
        assert en.strip(), code
        words_of = re.sub(r"\{[a-z_]+\}", "", de)  # the text around the placeholders
        assert de != en or not re.search(r"[a-z]{4}", words_of) or \
            words_of.strip() in SAME_IN_BOTH, code  # "Computer {n}" too
        assert fields(de) == fields(en), code


def _sample(name: str) -> object:
    samples: dict[str, object] = {
        "box": "fives", "boxes": ["ones", "chance"], "strikes": ["ones"], "rules": "extreme",
        "strategies": ["greedy", "random"], "strategy": "greedy", "die": "d10",
        "roll": {"d6": [1, 2, 3, 4, 5], "d10": 8}, "keep": {"d6": [5, 5], "d10": None},
        "cause": {"code": "move.keep_all", "params": {}}, "possible": [5, 10, 15],
        "choices": ["extreme", "kniffel"], "where": "/tmp/x.json",
    }
    return samples.get(name, 7)


def test_german_words_hold_no_english_developer_text() -> None:
    for code, (de, _) in CATALOG.items():
        params = {name: _sample(name) for name in fields(de)}
        text = render_code(code, params, "de")
        # commands, option names and paths are the same in both languages
        prose = re.sub(r"kniffel \S+( --?[\w-]+( \S+)?)*|--[\w-]+|\"[^\"]*\"|/\S+", "", text)
        assert not ENGLISH.search(prose), f"{code}: {text}"


def _raised(action: object) -> KniffelError:
    assert callable(action)
    with pytest.raises(KniffelError) as info:
        action()
    return info.value


def test_real_errors_render_in_both_languages_without_their_english_message() -> None:
    game = Game(preset("extreme"), ["Anna", "Ben"], seed=1)
    game.apply(Throw(Keep()))
    game.apply(Outcome(Roll((1, 1, 1, 1, 2), d10=8)))
    errors = [
        _raised(lambda: game.apply(Score(Box.SIXES))),
        _raised(lambda: game.apply(Strike(Box.ONES))),
        _raised(lambda: game.apply(UseChip())),
        _raised(lambda: game.apply(Throw(Keep((1, 1, 1, 1, 2), 8)))),
        _raised(lambda: game.apply(Throw(Keep(), ), player=1)),
        _raised(lambda: preset("poker")),
        _raised(lambda: Roll.parse("1 2 x 4 5 6", d10=True)),
        _raised(lambda: Game(preset("kniffel"), ["A", "a"])),
        _raised(lambda: Game.from_json({"format": "kniffel-game", "version": 99})),
    ]
    for e in errors:
        de, en = render(e, "de"), render(e, "en")
        assert e.code in CATALOG, e
        assert de != en
        assert str(e) not in de
        assert str(e) not in en
        assert de != render_code("error", {}, "de"), f"{e.code} fell back to the generic words"
    assert render(errors[0], "de").startswith("Der Wurf 1 1 1 1 2, W10=8 darf nicht in Sechser")
    assert "d10=8" in render(errors[0], "en")
    assert render(errors[4], "de") == "Anna ist am Zug, nicht Ben."


def test_an_error_inside_an_error_is_rendered_too() -> None:
    data = Game(preset("kniffel"), ["A"]).to_json()
    data["actions"] = [{"type": "chip"}]
    e = _raised(lambda: Game.from_json(data))
    assert render(e, "de") == ("Der Spielstand ist kein gültiges Spiel: Zug 1 des Spiels ist "
                               "nicht erlaubt: Kniffel (klassisch) hat keine Chips.")


def test_anything_else_renders_as_a_generic_sentence() -> None:
    assert render(RuntimeError("internal detail"), "de") == "Ein unerwarteter Fehler ist " \
        "aufgetreten."
    assert render(KniffelError("x", code="no.such.code"), "en") == "That is not possible."
    # params that do not fill the words: the generic sentence, never a KeyError
    assert render(IllegalMoveError("x", code="move.box_filled"), "de") == "Das geht nicht."


def test_a_file_name_leads_the_words_when_they_do_not_use_it() -> None:
    e = CorruptSaveError("x", code="file.not_json", params={"where": "a.json"})
    assert render(e, "de") == "a.json: Die Datei ist kein gültiges JSON."
    assert render(e.within("b.json"), "en") == "a.json: The file is not valid JSON."
    assert str(CorruptSaveError("m", code="save.corrupt").within("c.json")) == "c.json: m"


def test_errors_keep_code_and_params_through_pickle_and_type_changes() -> None:
    e = InvalidDiceError("msg", code="dice.wrong_count", params={"want": 6, "got": 2})
    back = pickle.loads(pickle.dumps(e))
    assert (type(back), str(back), back.code, back.params) == (type(e), "msg", e.code, e.params)
    moved = e.as_type(IllegalMoveError)
    assert isinstance(moved, IllegalMoveError)
    assert moved.code == "dice.wrong_count"
    assert eval(repr(e), {"InvalidDiceError": InvalidDiceError}).params == e.params


def test_dice_use_the_players_die_label() -> None:
    assert dice_text([5, 5, 6], 8, "de") == "5 5 6, W10=8"
    assert dice_text([5, 5, 6], 8, "en") == "5 5 6, d10=8"
    assert dice_text([], None, "de") == "nichts"
    assert dice_param(Keep((5, 5), 3)) == {"d6": [5, 5], "d10": 3}


def test_strategy_names_are_translated() -> None:
    assert strategy_name("greedy", "de") == "gierig"
    assert strategy_name("random", "de") == "zufällig"
    assert strategy_name("greedy", "en") == "greedy"
    assert strategy_name("mine", "de") == "mine"
    from kniffel.engine.strategy import strategy_names
    assert set(strategy_names()) <= set(STRATEGY_NAMES)


ALL_ACTIONS: list[Action] = [Throw(Keep()), Throw(Keep((6,))), Throw(Keep((1, 2, 3, 4, 5), 0)),
                             UseChip(), *[Score(b) for b in Box], *[Strike(b) for b in Box]]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["extreme", "kniffel", "yahtzee"]), st.integers(0, 2**32),
       st.lists(st.integers(0, len(ALL_ACTIONS) - 1), min_size=1, max_size=60))
def test_every_refused_move_renders_specific_words_in_both_languages(
        name: str, seed: int, picks: list[int]) -> None:
    rng = random.Random(seed)
    game = Game(preset(name), ["Anna", "Ben"], seed=seed)
    generic = {render_code("error", {}, "de"), render_code("error", {}, "en")}
    for pick in picks:
        if game.is_over():
            break
        if game.is_chance_node():
            game.apply(game.sample_outcome(rng))
            continue
        action = ALL_ACTIONS[pick]
        if action in game.legal_actions():
            game.apply(action)
            continue
        with pytest.raises(KniffelError) as info:
            game.apply(action)
        de, en = render(info.value, "de"), render(info.value, "en")
        assert de not in generic, (info.value.code, str(info.value))
        assert en not in generic, (info.value.code, str(info.value))
        assert de != en


def test_a_choice_of_a_hint_reads_as_a_phrase_in_both_languages() -> None:
    from kniffel.engine.advice import Option
    from kniffel.engine.dice import Keep
    from kniffel.engine.game import Score, Strike, Throw, UseChip
    from kniffel.engine.rules import Box, preset

    rules = preset("extreme")

    def both(action: object, points: int | None = None) -> tuple[str, str]:
        option = Option(action, 600.0, 0.0, points)  # type: ignore[arg-type]
        return option.describe(rules, "de"), option.describe(rules, "en")

    assert both(Strike(Box.SMALL_STRAIGHT)) == ("Kleine Straße streichen", "Strike Small Straight")
    assert both(Score(Box.FIVES), 15) == ("Fünfer: 15 Punkte", "Fives: 15 points")
    assert both(Score(Box.ONES), 1) == ("Einser: 1 Punkt", "Ones: 1 point")
    assert both(Throw(Keep((5, 5), 3))) == ("Behalten: 5 5, W10=3", "Keep: 5 5, d10=3")
    assert both(Throw(Keep())) == ("Alle Würfel werfen", "Throw all dice")
    assert both(UseChip()) == ("Chip abgeben (4. Wurf)", "Hand in a chip (4th throw)")


@pytest.mark.parametrize("key", ["rules", "name", "mode", "players", "actions", "seed",
                                 "start_player"])
def test_a_missing_part_of_a_save_is_named_in_words_never_by_its_key(key: str) -> None:
    data = Game(preset("kniffel"), ["Anna"], seed=1).to_json()
    if key == "name":
        data["rules"].pop("name")
    else:
        data.pop(key)
    error = _raised(lambda: Game.from_json(data))
    assert error.code == "save.missing_field"
    for lang in ("de", "en"):
        said = render(error, lang)
        words = CATALOG[f"part.{key}"][0 if lang == "de" else 1]
        assert said.endswith(f": {words}."), said
        assert key not in said.replace(words, ""), said


def test_a_part_the_catalog_does_not_know_is_still_said_in_words() -> None:
    error = CorruptSaveError("the save lacks 'dice_rule'", code="save.missing_field",
                             params={"field": "dice_rule"})
    assert render(error, "de") == ("Der Spielstand ist unvollständig; es fehlt ein Teil: eine "
                                   "Angabe.")
    assert "dice_rule" not in render(error, "en")


def _word_file(lang: str) -> dict[str, str]:
    loaded = json.loads((SRC / "engine" / "words" / f"{lang}.json").read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def test_the_word_files_hold_the_same_codes_with_the_same_placeholders() -> None:
    de, en = _word_file("de"), _word_file("en")
    assert set(de) == set(en), sorted(set(de) ^ set(en))
    for code in de:
        assert fields(de[code]) == fields(en[code]), code


def test_the_catalog_is_the_word_files() -> None:
    de, en = _word_file("de"), _word_file("en")
    assert {code: (de[code], en[code]) for code in de} == CATALOG
    assert STRATEGY_NAMES["greedy"] == (de["strategy.name.greedy"], en["strategy.name.greedy"])


def test_a_language_without_a_word_file_is_refused() -> None:
    with pytest.raises(ValueError, match="no words"):
        catalog.words("fr")


# --- every word a player reads lives in the catalog's files --------------------------------

#: German in a string: an umlaut or ß, or a common German word of the game's texts (never a word
#: that is English too, like "die" or "Bonus").
GERMAN_WORDS = re.compile(
    r"[äöüÄÖÜß]|\b(und|oder|nicht|nichts|kein|keine|ist|sind|wird|mit|für|von|zum|bis|"
    r"Spieler|Spiel|Spiele|Runde|Punkte|Summe|Gesamt|Feld|Zug|Wurf|Würfe|Datei|Ordner|"
    r"Ergebnis|Zwischenstand|streichen|gestrichen|eintragen|Regeln|Partie)\b")

#: German that is no player's word of the catalog, with the reason.
GERMAN_ALLOWED: dict[tuple[str, str], str] = {
    # the Python API's default player name, a name like "Anna" (a game's data, not UI text)
    ("engine/game.py", "Spieler 1"): "the default name of Game()'s one player",
}


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def _german_outside_the_catalog(files: list[Path], root: Path = SRC) -> list[str]:
    found = []
    for path in files:
        rel = path.relative_to(root).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _docstrings(tree)
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and id(node) not in skip and GERMAN_WORDS.search(node.value)
                    and (rel, node.value) not in GERMAN_ALLOWED):
                found.append(f"{rel}:{node.lineno}: {node.value[:60]!r}")
    return found


def _python_files() -> list[Path]:
    return sorted(p for p in SRC.rglob("*.py") if TUI not in p.parents)


def test_no_german_words_in_python_outside_the_catalog_files() -> None:
    assert _python_files()
    assert _german_outside_the_catalog(_python_files()) == []


def test_no_german_words_in_the_terminal_game_outside_the_catalog_files() -> None:
    files = sorted(TUI.rglob("*.py"))
    assert len(files) > 5
    assert _german_outside_the_catalog(files) == []


def test_the_german_scan_names_a_german_string_and_an_option_help_but_not_a_docstring(
        tmp_path: Path) -> None:
    path = tmp_path / "probe.py"
    path.write_text("def f() -> str:\n    '''Die Würfel.'''\n    option(help='Würfel / dice')\n"
                    "    return 'Würfel: ' + 'the dice'\n", encoding="utf-8")
    assert sorted(_german_outside_the_catalog([path], tmp_path)) == [
        "probe.py:3: 'Würfel / dice'", "probe.py:4: 'Würfel: '"]


def test_no_german_catalog_text_is_spelled_out_again_in_python() -> None:
    german = {de for de, en in CATALOG.values() if de.lower() != en.lower() and len(de) >= 3}
    copies = []
    for path in sorted(SRC.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _docstrings(tree)
        copies += [f"{path.relative_to(SRC).as_posix()}:{node.lineno}: {node.value!r}"
                   for node in ast.walk(tree) if isinstance(node, ast.Constant)
                   and isinstance(node.value, str) and node.value in german
                   and id(node) not in skip]
    assert copies == []


@pytest.mark.solve
def test_the_browsers_package_carries_the_word_files() -> None:
    from kniffel.web.server import package_zip

    with zipfile.ZipFile(io.BytesIO(package_zip())) as packed:
        for lang in ("de", "en"):
            shipped = json.loads(packed.read(f"kniffel/engine/words/{lang}.json"))
            assert shipped == _word_file(lang)
