"""A restore of a history file in the browser (bridge ``import`` with ``have``, then
``import_part``): the games the page holds already are known by the engine's identity without a
replay; only the new ones are replayed and checked, part by part, each as an import checks it;
a file that is cut off, newer or foreign is refused in one sentence before anything is replayed.
"""

from __future__ import annotations

import json
import random
from typing import Any

from kniffel import Game, preset
from kniffel.browser.bridge import Session
from kniffel.engine.history_file import HistoryEntry, encode_history


def played(seed: int) -> Game:
    """A finished classic game of random legal moves."""
    game = Game(preset("kniffel"), ["Anna", "Ben"], seed=seed)
    rng = random.Random(seed)
    while not game.is_over():
        game.apply(game.sample_outcome(rng) if game.is_chance_node()
                   else rng.choice(game.legal_actions()))
    return game


def history_file(n: int) -> dict[str, Any]:
    return encode_history(HistoryEntry(f"u{i}", f"2026-11-{i + 1:02d}T18:00:00+00:00",
                                       f"2026-11-{i + 1:02d}T19:00:00+00:00", played(i))
                          for i in range(n))


def restore(s: Session, data: object, have: list[dict[str, str]], part: int = 2
            ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The plan of a restore and the entries its parts gave, ``part`` games per request."""
    plan = s.handle({"op": "import", "text": json.dumps(data), "name": "backup.json",
                     "have": have})
    assert plan["ok"], plan
    entries: list[dict[str, Any]] = []
    for i in range(0, len(plan["new"]), part):
        reply = s.handle({"op": "import_part", "restore": plan["restore"],
                          "indices": plan["new"][i:i + part], "name": "backup.json"})
        assert reply["ok"], reply
        entries += reply["entries"]
    return plan, entries


def known(entries: list[dict[str, Any]]) -> list[dict[str, str]]:
    return [{"uid": e["uid"], "identity": e["summary"]["identity"]} for e in entries]


def test_a_restore_replays_every_new_game_in_parts_as_the_whole_import_does() -> None:
    data = history_file(5)
    s = Session()
    plan, entries = restore(s, data, [])
    assert (plan["kind"], plan["total"], plan["new"], plan["known"]) == ("history", 5,
                                                                        [0, 1, 2, 3, 4], 0)
    whole = s.handle({"op": "import", "text": json.dumps(data)})["entries"]
    assert entries == whole  # the same entries, summaries and identities as a whole import


def test_a_restore_replays_only_the_games_the_history_does_not_hold() -> None:
    data = history_file(5)
    s = Session()
    _, entries = restore(s, data, [])
    # the phone holds games 0 and 3; game 1 it holds under another uid (another phone's)
    have = [*known([entries[0], entries[3]]),
            {"uid": "mine", "identity": entries[1]["summary"]["identity"]}]
    plan, again = restore(s, data, have)
    assert (plan["new"], plan["known"]) == ([2, 4], 3)
    assert [e["uid"] for e in again] == ["u2", "u4"]
    # a second restore of the same file adds nothing and replays nothing
    plan, none = restore(s, data, known(entries))
    assert (plan["new"], plan["known"], none) == ([], 5, [])


def test_a_damaged_new_game_refuses_the_restore_naming_the_file_and_the_game() -> None:
    data = history_file(4)
    data["games"][2]["game"]["actions"][3] = {"type": "enter", "box": "nonsense"}
    s = Session()
    plan = s.handle({"op": "import", "text": json.dumps(data), "name": "backup.json",
                     "have": []})
    first = s.handle({"op": "import_part", "restore": plan["restore"], "indices": [0, 1],
                      "name": "backup.json"})
    assert first["ok"]
    bad = s.handle({"op": "import_part", "restore": plan["restore"], "indices": [2, 3],
                    "name": "backup.json"})
    assert not bad["ok"]
    assert bad["error"]["code"] == "web.import_refused"
    assert bad["error"]["params"]["cause"]["code"] == "import.game_invalid"
    assert bad["error"]["params"]["cause"]["params"]["number"] == 3
    assert "backup.json" in bad["error"]["text"]
    # the restore ended: no later part is checked
    after = s.handle({"op": "import_part", "restore": plan["restore"], "indices": [3]})
    assert after["error"]["code"] == "web.bad_request"


def test_a_cut_off_newer_or_foreign_file_is_refused_before_any_game_is_replayed() -> None:
    data = history_file(2)
    text = json.dumps(data)
    s = Session()
    for name, bad, code in (
            ("cut.json", text[: len(text) // 2], "web.import_refused"),
            ("newer.json", json.dumps({**data, "version": 99}), "web.import_refused"),
            ("foreign.json", json.dumps({"format": "other-app"}), "web.import_not_kniffel")):
        reply = s.handle({"op": "import", "text": bad, "name": name, "have": []})
        assert not reply["ok"]
        assert reply["error"]["code"] == code, reply
        assert name in reply["error"]["text"]
    newer = s.handle({"op": "import", "text": json.dumps({**data, "version": 99}),
                      "name": "n.json", "have": []})
    assert newer["error"]["params"]["cause"]["code"] == "import.newer_version"


def test_a_restore_refuses_a_uid_twice_and_parts_it_did_not_plan() -> None:
    data = history_file(3)
    data["games"][2]["uid"] = "u0"
    s = Session()
    twice = s.handle({"op": "import", "text": json.dumps(data), "have": []})
    assert twice["error"]["code"] == "import.uid_twice"
    plan = s.handle({"op": "import", "text": json.dumps(history_file(3)), "have": []})
    for indices in ([5], [True], "0"):
        reply = s.handle({"op": "import_part", "restore": plan["restore"], "indices": indices})
        assert reply["error"]["code"] == "web.bad_request"
    stale = s.handle({"op": "import_part", "restore": plan["restore"] + 1, "indices": [0]})
    assert stale["error"]["code"] == "web.bad_request"


def test_a_restore_lets_the_file_go_once_every_new_game_was_checked() -> None:
    s = Session()
    plan, _ = restore(s, history_file(3), [], part=3)
    reply = s.handle({"op": "import_part", "restore": plan["restore"], "indices": [0]})
    assert reply["error"]["code"] == "web.bad_request"
