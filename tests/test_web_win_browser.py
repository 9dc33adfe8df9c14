"""Playing to win in the page (issue 41): the hint with both answers where playing to win asks
for another choice (German and English, light and dark, on a phone), with one where both agree;
the computer player 'Experte, auf Sieg' finishing a game; the review's chance-to-win line."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import Page

from conftest import wait_actions
from kniffel import Game, preset
from kniffel.engine.messages import number
from kniffel.engine.winning import win_advice
from test_web_phone import PHONE, Device, audit
from test_web_win import GAMBLE_ACTIONS, gamble_save

if TYPE_CHECKING:
    from conftest import BrowserContexts

pytestmark = pytest.mark.browser

EXTREME = preset("extreme")
#: The expert's engine starts from the snapshot and builds its tables; a review of a whole
#: Kniffel Extreme game by the chance to win takes a minute or two more.
EXPERT_MS = 120_000
REVIEW_MS = 400_000
#: Where the screenshots of the hint with both answers are kept for reading.
SHOTS = Path("/tmp/shots/win")


@pytest.fixture
def device(browser_contexts: BrowserContexts) -> Iterator[Device]:
    d = Device(browser_contexts, PHONE, True)
    yield d
    d.close()


def open_stored(device: Device, save: dict[str, Any]) -> Page:
    """A page showing ``save`` as the game in progress (as the page stores it)."""
    page = device.open()
    record = {"version": 1, "id": "win", "started": "2026-12-04T03:00:00Z", "game": save}
    page.evaluate("raw => localStorage.setItem('kniffel.v1.current', raw)", json.dumps(record))
    page.reload()
    return page


def ask_hint(page: Page) -> str:
    """Tap "Tipp" and wait for the hint; its text."""
    page.click("#hint")
    page.wait_for_selector("#hint-best", timeout=EXPERT_MS)
    return page.text_content("#hint-best") or ""


def pct(share: float, lang: str) -> str:
    """A share as the page writes it (words.js percent: whole percent)."""
    return f"{number(100 * share, lang, 0)} %"  # type: ignore[arg-type]


def test_a_hint_where_playing_to_win_asks_for_another_choice_shows_both(device: Device) -> None:
    game = Game.from_json(gamble_save())
    advice = win_advice(game)
    assert advice.differ
    page = open_stored(device, gamble_save())
    wait_actions(page, GAMBLE_ACTIONS)
    ask_hint(page)
    points, best = advice.for_points, advice.for_win
    want = {
        "de": (f"Für die Punkte: {points.describe(EXTREME, 'de')} "
               f"(Ø {number(points.expected, 'de')} · {pct(points.win, 'de')})",
               f"Für den Sieg: {best.describe(EXTREME, 'de')} "
               f"(Ø {number(best.expected, 'de')} · {pct(best.win, 'de')})"),
        "en": (f"For points: {points.describe(EXTREME, 'en')} "
               f"(avg {number(points.expected, 'en')} · {pct(points.win, 'en')})",
               f"To win: {best.describe(EXTREME, 'en')} "
               f"(avg {number(best.expected, 'en')} · {pct(best.win, 'en')})"),
    }
    if SHOTS.exists():
        shutil.rmtree(SHOTS)
    SHOTS.mkdir(parents=True)
    for lang in ("de", "en"):
        if lang == "en":
            page.click("#lang")
            page.wait_for_selector("#hint-win")
        assert page.text_content("#hint-points") == want[lang][0]
        assert page.text_content("#hint-win") == want[lang][1]
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            page.locator("#hint-box").scroll_into_view_if_needed()
            audit(page, f"win-hint-{lang}-{scheme}")
            page.screenshot(path=str(SHOTS / f"hint-{lang}-{scheme}.png"))
    page.emulate_media(color_scheme="light")
    # every choice with its chance to win
    page.click("#hint-all")
    page.wait_for_selector("#panel[open] #hint-table")
    cells = page.eval_on_selector_all("#hint-table tbody tr",
                                      "rows => rows.map(r => r.lastElementChild.textContent)")
    assert cells[0] == pct(points.win, "en")
    assert len(cells) == len(advice.options)


def test_a_hint_where_both_agree_says_one_choice_as_before(device: Device) -> None:
    save = {**gamble_save(), "actions": gamble_save()["actions"][:2]}  # Anna's first throw
    game = Game.from_json(save)
    advice = win_advice(game)
    assert not advice.differ
    page = open_stored(device, save)
    wait_actions(page, 2)
    said = ask_hint(page)
    assert page.locator("#hint-points, #hint-win").count() == 0
    assert said.startswith(advice.points.best.describe(EXTREME, "de"))
    assert f"im Schnitt {number(advice.points.best.expected, 'de')} Punkte am Ende" in said


def test_a_hint_that_comes_within_the_patience_is_drawn_once_else_after_a_thinking_box(
        device: Device) -> None:
    """The "thinking" box waits 120 ms (expert.js ``HINT_PATIENCE_MS``): an answer from the
    turn's warmed memory is drawn once; a slower one shows the box first (two drawings)."""
    save = {**gamble_save(), "actions": gamble_save()["actions"][:2]}  # Anna's first throw
    page = open_stored(device, save)
    wait_actions(page, 2)
    ask_hint(page)  # the engine starts and computes the turn
    for _ in range(3):  # the same hint again: from the advisor's memory
        page.evaluate("""() => {
          window.kniffelTiming.lastHintMs = undefined;
          window.sawThinking = false;
          window.drawsBefore = window.kniffelTiming.draws;
          new MutationObserver(() => {
            if (document.querySelector("#hint-box progress.thinking")) window.sawThinking = true;
          }).observe(document.body, { childList: true, subtree: true });
        }""")
        page.click("#hint")
        page.wait_for_function("window.kniffelTiming.lastHintMs !== undefined",
                               timeout=EXPERT_MS)
        ms, draws, thinking = page.evaluate("""() => [window.kniffelTiming.lastHintMs,
          window.kniffelTiming.draws - window.drawsBefore, window.sawThinking]""")
        assert page.locator("#hint-best").count() == 1
        if ms < 120:
            assert (draws, thinking) == (1, False)
        else:
            assert draws == 2
            assert thinking


def computers_save(ben: str) -> dict[str, Any]:
    """The gamble game with Anna the greedy computer and Ben the computer ``ben``."""
    save = dict(gamble_save())
    save["players"] = [{"name": "Anna", "kind": "computer", "strategy": "greedy"},
                       {"name": "Ben", "kind": "computer", "strategy": ben}]
    return save


def play_out(device: Device, save: dict[str, Any]) -> tuple[Page, Game]:
    """A page whose computers play ``save`` to its end: the page and the finished game."""
    page = open_stored(device, save)
    page.wait_for_selector("#rematch", state="attached", timeout=REVIEW_MS)
    record = json.loads(page.evaluate("localStorage.getItem('kniffel.v1.current')"))
    finished = Game.from_json(record["game"])
    assert finished.is_over()
    return page, finished


def test_the_expert_to_win_gambles_where_it_must_and_finishes_the_game(device: Device) -> None:
    save = computers_save("expert-win")
    gamble = win_advice(Game.from_json(save)).for_win.action
    page, finished = play_out(device, save)
    # Ben, behind, strikes the box that leaves him a chance, not the expert's
    assert finished.actions[GAMBLE_ACTIONS] == gamble
    assert gamble != win_advice(Game.from_json(save)).for_points.action
    assert page.locator("#ranking li").count() == 2


def test_the_review_says_what_a_decision_cost_of_the_chance_to_win(device: Device) -> None:
    save = computers_save("expert")  # Ben plays for points: the safe strike, no chance left
    advice = win_advice(Game.from_json(save))
    page, finished = play_out(device, save)
    assert finished.actions[GAMBLE_ACTIONS] == advice.for_points.action
    page.click("#review")
    page.wait_for_selector("#review-list li", timeout=EXPERT_MS)
    page.click("[data-review-player='1']")
    page.wait_for_selector("#review-win-summary", timeout=REVIEW_MS)
    loss = advice.for_win.win - advice.for_points.win
    line = page.text_content(f"#review-list li[data-index='{GAMBLE_ACTIONS}'] .win-cost")
    assert line == (f"Kostete {number(100 * loss, 'de')} Prozentpunkte Gewinnchance "
                    f"(0,0 % statt {number(100 * advice.for_win.win, 'de')} %)")
    assert (page.text_content("#review-win-summary") or "").startswith("Ben: zusammen ")
    # among the costliest decisions too, with its line
    costly = page.locator(f"#review-costliest li[data-index='{GAMBLE_ACTIONS}'] .win-cost")
    if costly.count():
        assert costly.text_content() == line
    page.locator(f"#review-list li[data-index='{GAMBLE_ACTIONS}']").scroll_into_view_if_needed()
    audit(page, "win-review")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "review-de.png"))
    page.click("#lang")
    page.wait_for_selector("#review-win-summary")
    assert (page.text_content(f"#review-list li[data-index='{GAMBLE_ACTIONS}'] .win-cost")
            or "").startswith(f"Cost {number(100 * loss, 'en')} percentage points")
    audit(page, "win-review-en")
