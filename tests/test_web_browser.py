"""The browser app in a real browser: Debian's Chromium headless, driven by Playwright.

The session's site and browser (tests/conftest.py) serve the module; every test gets a fresh
page with empty storage. The module's browser context starts with the session's engine snapshot
(conftest.py): no test pays for a cold Pyodide start.
"""

from __future__ import annotations

import itertools
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import (
    BrowserContext,
    FilePayload,
    Page,
    Request,
    Route,
)

from conftest import clear_storage, fresh_page, start_game, stored_history, wait_actions
from kniffel import Box, Enter, Game, Mode, Outcome, Roll, Score, Strike, Throw, points, preset
from kniffel.browser import advice_view
from kniffel.browser.bridge import Session
from kniffel.browser.view import game_view
from kniffel.engine import messages
from kniffel.engine.advice import Position
from kniffel.engine.expert import expert_for
from kniffel.engine.game import Player, PlayerKind, action_from_json
from kniffel.engine.match import Match
from kniffel.engine.rules import choices

if TYPE_CHECKING:
    from conftest import BrowserContexts

pytestmark = pytest.mark.browser

READY = "html[data-ready='1']"
BOOT_TIMEOUT_MS = 120_000


class Requests:
    """Every request the browser context made, split by origin."""

    def __init__(self, origin: str) -> None:
        self.origin = origin
        self.same: list[str] = []
        self.foreign: list[str] = []

    def __call__(self, request: Request) -> None:
        parts = urlsplit(request.url)
        if parts.scheme in ("data", "blob"):
            return
        if f"{parts.scheme}://{parts.netloc}" == self.origin:
            self.same.append(request.url)
        else:
            self.foreign.append(request.url)


@pytest.fixture(scope="module")
def requests(site: str) -> Requests:
    return Requests(site.rstrip("/"))


@pytest.fixture(scope="module")
def context(browser_contexts: BrowserContexts, requests: Requests) -> Iterator[BrowserContext]:
    # Service workers are tested in their own context (test_offline_after_first_visit): here
    # they would hide requests from Playwright's routing. The page's Content-Security-Policy is
    # bypassed so that the markup test shows the page itself never runs user text as HTML, and
    # so that Playwright may evaluate its conditions. The engine starts from the session's
    # snapshot (conftest.py): no fresh Pyodide start.
    with browser_contexts.open(viewport={"width": 412, "height": 915}) as ctx:
        ctx.on("request", requests)
        yield ctx


def wait_ready(page: Page) -> None:
    page.wait_for_selector(READY, state="attached", timeout=BOOT_TIMEOUT_MS)


@pytest.fixture
def page(context: BrowserContext, site: str, requests: Requests) -> Iterator[Page]:
    p, errors = fresh_page(context, site)
    yield p
    p.close()
    assert errors == []
    assert requests.foreign == []


# --- helpers ---------------------------------------------------------------------------------


def menu(page: Page, item: str) -> None:
    """Open the game screen's menu and pick ``item``."""
    page.click("#menu summary")
    page.click(item)


def type_pad_dice(page: Page, values: list[int]) -> None:
    """Score pad: open the dice entry in the bar and type ``values``."""
    if not page.locator("#pad-dice").count():
        page.click("#enter-dice")
    for i, v in enumerate(values):
        page.fill(f"input[data-die='{i}']", str(v))


def wait_until(page: Page, condition: str, seconds: float = 60) -> None:
    """Poll the page until the JavaScript expression ``condition`` is true."""
    for _ in range(int(seconds * 10)):
        if page.evaluate(condition):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"still not true after {seconds} s: {condition}")


def actions(page: Page) -> int:
    return int(page.get_attribute("section.game", "data-actions") or "-1")


def dice(page: Page) -> list[int]:
    values: list[int] = page.eval_on_selector_all(
        ".die .sr", "els => els.map(e => Number(e.textContent))")
    return values


def stored(page: Page) -> dict[str, str]:
    """What the page stored: localStorage, the history as IndexedDB holds it."""
    data: dict[str, str] = page.evaluate(
        "Object.fromEntries(Object.keys(localStorage).map(k => [k, localStorage.getItem(k)]))")
    history = stored_history(page)
    data.pop("kniffel.v1.history", None)
    return data if history is None else {**data, "kniffel.v1.history": history}


def pad_enter(page: Page, player: int, box: str, pts: int | None) -> None:
    """Score pad: tap the player's box, then the points (None: strike)."""
    n = actions(page)
    page.click(f"td[data-player='{player}'][data-box='{box}'] button.open")
    option = ("#picker-options button[data-strike='1']" if pts is None
              else f"#picker-options button[data-strike='0'][data-points='{pts}']")
    page.click(option)
    wait_actions(page, n + 1)


def total(page: Page, name: str) -> int:
    return int(page.text_content(f"[data-total='{name}']") or "-1")


# --- tests -----------------------------------------------------------------------------------


def test_becomes_interactive_with_aria_busy_false_and_restarts_from_the_snapshot(
    page: Page,
) -> None:
    assert page.get_attribute("#app", "aria-busy") == "false"
    assert page.locator("#boot").is_hidden()
    timing = page.evaluate("window.kniffelTiming")
    assert timing["interactiveMs"] > 0
    assert page.locator("#start").is_enabled()
    # The engine's memory snapshot is kept, and the next start restores it.
    for _ in range(100):
        if page.evaluate("caches.open('kniffel-snapshot').then(c => c.keys())"
                         ".then(k => k.length)") == 1:
            break
        page.wait_for_timeout(100)
    page.reload()
    wait_ready(page)
    assert page.evaluate("window.kniffelTiming.bootPath") == "snapshot"
    assert page.evaluate("window.kniffelTiming.steps.some(s => s[0] === 'restored')")


def test_complete_two_player_block_game_entered_box_by_box(page: Page) -> None:
    rules = preset("extreme")
    start_game(page, ["Anna", "Ben"], mode="pad", rules="extreme")
    # Anna's first roll is typed in from real dice; the engine lists where it may go.
    type_pad_dice(page, [5, 5, 5, 6, 6, 6])
    page.click("#show-boxes")
    page.wait_for_selector("#pad-options")
    offered = page.eval_on_selector_all(
        "#pad-options button", "els => els.map(e => [e.dataset.box, Number(e.dataset.points)])")
    assert ["two_triples", 45] in offered
    assert ["super_chance", 66] in offered
    # The sheet shows each open box's points for that roll; boxes it does not fit offer nothing.
    assert page.text_content("td[data-player='0'][data-box='super_chance'] button") == "66"
    assert page.locator("td[data-player='0'][data-box='ones'] button").count() == 0
    page.click("td[data-player='0'][data-box='two_triples'] button.option")
    wait_actions(page, 1)
    # Ben hands in a chip (on the pad a chip is just counted).
    page.click("#chip")
    wait_actions(page, 2)
    assert page.text_content("th[data-player='1'] .chips") == "●●○"
    # Then box by box in sheet order: Ben, Anna, Ben, …
    ben_boxes = list(rules.boxes)
    anna_boxes = [b for b in rules.boxes if b is not Box.TWO_TRIPLES]
    while ben_boxes or anna_boxes:
        b = ben_boxes.pop(0)
        if b.is_upper:
            pad_enter(page, 1, b.value, b.face)
        elif b is Box.SUPER_CHANCE:
            pad_enter(page, 1, b.value, 30)
        else:
            pad_enter(page, 1, b.value, None)
        if anna_boxes:
            a = anna_boxes.pop(0)
            pad_enter(page, 0, a.value, 4 * (a.face or 0) if a.is_upper else rules.max_points(a))
    # Anna: 4+8+…+24 = 84 above, bonus 45, every lower box at its maximum (707): 836.
    # Ben: 1+2+…+6 = 21 above, no bonus, super chance 30, the rest struck: 51.
    assert total(page, "Anna") == 836
    assert total(page, "Ben") == 51
    assert "Anna" in (page.text_content("#status") or "")
    assert page.locator("#rematch").is_visible()
    history = json.loads(stored(page)["kniffel.v1.history"])
    assert [e["summary"]["totals"] for e in history["entries"]] == [[836, 51]]
    page.click("#rematch")
    wait_actions(page, 0)
    assert total(page, "Anna") == 0


def test_virtual_dice_turn_with_keeps_a_chip_and_a_score(page: Page) -> None:
    start_game(page, ["Solo"], mode="dice", rules="extreme")
    page.click("#roll")
    wait_actions(page, 2)
    first = dice(page)
    page.click(".die[data-pos='0']")
    page.click(".die[data-pos='1']")
    assert page.get_attribute(".die[data-pos='0']", "aria-pressed") == "true"
    page.click("#roll")
    wait_actions(page, 4)
    second = dice(page)
    rest = second[:5]
    for v in first[:2]:
        rest.remove(v)  # the kept dice are still there
    page.click("#roll")
    wait_actions(page, 6)
    assert page.locator("#roll").is_disabled()  # three throws used
    page.click("#chip")
    wait_actions(page, 7)
    assert page.text_content("th[data-player='0'] .chips") == "●●○"
    third = dice(page)
    page.click(".die[data-pos='5']")  # keep the d10
    page.click("#roll")
    wait_actions(page, 9)
    fourth = dice(page)
    assert fourth[5] == third[5]
    assert page.locator("#roll").is_disabled()
    roll = Roll(fourth[:5], d10=fourth[5])
    page.click("td[data-box='chance'] button[data-strike='0']")
    wait_actions(page, 10)
    assert page.text_content("td[data-box='chance']") == str(points(Box.CHANCE, roll))
    assert total(page, "Solo") == roll.total
    assert dice(page) == []


def test_reload_in_the_middle_of_a_turn_draws_the_saved_sheet_at_once_and_resumes(
    page: Page, context: BrowserContext
) -> None:
    start_game(page, ["Anna", "Ben"], mode="dice", rules="extreme")
    page.click("#roll")
    wait_actions(page, 2)
    page.click(".die[data-pos='2']")
    page.click("#roll")
    wait_actions(page, 4)
    before = dice(page)
    roll_label = page.text_content("#roll")
    held: list[Route] = []
    worker_js = re.compile(r".*/worker\.js.*")
    page.route(worker_js, lambda route: held.append(route))
    page.reload(wait_until="domcontentloaded")
    # The engine is held back: the stored view is drawn, the controls wait.
    wait_until(page, "document.querySelectorAll('.die').length === 6")
    assert dice(page) == before
    assert page.text_content("#roll") == roll_label
    assert page.get_attribute("#app", "aria-busy") == "true"
    assert page.locator("#roll").is_disabled()
    assert page.locator("#boot").is_visible()
    for _ in range(100):  # let Playwright hand over the held request
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the worker script was requested"
    held[0].continue_()
    page.unroute(worker_js)
    wait_ready(page)
    wait_actions(page, 4)
    assert dice(page) == before
    page.click("#roll")
    wait_actions(page, 6)
    assert page.locator("#roll").is_disabled()


def test_undo_takes_back_entries_and_throws(page: Page) -> None:
    start_game(page, ["Anna", "Ben"], mode="pad", rules="extreme")
    assert page.locator("#undo").is_disabled()
    pad_enter(page, 0, "threes", 9)
    assert page.text_content("td[data-player='0'][data-box='threes']") == "9"
    page.click("#undo")
    wait_actions(page, 0)
    assert page.locator("td[data-player='0'][data-box='threes'] button.open").count() == 1
    assert "Anna" in (page.text_content("#status") or "")
    start_game(page, ["Solo"], mode="dice", rules="extreme")
    page.click("#roll")
    wait_actions(page, 2)
    thrown = dice(page)
    page.click("#undo")
    wait_actions(page, 0)
    assert dice(page) == []
    page.click("#roll")
    wait_actions(page, 2)
    assert dice(page) == thrown  # the game's seed throws the same dice again


def corrupt_notice(page: Page) -> str:
    page.wait_for_selector(".notice.warn")
    return " ".join(page.locator(".notice.warn").all_text_contents())


@pytest.mark.parametrize(("key", "raw"), [
    ("kniffel.v1.current", '{"version": 1, "id": "x", "game": {'),  # truncated
    ("kniffel.v1.current", json.dumps({"version": 7, "id": "x", "game": {}, "view": {}})),
    ("kniffel.v1.history", '{"version": 1, "entries": [{"id": 3}]}'),  # not a history
])
def test_corrupt_stored_data_is_kept_as_a_copy_the_user_is_told_and_the_app_starts_clean(
    page: Page, key: str, raw: str
) -> None:
    page.evaluate("([key, raw]) => localStorage.setItem(key, raw)", [key, raw])
    page.reload()
    wait_ready(page)
    assert "beschädigt" in corrupt_notice(page)
    data = stored(page)
    copies = [k for k in data if k.startswith(f"{key}.corrupt.")]
    assert [data[k] for k in copies] == [raw]
    assert key not in data or json.loads(data[key])["entries"] == []  # the bad entry set aside
    assert page.locator("#setup").is_visible()
    start_game(page, ["Anna"], mode="pad", rules="extreme")  # and the clean start works
    pad_enter(page, 0, "chance", 20)
    assert total(page, "Anna") == 20


def test_stored_game_the_engine_refuses_is_kept_as_a_copy(page: Page) -> None:
    game = Game(preset("extreme"), ["Anna"], mode=Mode.PAD)
    game.apply(Enter(Box.CHANCE, 20))
    save = game.to_json()
    save["actions"].append({"type": "enter", "box": "chance", "points": 20})  # filled twice
    record = {"version": 1, "id": "g1", "started": "2026-11-30T00:00:00Z",
              "game": save, "view": game_view(game)}
    raw = json.dumps(record)
    page.evaluate("raw => localStorage.setItem('kniffel.v1.current', raw)", raw)
    page.reload()
    wait_ready(page)
    said = corrupt_notice(page)
    assert "beiseitegelegt" in said
    assert "Chance ist schon belegt (20)" in said  # the engine's reason, in German
    assert "already filled" not in said
    data = stored(page)
    assert [v for k, v in data.items() if k.startswith("kniffel.v1.current.corrupt.")] == [raw]
    assert page.locator("#setup").is_visible()


def import_file(page: Page, name: str, content: bytes) -> None:
    payload: FilePayload = {"name": name, "mimeType": "application/json", "buffer": content}
    page.set_input_files("#import-file", files=[payload])


def test_import_with_bad_content_is_refused_and_changes_nothing(page: Page) -> None:
    start_game(page, ["Anna", "Ben"], mode="pad", rules="extreme")
    pad_enter(page, 0, "chance", 20)
    page.click("#nav-history")
    before = stored(page)
    illegal = Game(preset("extreme"), ["X"], mode=Mode.PAD).to_json()
    illegal["actions"] = [{"type": "enter", "box": "fives", "points": 17}]
    bad_files: list[tuple[str, bytes]] = [
        ("broken.json", b'{"format": "kniffel-game", "version": 1, "players": ['),
        ("illegal.json", json.dumps(illegal).encode()),
        ("history.json", json.dumps({"format": "kniffel-history", "version": 1,
                                     "games": [{"game": illegal}]}).encode()),
        ("binary.json", bytes(range(256))),
    ]
    said = []
    for name, content in bad_files:
        import_file(page, name, content)
        page.wait_for_selector(".notice.warn")
        said.append(page.text_content(".notice.warn") or "")
        assert stored(page) == before, name
        page.click(".notice button")  # one notice at a time: close it for the next
        page.wait_for_selector(".notice", state="detached")
    text = " ".join(said)
    # each refusal names its file once, in German, and says that nothing was changed
    for name, _ in bad_files:
        assert f"„{name}“ wurde nicht importiert, es wurde nichts geändert: " in text or (
            f"„{name}“ ist weder ein Kniffel-Spielstand noch ein Kniffel-Verlauf" in text), name
    assert ("„illegal.json“ wurde nicht importiert, es wurde nichts geändert: Der Spielstand ist "
            "kein gültiges Spiel") in text
    assert "Fünfer kann nicht 17 Punkte haben" in text
    assert "cannot hold" not in text  # no developer text
    assert "the file" not in text
    # A good file is taken: the finished game goes to the history.
    done = Game(preset("kniffel"), ["Carla"], mode=Mode.PAD)
    for box in done.rules.boxes:
        done.apply(Enter(box, done.rules.max_points(box)))
    import_file(page, "good.json", json.dumps(done.to_json()).encode())
    page.wait_for_selector("#history-list li")
    entries = json.loads(stored(page)["kniffel.v1.history"])["entries"]
    assert [e["summary"]["players"] for e in entries] == [["Carla"]]
    page.wait_for_selector("#plot")
    assert "Carla" in (page.text_content("#stats") or "")


def test_names_with_markup_are_shown_as_text(page: Page) -> None:
    names = ["<script>window.pwned=1</script>", "<img src=x onerror=window.pwned=2>"]
    start_game(page, names, mode="pad", rules="extreme")
    shown = page.locator("#sheet thead .pname").all_text_contents()
    assert shown == names
    assert page.evaluate("window.pwned") is None
    assert page.locator("#sheet img, #sheet script, #screen img").count() == 0
    page.reload()
    wait_ready(page)
    assert page.locator("#sheet thead .pname").all_text_contents() == names
    assert page.evaluate("window.pwned") is None


def test_english_switch_and_keyboard_operation(page: Page) -> None:
    start_game(page, ["Anna"], mode="pad", rules="extreme")
    page.click("#lang")
    assert page.text_content("#sheet tr.total th") == "Total"
    assert page.get_attribute("html", "lang") == "en"
    # keyboard: focus the first open box, open it with Enter, pick the first option
    page.focus("td[data-box='ones'] button.open")
    page.keyboard.press("Enter")
    page.wait_for_selector("#picker[open]")
    page.keyboard.press("Enter")  # the first option has the focus in the dialog
    wait_actions(page, 1)
    assert page.text_content("td[data-player='0'][data-box='ones']") == "1"
    label = page.get_attribute("td[data-box='twos'] button.open", "aria-label")
    assert label == "Twos, Anna: count 2s"  # the name holds the words shown


def test_default_player_names_follow_the_language_switch_typed_names_stay(page: Page) -> None:
    if not page.locator("#setup").count():
        menu(page, "#new-game")
    while page.locator("#players .player-row").count() < 3:
        page.click("#add-player")
    page.fill("input[data-player='2']", "Oma")
    names = ["Spieler 1", "Spieler 2", "Oma"]
    assert [page.input_value(f"input[data-player='{i}']") for i in range(3)] == names
    page.click("#lang")
    assert [page.input_value(f"input[data-player='{i}']") for i in range(3)] == [
        "Player 1", "Player 2", "Oma"]
    page.click("#lang")
    assert [page.input_value(f"input[data-player='{i}']") for i in range(3)] == names


# What the page shows at its first frame (an init script runs before the page's own): the
# document's language and the header's first word.
FIRST_FRAME = """requestAnimationFrame(() => {
  window.firstFrame = { lang: document.documentElement.lang,
                        nav: document.getElementById('nav-game')?.textContent ?? null };
})"""


@pytest.mark.parametrize(("locale", "lang", "words"), [
    ("en-US", "en", ["Game", "Player 1"]),
    ("fr-FR", "de", ["Spiel", "Spieler 1"]),
    ("de-DE", "de", ["Spiel", "Spieler 1"]),
])
def test_a_first_visit_speaks_the_browsers_language_german_where_it_is_neither(
    browser_contexts: BrowserContexts, site: str, locale: str, lang: str, words: list[str],
) -> None:
    with browser_contexts.open(locale=locale, viewport={"width": 412, "height": 915}) as ctx:
        ctx.add_init_script(FIRST_FRAME)
        page, errors = fresh_page(ctx, site)
        assert page.evaluate("document.documentElement.lang") == lang
        assert page.text_content("#nav-game") == words[0]
        assert page.input_value("input[data-player='0']") == words[1]
        assert page.get_attribute("#lang", "lang") == ("de" if lang == "en" else "en")
        # the first frame already in the page's language: no German words flash on an English phone
        page.wait_for_function("window.firstFrame !== undefined")
        assert page.evaluate("window.firstFrame") == {"lang": lang, "nav": words[0]}
        assert errors == []


def test_a_stored_german_choice_wins_on_an_english_phone(
    browser_contexts: BrowserContexts, site: str,
) -> None:
    with browser_contexts.open(locale="en-US", viewport={"width": 412, "height": 915}) as ctx:
        page, errors = fresh_page(ctx, site)
        assert page.evaluate("document.documentElement.lang") == "en"
        # the settings stored with a game's start hold no language the player did not choose
        # (a phone whose languages change later follows them)
        start_game(page, ["Anna"])
        settings = json.loads(stored(page)["kniffel.v1.settings"])
        assert "lang" not in settings
        page.click("#lang")  # the player chooses German: stored
        assert json.loads(stored(page)["kniffel.v1.settings"])["lang"] == "de"
        assert page.evaluate("document.documentElement.lang") == "de"
        page.reload()
        wait_ready(page)
        assert page.evaluate("document.documentElement.lang") == "de"
        assert page.text_content("#nav-game") == "Spiel"
        assert errors == []


def test_the_page_makes_no_request_to_another_origin(page: Page, requests: Requests) -> None:
    start_game(page, ["Anna"], mode="dice", rules="extreme")
    page.click("#roll")
    wait_actions(page, 2)
    page.click("#nav-history")
    assert any(u.endswith("/pyodide/pyodide.asm.wasm") for u in requests.same)
    assert any("/worker.js" in u for u in requests.same)
    assert requests.foreign == []


def test_offline_after_the_first_visit(browser_contexts: BrowserContexts, site: str) -> None:
    # a first visit: its service worker and CSP as they are, Pyodide started afresh
    with browser_contexts.open(engine=False, service_workers="allow", bypass_csp=False) as ctx:
        page = ctx.new_page()
        page.goto(site)
        wait_ready(page)
        # The page's CSP forbids Playwright's wait_for_function here: poll with evaluate.
        wait_until(page, "navigator.serviceWorker.controller !== null")
        page.evaluate("navigator.serviceWorker.ready")
        # the worker is active only once it has stored every file of the site
        assert page.evaluate(
            "caches.keys().then(k => k.some(n => n.startsWith('kniffel-site-')))")
        manifest: dict[str, Any] = page.evaluate(
            "fetch('manifest.webmanifest').then(r => r.json())")
        assert manifest["display"] == "standalone"
        ctx.set_offline(True)
        page.reload()
        wait_ready(page)
        start_game(page, ["Offline"], mode="dice", rules="extreme")
        page.click("#roll")
        wait_actions(page, 2)
        assert len(dice(page)) == 6
        # a classic game's table (a file of its own, fetched on demand) is stored too: its
        # hint works offline
        start_game(page, ["Offline"], mode="dice", rules="kniffel")
        page.click("#roll")
        wait_actions(page, 2)
        page.click("#hint")
        page.wait_for_selector("#hint-best", timeout=60_000)


def test_exported_game_imports_again_and_a_replaced_game_can_be_resumed(page: Page) -> None:
    start_game(page, ["Anna", "Ben"], mode="pad", rules="extreme")
    pad_enter(page, 0, "sixes", 24)
    pad_enter(page, 1, "chance", 17)
    with page.expect_download() as download:
        menu(page, "#export-game")
    exported = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert Game.from_json(exported).scores() == (24, 17)
    # A new game replaces the one in progress, which waits in the history, unfinished.
    start_game(page, ["Carla"], mode="dice", rules="extreme")
    page.click("#nav-history")
    page.wait_for_selector("#history-list li")
    assert "Anna 24 · Ben 17" in (page.text_content("#history-list") or "")
    page.click("#history-list button[data-resume]")  # "Fortsetzen"
    wait_actions(page, 2)
    assert total(page, "Anna") == 24
    # The exported file, imported into an empty browser, continues the same game.
    clear_storage(page)
    page.reload()
    wait_ready(page)
    page.click("#nav-history")
    import_file(page, "anna-ben.json", json.dumps(exported).encode())
    wait_actions(page, 2)
    assert total(page, "Ben") == 17
    assert "Anna" in (page.text_content("#status") or "")


def test_a_second_tab_follows_the_game_instead_of_overwriting_it(
    page: Page, context: BrowserContext, site: str
) -> None:
    start_game(page, ["Anna", "Ben"], mode="pad", rules="extreme")
    other = context.new_page()
    try:
        other.goto(site)
        wait_ready(other)
        wait_actions(other, 0)
        pad_enter(page, 0, "fives", 20)
        wait_actions(other, 1)
        assert other.text_content("td[data-player='0'][data-box='fives']") == "20"
        pad_enter(other, 1, "fours", 12)
        wait_actions(page, 2)
        assert total(page, "Ben") == 12
    finally:
        other.close()


def test_computer_players_are_offered_only_with_virtual_dice(page: Page) -> None:
    page.check("#mode-pad")
    assert page.locator("select[data-kind]").count() == 0
    assert "nur im Spiel mit virtuellen Würfeln" in (page.text_content("#computers-note") or "")
    page.check("#mode-dice")
    assert page.locator("#computers-note").count() == 0
    kind = page.locator("select[data-kind='1']")
    assert kind.get_attribute("aria-label") == "Wer spielt Spieler 2?"
    options = kind.locator("option").all_text_contents()
    assert options == ["Mensch", "Computer (gierig)", "Computer (zufällig)", "Computer (Experte)",
                       "Computer (Experte, auf Sieg)"]
    # the expert is offered where it can play: in Kniffel Extreme only with its model (and so is
    # the expert playing to win)
    extreme = advice_view.expert_status(preset("extreme"))
    for expert in ("expert", "expert-win"):
        assert kind.locator(f"option[value='computer:{expert}']").is_disabled() is not (
            extreme["ready"])
    if not extreme["ready"]:
        assert page.text_content("#expert-note") == extreme["note"]["de"]
    page.select_option("#rules", "kniffel")
    assert not page.locator("select[data-kind='1'] option[value='computer:expert']").is_disabled()
    assert page.locator("#expert-note").count() == 0
    page.select_option("#rules", "extreme")
    kind.focus()
    page.keyboard.press("ArrowDown")  # keyboard: the next choice, greedy
    assert kind.input_value() == "computer:greedy"
    # a default name follows the kind: "Spieler 2" who becomes a computer is "Computer 1"
    assert page.input_value("input[data-player='1']") == "Computer 1"
    page.click("#lang")
    # a default name follows the language: "Spieler 1" becomes "Player 1"
    assert page.input_value("input[data-player='0']") == "Player 1"
    assert page.get_attribute("select[data-kind='1']", "aria-label") == "Who plays Computer 1?"
    settings = json.loads(stored(page)["kniffel.v1.settings"])
    assert settings["setup"]["players"][1] == {"name": "Computer 1", "kind": "computer",
                                               "strategy": "greedy"}
    page.select_option("select[data-kind='1']", "human")  # and back: a person again
    assert page.input_value("input[data-player='1']") == "Player 2"


# Records, every few milliseconds, what the page shows during a computer's turn.
WATCH = """() => {
  window.watched = { says: [], liveDuringComputer: 0, keptDuringComputer: 0 };
  setInterval(() => {
    const game = document.querySelector("section.game");
    if (!game) return;
    const say = document.querySelector("#computer-say").textContent;
    const says = window.watched.says;
    if (say && says[says.length - 1] !== say) says.push(say);
    if (game.dataset.computer === "1") {
      const roll = document.querySelector("#roll");
      const live = game.dataset.live === "1" || (roll && !roll.disabled);
      if (live) window.watched.liveDuringComputer++;
      if (document.querySelector(".die.kept")) window.watched.keptDuringComputer++;
    }
  }, 5);
}"""

COMPUTER_DONE = ("document.querySelector('section.game').dataset.computer === '0' && "
                 "document.querySelector('section.game').dataset.live === '1'")


def bot_cells(page: Page) -> dict[str, str]:
    cells: dict[str, str] = page.eval_on_selector_all(
        "td[data-player='1'][data-box]",
        "els => Object.fromEntries(els.filter(e => e.textContent).map(e => [e.dataset.box, "
        "e.textContent]))")
    return cells


def test_a_human_plays_a_round_against_the_greedy_computer(page: Page) -> None:
    page.evaluate("window.kniffelPace = 40")
    start_game(page, ["Anna", "Bot"], mode="dice", kinds={1: "computer:greedy"}, rules="extreme")
    assert page.text_content("th[data-player='1'] .pkind") == "Computer"
    page.evaluate(WATCH)
    page.click("#roll")
    wait_actions(page, 2)
    page.click("td.current button[data-strike='0']")  # Anna enters her dice in a box
    # the computer's turn plays itself: throws, kept dice shown, a box, then Anna again
    wait_until(page, COMPUTER_DONE + " && document.querySelector('section.game')"
               ".dataset.actions > 3", seconds=90)
    watched: dict[str, Any] = page.evaluate("window.watched")
    assert watched["liveDuringComputer"] == 0  # the human controls waited
    says = watched["says"]
    assert says[:2] == ["Bot überlegt …", "Bot würfelt."]
    assert re.fullmatch(r"Bot (trägt \d+ Punkte bei .+ ein|streicht .+)\.", says[-1]), says
    if any("hält" in t for t in says):
        assert watched["keptDuringComputer"] > 0
    assert page.text_content("#status") == "Am Zug: Anna"
    assert page.text_content("#round") == " · Runde 2 von 22"
    first_turn = bot_cells(page)
    assert len(first_turn) == 1  # the computer's box is on the sheet
    n = actions(page)
    assert n > 3
    stored_game = json.loads(stored(page)["kniffel.v1.current"])["game"]
    assert stored_game["players"][1] == {"name": "Bot", "kind": "computer", "strategy": "greedy"}
    assert len(stored_game["actions"]) == n
    # undo goes back to Anna's last decision: her box, with her dice, before the computer
    page.click("#undo")
    wait_actions(page, 2)
    assert bot_cells(page) == {}
    assert page.text_content("#status") == "Am Zug: Anna"
    page.click("td.current button[data-strike='0']")
    wait_until(page, COMPUTER_DONE + f" && Number(document.querySelector('section.game')"
               f".dataset.actions) === {n}", seconds=90)
    assert bot_cells(page) == first_turn  # the same dice from the game's seed: the same move


def test_a_computer_turn_goes_on_after_a_reload_and_plays_like_the_desktop_engine(
    page: Page,
) -> None:
    page.add_init_script("window.kniffelPace = 250")  # also after the reload
    page.evaluate("window.kniffelPace = 250")
    start_game(page, ["Bot", "Anna"], mode="dice", kinds={0: "computer:greedy"}, rules="extreme")
    wait_until(page, "Number(document.querySelector('section.game').dataset.actions) >= 2")
    assert page.get_attribute("section.game", "data-computer") == "1"
    page.reload()
    wait_ready(page)
    wait_until(page, COMPUTER_DONE, seconds=90)
    played = Game.from_json(json.loads(stored(page)["kniffel.v1.current"])["game"])
    # the same game on the desktop (numpy): the same seed brings the same dice and moves
    desktop = Session()
    desktop.handle({"op": "new", "mode": "dice", "seed": played.seed, "players": [
        {"name": "Bot", "kind": "computer", "strategy": "greedy"}, {"name": "Anna"}]})
    while desktop.handle({"op": "computer_move"})["ok"]:
        pass
    assert desktop.game is not None
    assert played.actions == desktop.game.actions
    assert played.current_player == 1


def bot_before_its_last_box() -> Game:
    """A Kniffel Extreme dice game of Bot (greedy computer) and Anna, Bot to move with only its
    last box (the sheet's bottom) open, Anna with one box left."""
    rules = preset("extreme")
    game = Game(rules, [Player("Bot", PlayerKind.COMPUTER, "greedy"), Player("Anna")],
                mode=Mode.DICE, seed=5)
    rng = random.Random(5)
    last = rules.boxes[-1]
    for _ in range(2 * (len(rules.boxes) - 1)):
        player = game.current_player
        assert player is not None
        while True:  # a roll that goes into another box than the last
            roll = Roll([rng.randint(1, 6) for _ in range(5)], rng.randint(0, 9))
            fit = [c for c in choices(rules, dict(game.sheet(player).entries), roll)
                   if c.box is not last]
            if fit:
                break
        for _ in range(rules.rolls):  # a strike comes after the last throw
            game.apply(Throw())
            game.apply(Outcome(roll))
        game.apply(Strike(fit[0].box) if fit[0].strike else Score(fit[0].box))
    return game


def test_a_computers_entry_is_brought_into_view(page: Page) -> None:
    # issue 29: a computer's entry was not scrolled into view
    game = bot_before_its_last_box()
    s = Session()
    reply = s.handle({"op": "load", "game": game.to_json()})
    record = {"version": 1, "id": "reveal", "started": "2026-12-01T18:00:00.000Z",
              "game": reply["game"], "view": reply["view"], "summary": reply["summary"]}
    page.add_init_script("window.kniffelPace = 40")
    page.evaluate("raw => localStorage.setItem('kniffel.v1.current', raw)", json.dumps(record))
    page.reload()
    wait_ready(page)
    wait_until(page, COMPUTER_DONE + f" && Number(document.querySelector('section.game')"
               f".dataset.actions) > {len(game.actions)}", seconds=90)
    box = preset("extreme").boxes[-1].value
    cell = f"td[data-player='0'][data-box='{box}']"
    assert page.text_content(cell)  # Bot's entry, at the sheet's bottom
    inside = page.evaluate("""sel => {
      const wrap = document.getElementById('sheet-wrap').getBoundingClientRect();
      const head = document.querySelector('#sheet-wrap thead').getBoundingClientRect();
      const foot = document.querySelector('#sheet-wrap tfoot').getBoundingClientRect();
      const td = document.querySelector(sel).getBoundingClientRect();
      return td.top >= head.bottom - 1 && td.bottom <= foot.top + 1 && td.bottom <= wrap.bottom;
    }""", cell)
    assert inside
    Path("/tmp/shots").mkdir(exist_ok=True)
    page.screenshot(path="/tmp/shots/computer-entry-in-view.png")


# --- the expert: hints, the expert opponent, the review --------------------------------------


def stored_game(page: Page) -> Game:
    return Game.from_json(json.loads(stored(page)["kniffel.v1.current"])["game"])


def desktop_hint(game: Game) -> dict[str, Any]:
    """The hint the bridge gives on the desktop (numpy) for ``game``."""
    s = Session()
    assert s.handle({"op": "load", "game": game.to_json()})["ok"]
    reply = s.handle({"op": "hint"})
    assert reply["ok"], reply
    hint: dict[str, Any] = reply["hint"]
    return hint


def suggested_dice(page: Page) -> list[int]:
    positions: list[int] = page.eval_on_selector_all(
        ".die.suggested", "els => els.map(e => Number(e.dataset.pos)).sort()")
    return positions


def test_a_hint_after_a_roll_shows_the_experts_best_choice_and_every_option(page: Page) -> None:
    start_game(page, ["Anna"], mode="dice", rules="kniffel")
    assert page.locator("#hint").count() == 0  # nothing to advise before the first throw
    page.click("#roll")
    wait_actions(page, 2)
    page.click("#hint")
    page.wait_for_selector("#hint-best")
    hint = desktop_hint(stored_game(page))
    best = hint["options"][0]
    assert page.text_content("#hint-best strong") == best["text"]["de"]
    assert (page.text_content("#hint-box .tip-expected")
            == messages.text("web.hint.expected", "de",
                             points=messages.number(best["expected"], "de")))
    assert suggested_dice(page) == sorted(best["keep"] or [])
    if best["kind"] in ("score", "strike"):
        assert page.locator(f"#choices button.suggested[data-box='{best['box']}']").count() == 1
    # every choice with its expected final score, best first
    page.click("#hint-all")
    rows = page.locator("#hint-table tbody tr")
    assert rows.count() == len(hint["options"])
    cells = page.eval_on_selector_all(
        "#hint-table tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.textContent))")
    by_text = {o["text"]["de"]: o for o in hint["options"]}
    assert len(by_text) == len(hint["options"])
    assert sorted(row[0] for row in cells) == sorted(by_text)  # every choice, once
    shown = [by_text[row[0]] for row in cells]
    # best first; two choices of the same expected score (a tie, equal to 1e-6) may stand in
    # either order: the page's engine and the desktop's break ties by rounding noise
    assert all(a["expected"] >= b["expected"] - 1e-6 for a, b in itertools.pairwise(shown))
    for i, (row, option) in enumerate(zip(cells, shown, strict=True)):
        assert row[1] == messages.number(option["expected"], "de")
        # what a choice costs, without a minus before it ("kostet 0,68", not "Verlust −0,68")
        if i == 0:
            assert row[2] == ""
        else:
            assert float(row[2].replace(",", ".")) == pytest.approx(option["loss"], abs=0.006)
    assert "Wertetabelle" in (page.text_content("#hint-source") or "")
    page.click("#panel-close")
    # the hint's dice are kept with one tap; after the throw the old hint is gone
    keep = next(o for o in hint["options"] if o["kind"] == "keep")
    if best["kind"] == "keep":
        page.click("#hint-keep")
        kept: list[int] = page.eval_on_selector_all(
            ".die.kept", "els => els.map(e => Number(e.dataset.pos)).sort()")
        assert kept == sorted(best["keep"])
        keep = best
    page.click("#roll")
    wait_actions(page, 4)
    assert page.locator("#hint-box").count() == 0
    game = stored_game(page)
    assert len(game.actions) == 4
    if keep is best:
        assert game.actions[2] == action_from_json(best["action"])
    # English: the same hint in English words
    page.click("#lang")
    page.click("#hint")
    page.wait_for_selector("#hint-best")
    english = desktop_hint(game)["options"][0]
    assert page.text_content("#hint-best strong") == english["text"]["en"]


def test_a_hint_after_a_chip_or_the_clear_word_that_the_extreme_model_is_missing(
    page: Page,
) -> None:
    start_game(page, ["Anna"], mode="dice", rules="extreme")
    for n in (2, 4, 6):
        page.click("#roll")
        wait_actions(page, n)
    page.click("#chip")
    wait_actions(page, 7)
    page.click("#hint")
    ready = page.evaluate("window.kniffelMeta.expert.extreme.ready")
    if not ready:
        # no fake advice: the engine says why there is none, in the page's language
        page.wait_for_selector("#notices .notice.warn")
        status = advice_view.expert_status(preset("extreme"))
        assert page.text_content("#notices .notice span") == status["note"]["de"]
        assert page.locator("#hint-best").count() == 0
        return
    page.wait_for_selector("#hint-best")
    hint = desktop_hint(stored_game(page))
    assert page.text_content("#hint-best strong") == hint["options"][0]["text"]["de"]
    assert "chip" not in {o["kind"] for o in hint["options"]}  # the chip is spent
    assert suggested_dice(page) == sorted(hint["options"][0]["keep"] or [])


def test_the_expert_opponent_plays_the_desktop_experts_best_choices(page: Page) -> None:
    page.evaluate("window.kniffelPace = 20")
    start_game(page, ["Anna", "Bot"], mode="dice", rules="kniffel",
               kinds={1: "computer:expert"})
    page.click("#roll")
    wait_actions(page, 2)
    page.click("td.current button[data-strike='0']")
    wait_until(page, COMPUTER_DONE + " && document.querySelector('section.game')"
               ".dataset.actions > 3", seconds=90)
    game = stored_game(page)
    assert game.players[1].strategy == "expert"
    replay = Game(game.rules, game.players, mode=Mode.DICE, seed=game.seed)
    judged = 0
    for action in game.actions:
        turn = replay.turn
        if (replay.current_player == 1 and turn is not None and turn.roll is not None
                and not replay.is_chance_node()):
            best = expert_for(game.rules).advise(Position.from_game(replay)).best.action
            assert action == best
            judged += 1
        replay.apply(action)
    assert judged >= 1
    assert len(bot_cells(page)) == 1


def german_number(text: str) -> float:
    return float(text.replace(".", "").replace(",", "."))


def played_to_the_last_move(players: int, seed: int) -> dict[str, Any]:
    """A classic dice game of ``players`` people (moves made by the random player) with only
    the last box left to fill, as a save."""
    game = Game(preset("kniffel"), [Player(f"P{i + 1}", PlayerKind.COMPUTER, "random")
                                    for i in range(players)], mode=Mode.DICE, seed=seed)
    match = Match(game)
    while True:
        turn = game.turn
        if (turn is not None and turn.player == players - 1 and turn.roll is not None
                and len(game.sheet(players - 1).entries) == len(game.rules.boxes) - 1):
            break
        match.move()
    data = game.to_json()
    for p in data["players"]:
        p["kind"], p["strategy"] = "human", None
    return data


def test_the_review_after_a_game_equals_the_desktop_advisor_with_the_sheet_of_each_moment(
    page: Page,
) -> None:
    from kniffel.solver.review import review as exact_review

    save = played_to_the_last_move(4, seed=21)
    page.click("#nav-history")
    page.set_input_files("#import-file", files=[FilePayload(
        name="last.json", mimeType="application/json", buffer=json.dumps(save).encode())])
    wait_actions(page, len(save["actions"]))  # an unfinished game continues here
    if page.locator("#strike-open").count():  # with throws left a strike is asked for
        page.click("#strike-open")
    page.click("#choices button[data-box]")  # the last box: the game is over
    page.wait_for_selector("#review")
    page.click("#review")
    # the page shows that the expert is judging while its own worker computes
    page.wait_for_selector("#review-screen")
    page.wait_for_selector("#review-summary", timeout=120_000)
    game = stored_game(page)
    assert game.is_over()
    exact = exact_review(game, build=True)
    # the first person's decisions (the page starts with the first person)
    mine = [d for d in exact.decisions if d.player == 0]
    lost = sum(d.loss for d in mine)
    summary = re.fullmatch(r"P1: (\d+) Entscheidungen, zusammen ([\d.,]+) Punkte verloren\.",
                           page.text_content("#review-summary") or "")
    assert summary, page.text_content("#review-summary")
    assert int(summary[1]) == len(mine)
    assert german_number(summary[2]) == pytest.approx(lost, abs=0.06)  # float32 in the browser
    listed = page.eval_on_selector_all("#review-list li", "els => els.map(e => Number("
                                       "e.dataset.index))")
    assert listed == [d.index for d in mine]
    losses = page.eval_on_selector_all("#review-list li .loss", "els => els.map(e => "
                                       "e.textContent)")
    for shown, d in zip(losses, mine, strict=True):
        if shown:  # nothing for the best move
            assert german_number(shown.lstrip("−")) == pytest.approx(d.loss, abs=0.06)
    costly = sorted(mine, key=lambda d: (-d.loss, d.index))[:3]
    assert page.eval_on_selector_all("#review-costliest li", "els => els.map(e => Number("
                                     "e.dataset.index))") == [d.index for d in costly]
    # the sheet as it was at the costliest decision
    page.click("#review-costliest [data-moment]")
    page.wait_for_selector("#moment-sheet")
    before = Game(game.rules, game.players, mode=Mode.DICE, seed=game.seed)
    for a in game.actions[:costly[0].index]:
        before.apply(a)
    for i, p in enumerate(game.players):
        assert page.text_content(f"#moment-sheet [data-total='{p.name}']") == str(
            before.scores()[i])
    page.click("#panel-close")
    # another player's review, then back to the finished game
    page.click("[data-review-player='3']")
    assert (page.text_content("#review-summary") or "").startswith("P4: ")
    page.click("#review-back")
    page.wait_for_selector("#rematch")
