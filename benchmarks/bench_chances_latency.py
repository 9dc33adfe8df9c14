"""Benchmark of the win-chance row's latency in the browser (issue 22: the row must be new within
100 ms of an entry).

Run: ``.venv/bin/python benchmarks/bench_chances_latency.py`` (``--help`` for options). It serves a
fresh build of the site on loopback and drives Debian's Chromium with Playwright:

* Python in Pyodide: the site's own Pyodide and ``kniffel.zip``, loaded into a page (the same
  interpreter and package as the page's engine, whose worker cannot run other code), plays
  games of 2 and 4 players of Kniffel Extreme (the expert's model) and Kniffel (the exact table
  the site ships) with random legal entries on the score pad and times, after every entry, the
  chances alone (:func:`kniffel.engine.chances.win_chances`) and what they add to the view
  (:func:`kniffel.browser.view.chances_view`, without its memory of the last position); and
  the first call, which loads the model or table;
* in the app: tap an open box of the score pad and then its first number, until the sheet
  of the entry is drawn with a chance row (the next animation frame), and until that row holds
  the new chances (not the last ones marked stale, which come where the new ones take long:
  Kniffel Extreme's exact last two boxes), in games of 2 and 4 players.

Prints the median and the 95th percentile in milliseconds.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

from playwright.sync_api import Browser, Page, sync_playwright

from kniffel.engine.rules import preset
from kniffel.web.server import running_server

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
READY = "html[data-ready='1']"
BUDGET_MS = 100.0

# Load the site's Pyodide and package into the page (not its worker) and keep it as window.py.
LOAD_PYODIDE = """
async () => {
  const { loadPyodide } = await import(new URL("./pyodide/pyodide.mjs", location.href).href);
  const py = await loadPyodide({ indexURL: new URL("./pyodide/", location.href).href });
  const zip = await (await fetch("kniffel.zip")).arrayBuffer();
  py.unpackArchive(zip, "zip", { extractDir: "/home/pyodide/lib" });
  py.runPython("import sys; sys.path.insert(0, '/home/pyodide/lib')");
  // the classic exact table is a file of its own that the page's worker fetches when needed
  const name = py.runPython("from kniffel.browser.advice_view import table_file_name; "
    + "from kniffel.engine.rules import preset; table_file_name(preset('kniffel'))");
  const dir = py.runPython("from kniffel.browser.advice_view import TABLES_DIR; str(TABLES_DIR)");
  const table = new Uint8Array(await (await fetch(`tables/${name}`)).arrayBuffer());
  py.FS.mkdirTree(dir);
  py.FS.writeFile(`${dir}/${name}`, table);
  window.py = py;
}
"""

# The Python timed in Pyodide: games of random legal entries, the chances after every entry.
TIME_IN_PYODIDE = """
import json, random, time
from kniffel.browser import advice_view, view
from kniffel.engine import chances as chances_module
from kniffel.engine.chances import chance_model, win_chances
from kniffel.engine.game import Game, Mode
from kniffel.engine.rules import preset

def run(rules_name, players, games, seed):
    advice_view.install()  # the classic tables the site ships
    rules = preset(rules_name)
    t = time.perf_counter()
    first_game = Game(rules, [f"P{i}" for i in range(players)], mode=Mode.PAD, seed=seed)
    chances_module._model.cache_clear()  # the shared model loads anew, as on a fresh page
    view._LAST_CHANCES.clear()
    view.chances_view(first_game)
    first = (time.perf_counter() - t) * 1000
    model = chance_model(rules)
    alone, added = [], []
    rng = random.Random(seed)
    for g in range(games):
        game = Game(rules, [f"P{i}" for i in range(players)], mode=Mode.PAD, seed=seed + g)
        while not game.is_over():
            game.apply(rng.choice(game.legal_actions()))
            t = time.perf_counter()
            win_chances(game, model=model)
            alone.append((time.perf_counter() - t) * 1000)
            view._LAST_CHANCES.clear()  # a new position, as after an entry
            t = time.perf_counter()
            view.chances_view(game)
            added.append((time.perf_counter() - t) * 1000)
    return json.dumps({"first": first, "alone": alone, "view": added})
"""

# Score pad: tap player to move's first open box, then its first number; resolve with the
# milliseconds from that tap until the sheet of one more action, live, with a chance row, has
# been drawn (the next animation frame), and until its row holds the new chances.
ENTER_AND_TIME = """
async () => {
  const section = () => document.querySelector("section.game");
  const want = Number(section().dataset.actions) + 1;
  document.querySelector("#sheet td.current button.open").click();
  const option = document.querySelector("#picker[open] #picker-options button");
  const t = performance.now();
  option.click();
  const drawn = (row) => new Promise((resolve) => {
    const done = () => {
      const s = section();
      if (s && Number(s.dataset.actions) === want && s.dataset.live === "1"
          && s.querySelector(row)) {
        requestAnimationFrame(() => resolve(performance.now() - t));
        return true;
      }
      return false;
    };
    if (done()) return;
    const obs = new MutationObserver(() => { if (done()) obs.disconnect(); });
    obs.observe(document.getElementById("screen"),
                { childList: true, subtree: true, attributes: true });
  });
  // the sheet with a row (the last chances, stale, where the new ones take long), then the
  // row with the new chances
  const sheet = await drawn("#chances");
  const stale = document.querySelector("#chances.stale");
  const row = stale ? await drawn("#chances:not(.stale)") : sheet;
  return [sheet, row];
}
"""


def _summary(values: list[float]) -> str:
    values = sorted(values)
    p95 = values[min(len(values) - 1, round(0.95 * (len(values) - 1)))]
    flag = "" if p95 <= BUDGET_MS else f"   OVER {BUDGET_MS:.0f} ms"
    return (f"median {statistics.median(values):6.1f} ms   95th percentile {p95:6.1f}   "
            f"max {values[-1]:6.1f}   (n={len(values)}){flag}")


def in_pyodide(browser: Browser, url: str, games: int) -> None:
    """The Python side's cost in Pyodide (see the module docstring)."""
    ctx = browser.new_context(service_workers="block", bypass_csp=True)
    page = ctx.new_page()
    page.goto(url + "icon.svg")  # the site's origin, without starting the app
    page.evaluate(LOAD_PYODIDE)
    page.evaluate("code => window.py.runPython(code)", TIME_IN_PYODIDE)
    for rules in ("extreme", "kniffel"):
        for players in (2, 4):
            got: dict[str, Any] = json.loads(page.evaluate(
                "([r, n, g]) => window.py.runPython(`run('${r}', ${n}, ${g}, 1)`)",
                [rules, players, games]))
            print(f"pyodide {rules:>8} {players} players: first call (loads the values) "
                  f"{got['first']:7.1f} ms")
            print(f"pyodide {rules:>8} {players} players: win_chances   {_summary(got['alone'])}")
            print(f"pyodide {rules:>8} {players} players: chances_view  {_summary(got['view'])}")
    ctx.close()


def start_pad(page: Page, rules: str, players: int) -> None:
    if not page.locator("#setup").count():
        page.click("#menu summary")
        page.click("#new-game")
    page.select_option("#rules", rules)
    page.check("#mode-pad")
    while page.locator("#players .player-row").count() < players:
        page.click("#add-player")
    while page.locator("#players .player-row").count() > players:
        page.locator("#players .player-row button").last.click()
    page.click("#start")
    page.wait_for_selector("section.game[data-actions='0'][data-live='1']", state="attached")


def in_the_app(browser: Browser, url: str, entries: int) -> None:
    """Tap to sheet with its chances, on the score pad (see the module docstring)."""
    ctx = browser.new_context(service_workers="block", viewport={"width": 390, "height": 844})
    page = ctx.new_page()
    page.goto(url)
    page.wait_for_selector(READY, state="attached", timeout=180_000)
    for rules in ("extreme", "kniffel"):
        for players in (2, 4):
            start_pad(page, rules, players)
            # the last entry ends the game: its sheet has no chances to show
            cap = min(entries, len(preset(rules).boxes) * players - 1)
            times = [page.evaluate(ENTER_AND_TIME) for _ in range(cap)]
            print(f"app     {rules:>8} {players} players: entry -> sheet "
                  f"{_summary([sheet for sheet, _ in times])}")
            print(f"app     {rules:>8} {players} players: entry -> row   "
                  f"{_summary([row for _, row in times])}")
    ctx.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3, help="games per case timed in Pyodide")
    parser.add_argument("--entries", type=int, default=30, help="entries timed per case in the app")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--only", choices=("all", "pyodide", "app"), default="all")
    args = parser.parse_args()
    started = time.perf_counter()
    with running_server() as (url, _site), sync_playwright() as p:
        browser = p.chromium.launch(executable_path=args.chromium, args=ARGS)
        print(f"{browser.version=}  site {url}")
        if args.only in ("all", "pyodide"):
            in_pyodide(browser, url, args.games)
        if args.only in ("all", "app"):
            in_the_app(browser, url, args.entries)
        browser.close()
    print(f"({time.perf_counter() - started:.0f} s in all)")


if __name__ == "__main__":
    main()
