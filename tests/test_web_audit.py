"""The screen audit: one scripted tour through every screen and state of the browser app, at
360×740 and 390×844 (touch) and 1280×800, light and dark, German and English, in Debian's
Chromium headless. On every screen: nothing runs past the window (page or dialog), no text
overflows its button or its table cell, no two interactive elements overlap, no missing value is
drawn as text (the phone tests' ``AUDIT``), and axe-core (npm, pinned in package.json, injected
here only: it is no part of the built site) finds no violation, the rule that a control's name
holds the words it shows included. Every screen is saved as a screenshot to
``$KNIFFEL_AUDIT_DIR`` (default ``/tmp/kniffel-audit``) as ``<size>-<scheme>-<lang>-<screen>.png``,
to be read.

One page per size walks the tour; each screen is checked in both languages (the layout checks and
the full axe run in each) and both schemes (axe's contrast rule in the second). The states are
reached fast: games near their end are loaded as saves, a history as a history file.

The device matrix (below) walks a shorter tour at every device and setting a table brings
(phones upright and sideways, tablets, a desktop, 200 % zoom, large default fonts, forced
colours with reduced motion), with checks of its own: every control within reach, the header's
buttons, every row of the sheet named, enough box rows in view, names unbroken, the keyboard.

The table of phones (issue 34) walks its screens at every setting of the matrix on one table of
three browser contexts (a second one for the desktop settings): the join panel, a refused
camera, an answer, the host's panel, the camera open, the guest's panel and the game at the
table; besides the matrix's checks, the QR code's size, the camera's box in view, the codes
within their fields, no word broken.

The history to another phone (issue 40) walks its panel's states on two browser contexts, on a
phone upright and sideways, German and English, light and dark, with the table's checks: the
start, this phone's code, the answer, connected, a transfer under way on both phones, its end,
and a transfer cut off.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import pytest
from playwright.sync_api import FilePayload, Page, ViewportSize

from conftest import dice_landed, next_frame, start_game, wait_actions
from kniffel import Game, Mode, preset
from kniffel.browser.view import game_view
from kniffel.engine.game import Player, PlayerKind, action_from_json
from kniffel.engine.history_file import HistoryEntry, encode_history
from kniffel.engine.match import Match
from test_web_phone import (
    AUDIT,
    DESKTOP,
    PHONE,
    READY,
    SMALL_PHONE,
    Device,
    actions,
    all_strikes_with_throws_left,
    classic_at_the_last_move,
)
from test_web_table import join, open_table
from test_web_transfer import history, import_history

if TYPE_CHECKING:
    from conftest import BrowserContexts

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parent.parent / "node_modules" / "axe-core" / "axe.min.js"
SHOTS = Path(os.environ.get("KNIFFEL_AUDIT_DIR", "/tmp/kniffel-audit"))
SCHEMES: tuple[Literal["light", "dark"], ...] = ("light", "dark")
SIZES = [pytest.param(size, mobile, id=f"{size['width']}x{size['height']}")
         for size, mobile in ((SMALL_PHONE, True), (PHONE, True), (DESKTOP, False))]

# The phone tests' audit, where an open popup menu covers the buttons below it: those are hidden
# by it, not overlapping it.
BUTTONS = "const buttons = [...scope.querySelectorAll('button')].filter(shown);"
assert BUTTONS in AUDIT
SCREEN_AUDIT = AUDIT.replace(BUTTONS, """
  const popups = [...document.querySelectorAll('details[open] > .menu-items')]
    .map((m) => [m, m.getBoundingClientRect()]);
  const under = (b) => popups.some(([m, p]) => {
    const q = b.getBoundingClientRect();
    return !m.contains(b) && Math.min(p.right, q.right) > Math.max(p.left, q.left)
      && Math.min(p.bottom, q.bottom) > Math.max(p.top, q.top);
  });
  const buttons = [...scope.querySelectorAll('button')].filter((b) => shown(b) && !under(b));""")
# ... and no text runs out of its table cell (a cell cuts what does not fit)
TEXT = "const text = document.body.innerText;"
assert TEXT in AUDIT
SCREEN_AUDIT = SCREEN_AUDIT.replace(TEXT, """
  for (const c of [...scope.querySelectorAll('td, th')].filter(shown)) {
    if (c.scrollWidth > c.clientWidth + 1 || c.scrollHeight > c.clientHeight + 1) {
      bad.push(`text overflows its cell: "${c.textContent}" ` +
               `${c.scrollWidth}x${c.scrollHeight} in ${c.clientWidth}x${c.clientHeight}`);
    }
  }
  """ + TEXT)

# The whole page in a screenshot where it scrolls (the history, the review), not where it fills
# the window (a game), where a dialog is open or the page is scrolled (a full-page shot draws the
# fixed bar and a dialog where the window is, mid-page).
FULL = """() => !document.body.classList.contains('playing')
  && !document.querySelector('dialog[open]') && window.scrollY === 0"""

# axe's findings as "rule: target, target" lines; the contrast rule alone in the second scheme
AXE_RUN = """async (only) => {
  // the rule that the name of a control holds its words is experimental: asked for by name
  const options = only ? { resultTypes: ['violations'], runOnly: { type: 'rule', values: only } }
    : { resultTypes: ['violations'], rules: { 'label-content-name-mismatch': { enabled: true } } };
  const result = await axe.run(document, options);
  const say = (v, n) => n.target.join(' ')
    + (v.id === 'color-contrast' ? ` (${n.any.map((c) => c.message).join('; ')})` : '');
  return result.violations.map((v) => `${v.id}: ` + v.nodes.map((n) => say(v, n)).join(', '));
}"""


@pytest.fixture(scope="module", autouse=True)
def axe_core() -> Path:
    """axe-core's script, to be injected into the pages."""
    assert AXE.is_file(), "the screen audit needs axe-core from npm: scripts/setup.sh"
    return AXE


# --- saves that lead straight to a state -------------------------------------------------------


def pad_save(names: list[str], entries: int) -> dict[str, Any]:
    """A score pad game of Kniffel Extreme with ``entries`` boxes filled (points in turn: a middle
    option of each box, some struck), as a save."""
    game = Game(preset("extreme"), [Player(n) for n in names], mode=Mode.PAD)
    for k in range(entries):
        options = game_view(game)["options"]
        box = options[(k * 7) % len(options)]["box"]
        mine = [o for o in options if o["box"] == box]
        game.apply(action_from_json(mine[len(mine) // 2 if k % 5 else -1]["action"]))
    return game.to_json()


def played(names: list[str], rules: str, seed: int) -> Game:
    """A dice game of ``names`` played to its end by the random player."""
    game = Game(preset(rules), [Player(n, PlayerKind.COMPUTER, "random") for n in names],
                mode=Mode.DICE, seed=seed)
    Match(game).play_out()
    return game


def at_the_last_move() -> dict[str, Any]:
    """A Kniffel Extreme dice game of two people (moves made by the random player) with only the
    last box of the second left to fill, as a save (its review is quick to compute)."""
    return classic_at_the_last_move(("Großmutter", "Maximilian"))


def history_file() -> dict[str, Any]:
    """A history file of three finished games on three days (statistics and a plot to draw)
    and one unfinished game."""
    entries = [HistoryEntry(f"audit-{i}", f"2026-11-{20 + i:02d}T18:00:00+00:00",
                            f"2026-11-{20 + i:02d}T18:40:00+00:00",
                            played(["Großmutter", "Maximilian"], rules, i))
               for i, rules in enumerate(["extreme", "kniffel", "extreme"])]
    entries.append(HistoryEntry("audit-open", "2026-11-27T18:00:00+00:00", None,
                                Game.from_json(pad_save(["Anna", "Ben"], 9))))
    return encode_history(entries)


def import_file(page: Page, data: object, name: str = "save.json") -> None:
    if not page.locator("#import-file").count():
        page.click("#nav-history")
    page.set_input_files("#import-file", files=[FilePayload(
        name=name, mimeType="application/json", buffer=json.dumps(data).encode())])


def after(page: Page, selector: str) -> None:
    """Click ``selector`` and wait until the game has gone on and takes input again."""
    n = actions(page)
    page.click(selector)
    page.wait_for_function("""(n) => {
      const g = document.querySelector('section.game');
      return g && Number(g.dataset.actions) > n && g.dataset.live === '1';
    }""", arg=n)


def load(page: Page, save: dict[str, Any]) -> None:
    import_file(page, save)
    wait_actions(page, len(save["actions"]))


# --- the audit of one screen ---------------------------------------------------------------

Step = Callable[[], None]


class Tour:
    """One page walking the screens at one size. Every screen is checked in both languages (the
    language button switches it; a dialog or a notice, written in the language it was opened in,
    is closed and opened again around the switch) and both schemes; the tour goes on in the
    language it was left in. Every finding is kept: the test fails at the end with all of them."""

    def __init__(self, page: Page, size: ViewportSize):
        self.page = page
        self.width = size["width"]
        self.tag = f"{size['width']}x{size['height']}"
        self.lang = "de"
        self.found: list[str] = []
        self.screens: list[str] = []
        SHOTS.mkdir(parents=True, exist_ok=True)
        for old in SHOTS.glob(f"{self.tag}-*.png"):
            old.unlink()

    def check(self, screen: str, close: Step | None = None, reopen: Step | None = None) -> None:
        self.screens.append(screen)
        self.look(screen)
        if close:
            close()
        self.page.click("#lang")
        self.lang = "en" if self.lang == "de" else "de"
        if reopen:
            reopen()
        self.look(screen)

    def look(self, screen: str) -> None:
        """Screenshots, the layout checks and axe of the screen as it is, light and dark."""
        page = self.page
        next_frame(page)  # the last draw painted
        if not page.evaluate("typeof axe !== 'undefined'"):
            page.add_script_tag(path=str(AXE))
        for scheme in SCHEMES:
            page.emulate_media(color_scheme=scheme)
            where = f"{self.tag}-{scheme}-{self.lang}-{screen}"
            page.screenshot(path=str(SHOTS / f"{where}.png"), full_page=page.evaluate(FULL))
            if scheme == SCHEMES[0]:
                self.found += [f"{where}: {bad}" for bad in page.evaluate(SCREEN_AUDIT, self.width)]
                found = page.evaluate(AXE_RUN, None)
            else:
                found = page.evaluate(AXE_RUN, ["color-contrast"])
            self.found += [f"{where}: axe {v}" for v in found]
        page.emulate_media(color_scheme=SCHEMES[0])

    def dismiss_notices(self) -> None:
        while self.page.locator(".notice button").count():
            self.page.locator(".notice button").first.click()

    def dialog(self, screen: str, opener: Step, shown: str, closer: Step | None = None) -> None:
        """Check the dialog ``opener`` opens (``shown`` appears in it) in both languages."""
        page = self.page

        def reopen() -> None:
            opener()
            page.wait_for_selector(shown)

        def close() -> None:
            if closer:
                closer()
            else:
                page.keyboard.press("Escape")
            page.wait_for_selector("dialog[open]", state="detached")

        reopen()
        self.check(screen, close, reopen)
        close()

    def notice(self, screen: str, cause: Step, shown: str = ".notice") -> None:
        """Check the notice ``cause`` brings up in both languages (it is caused again after the
        switch); it is dismissed after."""
        page = self.page

        def reopen() -> None:
            cause()
            page.wait_for_selector(shown)

        reopen()
        self.check(screen, self.dismiss_notices, reopen)
        self.dismiss_notices()


def panel_close(page: Page) -> Step:
    return lambda: page.click("#panel-close")


# --- the tour ------------------------------------------------------------------------------


def tour_setup_and_pad(t: Tour) -> str:
    """Setup in both modes, a refusal, the pad at the start, its dialogs, mid-game, typed dice,
    a correction, the menu, share, the hand-off and the end; the hand-off link."""
    page = t.page
    t.check("setup-pad")
    page.check("#mode-dice")
    page.click("#add-player")
    page.select_option("select[data-kind='1']", "computer:greedy")
    t.check("setup-dice")
    start_game(page, ["Oma", "oma"], wait=False)
    page.wait_for_selector(".notice.warn")

    def refused() -> None:
        page.click("#start")
        page.wait_for_selector(".notice.warn")

    t.check("notice-refusal", t.dismiss_notices, refused)
    t.dismiss_notices()
    start_game(page, ["Oma", "Ich"])
    t.check("pad-start")
    t.dialog("box-rule", lambda: page.click("button[data-info='three_of_a_kind']"),
             "#picker[open]")
    t.dialog("pad-picker", lambda: page.click("td[data-player='0'][data-box='chance'] button.open"),
             "#picker[open] #picker-options button")
    page.click("td[data-player='0'][data-box='chance'] button.open")
    page.click("#picker-options button[data-strike='0'][data-points='20']")
    wait_actions(page, 1)
    t.check("pad-entered")
    mid = pad_save(["Großmutter", "Maximilian", "Alexandra", "Ben"], 37)
    load(page, mid)
    t.check("notice-imported")
    t.dismiss_notices()
    t.check("pad-mid")
    t.dialog("pad-chances", lambda: page.click("#chances-info"), "#panel[open] #chances-list",
             panel_close(page))
    page.click("#enter-dice")
    for i, v in enumerate([5, 5, 5, 6, 6, 3]):
        page.fill(f"input[data-die='{i}']", str(v))
    n = actions(page)
    page.click("#show-boxes")
    page.wait_for_selector("#pad-options button[data-box]")
    t.check("pad-typed")
    page.click("#pad-clear")
    page.click("#enter-dice")
    wait_actions(page, n)
    t.dialog("pad-correction", lambda: page.locator("#sheet td button.filled").first.click(),
             "#picker[open] #picker-options button")
    page.click("#menu summary")
    t.check("menu")  # open through the language's redraw (cfe082c): no reopening
    page.click("#menu summary")
    # no share sheet and no clipboard: the text is shown to copy
    page.evaluate("""() => {
      Object.defineProperty(navigator, 'share', { configurable: true, value: undefined });
      Object.defineProperty(navigator, 'clipboard', { configurable: true,
        value: { writeText: async () => { throw new Error('denied'); } } });
    }""")

    def share() -> None:
        page.click("#menu summary")
        page.click("#share")

    t.dialog("share", share, "#panel[open] #share-text", panel_close(page))
    link: list[str] = []

    def handoff() -> None:
        page.click("#menu summary")
        page.click("#handoff")
        page.wait_for_selector("#panel[open] #qr path")
        link.append(page.input_value("#handoff-link"))

    t.dialog("handoff", handoff, "#panel[open] #qr path", panel_close(page))
    load(page, pad_save(["Anna", "Ben"], 43))
    t.dismiss_notices()
    page.locator("#sheet td button.open").first.click()
    page.locator("#picker-options button").first.click()
    page.wait_for_selector("#rematch")
    t.check("pad-end")
    return link[0]


def tour_dice(t: Tour) -> None:
    """The dice game: before and after every throw, the chip and the 4th throw, the hint and its
    table, a computer's turn (held while it is checked), strikes with throws left, the end, the
    review and one decision's sheet."""
    page = t.page
    start_game(page, ["Anna", "Rechner"], mode="dice", kinds={1: "computer:random"})
    t.check("dice-start")
    for throw in (1, 2, 3):
        after(page, "#roll")
        dice_landed(page)
        if throw == 1:
            page.click(".die >> nth=0")
            page.click(".die >> nth=1")
        t.check(f"dice-throw{throw}" + ("-chip" if throw == 3 else ""))
    after(page, "#chip")
    t.check("dice-chip-used")
    after(page, "#roll")
    dice_landed(page)
    t.check("dice-throw4")
    page.click("#hint")
    page.wait_for_selector("#hint-best", timeout=120_000)
    t.check("hint")
    t.dialog("hint-table", lambda: page.click("#hint-all"), "#panel[open] #hint-table",
             panel_close(page))
    # the computer plays quickly, then holds (for the audit) once it has said what it did
    page.evaluate("""() => Object.defineProperty(window, 'kniffelPace', { configurable: true,
      get: () => (document.getElementById('computer-say')?.textContent ? 1e8 : 50) })""")
    page.click("#choices button")
    page.wait_for_selector("section.game[data-computer='1'] .die", state="attached")
    page.wait_for_function("document.getElementById('computer-say').textContent !== ''")
    dice_landed(page)
    t.check("dice-computer")
    page.evaluate("() => { delete window.kniffelPace; }")
    load(page, all_strikes_with_throws_left())
    t.dismiss_notices()
    t.check("strike-hidden")
    page.click("#strike-open")
    t.check("strike-open")
    load(page, at_the_last_move())
    t.dismiss_notices()
    if page.locator("#strike-open").count():
        page.click("#strike-open")
    page.click("#choices button[data-box]")
    page.wait_for_selector("#review")
    t.check("dice-end")
    page.click("#review")
    page.wait_for_selector("#review-summary", timeout=120_000)
    t.check("review")
    t.dialog("review-sheet", lambda: page.click("#review-costliest [data-moment]"),
             "#panel[open] #moment-sheet", panel_close(page))
    page.click("#review-back")


def tour_history(t: Tour, link: str) -> None:
    """The history with statistics, the plot and unfinished games, a viewed game, an import
    refusal, and the hand-off prompt on a page opened from the link."""
    page = t.page
    import_file(page, history_file(), "kniffel-verlauf.json")
    page.wait_for_selector(".notice")
    page.wait_for_selector("#plot")
    t.dismiss_notices()
    page.evaluate("window.scrollTo(0, 0)")
    t.check("history")
    page.click("#history-list [data-open]")
    page.wait_for_selector("#opened-sheet")
    t.check("history-opened")
    page.click("#history-back")
    page.wait_for_selector("#history-list")
    t.notice("import-refusal", lambda: import_file(
        page, {"format": "kniffel-save", "players": []}, "kaputt.json"), ".notice.warn")

    def prompt() -> None:
        page.goto(link)
        page.wait_for_selector(READY, state="attached", timeout=120_000)

    t.dialog("handoff-prompt", prompt, "#panel[open] #link-load",
             lambda: page.click("#link-skip"))


@pytest.mark.parametrize(("size", "mobile"), SIZES)
def test_every_screen_fits_and_axe_finds_no_violation(
    browser_contexts: BrowserContexts, size: ViewportSize,
    mobile: bool,
) -> None:
    device = Device(browser_contexts, size, mobile)
    try:
        t = Tour(device.open(), size)
        link = tour_setup_and_pad(t)
        tour_dice(t)
        tour_history(t, link)
        assert len(t.screens) >= 30
        assert t.found == [], "\n".join(t.found)
    finally:
        device.close()


# --- the device matrix ---------------------------------------------------------------------
#
# The same screens at every device and setting a table brings: small, tall and sideways phones,
# tablets both ways, a desktop, 200 % zoom on a phone, large default fonts, forced colours with
# reduced motion. A shorter tour (setup, the pad mid-game and with typed dice, the menu, a
# throw, the history) in German (English too where the layout is tightest), light (dark too on
# the phones); on each screen the tour's checks and axe, and besides: every control whole within
# the window (or in a part that scrolls), the header's buttons in reach, every row of the sheet
# named, enough box rows in view beside the bar, no row of the sheet half behind its fixed head
# or totals, no name broken inside a word, the page's language the chosen one, sizes that grow
# with the text.


class Setting:
    """A device or setting of the matrix: its window (CSS px), touch, how many pixels per CSS
    px, the default font size, forced colours, and the box rows the sheet shows at least."""

    def __init__(self, name: str, width: int, height: int, *, rows: int, mobile: bool = True,
                 scale: float = 1, font: int = 16, forced: bool = False,
                 langs: tuple[str, ...] = ("de",), schemes: tuple[str, ...] = ("light",)):
        self.name = name
        self.size: ViewportSize = {"width": width, "height": height}
        self.rows = rows
        self.mobile = mobile
        self.scale = scale
        self.font = font
        self.forced = forced
        self.langs = langs
        self.schemes = schemes


MATRIX = [pytest.param(s, id=s.name) for s in (
    Setting("320x568", 320, 568, rows=3, langs=("de", "en"), schemes=SCHEMES),
    Setting("412x915", 412, 915, rows=8, schemes=SCHEMES),
    Setting("667x375-sideways", 667, 375, rows=5, langs=("de", "en"), schemes=SCHEMES),
    Setting("844x390-sideways", 844, 390, rows=5, schemes=SCHEMES),
    Setting("640x360-sideways", 640, 360, rows=5, scale=3),
    Setting("768x1024-tablet", 768, 1024, rows=10),
    Setting("820x1180-tablet", 820, 1180, rows=14),
    Setting("1180x820-tablet", 1180, 820, rows=8, langs=("de", "en")),
    Setting("1366x1024-tablet", 1366, 1024, rows=12),
    Setting("1920x1080", 1920, 1080, rows=15, mobile=False),
    Setting("1024x600-laptop", 1024, 600, rows=10, mobile=False),
    # 200 % browser zoom on a 390 px phone: half the CSS pixels, each twice as large
    Setting("zoom200-195x422", 195, 422, rows=5, scale=6, langs=("de", "en")),
    Setting("font24-390x844", 390, 844, rows=6, font=24),
    Setting("font32-390x844", 390, 844, rows=5, font=32, langs=("de", "en")),
    Setting("forced-colors-390x844", 390, 844, rows=7, forced=True, schemes=SCHEMES),
)]

# Every control whole: within the window or inside a part that scrolls it into view; the
# header's buttons in reach; every row of the sheet named and none half behind its fixed head or
# totals; no word of a name broken.
REACH = """() => {
  const bad = [];
  const W = window.innerWidth, H = window.innerHeight;
  const shown = (e) => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && e.checkVisibility({ visibilityProperty: true });
  };
  const scroller = (e) => {
    for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (/(auto|scroll)/.test(s.overflowX + s.overflowY)) return p;
    }
    return null;
  };
  const pageScrolls = document.documentElement.scrollHeight > H + 1
    && getComputedStyle(document.body).overflowY !== 'hidden';
  const open = document.querySelector('dialog[open]');
  const scope = open || document;
  const controls = [...scope.querySelectorAll('button, a[href], input, select, summary')]
    .filter((e) => shown(e) && !e.closest('#skip'));
  for (const e of controls) {
    const r = e.getBoundingClientRect();
    const name = `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''} `
      + `"${e.textContent.trim().slice(0, 30)}"`;
    if (scroller(e)) continue;  // its part of the page scrolls it into view
    if (r.left < -0.5 || r.right > W + 0.5) bad.push(`${name} is cut by the window's side`);
    if (!pageScrolls && (r.top < -0.5 || r.bottom > H + 0.5)) {
      bad.push(`${name} is cut by the window`);
    }
  }
  if (!open) {
    for (const id of ['nav-game', 'nav-history', 'lang']) {
      const r = document.getElementById(id).getBoundingClientRect();
      if (r.left < -0.5 || r.right > W + 0.5 || r.width < 1) {
        bad.push(`the header's #${id} is out of reach`);
      }
    }
  }
  const sheet = scope.querySelector('table.sheet');
  if (sheet) {
    for (const tr of sheet.querySelectorAll('tbody tr, tfoot tr')) {
      const th = tr.querySelector('th[scope=row]');
      const words = th ? th.innerText.replace(/[?\\s]/g, '') : '';
      if (!words) bad.push(`a row of the sheet has no name: ${tr.className || tr.dataset.row}`);
    }
  }
  for (const n of scope.querySelectorAll('.pname')) {
    if (!shown(n)) continue;
    const text = n.firstChild;
    if (!text || text.nodeType !== Node.TEXT_NODE) continue;
    let at = 0;
    for (const word of text.data.split(' ')) {
      const range = document.createRange();
      range.setStart(text, at);
      range.setEnd(text, at + word.length);
      const tops = new Set([...range.getClientRects()].map((q) => Math.round(q.top)));
      if (tops.size > 1) bad.push(`the name "${text.data}" breaks inside "${word}"`);
      at += word.length + 1;
    }
  }
  // no row of the sheet lies partly behind its fixed head or totals (a scroll rests at whole
  // rows): the row is cut where either crosses it (the cells are the fixed ones: thead and
  // tfoot themselves lie where the table has them)
  const wrap = document.getElementById('sheet-wrap');
  const headCell = wrap && wrap.querySelector('thead th');
  const footCell = wrap && wrap.querySelector('tfoot tr th');
  if (wrap && shown(wrap) && headCell && footCell) {
    const head = headCell.getBoundingClientRect();
    const foot = footCell.getBoundingClientRect();
    for (const tr of wrap.querySelectorAll('tbody tr')) {
      const r = tr.getBoundingClientRect();
      const row = tr.dataset.row || tr.className;
      if (r.top < foot.top - 1 && r.bottom > foot.top + 1) {
        bad.push(`the sheet's row ${row} lies half behind the totals: `
                 + `${Math.round(foot.top - r.top)} of its ${Math.round(r.height)} px in view`);
      }
      if (r.top < head.bottom - 1 && r.bottom > head.bottom + 1) {
        const seen = Math.round(r.bottom - head.bottom);
        bad.push(`the sheet's row ${row} lies half behind the head: `
                 + `${seen} of its ${Math.round(r.height)} px in view`);
      }
    }
  }
  // the page's language is the one shown: the language button offers the other one
  const lang = document.documentElement.lang;
  const other = document.getElementById('lang').getAttribute('lang');
  if (!['de', 'en'].includes(lang) || lang === other) {
    bad.push(`the page's lang is ${lang}`);
  }
  return bad;
}"""

# How many box rows of the sheet lie whole between its sticky head and foot (where the page
# scrolls, zoomed or with large text: once the page is scrolled to the sheet)
ROWS_SHOWN = """() => {
  const wrap = document.getElementById('sheet-wrap');
  if (getComputedStyle(document.body).overflowY !== 'hidden') {
    wrap.scrollIntoView({ block: 'start' });
  }
  const w = wrap.getBoundingClientRect();
  const top = Math.max(w.top, wrap.querySelector('thead').getBoundingClientRect().bottom);
  const bottom = Math.min(w.bottom, window.innerHeight,
                          wrap.querySelector('tfoot').getBoundingClientRect().top);
  return [...wrap.querySelectorAll('tbody tr[data-row]')].filter((tr) => {
    const r = tr.getBoundingClientRect();
    return r.top >= top - 1 && r.bottom <= bottom + 1;
  }).length;
}"""


class MatrixTour(Tour):
    """The tour at one setting of the matrix: its languages and schemes only, and the matrix's
    checks besides the tour's."""

    def __init__(self, page: Page, setting: Setting):
        super().__init__(page, setting.size)
        self.setting = setting
        self.tag = setting.name
        for old in SHOTS.glob(f"{self.tag}-*.png"):
            old.unlink()

    def check(self, screen: str, close: Step | None = None, reopen: Step | None = None) -> None:
        self.screens.append(screen)
        for i, lang in enumerate(self.setting.langs):
            if lang != self.lang:
                if i and close:
                    close()
                self.page.click("#lang")
                self.lang = lang
                if i and reopen:
                    reopen()
            self.look(screen)

    def look(self, screen: str) -> None:
        page = self.page
        next_frame(page)
        if not page.evaluate("typeof axe !== 'undefined'"):
            page.add_script_tag(path=str(AXE))
        for scheme in self.setting.schemes:
            page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
            where = f"{self.tag}-{scheme}-{self.lang}-{screen}"
            font = page.evaluate("getComputedStyle(document.documentElement).fontSize")
            self.expect(f"{screen}: the default font is {font}", font == f"{self.setting.font}px")
            # (a full-page screenshot resizes the window, which ends the CDP font setting)
            page.screenshot(path=str(SHOTS / f"{where}.png"),
                            full_page=self.setting.font == 16 and page.evaluate(FULL))
            if scheme == self.setting.schemes[0]:
                self.found += [f"{where}: {bad}" for bad in page.evaluate(SCREEN_AUDIT, self.width)]
                self.found += [f"{where}: {bad}" for bad in page.evaluate(REACH)]
                found = page.evaluate(AXE_RUN, None)
            elif self.setting.forced:
                # axe reads the page's own colours, not the forced ones: the second scheme's
                # contrast is the system's (the first scheme's axe run had every rule)
                found = []
            else:
                found = page.evaluate(AXE_RUN, ["color-contrast"])
            self.found += [f"{where}: axe {v}" for v in found]
        page.emulate_media(color_scheme=self.setting.schemes[0])  # type: ignore[arg-type]

    def expect(self, what: str, ok: bool) -> None:
        if not ok:
            self.found.append(f"{self.tag}-{self.lang}: {what}")


@pytest.mark.parametrize("setting", MATRIX)
def test_every_device_and_setting_at_the_table_shows_every_control_and_enough_rows(
    browser_contexts: BrowserContexts, setting: Setting,
) -> None:
    device = Device(browser_contexts, setting.size, setting.mobile,
                    scale=setting.scale, forced=setting.forced)
    try:
        page = device.open(font=setting.font)
        t = MatrixTour(page, setting)
        t.check("setup")
        names = ["Großmutter", "Maximilian", "Alexandra", "Ben"]
        start_game(page, names)
        load(page, pad_save(names, 37))
        t.dismiss_notices()
        page.evaluate("document.getElementById('sheet-wrap').scrollTo(0, 0)")
        rows = page.evaluate(ROWS_SHOWN)
        page.evaluate("window.scrollTo(0, 0)")
        t.expect(f"{rows} box rows in view, fewer than {setting.rows}", rows >= setting.rows)
        t.check("pad-mid")
        # the keyboard: from the sheet one Tab (the sheet is one stop) to the bar; Escape closes
        # the menu; the skip buttons reach sheet, bar and menu
        page.focus("#sheet button[tabindex='0']")
        presses = 0
        while presses < 10 and not page.evaluate(
                "document.activeElement.closest('.bottom-bar') !== null"):
            page.keyboard.press("Tab")
            presses += 1
        t.expect(f"{presses} Tab presses from the sheet to the bar", presses <= 3)
        for where, inside in (("sheet", "#sheet"), ("bar", ".bottom-bar"), ("menu", "#menu")):
            page.evaluate("document.activeElement.blur()")
            page.keyboard.press("Tab")  # the first stop of the page: the skip buttons
            while page.evaluate(f"document.activeElement.dataset.skip !== '{where}'"):
                page.keyboard.press("Tab")
            page.keyboard.press("Enter")
            t.expect(f"the skip button to the {where} lands elsewhere", page.evaluate(
                f"document.activeElement.closest('{inside}') !== null"))
        page.click("#enter-dice")
        for i, v in enumerate([5, 5, 5, 6, 6, 3]):
            page.fill(f"input[data-die='{i}']", str(v))
        page.click("#show-boxes")
        page.wait_for_selector("#pad-options button[data-box]")
        # what the player types grows with the text
        grows = page.evaluate("""() => {
          const size = (e) => parseFloat(getComputedStyle(e).fontSize);
          const die = document.querySelector("input[data-die='0']");
          return size(die) / size(document.documentElement);
        }""")
        t.expect(f"the typed dice are {grows:.2f} of the text's size", grows >= 0.95)
        t.check("pad-typed")
        page.click("#pad-clear")
        page.click("#enter-dice")
        page.click("#menu summary")
        t.check("menu")  # open through the language's redraw
        t.expect("the menu closes on the language's redraw",
                 page.evaluate("document.getElementById('menu').open"))
        page.keyboard.press("Escape")
        t.expect("the menu stays open after Escape",
                 not page.evaluate("document.getElementById('menu').open"))
        start_game(page, ["Anna", "Rechner"], mode="dice", kinds={1: "computer:random"})
        after(page, "#roll")
        dice_landed(page)
        if setting.forced:  # with reduced motion: nothing moves
            t.expect("an animation runs with reduced motion", page.evaluate(
                "document.getAnimations().every((a) => a.effect.getTiming().duration <= 1)"))
        t.check("dice-throw1")
        import_file(page, history_file(), "kniffel-verlauf.json")
        page.wait_for_selector("#plot")
        t.dismiss_notices()
        page.evaluate("window.scrollTo(0, 0)")
        t.check("history")
        assert t.found == [], "\n".join(t.found)
    finally:
        device.close()


# --- the table of phones on the matrix -------------------------------------------------------
#
# The table's screens (issue 34) at every setting of the matrix: phones upright and sideways,
# tablets both ways (the one in the middle of the table a view of everyone), a desktop and a
# laptop, 200 % zoom, large text, forced colours, in the setting's languages and schemes. One
# table serves every setting of its kind (a join costs seconds): three phones of one size,
# resized to each setting's window, their default font set and forced colours emulated per page
# (a setting's pixels per CSS px draw the same layout: they are left at 1 here); the desktop
# settings get a table of their own, of browsers without touch. The host holds a game of four
# mid-way, a guest sits at it; a third phone, never joined, shows the join panel, a refused
# camera and the answer it makes from the host's code (then leaves). The camera is a canvas's
# stream (or refused).

TABLE_MATRIX = MATRIX

# The camera of the table's phones: a canvas's stream (a card on a table, moving a little) while
# ``window.kniffelCamera`` is "open", else refused as a person refuses it.
CAMERA = """(() => {
  const devices = navigator.mediaDevices;
  if (!devices) return;
  devices.getUserMedia = async () => {
    if (window.kniffelCamera !== 'open') {
      throw new DOMException('Permission denied', 'NotAllowedError');
    }
    const canvas = Object.assign(document.createElement('canvas'), { width: 640, height: 480 });
    const c = canvas.getContext('2d');
    let t = 0;
    const paint = () => {
      c.fillStyle = '#5a5a50';
      c.fillRect(0, 0, 640, 480);
      c.fillStyle = '#e8e2d0';
      c.fillRect(180 + (t++ % 8), 100, 280, 280);
    };
    paint();
    setInterval(paint, 100);
    return canvas.captureStream(10);
  };
})()"""


# The table's own checks, besides the matrix's: a QR code at least 200 CSS px wide where the
# dialog is that wide, and whole in the dialog's height with its caption (a camera at arm's
# length reads it in one look); the camera's box in view once it opens (its button lies at the
# panel's foot, the box at its head) and whole; nothing of the table's panel wider than the
# panel (a pasted code wraps in its field and is shown whole; the code shown scrolls in its one
# line); no word of the panel, the camera's box or the table's line broken (only after a
# hyphen).
TABLE_CHECK = r"""() => {
  const bad = [];
  const shown = (e) => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && e.checkVisibility({ visibilityProperty: true });
  };
  const dialog = document.querySelector('dialog[open]');
  const panel = document.getElementById('table-panel') || document.getElementById('transfer-panel');
  if (dialog && panel) {
    const s = getComputedStyle(dialog);
    const inner = dialog.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
    const high = dialog.clientHeight - parseFloat(s.paddingTop) - parseFloat(s.paddingBottom);
    for (const qr of panel.querySelectorAll('svg.qr')) {
      const q = qr.getBoundingClientRect();
      const whole = (qr.closest('figure') || qr).getBoundingClientRect();
      if (q.width < Math.min(200, inner) - 1) {
        bad.push(`the QR code is ${Math.round(q.width)} px wide in ${Math.round(inner)} px`);
      }
      if (whole.height > high + 1) {
        bad.push(`the QR code with its caption is ${Math.round(whole.height)} px high,`
                 + ` the dialog shows ${Math.round(high)} px`);
      }
    }
    const box = document.getElementById('table-scan-box');
    if (box) {
      const b = box.getBoundingClientRect(), d = dialog.getBoundingClientRect();
      if (b.top < d.top - 1 || b.top > d.bottom - 40) bad.push("the camera's box is out of view");
      if (b.height > high + 1) {
        bad.push(`the camera's box is ${Math.round(b.height)} px high,`
                 + ` the dialog shows ${Math.round(high)} px`);
      }
    }
    const p = panel.getBoundingClientRect();
    for (const e of [...panel.querySelectorAll('*')].filter(shown)) {
      const r = e.getBoundingClientRect();
      if (r.left < p.left - 1 || r.right > p.right + 1) {
        bad.push(`${e.tagName.toLowerCase()}#${e.id} runs out of the panel`);
      }
      if (e.tagName === 'TEXTAREA' && e.scrollWidth > e.clientWidth + 1) {
        bad.push(`the code in #${e.id} runs out of its field`);
      }
      if (e.tagName === 'TEXTAREA' && e.scrollHeight > e.clientHeight + 1) {
        bad.push(`the code in #${e.id} is cut: ${e.scrollHeight} px in ${e.clientHeight}`);
      }
    }
  }
  const parts = [dialog && panel ? dialog : null, document.getElementById('table-line')];
  for (const part of parts.filter(Boolean)) {
    const walk = document.createTreeWalker(part, NodeFilter.SHOW_TEXT);
    for (let text = walk.nextNode(); text; text = walk.nextNode()) {
      if (!text.parentElement || !shown(text.parentElement)) continue;
      const re = /[^\s-]+-?/g;
      for (let m = re.exec(text.data); m; m = re.exec(text.data)) {
        const range = document.createRange();
        range.setStart(text, m.index);
        range.setEnd(text, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].map((q) => Math.round(q.top)));
        if (tops.size > 1) bad.push(`"${m[0]}" is broken inside (${text.data.slice(0, 40)})`);
      }
    }
  }
  return bad;
}"""


class TablePhones:
    """Three phones of one table (``host``, ``guest``) and one that never joins (``newcomer``),
    each a page of its own browser context with a CDP session for its default font; ``offer``:
    the host's code for the next phone; ``errors``: what the pages raised."""

    def __init__(self, contexts: BrowserContexts, mobile: bool = True):
        self.contexts = contexts
        self.mobile = mobile
        self.opened = [contexts.new(is_mobile=mobile, has_touch=mobile,
                                    viewport={"width": 390, "height": 844}) for _ in range(3)]
        self.errors: list[str] = []
        self.pages: list[Page] = []
        self.sessions: list[Any] = []
        for ctx in self.opened:
            ctx.add_init_script(CAMERA)
            page = ctx.new_page()
            page.on("pageerror", lambda e: self.errors.append(str(e)))
            cdp = ctx.new_cdp_session(page)
            cdp.send("Page.enable")
            page.goto(contexts.site)
            page.evaluate("localStorage.clear()")
            page.reload()
            page.wait_for_selector(READY, state="attached", timeout=120_000)
            self.pages.append(page)
            self.sessions.append(cdp)
        self.host, self.guest, self.newcomer = self.pages
        self.offer = ""

    def set(self, setting: Setting) -> None:
        """Every phone at ``setting``: its window, default font and forced colours; no dialog
        open and no notice shown."""
        for page, cdp in zip(self.pages, self.sessions, strict=True):
            if page.evaluate("document.getElementById('panel').open"):
                page.click("#panel-close")
            page.set_viewport_size(setting.size)
            cdp.send("Page.setFontSizes",
                     {"fontSizes": {"standard": setting.font, "fixed": setting.font}})
            page.emulate_media(forced_colors="active" if setting.forced else "none",
                               reduced_motion="reduce" if setting.forced else "no-preference")
            while page.locator(".notice button").count():
                page.locator(".notice button").first.click()

    def close(self) -> None:
        for ctx in self.opened:
            self.contexts.close(ctx)


def seated(contexts: BrowserContexts, mobile: bool) -> Iterator[TablePhones]:
    """A table of two phones (``mobile``: touch phones, else desktop browsers) at a game of four
    (Großmutter, Maximilian, Alexandra, Ben) mid-way: the host's player in column 0, the guest's
    in 1; and a third phone on the setup screen."""
    phones = TablePhones(contexts, mobile)
    try:
        host = phones.host
        names = ["Großmutter", "Maximilian", "Alexandra", "Ben"]
        start_game(host, names)
        load(host, pad_save(names, 37))
        open_table(host)
        join(host, phones.guest, mine=1, name="Bens Handy")
        host.select_option("#table-mine", "0")
        phones.offer = host.input_value("#table-offer-code")
        host.click("#panel-close")
        yield phones
    finally:
        phones.close()
    assert phones.errors == []


@pytest.fixture(scope="module")
def table(browser_contexts: BrowserContexts) -> Iterator[TablePhones]:
    """The table of touch phones (:func:`seated`)."""
    yield from seated(browser_contexts, True)


@pytest.fixture(scope="module")
def desk_table(browser_contexts: BrowserContexts) -> Iterator[TablePhones]:
    """The table of desktop browsers, no touch (:func:`seated`)."""
    yield from seated(browser_contexts, False)


class TableTour(MatrixTour):
    """The matrix's tour of one phone of the table at one setting: the screens saved as
    ``table-<setting>-<scheme>-<lang>-<screen>.png`` (the matrix's own left alone), the findings
    into ``found`` (shared by the phones of a setting); it starts in the language the phone
    shows."""

    def __init__(self, page: Page, setting: Setting, found: list[str]):
        self.page = page
        self.setting = setting
        self.width = setting.size["width"]
        self.tag = f"table-{setting.name}"
        self.lang = page.evaluate("document.documentElement.lang")
        self.found = found
        self.screens = []

    def look(self, screen: str) -> None:
        super().look(screen)
        self.found += [f"{self.tag}-{self.lang}-{screen}: {bad}"
                       for bad in self.page.evaluate(TABLE_CHECK)]

    def state(self, screen: str, opener: Step, reopen: Step | None = None,
              close: Step | None = None) -> None:
        """Check the state ``opener`` brings up in the setting's languages (a dialog's
        ``close``d and opened again by ``reopen``, else by ``opener``, around each switch)."""
        if self.lang != self.setting.langs[0]:
            self.page.click("#lang")
            self.lang = self.setting.langs[0]
        opener()
        self.check(screen, close, reopen or opener)

    def rows(self, screen: str) -> None:
        """The sheet shows the setting's box rows beside the table's line."""
        self.page.evaluate("document.getElementById('sheet-wrap').scrollTo(0, 0)")
        rows = self.page.evaluate(ROWS_SHOWN)
        self.page.evaluate("window.scrollTo(0, 0)")
        self.expect(f"{screen}: {rows} box rows in view, fewer than {self.setting.rows}",
                    rows >= self.setting.rows)


def closer(page: Page) -> Step:
    """Close the open panel (and wait until it is closed)."""
    def close() -> None:
        page.click("#panel-close")
        page.wait_for_selector("dialog[open]", state="detached")
    return close


def table_line(page: Page) -> Step:
    """The game with the table's line under its head (no dialog open)."""
    def shown() -> None:
        page.wait_for_selector("#table-line")
    return shown


def show_qr(page: Page) -> None:
    """The panel scrolled to its QR code, as a phone held up to another's camera shows it."""
    page.evaluate("document.querySelector('#table-panel .qr-code')"
                  ".scrollIntoView({ block: 'center' })")


@pytest.mark.parametrize("setting", TABLE_MATRIX)
def test_the_tables_panels_camera_and_game_fit_every_device_and_setting(
    request: pytest.FixtureRequest, setting: Setting,
) -> None:
    table: TablePhones = request.getfixturevalue("table" if setting.mobile else "desk_table")
    assert table.mobile == setting.mobile
    table.set(setting)
    found: list[str] = []
    host, guest, newcomer = table.host, table.guest, table.newcomer
    # the phone that joins: the field for the table's code, a camera refused, its answer code
    t = TableTour(newcomer, setting, found)

    answer: list[str] = []

    def join_panel() -> None:
        newcomer.click("#table-join-open")
        newcomer.wait_for_selector("#table-offer-in")
        newcomer.fill("#table-offer-in", table.offer)  # the table's code pasted

    def refused() -> None:
        join_panel()
        newcomer.click("#table-scan")
        newcomer.wait_for_selector("#table-scan-box-note.warn")

    def answered() -> None:
        join_panel()
        newcomer.click("#table-join-go")
        newcomer.wait_for_selector("#table-answer-code")
        answer[:] = [newcomer.input_value("#table-answer-code")]
        show_qr(newcomer)

    def answer_again() -> None:
        newcomer.click("#table-join-open")
        newcomer.wait_for_selector("#table-answer-code")
        show_qr(newcomer)

    t.state("join", join_panel, close=closer(newcomer))
    closer(newcomer)()
    t.state("join-camera-refused", refused, close=closer(newcomer))
    closer(newcomer)()
    t.state("answer", answered, answer_again, closer(newcomer))
    newcomer.click("#table-leave")
    newcomer.wait_for_selector("dialog[open]", state="detached")
    t.dismiss_notices()
    # the host: its panel with the next phone's code, the camera open on it, the game
    t = TableTour(host, setting, found)

    def host_panel() -> None:
        open_table(host)
        host.fill("#table-answer", answer[0])  # a guest's answer pasted
        show_qr(host)

    def host_camera() -> None:
        host_panel()
        host.evaluate("window.kniffelCamera = 'open'")
        host.click("#table-scan")
        host.wait_for_function("document.querySelector('#table-scan-box video')?.readyState >= 2")

    t.state("host-offer", host_panel, close=closer(host))
    qr = host.evaluate("document.getElementById('table-offer-qr').getBoundingClientRect().width")
    closer(host)()
    t.state("host-camera", host_camera, close=closer(host))
    closer(host)()
    t.state("host-game", table_line(host))
    t.rows("host-game")
    # the guest: its panel (its column picked, connected: its used answer no longer shown), the game
    t = TableTour(guest, setting, found)

    def guest_panel() -> None:
        guest.click("#menu summary")
        guest.click("#table-open")
        guest.wait_for_selector("#table-seated")

    t.state("guest-panel", guest_panel, close=closer(guest))
    closer(guest)()
    t.state("guest-game", table_line(guest))
    t.rows("guest-game")
    print(f"\ntable at {setting.name}: the QR code {qr:.0f} px wide")
    assert table.errors == []
    assert found == [], "\n".join(found)


# --- the history to another phone (issue 40) ---------------------------------------------------

TRANSFER_SETTINGS = [pytest.param(s, id=s.name) for s in (
    Setting("390x844", 390, 844, rows=0, langs=("de", "en"), schemes=SCHEMES),
    Setting("844x390-sideways", 844, 390, rows=0, langs=("de", "en"), schemes=SCHEMES),
)]

# The sending phone's channel holds what it sends after its first ``n`` messages until released
# (a transfer caught halfway, for the audit); ``release`` sends what it held, in order.
HOLD = """(n) => {
  const send = RTCDataChannel.prototype.send;
  let sent = 0;
  window.kniffelHeld = [];
  RTCDataChannel.prototype.send = function (data) {
    if (sent++ < n || !window.kniffelHeld) return send.call(this, data);
    window.kniffelHeld.push([this, data]);
  };
  window.kniffelRelease = () => {
    const held = window.kniffelHeld;
    window.kniffelHeld = null;
    RTCDataChannel.prototype.send = send;
    for (const [channel, data] of held) channel.send(data);
  };
}"""


class TransferTour(TableTour):
    """The tour of one phone's transfer panel at one setting: the screens saved as
    ``transfer-<setting>-<scheme>-<lang>-<screen>.png``."""

    def __init__(self, page: Page, setting: Setting, found: list[str]):
        super().__init__(page, setting, found)
        self.tag = f"transfer-{setting.name}"


@pytest.mark.parametrize("setting", TRANSFER_SETTINGS)
def test_the_history_transfer_panel_fits_a_phone_upright_and_sideways(
        browser_contexts: BrowserContexts, setting: Setting) -> None:
    for old in SHOTS.glob(f"transfer-{setting.name}-*.png"):
        old.unlink()
    contexts = [browser_contexts.new(is_mobile=True, has_touch=True, viewport=setting.size)
                for _ in range(2)]
    errors: list[str] = []
    pages = []
    for ctx in contexts:
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(browser_contexts.site)
        page.evaluate("localStorage.clear()")
        page.reload()
        page.wait_for_selector(READY, state="attached", timeout=120_000)
        page.click("#nav-history")
        pages.append(page)
    a, b = pages
    found: list[str] = []
    try:
        import_history(a, history(range(20)))
        ta, tb = TransferTour(a, setting, found), TransferTour(b, setting, found)

        def panel(page: Page, shown: str) -> Step:
            def opened() -> None:
                if not page.locator("#panel[open] #transfer-panel").count():
                    page.click("#transfer-open")
                page.wait_for_selector(shown)
            return opened

        def offered() -> None:
            panel(a, "#transfer-panel")()
            if not a.locator("#transfer-offer-code").count():
                a.click("#transfer-offer")
            a.wait_for_selector("#transfer-offer-code")

        def answered() -> None:
            panel(b, "#transfer-code-in")()
            b.fill("#transfer-code-in", a.input_value("#transfer-offer-code"))
            b.click("#transfer-read")
            b.wait_for_selector("#transfer-answer-code")

        ta.state("transfer-start", panel(a, "#transfer-offer"), close=closer(a))
        closer(a)()
        ta.state("transfer-offer", offered, panel(a, "#transfer-offer-code"), closer(a))
        closer(a)()
        tb.state("transfer-answer", answered, panel(b, "#transfer-answer-code"), closer(b))
        closer(b)()
        offered()
        a.fill("#transfer-answer-in", b.input_value("#transfer-answer-code"))
        a.click("#transfer-connect")
        a.wait_for_selector("#transfer-connected")
        closer(a)()
        ta.state("transfer-connected", panel(a, "#transfer-send"), close=closer(a))
        # a transfer caught halfway: the hello and the first chunk through, the rest held
        a.evaluate(HOLD, 2)
        a.click("#transfer-send")
        panel(b, "#transfer-progress-text:not([data-arrived='0'])")()
        closer(b)()
        tb.state("transfer-receiving", panel(b, "#transfer-progress"), close=closer(b))
        closer(a)()
        ta.state("transfer-sending", panel(a, "#transfer-progress"), close=closer(a))
        a.evaluate("window.kniffelRelease()")
        panel(b, "#transfer-result")()
        closer(b)()
        tb.state("transfer-received", panel(b, "#transfer-result"), close=closer(b))
        closer(a)()
        ta.state("transfer-sent", panel(a, "#transfer-result"), close=closer(a))
        closer(b)()
        # a transfer cut off after one chunk: the sentence, and the panel to connect again
        b.evaluate("window.kniffelTransferCut = window.kniffelTiming.transfer.chunksReceived + 1")
        panel(a, "#transfer-send")()
        a.click("#transfer-send")
        panel(b, "#transfer-note")()
        closer(b)()
        tb.state("transfer-cut", panel(b, "#transfer-note"), close=closer(b))
        assert errors == []
        assert found == [], "\n".join(found)
    finally:
        for ctx in contexts:
            browser_contexts.close(ctx)
