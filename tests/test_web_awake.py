"""The table stays awake: while a game is in progress the browser app keeps the screen on (the
Screen Wake Lock API), lets go when the page is hidden or the game is over, asks again when the
page shows while the game still runs, and never when the setting is off. Where the API is missing
or refuses, the game goes on and nothing is said. In Debian's Chromium headless, with
``navigator.wakeLock`` replaced by a recorder (a headless browser has no screen to keep on).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from conftest import BrowserContexts, start_game, wait_actions
from kniffel import Box, Enter, Game, Mode, preset

pytestmark = pytest.mark.browser

READY = "html[data-ready='1']"

# The page's view of the document's visibility is set by the test (window.kniffelShow), and
# navigator.wakeLock records every request and release in window.kniffelWake.
RECORDER = """(() => {
  const log = [];
  window.kniffelWake = log;
  let visibility = "visible";
  const doc = Document.prototype;
  Object.defineProperty(doc, "visibilityState", { configurable: true, get: () => visibility });
  Object.defineProperty(doc, "hidden", { configurable: true, get: () => visibility !== "visible" });
  window.kniffelShow = (v) => {
    visibility = v;
    document.dispatchEvent(new Event("visibilitychange"));
  };
  class Lock extends EventTarget {
    constructor(type) { super(); this.type = type; this.released = false; }
    release() {
      if (!this.released) {
        this.released = true;
        log.push("release");
        this.dispatchEvent(new Event("release"));
      }
      return Promise.resolve();
    }
  }
  const request = (type) => {
    log.push(`request:${type}`);
    return MODE === "refuse" ? Promise.reject(new DOMException("refused", "NotAllowedError"))
      : Promise.resolve(new Lock(type));
  };
  const value = MODE === "missing" ? undefined : { request };
  Object.defineProperty(navigator, "wakeLock", { configurable: true, value });
})();"""


@pytest.fixture(scope="module")
def context(browser_contexts: BrowserContexts) -> Iterator[BrowserContext]:
    # one context for the module, started from the session's engine snapshot (conftest.py)
    with browser_contexts.open(viewport={"width": 390, "height": 844}) as ctx:
        yield ctx


class Table:
    """A page of the app with the recorder in place (``mode``: "record", "refuse" or
    "missing"), checked for page errors when closed."""

    def __init__(self, context: BrowserContext, site: str, mode: str = "record") -> None:
        self.site = site
        self.page = context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.add_init_script(RECORDER.replace("MODE", json.dumps(mode)))
        self.page.goto(site)
        self.page.evaluate("localStorage.clear()")
        self.reload()

    def reload(self) -> None:
        self.page.reload()
        self.page.wait_for_selector(READY, state="attached", timeout=120_000)

    def log(self) -> list[str]:
        """Every request and release since the page was loaded, once the page has settled."""
        self.page.wait_for_timeout(200)  # a request is answered in a microtask or two
        log: list[str] = self.page.evaluate("[...window.kniffelWake]")
        return log

    def show(self, visibility: str) -> None:
        self.page.evaluate("v => window.kniffelShow(v)", visibility)

    def close(self) -> None:
        self.page.close()
        assert self.errors == []


@pytest.fixture
def table(context: BrowserContext, site: str) -> Iterator[Table]:
    t = Table(context, site)
    yield t
    t.close()


def pad_enter(page: Page, player: int, box: str, pts: int) -> None:
    """Score pad: tap the player's box, then the points."""
    n = int(page.get_attribute("section.game", "data-actions") or "-1")
    page.click(f"td[data-player='{player}'][data-box='{box}'] button.open")
    page.click(f"#picker-options button[data-strike='0'][data-points='{pts}']")
    wait_actions(page, n + 1)


def nearly_finished() -> dict[str, Any]:
    """A Kniffel Extreme score pad game of one player, every box filled but the chance, as the
    page stores its game in progress (no view: the engine draws it anew)."""
    rules = preset("extreme")
    game = Game(rules, ["Anna"], mode=Mode.PAD)
    for b in rules.boxes:
        if b is not Box.CHANCE:
            game.apply(Enter(b, 4 * (b.face or 0) if b.is_upper else rules.max_points(b)))
    return {"version": 1, "id": "near", "started": "2026-11-30T10:00:00Z",
            "game": game.to_json()}


def store_game(t: Table, record: dict[str, Any]) -> None:
    t.page.evaluate("raw => localStorage.setItem('kniffel.v1.current', raw)", json.dumps(record))
    t.reload()


# --- tests -----------------------------------------------------------------------------------


def test_a_game_in_progress_keeps_the_screen_on_while_shown_and_lets_go_when_hidden(
    table: Table,
) -> None:
    page = table.page
    assert table.log() == []  # the start screen: no game, the screen may dim
    assert page.is_checked("#keep-awake")  # on unless the player turns it off
    assert page.text_content("label:has(#keep-awake)") == "Bildschirm anlassen während eines Spiels"
    start_game(page, ["Anna", "Ben"])
    assert table.log() == ["request:screen"]
    pad_enter(page, 0, "sixes", 24)  # a move keeps the one lock
    assert table.log() == ["request:screen"]
    table.show("hidden")
    assert table.log() == ["request:screen", "release"]
    table.show("visible")  # the game still runs: asked again
    assert table.log() == ["request:screen", "release", "request:screen"]


def test_the_lock_goes_when_the_game_is_over_and_is_not_asked_for_again(table: Table) -> None:
    store_game(table, nearly_finished())
    page = table.page
    wait_actions(page, 21)
    assert table.log() == ["request:screen"]  # a stored game in progress, after a reload
    pad_enter(page, 0, "chance", 20)
    assert page.locator("#rematch").is_visible()
    assert table.log() == ["request:screen", "release"]
    table.show("hidden")
    table.show("visible")  # over: the screen may dim
    assert table.log() == ["request:screen", "release"]


def test_with_the_setting_off_the_screen_is_never_kept_on(table: Table) -> None:
    page = table.page
    page.click("#lang")
    assert page.text_content("label:has(#keep-awake)") == "Keep the screen on during a game"
    page.uncheck("#keep-awake")
    settings = json.loads(page.evaluate("localStorage.getItem('kniffel.v1.settings')"))
    assert settings["keep_awake"] is False
    start_game(page, ["Anna"])
    pad_enter(page, 0, "sixes", 24)
    table.show("hidden")
    table.show("visible")
    assert table.log() == []
    table.reload()  # the setting is stored: a reload with the game in progress asks nothing
    wait_actions(page, 1)
    assert table.log() == []


@pytest.mark.parametrize("mode", ["refuse", "missing"])
def test_a_browser_that_refuses_or_lacks_the_lock_plays_on_and_says_nothing(
    context: BrowserContext, site: str, mode: str,
) -> None:
    t = Table(context, site, mode)
    try:
        page = t.page
        # the setting is offered only where the browser can keep the screen on
        assert page.locator("#keep-awake").count() == (1 if mode == "refuse" else 0)
        start_game(page, ["Anna"])
        pad_enter(page, 0, "sixes", 24)
        t.show("hidden")
        t.show("visible")
        # refused: asked again when the page shows (the browser may allow it then); no notice
        assert t.log() == (["request:screen", "request:screen"] if mode == "refuse" else [])
        assert page.text_content("#notices") == ""
    finally:
        t.close()


# --- plain http on a LAN address: no secure context (issue 29) ---------------------------------


LAN_LACKS = "Über diese Adresse (http, nicht https) fehlen der App drei Dinge"


def test_over_plain_http_on_a_lan_address_the_app_says_once_what_it_lacks(
        browser: Browser, served_site: tuple[str, Path]) -> None:
    """The session's site served on this machine's own non-loopback address (what a phone on
    the same Wi-Fi opens after ``kniffel web --host 0.0.0.0``): not a secure context, so no
    service worker, no cache storage for the saved engine and no wake lock. The page says so
    once, the start screen says why the wake lock's setting is missing, the hand-off panel what
    the other phone lacks; the game itself is played."""
    from kniffel.web.server import _bind, lan_address

    address = lan_address()
    if not address[0].isdigit() or address.startswith("127."):
        pytest.skip(f"this machine has no non-loopback address ({address})")
    server = _bind(address, 0, str(served_site[1]))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    url = f"http://{address}:{server.server_address[1]}/"
    # a phone on the same Wi-Fi: its service worker and policy as they are, Pyodide started
    # afresh; a request to anything but this server fails the test (conftest.py)
    contexts = BrowserContexts(browser, url, None)
    errors: list[str] = []
    try:
        with contexts.open(engine=False, service_workers="allow", bypass_csp=False,
                           viewport={"width": 360, "height": 740}, is_mobile=True,
                           has_touch=True) as ctx:
            page = ctx.new_page()
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(url)
            assert page.evaluate("window.isSecureContext") is False
            assert page.evaluate("!('caches' in window) && !navigator.wakeLock") is True
            page.wait_for_selector(f".notice.warn:has-text('{LAN_LACKS}')")
            said = page.locator(".notice.warn").first.text_content() or ""
            assert "ohne Netz geht sie nicht" in said
            assert "startet jedes Mal ganz neu" in said
            assert "kann den Bildschirm nicht anlassen" in said
            page.wait_for_selector("html[data-ready='1']", state="attached", timeout=240_000)
            assert page.evaluate("window.kniffelTiming.bootPath") == "fresh"  # no saved engine
            # the start screen: no wake-lock setting, and why
            assert page.locator("#keep-awake").count() == 0
            assert (page.text_content("#keep-awake-missing") or "").startswith(
                "Bildschirm anlassen geht über diese Adresse nicht")
            page.screenshot(path="/tmp/shots/lan-setup-360.png")
            # the game is played; the hand-off panel says what the other phone lacks, and no
            # warning that this address reaches only this device
            page.check("#mode-pad")
            page.click("#start")
            wait_actions(page, 0)
            page.click("#menu summary")
            page.click("#handoff")
            page.wait_for_selector("#qr path")
            assert page.locator("#handoff-local").count() == 0
            assert "ohne Offline-Kopie" in (page.text_content("#handoff-lan-limits") or "")
            page.screenshot(path="/tmp/shots/lan-handoff-360.png")
            page.click("#panel-close")
            # told once on this device: not again after a reload
            page.reload()
            page.wait_for_selector("#boot", state="attached")
            assert page.locator(f".notice:has-text('{LAN_LACKS}')").count() == 0
            tips = json.loads(page.evaluate("localStorage.getItem('kniffel.v1.tips')"))
            assert tips["insecure"] is True
    finally:
        server.shutdown()
        server.server_close()
    assert errors == []
