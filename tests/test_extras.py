"""A part of kniffel whose packages are not installed (pyproject.toml's extras: tui, plot, solver,
web) or whose C kernel was not built (no compiler at install time) says so in one sentence of the
catalog that names what to install, with exit status 2, never an ImportError's traceback."""

from __future__ import annotations

import importlib
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from kniffel.cli import main
from kniffel.engine.messages import render
from kniffel.extras import EXTRAS, MissingExtraError, require
from kniffel.solver import kernel
from kniffel.solver.tables import SolverError

ROOT = Path(__file__).resolve().parent.parent
ENV: dict[str, str | None] = {"COLUMNS": "250", "NO_COLOR": "1", "LC_ALL": None,
                              "LC_MESSAGES": None, "LANG": None}


def invoke(args: list[str]) -> Result:
    return CliRunner().invoke(main, args, env=ENV)


def test_every_extra_checked_is_an_extra_of_pyproject_that_installs_its_modules() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))[
        "project"]["optional-dependencies"]
    for extra, modules in EXTRAS.items():
        wanted = " ".join(extras[extra])
        for module in modules:
            assert module in wanted, (extra, module)
    assert set(EXTRAS) <= {name for name in extras["all"][0].split("[")[1].rstrip("]").split(",")}
    assert "kniffel[all]" in extras["dev"]


@pytest.mark.parametrize("extra", sorted(EXTRAS))
def test_a_missing_module_of_an_extra_is_one_sentence_naming_the_pip_command(
    extra: str, monkeypatch: pytest.MonkeyPatch,
) -> None:
    module = EXTRAS[extra][0]
    monkeypatch.setitem(sys.modules, module, None)  # importing it now raises ImportError
    with pytest.raises(MissingExtraError) as caught:
        require(extra)
    assert caught.value.code == f"extras.{extra}"
    for lang in ("de", "en"):
        sentence = render(caught.value, lang)
        assert sentence.endswith(f"pip install 'kniffel[{extra}]'")
        assert module in sentence
        assert "\n" not in sentence


def test_require_is_silent_where_the_extra_is_installed() -> None:
    for extra in EXTRAS:
        require(extra)


def test_play_without_textual_says_which_extra_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "textual", None)
    monkeypatch.delitem(sys.modules, "kniffel.tui", raising=False)
    result = invoke(["play", "--lang", "de"])
    assert result.exit_code == 2
    assert result.stderr == ("kniffel play: Das Terminalspiel braucht textual: "
                             "pip install 'kniffel[tui]'\n")
    assert "Traceback" not in result.output
    english = invoke(["play", "--lang", "en"])
    assert english.exit_code == 2
    assert english.stderr == ("kniffel play: The terminal game needs textual: "
                              "pip install 'kniffel[tui]'\n")


def test_web_without_numpy_says_which_extra_to_install(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    monkeypatch.setitem(sys.modules, "numpy", None)
    result = invoke(["web", "--lang", "en", "--export", str(tmp_path / "site")])
    assert result.exit_code == 2
    assert result.stderr == ("kniffel web: The browser app needs numpy (for the expert's exact "
                             "tables): pip install 'kniffel[web]'\n")
    assert not (tmp_path / "site").exists()


def test_the_solver_package_without_numpy_raises_the_sentence_not_an_import_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "numpy", None)
    monkeypatch.delitem(sys.modules, "kniffel.solver")
    with pytest.raises(MissingExtraError) as caught:
        importlib.import_module("kniffel.solver")
    assert render(caught.value, "de") == "Der Löser braucht numpy: pip install 'kniffel[solver]'"


@pytest.fixture
def no_kernel(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """The solver as installed without a C compiler: no kernel library beside its module."""
    monkeypatch.setattr(kernel, "_HERE", tmp_path)
    kernel._library.cache_clear()
    yield tmp_path
    kernel._library.cache_clear()


def test_a_missing_kernel_is_one_sentence_naming_the_compiler_and_the_reinstall(
    no_kernel: Path,
) -> None:
    with pytest.raises(SolverError) as caught:
        kernel.lanes_per_chunk()
    assert caught.value.code == "solver.kernel_missing"
    german = render(caught.value, "de")
    english = render(caught.value, "en")
    for sentence in (german, english):
        assert str(no_kernel) in sentence
        assert "apt-get install gcc" in sentence
        assert "pip install --force-reinstall --no-deps --no-cache-dir kniffel" in sentence
    assert "C-Compiler" in german
    assert "C compiler" in english


def test_solve_without_the_kernel_exits_with_the_sentence_not_a_traceback(
    no_kernel: Path, tmp_path: Path,
) -> None:
    result = invoke(["solve", "--lang", "en", "--rules", "yahtzee", "--max-open", "1",
                     "--cache-dir", str(tmp_path / "cache")])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("kniffel solve: The solver's C kernel is missing in ")
    assert "Traceback" not in result.output
