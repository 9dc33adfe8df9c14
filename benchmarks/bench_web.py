"""Benchmark of the browser app in headless Chromium: cold start, warm reload, action latency.

Run: ``.venv/bin/python benchmarks/bench_web.py`` (``--help`` for options). It serves a fresh
build of the site on loopback and drives Debian's Chromium with Playwright:

* cold start: a new browser profile (empty caches, no engine snapshot), from navigation until
  the app is interactive (engine booted, saved game loaded, ``aria-busy="false"``);
* warm reload: reloading that page with a game in progress (engine from the memory snapshot,
  files from the service worker), until interactive; and until the saved sheet is first drawn;
* action latency: tap a box (or Roll) until the sheet shows the new state, measured in the page
  from the click to the next animation frame after the update;
* correction (score pad): tap a filled box, the engine's choices appear, tap one, until the
  corrected sheet is drawn (the same measure);
* hint (issue 12): tap "Tipp" after a throw until the expert's best choice is drawn, in dice
  games of each rule set asked for (``--hint-rules``), the first hint after a warm reload
  included; a rule set the expert cannot play here (Kniffel Extreme without its model) is
  reported and skipped;
* transfer (issue 20): the bytes of a first visit in a new profile as they went over the wire
  (response bodies as sent, compressed or not, until the service worker has stored the site),
  served with the site's compressed copies (``.br``/``.gz``) and without them;
* first score (issue 30, ``--only first-score``): a cold first visit of a phone (390×844,
  touch; a new browser each run: empty caches, no service worker, no engine snapshot) from
  navigation until the first score of a two-player score pad is shown in the sheet, and the
  bytes that came over the wire until then (bodies as sent, of the requests finished by then;
  the engine's downloads still under way are named apart) and until the engine runs. Under
  three conditions (``--conditions``): ``full`` (loopback, full speed), ``4g`` (CDP network
  emulation: 70 ms latency, 9 Mbit/s down and up) and ``slow`` (the whole browser, every
  process and thread, held to a quarter of one core by a cgroup: v1 ``cpu.cfs_quota_us`` or
  v2 ``cpu.max``, as root; Chrome's own CDP CPU throttling does not reach the Web Worker where
  the engine starts). With ``--peer DIR`` (a production build of another score pad, served
  from DIR, gzip) each run of ours alternates with one of the peer's, driven by
  ``--peer-steps`` (a JSON list of steps: a CSS selector to click, or ``[selector, text]`` to
  type into; the last one a selector whose appearance is the score shown, or ``[selector,
  text]``: an element of it holding or showing that text).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import tempfile
import time
import warnings
import zipfile
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, Request, sync_playwright

from kniffel.engine.expert_model import packed_copy
from kniffel.web.server import running_server

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
READY = "html[data-ready='1']"

# Click ``sel`` and resolve with the milliseconds until the sheet holds one more action and
# the next frame has been drawn.
CLICK_AND_TIME = """
async (sel) => {
  const section = () => document.querySelector("section.game");
  const want = Number(section().dataset.actions) + (sel === "#roll" ? 2 : 1);
  const t = performance.now();
  document.querySelector(sel).click();
  await new Promise((resolve) => {
    const done = () => {
      const s = section();
      if (s && Number(s.dataset.actions) === want && s.dataset.live === "1") {
        requestAnimationFrame(() => resolve());
        return true;
      }
      return false;
    };
    if (done()) return;
    const obs = new MutationObserver(() => { if (done()) obs.disconnect(); });
    obs.observe(document.getElementById("screen"),
                { childList: true, subtree: true, attributes: true });
  });
  return performance.now() - t;
}
"""


# Tap player 0's filled ``box``, then the first number the engine offers for it; resolve with the
# milliseconds until the corrected sheet is drawn.
CORRECT_AND_TIME = """
async (box) => {
  const section = () => document.querySelector("section.game");
  const want = Number(section().dataset.actions) + 1;
  const t = performance.now();
  document.querySelector(`td[data-player="0"][data-box="${box}"] button.filled`).click();
  await new Promise((resolve) => {
    const pick = () => {
      const b = document.querySelector("#picker[open] #picker-options button[data-strike='0']");
      if (b) { b.click(); return true; }
      return false;
    };
    if (pick()) return resolve();
    const obs = new MutationObserver(() => { if (pick()) { obs.disconnect(); resolve(); } });
    obs.observe(document.body, { childList: true, subtree: true, attributes: true });
  });
  await new Promise((resolve) => {
    const done = () => {
      const s = section();
      if (s && Number(s.dataset.actions) === want && s.dataset.live === "1") {
        requestAnimationFrame(() => resolve());
        return true;
      }
      return false;
    };
    if (done()) return;
    const obs = new MutationObserver(() => { if (done()) obs.disconnect(); });
    obs.observe(document.getElementById("screen"),
                { childList: true, subtree: true, attributes: true });
  });
  return performance.now() - t;
}
"""


# Tap "Tipp" and resolve with the milliseconds until the expert's best choice is drawn (and the
# next frame); a refusal (the notice) resolves with -1.
HINT_AND_TIME = """
async () => {
  const t = performance.now();
  document.querySelector("#hint").click();
  const ok = await new Promise((resolve) => {
    const done = () => {
      if (document.querySelector("#hint-best")) {
        requestAnimationFrame(() => resolve(true));
        return true;
      }
      if (document.querySelector("#notices .notice.warn")) { resolve(false); return true; }
      return false;
    };
    if (done()) return;
    const obs = new MutationObserver(() => { if (done()) obs.disconnect(); });
    obs.observe(document.body, { childList: true, subtree: true });
  });
  return ok ? performance.now() - t : -1;
}
"""


def _start_pad_game(page: Page) -> None:
    """A new score-pad game (from the game screen's menu) with Chance filled for player 0."""
    page.click("#menu summary")
    page.click("#new-game")
    page.check("#mode-pad")
    page.click("#start")
    page.wait_for_selector("section.game[data-actions='0'][data-live='1']", state="attached")
    page.click("td[data-player='0'][data-box='chance'] button.open")
    page.click("#picker-options button[data-strike='0']")
    page.wait_for_selector("section.game[data-actions='1'][data-live='1']", state="attached")


def _timing(page: Page) -> dict[str, Any]:
    page.wait_for_selector(READY, state="attached", timeout=120_000)
    timing: dict[str, Any] = page.evaluate("window.kniffelTiming")
    return timing


def _start_dice_game(page: Page) -> None:
    page.check("#mode-dice")
    page.click("#start")
    page.wait_for_selector("section.game[data-actions='0'][data-live='1']", state="attached")


def _summary(values: list[float]) -> str:
    values = sorted(values)
    return (f"median {statistics.median(values):7.0f} ms   min {values[0]:7.0f}   "
            f"max {values[-1]:7.0f}   (n={len(values)})")


def run(browser: Browser, url: str, runs: int, reloads: int, turns: int, sw: bool) -> None:
    cold: list[float] = []
    warm: list[float] = []
    warm_draw: list[float] = []
    roll: list[float] = []
    score: list[float] = []
    fix: list[float] = []
    paths: set[str] = set()
    for _ in range(runs):
        ctx = browser.new_context(service_workers="allow" if sw else "block")
        page = ctx.new_page()
        page.goto(url)
        cold.append(_timing(page)["interactiveMs"])
        _start_dice_game(page)
        if sw:
            while not page.evaluate("navigator.serviceWorker.controller !== null"):
                page.wait_for_timeout(100)
        for _ in range(reloads):
            page.reload()
            t = _timing(page)
            warm.append(t["interactiveMs"])
            warm_draw.append(t["firstDrawMs"])
            paths.add(t.get("bootPath", "?"))
        for _ in range(turns):
            roll.append(page.evaluate(CLICK_AND_TIME, "#roll"))
            option = "td.current button.option:not(.strike), td.current button.option"
            score.append(page.evaluate(CLICK_AND_TIME, option))
        _start_pad_game(page)
        for _ in range(turns):
            fix.append(page.evaluate(CORRECT_AND_TIME, "chance"))
        ctx.close()
    print(f"-- service worker {'on (as installed)' if sw else 'blocked (HTTP cache only)'}")
    print(f"cold start to interactive:        {_summary(cold)}")
    print(f"warm reload, saved sheet drawn:   {_summary(warm_draw)}")
    print(f"warm reload to interactive:       {_summary(warm)}   boot: {', '.join(sorted(paths))}")
    print(f"action: Roll -> dice shown:       {_summary(roll)}")
    print(f"action: tap a box -> sheet:       {_summary(score)}")
    print(f"correction: filled box -> sheet:  {_summary(fix)}")


def hints(browser: Browser, url: str, rules: str, turns: int, reloads: int) -> None:
    """Hint latency in dice games of ``rules``: after each throw of ``turns`` turns, and the
    first hint after each of ``reloads`` warm reloads."""
    ctx = browser.new_context(service_workers="block")
    page = ctx.new_page()
    page.goto(url)
    _timing(page)
    meta = page.evaluate("window.kniffelMeta")
    status = meta["expert"][rules]
    if not status["ready"]:
        print(f"hint {rules:>9}: skipped, {status['note']['en']}")
        ctx.close()
        return
    if page.locator("#setup").count() == 0:
        page.click("#menu summary")
        page.click("#new-game")
    page.select_option("#rules", rules)
    _start_dice_game(page)
    while not page.evaluate(f"(window.kniffelTiming.expertWarm || {{}})['{rules}']"):
        page.wait_for_timeout(100)  # the expert's engine starts and builds the expert
    after_roll: list[float] = []
    after_reload: list[float] = []
    for _ in range(turns):
        while page.locator("#roll:not([disabled])").count():
            page.evaluate(CLICK_AND_TIME, "#roll")
            after_roll.append(page.evaluate(HINT_AND_TIME))
        page.evaluate(CLICK_AND_TIME, "#choices button")
    first_roll: list[float] = []
    expert_ready: list[float] = []
    for _ in range(reloads):
        page.reload()
        _timing(page)
        first_roll.append(page.evaluate(CLICK_AND_TIME, "#roll"))
        after_reload.append(page.evaluate(HINT_AND_TIME))
        while not page.evaluate(f"(window.kniffelTiming.expertWarm || {{}})['{rules}']"):
            page.wait_for_timeout(50)
        expert_ready.append(page.evaluate(f"window.kniffelTiming.expertWarm['{rules}']"))
        page.evaluate(CLICK_AND_TIME, "#choices button")
    ctx.close()
    print(f"hint {rules:>9}: after a throw             {_summary(after_roll)}")
    print(f"roll {rules:>9}: first after a reload      {_summary(first_roll)}")
    print(f"hint {rules:>9}: right after that roll     {_summary(after_reload)}  (waits for the "
          "expert's engine)")
    print(f"expert {rules:>9}: ready after a reload {_summary(expert_ready)}  (its own engine "
          "started and its tables built)")


def first_visit_bytes(browser: Browser, url: str) -> dict[str, int]:
    """A first visit to ``url`` in a new profile, until the service worker controls the page
    (it has stored every file): the bytes of the response bodies as sent (encoded; Chromium's
    ``encodedDataLength``, 0 for what its memory cache answered) of the page's own requests
    (``page``: until interactive) and the service worker's (``worker``: its install), the
    headers' bytes, the requests, and the bodies' bytes by Content-Encoding."""
    out = {"page": 0, "worker": 0, "headers": 0, "requests": 0}
    pending: list[Request] = []
    ctx = browser.new_context()

    def finished(request: Request) -> None:
        pending.append(request)

    ctx.on("requestfinished", finished)
    page = ctx.new_page()
    page.goto(url)
    _timing(page)
    while not page.evaluate("navigator.serviceWorker.controller !== null"):
        page.wait_for_timeout(100)
    page.wait_for_timeout(500)  # the last finished requests' events
    for request in pending:
        sizes = request.sizes()
        response = request.response()
        encoding = (response.headers.get("content-encoding") if response else None) or "none"
        body = sizes["responseBodySize"]
        out["worker" if request.service_worker else "page"] += body
        out[f"body {encoding}"] = out.get(f"body {encoding}", 0) + body
        out["headers"] += sizes["responseHeadersSize"]
        out["requests"] += 1
    ctx.close()
    return out


def transfer(browser: Browser, url: str, plain_url: str) -> None:
    """Print a first visit's bytes over the wire with the compressed copies (``url``) and
    without them (``plain_url``: the same site served with ``compress=False``)."""
    sent = {"compressed": first_visit_bytes(browser, url),
            "plain": first_visit_bytes(browser, plain_url)}
    for name, got in sent.items():
        total = got["page"] + got["worker"]
        kinds = ", ".join(f"{k[5:]} {v / 1e6:.2f} MB" for k, v in sorted(got.items())
                          if k.startswith("body "))
        print(f"first visit, {name:>10}: {total / 1e6:6.2f} MB of bodies ({got['page'] / 1e6:.2f} "
              f"MB page until interactive + {got['worker'] / 1e6:.2f} MB service worker install; "
              f"{kinds}), {got['headers'] / 1e3:.1f} kB headers, {got['requests']} requests")
    saved = 1 - (sent["compressed"]["page"] + sent["compressed"]["worker"]) / (
        sent["plain"]["page"] + sent["plain"]["worker"])
    print(f"first visit: the compressed copies save {saved:.0%} of the bytes")


# --- issue 30: the first score of a cold first visit --------------------------------------------

#: A phone: the viewport of the issue's measurements, touch.
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 3}
#: CDP network emulation of a 4G-like link (bytes per second).
LINK_4G = {"offline": False, "latency": 70, "downloadThroughput": 9_000_000 / 8,
           "uploadThroughput": 9_000_000 / 8}
#: The share of one core the whole browser gets under ``slow``.
SLOW_SHARE = 0.25
#: Records when the first entered score appears in the sheet (ours: a filled box; the peer: the
#: last step: a selector, or ``[selector, text]``: a field holding that value or an element
#: showing that text), in milliseconds since the navigation started; and, given a third
#: selector (ours: the sheet's totals), when an element of it first shows a number other than
#: 0 (``__totalMs``: the engine's first total).
FIRST_SCORE_SCRIPT = """
(() => {
  const [selector, text, total] = %s;
  const seen = () => {
    if (total && window.__totalMs === undefined && [...document.querySelectorAll(total)]
      .some((el) => /^[1-9][0-9]*$/.test(el.textContent.trim()))) {
      window.__totalMs = performance.now();
    }
    if (window.__firstScoreMs !== undefined) return;
    const found = [...document.querySelectorAll(selector)].some((el) => text === null
      || el.value === text || el.textContent.trim() === text);
    if (found) window.__firstScoreMs = performance.now();
  };
  new MutationObserver(seen).observe(document, { childList: true, subtree: true,
    attributes: true, characterData: true });
  document.addEventListener("input", seen, true);
})();
"""
#: Our two-player score pad from the start screen: start (the default two players, score pad),
#: tap player 1's Chance, take the first number it offers.
OUR_STEPS: list[Any] = ["#start:not([disabled])",
                        "td[data-player='0'][data-box='chance'] button.open",
                        "#picker-options button[data-strike='0']"]
OUR_SCORE = "td[data-player='0'][data-box='chance'] button.filled"
#: The sheet's totals (the engine's: they say "kommt gleich" until it runs).
OUR_TOTAL = "tr.sum.total strong[data-total]"


class SlowGroup:
    """A cgroup that holds every process started in it to ``share`` of one core (v2
    ``cpu.max`` or v1 ``cpu.cfs_quota_us``; needs root), and a wrapper that starts Chromium in
    it; None from :meth:`make` where neither can be made here (and why)."""

    def __init__(self, folder: Path, procs: Path, wrapper: Path) -> None:
        self.folder, self.procs, self.wrapper = folder, procs, wrapper

    @classmethod
    def make(cls, chromium: str, share: float, tmp: Path) -> tuple[SlowGroup | None, str]:
        period = 100_000
        quota = int(period * share)
        name = f"kniffel-bench-{os.getpid()}"
        v2 = Path("/sys/fs/cgroup/cgroup.controllers")
        try:
            if v2.is_file() and "cpu" in v2.read_text():
                folder = Path("/sys/fs/cgroup") / name
                folder.mkdir()
                (folder / "cpu.max").write_text(f"{quota} {period}")
                how = f"cgroup v2 cpu.max {quota} {period}"
            else:
                folder = Path("/sys/fs/cgroup/cpu") / name
                folder.mkdir()
                (folder / "cpu.cfs_period_us").write_text(str(period))
                (folder / "cpu.cfs_quota_us").write_text(str(quota))
                how = f"cgroup v1 cpu.cfs_quota_us {quota} / cpu.cfs_period_us {period}"
        except OSError as e:
            return None, f"no cgroup could be made ({e}): run as root on a machine with cgroups"
        wrapper = tmp / "chromium-slow.sh"
        wrapper.write_text(f"#!/bin/sh\necho $$ > {folder / 'cgroup.procs'}\n"
                           f"exec {chromium} \"$@\"\n")
        wrapper.chmod(0o755)
        return cls(folder, folder / "cgroup.procs", wrapper), how

    def remove(self) -> None:
        """Remove the cgroup once the browser's last processes have left it (slowly: they run
        at a quarter of a core), or say where it is left."""
        for _ in range(600):
            try:
                self.folder.rmdir()
                return
            except OSError:
                time.sleep(0.1)  # the browser's last processes are still leaving
        print(f"-- the cgroup {self.folder} is still in use: remove it with rmdir")


def first_score_run(p: Any, executable: str, url: str, steps: list[Any], score: Any,
                    link: dict[str, Any] | None, engine: bool) -> dict[str, Any]:
    """One cold first visit in a new browser: milliseconds from navigation to the first score
    shown (``score`` appearing after clicking ``steps`` in turn, each as soon as it is there),
    the bytes as sent of the requests finished by then (and those still under way), and, with
    ``engine``, until the page says its engine runs (ours: ``data-ready``) and until the sheet's
    total first shows the entry (``total_ms``; the peer's total shows it at once)."""
    browser = p.chromium.launch(executable_path=executable, args=ARGS)
    try:
        ctx = browser.new_context(service_workers="allow", **PHONE)
        ctx.add_init_script(FIRST_SCORE_SCRIPT % json.dumps(
            [*(score if isinstance(score, list) else [score, None]),
             OUR_TOTAL if engine else None]))
        page = ctx.new_page()
        finished: list[tuple[float, Request]] = []
        started: list[tuple[float, Request]] = []
        ctx.on("request", lambda r: started.append((time.perf_counter(), r)))
        ctx.on("requestfinished", lambda r: finished.append((time.perf_counter(), r)))
        if link is not None:
            cdp = ctx.new_cdp_session(page)
            cdp.send("Network.enable")
            cdp.send("Network.emulateNetworkConditions", link)
        page.goto(url, wait_until="commit", timeout=300_000)
        for step in steps:
            if isinstance(step, list):
                page.fill(step[0], step[1], timeout=300_000)
            else:
                page.click(step, timeout=300_000)
        while page.evaluate("window.__firstScoreMs === undefined"):
            page.wait_for_timeout(20)  # (the page's policy forbids wait_for_function)
        at_score = time.perf_counter()
        ms = float(page.evaluate("window.__firstScoreMs"))
        ready_ms = total_ms = None
        if engine:
            page.wait_for_selector(READY, state="attached", timeout=600_000)
            ready_ms = float(page.evaluate("window.kniffelTiming.interactiveMs"))
            while page.evaluate("window.__totalMs === undefined"):
                page.wait_for_timeout(20)
            total_ms = float(page.evaluate("window.__totalMs"))
        at_end = time.perf_counter()
        done = {id(r) for _, r in finished}
        before = [r for t, r in finished if t <= at_score]
        flying = [r for t, r in started if t <= at_score and (
            id(r) not in done or any(t2 > at_score for t2, r2 in finished if r2 is r))]
        # (not the service worker's: it stores the whole site once the engine runs)
        until_ready = [r for t, r in finished if t <= at_end and r.service_worker is None]

        def size(r: Request) -> int:
            return int(r.sizes()["responseBodySize"])

        out = {"ms": ms, "ready_ms": ready_ms, "total_ms": total_ms if engine else ms,
               "bytes": sum(size(r) for r in before), "requests": len(before),
               "flying": sorted({r.url.rsplit("/", 1)[-1].split("?")[0] for r in flying}),
               "bytes_ready": sum(size(r) for r in until_ready)}
        ctx.close()
        return out
    finally:
        browser.close()


def first_score(p: Any, chromium: str, url: str, conditions: list[str], runs: int,
                peer: tuple[str, list[Any]] | None) -> None:
    """Print the first score's time and bytes of ``runs`` cold visits per condition, ours
    alternating with the peer's (``peer``: its address and steps) when given."""
    with tempfile.TemporaryDirectory(prefix="kniffel-bench-") as tmp:
        for condition in conditions:
            executable, link, group = chromium, None, None
            if condition == "4g":
                link = LINK_4G
            elif condition == "slow":
                group, how = SlowGroup.make(chromium, SLOW_SHARE, Path(tmp))
                print(f"-- slow: {how}")
                if group is None:
                    continue
                executable = str(group.wrapper)
            ours: list[dict[str, Any]] = []
            theirs: list[dict[str, Any]] = []
            try:
                for _ in range(runs):
                    ours.append(first_score_run(p, executable, url, OUR_STEPS, OUR_SCORE, link,
                                                engine=True))
                    if peer is not None:
                        theirs.append(first_score_run(p, executable, peer[0], peer[1][:-1],
                                                      peer[1][-1], link, engine=False))
            finally:
                if group is not None:
                    group.remove()
            for name, got in (("ours", ours), ("peer", theirs)):
                if not got:
                    continue
                ms = sorted(r["ms"] for r in got)
                line = (f"{condition:>4} {name}: first score {ms[0] / 1e3:.2f}–"
                        f"{ms[-1] / 1e3:.2f} s (median {statistics.median(ms) / 1e3:.2f}, "
                        f"n={len(ms)}); bytes by then "
                        f"{statistics.median(r['bytes'] for r in got) / 1e6:.2f} MB in "
                        f"{statistics.median(r['requests'] for r in got):.0f} requests")
                total = sorted(r["total_ms"] for r in got)
                line += (f"; total shows it {total[0] / 1e3:.2f}–{total[-1] / 1e3:.2f} s (median "
                         f"{statistics.median(total) / 1e3:.2f})")
                if name == "ours":
                    ready = sorted(r["ready_ms"] for r in got)
                    flying = sorted({f for r in got for f in r["flying"]})
                    line += (f", still coming: {', '.join(flying) or 'nothing'}; engine runs "
                             f"{ready[0] / 1e3:.2f}–{ready[-1] / 1e3:.2f} s (median "
                             f"{statistics.median(ready) / 1e3:.2f}), "
                             f"{statistics.median(r['bytes_ready'] for r in got) / 1e6:.2f} MB "
                             "by then")
                print(line, flush=True)


def serve_folder(folder: Path) -> tuple[Any, str]:
    """A loopback server of the static folder ``folder`` (a peer's build), gzip where the
    browser accepts it (as ``vite preview`` serves it), in a background thread: the server
    and its address."""
    import gzip as gz
    import http.server
    import threading

    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *a: Any, **k: Any) -> None:
            super().__init__(*a, directory=str(folder), **k)

        def send_head(self) -> Any:
            path = Path(self.translate_path(self.path))
            if path.is_dir():
                path = path / "index.html"
            if not path.is_file():
                path = folder / "index.html"  # a single-page app
            if "gzip" not in (self.headers.get("Accept-Encoding") or ""):
                return super().send_head()
            body = gz.compress(path.read_bytes(), 6)
            self.send_response(200)
            self.send_header("Content-Type", self.guess_type(str(path)))
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            return io.BytesIO(body)

        def log_message(self, *a: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def with_model(site: Path, model: Path) -> None:
    """Put the Kniffel Extreme model file ``model`` into the served site's kniffel.zip, packed
    as the package's own is there (an entry added later is the one unpacked), and mark the
    expert ready in its meta.json: for measuring the Extreme hint with another model. The site
    is rebuilt for every run."""
    name, packed = packed_copy("extreme", model.read_bytes(), where=str(model))
    zipped = site / "kniffel.zip"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "Duplicate name": the later one wins
        with zipfile.ZipFile(zipped, "a", zipfile.ZIP_DEFLATED) as zf:
            zf.writestr(f"kniffel/engine/data/{name}", packed)
    meta = json.loads((site / "meta.json").read_text(encoding="utf-8"))
    for key in ("extreme", "extreme/free"):
        meta["expert"][key] = {"ready": True, "code": None, "note": None}
    (site / "meta.json").write_text(json.dumps(meta), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="cold starts (fresh profiles)")
    parser.add_argument("--reloads", type=int, default=5, help="warm reloads per cold start")
    parser.add_argument("--turns", type=int, default=10, help="turns timed per cold start")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--hint-rules", default="kniffel,yahtzee,extreme",
                        help="rule sets whose hint latency is measured (comma-separated)")
    parser.add_argument("--hint-turns", type=int, default=4, help="turns with hints per set")
    parser.add_argument("--only", choices=("all", "start", "hints", "transfer", "first-score"),
                        default="all",
                        help="start: cold start, warm reload and actions (service worker on) "
                             "only; hints: measure the hint latency only; transfer: the first "
                             "visit's bytes only; first-score: the first score of a cold visit "
                             "only")
    parser.add_argument("--conditions", default="full,4g,slow",
                        help="first-score: full, 4g, slow (comma-separated)")
    parser.add_argument("--first-runs", type=int, default=5, help="first-score: runs each")
    parser.add_argument("--peer", type=Path, default=None,
                        help="first-score: a built peer score pad's folder, alternated with ours")
    parser.add_argument("--peer-steps", default=None,
                        help="first-score: the peer's selectors to click as a JSON list, the "
                             "last one the score shown")
    parser.add_argument("--modules", dest="bundle", action="store_false",
                        help="serve the page's ES modules as they are (as the tests do) instead "
                             "of the production page's bundle (esbuild, from npm)")
    parser.add_argument("--model", type=Path, default=None,
                        help="a Kniffel Extreme model file to serve in place of the package's "
                             "(made by scripts/fit_expert_model.py; for timing only)")
    args = parser.parse_args()
    started = time.perf_counter()
    # (a tree before the bundle knows no bundle argument: --modules measures it)
    built = running_server(bundle=True) if args.bundle else running_server()
    with built as (url, site), sync_playwright() as p:
        if args.model is not None:
            with_model(site, args.model)
            print(f"Kniffel Extreme with the model file {args.model} (not the package's)")
        if args.only == "first-score":
            peer = None
            server = None
            if args.peer is not None:
                if not args.peer_steps:
                    parser.error("--peer needs --peer-steps")
                server, peer_url = serve_folder(args.peer)
                peer = (peer_url, list(json.loads(args.peer_steps)))
            try:
                first_score(p, args.chromium, url, args.conditions.split(","),
                            args.first_runs, peer)
            finally:
                if server is not None:
                    server.shutdown()
            print(f"({time.perf_counter() - started:.0f} s in all)")
            return
        browser = p.chromium.launch(executable_path=args.chromium, args=ARGS)
        print(f"{browser.version=}  site {url}")
        if args.only in ("all", "transfer"):
            with running_server(compress=False) as (plain_url, plain_site):
                if args.model is not None:
                    with_model(plain_site, args.model)
                transfer(browser, url, plain_url)
        if args.only in ("all", "start"):
            for sw in (True, False) if args.only == "all" else (True,):
                run(browser, url, args.runs, args.reloads, args.turns, sw)
        if args.only in ("all", "hints"):
            for rules in filter(None, args.hint_rules.split(",")):
                hints(browser, url, rules, args.hint_turns, args.reloads)
        browser.close()
    print(f"({time.perf_counter() - started:.0f} s in all)")


if __name__ == "__main__":
    main()
