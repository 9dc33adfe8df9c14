"""The history file shared by the desktop and the browser: one format (version 2), both old
version-1 shapes read, and round trips desktop export -> browser import and browser export ->
desktop import that keep every date and the finished/unfinished state."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from kniffel import Game, preset
from kniffel.browser.bridge import Session
from kniffel.cli import main
from kniffel.engine.errors import InvalidImportError
from kniffel.engine.history_file import (
    FORMAT,
    UNKNOWN_TIME,
    VERSION,
    HistoryEntry,
    decode_history,
    derived_uid,
    encode_history,
)
from kniffel.engine.identity import game_identity
from kniffel.engine.messages import render
from kniffel.history import History

ENV: dict[str, str | None] = {"COLUMNS": "200", "NO_COLOR": "1", "LC_ALL": None,
                              "LC_MESSAGES": None, "LANG": None}


def played(seed: int, moves: int | None = None, name: str = "Anna") -> Game:
    """A kniffel game with random legal moves: to the end, or ``moves`` decisions."""
    game = Game(preset("kniffel"), [name, "Ben"], seed=seed)
    rng = random.Random(seed)
    made = 0
    while not game.is_over() and (moves is None or made < moves):
        if game.is_chance_node():
            game.apply(game.sample_outcome(rng))
        else:
            game.apply(rng.choice(game.legal_actions()))
            made += 1
    return game


def desktop_db(path: Path) -> list[tuple[str, str, str | None]]:
    """A history database with a finished and an unfinished game; their uid, start, finish."""
    times = iter(["2026-11-01T10:00:00+00:00", "2026-11-01T10:30:00+00:00",
                  "2026-11-02T09:00:00+00:00", "2026-11-02T09:05:00+00:00"])
    with History(path, clock=lambda: next(times)) as db:
        done = played(1)
        gid = db.start(Game(done.rules, done.players, seed=done.seed), uid="u-done")
        db.record(gid, done)
        db.start(played(2, moves=5), uid="u-open")
    return [("u-done", "2026-11-01T10:00:00+00:00", "2026-11-01T10:30:00+00:00"),
            ("u-open", "2026-11-02T09:00:00+00:00", None)]


def test_encode_writes_version_2_and_decode_reads_it_back() -> None:
    entries = [HistoryEntry("a", "2026-01-01T00:00:00+00:00", "2026-01-01T01:00:00+00:00",
                            played(3)),
               HistoryEntry("b", "2026-01-02T00:00:00+00:00", None, played(4, moves=3))]
    data = json.loads(json.dumps(encode_history(entries)))
    assert (data["format"], data["version"]) == (FORMAT, VERSION) == ("kniffel-history", 2)
    assert set(data["games"][0]) == {"uid", "started", "finished_at", "game"}
    back = decode_history(data)
    assert [(e.uid, e.started, e.finished_at, e.game.actions) for e in back] == [
        (e.uid, e.started, e.finished_at, e.game.actions) for e in entries]


def test_desktop_version_1_files_are_still_read() -> None:
    game = played(5)
    old = {"format": "kniffel-history", "version": 1, "games": [
        {"uid": "x1", "started_at": "2026-01-01T10:00:00+00:00",
         "updated_at": "2026-01-01T11:00:00+00:00", "finished_at": "2026-01-01T11:00:00+00:00",
         "game": game.to_json()}]}
    (entry,) = decode_history(old)
    assert (entry.uid, entry.started, entry.finished_at) == (
        "x1", "2026-01-01T10:00:00+00:00", "2026-01-01T11:00:00+00:00")


def test_browser_version_1_files_are_still_read_with_a_uid_from_the_game() -> None:
    done, open_game = played(6), played(7, moves=4)
    old = {"format": "kniffel-history", "version": 1, "games": [
        {"finished": "2026-02-01T12:00:00.000Z", "game": done.to_json()},
        {"finished": "2026-02-02T12:00:00.000Z", "game": open_game.to_json()},
        {"finished": None, "game": played(8, moves=2).to_json()}]}
    a, b, c = decode_history(old)
    assert (a.started, a.finished_at) == ("2026-02-01T12:00:00.000Z", "2026-02-01T12:00:00.000Z")
    assert (b.started, b.finished_at) == ("2026-02-02T12:00:00.000Z", None)  # not over
    assert (c.started, c.finished_at) == (UNKNOWN_TIME, None)
    assert a.uid == derived_uid(done) != b.uid
    assert decode_history(old)[0].uid == a.uid  # the same game, the same uid


@pytest.mark.parametrize(("mangle", "code"), [
    (lambda d: d.update(format="other"), "import.not_history"),
    (lambda d: d.update(version=3), "import.newer_version"),
    (lambda d: d.update(version="2"), "import.bad_version"),
    (lambda d: d.update(games={}), "import.games_not_list"),
    (lambda d: d["games"].append(1), "import.entry_not_object"),
    (lambda d: d["games"][0].pop("uid"), "import.field_not_text"),
    (lambda d: d["games"][1].update(uid="a"), "import.uid_twice"),
    (lambda d: d["games"][1].update(finished_at="2026-01-01T00:00:00+00:00"),
     "import.finished_not_over"),
    (lambda d: d["games"][0]["game"]["actions"].append({"type": "chip"}), "import.game_invalid"),
])
def test_a_bad_file_is_refused_whole_with_a_code(mangle: Any, code: str) -> None:
    data = encode_history([HistoryEntry("a", "t0", "t1", played(3)),
                           HistoryEntry("b", "t2", None, played(4, moves=3))])
    mangle(data)
    with pytest.raises(InvalidImportError) as info:
        decode_history(data)
    assert info.value.code == code
    assert render(info.value, "de") != render(info.value, "en")


def test_desktop_export_goes_into_the_browser_with_dates_and_state(tmp_path: Path) -> None:
    stored = desktop_db(tmp_path / "h.sqlite3")
    out = tmp_path / "export.json"
    result = CliRunner().invoke(main, ["export", "--db", str(tmp_path / "h.sqlite3"), str(out)],
                                env=ENV)
    assert result.exit_code == 0, result.output
    reply = Session().handle({"op": "import", "text": out.read_text(encoding="utf-8")})
    assert reply["ok"], reply
    assert reply["kind"] == "history"
    got = [(e["uid"], e["started"], e["finished_at"]) for e in reply["entries"]]
    assert got == stored
    assert [e["summary"]["over"] for e in reply["entries"]] == [True, False]


def test_browser_export_goes_into_the_desktop_with_dates_and_state(tmp_path: Path) -> None:
    done, open_game = played(11), played(12, moves=6)
    page_entries = [  # as the page stores them (new fields), and one older entry
        {"uid": "p1", "started": "2026-03-01T08:00:00.000Z",
         "finished_at": "2026-03-01T08:40:00.000Z", "game": done.to_json(), "summary": {}},
        {"uid": "p2", "started": "2026-03-02T08:00:00.000Z", "finished_at": None,
         "game": open_game.to_json(), "summary": {}},
        {"id": "old-3", "finished": "2026-03-03T08:00:00.000Z", "game": played(13).to_json()},
    ]
    reply = Session().handle({"op": "export_history", "entries": page_entries})
    assert reply["ok"], reply
    path = tmp_path / "browser.json"
    path.write_text(json.dumps(reply["file"]), encoding="utf-8")
    db = tmp_path / "desktop.sqlite3"
    first = CliRunner().invoke(main, ["import", "--db", str(db), str(path)], env=ENV)
    assert first.exit_code == 0, first.output
    assert "3 neue Spiele importiert, 0 schon gespeichert" in first.stdout
    with History(db) as h:
        rows = {e.uid: (e.started, e.finished_at, e.game.actions) for e in h.entries()}
    assert rows == {
        "p1": ("2026-03-01T08:00:00.000Z", "2026-03-01T08:40:00.000Z", done.actions),
        "p2": ("2026-03-02T08:00:00.000Z", None, open_game.actions),
        "old-3": ("2026-03-03T08:00:00.000Z", "2026-03-03T08:00:00.000Z",
                  played(13).actions),
    }
    again = CliRunner().invoke(main, ["import", "--lang", "en", "--db", str(db), str(path)],
                               env=ENV)
    assert again.exit_code == 0
    assert "0 new games imported, 3 already stored (skipped)" in again.stdout


def test_a_desktop_round_trip_keeps_the_file_unchanged(tmp_path: Path) -> None:
    desktop_db(tmp_path / "a.sqlite3")
    with History(tmp_path / "a.sqlite3") as a:
        data = json.loads(json.dumps(a.export()))
    with History(tmp_path / "b.sqlite3") as b:
        assert b.import_(data).imported == 2
        assert b.export() == data
        result = b.import_(data)
        assert (result.imported, result.skipped, result.skipped_uids) == (0, 2,
                                                                         ("u-done", "u-open"))


def test_bridge_import_error_carries_code_params_and_text_in_the_pages_language() -> None:
    s = Session()
    bad = json.dumps({"format": "kniffel-history", "version": 9, "games": []})
    de = s.handle({"op": "import", "text": bad})["error"]
    en = s.handle({"op": "import", "text": bad, "lang": "en"})["error"]
    assert de["code"] == en["code"] == "import.newer_version"
    assert de["params"] == {"version": 9, "known": 2}
    assert de["text"].startswith("Die Verlaufsdatei stammt von einer neueren Kniffel-Version")
    assert en["text"].startswith("The history file comes from a newer kniffel")
    assert de["type"] == "InvalidImportError"
    assert "newer than this kniffel reads" in de["message"]


def test_bridge_import_of_a_bad_game_file_names_it_in_the_pages_language() -> None:
    s = Session()
    named = s.handle({"op": "import", "text": "[]", "name": "liste.json"})["error"]
    assert named["text"] == ("„liste.json“ ist weder ein Kniffel-Spielstand noch ein "
                             "Kniffel-Verlauf; es wurde nichts geändert.")
    de = s.handle({"op": "import", "text": "[]"})["error"]["text"]
    en = s.handle({"op": "import", "text": "[]", "lang": "en"})["error"]["text"]
    assert de == "Datei: Das ist kein Kniffel-Spielstand."
    assert en.startswith("file: ")
    assert "the file" not in de


def test_the_identity_is_the_games_content_not_its_file_version_uid_or_times() -> None:
    game = played(21)
    data = game.to_json()
    assert game_identity(data) == game_identity({**data, "version": 1, "over": None})
    assert game_identity(data) != game_identity(played(22).to_json())
    renamed = Game(game.rules, ["Anne", "Ben"], seed=game.seed)
    for action in game.actions:
        renamed.apply(action)
    assert game_identity(renamed.to_json()) != game_identity(data)


def test_the_same_game_from_a_browser_version_1_file_and_a_desktop_export_is_stored_once(
        tmp_path: Path) -> None:
    done, open_game = played(14), played(15, moves=3)
    desktop = encode_history([HistoryEntry("d-1", "2026-04-01T10:00:00+00:00",
                                           "2026-04-01T10:30:00+00:00", done),
                              HistoryEntry("d-2", "2026-04-02T10:00:00+00:00", None, open_game)])
    browser = {"format": FORMAT, "version": 1, "games": [  # no uids, other times
        {"finished": "2026-04-01T10:31:00.000Z", "game": done.to_json()},
        {"finished": "2026-04-02T10:05:00.000Z", "game": open_game.to_json()},
        {"finished": "2026-04-03T10:00:00.000Z", "game": played(16).to_json()}]}
    db = tmp_path / "h.sqlite3"
    paths = {"desktop": tmp_path / "desktop.json", "browser": tmp_path / "browser.json"}
    paths["desktop"].write_text(json.dumps(desktop), encoding="utf-8")
    paths["browser"].write_text(json.dumps(browser), encoding="utf-8")
    first = CliRunner().invoke(main, ["import", "--lang", "en", "--db", str(db),
                                      str(paths["desktop"])], env=ENV)
    assert "2 new games imported, 0 already stored (skipped)" in first.stdout, first.output
    second = CliRunner().invoke(main, ["import", "--lang", "en", "--db", str(db),
                                       str(paths["browser"])], env=ENV)
    assert "1 new game imported, 2 already stored (skipped)" in second.stdout, second.output
    with History(db) as h:
        assert sorted(e.uid for e in h.entries())[:2] == ["d-1", "d-2"]
        assert len(h.entries()) == 3
        # and the other way round: the browser's games first, then the desktop's
        other = History(tmp_path / "other.sqlite3")
        assert other.import_(browser).imported == 3
        result = other.import_(desktop)
        assert (result.imported, result.skipped, result.skipped_uids) == (0, 2, ("d-1", "d-2"))
        other.close()


def test_a_single_saved_game_is_read_as_a_history_of_that_game_with_a_content_uid() -> None:
    from kniffel.engine.strategy import get_strategy
    from kniffel.simulate import play_out

    rules = preset("kniffel")
    game = Game(rules, ["Anna", "Ben"], seed=3)
    play_out(game, get_strategy("greedy", rules), random.Random(3))
    entries = decode_history(game.to_json())
    again = decode_history(json.loads(json.dumps(game.to_json())))
    assert len(entries) == 1
    assert entries[0].finished
    assert entries[0].game.to_json() == game.to_json()
    assert entries[0].uid == again[0].uid  # the same save twice is the same game


def test_import_of_a_saved_game_stores_it_once(tmp_path: Path) -> None:
    from kniffel.engine.strategy import get_strategy
    from kniffel.simulate import play_out
    from kniffel.storage import save_game

    rules = preset("kniffel")
    game = Game(rules, ["Anna"], seed=4)
    play_out(game, get_strategy("greedy", rules), random.Random(4))
    save = save_game(game, tmp_path / "anna.json")
    db = tmp_path / "h.sqlite3"
    for said in ("1 new game imported, 0 already stored (skipped).",
                 "0 new games imported, 1 already stored (skipped)."):
        result = CliRunner().invoke(main, ["import", "--db", str(db), "--lang", "en", str(save)])
        assert result.exit_code == 0, result.output
        assert result.output == said + "\n"
    with History(db) as history:
        assert [g.to_json() for g in (history.load(r.id) for r in history.games())] == [
            game.to_json()]
