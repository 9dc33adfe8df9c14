"""``kniffel web --export DIR`` is the browser app as a static site: DIR, served by a plain static
file server (no kniffel, the way GitHub Pages or any web host serves it), is the whole app.

The export goes through the command line; the folder is served by Python's http.server in a
thread, under a path of its own as GitHub Pages serves a project (``/kniffel/``); Chromium opens
it cold (no engine snapshot: a family's first visit) and plays a game with virtual dice to its
first score, and no request leaves the site's origin.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from click.testing import CliRunner
from playwright.sync_api import Browser, Request

from conftest import READY, wait_actions
from kniffel.cli import main

pytestmark = pytest.mark.browser

BOOT_TIMEOUT_MS = 180_000


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def static_server(folder: Path) -> Iterator[str]:
    """``folder`` served by a plain static file server (http.server: files as they are, no
    compressed copies chosen, no headers of kniffel's) on a free port: its address."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def play_to_first_score(browser: Browser, url: str) -> list[str]:
    """Open the site at ``url`` in a new, empty browser context (Pyodide starts cold), start a
    one-player game with virtual dice, roll once and score the roll in Chance; checks that the
    sheet shows the points and the page raised no error. Returns every request that left the
    site's origin (none expected)."""
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(url))
    foreign: list[str] = []
    same: list[str] = []

    def seen(request: Request) -> None:
        parts = urlsplit(request.url)
        if parts.scheme in ("data", "blob"):
            return
        (same if f"{parts.scheme}://{parts.netloc}" == origin else foreign).append(request.url)

    ctx = browser.new_context(viewport={"width": 412, "height": 915}, locale="de-DE")
    ctx.on("request", seen)
    ctx.set_default_timeout(60_000)
    errors: list[str] = []
    try:
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(url)
        page.wait_for_selector(READY, state="attached", timeout=BOOT_TIMEOUT_MS)
        page.select_option("#rules", "kniffel")
        page.check("#mode-dice")
        page.fill("input[data-player='0']", "Oma")
        page.click("#start")
        wait_actions(page, 0, timeout=BOOT_TIMEOUT_MS)
        page.click("#roll")
        wait_actions(page, 2)
        rolled: list[int] = page.eval_on_selector_all(
            ".die .sr", "els => els.map(e => Number(e.textContent))")
        page.click("td[data-box='chance'] button[data-strike='0']")
        wait_actions(page, 3)
        assert page.text_content("td[data-box='chance']") == str(sum(rolled))
        assert page.text_content("[data-total='Oma']") == str(sum(rolled))
    finally:
        ctx.close()
    assert errors == []
    assert any(u.endswith("/pyodide/pyodide.asm.wasm") for u in same)
    return foreign


def test_the_exported_folder_on_a_plain_static_server_plays_a_game_with_no_foreign_request(
    browser: Browser, tmp_path: Path, classic_tables_solved: Path,
) -> None:
    target = tmp_path / "pages" / "kniffel"  # https://USER.github.io/kniffel/
    done = CliRunner().invoke(main, ["web", "--export", str(target)])
    assert done.exit_code == 0, done.output
    assert (target / "index.html").is_file()
    assert (target / "pyodide" / "pyodide.asm.wasm").is_file()
    with static_server(tmp_path / "pages") as url:
        assert play_to_first_score(browser, url + "kniffel/") == []
