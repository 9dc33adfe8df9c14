"""One identity of a game (kniffel.engine.identity): the same game is one game for the history
file, the SQLite history, the browser's import and merge, and the table; a different game is
another; a second import adds nothing."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kniffel import Game, preset
from kniffel.browser.bridge import Session
from kniffel.browser.table_protocol import game_id
from kniffel.engine.errors import InvalidArgumentError
from kniffel.engine.game import Mode
from kniffel.engine.history_file import HistoryEntry, decode_history, encode_history
from kniffel.engine.identity import KnownGames, game_identity, game_key
from kniffel.engine.messages import render
from kniffel.history import History, _identities


def played(seed: int, moves: int | None = None, names: tuple[str, ...] = ("Anna", "Ben"),
           rules: str = "kniffel", free_strike: bool = False) -> Game:
    """A game with random legal moves: to the end, or ``moves`` decisions."""
    game = Game(preset(rules, free_strike=free_strike), list(names), seed=seed)
    rng = random.Random(seed)
    made = 0
    while not game.is_over() and (moves is None or made < moves):
        if game.is_chance_node():
            game.apply(game.sample_outcome(rng))
        else:
            game.apply(rng.choice(game.legal_actions()))
            made += 1
    return game


def ask(session: Session, request: dict[str, Any]) -> dict[str, Any]:
    reply: dict[str, Any] = json.loads(session.handle_json(json.dumps(request)))
    return reply


def test_the_same_game_has_one_identity_whatever_the_save_says_besides() -> None:
    game = played(1)
    save = game.to_json()
    assert game.identity == game_identity(save)
    again = Game.from_json(json.loads(json.dumps(save)))
    assert again.identity == game.identity  # replayed from its text
    # the save's version, times, uid and what it derives (over, scores) are not the game
    dressed = {**save, "version": 1, "over": None, "scores": [0, 0], "uid": "x",
               "started": "2026-01-01T00:00:00+00:00", "saved": "2026-01-02T00:00:00+00:00"}
    assert game_identity(dressed) == game.identity
    # nor the order of keys, nor a player's kind left at its default
    shuffled = dict(reversed(list(save.items())))
    assert game_identity(shuffled) == game.identity
    humans = {**save, "players": [{"name": p["name"]} for p in save["players"]]}
    assert game_identity(humans) == game.identity


@pytest.mark.parametrize("change", [
    lambda s: s.update(seed=s["seed"] + 1),
    lambda s: s.update(mode="pad"),
    lambda s: s.update(start_player=1),
    lambda s: s.update(rules={"name": "kniffel", "free_strike": True}),
    lambda s: s.update(rules={"name": "yahtzee", "free_strike": False}),
    lambda s: s["players"][0].update(name="Anne"),
    lambda s: s["players"].reverse(),
    lambda s: s["players"][1].update(kind="computer", strategy="greedy"),
    lambda s: s["actions"].pop(),
], ids=["seed", "mode", "start player", "house rule", "rule set", "a name", "seats",
        "a computer", "one action less"])
def test_a_different_game_has_another_identity(change: Any) -> None:
    save = played(2).to_json()
    other = json.loads(json.dumps(save))
    change(other)
    assert game_identity(other) != game_identity(save)


def test_the_key_is_which_game_however_far_it_was_played() -> None:
    done = played(3)
    start = played(3, moves=4)
    assert game_key(done.to_json()) == game_key(start.to_json())
    assert done.identity != start.identity
    assert game_key(played(4).to_json()) != game_key(done.to_json())
    assert game_id(done.to_json()) == game_key(done.to_json())  # the table's id is the key


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**53 - 1), moves=st.integers(0, 30),
       rules=st.sampled_from(["kniffel", "extreme", "yahtzee"]))
def test_a_game_keeps_its_identity_through_its_save(seed: int, moves: int, rules: str) -> None:
    game = played(seed, moves=moves, rules=rules)
    assert Game.from_json(json.loads(json.dumps(game.to_json()))).identity == game.identity


def test_the_identity_refuses_what_is_no_save_with_the_catalogs_sentence() -> None:
    with pytest.raises(InvalidArgumentError) as e:
        game_identity("a game")  # type: ignore[arg-type]
    assert e.value.code == "argument.invalid"
    assert "passt hier nicht" in render(e.value, "de")


def test_known_games_know_an_entry_by_its_uid_or_its_identity() -> None:
    known = KnownGames([("u1", "i1")])
    assert known.knows("u1", "other")
    assert known.knows("other", "i1")
    assert not known.knows("u2", "i2")
    assert known.add("u2", "i2")
    assert not known.add("u3", "i2")
    assert "2 uids" in repr(known)


def test_the_sqlite_history_reads_the_same_identity_from_its_rows(tmp_path: Path) -> None:
    """The desktop history reads a stored game's identity from its rows without replaying it:
    it must be the identity of the game itself."""
    games = [played(5), played(6, moves=7), played(7, rules="extreme", names=("Anna",)),
             Game(preset("kniffel", free_strike=True), ["Zoë"], mode=Mode.PAD, seed=9)]
    with History(tmp_path / "h.sqlite3") as history:
        history.add_entries([HistoryEntry(f"u{i}", "2026-01-01T10:00:00+00:00", None
                                          if not g.is_over() else "2026-01-01T11:00:00+00:00", g)
                             for i, g in enumerate(games)])
        with history._transaction() as db:
            assert sorted(_identities(db)) == sorted((f"u{i}", g.identity)
                                                     for i, g in enumerate(games))


def test_a_table_game_stored_on_every_phone_is_one_game_in_the_desktop_history(
        tmp_path: Path) -> None:
    """A table's game: each phone stores it under a uid of its own, with times of its own."""
    game = played(8)
    phones = [HistoryEntry(f"phone-{n}", f"2026-03-0{n}T20:00:00+00:00",
                           f"2026-03-0{n}T21:00:00+00:00", Game.from_json(game.to_json()))
              for n in (1, 2, 3)]
    with History(tmp_path / "h.sqlite3") as history:
        first = history.import_(encode_history(phones[:1]))
        rest = history.import_(encode_history(phones[1:]))
        again = history.import_(encode_history(phones))
        assert (first.imported, rest.imported, rest.skipped) == (1, 0, 2)
        assert (again.imported, again.skipped) == (0, 3)  # a second import adds nothing
        assert len(history.entries()) == 1


def test_different_games_of_the_same_seed_and_players_are_two(tmp_path: Path) -> None:
    a, b = played(9), played(9, moves=40)
    assert game_key(a.to_json()) == game_key(b.to_json())
    with History(tmp_path / "h.sqlite3") as history:
        result = history.import_(encode_history([
            HistoryEntry("a", "2026-01-01T10:00:00+00:00", "2026-01-01T11:00:00+00:00", a),
            HistoryEntry("b", "2026-01-02T10:00:00+00:00", None, b)]))
        assert result.imported == 2


def test_the_page_merge_adds_new_games_only_and_a_second_import_nothing() -> None:
    session = Session()
    games = [played(10), played(11), played(12)]
    file = encode_history([HistoryEntry(f"f{i}", "2026-01-01T10:00:00+00:00",
                                        "2026-01-01T11:00:00+00:00", g)
                           for i, g in enumerate(games)])
    imported = ask(session, {"op": "import", "text": json.dumps(file)})
    assert imported["ok"], imported
    entries = imported["entries"]
    # the page holds game 11 under its own uid (stored by a table), and game 10 by uid
    have = [{"uid": "mine", "game": games[1].to_json()}, {"uid": "f0", "game": {}}]
    merged = ask(session, {"op": "merge_history", "have": have, "entries": entries})
    assert merged == {"ok": True, "add": [2], "known": 2}
    # after the merge, the same file again adds nothing
    have += [{"uid": entries[2]["uid"], "game": entries[2]["game"]}]
    again = ask(session, {"op": "merge_history", "have": have, "entries": entries})
    assert again == {"ok": True, "add": [], "known": 3}
    # the identities the engine wrote into the summaries serve as well as the games
    quick = [{"uid": e["uid"], "identity": e["summary"]["identity"]} for e in entries]
    assert ask(session, {"op": "merge_history", "have": quick[:1],
                         "entries": quick}) == {"ok": True, "add": [1, 2], "known": 1}
    assert entries[1]["summary"]["identity"] == games[1].identity
    # the same game twice in what comes is added once
    twice = ask(session, {"op": "merge_history", "have": [],
                          "entries": [entries[0], {**entries[0], "uid": "other"}]})
    assert twice == {"ok": True, "add": [0], "known": 1}


@pytest.mark.parametrize("request_", [
    {"op": "merge_history", "have": None, "entries": []},
    {"op": "merge_history", "have": [], "entries": [{"uid": 1, "game": {}}]},
    {"op": "merge_history", "have": [7], "entries": []},
    {"op": "merge_history", "have": [{"uid": "u", "identity": ""}], "entries": []},
])
def test_the_page_merge_refuses_a_malformed_request_and_changes_nothing(
        request_: dict[str, Any]) -> None:
    reply = ask(Session(), request_)
    assert not reply["ok"]
    assert reply["error"]["code"] == "web.bad_request"


def test_the_pages_summary_carries_the_engines_identity_and_key() -> None:
    game = played(13)
    reply = ask(Session(), {"op": "load", "game": game.to_json()})
    assert reply["summary"]["identity"] == game.identity
    assert reply["summary"]["game"] == game_key(game.to_json())


def test_a_single_save_and_the_history_entry_of_its_game_are_one_game(tmp_path: Path) -> None:
    game = played(14)
    with History(tmp_path / "h.sqlite3") as history:
        assert history.import_(encode_history([HistoryEntry(
            "u", "2026-01-01T10:00:00+00:00", "2026-01-01T11:00:00+00:00", game)])).imported == 1
        single = decode_history({**game.to_json(), "saved": "2026-05-05T10:00:00+00:00"})
        assert history.add_entries(single).skipped == 1
