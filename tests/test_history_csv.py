"""The history as a table for spreadsheets (kniffel.engine.history_csv, ``kniffel export
--csv``, the browser's CSV export): one row per player and finished game, UTF-8 with a header."""

from __future__ import annotations

import csv
import io
import json
import random
from datetime import timedelta, timezone
from pathlib import Path

import pytest

from conftest import invoke
from kniffel import Game, preset
from kniffel.browser.bridge import Session
from kniffel.engine.actions import Strike
from kniffel.engine.errors import InvalidArgumentError
from kniffel.engine.game import Mode
from kniffel.engine.history_csv import BOM, csv_rows, csv_text
from kniffel.engine.history_file import HistoryEntry
from kniffel.engine.rules import Box
from kniffel.engine.strategy import get_strategy
from kniffel.history import History
from kniffel.simulate import play_out

START = "2026-11-30T19:05:00+00:00"


def finished(seed: int, names: tuple[str, ...] = ("Anna", "Ben"),
             rules: str = "kniffel") -> Game:
    preset_rules = preset(rules)
    game = Game(preset_rules, list(names), seed=seed)
    play_out(game, get_strategy("greedy", preset_rules), random.Random(seed))
    return game


def entry(game: Game, uid: str = "u", started: str = START) -> HistoryEntry:
    return HistoryEntry(uid, started, started if game.is_over() else None, game)


def read(text: str) -> list[list[str]]:
    assert text.startswith(BOM)
    return list(csv.reader(io.StringIO(text[len(BOM):], newline="")))


def test_one_row_per_player_and_game_with_date_rules_total_place_bonus_upper_sum_and_boxes(
        ) -> None:
    game = finished(1)
    rows = read(csv_text([entry(game)], "en"))
    head = rows[0]
    assert head[:9] == ["Game", "Date", "Rules", "Player", "Total", "Place", "Bonus",
                        "Extra points", "Upper sum"]
    assert head[9:] == [game.rules.box_name(b, "en") for b in sorted(game.rules.boxes,
                                                                        key=list(Box).index)]
    assert len(rows) == 1 + 2
    ranks = {player: rank for rank, player, _ in game.ranking()}
    for seat, row in enumerate(rows[1:]):
        sheet = game.sheet(seat)
        assert row[:4] == ["1", "2026-11-30 19:05", "Kniffel (classic)", game.players[seat].name]
        assert [int(x) for x in row[4:9]] == [sheet.total, ranks[seat], sheet.bonus,
                                              sheet.extra_bonus, sheet.upper_sum]
        boxes = [int(x) for x in row[9:]]
        # every box's points, the bonus and the extra points: the total, nothing else
        assert sum(boxes) + sheet.bonus + sheet.extra_bonus == sheet.total
    # the German header, from the catalog
    assert read(csv_text([entry(game)], "de"))[0][:9] == [
        "Spiel", "Datum", "Regeln", "Spieler", "Gesamt", "Platz", "Bonus", "Zusatzpunkte",
        "Summe oben"]


def test_the_text_is_utf8_with_a_byte_order_mark_commas_and_crlf() -> None:
    text = csv_text([entry(finished(2, ("Zoë", "Jürgen, der Große")))], "de")
    assert text.startswith(BOM)
    assert text.count("\r\n") == 3
    assert "\n" not in text.replace("\r\n", "")
    rows = read(text)
    assert [r[3] for r in rows[1:]] == ["Zoë", "Jürgen, der Große"]  # quoted, read back whole
    assert text.encode("utf-8").startswith(b"\xef\xbb\xbf")


def test_equal_totals_share_a_place_and_a_struck_box_reads_0() -> None:
    game = Game(preset("kniffel"), ["Anna", "Ben"], mode=Mode.PAD, seed=3)
    while not game.is_over():  # both strike every box on the score pad: 0 points each, a tie
        game.apply(next(a for a in game.legal_actions() if isinstance(a, Strike)))
    rows = read(csv_text([entry(game)], "en"))
    assert [r[5] for r in rows[1:]] == ["1", "1"]
    assert all(cell == "0" for r in rows[1:] for cell in r[9:])


def test_unfinished_games_are_left_out_and_games_are_numbered_in_order() -> None:
    open_game = Game(preset("kniffel"), ["Clara"], seed=4)
    rows = read(csv_text([entry(finished(5), "a"), entry(open_game, "b"),
                          entry(finished(6, ("Clara",)), "c")], "en"))
    assert [(r[0], r[3]) for r in rows[1:]] == [("1", "Anna"), ("1", "Ben"), ("2", "Clara")]
    assert read(csv_text([entry(open_game)], "en"))[1:] == []  # the header alone


def test_rule_sets_side_by_side_share_the_columns_of_their_boxes() -> None:
    classic, extreme = finished(7), finished(8, ("Dora",), "extreme")
    rows = read(csv_text([entry(classic, "a"), entry(extreme, "b")], "en"))
    head = rows[0]
    assert len(head) == 9 + len(Box)  # every box of either rule set, once
    highway = head.index("Highway")
    assert rows[1][highway] == ""  # classic Kniffel has no Highway: an empty cell
    assert rows[3][highway] in {"0", "50"}
    assert rows[3][2] == "Kniffel Extreme"


def test_a_name_a_spreadsheet_would_run_as_a_formula_is_written_as_text() -> None:
    rows = read(csv_text([entry(finished(9, ("=1+2", "@SUM(A1)")))], "en"))
    assert [r[3] for r in rows[1:]] == ["'=1+2", "'@SUM(A1)"]


def test_dates_follow_the_time_zone_asked_and_a_text_that_is_no_time_stays() -> None:
    berlin = timezone(timedelta(hours=1))
    rows = csv_rows([entry(finished(10), started="2026-11-30T23:30:00.000Z")], "en", berlin)
    assert rows[1][1] == "2026-12-01 00:30"
    assert csv_rows([entry(finished(10), started="gestern")], "en")[1][1] == "gestern"


def test_the_table_refuses_what_is_no_history_entry_with_the_catalogs_error() -> None:
    with pytest.raises(InvalidArgumentError) as e:
        csv_text([finished(11)], "en")  # type: ignore[list-item]
    assert e.value.code == "argument.invalid"


def filled(db: Path) -> list[Game]:
    games = [finished(12), finished(13, ("Clara",), "extreme")]
    with History(db) as h:
        for g in games:
            h.start(g)
        h.start(Game(preset("kniffel"), ["Dora"], seed=1))  # no action: not stored
    return games


def test_kniffel_export_csv_writes_the_table_to_stdout_and_to_a_file(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    games = filled(db)
    shown = invoke(["export", "--csv", "--db", str(db), "--lang", "en"])
    assert shown.exit_code == 0, shown.output
    rows = read(shown.stdout)
    assert [r[3] for r in rows[1:]] == ["Anna", "Ben", "Clara"]
    assert int(rows[3][4]) == games[1].scores()[0]
    target = tmp_path / "games.csv"
    written = invoke(["export", "--csv", "--db", str(db), str(target)])
    assert written.exit_code == 0, written.output
    assert f"2 beendete Spiele als Tabelle → {target}" in written.stderr
    assert target.read_bytes().decode("utf-8") == csv_text(History(db).entries(), "de",
                                                           _local())
    again = invoke(["export", "--csv", "--db", str(db), str(target)])
    assert again.exit_code == 2  # an existing file is replaced only with --force
    assert "--force" in again.stderr


def _local() -> timezone | None:
    from datetime import datetime
    zone = datetime.now().astimezone().tzinfo
    assert zone is None or isinstance(zone, timezone)
    return zone


def test_kniffel_export_csv_of_one_game_and_of_a_game_that_is_not_there(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite3"
    filled(db)
    with History(db) as h:
        last = next(r.id for r in h.games() if r.players == ("Clara",))
    one = invoke(["export", "--csv", "--game", str(last), "--db", str(db), "--lang", "en"])
    assert one.exit_code == 0, one.output
    assert [r[3] for r in read(one.stdout)[1:]] == ["Clara"]
    missing = invoke(["export", "--csv", "--game", "99", "--db", str(db), "--lang", "en",
                      str(tmp_path / "x.csv")])
    assert missing.exit_code == 2
    assert "There is no game #99 in the history." in missing.stderr
    assert not (tmp_path / "x.csv").exists()


def test_export_help_names_csv() -> None:
    result = invoke(["export", "--lang", "en", "--help"])
    assert "--csv" in result.stdout
    assert "spreadsheets" in " ".join(result.stdout.split())


def test_the_browsers_export_offers_the_same_table_in_the_pages_time_zone() -> None:
    game = finished(14)
    page_entry = {"uid": "u", "started": "2026-11-30T23:30:00.000Z",
                  "finished_at": "2026-11-30T23:59:00.000Z", "game": game.to_json()}
    reply = json.loads(Session().handle_json(json.dumps({
        "op": "export_history", "entries": [page_entry], "csv": True, "zone": -60,
        "lang": "en"})))
    assert reply["ok"], reply
    rows = read(reply["csv"])
    assert rows[1][1] == "2026-12-01 00:30"  # getTimezoneOffset() -60: an hour east of UTC
    assert rows[1][3] == "Anna"
    bad = json.loads(Session().handle_json(json.dumps({
        "op": "export_history", "entries": [page_entry], "csv": True, "zone": "Berlin"})))
    assert not bad["ok"]
    assert bad["error"]["code"] == "web.bad_request"
