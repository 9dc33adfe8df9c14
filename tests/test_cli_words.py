"""The command line as a player meets it: every command speaks German or English (``--lang``,
default from the locale), refuses bad input with words from the message catalog and exit status
2 (never a traceback), and the commands that only read create no file."""

from __future__ import annotations

import json
import re
from pathlib import Path

import click
import pytest
from click.testing import Result

from conftest import invoke
from kniffel.cli import main
from kniffel.simulate import histogram_bins, rounded


def refused(result: Result) -> str:
    """The message of a refusal: exit status 2, no traceback."""
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert not isinstance(result.exception, Exception) or isinstance(
        result.exception, SystemExit), result.exception
    return result.stderr


# --- --lang on every command ---------------------------------------------------------------


def _commands() -> list[str]:
    assert isinstance(main, click.Group)
    return sorted(main.commands)


@pytest.mark.parametrize("command", _commands())
def test_every_command_takes_lang_defaulting_to_the_locale(command: str) -> None:
    assert isinstance(main, click.Group)
    options = {p.name: p for p in main.commands[command].params}
    assert "lang" in options, command
    default = options["lang"].default
    assert callable(default), f"{command}: --lang must default to the locale"


@pytest.mark.parametrize(("env", "expected"), [
    ({"LANG": "en_US.UTF-8"}, "Ones"),
    ({"LANG": "de_DE.UTF-8"}, "Einser"),
    ({}, "Einser"),  # the locale says nothing: German
    ({"LANG": "fr_FR.UTF-8"}, "Einser"),
    ({"LC_ALL": "en_GB.UTF-8", "LANG": "de_DE.UTF-8"}, "Ones"),
])
def test_the_language_follows_the_locale(env: dict[str, str], expected: str) -> None:
    result = invoke(["rules", "--rules", "kniffel"], **env)
    assert result.exit_code == 0
    assert expected in result.stdout


def test_an_error_follows_the_locale_too() -> None:
    assert "Ein Regelwerk" not in refused(invoke(["advise", "--filled", "nope=3", "1", "2", "3",
                                                  "4", "5", "6"], LANG="en_US.UTF-8"))


# --- read-only commands create nothing -------------------------------------------------------


@pytest.mark.parametrize("command", [["history"], ["stats"], ["stats", "--player", "Anna"],
                                     ["export"]])
def test_read_only_commands_create_no_folder_and_no_database(tmp_path: Path,
                                                             command: list[str]) -> None:
    db = tmp_path / "nonexistent" / "h.sqlite3"
    result = invoke([*command, "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert not db.parent.exists()
    assert "Es gibt noch keinen Spielverlauf" in result.stderr
    assert "es wurde keiner angelegt" in result.stderr
    if command == ["export"]:
        assert json.loads(result.stdout) == {"format": "kniffel-history", "version": 2,
                                             "games": []}


def test_history_of_a_missing_database_in_english(tmp_path: Path) -> None:
    db = tmp_path / "none" / "h.sqlite3"
    result = invoke(["history", "--lang", "en", "--db", str(db)])
    assert result.exit_code == 0
    assert "There is no game history yet" in result.stderr
    assert "No games stored yet." in result.stdout
    assert not db.parent.exists()


@pytest.mark.parametrize(("content", "german"), [
    ("{", "Die Datei ist kein gültiges JSON."),
    ('{"format": "kniffel-history", "version": 9, "games": []}', "neueren Kniffel-Version"),
    ('{"format": "kniffel-history", "version": 2, "games": [{"uid": "a"}]}',
     "Spiel 1 der Datei: Das ist kein Kniffel-Spielstand."),
    ('[1, 2]', "Das ist keine Kniffel-Verlaufsdatei."),
    (b"\xff\xfe", "kein UTF-8-Text"),
], ids=["not-json", "newer", "bad-game", "not-history", "not-utf8"])
def test_a_refused_import_creates_no_database(tmp_path: Path, content: str | bytes,
                                              german: str) -> None:
    source = tmp_path / "in.json"
    if isinstance(content, bytes):
        source.write_bytes(content)
    else:
        source.write_text(content, encoding="utf-8")
    db = tmp_path / "new" / "h.sqlite3"
    message = refused(invoke(["import", "--db", str(db), str(source)]))
    assert german in message
    assert "Es wurde nichts importiert." in message
    assert not db.parent.exists()


def test_importing_a_missing_file_names_it(tmp_path: Path) -> None:
    message = refused(invoke(["import", "--lang", "en", "--db", str(tmp_path / "h.sqlite3"),
                              str(tmp_path / "gone.json")]))
    assert "gone.json does not exist." in message
    assert not (tmp_path / "h.sqlite3").exists()


def test_export_into_a_file_as_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "plain").write_text("x")
    target = tmp_path / "plain" / "out.json"
    message = refused(invoke(["export", "--db", str(tmp_path / "h.sqlite3"), str(target)]))
    assert "kann nicht geschrieben werden" in message
    assert not (tmp_path / "h.sqlite3").exists()


def test_a_folder_as_database_is_refused(tmp_path: Path) -> None:
    result = invoke(["stats", "--lang", "en", "--db", str(tmp_path)])
    assert result.exit_code == 2
    assert result.stderr == f"kniffel stats: {tmp_path} is a folder, not a file.\n"


# --- refusals of the other commands ----------------------------------------------------------


@pytest.mark.parametrize(("args", "german", "english"), [
    (["show", "{missing}"], "gibt es nicht", "does not exist"),
    (["advise", "--filled", "fives=7", "1", "2", "3", "4", "5", "6"],
     "Fünfer kann in Kniffel Extreme nicht 7 Punkte haben.",
     "Fives cannot hold 7 points in Kniffel Extreme."),
    (["advise", "--filled", "fives=20,fives=15", "1", "2", "3", "4", "5", "6"],
     "Das Kästchen Fünfer ist zweimal angegeben.", "The box Fives is given twice."),
    (["advise", "--filled", "sixes=lots", "1", "2", "3", "4", "5", "6"],
     "die Punkte müssen eine Zahl sein", "the points must be a number"),
    (["advise", "--filled", "nobox=3", "1", "2", "3", "4", "5", "6"],
     "Ein Kästchen „nobox“ gibt es nicht.", "There is no box \"nobox\"."),
    (["advise", "--chips", "5", "1", "2", "3", "4", "5", "6"],
     "In Kniffel Extreme sind 0 bis 3 Chips übrig, nicht 5.",
     "Kniffel Extreme leaves 0 to 3 chips, not 5."),
    (["advise", "--rules", "kniffel", "--rolls-used", "2"],
     "Nach einem Wurf braucht der Rat die Würfel.", "After a throw the advice needs the dice."),
    (["solve", "--device", "gpu"], "diese Version hat keinen GPU-Kern", "this build has no GPU"),
    (["score", "1", "2", "3"], "Gebraucht werden 6 Würfel", "6 dice are needed"),
    (["simulate", "--games", "1", "--plot", "{missing_dir}"], "den Ordner gibt es nicht",
     "its folder does not exist"),
])
def test_refusals_speak_the_players_language(tmp_path: Path, args: list[str], german: str,
                                             english: str) -> None:
    args = [a.format(missing=tmp_path / "none.json", missing_dir=tmp_path / "x" / "p.png")
            for a in args]
    before = sorted(tmp_path.rglob("*"))
    assert german in refused(invoke(args))
    assert english in refused(invoke([*args, "--lang", "en"]))
    assert sorted(tmp_path.rglob("*")) == before


def test_the_missing_table_message_names_the_cost_and_max_open(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the refusal comes only where the expert cannot estimate either: here it has no model
    from kniffel.engine import expert, expert_model

    monkeypatch.setattr(expert_model, "model_bytes", lambda rules: None)
    expert_model.load_model.cache_clear()
    expert._expert.cache_clear()
    monkeypatch.setattr(expert_model, "load_model", expert_model.load_model.__wrapped__)
    args = ["advise", "--cache-dir", str(tmp_path), "1", "2", "3", "4", "5", "6"]
    german = refused(invoke(args))
    assert "etwa 50 Minuten" in german
    assert "2,4 GB" in german
    assert "kniffel solve --rules extreme --max-open K" in german
    english = refused(invoke([*args, "--lang", "en"]))
    assert "about 50 minutes and 2.4 GB" in english
    assert "--max-open K" in english
    # an endgame just beyond what is solved on the spot: the table for exactly that
    filled = ",".join(f"{b}=-" for b in ("ones", "twos", "threes", "fours", "fives", "sixes",
                                          "three_of_a_kind", "two_pairs", "four_of_a_kind",
                                          "three_pairs", "two_triples", "full_house",
                                          "large_full_house", "small_straight", "large_straight"))
    near = refused(invoke(["advise", "--filled", filled, *args[1:]]))
    assert "mit 7 offenen Kästchen" in near
    assert "kniffel solve --rules extreme --max-open 7" in near


@pytest.mark.solve
def test_advise_labels_the_d10_as_the_language_does(tmp_path: Path) -> None:
    filled = "ones=-,twos=6,threes=-,fours=-,fives=-,sixes=-,three_of_a_kind=-,two_pairs=-," \
             "four_of_a_kind=-,three_pairs=-,two_triples=-,full_house=-,large_full_house=-," \
             "small_straight=-,large_straight=-,highway=-,kniffel=-,kniffel_extreme=-"
    args = ["advise", "--filled", filled, "--rolls-used", "1", "--top", "0", "--cache-dir",
            str(tmp_path), "6", "6", "6", "6", "5", "9"]
    german = invoke(args)
    assert german.exit_code == 0, german.output
    assert "W10=9" in german.stdout
    assert "d10" not in german.stdout
    english = invoke([*args, "--lang", "en"])
    assert "d10=9" in english.stdout


# --- what a command cannot use is refused ----------------------------------------------------


def _free_commands() -> list[str]:
    """The commands that take any number of free arguments (dice, saves) or let unknown options
    through to them (for negative dice): where a stray word is easiest to miss."""
    assert isinstance(main, click.Group)
    return sorted(name for name, command in main.commands.items()
                  if command.context_settings.get("ignore_unknown_options")
                  or any(isinstance(p, click.Argument) and p.nargs == -1
                         for p in command.params))


def _a_save(folder: Path) -> Path:
    """A saved Kniffel Extreme game of Anna and Ben, Anna's first throw on the table."""
    from kniffel import Game, Outcome, Roll, Throw, preset
    from kniffel.storage import save_game

    game = Game(preset("extreme"), ["Anna", "Ben"], seed=41)
    game.apply(Throw())
    game.apply(Outcome(Roll((6, 6, 6, 2, 1), d10=3)))
    return save_game(game, folder / "game.json")


def test_the_commands_with_free_arguments_are_score_advise_and_chances() -> None:
    # a new one joins the cases below (an unknown option among its free arguments)
    assert _free_commands() == ["advise", "chances", "score"]


@pytest.mark.parametrize("option", ["--blablub", "--blablub=3"])
@pytest.mark.parametrize("command", _commands())
def test_every_command_refuses_an_unknown_option_by_its_name(command: str, option: str) -> None:
    german = invoke([command, option])
    assert refused(german).splitlines() == [
        f"kniffel {command}: Eine Option --blablub gibt es nicht.",
        f"Hilfe: kniffel {command} --help"]
    assert german.stdout == ""
    english = invoke([command, "--lang", "en", option])
    assert refused(english).splitlines() == [
        f"kniffel {command}: There is no option --blablub.", f"Help: kniffel {command} --help"]


@pytest.mark.parametrize(("args", "option"), [
    (["score", "--chps", "5", "5", "5", "6", "6", "6"], "--chps"),
    (["score", "5", "5", "5", "6", "6", "6", "--blablub"], "--blablub"),
    (["score", "-x", "5", "5", "5", "6", "6", "6"], "-x"),
    (["advise", "--chps", "3"], "--chps"),
    (["advise", "1", "2", "3", "4", "5", "6", "--to-wn"], "--to-wn"),
    (["advise", "--rules", "yahtzee", "1", "3", "3", "5", "6", "--blablub=1"], "--blablub"),
    (["advise", "--game", "{save}", "--blablub"], "--blablub"),
    (["advise", "--game", "{save}", "--to-wn"], "--to-wn"),
    (["advise", "--game", "{save}", "3", "4", "--to-wn"], "--to-wn"),
    (["chances", "{save}", "--blablub"], "--blablub"),
    (["chances", "{save}", "--to-wn"], "--to-wn"),
], ids=["score-before-dice", "score-after-dice", "score-short", "advise-chps",
        "advise-after-dice", "advise-with-value", "advise-game", "advise-game-typo",
        "advise-game-dice-typo", "chances", "chances-typo"])
def test_an_unknown_option_among_free_arguments_is_refused_never_read_as_a_value(
        tmp_path: Path, args: list[str], option: str) -> None:
    args = [a.format(save=_a_save(tmp_path)) for a in args]
    before = sorted(tmp_path.rglob("*"))
    command = args[0]
    german = refused(invoke(args))
    assert german.startswith(f"kniffel {command}: Eine Option {option} gibt es nicht"), german
    assert german.splitlines()[-1] == f"Hilfe: kniffel {command} --help"
    assert "Würfel" not in german
    assert "Spielstand" not in german
    english = refused(invoke([*args, "--lang", "en"]))
    assert english.startswith(f"kniffel {command}: There is no option {option}"), english
    assert english.splitlines()[-1] == f"Help: kniffel {command} --help"
    assert sorted(tmp_path.rglob("*")) == before


@pytest.mark.parametrize("command", sorted(set(_commands()) - set(_free_commands())))
def test_a_stray_word_is_refused_by_every_command_with_fixed_arguments(
        tmp_path: Path, command: str) -> None:
    assert isinstance(main, click.Group)
    arguments = [p for p in main.commands[command].params if isinstance(p, click.Argument)]
    args = [command, *(str(tmp_path / f"{p.name}.json") for p in arguments), "stray"]
    german = invoke(args)
    assert refused(german).splitlines() == [
        f"kniffel {command}: Mit stray kann dieser Befehl nichts anfangen.",
        f"Hilfe: kniffel {command} --help"]
    assert german.stdout == ""
    assert refused(invoke([*args, "--lang", "en"])).splitlines()[0] == (
        f"kniffel {command}: This command does not take stray.")
    assert not list(tmp_path.iterdir())


def test_chances_names_a_stray_word_as_the_save_it_does_not_find(tmp_path: Path) -> None:
    save = _a_save(tmp_path)
    german = refused(invoke(["chances", str(save), "stray"]))
    assert german.splitlines()[-1] == "kniffel chances: stray gibt es nicht."
    english = refused(invoke(["chances", "--lang", "en", str(save), "stray"]))
    assert english.splitlines()[-1] == "kniffel chances: stray does not exist."


# --- help texts ------------------------------------------------------------------------------


@pytest.mark.parametrize("command", _commands())
def test_help_never_repeats_a_default(command: str) -> None:
    result = invoke([command, "--help"])
    assert result.exit_code == 0
    text = " ".join(result.stdout.split())
    assert not re.search(r"(default|Standard): [^\]]*\)\s*\[Standard:", text), text
    assert text.count("(Standard/default: extreme)") == 0


def test_advise_cache_dir_has_help() -> None:
    text = " ".join(invoke(["advise", "--help"]).stdout.split())
    assert "--cache-dir ORDNER Ablage der Wertetabellen" in text


# --- simulate ------------------------------------------------------------------------------


def test_simulate_json_rounds_its_floats() -> None:
    result = invoke(["simulate", "--rules", "kniffel", "--strategy", "random", "--games", "7",
                     "--json"])
    assert result.exit_code == 0
    for number in re.findall(r"\d+\.\d+", result.stdout):
        assert len(number.split(".")[1]) <= 4, number
    assert rounded({"a": [733.0500000000002, 1], "b": 0.1 + 0.2}) == {"a": [733.05, 1],
                                                                       "b": 0.3}


@pytest.mark.solve
def test_simulate_table_has_no_empty_header_row_and_translates_the_strategy() -> None:
    result = invoke(["simulate", "--rules", "kniffel", "--strategy", "random", "--games", "3"])
    assert result.exit_code == 0
    first_table = result.stdout.split("┏")[0]  # the box table has a header, the summary none
    assert "Mittelwert" in first_table
    assert "┃" not in first_table
    assert "zufällig" in first_table
    english = invoke(["simulate", "--rules", "kniffel", "--strategy", "random", "--games", "3",
                      "--lang", "en"])
    assert "random" in english.stdout.split("┏")[0]


def test_histogram_has_about_sqrt_n_bins() -> None:
    assert histogram_bins(list(range(200))) == 14
    assert histogram_bins(list(range(10_000))) == 60
    assert histogram_bins([100, 101, 102]) == 3  # never more bins than totals
    assert histogram_bins(list(range(10))) == 5


def test_an_error_no_command_expected_is_still_words_not_a_traceback(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import kniffel.cli.rules
    from kniffel.engine.errors import IllegalMoveError

    def broken(*_args: object) -> list[str]:
        raise IllegalMoveError("developer text", code="undo.nothing")

    monkeypatch.setattr(kniffel.cli.rules, "describe", broken)
    assert "kniffel rules: Es gibt nichts zurückzunehmen." in refused(invoke(["rules"]))
    english = refused(invoke(["rules", "--lang", "en"]))
    assert "kniffel rules: There is nothing to undo." in english
    assert "developer text" not in english


def test_history_opened_without_create_leaves_no_trace(tmp_path: Path) -> None:
    from kniffel.history import History

    path = tmp_path / "a" / "b" / "h.sqlite3"
    with History(path, create=False) as db:
        assert not db.exists
        assert db.games() == []
        assert db.stats() == []
        assert db.export()["games"] == []
    assert not (tmp_path / "a").exists()
