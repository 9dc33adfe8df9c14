"""What every test shares: a hermetic environment, the slow tiers' markers, and the browser
tests' one built site and one Chromium.

- **Hermetic.** No test reads or writes the user's home, cache, data or settings: for the whole
  session ``HOME`` and the ``XDG_*`` folders point into pytest's temporary folder, and each test
  gets a home and data folder of its own. The solver's tables (``KNIFFEL_CACHE_DIR``) live in one
  temporary folder for the session: a table solved once is reused by the tests after it, and a
  test that needs a table solves it when it is missing, or asks for ``classic_tables_solved``
  (so it passes alone too).
- **Tiers.** ``browser`` (Playwright and Chromium), ``tmux`` (a real terminal: tmux or a pty)
  and ``solve`` (solves large tables or plays long runs: seconds each) are marks where the tests
  are: ``pytestmark = pytest.mark.browser`` in a browser module, ``@pytest.mark.tmux`` or
  ``@pytest.mark.solve`` on a test, ``pytest.param(..., marks=pytest.mark.solve)`` on a slow case.
  The fast tier is ``pytest -m "not browser and not tmux and not solve"`` (``./test.sh --fast``).
  Collection refuses a test that drives Chromium (its module imports Playwright, or it asks for
  the browser fixtures) without ``browser``, or a real terminal without ``tmux``.
- **Browsers.** One site is built and served for the session, one Chromium launched, and the
  engine started afresh once (``engine_snapshot``): the modules' contexts start from its memory
  snapshot, as a returning visitor's page does. Every browser context is opened through
  :class:`BrowserContexts` (the fixture ``browser_contexts``, or the class itself for another
  local server): a request to anything but the local server fails the test. Each module keeps
  its own contexts and pages; :func:`start_game` starts a game from the setup screen. Where
  Chromium or Playwright is missing the browser tests skip and say why, except in CI (``CI``
  set), where they fail.
- **Command line.** :func:`invoke` runs ``kniffel ARGS`` in click's test runner, in a wide
  terminal without colours or a locale (:data:`CLI_ENV`).
- **In parallel.** ``./test.sh`` runs pytest on both cores (``-n 2 --dist loadfile``: a module's
  tests in one worker, with its module-scoped contexts); each worker builds and serves its own
  site, launches its own Chromium and starts the engine once. The browser tests wait for
  conditions (a selector, ``data-actions``), never for a fixed time.
"""

from __future__ import annotations

import ast
import asyncio
import functools
import importlib.util
import inspect
import itertools
import os
import re
import textwrap
from collections.abc import Collection, Coroutine, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar
from urllib.parse import urlsplit

import pytest
from hypothesis import settings

if TYPE_CHECKING:
    from click.testing import Result
    from playwright.sync_api import Browser, BrowserContext, Page, Playwright, Request, Route

TESTS = Path(__file__).resolve().parent
CHROMIUM = Path("/usr/bin/chromium")
#: Chromium's flags for every browser test; WebRTC's local addresses unhidden (no mDNS names,
#: which the loopback cannot resolve), so that the table's phones (tests/test_web_table.py)
#: connect in one browser as phones on one network do.
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync",
                 "--disable-features=WebRtcHideLocalIpsWithMdns"]
READY = "html[data-ready='1']"

#: The fixtures that drive Chromium: a test that asks for one is marked ``browser``.
BROWSER_FIXTURES = frozenset({"chromium", "playwright", "browser", "engine_snapshot",
                              "browser_contexts", "phone_context", "phone_page"})
#: A module that imports Playwright (and cannot be imported without it): marked ``browser``.
IMPORTS_PLAYWRIGHT = re.compile(r"^[ \t]*(?:from|import)[ \t]+playwright\b", re.MULTILINE)
#: The functions that start the terminal game in a real terminal: a test that calls one is
#: marked ``tmux``.
TERMINAL_CALLS = frozenset({"_tmux", "_play_in_a_terminal", "PtySession"})
TERMINAL_FIXTURES = frozenset({"tmux"})

#: The environment variables that name the user's own folders, and where they point instead.
FOLDERS = {"HOME": "home", "XDG_CACHE_HOME": "cache", "XDG_DATA_HOME": "data",
           "XDG_CONFIG_HOME": "config", "XDG_STATE_HOME": "state"}

_TEST_NUMBERS = itertools.count()

PLAYWRIGHT = importlib.util.find_spec("playwright") is not None
NO_PLAYWRIGHT = "the browser tests need Playwright: scripts/setup.sh --dev"
NO_CHROMIUM = "the browser tests need /usr/bin/chromium (Debian's): scripts/setup.sh --dev"


# No time limit on a hypothesis example (its deadline of 200 ms): on a loaded machine, or with
# both cores running tests, an example took 680 ms and failed a test that holds. What a test
# pins is its assertions; a test that is about speed says so itself.
settings.register_profile("kniffel", deadline=None)
settings.load_profile("kniffel")


@functools.cache
def module_source(path: Path) -> str:
    """The text of the test module at ``path`` (read once)."""
    return path.read_text(encoding="utf-8")


# Without Playwright the modules that import it cannot even be imported: outside CI they are
# left out (the header says so), in CI they are collected and fail.
collect_ignore = ([] if PLAYWRIGHT or os.environ.get("CI")
                  else sorted(path.name for path in TESTS.glob("test_*.py")
                              if IMPORTS_PLAYWRIGHT.search(module_source(path))))


def pytest_report_header(config: pytest.Config) -> list[str]:
    """The browser tests' state, when they cannot run."""
    if collect_ignore:
        return [f"browser tests not collected: {NO_PLAYWRIGHT}"]
    if not CHROMIUM.exists():
        return [f"browser tests {'fail' if os.environ.get('CI') else 'skip'}: {NO_CHROMIUM}"]
    return []


def missing(reason: str) -> NoReturn:
    """Skip a test that needs what this machine lacks; in CI, fail it instead."""
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI is set: nothing may be skipped)", pytrace=False)
    pytest.skip(reason)


def missing_tiers(module: str, test: str, fixtures: Collection[str],
                  marks: Collection[str]) -> list[str]:
    """The slow tiers that a test belongs to but is not marked with, from its module's source,
    its own source and the fixtures it asks for: ``browser`` where its module imports
    Playwright or it asks for one of :data:`BROWSER_FIXTURES`, ``tmux`` where it calls one of
    :data:`TERMINAL_CALLS` or asks for one of :data:`TERMINAL_FIXTURES`."""
    tiers: list[str] = []
    if "browser" not in marks and (IMPORTS_PLAYWRIGHT.search(module)
                                   or not BROWSER_FIXTURES.isdisjoint(fixtures)):
        tiers.append("browser")
    if "tmux" not in marks and (_calls(test) & TERMINAL_CALLS
                                or not TERMINAL_FIXTURES.isdisjoint(fixtures)):
        tiers.append("tmux")
    return tiers


def _calls(source: str) -> set[str]:
    """The names of the functions that ``source`` (a function's, indented or not) calls."""
    if not source:
        return set()
    tree = ast.parse(textwrap.dedent(source))
    return {node.func.id if isinstance(node.func, ast.Name) else node.func.attr
            for node in ast.walk(tree) if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name | ast.Attribute)}


def _test_source(item: pytest.Item, module: str) -> str:
    """The source of the test function behind ``item``, where its module makes a terminal call
    at all (otherwise, and where it cannot be read, empty)."""
    function = getattr(item, "function", None)
    if function is None or not any(f"{call}(" in module for call in TERMINAL_CALLS):
        return ""
    try:
        return inspect.getsource(function)
    except (OSError, TypeError):
        return ""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Refuse to run a test of ``tests/`` that belongs to a slow tier it is not marked with
    (:func:`missing_tiers`): the tiers are marked where the tests are, and a test missing its
    mark would run in the fast tier, or break collection where Playwright is missing."""
    problems: dict[str, None] = {}
    for item in items:
        if item.path.parent != TESTS:
            continue
        module = module_source(item.path)
        marks = {mark.name for mark in item.iter_markers()}
        fixtures: list[str] = getattr(item, "fixturenames", [])
        for tier in missing_tiers(module, _test_source(item, module), fixtures, marks):
            if tier == "browser":
                problems[f"{item.path.name} drives Chromium (imports Playwright or asks for "
                         f"its fixtures) but is not marked browser: give the module "
                         f"'pytestmark = pytest.mark.browser'"] = None
            else:
                problems[f"{item.nodeid} drives a real terminal but is not marked tmux: "
                         f"decorate it with '@pytest.mark.tmux'"] = None
    if problems:
        raise pytest.UsageError("tests outside their tier:\n" + "\n".join(problems))


# --- a hermetic environment --------------------------------------------------------------------


@pytest.fixture(scope="session", autouse=True)
def hermetic_session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The session's own home, XDG folders and solver cache (for session-wide fixtures too, such
    as the built site): yields the folder that holds them."""
    root = tmp_path_factory.mktemp("session-env")
    with pytest.MonkeyPatch.context() as mp:
        for var, name in FOLDERS.items():
            mp.setenv(var, str(root / name))
        (root / "home").mkdir()
        mp.setenv("KNIFFEL_CACHE_DIR", str(root / "solver-tables"))
        yield root


@pytest.fixture(autouse=True)
def hermetic_test(hermetic_session: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test's own home and XDG folders (the session's solver cache stays): what one test
    stores there, such as a history database, no other test sees. Returns the home."""
    root = hermetic_session / "tests" / str(next(_TEST_NUMBERS))
    for var, name in FOLDERS.items():
        monkeypatch.setenv(var, str(root / name))
    (root / "home").mkdir(parents=True)
    return root / "home"


@pytest.fixture(scope="session")
def classic_tables_solved(hermetic_session: Path) -> Path:
    """The session's solver cache with the exact table of every classic rule set the browser
    offers (each preset and its free-strike variant, no d10: a second or two each), for tests
    that ask for a table without building one; returns the cache folder."""
    from kniffel.browser.advice_view import browser_rule_sets
    from kniffel.solver.solve import solve
    from kniffel.solver.table import cache_dir

    for rules in browser_rule_sets():
        if not rules.d10:
            solve(rules)
    return cache_dir()


# --- the browser tests' site and browser -------------------------------------------------------


@pytest.fixture(scope="session")
def chromium() -> Path:
    """Debian's Chromium, or the test skips (in CI: fails) saying that it is missing."""
    if not PLAYWRIGHT:
        missing(NO_PLAYWRIGHT)
    if not CHROMIUM.exists():
        missing(NO_CHROMIUM)
    return CHROMIUM


@pytest.fixture(scope="session")
def served_site(hermetic_session: Path) -> Iterator[tuple[str, Path]]:
    """This checkout's site, built once and served for the whole session: its address and
    folder."""
    from kniffel.web.server import running_server

    with running_server() as (url, folder):
        yield url, folder


@pytest.fixture(scope="session")
def site(served_site: tuple[str, Path]) -> str:
    """The address of the session's site."""
    return served_site[0]


@pytest.fixture(scope="session")
def playwright(chromium: Path) -> Iterator[Playwright]:
    """Playwright's driver for the session (its sync API allows one at a time)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright: Playwright, chromium: Path) -> Iterator[Browser]:
    """One headless Chromium for the session; each module opens its own contexts in it."""
    b = playwright.chromium.launch(executable_path=str(chromium), args=CHROMIUM_ARGS)
    yield b
    b.close()


# The engine's memory snapshot, as worker.js keeps it (the cache "kniffel-snapshot"), read out of
# the browser by posting it to an address the test intercepts.
TAKE_SNAPSHOT = """async (target) => {
  const cache = await caches.open("kniffel-snapshot");
  for (let i = 0; i < 1200; i++) {
    const [key] = await cache.keys();
    if (key) {
      const body = await (await cache.match(key)).arrayBuffer();
      await fetch(target, { method: "POST", body });
      return key.url;
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error("the engine stored no memory snapshot within two minutes");
}"""
PUT_SNAPSHOT = """([key, source]) => fetch(source)
  .then((r) => caches.open("kniffel-snapshot").then((cache) => cache.put(key, r)))"""
#: Where the session's site serves the snapshot from (beside the site's files, no file of it).
SNAPSHOT_FILE = "test-engine-snapshot.bin"


class EngineSnapshot:
    """The engine's memory snapshot from the session's one fresh Pyodide start: :meth:`seed`
    stores it in a new browser context, whose pages then start the engine from it, as a
    returning visitor's page does (worker.js), instead of starting Pyodide afresh."""

    def __init__(self, site: str, key: str) -> None:
        self.site = site
        self.key = key  # the snapshot's address in the cache: one build's

    def seed(self, context: BrowserContext) -> None:
        """Store the snapshot in ``context`` (before anything else is loaded there: the page
        the snapshot is stored from is closed again and no listener sees it). It is fetched
        from the session's server: handed over by Playwright it would take longer than a fresh
        start."""
        page = context.new_page()
        try:
            page.goto(self.site + "icon.svg")  # the site's origin, without starting the app
            page.evaluate(PUT_SNAPSHOT, [self.key, self.site + SNAPSHOT_FILE])
        finally:
            page.close()


def local_origin(url: str) -> str:
    """The origin (``scheme://host:port``) of ``url``."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


class BrowserContexts:
    """The one way a browser test opens a browser context: in the session's Chromium, a German
    browser (``locale="de-DE"``: a page without a stored language speaks the browser's) with
    service workers blocked and the page's Content-Security-Policy bypassed (so that Playwright
    may evaluate) unless told otherwise, a default timeout of 30 s, its engine started from the
    session's snapshot where ``engine`` is given (:class:`EngineSnapshot`), and **every request
    watched**: a request to anything but the local server (``site``'s origin; ``data:`` and
    ``blob:`` addresses stay in the page) is recorded, and closing the context fails where one
    was made. The app makes no request to another origin: no CDN, no font, no tracker."""

    def __init__(self, browser: Browser, site: str, engine: EngineSnapshot | None) -> None:
        self.browser = browser
        self.site = site
        self.engine = engine
        #: Every request to another origin made in any of its contexts, in order.
        self.foreign: list[str] = []
        self._foreign: dict[int, list[str]] = {}  # by context (its id): the requests of each

    def new(self, *, engine: bool = True, site: str | None = None,
            **options: Any) -> BrowserContext:
        """A new context (``options``: Playwright's ``Browser.new_context``); ``engine=False``
        starts Pyodide afresh there (for the tests of the start itself), ``site``: the local
        server where it is not the session's. Close it with :meth:`close`."""
        ctx = self.browser.new_context(**{"service_workers": "block", "bypass_csp": True,
                                          "locale": "de-DE", **options})
        origin = local_origin(site or self.site)
        foreign = self._foreign.setdefault(id(ctx), [])

        def watch(request: Request) -> None:
            url = request.url
            if url.startswith(("data:", "blob:")) or local_origin(url) == origin:
                return
            foreign.append(url)
            self.foreign.append(url)

        ctx.on("request", watch)
        ctx.set_default_timeout(30_000)
        if engine:
            if self.engine is None:
                raise ValueError("these contexts have no engine snapshot: pass engine=False")
            self.engine.seed(ctx)
        return ctx

    def close(self, ctx: BrowserContext) -> None:
        """Close ``ctx``; fails where a page of it made a request to another origin."""
        ctx.close()
        foreign = self._foreign.pop(id(ctx), [])
        assert foreign == [], f"requests to another origin than the local server: {foreign}"

    @contextmanager
    def open(self, *, engine: bool = True, site: str | None = None,
             **options: Any) -> Iterator[BrowserContext]:
        """:meth:`new` for a ``with`` block, which closes it (:meth:`close`) at its end."""
        ctx = self.new(engine=engine, site=site, **options)
        try:
            yield ctx
        except BaseException:
            ctx.close()  # the block's error is the one to tell
            self._foreign.pop(id(ctx), None)
            raise
        self.close(ctx)


@pytest.fixture(scope="session")
def engine_snapshot(browser: Browser, served_site: tuple[str, Path]) -> EngineSnapshot:
    """The session's one fresh start of the engine (Pyodide and the kniffel package), kept as
    its memory snapshot for every browser context that :meth:`EngineSnapshot.seed` seeds (the
    site's server serves it as :data:`SNAPSHOT_FILE`)."""
    site, folder = served_site
    taken: list[bytes] = []
    target = site + "__test-engine-snapshot"

    def take(route: Route) -> None:
        taken.append(route.request.post_data_buffer or b"")
        route.fulfill(status=204)

    with BrowserContexts(browser, site, None).open(engine=False) as context:
        page = context.new_page()
        page.goto(site)
        page.wait_for_selector(READY, state="attached", timeout=120_000)
        assert page.evaluate("window.kniffelTiming.bootPath") == "fresh"
        page.route(target, take)
        key: str = page.evaluate(TAKE_SNAPSHOT, target)
    assert taken != [], "the engine's snapshot did not come back from the browser"
    assert len(taken[0]) > 1_000_000, "the engine's snapshot came back empty"
    (folder / SNAPSHOT_FILE).write_bytes(taken[0])
    return EngineSnapshot(site, key)


@pytest.fixture(scope="session")
def browser_contexts(browser: Browser, site: str,
                     engine_snapshot: EngineSnapshot) -> BrowserContexts:
    """The browser tests' context factory (:class:`BrowserContexts`) on the session's site and
    engine snapshot: ``with browser_contexts.open(viewport=...) as ctx:`` (in a fixture of any
    scope, or a test), or ``browser_contexts.new(...)`` and ``.close(ctx)``. A request to
    another origin fails the test that made it (:func:`no_foreign_request`) and the context's
    closing."""
    return BrowserContexts(browser, site, engine_snapshot)


@pytest.fixture(autouse=True)
def no_foreign_request(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test with browser contexts (:func:`browser_contexts`) fails where any of them made a
    request to another origin than the local server while it ran (its own contexts and pages
    are closed by then)."""
    if "browser_contexts" not in request.fixturenames:
        yield
        return
    contexts: BrowserContexts = request.getfixturevalue("browser_contexts")
    before = len(contexts.foreign)
    yield
    assert contexts.foreign[before:] == [], "requests to another origin than the local server"


@pytest.fixture(scope="module")
def phone_context(browser_contexts: BrowserContexts) -> Iterator[BrowserContext]:
    """A phone's screen (360×740, touch) for a module's pages, its engine from the session's
    snapshot; the page's policy bypassed so that Playwright may evaluate."""
    with browser_contexts.open(is_mobile=True, has_touch=True,
                               viewport={"width": 360, "height": 740}) as ctx:
        yield ctx


#: The history's IndexedDB (static/historydb.js) and the key of the history in localStorage,
#: where a page without IndexedDB keeps it and where older pages kept it.
HISTORY_DB, HISTORY_KEY = "kniffel", "kniffel.v1.history"

#: A page's stored history as the page keeps it, once its saves are done: the records of its
#: IndexedDB oldest first (by the date the page sorts by), as {version, entries}, or the
#: localStorage history where the database holds none; null when neither holds one.
STORED_HISTORY_JS = """async () => {
  if (window.kniffelHistory) await window.kniffelHistory.saved();
  const local = localStorage.getItem("kniffel.v1.history");
  const db = await new Promise((done) => {
    const req = indexedDB.open("kniffel");
    req.onupgradeneeded = () => req.transaction.abort(); // (none there: none is made)
    req.onsuccess = () => done(req.result);
    req.onerror = () => done(null);
  });
  if (!db) return local;
  const has = db.objectStoreNames.contains("history");
  const records = !has ? [] : await new Promise((done, fail) => {
    const req = db.transaction("history").objectStore("history").getAll();
    req.onsuccess = () => done(req.result);
    req.onerror = () => fail(req.error);
  });
  db.close();
  if (!records.length) return local;
  const date = (e) => e.finished_at ?? e.started ?? "";
  records.sort((a, b) => date(a).localeCompare(date(b)));
  return JSON.stringify({ version: 1, entries: records });
}"""

#: Forget everything the page stored: localStorage and the history's IndexedDB (the page's
#: connection closes when asked: storage.js).
CLEAR_STORAGE_JS = """async () => {
  localStorage.clear();
  if (!window.indexedDB) return;
  await new Promise((done) => {
    const req = indexedDB.deleteDatabase("kniffel");
    req.onsuccess = req.onerror = req.onblocked = () => done();
  });
}"""


def stored_history(page: Page) -> str | None:
    """The page's stored history as text, as :data:`STORED_HISTORY_JS` reads it."""
    text: str | None = page.evaluate(STORED_HISTORY_JS)
    return text


def clear_storage(page: Page) -> None:
    """Forget everything ``page``'s site stored (:data:`CLEAR_STORAGE_JS`)."""
    page.evaluate(CLEAR_STORAGE_JS)


def fresh_page(ctx: BrowserContext, site: str) -> tuple[Page, list[str]]:
    """A page of the app in ``ctx`` with nothing stored, ready to use, and the list the errors it
    raises go to (a test finds it empty)."""
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(site)
    clear_storage(page)
    page.reload()
    page.wait_for_selector(READY, state="attached", timeout=120_000)
    return page, errors


@pytest.fixture
def phone_page(phone_context: BrowserContext, site: str) -> Iterator[Page]:
    """A page of the app on :func:`phone_context` with nothing stored, ready to use; the test
    fails where the page raised an error."""
    p, errors = fresh_page(phone_context, site)
    yield p
    p.close()
    assert errors == []


def wait_actions(page: Page, n: int, *, timeout: float | None = None) -> None:
    """Wait until the page's sheet shows its game after ``n`` actions, its controls live."""
    page.wait_for_selector(f"section.game[data-actions='{n}'][data-live='1']", state="attached",
                           timeout=timeout)


def next_frame(page: Page) -> None:
    """Wait until the page has drawn what it changed last (two animation frames: the one
    that lays it out and the one that paints it)."""
    page.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


def dice_landed(page: Page) -> None:
    """Wait until no die is still rolling (its face's animation has run out)."""
    page.wait_for_function("[...document.querySelectorAll('.die .face')]"
                           ".every((face) => face.getAnimations().length === 0)")


def start_game(page: Page, names: Sequence[str], mode: str = "pad", *, rules: str | None = None,
               kinds: dict[int, str] | None = None, wait: bool = True) -> None:
    """Start a game of ``names`` from the setup screen (opened from the game's menu where a
    game is shown): ``mode`` "pad" or "dice", ``rules`` chosen where given (else as the screen
    has them), ``kinds`` makes players computers (``{1: "computer:greedy"}``). With ``wait``,
    returns once the game is shown: its sheet live at no action, or where a computer begins
    (its turn plays at once), the game's section there."""
    if not page.locator("#setup").count():
        page.click("#menu summary")
        page.click("#new-game")
    if rules is not None:
        page.select_option("#rules", rules)
    page.check(f"#mode-{mode}")
    while page.locator("#players .player-row").count() < len(names):
        page.click("#add-player")
    while page.locator("#players .player-row").count() > len(names):
        page.locator("#players .player-row button").last.click()
    for i, name in enumerate(names):
        page.fill(f"input[data-player='{i}']", name)
    for i, kind in (kinds or {}).items():
        page.select_option(f"select[data-kind='{i}']", kind)
    page.click("#start")
    if not wait:
        return
    if kinds and 0 in kinds:
        page.wait_for_selector("section.game", state="attached")
    else:
        wait_actions(page, 0)


# --- the command line ------------------------------------------------------------------------

#: The environment of :func:`invoke`: a wide terminal without colours, no language from the
#: locale (the catalog's default, German, unless ``--lang`` or the test's own variables say).
CLI_ENV: dict[str, str | None] = {"COLUMNS": "200", "NO_COLOR": "1", "FORCE_COLOR": None,
                                  "TTY_COMPATIBLE": None, "LC_ALL": None, "LC_MESSAGES": None,
                                  "LANG": None}


def invoke(args: Sequence[str], stdin: str | None = None, **env: str | None) -> Result:
    """Run ``kniffel ARGS`` in click's test runner with :data:`CLI_ENV` (``env`` adds to it or
    overrides it: a variable set to None is removed) and ``stdin`` as its input; returns
    click's result (exit code, output, exception)."""
    from click.testing import CliRunner

    from kniffel.cli import main

    return CliRunner().invoke(main, list(args), input=stdin, env={**CLI_ENV, **env})


_T = TypeVar("_T")


def run_async(coroutine: Coroutine[Any, Any, _T]) -> _T:
    """``asyncio.run(coroutine)`` where a browser module ran before in this worker: Playwright's
    sync API keeps its event loop marked running in this thread for the session's browser, and
    ``asyncio.run`` refuses to start a second one there. The mark is set aside for the run and put
    back after it (in this thread: the tests' SQLite connections stay usable)."""
    held = asyncio.events._get_running_loop()
    if held is None:
        return asyncio.run(coroutine)
    asyncio.events._set_running_loop(None)
    try:
        return asyncio.run(coroutine)
    finally:
        asyncio.set_event_loop(held)
        asyncio.events._set_running_loop(held)
