"""The browser history's entries as the bridge imports and exports them: uid, start and finish
dates kept from the file (CONTRACTS.md: history entries), a stable uid for games without one."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from kniffel import Enter, Game, Mode, Strike, preset
from kniffel.browser.bridge import Session


def finished_game(name: str = "Anna", points: int = 0) -> Game:
    game = Game(preset("kniffel"), [name], mode=Mode.PAD, seed=1)
    for box in game.rules.boxes:
        game.apply(Enter(box, points) if box is game.rules.boxes[-1] and points else Strike(box))
    return game


def history_file(*entries: dict[str, Any], version: int = 2) -> str:
    return json.dumps({"format": "kniffel-history", "version": version, "games": list(entries)})


def imported(text: str) -> list[dict[str, Any]]:
    reply = Session().handle({"op": "import", "text": text})
    assert reply["ok"], reply
    assert reply["kind"] == "history"
    entries: list[dict[str, Any]] = reply["entries"]
    return entries


def test_a_version_2_history_keeps_each_games_uid_and_dates() -> None:
    done = finished_game(points=20).to_json()
    open_game = Game(preset("kniffel"), ["Ben"], mode=Mode.PAD).to_json()
    entries = imported(history_file(
        {"uid": "u-1", "started": "2025-03-12T18:00:00Z", "finished_at": "2025-03-12T18:40:00Z",
         "game": done},
        {"uid": "u-2", "started": "2025-04-01T10:00:00Z", "finished_at": None, "game": open_game}))
    assert [(e["uid"], e["started"], e["finished_at"]) for e in entries] == [
        ("u-1", "2025-03-12T18:00:00Z", "2025-03-12T18:40:00Z"),
        ("u-2", "2025-04-01T10:00:00Z", None)]
    assert entries[0]["summary"]["totals"] == [20]
    assert entries[1]["summary"]["over"] is False


def test_older_history_files_keep_their_dates_desktop_and_browser() -> None:
    done = finished_game().to_json()
    desktop = imported(history_file({"uid": "abc", "started_at": "2024-01-02T03:04:05Z",
                                     "updated_at": "2024-01-02T04:00:00Z",
                                     "finished_at": "2024-01-02T04:00:00Z", "game": done},
                                    version=1))
    assert (desktop[0]["uid"], desktop[0]["started"], desktop[0]["finished_at"]) == (
        "abc", "2024-01-02T03:04:05Z", "2024-01-02T04:00:00Z")
    # the browser's first format knew only when an entry was stored ("finished")
    open_game = Game(preset("kniffel"), ["Ben"], mode=Mode.PAD).to_json()
    browser = imported(history_file({"finished": "2024-05-06T07:08:09Z", "game": done},
                                    {"finished": "2024-05-07T07:08:09Z", "game": open_game},
                                    version=1))
    # the time an entry was stored is the closest known start
    assert [(e["started"], e["finished_at"]) for e in browser] == [
        ("2024-05-06T07:08:09Z", "2024-05-06T07:08:09Z"), ("2024-05-07T07:08:09Z", None)]


def test_a_game_without_uid_gets_the_same_uid_every_time_so_a_second_import_is_known() -> None:
    text = history_file({"game": finished_game().to_json()}, version=1)
    first, again = imported(text)[0]["uid"], imported(text)[0]["uid"]
    assert first == again
    assert first != imported(history_file({"game": finished_game("Ben").to_json()},
                                          version=1))[0]["uid"]
    single = Session().handle({"op": "import", "text": json.dumps(finished_game().to_json())})
    assert single["uid"] == first  # the same game as a single-game file


def test_export_and_import_again_keep_uid_and_dates() -> None:
    done = finished_game(points=7).to_json()
    entry = {"uid": "u-9", "started": "2026-01-01T12:00:00Z",
             "finished_at": "2026-01-01T12:30:00Z", "game": done, "summary": {}}
    file = Session().handle({"op": "export_history", "entries": [entry]})["file"]
    assert file["version"] == 2
    assert file["games"] == [{"uid": "u-9", "started": "2026-01-01T12:00:00Z",
                              "finished_at": "2026-01-01T12:30:00Z", "game": done}]
    back = imported(json.dumps(file))
    assert (back[0]["uid"], back[0]["started"], back[0]["finished_at"]) == (
        "u-9", "2026-01-01T12:00:00Z", "2026-01-01T12:30:00Z")


@pytest.mark.parametrize("field", ["uid", "started", "finished_at"])
def test_a_date_or_uid_that_is_not_text_refuses_the_file(field: str) -> None:
    entry: dict[str, Any] = {"uid": "u", "started": "2026-01-01T12:00:00Z",
                             "game": finished_game().to_json(), field: 5}
    reply = Session().handle({"op": "import", "text": history_file(entry)})
    assert not reply["ok"]
    assert field in reply["error"]["message"]
    assert "game #1" in reply["error"]["message"]


# --- an import's refusal as the player reads it (issue 20) ------------------------------------

#: The names of the save format's and the history file's parts: never shown to a player.
FORMAT_NAMES = re.compile(r"[„\"](rules|name|mode|players|actions|seed|start_player|uid|started|"
                          r"finished_at|format|version|games)[“\"]|\b(start_player|finished_at|"
                          r"uid)\b")


def _without(key: str) -> str:
    data = finished_game().to_json()
    data.pop(key)
    return json.dumps(data)


def _player_without_name() -> str:
    data = finished_game().to_json()
    data["players"][0].pop("name")
    return json.dumps(data)


REFUSED_FILES = {
    **{f"save-without-{key}": _without(key)
       for key in ("rules", "mode", "players", "actions", "seed", "start_player")},
    "player-without-name": _player_without_name(),
    "history-uid-number": history_file({"uid": 5, "started": "2026-01-01T12:00:00Z",
                                        "game": finished_game().to_json()}),
    "history-without-start": history_file({"uid": "u", "game": finished_game().to_json()}),
    "history-finished-at-number": history_file({"uid": "u", "started": "2026-01-01T12:00:00Z",
                                                "finished_at": 5,
                                                "game": finished_game().to_json()}),
    "cut-off": (lambda t: t[:t.index('"players"')])(json.dumps(finished_game().to_json())),
}


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("case", sorted(REFUSED_FILES))
def test_an_import_refusal_names_the_file_once_and_no_part_by_its_name_in_the_format(
        case: str, lang: str) -> None:
    reply = Session().handle({"op": "import", "text": REFUSED_FILES[case], "name": "spiele.json",
                              "lang": lang})
    assert not reply["ok"]
    said = reply["error"]["text"]
    lead = "„spiele.json“ wurde nicht importiert" if lang == "de" else (
        '"spiele.json" was not imported')
    assert said.startswith(lead), said
    assert said.count("spiele.json") == 1, said
    assert not FORMAT_NAMES.search(said), said


@pytest.mark.parametrize("text", ["Hallo", "\x89PNG", "[1, 2]", '{"a": 1}',
                                  '{"format": "other", "version": 1}'])
def test_a_file_that_is_no_kniffel_data_is_named_and_called_so(text: str) -> None:
    reply = Session().handle({"op": "import", "text": text, "name": "foto.jpg", "lang": "de"})
    assert not reply["ok"]
    assert reply["error"]["code"] == "web.import_not_kniffel"
    assert reply["error"]["text"] == ("„foto.jpg“ ist weder ein Kniffel-Spielstand noch ein "
                                      "Kniffel-Verlauf; es wurde nichts geändert.")


def test_a_save_without_its_rules_says_so_in_words_in_both_languages() -> None:
    def said(lang: str) -> str:
        reply = Session().handle({"op": "import", "text": _without("rules"),
                                  "name": "spiele.json", "lang": lang})
        return str(reply["error"]["text"])
    assert said("de") == ("„spiele.json“ wurde nicht importiert, es wurde nichts geändert: Der "
                          "Spielstand ist unvollständig; es fehlt ein Teil: die Regeln.")
    assert said("en") == ('"spiele.json" was not imported, nothing was changed: The saved game '
                          "is incomplete; a part is missing: its rules.")


def test_a_stored_game_opened_without_a_file_name_keeps_the_engines_own_sentence() -> None:
    # the history page opens its own entries through the same request, with no file name
    reply = Session().handle({"op": "import", "text": _without("seed"), "lang": "de"})
    assert reply["error"]["code"] == "save.missing_field"
    assert reply["error"]["text"] == ("Datei: Der Spielstand ist unvollständig; es fehlt ein "
                                      "Teil: der Startwert der Würfel.")
