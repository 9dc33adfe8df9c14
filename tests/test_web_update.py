"""Updates never lose a game: the browser app of the previous release (built from a git worktree
of that commit) is played on one origin, then this checkout's build is served there instead and
a newer build after it. The game in progress and the history carry over; a new build announces
itself ("Neue Version – neu laden") instead of taking over the running page, and its button
reloads into it. In Debian's Chromium headless, with service workers on.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page
from playwright.sync_api import Error as PlaywrightError

from conftest import BrowserContexts, stored_history, wait_actions
from kniffel.web.server import _bind, build_site, find_pyodide
from test_web_awake import nearly_finished

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent
#: The last release before the update notice (issue 19): its service worker took over every page
#: at once and kept its files under "kniffel-site-<build>".
PREVIOUS_RELEASE = "a65b96dfde27c29db3755dcf62346f001830ce46"
BOOT_MS = 120_000


def git(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True)


def previous_site(target: Path, pyodide: Path) -> str:
    """Build the previous release's site into ``target`` with that commit's own code (a git
    worktree, removed again); its build id."""
    tree = target.parent / "previous-release"
    made = git("worktree", "add", "--detach", str(tree), PREVIOUS_RELEASE)
    assert made.returncode == 0, made.stderr
    try:
        code = ("import sys; from pathlib import Path; from kniffel.web.server import build_site; "
                "print(build_site(sys.argv[1], pyodide_dir=Path(sys.argv[2]))['build'])")
        done = subprocess.run([sys.executable, "-c", code, str(target), str(pyodide)],
                              capture_output=True, text=True, cwd=tree, check=False,
                              env={**os.environ, "PYTHONPATH": str(tree / "src")})
        assert done.returncode == 0, done.stderr
        return done.stdout.split()[-1]
    finally:
        git("worktree", "remove", "--force", str(tree))


def newer_site(site: Path, target: Path, build: str) -> str:
    """A copy of ``site`` as the next build would be: the same files under another build id
    (a changed file's compressed copies, ``X.br`` and ``X.gz``, go: the server then sends the
    file itself)."""
    newer = f"{int(build, 16) ^ 0xFFFF:016x}"
    shutil.copytree(site, target)
    for path in list(target.rglob("*")):
        if path.is_file() and path.suffix in (".html", ".js", ".css", ".webmanifest", ".json") \
                and "pyodide" not in path.relative_to(target).parts:
            path.write_text(path.read_text(encoding="utf-8").replace(build, newer),
                            encoding="utf-8")
            for suffix in (".br", ".gz"):
                path.with_name(path.name + suffix).unlink(missing_ok=True)
    return newer


@pytest.fixture(scope="module")
def sites(chromium: Path, classic_tables_solved: Path,
          tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, str]]:
    """The three builds, by name ("previous", "this", "newer"): their folder and build id. Built
    here, each in its own folder: no other test's site is reused (``chromium``: only where the
    browser is there; the previous release reads the classic tables from the session's solver
    cache, which its own code might not solve: tests/conftest.py)."""
    if git("cat-file", "-e", f"{PREVIOUS_RELEASE}^{{commit}}").returncode != 0:
        pytest.skip("the previous release's commit is not in this clone (a shallow checkout)")
    tmp = tmp_path_factory.mktemp("update")
    pyodide = find_pyodide()
    previous = previous_site(tmp / "previous", pyodide)
    this = build_site(tmp / "this", pyodide)["build"]
    builds = {"previous": previous, "this": this,
              "newer": newer_site(tmp / "this", tmp / "newer", this)}
    # Each build an hour after the one before, as releases are: the browser revalidates the
    # files it has with If-Modified-Since, and the server's answer goes by the files' times.
    now = time.time()
    for hours, name in enumerate(reversed(builds)):
        for path in (tmp / name).rglob("*"):
            os.utime(path, (now - 3600 * hours, now - 3600 * hours))
    return {name: (tmp / name, build) for name, build in builds.items()}


def free_port() -> int:
    """A port free now: every build is served on it in turn (one origin, one storage)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serving(folder: Path, port: int) -> Iterator[None]:
    """Serve ``folder`` on 127.0.0.1:``port`` until the block ends."""
    server = _bind("127.0.0.1", port, str(folder))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield
    finally:
        server.shutdown()
        server.server_close()


def running_build(page: Page) -> str | None:
    """The build of the page shown once it is ready, None while it is not (or navigating)."""
    try:
        build: str | None = page.evaluate(
            "document.documentElement.dataset.ready === '1' ? "
            "document.getElementById('app').dataset.build : null")
        return build
    except PlaywrightError:  # the page is navigating: its old document is gone
        return None


def wait_build(page: Page, build: str, seconds: float = 120) -> None:
    for _ in range(int(seconds * 10)):
        if running_build(page) == build:
            return
        page.wait_for_timeout(100)
    worker = page.evaluate("navigator.serviceWorker.getRegistration().then(r => r && "
                           "[r.installing, r.waiting, r.active].map(w => w && w.state))")
    raise AssertionError(f"build {build} not running after {seconds} s: {running_build(page)}, "
                         f"service workers (installing, waiting, active): {worker}")


def wait_until(page: Page, condition: str, seconds: float = 60) -> None:
    """Poll until the JavaScript ``condition`` holds (the page's CSP forbids
    wait_for_function)."""
    for _ in range(int(seconds * 10)):
        if page.evaluate(condition):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"still not true after {seconds} s: {condition}")


def pad_enter(page: Page, player: int, box: str, pts: int) -> None:
    n = int(page.get_attribute("section.game", "data-actions") or "-1")
    page.click(f"td[data-player='{player}'][data-box='{box}'] button.open")
    page.click(f"#picker-options button[data-strike='0'][data-points='{pts}']")
    wait_actions(page, n + 1, timeout=BOOT_MS)


def saved(page: Page) -> tuple[Any, list[Any]]:
    """The stored game in progress (its moves) and the stored history's games and totals."""
    current = json.loads(page.evaluate("localStorage.getItem('kniffel.v1.current')"))
    history = json.loads(stored_history(page) or "null")
    return current["game"], [(e["game"], e["summary"]["totals"]) for e in history["entries"]]


def site_caches(page: Page) -> list[str]:
    """The names of the caches that hold a build's files."""
    names: list[str] = page.evaluate(
        "caches.keys().then(k => k.filter(n => n.startsWith('kniffel-site-')))")
    return names


def test_an_update_keeps_the_game_and_the_history_and_waits_for_the_players_reload(
    sites: dict[str, tuple[Path, str]], browser: Browser,
) -> None:
    port = free_port()
    (previous, old_build), (this, build), (newer, new_build) = (
        sites["previous"], sites["this"], sites["newer"])
    url = f"http://127.0.0.1:{port}/"
    # a visitor of the site as it is: its service worker and policy, Pyodide started afresh;
    # a request to anything but the local server fails the test (conftest.py)
    contexts = BrowserContexts(browser, url, None)
    ctx = contexts.new(engine=False, service_workers="allow", bypass_csp=False,
                       viewport={"width": 390, "height": 844})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # 1. The previous release: one game finished, another one begun.
    with serving(previous, port):
        page.goto(url)
        page.evaluate("raw => localStorage.setItem('kniffel.v1.current', raw)",
                      json.dumps(nearly_finished()))
        page.reload()
        wait_actions(page, 21, timeout=BOOT_MS)
        assert running_build(page) == old_build
        pad_enter(page, 0, "chance", 20)
        page.click("#rematch")  # the same player again, on the pad
        wait_actions(page, 0, timeout=BOOT_MS)
        pad_enter(page, 0, "sixes", 24)
        pad_enter(page, 0, "ones", 3)
        wait_until(page, "navigator.serviceWorker.controller !== null")
        before = saved(page)
    assert [totals for _, totals in before[1]] == [[817]]  # the chance 20 of 39
    # 2. This build on the same origin: the old page reloads once into it, by itself (the
    # old page knows no update notice); the game and the history are there.
    with serving(this, port):
        page.reload()
        wait_build(page, build)
        wait_actions(page, 2, timeout=BOOT_MS)
        assert saved(page) == before
        assert page.text_content("td[data-player='0'][data-box='sixes']") == "24"
        assert site_caches(page) == [f"kniffel-site-2-{build}"]  # the old one is gone
        wait_until(page, "navigator.serviceWorker.controller !== null")
        pad_enter(page, 0, "twos", 8)  # and it plays on
        before = saved(page)
        assert page.locator("#update").count() == 0
    # 3. A newer build while the page is open: it waits and is announced.
    with serving(newer, port):
        page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")  # shown again
        page.wait_for_selector("#update-reload", timeout=30_000)
        assert page.text_content("#update-reload") == "Neue Version – neu laden"
        shots = Path("/tmp/shots")
        shots.mkdir(exist_ok=True)
        page.screenshot(path=str(shots / "update-notice.png"))
        assert running_build(page) == build  # not taken over under the running page
        assert page.evaluate("navigator.serviceWorker.getRegistration()"
                             ".then(r => Boolean(r.waiting))")
        page.click("#lang")
        assert page.text_content("#update-reload") == "New version – reload"
        page.click("#update-reload")
        wait_build(page, new_build)
        wait_actions(page, 3, timeout=BOOT_MS)
        assert saved(page) == before
        assert page.locator("#update").count() == 0
        assert site_caches(page) == [f"kniffel-site-2-{new_build}"]
    contexts.close(ctx)
    assert errors == []
