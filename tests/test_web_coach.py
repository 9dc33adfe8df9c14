"""The coach for real dice on the score pad in a real browser (Debian's Chromium headless, driven
by Playwright) at 360×740: "Tipp" for typed dice names the expert's best choice with its
expected final score, as the desktop's engine computes it; "Auswertung" lists the entries whose
dice were typed and says how many it could not judge. Each screen passes the phone tests'
layout audit (nothing cut, overlapping or wider than the window)."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import Page

from conftest import start_game, wait_actions
from kniffel import Game, Mode, Player, Roll, Score, Strike, Throw, UseChip, preset
from kniffel.engine.messages import number
from kniffel.engine.pad_review import after_chip, pad_advice, review_pad
from kniffel.engine.rules import choices
from kniffel.engine.turns import pad_action
from test_web_phone import SMALL_PHONE, Device, actions, audit

if TYPE_CHECKING:
    from conftest import BrowserContexts

pytestmark = pytest.mark.browser

EXTREME = preset("extreme")
#: The expert's engine starts from the snapshot and builds its tables: a minute at most.
EXPERT_MS = 120_000


@pytest.fixture
def device(browser_contexts: BrowserContexts) -> Iterator[Device]:
    d = Device(browser_contexts, SMALL_PHONE, True)
    yield d
    d.close()


def stored_game(page: Page) -> Game:
    """The game the page keeps in progress, as the desktop's engine reads it."""
    record = json.loads(page.evaluate("localStorage.getItem('kniffel.v1.current')"))
    return Game.from_json(record["game"])


def type_dice(page: Page, values: list[int]) -> None:
    """Open the pad's dice entry, type ``values`` and show the boxes they fit."""
    if not page.locator("#pad-dice").count():
        page.click("#enter-dice")
    for i, v in enumerate(values):
        page.fill(f"input[data-die='{i}']", str(v))
    # the boxes of dice typed before stay until the engine's answer for these is drawn: wait
    # for a new list, drawn for these dice (under load the answer comes late)
    page.evaluate("document.querySelector('#pad-options')?.setAttribute('data-before', '')")
    page.click("#show-boxes")
    page.wait_for_function("""(want) => {
      const ui = JSON.parse(localStorage.getItem('kniffel.v1.ui') || 'null');
      const got = ui && ui.padDice && ui.padDice.dice;
      return Boolean(document.querySelector('#pad-options:not([data-before]) button[data-box]')
        && got && JSON.stringify([...got].sort()) === JSON.stringify([...want].sort()));
    }""", arg=values)


def ask_tip(page: Page) -> str:
    """Tap "Tipp" and wait for the tip; its text."""
    page.click("#pad-tip")
    page.wait_for_selector("#pad-tip-best", timeout=EXPERT_MS)
    return page.text_content("#pad-tip-best") or ""


def nearly_finished(seed: int) -> tuple[Game, dict[str, Any]]:
    """A Kniffel Extreme pad game of Anna with one box left: every other entry with its dice
    typed (a random roll in a random box it fits), every third without, and how the page
    stores it."""
    rng = random.Random(seed)
    game = Game(EXTREME, [Player("Anna")], mode=Mode.PAD, seed=seed)
    for k in range(len(EXTREME.boxes) - 1):
        roll = Roll([rng.randint(1, 6) for _ in range(5)], rng.randint(0, 9))
        c = rng.choice(choices(EXTREME, dict(game.sheet(0).entries), roll))
        action = pad_action(c)
        game.apply(action if k % 3 == 2 else dataclasses.replace(action, dice=roll))
    return game, {"version": 1, "id": "coach", "started": "2026-12-01T18:00:00Z",
                  "game": game.to_json()}


def test_tip_after_typed_dice_names_the_experts_box_and_expected_score(device: Device) -> None:
    page = device.open()
    start_game(page, ["Anna", "Ben"])
    dice = [5, 5, 5, 6, 6, 6]
    type_dice(page, dice)
    assert page.input_value("#pad-throw") == "3"  # the last throw unless the player says
    audit(page, "coach-typed")
    said = ask_tip(page)
    game = stored_game(page)
    roll = EXTREME.parse_roll(dice)
    advice = pad_advice(game, roll, 3)
    best = advice.best
    assert best.describe(EXTREME, "de") in said
    assert f"im Schnitt {number(best.expected, 'de')} Punkte am Ende" in said
    assert isinstance(best.action, Score | Strike)  # after the 3rd throw of these dice: a box
    assert page.get_attribute("#pad-options button.suggested", "data-box") == (
        best.action.box.value)
    audit(page, "coach-tip")
    page.click("#lang")  # in English too: the tip is kept in both languages
    page.wait_for_selector("#pad-tip-best")
    assert best.describe(EXTREME, "en") in (page.text_content("#pad-tip-best") or "")
    audit(page, "coach-tip-en")
    page.click("#lang")
    page.click("#pad-tip-best")  # every choice
    page.wait_for_selector("#panel[open] #pad-tip-table")
    assert page.locator("#pad-tip-table tbody tr").count() == len(advice.options)
    audit(page, "coach-tip-table")
    page.click("#panel-close")
    # the 1st throw: which dice to keep (or a box), as the expert says for that throw
    page.select_option("#pad-throw", "1")
    page.wait_for_selector("#pad-tip")
    first = pad_advice(game, roll, 1).best
    assert first.describe(EXTREME, "de") in ask_tip(page)
    # the typed dice are recorded with the entry
    page.click(f"#pad-options button[data-box='{best.action.box.value}']")
    wait_actions(page, 1)
    (entry,) = stored_game(page).actions
    assert getattr(entry, "dice", None) == roll
    # Ben hands in a chip: his typed dice lie after the 4th throw unless he says otherwise
    page.click("#chip")
    wait_actions(page, 2)
    type_dice(page, [2, 2, 3, 3, 3, 1])
    assert page.input_value("#pad-throw") == "4"
    assert page.eval_on_selector_all("#pad-throw option", "os => os.map(o => o.value)") == [
        "3", "4"]
    after_chip = pad_advice(stored_game(page), EXTREME.parse_roll([2, 2, 3, 3, 3, 1]), 4).best
    assert after_chip.describe(EXTREME, "de") in ask_tip(page)


def test_review_lists_the_judged_entries_and_the_count_not_judged(device: Device) -> None:
    game, record = nearly_finished(8)
    page = device.open()
    page.evaluate("raw => localStorage.setItem('kniffel.v1.current', raw)", json.dumps(record))
    page.reload()
    wait_actions(page, len(game.actions))
    review = review_pad(game)
    assert review.not_judged == 7
    page.click("#menu summary")
    page.click("#pad-review-menu")
    page.wait_for_selector("#panel[open] #pad-review-list", timeout=EXPERT_MS)
    assert page.locator("#pad-review-list li").count() == len(review.entries)
    assert page.get_attribute("#pad-review-not-judged", "data-count") == "7"
    assert (page.text_content("#pad-review-not-judged") or "").startswith(
        "7 Einträge sind nicht bewertet")
    shown = page.eval_on_selector_all("#pad-review-list li", "els => els.map(e => e.dataset.index)")
    assert [int(i) for i in shown] == [e.index for e in review.entries]
    audit(page, "coach-review")
    page.click("#panel-close")
    # the last box with typed dice: the game ends, the result bar offers the review
    type_dice(page, [1, 2, 3, 4, 5, 6])
    n = actions(page)
    page.locator("#pad-options button[data-box]").first.click()
    wait_actions(page, n + 1)
    page.click("#pad-review")
    page.wait_for_selector("#panel[open] #pad-review-list", timeout=EXPERT_MS)
    assert page.locator("#pad-review-list li").count() == len(review.entries) + 1
    audit(page, "coach-review-end")
    page.click("#panel-close")
    # the history's copy of the game has its review too
    page.click("#nav-history")
    page.locator("[data-open]").first.click()
    page.click("#history-pad-review")
    page.wait_for_selector("#panel[open] #pad-review-list", timeout=EXPERT_MS)
    assert page.locator("#pad-review-list li").count() == len(review.entries) + 1


def throw_shown(page: Page) -> tuple[str, list[str]]:
    """The throw the selector stands on, and the throws it offers."""
    return page.input_value("#pad-throw"), page.eval_on_selector_all(
        "#pad-throw option", "os => os.map(o => o.value)")


def test_the_coach_with_a_chip_says_which_dice_to_keep_and_keeps_the_typed_dice(
        device: Device) -> None:
    # issue 29: typed 5 1 2 6 6 + 0 after the 3rd throw, the tip said "Chip abgeben (4. Wurf)"
    # and no more; the chip cleared the typed dice; typed again, the selector stood on the 4th
    # throw and the tip named a box for dice not thrown again yet
    page = device.open()
    start_game(page, ["Anna", "Ben"])
    third = [5, 1, 2, 6, 6, 0]
    type_dice(page, third)
    assert throw_shown(page) == ("3", ["1", "2", "3", "4"])
    game = stored_game(page)
    advice = pad_advice(game, EXTREME.parse_roll(third), 3)
    then = after_chip(advice)
    assert then is not None
    assert isinstance(then.action, Throw)
    kept = " ".join(map(str, then.action.keep.d6))
    said = ask_tip(page)
    assert f"Chip abgeben (4. Wurf), behalten: {kept}" in said
    assert not page.locator("#pad-options button.suggested").count()  # no box: the chip
    audit(page, "coach-chip-tip")
    # the chip keeps the typed dice: they are the 3rd throw's, and the tip which to keep
    page.click("#chip")
    wait_actions(page, 1)
    page.wait_for_function("document.querySelectorAll('#pad-throw option').length === 2")
    assert throw_shown(page) == ("3", ["3", "4"])
    assert [page.input_value(f"input[data-die='{i}']") for i in range(6)] == list(
        map(str, third))
    assert page.locator("#pad-options button[data-box]").count()
    with_chip = pad_advice(stored_game(page), EXTREME.parse_roll(third), 3).best
    assert isinstance(with_chip.action, Throw)  # never a box for dice not thrown again yet
    assert with_chip.describe(EXTREME, "de") == f"Behalten: {kept}"
    assert with_chip.describe(EXTREME, "de") in ask_tip(page)
    audit(page, "coach-chip-keep")
    # the 4th throw's dice typed: the selector follows, and the tip is a box
    fourth = [5, 6, 6, 6, 6, 3]
    type_dice(page, fourth)
    assert throw_shown(page) == ("4", ["3", "4"])
    last = pad_advice(stored_game(page), EXTREME.parse_roll(fourth), 4).best
    assert isinstance(last.action, Score | Strike)
    assert last.describe(EXTREME, "de") in ask_tip(page)
    page.reload()  # the throw picked stays with the typed dice
    wait_actions(page, 1)
    assert throw_shown(page) == ("4", ["3", "4"])


def test_the_throw_selector_follows_the_throws_typed(device: Device) -> None:
    # issue 29: typing the dice of a later throw left the selector on "1." and the tip gave
    # keep advice instead of a box
    page = device.open()
    start_game(page, ["Anna"])
    first, second, third = [1, 2, 3, 5, 6, 4], [2, 3, 4, 5, 6, 4], [2, 3, 4, 5, 6, 9]
    type_dice(page, first)
    page.select_option("#pad-throw", "1")
    assert throw_shown(page)[0] == "1"
    game = stored_game(page)
    said = ask_tip(page)
    assert pad_advice(game, EXTREME.parse_roll(first), 1).best.describe(EXTREME, "de") in said
    type_dice(page, second)
    assert throw_shown(page)[0] == "2"
    said = ask_tip(page)
    assert pad_advice(game, EXTREME.parse_roll(second), 2).best.describe(EXTREME, "de") in said
    type_dice(page, second)  # the same dice again: the same throw
    assert throw_shown(page)[0] == "2"
    type_dice(page, third)
    assert throw_shown(page)[0] == "3"
    best = pad_advice(game, EXTREME.parse_roll(third), 3).best
    assert isinstance(best.action, Score | Strike | UseChip)
    assert best.describe(EXTREME, "de") in ask_tip(page)
    type_dice(page, first)  # other dice after the last throw: put right, still the 3rd
    assert throw_shown(page)[0] == "3"
