"""Benchmark of a large history (issue 40): 1,000 finished four-player Kniffel Extreme dice
games, every throw recorded.

Run: ``.venv/bin/python benchmarks/bench_history_store.py`` (``--help`` for options). The games
are ``--base`` greedy games played out, each under ``--games / --base`` sets of names (so the
games are distinct by the engine's identity and as long as real ones). It measures, in CPython:

* the backup file ("Sichern": the history file with the settings, compact JSON), its bytes;
* the restore as the page did it before (``import`` of the whole file: every game replayed and
  summed up, then ``merge_history``), unless ``--skip-before``;
* the restore as the page does it now (``import`` with ``have``: the games known by identity
  without a replay, then ``import_part`` of the new ones, ``--part`` per request) onto an empty
  phone, onto a phone holding all but ``--new`` of them, and a second restore of the same file;

and with ``--browser`` in headless Chromium (the site built and served on loopback, its
modules bundled): the history's IndexedDB filled with the games, then per reload
(``--reloads``) how long the page took to load the history (``historyLoadMs``) and whether the
running engine waited for it (``historyWaitMs``), beside the first drawing and interactive; and
the restore of the backup onto that phone (all known) and onto one holding all but ``--new``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from kniffel import Game, preset
from kniffel.browser.bridge import Session
from kniffel.browser.view import summary
from kniffel.engine.history_file import HistoryEntry, encode_history
from kniffel.engine.strategy import get_strategy
from kniffel.simulate import play_out

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
READY = "html[data-ready='1']"


def games(n: int, base: int) -> list[Game]:
    """``n`` distinct finished four-player Extreme dice games: ``base`` greedy games, each
    replayed under other names."""
    rules = preset("extreme")
    played = []
    for s in range(base):
        g = Game(rules, ["Anna", "Ben", "Carla", "Dora"], seed=1000 + s)
        play_out(g, get_strategy("greedy", rules), random.Random(s))
        played.append(g.to_json())
    out = []
    for i in range(n):
        save = played[i % base]
        names = [f"{p['name']} {i // base}" for p in save["players"]]
        out.append(Game.from_json({**save, "players": [{**p, "name": name} for p, name in
                                                       zip(save["players"], names, strict=True)]}))
    return out


def when(i: int) -> str:
    return f"2025-{1 + i // 28 % 12:02d}-{1 + i % 28:02d}T{18 + i % 5:02d}:{i % 60:02d}:00+00:00"


def backup_text(entries: list[HistoryEntry]) -> str:
    """The backup file as the page writes it (backup.js: compact, with the settings)."""
    data = {**encode_history(entries), "settings": None}
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def restore(s: Session, text: str, have: list[dict[str, str]], part: int) -> tuple[int, int]:
    """A restore as history.js makes it now: the plan, the new games part by part, the merge;
    how many were added and how many known."""
    plan = s.handle({"op": "import", "text": text, "name": "backup.json", "have": have})
    assert plan["ok"], plan
    entries: list[dict[str, Any]] = []
    for i in range(0, len(plan["new"]), part):
        reply = s.handle({"op": "import_part", "restore": plan["restore"],
                          "indices": plan["new"][i:i + part], "name": "backup.json"})
        assert reply["ok"], reply
        entries += reply["entries"]
    merged = s.handle({"op": "merge_history", "have": have, "entries": [
        {"uid": e["uid"], "identity": e["summary"]["identity"]} for e in entries]})
    return len(merged["add"]), plan["known"] + merged["known"]


def timed(label: str, fn: Any) -> Any:
    start = time.perf_counter()
    result = fn()
    print(f"{label}: {time.perf_counter() - start:.2f} s  {result if result is not None else ''}")
    return result


def python_part(entries: list[HistoryEntry], page_entries: list[dict[str, Any]], args: Any
                ) -> None:
    text = backup_text(entries)
    print(f"backup file: {len(text.encode()) / 1e6:.1f} MB")
    stored = json.dumps({"version": 1, "entries": page_entries}, separators=(",", ":"))
    print(f"the page's history (as localStorage held it): {len(stored) / 1e6:.1f} M characters")
    s = Session()
    known = [{"uid": e["uid"], "identity": e["summary"]["identity"]} for e in page_entries]
    if not args.skip_before:
        def before(have: list[dict[str, str]]) -> int:
            reply = s.handle({"op": "import", "text": text, "name": "backup.json"})
            got = reply["entries"]
            merged = s.handle({"op": "merge_history", "have": have, "entries": [
                {"uid": e["uid"], "identity": e["summary"]["identity"]} for e in got]})
            return len(merged["add"])
        timed("before: the whole file replayed, onto an empty phone (added)", lambda: before([]))
        timed("before: the same, onto a phone holding every game (added)",
              lambda: before(known))
    timed("now: restore onto an empty phone (added, known)",
          lambda: restore(s, text, [], args.part))
    timed(f"now: restore onto a phone holding all but {args.new}",
          lambda: restore(s, text, known[args.new:], args.part))
    timed("now: a second restore of the same file",
          lambda: restore(s, text, known, args.part))


def browser_part(page_entries: list[dict[str, Any]], text: str, args: Any) -> None:
    from playwright.sync_api import FilePayload, sync_playwright

    from kniffel.web.server import running_server
    with running_server(bundle=True) as (url, _), sync_playwright() as p:
        browser = p.chromium.launch(executable_path=args.chromium, args=ARGS)
        # (the site's policy forbids evaluated strings: Playwright's waits need them)
        ctx = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True)
        page = ctx.new_page()
        page.goto(url)
        page.wait_for_selector(READY, state="attached", timeout=300_000)
        fill = """records => new Promise((done) => {
            const req = indexedDB.open("kniffel");
            req.onsuccess = () => {
              const tx = req.result.transaction("history", "readwrite");
              const store = tx.objectStore("history");
              store.clear();
              for (const r of records) store.put(r);
              tx.oncomplete = () => { req.result.close(); done(); };
            };
        })"""
        page.evaluate(fill, page_entries)
        rows = []
        for _ in range(args.reloads):
            page.reload()
            page.wait_for_selector(READY, state="attached", timeout=300_000)
            t = page.evaluate("window.kniffelTiming")
            assert t["historyEntries"] == len(page_entries), t
            rows.append(t)
        for key in ("historyLoadMs", "historyWaitMs", "firstDrawMs", "interactiveMs"):
            values = [r[key] for r in rows]
            every = ", ".join(f"{v:.0f}" for v in values)
            print(f"page start, {len(page_entries)} games in IndexedDB: {key} median "
                  f"{statistics.median(values):.0f} ms (all: {every})")

        def restore_in_page(label: str) -> None:
            page.reload()  # (no notice left from before)
            page.wait_for_selector(READY, state="attached", timeout=300_000)
            page.click("#nav-history")
            page.wait_for_selector("#keeping")
            start = time.perf_counter()
            page.set_input_files("#import-file", files=[FilePayload(
                name="backup.json", mimeType="application/json", buffer=text.encode())])
            said = page.locator(".notice:has-text('importiert')")
            said.wait_for(timeout=600_000)
            print(f"page: {label}: {time.perf_counter() - start:.1f} s  ({said.text_content()})")

        restore_in_page("a second restore of the backup (every game known)")
        page.evaluate(fill, page_entries[args.new:])
        page.reload()
        page.wait_for_selector(READY, state="attached", timeout=300_000)
        restore_in_page(f"a restore onto a phone holding all but {args.new}")
        browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--base", type=int, default=5, help="greedy games played out")
    parser.add_argument("--new", type=int, default=40, help="games new to the phone")
    parser.add_argument("--part", type=int, default=25, help="games per import_part")
    parser.add_argument("--skip-before", action="store_true")
    parser.add_argument("--browser", action="store_true", help="the page's start and restore")
    parser.add_argument("--no-python", action="store_true", help="only the page's part")
    parser.add_argument("--reloads", type=int, default=3)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    start = time.perf_counter()
    made = games(args.games, args.base)
    entries = [HistoryEntry(f"u{i}", when(i), when(i), g) for i, g in enumerate(made)]
    page_entries = [{"uid": e.uid, "started": e.started, "finished_at": e.finished_at,
                     "game": e.game.to_json(), "summary": summary(e.game)} for e in entries]
    print(f"{args.games} games made in {time.perf_counter() - start:.0f} s")
    if not args.no_python:
        python_part(entries, page_entries, args)
    if args.browser:
        browser_part(page_entries, backup_text(entries), args)


if __name__ == "__main__":
    main()
