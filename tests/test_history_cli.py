"""``kniffel history``, ``stats``, ``export``, ``import`` and ``play``'s errors, on real database
files."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import CLI_ENV, invoke
from kniffel import Game, Player, PlayerKind, preset
from kniffel.cli import main
from kniffel.engine.strategy import get_strategy
from kniffel.history import SCHEMA_VERSION, History
from kniffel.simulate import play_out


def filled_db(path: Path) -> list[Game]:
    games = []
    with History(path) as db:
        for seed in (1, 2):
            rules = preset("kniffel")
            game = Game(rules, [Player("Anna", PlayerKind.COMPUTER, "greedy"),
                                Player("Ben", PlayerKind.COMPUTER, "random")], seed=seed)
            play_out(game, get_strategy("greedy", rules), random.Random(seed))
            db.start(game)
            games.append(game)
        db.start(Game(preset("extreme"), ["Clara"]))
    return games


def test_history_lists_every_game_with_players_totals_and_state(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    games = filled_db(db)
    result = invoke(["history", "--db", str(db), "--lang", "en"])
    assert result.exit_code == 0, result.output
    for g in games:
        assert f"Anna {g.scores()[0]}, Ben {g.scores()[1]}" in result.stdout
    assert result.stdout.count("│ finished") == 2
    assert "unfinished, round 1 of 22" in result.stdout  # counted as a player counts


def test_history_of_an_empty_database_says_so(tmp_path: Path) -> None:
    result = invoke(["history", "--db", str(tmp_path / "new.sqlite3")])
    assert result.exit_code == 0
    assert "Noch keine Spiele gespeichert." in result.stdout


def test_stats_for_one_player(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    games = filled_db(db)
    result = invoke(["stats", "--db", str(db), "--player", "anna", "--lang", "en"])
    assert result.exit_code == 0, result.output
    row = next(line for line in result.stdout.splitlines() if "Anna" in line)
    cells = [c.strip() for c in row.strip("│ ").split("│")]
    totals = [g.scores()[0] for g in games]
    wins = sum(1 for g in games if 0 in g.winners())
    assert cells[:5] == ["Anna", "2", str(wins), f"{sum(totals) / 2:,.1f}", str(max(totals))]
    assert "Statistics: Kniffel (classic)" in result.stdout
    assert "Ben" not in result.stdout


def test_stats_without_finished_games(tmp_path: Path) -> None:
    result = invoke(["stats", "--db", str(tmp_path / "h.sqlite3"), "--player", "Zoe"])
    assert result.exit_code == 0
    assert "Keine beendeten Spiele (Zoe)." in result.stdout


def test_export_then_import_into_another_database(tmp_path: Path) -> None:
    source, target = tmp_path / "a.sqlite3", tmp_path / "b.sqlite3"
    filled_db(source)
    out = tmp_path / "export.json"
    assert invoke(["export", "--db", str(source), str(out)]).exit_code == 0
    assert len(json.loads(out.read_text())["games"]) == 3
    result = invoke(["import", "--db", str(target), str(out)])
    assert result.exit_code == 0, result.output
    assert "3 neue Spiele importiert, 0 schon gespeichert" in result.stdout
    again = invoke(["import", "--lang", "en", "--db", str(target), str(out)])
    assert "0 new games imported, 3 already stored (skipped)" in again.stdout
    to_stdout = invoke(["export", "--db", str(target)])
    assert json.loads(to_stdout.stdout)["games"] == json.loads(out.read_text())["games"]


def test_an_invalid_import_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    filled_db(db)
    before = db.read_bytes()
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "kniffel-history", "version": 1, "games": [{"uid": "x", '
                   '"started_at": "2026-01-01", "game": {"format": "nope"}}]}')
    result = invoke(["import", "--lang", "en", "--db", str(db), str(bad)])
    assert result.exit_code == 2
    assert "Game 1 of the file: This is not a kniffel saved game." in result.stderr
    assert "Nothing was imported" in result.stderr
    assert db.read_bytes() == before
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": ')
    result = invoke(["import", "--db", str(db), str(broken)])
    assert result.exit_code == 2
    assert "Die Datei ist kein gültiges JSON. Es wurde nichts importiert." in result.stderr
    assert db.read_bytes() == before


def test_commands_report_a_newer_database_clearly_and_leave_it(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    filled_db(db)
    raw = sqlite3.connect(db)
    raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 5}")
    raw.commit()
    raw.close()
    before = db.read_bytes()
    for command in ("history", "stats", "export", "play"):
        result = invoke([command, "--db", str(db)])
        assert result.exit_code == 2, command
        assert f"kniffel {command}:" in result.stderr
        assert "neueren Kniffel-Version (Schema 7" in result.stderr
    assert db.read_bytes() == before


def test_commands_call_a_file_that_is_no_database_foreign_not_damaged(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    db.write_bytes(b"garbage" * 1000)
    result = invoke(["stats", "--db", str(db)])
    assert result.exit_code == 2
    assert "ist keine Datenbank, also kein Kniffel-Spielverlauf" in result.stderr
    assert "beschädigt" not in result.stderr
    assert db.read_bytes() == b"garbage" * 1000


def test_commands_report_a_damaged_database(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    filled_db(db)
    data = bytearray(db.read_bytes())
    data[4096: 4096 + 16] = b"\xff" * 16  # scribble over the header of the second page
    db.write_bytes(bytes(data))
    result = invoke(["stats", "--db", str(db)])
    assert result.exit_code == 2
    assert "Der Spielverlauf ist beschädigt" in result.stderr
    assert db.read_bytes() == bytes(data)


def test_play_resume_without_an_unfinished_game_is_an_error(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    result = invoke(["play", "--db", str(db), "--resume"])
    assert result.exit_code == 2
    assert "Es gibt kein offenes Spiel zum Fortsetzen." in result.stderr


def test_play_resume_refuses_a_game_whose_strategy_is_unknown(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    with History(db) as h:
        h.start(Game(preset("kniffel"), [Player("Bot", PlayerKind.COMPUTER, "oracle")]))
    result = invoke(["play", "--db", str(db), "--resume"])
    assert result.exit_code == 2
    assert "Computerspieler „oracle“ (Bot), den es hier nicht gibt" in result.stderr


def test_play_start_beyond_the_players_is_an_error(tmp_path: Path) -> None:
    result = invoke(["play", "--db", str(tmp_path / "h.sqlite3"), "--player", "Anna",
                    "--start", "3"])
    assert result.exit_code == 2
    assert "--start 3, aber es spielen nur 1 Spieler." in result.stderr


def test_play_help_names_resume_speed_and_the_language_default() -> None:
    result = invoke(["play", "--lang", "en", "--help"])
    assert result.exit_code == 0
    text = " ".join(result.stdout.split())
    for word in ("--resume", "--speed", "--player", "from the locale", "--db"):
        assert word in text


def _play_in_a_terminal(args: list[str], keys: list[bytes], tmp_path: Path) -> str:
    """Run ``kniffel play ARGS`` in a pseudo-terminal, type ``keys`` (one every 0.6 s once the
    screen shows Anna) and return everything it wrote."""
    import os
    import pty
    import select
    import subprocess
    import sys
    import time

    env = dict(os.environ, TERM="xterm-256color", COLUMNS="120", LINES="40",
               XDG_DATA_HOME=str(tmp_path / "xdg"))
    primary, secondary = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "kniffel", "play", *args], stdin=secondary,
                            stdout=secondary, stderr=secondary, env=env, close_fds=True)
    os.close(secondary)
    out = bytearray()

    def read_for(seconds: float, until: bytes | None = None) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end and not (until and until in out):
            ready, _, _ = select.select([primary], [], [], 0.05)
            if ready:
                try:
                    out.extend(os.read(primary, 65536))
                except OSError:
                    return

    try:
        read_for(15.0, until=b"Anna")  # the screen is up
        read_for(0.5)
        for key in keys:
            os.write(primary, key)
            read_for(0.6)
        proc.wait(timeout=20)
        read_for(0.5)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(primary)
    return out.decode("utf-8", "replace")


@pytest.mark.tmux
def test_kniffel_play_in_a_real_terminal_saves_and_resumes(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    text = _play_in_a_terminal(["--db", str(db), "--lang", "en", "--rules", "kniffel",
                                "--player", "Anna", "--player", "Bot:greedy", "--start", "1",
                                "--speed", "0", "--seed", "3"], [b"r", b"\r", b"q"], tmp_path)
    assert f"Game saved – continue with: kniffel play --db {db} --resume" in text
    with History(db) as h:
        found = h.latest_unfinished()
        assert found is not None
        game = found[1]
        assert [p.name for p in game.players] == ["Anna", "Bot"]
        assert len(game.sheet(0).entries) == 1  # Anna's first box, saved
    text = _play_in_a_terminal(["--db", str(db), "--resume"], [b"q"], tmp_path)
    assert f"kniffel play --db {db} --resume" in text


def long_names_db(path: Path) -> tuple[str, ...]:
    """Finished games on both rule sets by players with long names; the names."""
    names = ("Maximilian-Alexander von Hohenzollern", "Bärbel", "Christoph Wilhelm")
    with History(path) as db:
        for seed, rules_name in ((1, "kniffel"), (2, "extreme")):
            rules = preset(rules_name)
            game = Game(rules, [Player(n, PlayerKind.COMPUTER, "greedy") for n in names],
                        seed=seed)
            play_out(game, get_strategy("greedy", rules), random.Random(seed))
            db.start(game)
    return names


def test_stats_fits_80_columns_in_german_without_cutting_a_heading_or_a_name(
        tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    names = long_names_db(db)
    result = CliRunner().invoke(main, ["stats", "--db", str(db), "--lang", "de"],
                                env={**CLI_ENV, "COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert "…" not in result.stdout
    for head in ("Spieler", "Spiele", "Siege", "Ø Punkte", "Bestwert", "Bonus", "Kniffel"):
        assert f" {head} " in result.stdout
    assert "Statistik: Kniffel (klassisch)" in result.stdout
    assert "Statistik: Kniffel Extreme" in result.stdout
    first_column = "".join(line.split("│")[1].replace(" ", "") for line in lines
                           if line.count("│") > 2)
    for name in names:
        assert name.replace(" ", "") in first_column  # wrapped, never cut
    numbers = [c.strip() for line in lines for c in line.split("│")[2:] if c.strip()]
    assert any(n[-2:-1] == "," for n in numbers)  # German: "628,0"
    assert not any(n[-2:-1] == "." for n in numbers)  # never "628.0"


def test_stats_in_a_narrow_terminal_lists_each_player_with_every_name_and_number(
        tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    names = long_names_db(db)
    result = CliRunner().invoke(main, ["stats", "--db", str(db), "--lang", "de"],
                                env={**CLI_ENV, "COLUMNS": "50"})
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 50
    for name in names:
        assert f"  {name}" in lines
    assert sum(line.strip().startswith("Spiele 1 · Siege ") for line in lines) == 6
    assert "…" not in result.stdout


def test_history_fits_80_columns_in_german_with_every_name(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    names = long_names_db(db)
    result = CliRunner().invoke(main, ["history", "--db", str(db), "--lang", "de"],
                                env={**CLI_ENV, "COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    assert max(len(line) for line in result.stdout.splitlines()) <= 80
    assert "…" not in result.stdout
    flat = " ".join(result.stdout.replace("│", " ").split())
    for word in ("Beginn", "Regeln", "Spieler und Punkte", "Stand", "beendet",
                 *" ".join(names).split()):
        assert word in flat


def test_the_read_only_commands_leave_a_missing_and_an_empty_file_as_they_are(
        tmp_path: Path) -> None:
    empty = tmp_path / "empty.sqlite3"
    empty.touch()
    missing = tmp_path / "sub" / "h.sqlite3"
    for command in ("history", "stats", "export"):
        for db in (empty, missing):
            result = invoke([command, "--db", str(db)])
            assert result.exit_code == 0, result.output
            assert "es wurde keiner angelegt" in result.stderr
    assert empty.read_bytes() == b""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty.sqlite3"]


def test_export_refuses_its_own_database_under_any_name_and_keeps_it(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    filled_db(db)
    before = db.read_bytes()
    (tmp_path / "link.sqlite3").symlink_to(db)
    for target in (str(db), str(tmp_path / "." / "h.sqlite3"), str(tmp_path / "link.sqlite3")):
        for extra in ([], ["--force"]):
            result = invoke(["export", "--db", str(db), *extra, target])
            assert result.exit_code == 2
            assert "ist der Spielverlauf selbst; er wird nicht überschrieben." in result.stderr
    assert db.read_bytes() == before


def test_export_replaces_an_existing_file_only_with_force_and_a_database_never(
        tmp_path: Path) -> None:
    db, other = tmp_path / "h.sqlite3", tmp_path / "other.sqlite3"
    filled_db(db)
    filled_db(other)
    kept = other.read_bytes()
    old = tmp_path / "old.json"
    old.write_text("my notes\n")
    result = invoke(["export", "--db", str(db), "--lang", "en", str(old)])
    assert result.exit_code == 2
    assert f"{old} exists already; --force replaces it." in result.stderr
    assert old.read_text() == "my notes\n"
    result = invoke(["export", "--db", str(db), "--force", str(old)])
    assert result.exit_code == 0, result.output
    assert len(json.loads(old.read_text())["games"]) == 3
    result = invoke(["export", "--db", str(db), "--force", "--lang", "en", str(other)])
    assert result.exit_code == 2
    assert "is a SQLite database; it is never overwritten, not even with --force" in \
        result.stderr
    assert other.read_bytes() == kept


def test_export_does_not_create_a_missing_folder_and_names_it(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    filled_db(db)
    target = tmp_path / "no" / "such" / "x.json"
    result = invoke(["export", "--db", str(db), str(target)])
    assert result.exit_code == 2
    assert f"den Ordner {target.parent} gibt es nicht (er wird nicht angelegt)" in result.stderr
    assert not (tmp_path / "no").exists()


def test_export_game_writes_one_game_as_a_save_for_show(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    games = filled_db(db)
    with History(db) as h:
        first = min(r.id for r in h.games())
    save = tmp_path / "game.json"
    result = invoke(["export", "--db", str(db), "--game", str(first), str(save)])
    assert result.exit_code == 0, result.output
    assert f"Spiel Nr. {first} → {save}" in result.stderr
    from kniffel.storage import load_game
    assert load_game(save).actions == games[0].actions
    shown = invoke(["show", str(save), "--lang", "en"])
    assert shown.exit_code == 0, shown.output
    assert "Anna" in shown.stdout
    assert str(games[0].scores()[0]) in shown.stdout
    to_stdout = invoke(["export", "--db", str(db), "--game", str(first)])
    # the same save, but for when it was written (the two exports may fall in two seconds)
    written, printed = json.loads(save.read_text()), json.loads(to_stdout.stdout)
    assert {**printed, "saved": None} == {**written, "saved": None}
    assert "saved" in printed
    again = invoke(["export", "--db", str(db), "--game", str(first), str(save)])
    assert again.exit_code == 2
    assert "--force" in again.stderr
    missing = invoke(["export", "--db", str(db), "--game", "99", "--lang", "en",
                     str(tmp_path / "g99.json")])
    assert missing.exit_code == 2
    assert "There is no game #99 in the history." in missing.stderr
    assert not (tmp_path / "g99.json").exists()


def test_export_help_names_force_and_game() -> None:
    result = invoke(["export", "--lang", "en", "--help"])
    text = " ".join(result.stdout.split())
    for word in ("--force", "replace an existing file", "--game", "save file", "never"):
        assert word in text
