"""``kniffel play`` refuses bad players before any screen or file is opened: exit status 2, a
message naming the problem, no traceback, no history database."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from kniffel import Game, Keep, Throw
from kniffel.cli import main
from kniffel.engine.rules import preset
from kniffel.engine.strategy import strategy_names
from kniffel.history import History
from kniffel.storage import save_game
from kniffel.tui.app import KniffelApp

ENV: dict[str, str | None] = {"COLUMNS": "250", "NO_COLOR": "1"}


@pytest.mark.parametrize(("players", "words"), [
    ([""], ["must not be empty"]),
    (["   "], ["must not be empty"]),
    (["A", "a"], ["Two players are called", '"a"', "ignoring case"]),
    (["Anna", "Bot:greedy", "bot:random"], ["Two players are called"]),
    (["x" * 41], ["longer than 40 characters"]),
    ([f"P{i}" for i in range(9)], ["1 to 8 players", "not 9"]),
    (["Bot:gready"], ['no computer player "gready"', *strategy_names()]),
    (["Anna:"], ['no computer player ""']),
])
def test_play_refuses_bad_players_with_exit_2_and_creates_no_database(
        tmp_path: Path, players: list[str], words: list[str]) -> None:
    db = tmp_path / "sub" / "h.sqlite3"
    args = ["play", "--db", str(db), "--lang", "en"]
    for p in players:
        args += ["--player", p]
    result = CliRunner().invoke(main, args, env=ENV)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception,
                                                                     SystemExit)
    assert result.output.startswith("kniffel play: ")
    for w in words:
        assert w in result.output
    assert not db.exists()
    assert not db.parent.exists()


def test_play_refuses_a_start_player_beyond_the_players(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    result = CliRunner().invoke(main, ["play", "--db", str(db), "--player", "Anna",
                                       "--start", "2"], env=ENV)
    assert result.exit_code == 2
    assert result.output == "kniffel play: --start 2, aber es spielen nur 1 Spieler.\n"
    assert not db.exists()


def test_a_name_with_a_registered_strategy_suffix_is_a_computer() -> None:
    from kniffel.cli.play import parse_seat
    from kniffel.engine.match import Seat

    assert parse_seat("Bot:greedy") == Seat("Bot", "greedy")
    assert parse_seat("Bot: Greedy ") == Seat("Bot", "greedy")
    assert parse_seat("Anna") == Seat("Anna")


def test_parse_seat_refuses_an_unknown_strategy_listing_the_known_ones() -> None:
    from kniffel.cli.play import parse_seat
    from kniffel.engine.errors import UnknownStrategyError

    with pytest.raises(UnknownStrategyError, match="random, greedy"):
        parse_seat("Bot:gready")


# --- issue 19: no terminal, contradicting options, any unfinished game, a rescue file -------

KNIFFEL = Path(sys.executable).with_name("kniffel")


def _played(rules: str = "kniffel", names: tuple[str, ...] = ("Anna",), seed: int = 1,
            throws: int = 1) -> Game:
    """A game of ``names`` with ``throws`` throws of the first player (and their dice)."""
    game = Game(preset(rules), list(names), seed=seed)
    for _ in range(throws):
        game.apply(Throw(Keep()))
        game.apply(game.sample_outcome(random.Random(seed)))
    return game


@pytest.mark.parametrize("shell", [
    "{kniffel} play --lang {lang} --db {db} < /dev/null",
    "{kniffel} play --lang {lang} --db {db} < /dev/null | head -c0",
    "{kniffel} play --lang {lang} --db {db} --player Anna 2>&1 < /dev/null | cat",
])
@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.solve
def test_play_without_a_terminal_refuses_at_once_with_one_sentence(
        tmp_path: Path, shell: str, lang: str) -> None:
    db = tmp_path / "h.sqlite3"
    started = time.monotonic()
    command = shell.format(kniffel=KNIFFEL, lang=lang, db=db)
    result = subprocess.run(["bash", "-c", f"set -o pipefail; {command}; echo rc=$?"],
                            capture_output=True, text=True, timeout=30)
    assert time.monotonic() - started < 15  # at once, not spinning until killed
    sentence = {"de": "kniffel play: Das Spiel braucht ein Terminal: Ein- und Ausgabe dürfen "
                      "nicht umgeleitet sein.\n",
                "en": "kniffel play: The game needs a terminal: its input and output must "
                      "not be redirected.\n"}[lang]
    assert result.stdout.endswith("rc=2\n")
    assert sentence in result.stdout + result.stderr
    assert (result.stdout + result.stderr).replace(sentence, "", 1) in ("rc=2\n", "")
    assert not db.exists()  # nothing created


@pytest.mark.parametrize(("extra", "named"), [
    (["--player", "Anna"], "--player"),
    (["--rules", "kniffel"], "--rules"),
    (["--free-strike"], "--free-strike"),
    (["--start", "1"], "--start"),
    (["--seed", "3"], "--seed"),
])
def test_resume_refuses_the_options_the_resumed_game_has_of_its_own(
        tmp_path: Path, extra: list[str], named: str) -> None:
    db = tmp_path / "h.sqlite3"
    result = CliRunner().invoke(main, ["play", "--db", str(db), "--lang", "en", "--resume",
                                       *extra], env=ENV)
    assert result.exit_code == 2
    assert result.output == (f"kniffel play: {named} cannot go with --resume: the resumed game "
                             f"has its own players, rules and dice.\n")
    assert not db.exists()


def test_load_refuses_resume_and_the_options_of_a_new_game(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["play", "--load", "x.json", "--resume", "--seed", "1"],
                                env=ENV)
    assert result.exit_code == 2
    assert result.output == ("kniffel play: --resume, --seed passt nicht zu --load: das geladene "
                             "Spiel hat seine eigenen Spieler, Regeln und Würfel.\n")


@pytest.mark.parametrize("rules", ["yahtzee", "kniffel-championship", "kniffel-anleitung"])
def test_free_strike_is_refused_where_it_changes_nothing(tmp_path: Path, rules: str) -> None:
    from kniffel.engine.rules import StrikeRule

    assert preset(rules).strike is not StrikeRule.FORCED
    result = CliRunner().invoke(main, ["play", "--db", str(tmp_path / "h.sqlite3"), "--rules",
                                       rules, "--free-strike", "--lang", "en"], env=ENV)
    assert result.exit_code == 2
    assert result.output == (f"kniffel play: --free-strike changes nothing in "
                             f"{preset(rules).title('en')}: there a roll may go in any open box "
                             f"at any time anyway, for 0 points too.\n")


@pytest.fixture
def no_screen(monkeypatch: pytest.MonkeyPatch) -> list[KniffelApp]:
    """``kniffel play`` as if in a terminal, the game not shown: the apps it would run."""
    from kniffel.cli import play as cli

    apps: list[KniffelApp] = []
    monkeypatch.setattr(cli, "_has_terminal", lambda: True)
    monkeypatch.setattr(KniffelApp, "run", lambda self, *a, **k: apps.append(self))
    return apps


def test_free_strike_where_it_means_something_is_played(tmp_path: Path,
                                                        no_screen: list[KniffelApp]) -> None:
    result = CliRunner().invoke(main, ["play", "--db", str(tmp_path / "h.sqlite3"), "--rules",
                                       "kniffel", "--free-strike", "--player", "Anna"], env=ENV)
    assert result.exit_code == 0, result.output
    [app] = no_screen
    assert app.rules == preset("kniffel", free_strike=True)


def test_resume_id_picks_any_unfinished_game_and_plain_resume_the_latest(
        tmp_path: Path, no_screen: list[KniffelApp]) -> None:
    db = tmp_path / "h.sqlite3"
    with History(db) as h:
        old = h.start(_played(names=("Old",)))
        done = _played(names=("Done",))
        while not done.is_over():
            done.apply(done.legal_actions()[-1] if not done.is_chance_node()
                       else done.sample_outcome(random.Random(1)))
        finished = h.start(done)
        new = h.start(_played(names=("New",)))
    for args, wanted in ((["--resume", str(old)], ("Old", old)), (["--resume"], ("New", new)),
                         ([f"--resume={new}"], ("New", new))):
        result = CliRunner().invoke(main, ["play", "--db", str(db), *args], env=ENV)
        assert result.exit_code == 0, result.output
        resumed = no_screen.pop()._resume
        assert resumed is not None
        assert (resumed[1].players[0].name, resumed[0]) == wanted
    result = CliRunner().invoke(main, ["play", "--db", str(db), "--resume", str(finished)],
                                env=ENV)
    assert result.exit_code == 2
    assert result.output == (f"kniffel play: Spiel Nr. {finished} ist schon beendet; offene "
                             f"Spiele zeigt kniffel history.\n")
    result = CliRunner().invoke(main, ["play", "--db", str(db), "--resume", "99"], env=ENV)
    assert result.exit_code == 2
    assert "99" in result.output
    assert "Traceback" not in result.output


def test_load_continues_the_stored_game_it_extends_or_stores_a_new_one(
        tmp_path: Path, no_screen: list[KniffelApp]) -> None:
    db = tmp_path / "h.sqlite3"
    stored = _played(throws=1)
    longer = Game(stored.rules, stored.players, seed=stored.seed, actions=stored.actions)
    longer.apply(longer.legal_actions()[0] if not isinstance(
        longer.legal_actions()[0], Throw) else longer.legal_actions()[-1])
    with History(db) as h:
        gid = h.start(stored)
    save = save_game(longer, tmp_path / "rescue.json")
    result = CliRunner().invoke(main, ["play", "--db", str(db), "--load", str(save)], env=ENV)
    assert result.exit_code == 0, result.output
    app = no_screen.pop()
    assert app._resume is not None
    assert app._resume[0] == gid
    assert app._resume[1].actions == longer.actions
    assert app._stored == stored.actions  # the rest is written at once
    other = save_game(_played(seed=9), tmp_path / "other.json")
    result = CliRunner().invoke(main, ["play", "--db", str(db), "--load", str(other)], env=ENV)
    assert result.exit_code == 0, result.output
    app = no_screen.pop()
    assert app._resume is not None
    assert app._resume[0] is None
    assert app._stored == ()


@pytest.mark.solve
def test_play_seats_the_expert_to_win_and_it_plays_a_whole_game_stored_in_the_history(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 41: "Experte, auf Sieg" is a computer player of ``kniffel play``
    (``NAME:expert-win``); the game it sets up is played to its end by it and the expert, and
    stored."""
    from conftest import run_async
    from kniffel.cli import play as cli
    from kniffel.tui.game import GameScreen

    monkeypatch.setenv("KNIFFEL_CACHE_DIR", str(tmp_path / "cache"))
    played: list[Game] = []

    def run_headless(app: KniffelApp, *args: object, **kwargs: object) -> None:
        """The app as ``kniffel play`` runs it, in Textual's headless test mode, until the
        game is over and stored."""
        async def main_() -> None:
            async with app.run_test(size=(120, 40)) as pilot:
                for _ in range(400000):
                    screen = app.screen
                    if isinstance(screen, GameScreen) and screen.game.is_over() and (
                            screen.match.save_state.in_sync):
                        break
                    await pilot.pause()
                screen = app.screen
                assert isinstance(screen, GameScreen)
                played.append(screen.game)
                app.exit()

        run_async(main_())

    monkeypatch.setattr(cli, "_has_terminal", lambda: True)
    monkeypatch.setattr(KniffelApp, "run", run_headless)
    assert "expert-win" in strategy_names()
    db = tmp_path / "h.sqlite3"
    result = CliRunner().invoke(main, ["play", "--db", str(db), "--rules", "kniffel", "--seed",
                                       "6", "--speed", "0", "--player", "Sieger:expert-win",
                                       "--player", "Exp:expert"], env=ENV)
    assert result.exit_code == 0, result.output
    [game] = played
    assert game.is_over()
    assert [p.strategy for p in game.players] == ["expert-win", "expert"]
    with History(db) as h:
        [record] = h.games()
        assert record.players == ("Sieger", "Exp")
        assert h.load(record.id).is_over()
