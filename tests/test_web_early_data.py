"""What the page takes from the engine before the engine runs (issue 30): the score pad's start
(pad-start.json) is the engine's own new game and order of play, and the worker fetches a
classic rule set's table only for a request of a classic game that may read it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kniffel.browser import advice_view, bridge
from kniffel.browser.view import game_view, options_view, pad_start, pad_starts
from kniffel.engine.game import MAX_PLAYERS, Enter, Game, Mode, Player, action_from_json
from kniffel.engine.rules import preset


def test_pad_start_is_the_engines_new_pad_game_with_every_option_of_every_box() -> None:
    rules = preset("extreme")
    start = pad_start(rules)
    game = Game(rules, [Player("A")], mode=Mode.PAD, seed=0)
    assert start["view"] == game_view(game, chances=False)
    assert start["view"]["options"] == options_view(game)
    assert Game.from_json(start["game"]).to_json() == game.to_json()
    # every number each box can hold, and striking it: the options name every box
    assert {o["box"] for o in start["view"]["options"]} == {b.value for b in rules.boxes}


@pytest.mark.parametrize("name", ["extreme", "kniffel", "yahtzee"])
def test_pad_start_order_is_the_engines_order_of_play_for_every_player_count(name: str) -> None:
    rules = preset(name)
    order = pad_start(rules)["order"]
    assert len(order) == MAX_PLAYERS
    for count in (1, 3, MAX_PLAYERS):
        game = Game(rules, [Player(str(i)) for i in range(count)], mode=Mode.PAD, seed=0)
        steps = order[count - 1]
        assert len(steps) == count * len(rules.boxes) + 1
        for k, (current, rnd) in enumerate(steps[:-1]):
            assert (current, rnd) == (game.current_player, game.round), k
            # an entry the page queues from the options is one the engine takes
            box = next(b for b in rules.boxes if b not in game.sheet(current).entries)
            option = next(o for o in options_view(game) if o["box"] == box.value)
            game.apply(action_from_json(option["action"]))
        assert steps[-1] == [None, None]
        assert game.is_over()


def test_pad_starts_cover_every_rule_set_of_the_start_screen_and_fit_in_json() -> None:
    starts = pad_starts()
    assert set(starts) == {advice_view.status_key(r) for r in advice_view.browser_rule_sets()}
    assert starts["kniffel/free"]["game"]["rules"]["free_strike"] is True
    assert len(json.dumps(starts)) < 400_000


def test_a_queued_game_with_other_players_loads_in_the_engine_as_the_page_builds_it() -> None:
    start = pad_start(preset("extreme"))
    players = [{"name": "Oma", "kind": "human", "strategy": None},
               {"name": "Ben", "kind": "human", "strategy": None}]
    actions = [o["action"] for o in start["view"]["options"]
               if o["box"] == "chance" and o["points"] == 25]
    saved = {**start["game"], "seed": 12345, "players": players, "actions": actions,
             "scores": [0, 0]}
    game = Game.from_json(saved)
    assert game.scores() == (25, 0)
    assert game.actions == (Enter(preset("extreme").box("chance"), 25),)


def test_wanted_table_names_a_classic_games_table_only_where_values_may_be_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(advice_view, "TABLES_DIR", tmp_path)
    kniffel = Game(preset("kniffel"), [Player("A")], mode=Mode.PAD, seed=0).to_json()
    extreme = Game(preset("extreme"), [Player("A")], mode=Mode.PAD, seed=0).to_json()
    assert bridge.wanted_table(json.dumps({"op": "load", "game": kniffel})) \
        == "browser/tables/kniffel.table"
    assert bridge.wanted_table(json.dumps({"op": "new", "rules": "kniffel", "free_strike": True})) \
        == "browser/tables/kniffel-free-strike.table"
    # (Kniffel Extreme's model is among the package's data files here: nothing to fetch)
    assert bridge.wanted_table(json.dumps({"op": "load", "game": extreme})) is None
    assert bridge.wanted_table(json.dumps({"op": "load", "game": kniffel,
                                           "chances": False})) is None
    assert bridge.wanted_table(json.dumps({"op": "pad_choices", "dice": [1, 2, 3, 4, 5]})) is None
    assert bridge.wanted_table(json.dumps({"op": "new", "rules": "no-such-rules"})) is None
    assert bridge.wanted_table("not json") is None
    (tmp_path / "kniffel.table").write_bytes(b"here")
    assert bridge.wanted_table(json.dumps({"op": "load", "game": kniffel})) is None


def test_wanted_table_names_the_extreme_model_where_the_package_lacks_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The site's kniffel.zip holds no model (a file of its own, tables/expert-extreme.packed):
    a request of a Kniffel Extreme game that may read the expert's values asks for it, into the
    engine's data files, once; one that reads none (the first total's load) does not."""
    from kniffel.engine import expert_model

    extreme = Game(preset("extreme"), [Player("A")], mode=Mode.PAD, seed=0).to_json()
    monkeypatch.setattr(bridge, "has_model_file", lambda rules: False)
    assert bridge.wanted_table(json.dumps({"op": "load", "game": extreme})) \
        == "engine/data/expert-extreme.packed"
    assert bridge.wanted_table(json.dumps({"op": "new", "rules": "extreme", "free_strike": True})) \
        == "engine/data/expert-extreme.packed"
    assert bridge.wanted_table(json.dumps({"op": "load", "game": extreme,
                                           "chances": False})) is None
    assert bridge.wanted_table(json.dumps({"op": "pad_choices", "dice": [1, 2, 3, 4, 5, 6]})) \
        is None
    assert expert_model.model_file(preset("extreme")) == "expert-extreme.packed"
    assert expert_model.model_file(preset("kniffel")) is None
    assert expert_model.has_model_file(preset("extreme"))  # the desktop's package holds its JSON
