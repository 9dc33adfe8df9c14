"""The shell examples of the README's command-line section run and exit with status 0.

Each line of the section's first ``sh`` block runs in bash, in a scratch folder holding a saved
classic game ``game.json`` and a history with one finished game, with the history database and
the solver's cache there too (nothing of the user's is read or written)."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from kniffel import Game, preset, save_game
from kniffel.history import History

README = Path(__file__).resolve().parents[1] / "README.md"
BIN = Path(sys.executable).parent

#: Examples that are not run, by their start, and why.
SKIPPED = {
    "kniffel play": "starts the full-screen terminal game (tested with Textual's pilot and a pty "
                    "in test_tui.py and test_history_cli.py)",
    "kniffel solve": "a full solve (the whole table; tested in test_solver.py)",
    "kniffel advise --rules yahtzee 1 3 3 5 6": "solves the whole Yahtzee table first (a full "
                                                "solve; tested in test_solver.py)",
}


def command_line_examples() -> list[str]:
    """The commands of the first ``sh`` block under "## Command line", comments removed."""
    text = README.read_text(encoding="utf-8")
    section = text.split("\n## Command line\n", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block is not None
    commands = []
    for line in block.group(1).splitlines():
        command = re.split(r"\s{2,}#\s", line, maxsplit=1)[0].strip()
        if command:
            commands.append(command)
    return commands


EXAMPLES = command_line_examples()


def test_the_command_line_section_has_its_examples() -> None:
    assert len(EXAMPLES) >= 20
    assert all(c.startswith(("kniffel", "printf")) for c in EXAMPLES)
    for start in SKIPPED:
        assert any(c.startswith(start) for c in EXAMPLES), f"{start!r} is no longer an example"


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


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return readme_folder(tmp_path_factory.mktemp("readme"))


@pytest.mark.parametrize("command", EXAMPLES)
def test_readme_example_runs(command: str, scratch: Path) -> None:
    for start, reason in SKIPPED.items():
        if command.startswith(start):
            pytest.skip(reason)
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
           "XDG_DATA_HOME": str(scratch / "data"), "KNIFFEL_CACHE_DIR": str(scratch / "cache"),
           "COLUMNS": "120", "NO_COLOR": "1"}
    done = subprocess.run(["bash", "-c", command], cwd=scratch, env=env, capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, f"{command}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    assert "Traceback" not in done.stderr
