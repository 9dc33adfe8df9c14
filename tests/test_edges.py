"""The command line, the library and the files they write at their edges (issue 31, items
3–10): each test names the behaviour it pins."""

from __future__ import annotations

import os
import random
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import invoke, run_async
from kniffel import (
    Box,
    Correct,
    Enter,
    Game,
    Keep,
    KniffelError,
    Mode,
    Outcome,
    Player,
    PlayerKind,
    Roll,
    Score,
    Strike,
    Throw,
    UnknownBoxError,
    fits,
    loads_game,
    points,
    preset,
)
from kniffel.engine.saves import save_text
from kniffel.engine.strategy import get_strategy
from kniffel.history import History
from kniffel.simulate import play_out
from kniffel.storage import load_game, save_game


def finished_game(seed: int = 1) -> Game:
    rules = preset("kniffel")
    game = Game(rules, [Player("Anna", PlayerKind.COMPUTER, "greedy")], seed=seed)
    play_out(game, get_strategy("greedy", rules), random.Random(seed))
    return game


@pytest.fixture
def umask_027() -> Iterator[None]:
    old = os.umask(0o027)
    try:
        yield
    finally:
        os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


# --- item 7: files are written with the user's umask ------------------------------------------


def test_every_file_written_takes_the_users_umask_not_0600(tmp_path: Path,
                                                            umask_027: None) -> None:
    from kniffel.tui.rescue import write_rescue

    db = tmp_path / "h.sqlite3"
    with History(db) as history:
        history.start(finished_game())
    assert invoke(["export", "--db", str(db), str(tmp_path / "all.json")]).exit_code == 0
    assert invoke(["export", "--db", str(db), "--game", "1",
                  str(tmp_path / "one.json")]).exit_code == 0
    save_game(finished_game(), tmp_path / "saved.json")
    rescued, _ = write_rescue(finished_game(), db)
    assert rescued is not None
    for written in (tmp_path / "all.json", tmp_path / "one.json", tmp_path / "saved.json",
                    rescued):
        assert mode(written) == 0o640, written


def test_a_replaced_file_keeps_its_own_mode(tmp_path: Path, umask_027: None) -> None:
    target = tmp_path / "saved.json"
    target.write_text("old")
    target.chmod(0o604)
    save_game(finished_game(), target)
    assert mode(target) == 0o604


def test_a_private_write_is_readable_by_its_owner_only(tmp_path: Path) -> None:
    from kniffel.storage import write_atomic

    write_atomic(tmp_path / "secret.txt", "x", private=True)
    assert mode(tmp_path / "secret.txt") == 0o600


# --- item 4: the library refuses at the door ----------------------------------------------------


#: Values of every kind a caller might pass by mistake.
JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 12), st.floats(allow_nan=True), st.text(max_size=8),
    st.sampled_from(["chance", "Chance", "full-house", "chanse", "extreme", "dice", "pad", ""]),
    st.lists(st.integers(-1, 11), max_size=7), st.tuples(st.integers(0, 7)),
    st.sampled_from([Box.CHANCE, Box.HIGHWAY, Roll((1, 2, 3, 4, 5)), Roll((6,) * 5, d10=9),
                     Keep((6,)), Keep(), Mode.PAD, object(), b"12345", {"d6": [1]}]),
)


def _games() -> list[Game]:
    dice = Game("extreme", ["Anna", "Ben"], seed=3)
    rng = random.Random(3)
    dice.roll(rng)
    pad = Game("kniffel", ["Anna"], mode=Mode.PAD)
    pad.apply(Enter(Box.CHANCE, 20))
    return [dice, pad]


def _calls(game: Game, a: Any, b: Any, c: Any) -> list[Callable[[], object]]:
    rng = random.Random(0)
    return [
        lambda: Game(a), lambda: Game("kniffel", a), lambda: Game("kniffel", mode=a),
        lambda: Game("kniffel", seed=a), lambda: Game("kniffel", start_player=a),
        lambda: Game("kniffel", actions=a), lambda: Game("kniffel", [a, b]),
        lambda: game.apply(a), lambda: game.apply(Score(a)), lambda: game.apply(Strike(a, b)),
        lambda: game.apply(Enter(a, b)), lambda: game.apply(Enter(Box.CHANCE, a, b)),
        lambda: game.apply(Correct(a, b, c)), lambda: game.apply(Throw(a)),
        lambda: game.apply(Outcome(a)), lambda: game.apply(Throw(), player=a),
        lambda: game.roll(a), lambda: game.roll(rng, a), lambda: game.sample_outcome(a),
        lambda: game.sheet(a), lambda: game.pad_choices(a), lambda: game.corrections(a, b),
        lambda: points(a, b), lambda: fits(a, Roll((1, 1, 1, 1, 1))), lambda: preset(a),
        lambda: preset("kniffel", free_strike=a), lambda: Box(a), lambda: Roll(a),
        lambda: Roll(a, b), lambda: Keep(a), lambda: Keep((6,), a), lambda: loads_game(a),
        lambda: save_text(a),
    ]


CALLS = len(_calls(Game(), None, None, None))


@pytest.mark.parametrize("which", range(CALLS))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(a=JUNK, b=JUNK, c=JUNK)
def test_every_public_call_refuses_a_wrong_value_with_a_kniffel_error_and_the_game_still_saves(
        which: int, a: Any, b: Any, c: Any) -> None:
    for game in _games():
        try:
            _calls(game, a, b, c)[which]()
        except KniffelError as e:
            refused: KniffelError | None = e
        else:
            refused = None
        if refused is not None:  # the catalog's error: a code that has a sentence
            from kniffel.engine.messages import CATALOG

            assert refused.code in CATALOG
        again = loads_game(save_text(game))
        assert again.to_json() == game.to_json()
        assert again.actions == game.actions


def test_a_box_is_taken_by_its_name_and_the_game_saves() -> None:
    game = Game("kniffel", ["Anna"], seed=1)
    rng = random.Random(1)
    game.roll(rng)
    game.apply(Score("chance"))  # type: ignore[arg-type]  # the natural form, taken whole
    assert game.actions[-1] == Score(Box.CHANCE)
    assert loads_game(save_text(game)).scores() == game.scores()
    assert Box("Full-House") is Box.FULL_HOUSE
    assert points("chance", Roll((1, 2, 3, 4, 6))) == 16


def test_a_misspelt_box_is_the_catalogs_unknown_box_error() -> None:
    with pytest.raises(UnknownBoxError) as caught:
        Box("chanse")
    assert caught.value.code == "box.unknown"


def test_roll_keeps_dice_given_as_a_tuple_or_a_list() -> None:
    game = Game("kniffel", ["Anna"], seed=2)
    rng = random.Random(2)
    first = game.roll(rng)
    kept = first.d6[:1]
    assert kept[0] in game.roll(rng, kept).d6
    assert kept[0] in game.roll(rng, list(kept)).d6
    assert game.actions[2] == Throw(Keep(kept))
    assert loads_game(save_text(game)).actions == game.actions


def test_save_game_of_something_else_and_load_game_of_no_path_are_refused(
        tmp_path: Path) -> None:
    with pytest.raises(KniffelError):
        save_game("not a game", tmp_path / "x.json")  # type: ignore[arg-type]
    with pytest.raises(KniffelError):
        load_game(5)  # type: ignore[arg-type]
    assert not (tmp_path / "x.json").exists()


def test_every_strategy_has_a_repr_that_names_or_rebuilds_it() -> None:
    import kniffel
    from kniffel.engine.strategy import GreedyStrategy, RandomStrategy, get_strategy
    from kniffel.players import optimal

    rules = preset("kniffel")
    names = {"RandomStrategy": RandomStrategy, "GreedyStrategy": GreedyStrategy,
             "RuleSet": kniffel.RuleSet}
    for strategy in (RandomStrategy(rules), GreedyStrategy(rules, use_numpy=False)):
        rebuilt = eval(repr(strategy), names)
        assert type(rebuilt) is type(strategy)
        assert repr(rebuilt) == repr(strategy)
    assert repr(get_strategy("expert", rules)).startswith("ExpertStrategy(RuleSet.preset(")
    assert repr(optimal) == "kniffel.players.optimal"
    assert " at 0x" not in repr(get_strategy("greedy", rules))


# --- item 3: a cache folder that cannot be made ---------------------------------------------------


@pytest.fixture
def no_cache(tmp_path: Path) -> dict[str, str | None]:
    """An environment whose home is a file: no cache folder can be made under it."""
    home = tmp_path / "home"
    home.write_text("a file, not a folder")
    return {"HOME": str(home), "XDG_CACHE_HOME": None, "KNIFFEL_CACHE_DIR": None,
            "XDG_DATA_HOME": str(tmp_path / "data")}


def test_solve_without_a_cache_folder_computes_in_memory_and_says_so(
        no_cache: dict[str, str | None]) -> None:
    result = invoke(["solve", "--rules", "kniffel"], **no_cache)
    assert result.exit_code == 0, result.output
    assert "kann nicht angelegt werden: ein Teil des Pfads ist eine Datei" in result.output
    assert "im Speicher berechnet und nicht aufbewahrt" in result.output
    assert "Tabelle: nicht gespeichert" in result.output
    assert "248,0761" in result.output
    assert "Traceback" not in result.output


def test_the_full_extreme_table_without_a_cache_folder_is_one_sentence(
        no_cache: dict[str, str | None]) -> None:
    result = invoke(["solve", "--rules", "extreme", "--lang", "en"], **no_cache)
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        f"kniffel solve: The solver's cache folder {no_cache['HOME']}/.cache/kniffel/solver "
        "cannot be made: a part of its path is a file, not a folder."]


@pytest.mark.parametrize("args", [
    ["simulate", "--rules", "kniffel", "--strategy", "optimal", "--games", "2", "--jobs", "1"],
    ["simulate", "--rules", "kniffel", "--strategy", "expert", "--games", "2", "--jobs", "1"],
    ["review", "SAVE"],
])
def test_commands_that_need_a_table_play_on_without_a_cache_folder(
        args: list[str], no_cache: dict[str, str | None], tmp_path: Path) -> None:
    from kniffel.engine import values

    values._table_values.cache_clear()  # no table of an earlier test in this process
    save = tmp_path / "game.json"
    save_game(finished_game(), save)
    result = invoke([str(save) if a == "SAVE" else a for a in args], **no_cache)
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output


def test_a_read_only_or_full_cache_folder_is_named_for_what_it_is(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    from kniffel.engine.messages import render
    from kniffel.solver.table import CacheError, cache_folder

    for number, code, words in (
            (errno.EACCES, "solver.cache_read_only", "schreibgeschützt"),
            (errno.EROFS, "solver.cache_read_only", "schreibgeschützt"),
            (errno.ENOSPC, "solver.cache_full", "kein Platz mehr")):
        def refuse(*_args: object, number: int = number, **_kwargs: object) -> None:
            raise OSError(number, os.strerror(number))

        monkeypatch.setattr("tempfile.mkstemp", refuse)
        with pytest.raises(CacheError) as caught:
            cache_folder(tmp_path / "cache")
        assert caught.value.code == code
        assert words in render(caught.value, "de")
        assert str(tmp_path / "cache") in render(caught.value, "de")
        monkeypatch.undo()


# --- item 5: a saved game is dated by the save ----------------------------------------------


def test_an_imported_save_is_dated_when_it_was_saved_and_sorts_first(tmp_path: Path) -> None:
    from datetime import UTC, datetime

    db = tmp_path / "h.sqlite3"
    with History(db) as history:
        old = finished_game(2)
        history.start(old)
    save_game(finished_game(1), tmp_path / "g.json")
    assert invoke(["import", "--db", str(db), str(tmp_path / "g.json")]).exit_code == 0
    with History(db) as history:
        records = history.games()
    today = datetime.now(UTC).date().isoformat()
    assert records[0].started_at.startswith(today)
    assert not any(r.started_at.startswith("1970") for r in records)


def test_a_save_without_dates_is_dated_by_its_file_and_counts_as_the_same_game(
        tmp_path: Path) -> None:
    from kniffel.engine.saves import save_text

    db = tmp_path / "h.sqlite3"
    game = finished_game(3)
    plain = tmp_path / "plain.json"
    plain.write_text(save_text(game))
    os.utime(plain, (1_700_000_000, 1_700_000_000))  # 2023-11-14
    assert invoke(["import", "--db", str(db), str(plain)]).exit_code == 0
    save_game(game, tmp_path / "dated.json")
    again = invoke(["import", "--db", str(db), "--lang", "en", str(tmp_path / "dated.json")])
    assert "already stored" in again.output
    with History(db) as history:
        (record,) = history.games()
    assert record.started_at.startswith("2023-11-14")


def test_export_game_keeps_the_games_own_start_through_an_import(tmp_path: Path) -> None:
    db, other = tmp_path / "h.sqlite3", tmp_path / "other.sqlite3"
    with History(db) as history:
        history.start(finished_game(4))
        (record,) = history.games()
    assert invoke(["export", "--db", str(db), "--game", "1",
                  str(tmp_path / "one.json")]).exit_code == 0
    assert invoke(["import", "--db", str(other), str(tmp_path / "one.json")]).exit_code == 0
    with History(other) as history:
        (imported,) = history.games()
    assert (imported.started_at, imported.finished_at) == (record.started_at,
                                                           record.finished_at)


# --- item 8: the way back names the history ---------------------------------------------


def test_play_tells_the_way_back_with_its_own_db(tmp_path: Path) -> None:
    """The quit report's "kniffel play --resume" names the history the game is kept in (quoted
    for the shell); the rescue's "--load" is pinned in test_tui (a locked history)."""

    from kniffel.engine.match import Seat
    from kniffel.tui.app import KniffelApp

    db = tmp_path / "my games.sqlite3"
    app = KniffelApp(lang="de", history=History(db), seats=[Seat("Anna")], seed=3)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("r", "q")
            await pilot.pause()

    run_async(main())
    assert app.quit_report() == f"Spiel gespeichert – weiter mit: kniffel play --db '{db}' --resume"


# --- item 10: help in the reader's language; --lang everywhere; any output encoding -------------


def test_lang_is_taken_by_kniffel_itself_and_in_any_case() -> None:
    group = invoke(["--lang", "en", "--help"])
    assert group.exit_code == 0, group.output
    assert "Commands:" in group.output
    assert "There is no option" not in group.output
    assert "Box" in invoke(["--lang", "EN", "rules"]).output
    assert "Kästchen" in invoke(["--lang", "en", "rules", "--lang", "De"]).output


def test_help_speaks_one_language_with_its_own_argument_names_and_numbers() -> None:
    german = " ".join(invoke(["score", "--help"], LANG="de_DE.UTF-8").output.split())
    assert "[WÜRFEL]..." in german
    assert "WÜRFEL: für extreme sechs Werte" in german
    assert "for one roll" not in german
    english = " ".join(invoke(["score", "--lang", "en", "--help"]).output.split())
    assert "[DICE]..." in english
    assert "Punkte" not in english
    play = " ".join(invoke(["play", "--help"]).output.split())
    assert "[Standard: 0,5;" in play
    assert "SPIELSTAND" in " ".join(invoke(["show", "--help"]).output.split())
    assert "--filled KÄSTCHEN=PUNKTE" in " ".join(invoke(["advise", "--help"]).output.split())
    assert "--load SPIELSTAND" in " ".join(invoke(["play", "--help"]).output.split())
    assert "``" not in invoke(["import", "--help"]).output
    assert "expert" in " ".join(invoke(["simulate", "--help"]).output.split())


def test_an_ascii_terminal_gets_plain_words_not_a_traceback() -> None:
    import subprocess
    import sys

    env = {**os.environ, "PYTHONIOENCODING": "ascii", "LANG": "de_DE.UTF-8"}
    done = subprocess.run([sys.executable, "-m", "kniffel", "rules"], env=env,
                          capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert b"Traceback" not in done.stderr
    assert b"Kaestchen" in done.stdout


# --- item 9: words with plural forms, and sentences that say what is wrong -----------------------


def test_one_game_is_imported_and_exported_in_the_singular(tmp_path: Path) -> None:
    save_game(finished_game(5), tmp_path / "g.json")
    db = tmp_path / "h.sqlite3"
    german = invoke(["import", "--db", str(db), str(tmp_path / "g.json")]).output
    assert "1 neues Spiel importiert, 0 schon gespeichert (übersprungen)." in german
    english = invoke(["import", "--db", str(db), "--lang", "en", str(tmp_path / "g.json")]).output
    assert "0 new games imported, 1 already stored (skipped)." in english
    exported = invoke(["export", "--db", str(db), "--lang", "en", str(tmp_path / "all.json")])
    assert f"1 game → {tmp_path / 'all.json'}" in exported.output


def test_plural_forms_follow_babels_cldr_rules_and_the_browsers_fallback_agrees(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from babel import Locale

    from kniffel.engine import messages

    numbers = [0, 1, 2, 3, 11, 21, 101, 1000, 1.5, 0.5]
    for lang in ("de", "en"):
        with_babel = [messages.plural_form(n, lang) for n in numbers]
        assert with_babel == [Locale.parse(lang).plural_form(n) for n in numbers]
        monkeypatch.setattr(messages, "_plural_rules", lambda _lang: None)
        assert [messages.plural_form(n, lang) for n in numbers] == with_babel
        monkeypatch.undo()


def test_history_counts_an_open_game_in_rounds_not_actions(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    game = Game("kniffel", ["Anna", "Ben"], seed=1)
    rng = random.Random(1)
    strategy = get_strategy("random", game.rules)
    while game.round < 4:
        game.apply(game.sample_outcome(rng) if game.is_chance_node()
                   else strategy.choose(game, rng))
    with History(db) as history:
        history.start(game)
    german = invoke(["history", "--db", str(db)]).output
    assert "offen, Runde 4 von 13" in german
    assert "Züge" not in german


def test_chips_and_the_upper_sum_are_refused_in_a_sentence_that_names_the_problem() -> None:
    chips = invoke(["advise", "--rules", "kniffel", "--chips", "2", "1", "2", "3", "4", "5"])
    assert chips.exit_code == 2
    assert "Kniffel (klassisch) wird ohne Chips gespielt" in chips.output
    assert "0 bis 0" not in chips.output
    upper = invoke(["advise", "--upper", "500", "1", "2", "3", "4", "5", "6"])
    assert upper.exit_code == 2
    assert "Die Summe oben ist in Kniffel Extreme 0 bis 126, nicht 500." in upper.output
    empty = invoke(["advise", "--rules", "kniffel", "--upper", "50", "1", "2", "3", "4", "5"])
    assert "solange kein oberes Kästchen belegt ist" in empty.output
    assert "nicht berechnen" not in empty.output + upper.output


# --- item 6: a long review shows how far it is ----------------------------------------------------


def test_a_review_reports_its_progress_action_by_action(tmp_path: Path) -> None:
    from kniffel.solver.review import review

    game = finished_game(6)
    heard: list[tuple[int, int]] = []
    review(game, directory=tmp_path, build=True,
           progress=lambda done, total: heard.append((done, total)))
    assert heard[-1] == (len(game.actions), len(game.actions))
    assert [done for done, _ in heard] == list(range(1, len(game.actions) + 1))


def test_the_review_bar_appears_only_in_a_terminal_and_after_half_a_second(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import kniffel.cli.common
    from kniffel.cli.common import work_progress

    with work_progress("Auswertung", "de") as step:  # not a terminal here: no bar
        step(1, 2)
    clock = iter([0.0, 0.1, 0.9, 1.0, 1.1, 1.2])
    monkeypatch.setattr("time.monotonic", lambda: next(clock))
    shown: list[str] = []

    class Terminal:
        is_terminal = True

    class Bar:
        def start(self) -> None:
            shown.append("start")

        def add_task(self, title: str, **_kwargs: object) -> int:
            shown.append(title)
            return 0

        def update(self, _task: int, **fields: object) -> None:
            shown.append(f"{fields['completed']}/{fields['total']}")

        def stop(self) -> None:
            shown.append("stop")

    monkeypatch.setattr(kniffel.cli.common, "rich_console", lambda err=False: Terminal())
    monkeypatch.setattr(kniffel.cli.common, "solve_progress", lambda *_a, **_k: Bar())
    with work_progress("Auswertung", "de") as step:
        step(1, 3)  # at 0.1 s: too soon for a bar
        step(2, 3)
        step(3, 3)
    assert shown == ["start", "Auswertung", "2/3", "3/3", "stop"]


@pytest.mark.parametrize("command", ["score", "rules", "show", "simulate", "history", "stats",
                                     "export", "import", "play", "solve", "advise", "review",
                                     "chances", "web"])
def test_every_commands_german_help_is_german_and_english_help_english(command: str) -> None:
    german = " ".join(invoke([command, "--help"], LANG="de_DE.UTF-8").output.split())
    assert not any(f" {word} " in german for word in ("the", "and", "of", "every"))
    english = " ".join(invoke([command, "--help", "--lang", "en"]).output.split())
    assert not any(f" {word} " in english for word in ("der", "und", "jede", "wird"))


@settings(max_examples=300, deadline=None)
@given(value=st.one_of(st.floats(-1e9, 1e9), st.integers(-10**7, 10**7).map(float),
                       st.sampled_from([0.125, 2.675, 0.005, -0.04, 1e-9, 999.95, 0.5])),
       digits=st.integers(0, 4))
def test_numbers_come_from_babels_formats_and_the_browsers_fallback_writes_the_same(
        value: float, digits: int) -> None:
    from kniffel.engine import messages

    for lang in ("de", "en"):
        with_babel = messages.number(value, lang, digits)
        formats = messages._babel_numbers(lang)
        assert formats is not None
        try:
            messages._babel_numbers.cache_clear()
            original = messages._babel_numbers
            messages._babel_numbers = lambda _lang: None  # type: ignore[assignment]
            by_hand = messages.number(value, lang, digits)
        finally:
            messages._babel_numbers = original
        assert with_babel == by_hand
