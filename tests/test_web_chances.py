"""The win-chance row in a real browser (Chromium, Playwright): under the totals of the score pad
and of the dice game, each player's chance as the engine computes it, the leader marked, new
after every entry; its explanation on a tap; the setting that hides it; German and English.

The session's site, browser and engine snapshot come from tests/conftest.py; every test gets a
fresh page with empty storage. The numbers shown are checked against the desktop's engine for
the very game the page holds (its save in localStorage).
"""

from __future__ import annotations

import json
import math

import pytest
from playwright.sync_api import Page

from conftest import start_game, wait_actions
from kniffel.browser import advice_view
from kniffel.engine.chances import win_chances
from kniffel.engine.game import Game
from kniffel.engine.rules import Box

pytestmark = pytest.mark.browser

READY = "html[data-ready='1']"
BOOT_TIMEOUT_MS = 120_000
CURRENT, SETTINGS = "kniffel.v1.current", "kniffel.v1.settings"


@pytest.fixture
def page(phone_page: Page) -> Page:
    """A clean page of the app on a phone's screen (conftest.py)."""
    return phone_page


# --- helpers ---------------------------------------------------------------------------------


def actions(page: Page) -> int:
    return int(page.get_attribute("section.game", "data-actions") or "-1")


def shown(page: Page) -> list[str]:
    """The row's cells as the page writes them (spaces made plain)."""
    cells: list[str] = page.eval_on_selector_all(
        "#chances td", "els => els.map(e => e.textContent.replace(/\\s+/g, ' ').trim())")
    return cells


def engine_game(page: Page) -> Game:
    """The game the page holds, from its save in localStorage."""
    raw = page.evaluate(f"localStorage.getItem('{CURRENT}')")
    return Game.from_json(json.loads(raw)["game"])


def expected_cells(game: Game, lang: str) -> list[str]:
    """What the row must show for ``game``: the desktop engine's chances as whole percentages
    (as the page gets and rounds them: four decimals, then half up, so 0.47496 shows 48 %),
    the leader's after its mark and with the words a screen reader hears."""
    advice_view.install()
    chances = win_chances(game)
    leader = {"de": "beste Chance", "en": "best chance"}[lang]
    out = []
    for i, o in enumerate(chances.players):
        text = f"{math.floor(round(o.win, 4) * 100 + 0.5)} %"
        out.append(f"▲{text}, {leader}" if chances.leader == i else text)
    return out


def pad_enter(page: Page, player: int, box: str, points: int) -> None:
    """Score pad: tap the player's open box, then its points."""
    n = actions(page)
    page.click(f"td[data-player='{player}'][data-box='{box}'] button.open")
    page.click(f"#picker-options button[data-strike='0'][data-points='{points}']")
    wait_actions(page, n + 1)


# --- tests -----------------------------------------------------------------------------------


def test_the_pad_shows_each_players_chance_under_the_totals_and_it_changes_after_an_entry(
        page: Page) -> None:
    start_game(page, ["Anna", "Ben"], "pad", rules="extreme")
    # the row's name, with a soft hyphen to break in its narrow cell, and what a tap does
    assert (page.text_content("#chances-info .bshort") or "").replace("\xad", "") == "Gewinnchance"
    assert page.text_content("#chances-info .sr") == " – was heißt das?"
    assert shown(page) == ["50 %", "50 %"]  # equal sheets: nobody marked
    assert page.locator("#chances .mark").count() == 0
    # the row sits under the totals, in the sheet's foot that stays in view
    rows = page.eval_on_selector_all("#sheet tfoot tr", "els => els.map(e => e.className)")
    assert rows == ["sum total", "sum chances"]
    pad_enter(page, 0, "kniffel", 50)
    after = shown(page)
    assert after != ["50 %", "50 %"]
    assert after == expected_cells(engine_game(page), "de")
    assert page.locator("#chances td.lead[data-chance='0'] .mark").is_visible()
    assert page.locator("#chances td[data-chance='1'].lead").count() == 0
    # Ben catches up with a better Kniffel Extreme-sized entry: the numbers follow the engine
    pad_enter(page, 1, "super_chance", 60)
    assert shown(page) == expected_cells(engine_game(page), "de")
    assert shown(page) != after


def test_the_dice_game_shows_the_chances_and_they_change_after_an_entry_not_a_throw(
        page: Page) -> None:
    # a classic set: its exact table, shipped with the site
    start_game(page, ["Anna", "Ben"], "dice", rules="kniffel")
    before = shown(page)
    assert before == ["50 %", "50 %"]
    page.click("#roll")
    wait_actions(page, 2)  # the throw and its dice
    assert shown(page) == before  # the dice of a turn change no chance
    page.click("#choices button.option:not(.strike)")
    wait_actions(page, 3)
    after = shown(page)
    assert after != before
    assert after == expected_cells(engine_game(page), "de")
    assert page.evaluate(f"JSON.parse(localStorage.getItem('{CURRENT}')).view.chances.source"
                         ) == "table"


def test_a_tap_on_the_row_explains_it_with_expected_totals_and_ranges_in_both_languages(
        page: Page) -> None:
    start_game(page, ["Anna", "Ben"], "pad", rules="extreme")
    pad_enter(page, 0, "chance", 20)
    page.click("#chances-info")
    page.wait_for_selector("#panel[open]")
    assert page.text_content("#panel-title") == "Gewinnchance"
    explain = page.text_content("#chances-explain") or ""
    assert "Die Chance zu gewinnen, wenn alle von hier an gut spielen" in explain
    assert "80 %" in explain
    game = engine_game(page)
    advice_view.install()
    chances = win_chances(game)
    lines = page.eval_on_selector_all("#chances-list li", "els => els.map(e => e.textContent)")
    assert len(lines) == 2
    for line, o in zip(lines, chances.players, strict=True):
        assert line.startswith(f"{o.name}: {round(o.win * 100)} % · erwartet "
                               f"{round(o.expected)} Punkte ({o.low}–{o.high})")
    assert "(beste Chance)" in lines[chances.leader or 0]
    page.click("#panel-close")
    page.click("#lang")
    assert page.text_content("#chances-info .bshort") == "Win chance"
    assert page.text_content("#chances-info .sr") == " – what does it mean?"
    assert shown(page) == expected_cells(game, "en")
    page.click("#chances-info")
    page.wait_for_selector("#panel[open]")
    assert page.text_content("#panel-title") == "Win chance"
    assert "The chance to win if everyone plays well from here on" in (
        page.text_content("#chances-explain") or "")
    first = page.text_content("#chances-list li") or ""
    assert f"· expected {round(chances.players[0].expected)} points" in first


def test_the_setting_hides_the_row_and_is_remembered(page: Page) -> None:
    assert page.is_checked("#show-chances")  # shown unless the player says no
    assert page.text_content("label:has(#show-chances)") == "Gewinnchance im Spielblatt zeigen"
    page.uncheck("#show-chances")
    assert json.loads(page.evaluate(f"localStorage.getItem('{SETTINGS}')"))["show_chances"] is False
    start_game(page, ["Anna", "Ben"], "pad", rules="extreme")
    assert page.locator("#chances").count() == 0
    page.reload()
    page.wait_for_selector(READY, state="attached", timeout=BOOT_TIMEOUT_MS)
    wait_actions(page, 0)
    assert page.locator("#chances").count() == 0
    # the game's menu shows it again, and the explanation hides it
    page.click("#menu summary")
    assert page.text_content("#chances-toggle") == "Gewinnchance zeigen"
    page.click("#chances-toggle")
    page.wait_for_selector("#chances")
    assert shown(page) == ["50 %", "50 %"]
    page.click("#chances-info")
    page.click("#chances-hide")
    assert page.locator("#chances").count() == 0
    assert json.loads(page.evaluate(f"localStorage.getItem('{SETTINGS}')"))["show_chances"] is False
    page.click("#lang")
    page.click("#menu summary")
    assert page.text_content("#chances-toggle") == "Show the win chance"


def test_an_open_menu_stays_open_when_the_page_redraws(page: Page) -> None:
    # the engine coming ready, the win chances arriving or another window's move redraw the
    # game; the menu the player just opened must not snap shut under their finger
    start_game(page, ["Anna", "Ben"], "pad", rules="extreme")
    page.click("#menu summary")
    assert page.is_visible("#new-game")
    page.evaluate("""async () => {
      const app = document.querySelector('script[type=module]').src;
      const screen = await import(app.replace('app.js', 'screen.js'));
      screen.draw();
    }""")
    assert page.evaluate("document.getElementById('menu').open") is True
    assert page.is_visible("#new-game")
    page.click("#new-game")  # a choice in it closes it, as before
    assert page.locator("#menu[open]").count() == 0


def test_after_a_reload_the_row_shows_the_engines_chances_not_only_the_stored_ones(
        page: Page) -> None:
    start_game(page, ["Anna", "Ben"], "pad", rules="extreme")
    pad_enter(page, 0, "kniffel", 50)
    before = shown(page)
    # the stored view's chances, made up: the page draws them first, then asks the engine
    page.evaluate(f"""() => {{
      const record = JSON.parse(localStorage.getItem('{CURRENT}'));
      record.view.chances.players[0].win = 0.1;
      record.view.chances.players[1].win = 0.9;
      record.view.chances.leader = 1;
      localStorage.setItem('{CURRENT}', JSON.stringify(record));
    }}""")
    page.reload()
    page.wait_for_selector(READY, state="attached", timeout=BOOT_TIMEOUT_MS)
    page.wait_for_function("document.querySelector('#chances td.lead[data-chance=\"0\"]')")
    assert shown(page) == before == expected_cells(engine_game(page), "de")
    stored = page.evaluate(f"JSON.parse(localStorage.getItem('{CURRENT}')).view.chances")
    assert stored["leader"] == 0
    pad_enter(page, 1, "kniffel", 50)  # the first entry after the start: new chances at once
    assert shown(page) == ["50 %", "50 %"]


def test_the_marks_for_most_points_and_best_chance_are_explained(page: Page) -> None:
    # issue 29: ★ (most points) and ▲ (best chance) sat on different players with no legend
    start_game(page, ["Anna", "Ben"], "pad", rules="extreme")
    assert page.locator("#marks-legend").count() == 0  # nobody marked yet
    pad_enter(page, 0, "chance", 10)  # Anna leads with 10 points, and wasted her Chance
    assert page.locator("th[data-player='0'] .badge").text_content() == "★"
    assert page.locator("#chances td.lead").get_attribute("data-chance") == "1"
    assert page.text_content("#marks-legend") == "★ meiste Punkte · ▲ beste Chance"
    page.screenshot(path="/tmp/shots/marks-legend-360.png")
    page.click("#lang")
    page.wait_for_selector("#marks-legend:has-text('most points')")
    assert page.text_content("#marks-legend") == "★ most points · ▲ best chance"
    page.click("#lang")
    # the explanation says both, whoever has them
    page.click("#chances-info")
    page.wait_for_selector("#panel[open] #chances-marks")
    assert (page.text_content("#chances-marks") or "").startswith(
        "★ steht bei den meisten Punkten jetzt, ▲ bei der besten Chance zu gewinnen.")
    page.click("#panel-close")
    # the same player with both marks: no line under the status
    pad_enter(page, 1, "kniffel", 50)
    assert page.locator("#chances td.lead").get_attribute("data-chance") == "1"
    assert page.locator("th[data-player='1'] .badge").text_content() == "★"
    assert page.locator("#marks-legend").count() == 0


def test_after_the_entry_that_leaves_two_extreme_boxes_open_the_row_catches_up(
        page: Page) -> None:
    # the engine answers that entry at once with the last chances marked stale (its exact last
    # two boxes take 0.2-0.5 s here), and the page asks for the new ones after drawing
    from kniffel.engine.actions import Enter

    start_game(page, ["Anna", "Ben"], "pad", rules="extreme")
    game = engine_game(page)
    keep_open = {Box.CHANCE, Box.SUPER_CHANCE, Box.KNIFFEL}
    while not (game.current_player == 0 and len(game.sheet(0).entries) == 19):
        player = game.current_player
        assert player is not None
        box = next(b for b in game.rules.boxes
                   if b not in game.sheet(player).entries and b not in keep_open)
        game.apply(Enter(box, min(p for p in game.rules.possible_points(box) if p > 0)))
    page.evaluate("""([key, saved]) => {
      const record = JSON.parse(localStorage.getItem(key));
      record.game = saved;
      localStorage.setItem(key, JSON.stringify(record));
    }""", [CURRENT, game.to_json()])
    page.reload()
    page.wait_for_selector(READY, state="attached", timeout=BOOT_TIMEOUT_MS)
    wait_actions(page, len(game.actions))
    pad_enter(page, 0, "chance", 20)
    page.wait_for_selector("#chances:not(.stale)")
    assert shown(page) == expected_cells(engine_game(page), "de")
    stored = page.evaluate(f"JSON.parse(localStorage.getItem('{CURRENT}')).view.chances")
    assert "stale" not in stored
