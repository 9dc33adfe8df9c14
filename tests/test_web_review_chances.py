"""The review's win chances and luck in a real browser (Chromium, Playwright): the plot of every
player's win chance over the game and each result split into decisions and luck, in German and
in English, on a phone's screen.

The session's site, browser and engine snapshot come from tests/conftest.py; every test gets a
fresh page with empty storage, imports a finished game into the history and opens its review.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import FilePayload, Page

from kniffel.browser import advice_view
from kniffel.engine.game import Game, Mode, Player, PlayerKind
from kniffel.engine.history_file import HistoryEntry, encode_history
from kniffel.engine.match import Match
from kniffel.engine.review import review_game
from kniffel.engine.rules import preset

pytestmark = pytest.mark.browser

NAMES = ("Anna", "Ben", "Carla")


@pytest.fixture
def page(phone_page: Page) -> Page:
    """A clean page of the app on a phone's screen (conftest.py)."""
    return phone_page


def finished(names: tuple[str, ...], seed: int) -> Game:
    """A Kniffel Extreme dice game of ``names`` played to its end by the random player."""
    game = Game(preset("extreme"), [Player(n, PlayerKind.COMPUTER, "random") for n in names],
                mode=Mode.DICE, seed=seed)
    Match(game).play_out()
    return game


def open_review(page: Page, game: Game) -> None:
    """Import ``game`` into the history, open it and its review, and wait for the review."""
    uid = f"review-chances-{len(game.players)}-{game.seed}"
    history = encode_history([HistoryEntry(uid, "2026-11-30T18:00:00+00:00",
                                           "2026-11-30T18:40:00+00:00", game)])
    page.click("#nav-history")
    page.set_input_files("#import-file", files=[FilePayload(
        name="verlauf.json", mimeType="application/json", buffer=json.dumps(history).encode())])
    page.click(f"[data-open='{uid}']")
    page.click("#history-review")
    page.wait_for_selector("#review-summary", timeout=120_000)


def number(text: str, lang: str) -> float:
    """A number as the page writes it in ``lang`` ("−12,3", "+1,234.5")."""
    thousands, decimal = (".", ",") if lang == "de" else (",", ".")
    text = text.replace("−", "-").replace(thousands, "").replace(decimal, ".")
    return float(text)


LINE = {"de": r"(.+): (\d+) Punkte · erwartet ([\d.,]+) · Entscheidungen (−?[\d.,]+) · "
              r"Glück ([+−]?[\d.,]+)",
        "en": r"(.+): (\d+) points · expected ([\d.,]+) · decisions (−?[\d.,]+) · "
              r"luck ([+−]?[\d.,]+)"}


def check_luck_lines(page: Page, lang: str, expected: dict[str, Any]) -> None:
    """The luck lines say, for every player, what the engine's review says (the browser's
    expert computes without numpy: its lost points may differ in the last digit)."""
    lines = page.eval_on_selector_all("#review-luck li", "els => els.map(e => e.textContent)")
    assert len(lines) == len(expected["luck"])
    for line, split in zip(lines, expected["luck"], strict=True):
        found = re.fullmatch(LINE[lang], line)
        assert found, line
        assert found[1] == split["name"]
        assert int(found[2]) == split["final"]
        assert number(found[3], lang) == pytest.approx(split["expected"], abs=0.05)
        assert number(found[4], lang) == pytest.approx(-split["skill"], abs=0.11)
        assert number(found[5], lang) == pytest.approx(split["luck"], abs=0.11)


# the plot's lines and marks as drawn: every polyline's points, every mark's box in the picture
PLOT = """() => {
  const svg = document.getElementById('chances-plot');
  const [, , w, h] = svg.getAttribute('viewBox').split(' ').map(Number);
  const lines = [...svg.querySelectorAll('polyline.line')].map((l) => ({
    cls: l.getAttribute('class'),
    points: l.getAttribute('points').split(' ').map((p) => p.split(',').map(Number)) }));
  const marks = [...svg.querySelectorAll('.dot')].map((m) => {
    const b = m.getBBox();
    return { cls: m.getAttribute('class'), x0: b.x, y0: b.y, x1: b.x + b.width, y1: b.y + b.height,
      title: m.querySelector('title').textContent };
  });
  const grid = [...svg.querySelectorAll('line')].map((l) => Number(l.getAttribute('y1')));
  return { w, h, lines, marks, top: Math.min(...grid), bottom: Math.max(...grid),
    width: svg.getBoundingClientRect().width };
}"""


def test_the_review_plots_every_players_win_chance_and_splits_each_result_in_german(
    page: Page,
) -> None:
    game = finished(NAMES, seed=5)
    expected = advice_view.review_chances_view(review_game(game))
    assert expected is not None
    open_review(page, game)
    assert page.text_content("#chances-figure figcaption") == "Gewinnchancen im Spielverlauf"
    drawn = page.evaluate(PLOT)
    entries = 3 * len(game.rules.boxes)
    # one line per player, through the chance before the first and after every entry
    assert [line["cls"] for line in drawn["lines"]] == [f"line series-{i}" for i in range(3)]
    for i, line in enumerate(drawn["lines"]):
        assert len(line["points"]) == entries + 1
        xs = [x for x, _ in line["points"]]
        assert xs == sorted(xs)
        # the start is a third for everyone; at the end the winner's line is at the top
        start, end = line["points"][0][1], line["points"][-1][1]
        assert start == pytest.approx(drawn["bottom"] - (drawn["bottom"] - drawn["top"]) / 3,
                                      abs=0.2)
        won = expected["points"][-1]["win"][i]
        assert end == pytest.approx(drawn["bottom"] - won * (drawn["bottom"] - drawn["top"]),
                                    abs=0.2)
    # every mark whole inside the picture, each player's of their own colour, named by a title
    assert {m["cls"] for m in drawn["marks"]} == {f"dot series-{i}" for i in range(3)}
    for m in drawn["marks"]:
        assert 0 <= m["x0"] <= m["x1"] <= drawn["w"], m
        assert 0 <= m["y0"] <= m["y1"] <= drawn["h"], m
        assert re.fullmatch(r"(Anna|Ben|Carla): \d+ % (nach Runde \d+|vor dem ersten Eintrag)",
                            m["title"]), m["title"]
    assert drawn["width"] <= 360
    assert page.eval_on_selector_all("#chances-legend li", "els => els.map(e => e.textContent)"
                                     ) == list(NAMES)
    # the text alternative names every player's chance at the start and the end
    alt = page.text_content("#chances-plot-title") or ""
    assert page.get_attribute("#chances-plot", "aria-labelledby") == "chances-plot-title"
    assert alt.startswith(f"Gewinnchancen vor dem ersten und nach jedem von {entries} Einträgen: ")
    for i, name in enumerate(NAMES):
        last = round(100 * expected["points"][-1]["win"][i])
        assert f"{name} von 33 % auf {last} %" in alt
    check_luck_lines(page, "de", expected)
    assert "Glück: der Rest" in (page.text_content("#review-luck .hint") or "")


def test_the_review_speaks_english_and_a_single_player_gets_no_plot_but_their_luck(
    page: Page,
) -> None:
    game = finished(("Anna", "Ben"), seed=9)
    expected = advice_view.review_chances_view(review_game(game))
    assert expected is not None
    open_review(page, game)
    page.click("#lang")
    assert page.text_content("#chances-figure figcaption") == "Win chances over the game"
    alt = page.text_content("#chances-plot-title") or ""
    assert alt.startswith("Win chances before the first and after each of 44 entries: Anna from "
                          "50 % to ")
    assert page.locator("#chances-plot polyline.line").count() == 2
    axis = page.eval_on_selector_all("#chances-plot text.axis-title", "els => els.map(e => "
                                     "e.textContent)")
    assert axis == ["Round", "Win chance"]
    check_luck_lines(page, "en", expected)
    assert (page.text_content("#review-luck-title") or "") == "Decisions and luck"
    # one player alone: always sure to win, so no plot; the result's split is shown
    solo = finished(("Solo",), seed=4)
    page.click("#review-back")
    page.click("#history-back")
    open_review(page, solo)
    assert page.locator("#chances-plot").count() == 0
    solo_expected = advice_view.review_chances_view(review_game(solo))
    assert solo_expected is not None
    check_luck_lines(page, "en", solo_expected)
