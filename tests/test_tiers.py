"""The test suite's own rules (tests/conftest.py): no test touches the user's home or cache, the
slow tiers name tests that exist, and a browser test that cannot run skips outside CI only."""

from __future__ import annotations

import importlib
import os
import pwd
import re
from pathlib import Path

import pytest

from conftest import BROWSER_MODULES, FOLDERS, SOLVE_TESTS, TESTS, is_slow, missing
from kniffel.paths import default_db_path
from kniffel.solver.table import cache_dir


def test_home_cache_and_history_lie_in_pytests_temporary_folder(
    tmp_path_factory: pytest.TempPathFactory, hermetic_test: Path,
) -> None:
    temporary = tmp_path_factory.getbasetemp().resolve()
    real_home = Path(pwd.getpwuid(os.getuid()).pw_dir).resolve()
    assert Path.home() == hermetic_test
    for var in (*FOLDERS, "KNIFFEL_CACHE_DIR"):
        assert Path(os.environ[var]).resolve().is_relative_to(temporary), var
    for path in (Path.home(), default_db_path(), cache_dir()):
        assert path.resolve().is_relative_to(temporary)
        if not temporary.is_relative_to(real_home):
            assert not path.resolve().is_relative_to(real_home)


def test_each_test_gets_a_home_of_its_own_and_the_session_one_solver_cache(
    hermetic_test: Path, hermetic_session: Path,
) -> None:
    assert hermetic_test.is_dir()
    assert list(hermetic_test.iterdir()) == []  # nothing left by an earlier test
    assert hermetic_test != hermetic_session / "home"
    assert cache_dir() == hermetic_session / "solver-tables"


def test_every_slow_test_named_in_the_solve_tier_exists() -> None:
    for module, entries in SOLVE_TESTS.items():
        assert (TESTS / f"{module}.py").is_file(), module
        tests = importlib.import_module(module)
        for entry in entries:
            function = entry.partition("[")[0]
            assert callable(getattr(tests, function, None)), f"{module}::{function}"


def test_a_slow_entry_marks_its_cases_by_their_words_or_all_of_them() -> None:
    assert is_slow("test_readme", "test_readme_example_runs[kniffel simulate --games 200]")
    assert not is_slow("test_readme", "test_readme_example_runs[kniffel history]")
    assert is_slow("test_solver", "test_advice_with_a_chip_matches_brute_force")
    assert is_slow("test_solver",
                   "test_solver_matches_brute_force_expectimax_on_small_sub_games[yahtzee-ones]")
    assert not is_slow("test_solver", "test_advice_with_a_chip_matches_brute_force_too")
    assert not is_slow("test_game", "test_advice_with_a_chip_matches_brute_force")


def test_every_browser_module_exists() -> None:
    for module in BROWSER_MODULES:
        assert (TESTS / f"{module}.py").is_file(), module


def test_a_missing_browser_skips_outside_ci_and_fails_in_ci(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="needs chromium"):
        missing("needs chromium")
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="needs chromium"):
        missing("needs chromium")


def test_every_module_that_drives_chromium_is_in_the_browser_tier() -> None:
    """A module that asks for the browser fixtures (or imports Playwright) is listed in
    ``BROWSER_MODULES``, so it never runs in the fast tier or breaks collection where
    Playwright is missing."""
    uses = re.compile(r"\b\w+: (Browser|BrowserContext|Page|Playwright|EngineSnapshot)\b"
                      r"|^from playwright|^import playwright", re.MULTILINE)
    driving = {path.stem for path in TESTS.glob("test_*.py")
               if path.stem != "test_tiers" and uses.search(path.read_text(encoding="utf-8"))}
    assert driving <= BROWSER_MODULES, sorted(driving - BROWSER_MODULES)
