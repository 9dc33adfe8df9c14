"""The page's data described once: ``kniffel/browser/schema.json`` is the shape of the engine's
replies that the page's ``store.js`` checks stored data against, and what the site's build hands
the page (its words from the catalog, the engine's facts) comes from the engine."""

from __future__ import annotations

import json
import math
import random
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from kniffel.browser.bridge import _OPS, WEB_STRATEGIES, Session
from kniffel.browser.view import game_view, page_data, page_schema, summary
from kniffel.engine.game import MAX_PLAYERS, Game, Mode
from kniffel.engine.messages import CATALOG
from kniffel.engine.rules import PRESETS, preset
from kniffel.web.server import page_text


def fault(kind: Any, value: Any, path: str = "") -> str | None:
    """Where ``value`` does not have the schema's type ``kind`` (the page's reading of
    schema.json, in Python): None when it has it, else the path and what is wrong."""
    defs: dict[str, Any] = page_schema()["defs"]
    if isinstance(kind, str):
        number = isinstance(value, int) and not isinstance(value, bool)
        fits = {"text": isinstance(value, str), "bool": isinstance(value, bool), "int": number,
                "nat": number and value >= 0,
                "number": (isinstance(value, int | float) and not isinstance(value, bool)
                           and math.isfinite(value)),
                "date": isinstance(value, str) and _is_date(value)}[kind]
        return None if fits else f"{path}: not {kind}"
    if "ref" in kind:
        return fault(defs[kind["ref"]], value, path)
    if "one_of" in kind:
        return None if value in kind["one_of"] else f"{path}: not one of {kind['one_of']}"
    if "nullable" in kind:
        return None if value is None else fault(kind["nullable"], value, path)
    if "list" in kind:
        if not isinstance(value, list):
            return f"{path}: not a list"
        if not kind.get("min", 0) <= len(value) <= kind.get("max", len(value)):
            return f"{path}: {len(value)} items"
        faults = (fault(kind["list"], v, f"{path}[{i}]") for i, v in enumerate(value))
        return next((f for f in faults if f), None)
    if not isinstance(value, dict):
        return f"{path}: not an object"
    if "dict" in kind:
        faults = (fault(kind["dict"], v, f"{path}.{k}") for k, v in value.items())
        return next((f for f in faults if f), None)
    for name, field in kind["object"].items():
        if isinstance(field, dict) and "optional" in field:
            if name not in value:
                continue
            field = field["optional"]
        if name not in value:
            return f"{path}.{name}: missing"
        if found := fault(field, value[name], f"{path}.{name}"):
            return found
    return None


def _is_date(text: str) -> bool:
    try:
        datetime.fromisoformat(text)
    except ValueError:
        return False
    return True


def played(name: str, mode: Mode, seed: int, moves: int) -> Game:
    """A game of ``name`` in ``mode`` after ``moves`` random legal moves (all of them: over)."""
    game = Game(preset(name), ["Anna", "Ben"], mode=mode, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.is_over():
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


@pytest.mark.parametrize("name", PRESETS)
@pytest.mark.parametrize("mode", [Mode.PAD, Mode.DICE])
def test_every_view_and_summary_the_engine_writes_has_the_schemas_shape(name: str,
                                                                        mode: Mode) -> None:
    schema = page_schema()
    for seed, moves in [(1, 0), (2, 7), (3, 40), (4, 10_000)]:
        game = played(name, mode, seed, moves)
        view = json.loads(json.dumps(game_view(game)))
        assert fault(schema["view"], view, "view") is None
        assert fault(schema["summary"], json.loads(json.dumps(summary(game))), "summary") is None
    assert game.is_over()


def test_the_schema_finds_what_a_damaged_view_lacks() -> None:
    view = json.loads(json.dumps(game_view(played("extreme", Mode.DICE, 5, 9))))
    schema = page_schema()["view"]
    del view["columns"][1]["total"]
    assert fault(schema, view, "view") == "view.columns[1].total: missing"
    view["columns"] = []
    assert fault(schema, view, "view") == "view.columns: 0 items"
    view["mode"] = "solo"
    assert fault(schema, view, "view") == "view.mode: not one of ['pad', 'dice']"


def test_the_schema_names_every_operation_of_the_bridge_and_no_other() -> None:
    assert page_schema()["ops"] == list(_OPS)
    session = Session()
    unknown = session.handle({"op": "no such op"})
    assert unknown["error"]["message"] == "unknown request 'no such op'"
    for op in page_schema()["ops"]:  # each is known: answered, or refused for its own reason
        reply = session.handle({"op": op, "lang": "en"})
        assert reply["ok"] or not reply["error"]["message"].startswith("unknown request"), op


def test_the_page_gets_its_words_from_the_catalog_and_the_engines_facts() -> None:
    data = page_data()
    for i, lang in enumerate(("de", "en")):
        words = data["words"][lang]
        assert words == {code: pair[i] for code, pair in CATALOG.items()
                         if code.startswith("page.")}
        assert len(words) > 150
    assert data["words"]["de"]["page.setup.player_n"] == "Spieler {n}"
    assert data["words"]["en"]["page.game.points.one"] == "1 point"
    assert data["max_players"] == MAX_PLAYERS
    assert data["computers"] == list(WEB_STRATEGIES)
    assert data["default_rules"] == PRESETS[0]
    assert data["schema"] == page_schema()


def test_the_sites_index_holds_the_pages_data_and_german_words_for_its_first_paint() -> None:
    source = (Path(__file__).parent.parent / "src" / "kniffel" / "web" / "static" /
              "index.html").read_text(encoding="utf-8")
    data = {**page_data(), "words": {lang: {**words, "page.app.name": "K<&>niffel"}
                                     for lang, words in page_data()["words"].items()}}
    built = page_text(source, ".html", data)
    assert "{{" not in built
    assert "__WORDS__" not in built
    inline = built.split('<script type="application/json" id="page-words">', 1)[1]
    inline = inline.split("</script>", 1)[0]
    assert "<" not in inline  # nothing in it can end the script element
    assert json.loads(inline) == data
    assert "<title>K&lt;&amp;&gt;niffel</title>" in built
    assert '<button type="button" id="nav-game" data-i18n="page.nav.game">Spiel</button>' in built
    assert '<span id="boot-text">Die Spiel-Engine startet …</span>' in built
    manifest = page_text('{"name": "{{page.app.install_name}}"}', ".webmanifest", page_data())
    assert json.loads(manifest) == {"name": "Kniffel Extreme – Block und Würfel"}
