"""The score pad before the engine runs (issue 30): a family writes the first throw down while
Python still loads. The engine's start is held back here (its package, kniffel.zip, is not
answered until the test lets it through); the entries are queued in the stored game and applied
by the engine once it runs — totalled, saved, and nothing lost over a reload in between."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import suppress
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, Route

from conftest import READY, BrowserContexts, wait_actions
from kniffel.engine.game import Game
from kniffel.engine.messages import text

pytestmark = pytest.mark.browser

HELD = "**/kniffel.zip*"


class Held:
    """The engine's package requests, held back until :meth:`release`."""

    def __init__(self, context: BrowserContext) -> None:
        self.context = context
        self.routes: list[Route] = []
        self.released = False
        context.route(HELD, self._hold)

    def _hold(self, route: Route) -> None:
        if self.released:
            route.continue_()
        else:
            self.routes.append(route)

    def release(self) -> None:
        self.released = True
        for route in self.routes:
            with suppress(Exception):  # the page that asked is gone (reloaded)
                route.continue_()
        self.routes.clear()


@pytest.fixture
def held_context(browser_contexts: BrowserContexts) -> Iterator[tuple[BrowserContext, Held]]:
    # once released, the engine starts from the session's snapshot
    with browser_contexts.open(is_mobile=True, has_touch=True,
                               viewport={"width": 390, "height": 844}) as ctx:
        held = Held(ctx)
        yield ctx, held
        held.release()


def stored_current(page: Page) -> dict[str, Any]:
    raw = page.evaluate("localStorage.getItem('kniffel.v1.current')")
    assert raw is not None, "the game is stored"
    data: dict[str, Any] = json.loads(raw)
    return data


def enter(page: Page, player: int, box: str, points: int) -> None:
    page.click(f"td[data-player='{player}'][data-box='{box}'] button.open")
    page.click(f"#picker-options button[data-strike='0'][data-points='{points}']")
    page.wait_for_selector(f"td[data-player='{player}'][data-box='{box}'] button.filled")


def test_the_first_score_is_taken_before_the_engine_runs_and_applied_once_it_does(
    held_context: tuple[BrowserContext, Held], site: str,
) -> None:
    ctx, held = held_context
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(site)
    # the score pad starts at once: the start button is live while the engine is held back
    page.wait_for_selector("#start:not([disabled])")
    page.fill("input[data-player='0']", "Oma")
    page.fill("input[data-player='1']", "Ben")
    page.click("#start")
    wait_actions(page, 0)
    assert held.routes, "the engine's package is held back"
    assert page.locator(READY).count() == 0
    enter(page, 0, "chance", 25)
    # the entry is in the sheet and stored; the totals say that they wait, and why, next to
    # the controls
    assert page.text_content("td[data-player='0'][data-box='chance'] button.filled") == "25"
    assert page.locator("[data-total]").count() == 0
    assert page.locator("tfoot .sum-wait").count() == 2
    note = page.text_content("#early-note") or ""
    assert note.startswith(text("page.boot.early", "de", percent=0).split("(")[0])
    # the menu's controls that wait for the engine say so too
    assert page.locator("#menu #share[disabled]").count() == 1
    assert page.locator("#menu #menu-wait").count() == 1
    game = stored_current(page)["game"]
    assert [a["box"] for a in game["actions"]] == ["chance"]
    assert [p["name"] for p in game["players"]] == ["Oma", "Ben"]
    assert page.get_attribute("th[data-player='1']", "class") == "current"  # the engine's order
    # a reload before the engine runs loses nothing, and the next entry is taken too
    page.reload()
    page.wait_for_selector("td[data-player='0'][data-box='chance'] button.filled")
    page.wait_for_selector("td[data-player='1'][data-box='sixes'] button.open:not([disabled])")
    assert page.locator(READY).count() == 0
    enter(page, 1, "sixes", 18)
    assert len(stored_current(page)["game"]["actions"]) == 2
    # the engine runs: it applies the queued entries, totals them and stores its own view
    held.release()
    page.wait_for_selector(READY, state="attached", timeout=120_000)
    wait_actions(page, 2)
    assert page.text_content("[data-total='Oma']") == "25"
    assert page.text_content("[data-total='Ben']") == "18"
    assert page.locator("#early-note").count() == 0
    assert page.locator("#menu-wait").count() == 0
    record = stored_current(page)
    assert not record["view"].get("early")
    replayed = Game.from_json(record["game"])
    assert replayed.scores() == (25, 18)
    assert [c["total"] for c in record["view"]["columns"]] == [25, 18]
    # and the game goes on through the engine
    enter(page, 0, "ones", 3)
    wait_actions(page, 3)
    assert page.text_content("[data-total='Oma']") == "28"
    assert errors == []


def test_a_game_with_dice_waits_for_the_engine_and_says_why_next_to_the_button(
    held_context: tuple[BrowserContext, Held], site: str,
) -> None:
    ctx, held = held_context
    page = ctx.new_page()
    page.goto(site)
    page.wait_for_selector("#start:not([disabled])")
    page.check("#mode-dice")
    page.wait_for_selector("#start[disabled]")
    said = page.text_content("#start-wait") or ""
    assert said.startswith(text("page.boot.start_wait", "de", percent=0).split("(")[0])
    assert page.get_attribute("#start", "aria-describedby") == "start-wait"
    assert page.is_visible("#start-wait")
    held.release()
    page.wait_for_selector(READY, state="attached", timeout=120_000)
    page.wait_for_selector("#start:not([disabled])")
    assert page.locator("#start-wait").count() == 0
