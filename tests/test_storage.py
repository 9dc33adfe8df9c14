"""Saves: versioned JSON, a faithful round trip, clear errors that leave the file alone, atomic
writes."""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kniffel import (
    PRESETS,
    Box,
    CorruptSaveError,
    Game,
    KniffelError,
    Mode,
    Outcome,
    Player,
    PlayerKind,
    Roll,
    SaveError,
    Score,
    Throw,
    UnsupportedVersionError,
    loads_game,
    preset,
)
from kniffel.storage import load_game, save_game

# --- helpers ---------------------------------------------------------------------------------


def play(game: Game, rng: random.Random, steps: int | None = None) -> Game:
    done = 0
    while not game.is_over() and (steps is None or done < steps):
        if game.is_chance_node():
            game.apply(game.sample_outcome(rng))
        else:
            game.apply(rng.choice(game.legal_actions()))
        done += 1
    return game


def assert_same_game(loaded: Game, original: Game) -> None:
    assert loaded.to_json() == original.to_json()
    assert loaded.rules == original.rules
    assert loaded.players == original.players
    assert loaded.mode is original.mode
    assert loaded.seed == original.seed
    assert loaded.start_player == original.start_player
    assert loaded.actions == original.actions
    assert loaded.turn == original.turn
    assert loaded.legal_actions() == original.legal_actions()
    for i in range(len(original.players)):
        assert loaded.sheet(i) == original.sheet(i)


def small_game() -> Game:
    """Anna scores two triples (45), then Ben's first throw awaits its dice."""
    game = Game("extreme", ["Anna", "Ben"], seed=3)
    game.apply(Throw())
    game.apply(Outcome(Roll((5, 5, 5, 6, 6), 6)))
    game.apply(Score(Box.TWO_TRIPLES))
    game.apply(Throw())
    return game


def save_data() -> dict[str, Any]:
    return small_game().to_json()


def dumped(change: Callable[[dict[str, Any]], None]) -> bytes:
    data = save_data()
    change(data)
    return json.dumps(data).encode()


def files_in(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


# --- round trip ------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", list(Mode))
@pytest.mark.parametrize("name", PRESETS)
def test_save_and_load_round_trip(tmp_path: Path, name: str, mode: Mode) -> None:
    half = play(Game(name, ["Anna", "Ben"], mode=mode, seed=17, start_player=1),
                random.Random(1), 70)
    full = play(Game(name, ["Anna", "Ben", "Clara"], mode=mode, seed=4), random.Random(2))
    assert full.is_over()
    for game in (half, full):
        path = save_game(game, tmp_path / "game.json")
        assert path == tmp_path / "game.json"
        assert_same_game(load_game(path), game)


def test_round_trip_at_a_chance_node(tmp_path: Path) -> None:
    game = small_game()
    assert game.is_chance_node()
    loaded = load_game(save_game(game, tmp_path / "s.json"))
    assert loaded.is_chance_node()
    assert_same_game(loaded, game)
    # the reloaded game goes on like the original
    outcome = Outcome(Roll((1, 2, 3, 4, 5), 0))
    game.apply(outcome)
    loaded.apply(outcome)
    assert_same_game(loaded, game)


def test_round_trip_mid_turn_after_a_chip(tmp_path: Path) -> None:
    game = Game("extreme", ["Anna"], seed=8)
    rng = random.Random(0)
    for _ in range(3):
        game.roll(rng)
    game.apply(game.legal_actions()[-1])  # UseChip comes last
    turn = game.turn
    assert turn is not None
    assert turn.chip_used
    loaded = load_game(save_game(game, tmp_path / "chip.json"))
    assert_same_game(loaded, game)
    assert loaded.sheet(0).chips_left == 2


def test_round_trip_keeps_house_rule_player_kinds_and_names(tmp_path: Path) -> None:
    players = [Player("Jürgen"), Player("Robo", PlayerKind.COMPUTER, "greedy")]
    game = Game(preset("kniffel", free_strike=True), players, mode=Mode.PAD, seed=-5)
    play(game, random.Random(3), 6)
    path = save_game(game, tmp_path / "house.json")
    assert "Jürgen" in path.read_text(encoding="utf-8")
    loaded = load_game(path)
    assert loaded.rules.free_strike
    assert loaded.players == tuple(players)
    assert_same_game(loaded, game)


def test_save_is_versioned_json(tmp_path: Path) -> None:
    path = save_game(small_game(), tmp_path / "v.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == "kniffel-game"
    assert data["version"] == 1
    assert data["rules"]["name"] == "extreme"
    assert [p["name"] for p in data["players"]] == ["Anna", "Ben"]
    assert len(data["actions"]) == 4
    assert data["scores"] == [45, 0]


def test_loads_game_reads_text_and_accepts_str_paths(tmp_path: Path) -> None:
    game = small_game()
    assert_same_game(loads_game(json.dumps(game.to_json())), game)
    path = str(tmp_path / "as-text.json")
    save_game(game, path)
    assert_same_game(load_game(path), game)


def test_saving_over_an_existing_save_replaces_it(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    first = small_game()
    save_game(first, path)
    second = play(Game("kniffel", ["Clara"], seed=9), random.Random(9), 30)
    save_game(second, path)
    assert_same_game(load_game(path), second)
    assert files_in(tmp_path) == ["game.json"]


def test_save_creates_missing_folders(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "game.json"
    save_game(small_game(), path)
    assert_same_game(load_game(path), small_game())


def test_loading_a_missing_file_raises_file_not_found(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        load_game(tmp_path / "nothing.json")


# --- bad saves -------------------------------------------------------------------------------


def _valid_text() -> bytes:
    return (json.dumps(save_data(), indent=1) + "\n").encode()


BAD_SAVES: list[tuple[str, Callable[[], bytes], type[SaveError], str]] = [
    ("not-json", lambda: b"this is not a save", CorruptSaveError, "not valid JSON"),
    ("truncated", lambda: _valid_text()[: len(_valid_text()) // 2], CorruptSaveError,
     "truncated"),
    ("empty", lambda: b"", CorruptSaveError, "truncated"),
    ("not-utf8", lambda: b'{"format": "\xff\xfe"}', CorruptSaveError, "UTF-8"),
    ("a-list", lambda: b"[1, 2, 3]", CorruptSaveError, "JSON object"),
    ("wrong-format", lambda: dumped(lambda d: d.update(format="chess-game")), CorruptSaveError,
     "not a kniffel save"),
    ("no-format", lambda: dumped(lambda d: d.pop("format")), CorruptSaveError,
     "not a kniffel save"),
    ("future-version", lambda: dumped(lambda d: d.update(version=2)), UnsupportedVersionError,
     "version 2"),
    ("version-text", lambda: dumped(lambda d: d.update(version="1")), CorruptSaveError,
     "version"),
    ("version-zero", lambda: dumped(lambda d: d.update(version=0)), CorruptSaveError, "version"),
    ("illegal-action", lambda: dumped(lambda d: d["actions"].append(
        {"type": "score", "box": "kniffel"})), CorruptSaveError, "#5"),
    ("outcome-first", lambda: dumped(lambda d: d["actions"].insert(
        0, {"type": "outcome", "d6": [1, 2, 3, 4, 5], "d10": 0})), CorruptSaveError, "#1"),
    ("unknown-action", lambda: dumped(lambda d: d["actions"].append({"type": "dance"})),
     CorruptSaveError, "dance"),
    ("action-not-object", lambda: dumped(lambda d: d["actions"].append("throw")),
     CorruptSaveError, "action"),
    ("action-lacks-box", lambda: dumped(lambda d: d["actions"].append({"type": "score"})),
     CorruptSaveError, "box"),
    ("unknown-box", lambda: dumped(lambda d: d["actions"].__setitem__(
        2, {"type": "score", "box": "yacht"})), CorruptSaveError, "yacht"),
    ("die-out-of-range", lambda: dumped(lambda d: d["actions"].__setitem__(
        1, {"type": "outcome", "d6": [5, 5, 5, 6, 9], "d10": 6})), CorruptSaveError, "shows 9"),
    ("die-as-text", lambda: dumped(lambda d: d["actions"].__setitem__(
        1, {"type": "outcome", "d6": ["5", 5, 5, 6, 6], "d10": 6})), CorruptSaveError,
     "whole number"),
    ("extra-kniffel-text", lambda: dumped(lambda d: d["actions"].append(
        {"type": "enter", "box": "ones", "points": 1, "extra_kniffel": "yes"})),
     CorruptSaveError, "extra_kniffel"),
    ("unknown-rules", lambda: dumped(lambda d: d["rules"].update(name="poker")),
     CorruptSaveError, "poker"),
    ("rules-text", lambda: dumped(lambda d: d.update(rules="extreme")), CorruptSaveError,
     "rules"),
    ("free-strike-text", lambda: dumped(lambda d: d["rules"].update(free_strike="yes")),
     CorruptSaveError, "free_strike"),
    ("unknown-mode", lambda: dumped(lambda d: d.update(mode="tablet")), CorruptSaveError,
     "tablet"),
    ("players-object", lambda: dumped(lambda d: d.update(players={"name": "Anna"})),
     CorruptSaveError, "players"),
    ("player-name-number", lambda: dumped(lambda d: d["players"][0].update(name=5)),
     CorruptSaveError, "text"),
    ("no-players", lambda: dumped(lambda d: d.update(players=[])), CorruptSaveError,
     "players"),
    ("duplicate-players", lambda: dumped(lambda d: d["players"][1].update(name="Anna")),
     CorruptSaveError, "Anna"),
    ("unknown-kind", lambda: dumped(lambda d: d["players"][0].update(kind="alien")),
     CorruptSaveError, "alien"),
    ("seed-text", lambda: dumped(lambda d: d.update(seed="3")), CorruptSaveError,
     "whole number"),
    ("seed-float", lambda: dumped(lambda d: d.update(seed=3.5)), CorruptSaveError,
     "whole number"),
    ("start-player-out-of-range", lambda: dumped(lambda d: d.update(start_player=5)),
     CorruptSaveError, "start player"),
    ("actions-object", lambda: dumped(lambda d: d.update(actions={})), CorruptSaveError,
     "actions"),
    ("no-actions", lambda: dumped(lambda d: d.pop("actions")), CorruptSaveError, "actions"),
    ("deeply-nested", lambda: b"[" * 200_000 + b"]" * 200_000, CorruptSaveError, "JSON"),
    ("huge-number", lambda: b'{"format": "kniffel-game", "version": 1, "seed": '
     + b"9" * 5000 + b"}", CorruptSaveError, "JSON"),
]


@pytest.mark.parametrize(("content", "error", "pattern"),
                         [pytest.param(c, e, p, id=i) for i, c, e, p in BAD_SAVES])
def test_a_bad_save_raises_a_clear_error_and_stays_untouched(
    tmp_path: Path, content: Callable[[], bytes], error: type[SaveError], pattern: str
) -> None:
    path = tmp_path / "bad.json"
    raw = content()
    path.write_bytes(raw)
    stat = path.stat()
    with pytest.raises(error, match=pattern) as caught:
        load_game(path)
    assert str(path) in str(caught.value)  # the message names the file
    assert path.read_bytes() == raw
    assert path.stat().st_mtime_ns == stat.st_mtime_ns
    assert files_in(tmp_path) == ["bad.json"]


def test_every_save_error_is_a_kniffel_error() -> None:
    for _, content, _, _ in BAD_SAVES:
        text = content().decode("utf-8", errors="replace")
        with pytest.raises(KniffelError):
            loads_game(text, name="x.json")


def test_loads_game_errors_name_the_source() -> None:
    with pytest.raises(CorruptSaveError, match=r"^my-save: "):
        loads_game("{", name="my-save")
    with pytest.raises(UnsupportedVersionError, match=r"^<save>: "):
        loads_game(json.dumps({"format": "kniffel-game", "version": 99}))


def test_the_valid_save_used_above_loads() -> None:
    # the bad saves differ from this one by one change each
    assert_same_game(loads_game(_valid_text().decode()), small_game())


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=3),
    max_leaves=6,
)


def _paths(value: object, prefix: tuple[str | int, ...] = ()) -> list[tuple[str | int, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out += _paths(item, (*prefix, index))
    return out


@settings(max_examples=150, deadline=None)
@given(path=st.sampled_from(_paths(save_data())), value=JSON_VALUES)
def test_any_field_replaced_by_any_json_loads_or_raises_a_save_error(
    path: tuple[str | int, ...], value: object
) -> None:
    data: Any = save_data()
    if path:
        holder = data
        for key in path[:-1]:
            holder = holder[key]
        holder[path[-1]] = value
    else:
        data = value
    try:
        game = loads_game(json.dumps(data))
    except SaveError:
        return
    assert game.to_json()["format"] == "kniffel-game"


# --- atomic writes ---------------------------------------------------------------------------


def _boom(*args: object, **kwargs: object) -> None:
    raise OSError("disk full")


@pytest.mark.parametrize("target", ["os.replace", "os.fsync", "json.dumps"])
def test_a_failed_save_leaves_the_previous_save_and_no_temp_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, target: str
) -> None:
    path = tmp_path / "game.json"
    game = small_game()
    save_game(game, path)
    before = path.read_bytes()
    game.apply(Outcome(Roll((1, 1, 1, 1, 1), 1)))
    game.apply(Score(Box.KNIFFEL))
    module, attr = target.split(".")
    monkeypatch.setattr({"os": os, "json": json}[module], attr, _boom)
    with pytest.raises(OSError, match="disk full"):
        save_game(game, path)
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert files_in(tmp_path) == ["game.json"]
    assert_same_game(load_game(path), small_game())


def test_a_failed_first_save_leaves_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(os, "replace", _boom)
    with pytest.raises(OSError, match="disk full"):
        save_game(small_game(), tmp_path / "game.json")
    monkeypatch.undo()
    assert files_in(tmp_path) == []


def test_save_writes_a_complete_temp_file_beside_the_target_then_renames(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "game.json"
    save_game(Game("kniffel", ["Anna"]), path)
    real_replace = os.replace
    seen: list[tuple[Path, Path]] = []

    def spy(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
        source, target = Path(src), Path(dst)
        seen.append((source, target))
        # at the rename the old save is still whole and the new one is complete
        assert load_game(target).rules.name == "kniffel"
        assert_same_game(loads_game(source.read_text(encoding="utf-8")), small_game())
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", spy)
    save_game(small_game(), path)
    assert len(seen) == 1
    source, target = seen[0]
    assert source.parent == path.parent
    assert source != path
    assert target == path
    assert files_in(tmp_path) == ["game.json"]
    assert_same_game(load_game(path), small_game())


# --- every OSError a file met, worded in one place ------------------------------------------


@pytest.mark.parametrize(("error", "doing", "code"), [
    (FileNotFoundError(2, "No such file", "x.json"), "read", "os.not_found"),
    (PermissionError(13, "Permission denied", "x.json"), "read", "os.permission"),
    (IsADirectoryError(21, "Is a directory", "x.json"), "read", "os.is_folder"),
    (NotADirectoryError(20, "Not a directory", "x.json"), "read", "os.not_a_folder"),
    (OSError(5, "Input/output error", "x.json"), "read", "os.error"),
    (PermissionError(13, "Permission denied", "x.json"), "write", "os.permission"),
    (OSError(30, "Read-only file system", "x.json"), "write", "os.read_only_file_system"),
    (OSError(28, "No space left", "x.json"), "write", "os.cannot_write"),
    (OSError(2, "No such file", "x.json"), "target", "target.no_folder"),
    (PermissionError(13, "Permission denied", "x.json"), "target", "target.folder_read_only"),
    (PermissionError(13, "Permission denied", "x.json"), "replace", "target.read_only"),
    (OSError(28, "No space left", "x.json"), "target", "target.no_space"),
    (IsADirectoryError(21, "Is a directory", "x.json"), "target", "os.is_folder"),
    (OSError(5, "Input/output error", "x.json"), "target", "os.cannot_write"),
])
def test_file_error_words_an_os_error_by_its_cause_and_what_was_being_done(
        error: OSError, doing: Any, code: str) -> None:
    from kniffel.engine.messages import render
    from kniffel.errors import FileAccessError, TargetError
    from kniffel.storage import file_error, os_sentence

    found = file_error(error, doing=doing)
    assert found.code == code
    assert isinstance(found, TargetError if doing in ("target", "replace") else FileAccessError)
    assert isinstance(found, KniffelError)
    for lang in ("de", "en"):  # the file by its name, in both languages, one sentence
        assert os_sentence(error, lang, doing=doing) == render(found, lang)
        assert "x.json" in render(found, lang)


def test_a_write_whose_folder_is_gone_and_one_that_takes_no_files_are_told_apart(
        tmp_path: Path) -> None:
    from kniffel.storage import file_error

    gone = file_error(FileNotFoundError(2, "No such file"), tmp_path / "gone" / "p.png",
                      doing="write")
    assert gone.code == "os.no_folder"
    refused = file_error(FileNotFoundError(2, "No such file"), tmp_path / "p.png",
                         doing="write")
    assert refused.code == "os.no_new_files"
    assert refused.params["folder"] == str(tmp_path)


def test_check_new_file_refuses_a_folder_a_missing_folder_and_a_file_as_folder(
        tmp_path: Path) -> None:
    from kniffel.errors import FileAccessError
    from kniffel.storage import check_new_file

    (tmp_path / "file.txt").write_text("x")
    for path, code in ((tmp_path, "os.is_folder"),
                       (tmp_path / "missing" / "p.png", "os.no_folder"),
                       (tmp_path / "file.txt" / "p.png", "os.not_a_folder")):
        with pytest.raises(FileAccessError) as caught:
            check_new_file(path)
        assert caught.value.code == code
    assert check_new_file(tmp_path / "p.png") == tmp_path / "p.png"
    assert not (tmp_path / "p.png").exists()  # the probe it made is gone again
    (tmp_path / "old.png").write_bytes(b"png")
    check_new_file(tmp_path / "old.png")
    assert (tmp_path / "old.png").read_bytes() == b"png"  # an existing file is not touched


def test_read_json_gives_the_value_and_the_files_time_and_words_what_is_wrong(
        tmp_path: Path) -> None:
    from kniffel.errors import FileAccessError
    from kniffel.storage import read_json

    good = tmp_path / "good.json"
    good.write_text('{"a": 1}', encoding="utf-8")
    os.utime(good, (0, 86400))
    assert read_json(str(good)) == ({"a": 1}, "1970-01-02T00:00:00+00:00")
    for name, content, code in (("latin.json", b"\xff\xfe", "file.not_utf8"),
                                ("bad.json", b"{", "file.not_json")):
        (tmp_path / name).write_bytes(content)
        with pytest.raises(FileAccessError) as caught:
            read_json(str(tmp_path / name))
        assert (caught.value.code, caught.value.params["where"]) == (code, str(tmp_path / name))
    with pytest.raises(FileAccessError) as missing:
        read_json(str(tmp_path / "none.json"))
    assert missing.value.code == "os.not_found"
