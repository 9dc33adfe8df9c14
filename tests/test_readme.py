"""The examples of the README and of the manual (``docs/``) run: shell lines exit with status 0,
Python blocks run, and every ``>>>`` line of a ``pycon`` block prints what the page says.

Each ``kniffel`` line of an ``sh`` block runs in bash, in a scratch folder holding a saved classic
game ``game.json`` and a history with one finished game, with the history database and the
solver's cache there too (nothing of the user's is read or written). Shell lines that are not
``kniffel`` commands (``./run.sh``, a benchmark) and the commands that cannot run here (a full
solve, the full-screen game, a server) each name the reason, and a test fails on a line that
gives none."""

from __future__ import annotations

import doctest
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from kniffel import Game, preset
from kniffel.history import History
from kniffel.storage import save_game

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
#: The pages whose examples run: the README and every page of the manual.
PAGES = [README, *sorted((ROOT / "docs").rglob("*.md"))]
BIN = Path(sys.executable).parent

#: Examples that are not run, by their start, and why.
SKIPPED = {
    "kniffel play": "starts the full-screen terminal game (tested with Textual's pilot and a pty "
                    "in test_tui.py and test_history_cli.py)",
    "kniffel solve --rules extreme": "the full Kniffel Extreme solve (about 40 minutes and 2.4 GB; "
                                     "its layers are tested in test_solver.py)",
    "kniffel solve": "a full solve (the whole table; tested in test_solver.py)",
    "kniffel advise --rules yahtzee 1 3 3 5 6": "solves the whole Yahtzee table first (a full "
                                                "solve; tested in test_solver.py)",
    "kniffel simulate --rules extreme --strategy expert --games 1000":
        "1,000 games of the expert take minutes and write the manual's data (simulate and the "
        "expert are tested in test_simulate.py and test_expert.py)",
    "kniffel simulate --rules kniffel --strategy expert --games 2000":
        "2,000 games of the expert write the manual's data (simulate and the expert are tested "
        "in test_simulate.py and test_expert.py)",
    "kniffel web": "serves the site until stopped, or builds all of it with Pyodide (tested in "
                   "the test_web_*.py modules)",
}

#: Shell lines of the pages that are no ``kniffel`` examples, by their start, and why they are
#: not run here.
NOT_EXAMPLES = {
    "./run.sh": "sets up the project and starts the app (the quick start itself)",
    "./test.sh": "the whole test suite, this test among it",
    "./test.sh --fast": "the fast tier of the test suite, this test among it",
    ".venv/bin/python -m pytest": "runs the test suite, this test among it",
    ".venv/bin/mkdocs": "builds this manual (test.sh does, with --strict)",
    "python scripts/fit_expert_model.py": "fits the expert's model from the full table's sample "
                                          "(minutes; the fit is tested in test_expert_fit.py)",
    ".venv/bin/python docs/plots/plot_totals.py": "redraws a plot of the manual from the result "
                                                  "stored beside it, writing into the checkout",
    ".venv/bin/python benchmarks/": "a benchmark: measures, takes minutes, checks nothing here",
    "PYTHONPATH=/tmp/before/src .venv/bin/python benchmarks/": "a benchmark of an earlier "
                                                              "release's package, unpacked "
                                                              "by hand",
    "sha256sum": "reads the full Extreme table, which only a full solve makes",
    "pip install": "installs kniffel into the environment (test_wheel.py installs the wheel into "
                   "a fresh venv and runs it)",
    ".venv/bin/python -m build": "builds the sdist and the wheel into the checkout's dist/ "
                                 "(test_wheel.py builds the wheel from a clean copy)",
    "python -m http.server": "serves an exported site until stopped (test_static_site.py serves "
                             "one with http.server and plays it)",
}


def fenced_blocks(path: Path, kind: str) -> list[tuple[int, str]]:
    """The ``kind`` code blocks of the page ``path`` (``sh``, ``python``, ``pycon``), each with
    the line its code starts on."""
    text = path.read_text(encoding="utf-8")
    blocks = []
    for match in re.finditer(rf"^```{kind}\n(.*?)^```$", text, re.S | re.M):
        blocks.append((text.count("\n", 0, match.start(1)) + 1, match.group(1)))
    return blocks


def shell_lines(path: Path) -> list[str]:
    """The commands of the page's ``sh`` blocks: comments removed, continued lines joined."""
    commands = []
    for _, block in fenced_blocks(path, "sh"):
        for line in block.replace("\\\n", " ").splitlines():
            command = re.split(r"\s{2,}#\s|^#", line, maxsplit=1)[0].strip()
            if command:
                commands.append(re.sub(r"\s+", " ", command))
    return commands


def _all_shell_lines() -> list[str]:
    seen: dict[str, None] = {}
    for page in PAGES:
        for command in shell_lines(page):
            seen.setdefault(command, None)
    return list(seen)


SHELL_LINES = _all_shell_lines()
#: The command-line examples of the README and the manual, each once, in the pages' order.
EXAMPLES = [c for c in SHELL_LINES if c.startswith(("kniffel", "printf"))]
OTHER_LINES = [c for c in SHELL_LINES if c not in EXAMPLES]


def test_the_pages_have_their_examples() -> None:
    assert len(EXAMPLES) >= 20
    assert all(c.startswith(("kniffel", "printf")) for c in EXAMPLES)
    readme = shell_lines(README)
    assert any(c.startswith("kniffel") for c in readme), "the README shows no kniffel command"
    assert {"./run.sh", "./test.sh"} <= set(readme), "the README's two commands are missing"
    for start in SKIPPED:
        assert any(c.startswith(start) for c in EXAMPLES), f"{start!r} is no longer an example"


@pytest.mark.parametrize("command", OTHER_LINES)
def test_every_other_shell_line_says_why_it_is_not_run(command: str) -> None:
    reasons = [reason for start, reason in NOT_EXAMPLES.items() if command.startswith(start)]
    assert reasons, f"{command!r}: neither a kniffel example nor in NOT_EXAMPLES"


#: A file or folder of the checkout a page names: in backticks, under one of its folders.
NAMED_PATH = re.compile(r"`((?:src|tests|benchmarks|scripts|docs|\.ci)/[\w./*-]*)`")
#: A relative link of the README (the manual's links are checked by mkdocs --strict).
LINK = re.compile(r"\]\((?!https?:|#)([^)#\s]+)")


def named_paths(page: Path) -> list[str]:
    """The checkout's paths the page names, and for the README its relative links."""
    text = page.read_text(encoding="utf-8")
    paths = NAMED_PATH.findall(text)
    if page == README:
        paths += LINK.findall(text)
    return paths


def test_the_readme_is_a_landing_page() -> None:
    """At most 250 lines, and none of a lab notebook's marks: commit hashes, load averages,
    tracker numbers."""
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 250
    assert not re.findall(r"`[0-9a-f]{7,40}`", text), "a commit hash"
    assert not re.findall(r"load average|\bissue \d+|#\d{2,}\b", text, re.I)


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_every_file_a_page_names_exists(page: Path) -> None:
    missing = [path for path in named_paths(page) if not list(ROOT.glob(path.rstrip("/")))]
    assert not missing, f"{page.name} names files that do not exist: {missing}"


def readme_folder(folder: Path) -> Path:
    """``folder`` made ready for the examples: ``game.json`` a classic game a few turns in, and
    a history (under ``data/``, where ``XDG_DATA_HOME`` points) holding one finished game."""
    rng = random.Random(3)
    game = Game(preset("kniffel"), ["Anna", "Ben"], seed=3)
    while len(game.actions) < 40 or game.is_chance_node():  # a few turns into the game
        game.apply(game.sample_outcome(rng) if game.is_chance_node()
                   else rng.choice(game.legal_actions()))
    save_game(game, folder / "game.json")
    finished = Game(preset("kniffel"), ["Anna"], seed=4)
    while not finished.is_over():
        finished.apply(finished.sample_outcome(rng) if finished.is_chance_node()
                       else rng.choice(finished.legal_actions()))
    with History(folder / "data" / "kniffel" / "history.sqlite3") as db:
        db.start(finished)
    return folder


def exported_first(command: str, folder: Path, env: dict[str, str]) -> None:
    """Before the example ``kniffel import FILE``, the file the example before it exports:
    the cases may run in another process than that one (pytest-xdist), each with a folder of
    its own."""
    if command.startswith("kniffel import "):
        name = command.split()[2]
        if not (folder / name).exists():
            subprocess.run(["kniffel", "export", name], cwd=folder, env=env, check=True,
                           capture_output=True, timeout=300)


def hermetic_env(folder: Path) -> dict[str, str]:
    """The environment of an example: ``kniffel`` on the path, the history and the solver's
    cache inside ``folder``, a wide terminal without colours."""
    return {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
            "XDG_DATA_HOME": str(folder / "data"), "KNIFFEL_CACHE_DIR": str(folder / "cache"),
            "COLUMNS": "120", "NO_COLOR": "1"}


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return readme_folder(tmp_path_factory.mktemp("readme"))


#: The examples as :func:`test_readme_example_runs`'s cases: a simulation's in the ``solve`` tier.
EXAMPLE_CASES = [pytest.param(c, marks=pytest.mark.solve) if c.startswith("kniffel simulate") else c
                 for c in EXAMPLES]


@pytest.mark.parametrize("command", EXAMPLE_CASES)
def test_readme_example_runs(command: str, scratch: Path) -> None:
    for start, reason in SKIPPED.items():
        if command.startswith(start):
            pytest.skip(reason)
    exported_first(command, scratch, hermetic_env(scratch))
    done = subprocess.run(["bash", "-c", command], cwd=scratch, env=hermetic_env(scratch),
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, f"{command}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    assert "Traceback" not in done.stderr


PYTHON_BLOCKS = [(page, line, block) for page in PAGES
                 for line, block in fenced_blocks(page, "python")]


@pytest.mark.parametrize(("page", "line", "block"), PYTHON_BLOCKS,
                         ids=[f"{p.relative_to(ROOT)}:{n}" for p, n, _ in PYTHON_BLOCKS])
def test_python_example_runs(page: Path, line: int, block: str, tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", block], cwd=tmp_path,
                          env=hermetic_env(tmp_path), capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, f"{page.name}:{line}\n{done.stderr[-3000:]}"


SESSION_PAGES = [page for page in PAGES if fenced_blocks(page, "pycon")]


@pytest.mark.parametrize("page", SESSION_PAGES,
                         ids=[str(p.relative_to(ROOT)) for p in SESSION_PAGES])
def test_session_examples_print_what_the_page_says(
        page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The page's ``pycon`` blocks, in order and sharing their names, as doctests."""
    monkeypatch.chdir(tmp_path)
    for key, value in hermetic_env(tmp_path).items():
        monkeypatch.setenv(key, value)
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    names: dict[str, object] = {}
    for line, block in fenced_blocks(page, "pycon"):
        test = parser.get_doctest(block, names, f"{page.name}:{line}", str(page), line)
        examples = len(test.examples)
        assert examples, f"{page.name}:{line}: a pycon block without >>> lines"
        result = runner.run(test, clear_globs=False)
        assert result.failed == 0, f"{page.name}:{line}: {result.failed} of {examples} differ"
        names = test.globs  # the next block goes on with the names this one made
