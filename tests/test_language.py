"""One language, the user's: click's own messages (usage, bad values, paths, Ctrl-C, --help) come
from the message catalog in German or English, numbers follow the language, and every README
example speaks the locale's language without a decimal point in a German number."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result
from hypothesis import given
from hypothesis import strategies as st

from conftest import CLI_ENV, invoke
from kniffel import preset
from kniffel.cli import main
from kniffel.cli.common import ruleset_from_options
from kniffel.cli.localized import confirm
from kniffel.engine.messages import count, decimal, number, percent, size
from kniffel.engine.rules import PRESETS, Lang, StrikeRule
from test_readme import EXAMPLES, SKIPPED, exported_first, readme_folder

#: click's English words that a German reader must never see.
CLICK_ENGLISH = ("Error:", "Usage:", "Options:", "Commands:", "Try '", "Aborted",
                 "Invalid value", "No such", "Missing argument", "Missing option",
                 "unexpected extra", "is not one of", "does not exist", "is a directory",
                 "is a file", "requires an argument", "does not take a value",
                 "is not a valid", "is not in the range", "Show this message")


def refusal(result: Result) -> list[str]:
    """The lines of a refusal: exit status 2, no traceback, on stderr only."""
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit), result.exception
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    return result.stderr.splitlines()


# --- click's errors in German and English ----------------------------------------------------

#: (arguments, the German sentence, the English one, whether the help line follows)
CLICK_ERRORS = [
    (["rules", "--rules", "foo"],
     "kniffel rules: --rules: „foo“ steht nicht zur Wahl; möglich sind: "
     + ", ".join(PRESETS) + ".",
     "kniffel rules: --rules: \"foo\" is not a choice; the choices are: "
     + ", ".join(PRESETS) + ".", False),
    (["rules", "--lang", "fr"],
     "kniffel rules: --lang: „fr“ steht nicht zur Wahl; möglich sind: de, en.",
     "kniffel rules: --lang: \"fr\" is not a choice; the choices are: de, en.", False),
    (["score", "--bogus"], "kniffel score: Eine Option --bogus gibt es nicht.",
     "kniffel score: There is no option --bogus.", True),
    (["rules", "--frees"],
     "kniffel rules: Eine Option --frees gibt es nicht; gemeint ist vielleicht --rules / "
     "--free-strike.",
     "kniffel rules: There is no option --frees; did you mean --rules / --free-strike?", True),
    (["--bogus"], "kniffel: Eine Option --bogus gibt es nicht.",
     "kniffel: There is no option --bogus.", True),
    (["rule"], "kniffel: Einen Befehl „rule“ gibt es nicht; gemeint ist vielleicht rules.",
     "kniffel: There is no command \"rule\"; did you mean rules?", True),
    (["show"], "kniffel show: Das Argument SAVE fehlt.",
     "kniffel show: The argument SAVE is missing.", True),
    (["rules", "one", "two"], "kniffel rules: Mit one two kann dieser Befehl nichts anfangen.",
     "kniffel rules: This command does not take one two.", True),
    (["rules", "--rules"], "kniffel rules: --rules braucht einen Wert.",
     "kniffel rules: --rules needs a value.", True),
    (["rules", "--free-strike=yes"], "kniffel rules: --free-strike nimmt keinen Wert.",
     "kniffel rules: --free-strike takes no value.", True),
    (["show", "{folder}"], "kniffel show: {folder} ist ein Ordner, keine Datei.",
     "kniffel show: {folder} is a folder, not a file.", False),
    (["solve", "--cache-dir", "{file}"], "kniffel solve: {file} ist eine Datei, kein Ordner.",
     "kniffel solve: {file} is a file, not a folder.", False),
    (["simulate", "--games", "0"], "kniffel simulate: --games: Erlaubt ist mindestens 1, nicht 0.",
     "kniffel simulate: --games: Allowed is at least 1, not 0.", False),
    (["simulate", "--games", "many"],
     "kniffel simulate: --games: Gebraucht wird eine ganze Zahl, nicht „many“.",
     "kniffel simulate: --games: A whole number is needed, not \"many\".", False),
    (["web", "--port", "70000"],
     "kniffel web: --port: Erlaubt ist 0 bis 65.535, nicht 70.000.",
     "kniffel web: --port: Allowed is 0 to 65,535, not 70,000.", False),
    (["play", "--speed", "fast"],
     "kniffel play: --speed: Gebraucht wird eine Zahl, nicht „fast“.",
     "kniffel play: --speed: A number is needed, not \"fast\".", False),
    (["play", "--speed", "-0,5"],
     "kniffel play: --speed: Erlaubt ist mindestens 0, nicht -0,5.",
     "kniffel play: --speed: Allowed is at least 0, not -0.5.", False),
]


@pytest.mark.parametrize(("args", "german", "english", "hint"), CLICK_ERRORS,
                         ids=[" ".join(a) for a, *_ in CLICK_ERRORS])
def test_clicks_errors_are_one_catalog_sentence_in_the_users_language(
        tmp_path: Path, args: list[str], german: str, english: str, hint: bool) -> None:
    (tmp_path / "plain.txt").write_text("x")
    names = {"folder": str(tmp_path), "file": str(tmp_path / "plain.txt")}
    args = [a.format(**names) for a in args]
    command = german.split(":", 1)[0]  # "kniffel rules", or "kniffel" for the group's errors
    for lang, env, sentence, help_line in (
            ("de", {"LANG": "de_DE.UTF-8"}, german, f"Hilfe: {command} --help"),
            ("en", {"LANG": "en_US.UTF-8"}, english, f"Help: {command} --help")):
        lines = refusal(invoke(args, **env))
        assert lines[0] == sentence.format(**names), lang
        assert lines[1:] == ([help_line] if hint else []), lang
        if lang == "de":
            assert not any(word in line for line in lines for word in CLICK_ENGLISH), lines


def _value_options() -> list[tuple[str, str, str]]:
    """(command, option, the start of its German refusal of "nonsense") for every option of
    every command that takes a choice or a number."""
    assert isinstance(main, click.Group)
    found = []
    for name, command in sorted(main.commands.items()):
        for param in command.params:
            if not isinstance(param, click.Option) or param.is_flag:
                continue
            if isinstance(param.type, click.Choice):
                found.append((name, param.opts[0], "„nonsense“ steht nicht zur Wahl"))
            elif isinstance(param.type, click.types.IntParamType):
                found.append((name, param.opts[0], "Gebraucht wird eine ganze Zahl"))
            elif isinstance(param.type, click.types.FloatParamType):
                found.append((name, param.opts[0], "Gebraucht wird eine Zahl"))
    return found


VALUE_OPTIONS = _value_options()


def test_many_options_take_choices_and_numbers() -> None:
    assert len(VALUE_OPTIONS) >= 25  # guards the test below against finding nothing


@pytest.mark.parametrize(("command", "option", "german"), VALUE_OPTIONS,
                         ids=[f"{c} {o}" for c, o, _ in VALUE_OPTIONS])
def test_every_option_of_every_command_refuses_a_bad_value_in_words(
        command: str, option: str, german: str) -> None:
    lines = refusal(invoke([command, option, "nonsense"]))
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"kniffel {command}: {option}: {german}"), lines


def test_an_error_speaks_the_lang_option_even_when_it_comes_after_the_error() -> None:
    lines = refusal(invoke(["score", "--bogus", "--lang", "en"], LANG="de_DE.UTF-8"))
    assert lines == ["kniffel score: There is no option --bogus.", "Help: kniffel score --help"]
    lines = refusal(invoke(["rules", "--rules", "foo", "--lang=de"], LANG="en_US.UTF-8"))
    assert lines[0].startswith("kniffel rules: --rules: „foo“ steht nicht zur Wahl")


def test_an_error_without_a_locale_is_german() -> None:
    assert refusal(invoke(["score", "--bogus"]))[0] == (
        "kniffel score: Eine Option --bogus gibt es nicht.")


def test_a_decimal_comma_is_a_number_too() -> None:
    assert refusal(invoke(["play", "--speed", "-0,5", "--lang", "en"]))[0].endswith("not -0.5.")


def test_click_errors_from_the_real_program_are_one_line_and_exit_2() -> None:
    done = subprocess.run([sys.executable, "-m", "kniffel", "rules", "--rules", "foo"],
                          capture_output=True, text=True, check=False,
                          env={**os.environ, "LANG": "de_DE.UTF-8", "LC_ALL": ""})
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.splitlines() == [
        "kniffel rules: --rules: „foo“ steht nicht zur Wahl; möglich sind: "
        + ", ".join(PRESETS) + "."]


# --- Ctrl-C and an input that ended ----------------------------------------------------------


def _raising(error: BaseException) -> object:
    def raise_it(*_args: object, **_kwargs: object) -> object:
        raise error
    return raise_it


@pytest.mark.parametrize(("error", "status", "german", "english"), [
    (KeyboardInterrupt(), 130, "Abgebrochen.", "Interrupted."),
    (click.Abort(), 130, "Abgebrochen.", "Interrupted."),
    (EOFError(), 2, "Keine Antwort: die Eingabe ist zu Ende.", "No answer: the input has ended."),
])
def test_an_interrupt_no_command_caught_is_a_sentence_never_aborted(
        monkeypatch: pytest.MonkeyPatch, error: BaseException, status: int, german: str,
        english: str) -> None:
    monkeypatch.setattr("kniffel.cli.rules.describe", _raising(error))
    for lang, sentence in (("de", german), ("en", english)):
        result = invoke(["rules", "--lang", lang])
        assert result.exit_code == status
        assert result.stderr == f"kniffel rules: {sentence}\n"
        assert "Aborted" not in result.output


def _prompt_at_the_end_of_the_input(*_args: object, **_kwargs: object) -> object:
    """What click.prompt does when the input has ended."""
    try:
        raise EOFError
    except EOFError:
        raise click.Abort() from None


def test_a_question_whose_input_ended_is_no_answer_not_aborted(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("click.prompt", _prompt_at_the_end_of_the_input)
    monkeypatch.setattr("kniffel.cli.rules.describe", lambda *_: [str(confirm("Weiter?", "de"))])
    result = CliRunner().invoke(main, ["rules"], env=CLI_ENV)
    assert result.exit_code == 2
    assert result.stderr.endswith("kniffel rules: Keine Antwort: die Eingabe ist zu Ende.\n")
    assert "Aborted" not in result.output


def test_ctrl_c_stops_the_real_program_with_status_130_and_its_sentence() -> None:
    for lang, sentence in (("de_DE.UTF-8", "Abgebrochen."), ("en_US.UTF-8", "Interrupted.")):
        process = subprocess.Popen(  # waits for rolls on its standard input
            [sys.executable, "-m", "kniffel", "score"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "LANG": lang, "LC_ALL": "", "PYTHONUNBUFFERED": "1"})
        try:
            assert process.stdin is not None
            process.stdin.write("5 5 5 6 6 6\n")
            process.stdin.flush()
            assert process.stdout is not None
            assert process.stdout.readline().startswith("5 5 5 6 6")  # it runs
            process.send_signal(signal.SIGINT)
            _out, err = process.communicate(timeout=20)
        finally:
            if process.poll() is None:
                process.kill()
        assert process.returncode == 130
        assert err == f"kniffel score: {sentence}\n"


@pytest.mark.parametrize(("lang", "answers", "yes", "prompt", "again"), [
    ("de", "vielleicht\nj\n", True, "Weiter? [j/N]", "Bitte mit j (ja) oder n (nein)"),
    ("de", "\n", False, "Weiter? [j/N]", None),
    ("de", "Nein\n", False, "Weiter? [j/N]", None),
    ("en", "maybe\nyes\n", True, "Weiter? [y/N]", "Please answer y (yes) or n (no)."),
])
def test_a_question_is_asked_and_answered_in_the_users_language(
        lang: Lang, answers: str, yes: bool, prompt: str, again: str | None) -> None:
    @click.command()
    def ask() -> None:
        click.echo(f"answer={confirm('Weiter?', lang)}")

    result = CliRunner().invoke(ask, [], input=answers)
    assert result.exit_code == 0, result.output
    assert f"answer={yes}" in result.stdout
    assert prompt in result.stderr
    assert (again in result.stderr) if again else ("Bitte" not in result.stderr)
    assert "Error" not in result.output


# --- --help ----------------------------------------------------------------------------------


def test_help_headings_speak_the_users_language() -> None:
    german = " ".join(invoke(["simulate", "--help"]).stdout.split())
    for heading in ("Aufruf: main simulate [OPTIONEN]", "Optionen:", "[Standard: 1000;",
                    "mindestens 1]", "--games GANZZAHL", "--plot DATEI",
                    "Diese Hilfe zeigen und beenden."):
        assert heading in german
    assert not any(word in german for word in ("Usage:", "Options:", "[default:", "x>=1",
                                               "INTEGER", "Show this message"))
    english = " ".join(invoke(["simulate", "--help", "--lang", "en"]).stdout.split())
    for heading in ("Usage: main simulate [OPTIONS]", "Options:", "[default: 1000;",
                    "at least 1]", "--games INTEGER", "Show this help and exit."):
        assert heading in english
    group = invoke(["--help"], LANG="de_DE.UTF-8").stdout
    assert "Befehle:" in group
    assert "BEFEHL [ARGUMENTE]..." in group
    assert "Commands:" in invoke(["--help"], LANG="en_US.UTF-8").stdout


# --- --free-strike where it changes nothing --------------------------------------------------

ALREADY_FREE = [name for name in PRESETS if preset(name).strike is not StrikeRule.FORCED]


def test_some_rule_sets_strike_freely_anyway() -> None:
    assert {"kniffel-championship", "yahtzee"} <= set(ALREADY_FREE)
    assert "extreme" not in ALREADY_FREE
    assert "kniffel" not in ALREADY_FREE


@pytest.mark.parametrize("name", ALREADY_FREE)
def test_free_strike_is_refused_where_it_changes_nothing(name: str) -> None:
    title_de, title_en = preset(name).title("de"), preset(name).title("en")
    assert refusal(invoke(["rules", "--rules", name, "--free-strike"])) == [
        f"kniffel rules: --free-strike ändert an {title_de} nichts: dort darf der Wurf ohnehin "
        "jederzeit in ein freies Kästchen nach Wahl, auch mit 0 Punkten."]
    assert refusal(invoke(["rules", "--rules", name, "--free-strike", "--lang", "en"])) == [
        f"kniffel rules: --free-strike changes nothing in {title_en}: there a roll may go in "
        "any open box at any time anyway, for 0 points too."]
    assert preset(name).free_strike or preset(name).strike is StrikeRule.ANY_BOX


@pytest.mark.parametrize("command", [["simulate", "--games", "1"], ["solve", "--max-open", "1"],
                                     ["advise", "1", "2", "3", "4", "5"]])
def test_every_command_with_free_strike_refuses_it_where_it_changes_nothing(
        command: list[str]) -> None:
    title = preset("yahtzee").title("en")
    assert refusal(invoke([*command, "--rules", "yahtzee", "--free-strike", "--lang", "en"])) == [
        f"kniffel {command[0]}: --free-strike changes nothing in {title}: there a roll may go "
        "in any open box at any time anyway, for 0 points too."]


@pytest.mark.parametrize("name", [n for n in PRESETS if n not in ALREADY_FREE])
def test_free_strike_makes_a_forced_strike_free(name: str) -> None:
    assert ruleset_from_options(name, True, "rules", "de") == preset(name, free_strike=True)
    assert ruleset_from_options(name, True, "rules", "de").strike is StrikeRule.FREE
    result = invoke(["rules", "--rules", name, "--free-strike"])
    assert result.exit_code == 0
    assert "Meisterschaftsregel" in result.stdout


# --- numbers follow the language -------------------------------------------------------------

#: a point after a digit that is not a thousands separator (three digits, then no digit)
DECIMAL_POINT = re.compile(r"\d\.(?!\d{3}(?!\d))")
#: a comma after a digit that is not a thousands separator
DECIMAL_COMMA = re.compile(r"\d,(?!\d{3}(?!\d))")


def read_back(shown: str, lang: str) -> float:
    """A number as :func:`number` writes it, read back."""
    plain = shown.replace(".", "").replace(",", ".") if lang == "de" else shown.replace(",", "")
    return float(plain)


finite = st.floats(min_value=-1e12, max_value=1e12, allow_nan=False, allow_infinity=False)


@given(value=finite, digits=st.integers(min_value=0, max_value=3))
def test_a_german_number_has_a_decimal_comma_and_an_english_one_a_point(
        value: float, digits: int) -> None:
    german, english = number(value, "de", digits), number(value, "en", digits)
    assert not DECIMAL_POINT.search(german), german
    assert not DECIMAL_COMMA.search(english), english
    assert german.count(",") == (1 if digits else 0)
    assert english.count(".") == (1 if digits else 0)
    assert read_back(german, "de") == read_back(english, "en") == float(f"{value:.{digits}f}")


@given(value=st.integers(min_value=-10**12, max_value=10**12))
def test_a_count_groups_thousands_as_the_language_does(value: int) -> None:
    german, english = count(value, "de"), count(value, "en")
    assert "," not in german
    assert "." not in english
    assert read_back(german, "de") == read_back(english, "en") == value
    assert re.fullmatch(r"-?\d{1,3}(\.\d{3})*", german), german


@given(value=finite, most=st.integers(min_value=0, max_value=3))
def test_a_decimal_uses_only_the_digits_it_needs(value: float, most: int) -> None:
    german, english = decimal(value, "de", most), decimal(value, "en", most)
    assert not DECIMAL_POINT.search(german)
    assert not DECIMAL_COMMA.search(english)
    assert not re.search(r",(\d*0)?$", german), german  # no trailing zero, no bare comma
    assert read_back(german, "de") == read_back(english, "en") == float(f"{value:.{most}f}")


@given(share=st.floats(min_value=0, max_value=1), digits=st.integers(min_value=0, max_value=3))
def test_a_percentage_follows_the_language(share: float, digits: int) -> None:
    german, english = percent(share, "de", digits), percent(share, "en", digits)
    assert german.endswith(" %")
    assert english.endswith(" %")
    assert not DECIMAL_POINT.search(german)
    assert not DECIMAL_COMMA.search(english)
    assert read_back(german[:-2], "de") == read_back(english[:-2], "en")


@given(nbytes=st.integers(min_value=0, max_value=10**13))
def test_a_size_follows_the_language(nbytes: int) -> None:
    german, english = size(nbytes, "de"), size(nbytes, "en")
    assert not DECIMAL_POINT.search(german)
    assert not DECIMAL_COMMA.search(english)
    value_de, unit_de = german.rsplit(" ", 1)
    value_en, unit_en = english.rsplit(" ", 1)
    assert unit_de == unit_en in ("B", "kB", "MB", "GB")
    assert read_back(value_de, "de") == read_back(value_en, "en")


def test_the_helpers_write_the_issues_numbers_right() -> None:
    assert number(712.0, "de") == "712,0"
    assert size(2_400_000_000, "de") == "2,4 GB"
    assert count(359_424, "de") == "359.424"
    assert number(640.0, "de") == "640,0"
    assert number(6.321, "de", 2) == "6,32"


# --- every README example in German and in English --------------------------------------------

#: English words of the command line's frame and of the converted commands' output
ENGLISH_WORDS = re.compile(r"Error:|Usage:|Options:|Commands:|Aborted|\bTry\b|\bpoints\b|"
                           r"\bgames\b|\bPoints\b|\bTotal\b|\bRoll\b|\bBox\b|\bCondition\b|"
                           r"\bUpper sum\b|\bfits\b|\bsum of\b")
#: a version, a date or an address: dotted numbers that are no decimals
DOTTED = re.compile(r"\d+(\.\d+){2,}")
#: a file name (games.json, totals.png): its words are no English
FILE_NAME = re.compile(r"\S+\.[a-z]\w*")
#: a German number with a point that is no thousands separator
GERMAN_DECIMAL_POINT = re.compile(r"(?<![\w.])\d+\.(?!\d{3}(?!\d))\d+")
#: an English number with a comma that is no thousands separator
ENGLISH_DECIMAL_COMMA = re.compile(r"(?<![\w,])\d+,(?!\d{3}(?!\d))\d+")
#: German words of the frame and the converted commands, which an English reader must not see
GERMAN_WORDS = re.compile(r"Aufruf:|Optionen:|Befehle:|Hilfe:|Abgebrochen|\bPunkte\b|"
                          r"\bSpiele\b|\bKästchen\b|\bGesamt\b|\bWurf\b|\bBedingung\b|"
                          r"\bSumme\b")


_FOLDERS: dict[str, Path] = {}
LOCALES = {"de": "de_DE.UTF-8", "en": "en_US.UTF-8"}
SLOW_EXAMPLES = ("kniffel simulate", "kniffel advise")
#: Each example in each language; a simulation's and an advice's in the ``solve`` tier.
RUNS = [pytest.param(lang, command, id=f"{lang}: {command}",
                     marks=[pytest.mark.solve] if command.startswith(SLOW_EXAMPLES) else [])
        for lang in LOCALES for command in EXAMPLES]


@pytest.mark.parametrize(("lang", "command"), RUNS)
def test_every_readme_example_speaks_the_locales_language(
        lang: str, command: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    for start, reason in SKIPPED.items():
        if command.startswith(start):
            pytest.skip(reason)
    if lang not in _FOLDERS:  # one folder per language: export, then import its file
        _FOLDERS[lang] = readme_folder(tmp_path_factory.mktemp(f"readme-{lang}"))
    folder = _FOLDERS[lang]
    bin_dir = Path(sys.executable).parent
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
           "XDG_DATA_HOME": str(folder / "data"), "KNIFFEL_CACHE_DIR": str(folder / "cache"),
           "COLUMNS": "120", "NO_COLOR": "1", "LANG": LOCALES[lang], "LC_ALL": "",
           "LC_MESSAGES": ""}
    exported_first(command, folder, env)
    done = subprocess.run(["bash", "-c", command], cwd=folder, env=env, capture_output=True,
                          text=True, timeout=300, check=False)
    output = done.stdout + done.stderr
    assert done.returncode == 0, f"{command}\n{output[-3000:]}"
    assert "Traceback" not in output
    if "--json" in command:
        return  # JSON is for programs: its keys and numbers are the same in every language
    words = FILE_NAME.sub("", output)
    if "--help" in command:  # the help texts themselves are German / English
        words = "\n".join(line for line in words.splitlines() if line.endswith(":"))
    numbers = DOTTED.sub("", output)
    if lang == "de" and "--lang en" not in command:
        english = ENGLISH_WORDS.findall(words)
        assert not english, f"{command}: English in German output: {english}"
        points = GERMAN_DECIMAL_POINT.findall(numbers)
        assert not points, f"{command}: decimal points in German output: {points}"
    if lang == "en":
        german = GERMAN_WORDS.findall(words)
        assert not german, f"{command}: German in English output: {german}"
        commas = ENGLISH_DECIMAL_COMMA.findall(numbers)
        assert not commas, f"{command}: decimal commas in English output: {commas}"
