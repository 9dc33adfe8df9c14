"""The production page (issue 42): its modules bundled into one script by esbuild, the first
screen's data in index.html, and the engine's files asked for once each, side by side, right
after the first screen is drawn; the first score is taken before the engine runs and the sheet's
total follows once it does."""

from __future__ import annotations

import json
import zipfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Request

from kniffel.web.bytecode import find_node
from kniffel.web.server import STATIC_DIR, find_esbuild, running_server

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


@pytest.fixture(scope="module")
def bundled_site() -> Iterator[tuple[str, Path]]:
    """The production site (bundled), served for this module: its address and folder."""
    if find_esbuild() is None:
        pytest.skip("esbuild is missing: npm ci")
    with running_server(bundle=True) as served:
        yield served


def test_the_production_page_is_one_script_without_the_modules_it_bundles(
        bundled_site: tuple[str, Path]) -> None:
    """The bundle replaces the page's modules: app.js holds them (no import of a page module is
    left in it), they are no files of the site and not in the service worker's list, and
    index.html preloads none; the workers, jsQR and the first screen's data stay."""
    _, site = bundled_site
    modules = sorted(p.name for p in STATIC_DIR.glob("*.js"))
    assert sorted(p.name for p in site.glob("*.js")) == ["app.js", "sw.js", "worker.js"]
    bundle = (site / "app.js").read_text(encoding="utf-8")
    assert not [m for m in modules if f'from"./{m}' in bundle or f'from "./{m}' in bundle]
    assert 'import("./vendor/jsqr.js' in bundle
    sw = (site / "sw.js").read_text(encoding="utf-8")
    at = sw.index("const ASSETS = ") + len("const ASSETS = ")
    assets = json.loads(sw[at:sw.index(";\n", at)])
    assert {"app.js", "sw.js", "worker.js", "pyodide/python_stdlib.zip",
            "kniffel.zip"} <= set(assets)
    assert not [m for m in modules if m in assets and m not in ("app.js", "sw.js", "worker.js")]
    assert "pyodide/pyodide-lock.json" not in assets
    page = (site / "index.html").read_text(encoding="utf-8")
    assert "modulepreload" not in page
    start = page[page.index('id="page-start">') + 16:]
    start = json.loads(start[:start.index("</script>")])
    assert set(start) == {"meta", "starts"}
    assert "extreme" in start["starts"]


def test_a_first_visit_asks_for_each_file_once_and_takes_a_score_before_the_engine(
        bundled_site: tuple[str, Path], browser: Browser) -> None:
    """A phone's cold first visit: the page in three requests of its own (index.html, style.css,
    app.js) before the engine's; every file of the engine asked for once (Pyodide's own requests
    for the wasm and the standard library get the worker's), its lock file never; the first
    score goes in while the engine starts, and the sheet's total shows it once it runs."""
    url, _ = bundled_site
    ctx = browser.new_context(service_workers="block", **PHONE)  # type: ignore[arg-type]
    asked: list[str] = []

    def seen(request: Request) -> None:
        asked.append(request.url.removeprefix(url).split("?")[0])

    ctx.on("request", seen)
    errors: list[str] = []
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.click("#start:not([disabled])")
    page.click("td[data-player='0'][data-box='chance'] button.open")
    page.click("#picker-options button[data-strike='0']")
    page.wait_for_selector("td[data-player='0'][data-box='chance'] button.filled")
    page.wait_for_selector("html[data-ready='1']", state="attached", timeout=180_000)
    totals = page.locator("tr.sum.total strong[data-total]").all_inner_texts()
    points = page.locator("td[data-player='0'][data-box='chance'] button.filled").inner_text()
    assert sorted(totals) == sorted(["0", points.strip()])  # two players, one entry
    ctx.close()
    assert not errors
    counts = Counter(asked)
    for name in ("", "style.css", "app.js", "worker.js", "pyodide/pyodide.mjs",
                 "pyodide/pyodide.asm.mjs", "pyodide/pyodide.asm.wasm",
                 "pyodide/python_stdlib.zip", "kniffel.zip"):
        assert counts[name] == 1, (name, counts)
    assert "pyodide/pyodide-lock.json" not in counts
    assert "meta.json" not in counts
    assert "pad-start.json" not in counts
    modules = {p.name for p in STATIC_DIR.glob("*.js")} - {"app.js", "worker.js", "sw.js"}
    assert not modules & set(counts)
    page_first = asked.index("app.js")
    assert asked.index("worker.js") > page_first


def test_the_production_site_ships_its_python_as_bytecode(bundled_site: tuple[str, Path]) -> None:
    """Where node compiles it (kniffel.web.bytecode), the production site's kniffel.zip and
    Pyodide's trimmed standard library hold every module as ``.pyc`` and no ``.py``: a first
    visit's interpreter compiles nothing (the test above runs the engine from them)."""
    if find_node() is None:
        pytest.skip("node is missing: the site keeps its sources where no node compiles them")
    _, site = bundled_site
    for name in ("kniffel.zip", "pyodide/python_stdlib.zip"):
        with zipfile.ZipFile(site / name) as zf:
            members = zf.namelist()
        assert not [m for m in members if m.endswith(".py")], name
        assert [m for m in members if m.endswith(".pyc")], name
    with zipfile.ZipFile(site / "kniffel.zip") as zf:
        assert "kniffel/browser/bridge.pyc" in zf.namelist()
