"""The test suite's own rules (tests/conftest.py): no test touches the user's home or cache, the
slow tiers are marked where the tests are and a test outside its tier is refused, and a browser
test that cannot run skips outside CI only."""

from __future__ import annotations

import os
import pwd
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FOLDERS, TESTS, missing, missing_tiers
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


def test_a_readme_example_is_in_the_solve_tier_where_it_simulates() -> None:
    from test_readme import EXAMPLE_CASES

    def marks(command: str) -> set[str]:
        for case in EXAMPLE_CASES:
            if isinstance(case, str):
                if case == command:
                    return set()
            elif case.values == (command,):
                return {mark.name for mark in case.marks}
        raise AssertionError(f"{command!r} is no README example")

    assert marks("kniffel simulate --rules extreme --strategy greedy --games 50 --seed 1 "
                 "--plot totals.png") == {"solve"}
    assert marks("kniffel history") == set()
    assert marks("kniffel advise --game game.json") == set()


def test_a_test_belongs_to_the_tier_of_what_it_drives_unless_marked_so() -> None:
    playwright = "import json\n\nfrom playwright.sync_api import Page\n"
    assert missing_tiers(playwright, "", (), ()) == ["browser"]
    assert missing_tiers("if TYPE_CHECKING:\n    import playwright\n", "", (), ()) == ["browser"]
    assert missing_tiers("import json\n", "", ("tmp_path", "phone_page"), ()) == ["browser"]
    assert missing_tiers("import json\n", "", ("tmp_path", "browser"), ()) == ["browser"]
    assert missing_tiers(playwright, "", ("phone_page",), ("browser",)) == []
    assert missing_tiers("# playwright is not imported here\n", "", ("site",), ()) == []
    assert missing_tiers("", "    out = _tmux(['play'])\n", (), ()) == ["tmux"]
    assert missing_tiers("", "    with PtySession(args) as s:\n        s.close()\n", (),
                         ("solve",)) == ["tmux"]
    assert missing_tiers("", "    _tmux(['play'])\n", (), ("tmux",)) == []
    assert missing_tiers("", "    assert _tmux_size() == (80, 24)\n", (), ()) == []
    assert missing_tiers("", "    assert '_tmux(' in text\n", (), ()) == []
    assert missing_tiers("", "    tmux.start('kniffel play')\n", ("tmux",), ()) == ["tmux"]
    assert missing_tiers("", "    tmux.start('kniffel play')\n", ("tmux",), ("tmux",)) == []
    assert missing_tiers(playwright, "    _play_in_a_terminal([])\n", (), ()) == [
        "browser", "tmux"]


UNMARKED = {
    "test_chromium_unmarked.py": (
        "from playwright.sync_api import Page\n\n\ndef test_page() -> None:\n    pass\n"),
    "test_fixture_unmarked.py": "def test_phone(phone_page: object) -> None:\n    pass\n",
    "test_terminal_unmarked.py": (
        "def _tmux(args: list[str]) -> str:\n    return ''\n\n\n"
        "def test_terminal() -> None:\n    assert _tmux(['play']) == ''\n"),
    "test_marked.py": (
        "import pytest\n\npytestmark = pytest.mark.browser\n\n\n"
        "def test_phone(phone_page: object) -> None:\n    pass\n\n\n"
        "@pytest.mark.tmux\ndef test_terminal() -> None:\n    PtySession(['play'])\n"),
}


def test_collection_refuses_a_test_outside_the_tier_of_what_it_drives(tmp_path: Path) -> None:
    shutil.copy(TESTS / "conftest.py", tmp_path / "conftest.py")
    for name, source in UNMARKED.items():
        (tmp_path / name).write_text(source, encoding="utf-8")
    (tmp_path / "pytest.ini").write_text(
        "[pytest]\nmarkers =\n    browser: b\n    tmux: t\n    solve: s\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
         "-p", "no:xdist", "-p", "no:randomly", "--rootdir", str(tmp_path), str(tmp_path)],
        cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False,
        env={**os.environ, "CI": "1"})
    error = done.stderr
    assert done.returncode == pytest.ExitCode.USAGE_ERROR, done.stdout + error
    assert "test_chromium_unmarked.py drives Chromium" in error
    assert "test_fixture_unmarked.py drives Chromium" in error
    assert ("test_terminal_unmarked.py::test_terminal drives a real terminal but is not marked "
            "tmux") in error
    assert "test_marked.py" not in error


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
    """A module that asks for the browser fixtures (or imports Playwright) is marked ``browser``
    as a whole, so it never runs in the fast tier or breaks collection where Playwright is
    missing; and a module marked so drives Chromium."""
    uses = re.compile(r"\b\w+: (Browser|BrowserContext|Page|Playwright|EngineSnapshot)\b"
                      r"|^from playwright|^import playwright", re.MULTILINE)
    marked = re.compile(r"^pytestmark = pytest\.mark\.browser$", re.MULTILINE)
    sources = {path.stem: path.read_text(encoding="utf-8") for path in TESTS.glob("test_*.py")
               if path.stem != "test_tiers"}
    driving = {module for module, source in sources.items() if uses.search(source)}
    browser = {module for module, source in sources.items() if marked.search(source)}
    assert "test_web_coach" in driving
    assert driving == browser, (sorted(driving - browser), sorted(browser - driving))
