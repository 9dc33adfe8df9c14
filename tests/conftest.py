"""What every test shares: a hermetic environment, the slow tiers' markers, and the browser
tests' one built site and one Chromium.

- **Hermetic.** No test reads or writes the user's home, cache, data or settings: for the whole
  session ``HOME`` and the ``XDG_*`` folders point into pytest's temporary folder, and each test
  gets a home and data folder of its own. The solver's tables (``KNIFFEL_CACHE_DIR``) live in one
  temporary folder for the session: a table solved once is reused by the tests after it, and a
  test that needs a table solves it when it is missing, or asks for ``classic_tables_solved``
  (so it passes alone too).
- **Tiers.** ``browser`` (Playwright and Chromium), ``tmux`` (a real terminal: tmux or a pty)
  and ``solve`` (solves large tables or plays long runs) are set here by module or by test; the
  fast tier is ``pytest -m "not browser and not tmux and not solve"`` (``./test.sh --fast``).
- **Browsers.** One site is built and served for the session, one Chromium launched, and the
  engine started afresh once (``engine_snapshot``): the modules' contexts start from its memory
  snapshot, as a returning visitor's page does. Each module keeps its own contexts and pages.
  Where Chromium or Playwright is missing the browser tests skip and say why, except in CI
  (``CI`` set), where they fail.
"""

from __future__ import annotations

import importlib.util
import inspect
import itertools
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page, Playwright, Route

TESTS = Path(__file__).resolve().parent
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
READY = "html[data-ready='1']"

#: The modules that drive Chromium through Playwright: marked ``browser`` as a whole.
BROWSER_MODULES = frozenset({
    "test_web_audit", "test_web_awake", "test_web_browser", "test_web_chances", "test_web_coach",
    "test_web_early", "test_web_phone", "test_web_review_chances", "test_web_storage_browser",
    "test_web_update"})

#: Tests that take seconds each (a large solve or model fit, a long simulation, a whole game of
#: computer players, a site built or a server waited on; each well over a second on an idle
#: two-core machine), by module: marked ``solve``. ``"name"`` marks every case of a test,
#: ``"name[words"`` the cases whose id holds the words.
SOLVE_TESTS: dict[str, tuple[str, ...]] = {
    "test_cli_words": (
        "test_advise_labels_the_d10_as_the_language_does",
        "test_simulate_table_has_no_empty_header_row_and_translates_the_strategy"),
    "test_expert": (
        "test_a_visit_asked_four_times_weighs_as_much_as_two_sampled_states",
        "test_extreme_expert_is_the_same_with_and_without_numpy",
        "test_the_fit_recovers_a_value_function_of_its_own_form_bit_for_bit_again",
        "test_classic_expert_is_exact_and_the_same_with_and_without_numpy",
        "test_the_fit_script_writes_the_model_file"),
    "test_game": ("test_legal_actions_are_exactly_the_accepted_actions",),
    "test_harness": ("test_every_command_under_every_fault_ends_clean",
                     "test_every_command_into_a_closed_pipe_ends_quietly"),
    "test_history": ("test_a_version_1_database_migrates_and_keeps_every_game",),
    "test_interrupt": (
        "test_sigterm_stops_the_web_server_and_removes_its_temporary_site",
        "test_ctrl_c_and_sigterm_stop_a_solve_and_the_same_command_completes_it",
        "test_sigterm_ends_a_parallel_simulation_with_a_reproducible_partial_json_in_english",
        "test_ctrl_c_ends_a_parallel_simulation_at_once_with_the_games_so_far_in_german"),
    "test_kernel_wide": (
        "test_the_16_lane_kernel_solves_the_extreme_endgames_to_the_same_bits",
        "test_the_16_lane_kernel_gives_the_same_detail_records"),
    "test_language": (
        "test_every_readme_example_speaks_the_locales_language[kniffel simulate",
        "test_every_readme_example_speaks_the_locales_language[kniffel advise"),
    "test_messages": ("test_the_browsers_package_carries_the_word_files",),
    "test_play_cli": ("test_play_without_a_terminal_refuses_at_once_with_one_sentence",),
    "test_readme": ("test_readme_example_runs[kniffel simulate",),
    "test_seed004": (
        "test_the_site_ships_seed004s_exact_table_in_float32",
        "test_the_solver_matches_brute_force_expectimax_on_seed004_endgames"),
    "test_simulate": (
        "test_simulate_counts_the_chips_handed_in_the_same_whatever_the_jobs",
        "test_simulate_gives_the_same_result_whatever_the_number_of_jobs"),
    "test_simulate_cli": ("test_simulate_json_is_deterministic_for_a_seed",),
    "test_solver": (
        "test_solver_matches_brute_force_expectimax_on_small_sub_games",
        "test_advice_with_a_chip_matches_brute_force",
        "test_advice_for_a_roll_matches_brute_force_for_every_option",
        "test_optimal_joins_the_strategies_of_simulate_and_is_deterministic",
        "test_classic_kniffel_and_championship_values_lie_near_yahtzee"),
    "test_strategy": (
        "test_greedy_pure_python_decides_exactly_like_numpy_in_every_position",
        "test_the_dice_index_numbers_rethrows_and_outcomes_as_sub_keeps_and_outcomes_do"),
    "test_tui": (
        "test_a_whole_extreme_game_against_two_computers",
        "test_a_whole_game_of_computer_players_is_played_and_stored",
        "test_an_expert_opponent_plays_a_whole_classic_game",
        "test_setup_the_free_strike_box_cannot_be_ticked_where_it_means_nothing",
        "test_setup_screen_starts_the_game_it_describes_and_stores_it"),
    "test_web_server": (
        "test_server_serves_the_site_with_the_right_types",
        "test_kniffel_web_prints_its_address_and_serves_until_stopped",
        "test_export_writes_a_complete_static_site",
        "test_service_worker_lists_every_file_of_the_site",
        "test_browser_package_holds_the_engine_without_the_command_line",
        "test_browser_package_holds_the_model_packed_with_the_same_parameters",
        "test_a_new_export_replaces_the_compressed_copies_of_the_earlier_one",
        "test_server_sends_the_compressed_copy_the_browser_accepts_with_the_file_type"),
    "test_web_view": ("test_a_packed_game_unpacks_to_the_same_game",),
}

#: The environment variables that name the user's own folders, and where they point instead.
FOLDERS = {"HOME": "home", "XDG_CACHE_HOME": "cache", "XDG_DATA_HOME": "data",
           "XDG_CONFIG_HOME": "config", "XDG_STATE_HOME": "state"}

_TEST_NUMBERS = itertools.count()

PLAYWRIGHT = importlib.util.find_spec("playwright") is not None
NO_PLAYWRIGHT = "the browser tests need Playwright: scripts/setup.sh --dev"
NO_CHROMIUM = "the browser tests need /usr/bin/chromium (Debian's): scripts/setup.sh --dev"

# Without Playwright the browser modules cannot even be imported: outside CI they are left out
# (the header says so), in CI they are collected and fail.
collect_ignore = ([] if PLAYWRIGHT or os.environ.get("CI")
                  else [f"{name}.py" for name in sorted(BROWSER_MODULES)])


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


def _uses_a_terminal(item: pytest.Item) -> bool:
    """Whether a test drives the terminal game in a real terminal: tmux, or a pty."""
    function = getattr(item, "function", None)
    if function is None:
        return False
    try:
        source = inspect.getsource(function)
    except (OSError, TypeError):
        return False
    return "_tmux(" in source or "_play_in_a_terminal(" in source or "PtySession(" in source


def is_slow(module: str, name: str) -> bool:
    """Whether the test ``name`` (with its case's id) of ``module`` is in :data:`SOLVE_TESTS`."""
    function, _, case = name.partition("[")
    for entry in SOLVE_TESTS.get(module, ()):
        test, _, words = entry.partition("[")
        if test == function and words in case:
            return True
    return False


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the slow tiers: every test of a browser module ``browser``, every test that drives a
    real terminal ``tmux``, the tests of :data:`SOLVE_TESTS` ``solve``."""
    for item in items:
        module = item.path.stem
        if item.path.parent != TESTS:
            continue
        if module in BROWSER_MODULES:
            item.add_marker(pytest.mark.browser)
        elif _uses_a_terminal(item):
            item.add_marker(pytest.mark.tmux)
        if is_slow(module, item.name):
            item.add_marker(pytest.mark.solve)


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


@pytest.fixture(scope="session")
def engine_snapshot(browser: Browser, served_site: tuple[str, Path]) -> EngineSnapshot:
    """The session's one fresh start of the engine (Pyodide and the kniffel package), kept as
    its memory snapshot for every browser context that :meth:`EngineSnapshot.seed` seeds (the
    site's server serves it as :data:`SNAPSHOT_FILE`)."""
    site, folder = served_site
    context = browser.new_context(service_workers="block", bypass_csp=True)
    taken: list[bytes] = []
    target = site + "__test-engine-snapshot"

    def take(route: Route) -> None:
        taken.append(route.request.post_data_buffer or b"")
        route.fulfill(status=204)

    try:
        page = context.new_page()
        page.goto(site)
        page.wait_for_selector(READY, state="attached", timeout=120_000)
        assert page.evaluate("window.kniffelTiming.bootPath") == "fresh"
        page.route(target, take)
        key: str = page.evaluate(TAKE_SNAPSHOT, target)
    finally:
        context.close()
    assert taken != [], "the engine's snapshot did not come back from the browser"
    assert len(taken[0]) > 1_000_000, "the engine's snapshot came back empty"
    (folder / SNAPSHOT_FILE).write_bytes(taken[0])
    return EngineSnapshot(site, key)


@pytest.fixture(scope="module")
def phone_context(browser: Browser, engine_snapshot: EngineSnapshot) -> Iterator[BrowserContext]:
    """A phone's screen (360×740, touch) for a module's pages, its engine from the session's
    snapshot; the page's policy bypassed so that Playwright may evaluate."""
    ctx = browser.new_context(service_workers="block", bypass_csp=True, is_mobile=True,
                              has_touch=True, viewport={"width": 360, "height": 740})
    engine_snapshot.seed(ctx)
    ctx.set_default_timeout(30_000)
    yield ctx
    ctx.close()


@pytest.fixture
def phone_page(phone_context: BrowserContext, site: str) -> Iterator[Page]:
    """A page of the app on :func:`phone_context` with nothing stored, ready to use; the test
    fails where the page raised an error."""
    p = phone_context.new_page()
    errors: list[str] = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.goto(site)
    p.evaluate("localStorage.clear()")
    p.reload()
    p.wait_for_selector(READY, state="attached", timeout=120_000)
    yield p
    p.close()
    assert errors == []


def wait_actions(page: Page, n: int, *, timeout: float | None = None) -> None:
    """Wait until the page's sheet shows its game after ``n`` actions, its controls live."""
    page.wait_for_selector(f"section.game[data-actions='{n}'][data-live='1']", state="attached",
                           timeout=timeout)
