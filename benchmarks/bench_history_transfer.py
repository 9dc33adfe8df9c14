"""The history to another phone (issue 40): a history of ``--games`` finished Kniffel Extreme dice
games of ``--players`` players each (random computer players, every throw recorded) moves from
one browser context to another over the app's own panel and data channel, on one Chromium on
the loopback: the bytes on the channel (both ways), the time from the tap on "send" to the
sentence on the receiving phone (the sender's engine making the chunks first, then the
receiver's engine checking every game as its chunk arrives: "hello → sentence"), and the
receiver's merge into its history (history.js addEntries: the engine's identity of each game,
the entries added, the history stored).

The receiving phone stores the history where the page keeps it (IndexedDB, one record per game);
the sending phone's history is put into its page's memory directly (an import of 1,000 games
would take a minute first).

Run: ``.venv/bin/python benchmarks/bench_history_transfer.py`` (``--help`` for options).
Chromium runs headless on this machine's CPU; a phone's is slower (a mid-range phone's
JavaScript and Pyodide run about 2–4 times as long), and Wi-Fi between two phones carries less
than the loopback.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from playwright.sync_api import Page, sync_playwright

from kniffel.browser.view import summary
from kniffel.engine.game import Game, Mode, Player, PlayerKind
from kniffel.engine.match import Match
from kniffel.engine.rules import preset
from kniffel.web.server import running_server

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking"]
READY = "#app[aria-busy='false']"

#: The receiver's stored games, once its last save is done: the records of the page's IndexedDB.
STORED = """async () => {
  await window.kniffelHistory.saved();
  const db = await new Promise((done, fail) => {
    const req = indexedDB.open("kniffel");
    req.onsuccess = () => done(req.result);
    req.onerror = () => fail(req.error);
  });
  const n = await new Promise((done, fail) => {
    const req = db.transaction("history").objectStore("history").count();
    req.onsuccess = () => done(req.result);
    req.onerror = () => fail(req.error);
  });
  db.close();
  return n;
}"""

#: The sender's history put into its page's memory (state.js's own module instance).
PUT = """async (entries) => {
  const { state, redraw } = await import(`./state.js?b=${window.kniffelTiming.build}`);
  state.history = entries;
  state.stats = null;
  redraw();
  return state.history.length;
}"""


def games(n: int, players: int) -> list[dict[str, Any]]:
    """``n`` history entries of finished Kniffel Extreme dice games as the page stores them."""
    out = []
    for seed in range(n):
        game = Game(preset("extreme"), [Player(f"P{i + 1}", PlayerKind.COMPUTER, "random")
                                        for i in range(players)], mode=Mode.DICE, seed=seed)
        Match(game).play_out()
        day = f"2026-{1 + seed // 28 % 12:02d}-{1 + seed % 28:02d}"
        out.append({"uid": f"bench-{seed}", "started": f"{day}T18:00:00+00:00",
                    "finished_at": f"{day}T18:40:00+00:00", "game": game.to_json(),
                    "summary": summary(game)})
    return out


def connect(a: Page, b: Page) -> None:
    for page in (a, b):
        page.click("#nav-history")
        page.click("#transfer-open")
    a.click("#transfer-offer")
    a.wait_for_selector("#transfer-offer-code")
    b.fill("#transfer-code-in", a.input_value("#transfer-offer-code"))
    b.click("#transfer-read")
    b.wait_for_selector("#transfer-answer-code")
    a.fill("#transfer-answer-in", b.input_value("#transfer-answer-code"))
    a.click("#transfer-connect")
    for page in (a, b):
        page.wait_for_selector("#transfer-connected")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    started = time.perf_counter()
    history = games(args.games, args.players)
    size = len(json.dumps([e["game"] for e in history], separators=(",", ":")).encode())
    print(f"{args.games} games of {args.players} made in {time.perf_counter() - started:.0f} s; "
          f"their saves {size / 1e6:.1f} MB of JSON")
    with running_server() as (site, _), sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        pages = []
        for _ in range(2):
            ctx = browser.new_context(viewport={"width": 390, "height": 844})
            page = ctx.new_page()
            page.goto(site)
            page.wait_for_selector(READY, state="attached", timeout=300_000)
            pages.append(page)
        a, b = pages
        assert a.evaluate(PUT, history) == args.games
        connect(a, b)
        tapped = time.perf_counter()
        a.click("#transfer-send")
        b.wait_for_selector("#transfer-result", timeout=1_800_000)
        wall = time.perf_counter() - tapped
        a.wait_for_selector("#transfer-result", timeout=60_000)
        said = b.text_content("#transfer-result")
        tb: dict[str, Any] = b.evaluate("window.kniffelTiming")
        ta: dict[str, Any] = a.evaluate("window.kniffelTiming")
        kept = b.evaluate(STORED)
        browser.close()
    sent, got = ta["transfer"], tb["transfer"]
    receive_s = (tb["transferEnded"] - tb["transferStarted"]) / 1000
    print(f"receiver says: {said}")
    print(f"receiver's history holds {kept} games")
    print("| what | value |")
    print("|---|---|")
    print(f"| games moved | {args.games} ({args.players} players, Kniffel Extreme, every throw) |")
    print(f"| bytes on the channel, sender → receiver | {sent['bytesSent'] / 1e6:.2f} MB "
          f"in {sent['sent']} messages ({got['chunksReceived']} chunks) |")
    print(f"| bytes on the channel, receiver → sender | {got['bytesSent'] / 1e3:.1f} kB "
          f"in {got['sent']} messages |")
    print(f"| tap on send → sentence on the receiver | {wall:.1f} s |")
    print(f"| receiver: hello → sentence | {receive_s:.1f} s |")
    merge_s = tb["transferMergeMs"] / 1000
    print(f"| receiver's merge (addEntries: identities, stored in IndexedDB) | {merge_s:.2f} s |")
    print(f"| per game | {1000 * wall / args.games:.1f} ms |")


if __name__ == "__main__":
    main()
