"""The package's layers, read from the source: who may import whom.

Every module under ``src/kniffel`` is parsed (no module is imported) and each of its imports is
an edge ``importing module -> imported module``: every ``import`` statement, at module level,
inside functions and under ``if TYPE_CHECKING:`` alike. ``import a.b`` names ``a.b``;
``from p import name`` names ``p.name`` where that is a module of the package, else ``p``.
Importing ``p.q`` also runs ``p/__init__.py``; that is not counted as an edge.

The rules: no import cycle anywhere; the engine (:mod:`kniffel.engine`, what runs in the
browser) builds on nothing but itself and the standard library, and imports numpy and Babel
only inside a function (the optional fast path; CLDR's plural rules and number formats, which
the browser writes by hand); the browser's side (:mod:`kniffel.browser`) builds on the
engine, itself and the top-level package; the top-level package (shipped to the browser)
imports only the engine, lazily too. On the desktop, the front ends (the command line, the
terminal game, the site's server) build on the library and nothing builds on them: the
library (history, storage, errors, solver, simulation) imports no front end, and the command
line is started only by ``python -m kniffel``. The desktop's errors (history, files) are the
desktop's: no engine module defines them.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kniffel.engine.rules import RuleSet

SRC = Path(__file__).resolve().parent.parent / "src"
PACKAGE = "kniffel"
#: Third-party modules the browser's side may import (pure Python, shipped with the site).
BROWSER_THIRD_PARTY = frozenset({"segno"})
#: What the engine never imports when a module of it is loaded.
NOT_AT_ENGINE_LOAD = frozenset({"numpy", "babel", "sqlite3", "click", "rich", "textual"})
#: What the engine may import inside a function only, each with a fallback where it is missing
#: (the browser): numpy's fast path, Babel's plural rules and number formats.
ENGINE_OPTIONAL = frozenset({"numpy", "babel"})
#: The desktop's front ends: what a person runs, built on the library, built on by nothing.
FRONT_ENDS = ("kniffel.cli", "kniffel.tui", "kniffel.web")


@dataclass(frozen=True)
class Import:
    """One import of ``source``: the module it names, its line, and whether it runs when
    ``source`` is loaded (module level, not inside a function or under TYPE_CHECKING)."""

    source: str
    target: str
    line: int
    at_load: bool


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def modules() -> dict[str, Path]:
    """Every module of the package by its dotted name."""
    return {_module_name(p): p for p in sorted((SRC / PACKAGE).rglob("*.py"))}


def _is_type_checking(test: ast.expr) -> bool:
    return ((isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")
            or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"))


def _walk(node: ast.AST, at_load: bool) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
    """Every import below ``node``, with whether it runs when the module is loaded."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.Import | ast.ImportFrom):
            yield child, at_load
        elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            yield from _walk(child, False)
        elif isinstance(child, ast.If) and _is_type_checking(child.test):
            for stmt in child.body:
                yield from _walk(ast.Module(body=[stmt], type_ignores=[]), False)
            for stmt in child.orelse:
                yield from _walk(ast.Module(body=[stmt], type_ignores=[]), at_load)
        else:
            yield from _walk(child, at_load)


def _resolve(source: str, node: ast.ImportFrom) -> str:
    """The package a ``from … import`` names, relative imports resolved against ``source``."""
    if not node.level:
        return node.module or ""
    base = source.split(".")
    if modules()[source].name != "__init__.py":
        base.pop()
    base = base[:len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


@cache
def imports() -> tuple[Import, ...]:
    """Every import of every module of the package."""
    found: list[Import] = []
    known = modules()
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node, at_load in _walk(tree, True):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                package = _resolve(name, node)
                targets = [f"{package}.{alias.name}" if f"{package}.{alias.name}" in known
                           else package for alias in node.names]
            found.extend(Import(name, t, node.lineno, at_load) for t in dict.fromkeys(targets))
    return tuple(found)


def _inside(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def _top(module: str) -> str:
    return module.split(".")[0]


def _stdlib(module: str) -> bool:
    return _top(module) in sys.stdlib_module_names or _top(module) == "__future__"


def _show(found: list[Import]) -> str:
    return "\n".join(f"{i.source} (line {i.line}) imports {i.target}" for i in found)


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """A cycle of the graph ``edges`` as its modules in order (the first repeated at the end),
    or None when it has none."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt):], nxt]
            if nxt not in state:
                cycle = visit(nxt)
                if cycle is not None:
                    return cycle
        path.pop()
        state[node] = 2
        return None

    for start in sorted(edges):
        if start not in state:
            cycle = visit(start)
            if cycle is not None:
                return cycle
    return None


def package_edges() -> dict[str, set[str]]:
    """The package's import graph: its modules and the modules of it each one imports."""
    edges: dict[str, set[str]] = {m: set() for m in modules()}
    for i in imports():
        if i.target in edges and i.target != i.source:
            edges[i.source].add(i.target)
    return edges


def test_the_layer_scan_sees_lazy_and_type_checking_imports() -> None:
    """The scan counts what matters: the lazy import of numpy in the greedy player's fast path,
    and the top-level package's names imported only for type checkers."""
    found = imports()
    assert any(i.source.startswith("kniffel.engine.") and i.target == "numpy" and not i.at_load
               for i in found)
    assert any(i.source == "kniffel" and i.target == "kniffel.engine.game" and not i.at_load
               for i in found)
    assert "kniffel.engine.rules" in package_edges()["kniffel"]


def test_find_cycle_names_the_modules_of_a_cycle() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert find_cycle(edges) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_no_import_cycle_anywhere_counting_lazy_imports() -> None:
    cycle = find_cycle(package_edges())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_engine_imports_only_the_engine_and_the_standard_library() -> None:
    bad = [i for i in imports() if _inside(i.source, "kniffel.engine")
           and not _inside(i.target, "kniffel.engine") and not _stdlib(i.target)
           and not (i.target.split(".")[0] in ENGINE_OPTIONAL and not i.at_load)]
    assert not bad, _show(bad)


def test_the_engine_never_loads_numpy_sqlite_or_the_front_ends_with_its_modules() -> None:
    bad = [i for i in imports() if _inside(i.source, "kniffel.engine") and i.at_load
           and _top(i.target) in NOT_AT_ENGINE_LOAD]
    assert not bad, _show(bad)


def test_the_browser_side_imports_only_the_engine_itself_and_the_top_level_package() -> None:
    allowed = ("kniffel.engine", "kniffel.browser")
    bad = [i for i in imports() if _inside(i.source, "kniffel.browser")
           and not any(_inside(i.target, p) for p in allowed) and i.target != PACKAGE
           and not _stdlib(i.target) and _top(i.target) not in BROWSER_THIRD_PARTY]
    assert not bad, _show(bad)


def test_the_top_level_package_loads_only_the_engine() -> None:
    bad = [i for i in imports() if i.source == PACKAGE and i.at_load
           and not _inside(i.target, "kniffel.engine") and not _stdlib(i.target)]
    assert not bad, _show(bad)


#: The terminal game's modules, each building only on those after it: the app on its screens,
#: the game screen's layers (a person's keys and quitting on the computers' turns on the board
#: with its sheet), the widgets, the rescue file, the threads, and the view (text, no widget of
#: the game) last.
TUI_LAYERS = ("kniffel.tui.app", "kniffel.tui.setup", "kniffel.tui.game",
              "kniffel.tui.game.screen", "kniffel.tui.game.quitting",
              "kniffel.tui.game.computers", "kniffel.tui.game.board", "kniffel.tui.game.info",
              "kniffel.tui.game.sheet", "kniffel.tui.widgets", "kniffel.tui.rescue",
              "kniffel.tui.threads", "kniffel.tui.view")


def test_every_module_of_the_terminal_game_has_its_layer() -> None:
    found = {name for name in modules() if _inside(name, "kniffel.tui")} - {"kniffel.tui"}
    assert found == set(TUI_LAYERS)


def test_the_terminal_games_modules_build_only_on_the_layers_below_them() -> None:
    """The view and the threads know no screen; a screen knows neither the app nor a screen
    above it; the package itself loads nothing (the CLI imports the app when it plays)."""
    rank = {name: i for i, name in enumerate(TUI_LAYERS)}
    bad = [i for i in imports() if _inside(i.source, "kniffel.tui")
           and _inside(i.target, "kniffel.tui") and i.target != i.source
           and (i.source == "kniffel.tui" or rank[i.target] <= rank[i.source])]
    assert not bad, _show(bad)


def test_outside_the_terminal_game_only_the_cli_imports_it_and_only_when_it_plays() -> None:
    bad = [i for i in imports() if _inside(i.target, "kniffel.tui")
           and not _inside(i.source, "kniffel.tui")
           and (not _inside(i.source, "kniffel.cli") or i.at_load
                or i.target != "kniffel.tui.app")]
    assert not bad, _show(bad)
    assert any(_inside(i.source, "kniffel.cli") and i.target == "kniffel.tui.app"
               for i in imports())


def test_the_top_level_package_names_nothing_of_the_desktop_even_lazily() -> None:
    """``kniffel/__init__.py`` runs in the browser: no name it exports, lazily or for type
    checkers, comes from the desktop (``kniffel.storage``'s saves are imported from there)."""
    bad = [i for i in imports() if i.source == PACKAGE
           and not _inside(i.target, "kniffel.engine") and not _stdlib(i.target)]
    assert not bad, _show(bad)


def _front_end(module: str) -> str | None:
    return next((f for f in FRONT_ENDS if _inside(module, f)), None)


def test_nothing_but_a_front_end_builds_on_a_front_end() -> None:
    """The library (engine, history, storage, errors, solver, simulation, the browser's side)
    imports no front end, lazily neither; the command line is imported only by
    ``kniffel.__main__`` (``python -m kniffel``)."""
    bad = [i for i in imports() if _front_end(i.target) is not None
           and _front_end(i.source) is None and i.source != "kniffel.__main__"]
    assert not bad, _show(bad)
    by_others = [i for i in imports() if _inside(i.target, "kniffel.cli")
                 and not _inside(i.source, "kniffel.cli") and i.source != "kniffel.__main__"]
    assert not by_others, _show(by_others)


def test_the_front_ends_are_checked_by_the_scan() -> None:
    """The rules above see the front ends: the command line's package and its lazy commands
    (``kniffel play`` imports the terminal game only when it runs)."""
    found = imports()
    assert "kniffel.cli.localized" in modules()
    assert any(i.source == "kniffel.cli.play" and _inside(i.target, "kniffel.tui")
               and not i.at_load for i in found)
    assert any(_inside(i.source, "kniffel.cli") and i.target == "kniffel.storage" for i in found)


def _classes(module: str) -> set[str]:
    tree = ast.parse(modules()[module].read_text(encoding="utf-8"))
    return {n.name for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}


def test_the_desktops_errors_live_in_the_desktop_not_in_the_engine() -> None:
    """History and file errors are :mod:`kniffel.errors`' (the engine in the browser has
    neither a database nor files): no engine module defines one, and none imports them."""
    desktop = _classes("kniffel.errors")
    assert {"HistoryError", "GameOpenError", "TargetError", "FileAccessError"} <= desktop
    engine = {name for m in modules() if _inside(m, "kniffel.engine") for name in _classes(m)}
    assert not desktop & engine, sorted(desktop & engine)
    assert "KniffelError" in _classes("kniffel.engine.errors")  # the base every layer shares
    bad = [i for i in imports() if _inside(i.source, "kniffel.engine")
           and _inside(i.target, "kniffel.errors")]
    assert not bad, _show(bad)


def test_the_engine_names_no_module_of_another_layer_even_as_text() -> None:
    """The engine finds the desktop's players and tables through the package's metadata, not
    by importing them on the quiet (``import_module("kniffel.solver…")``)."""
    bad = [name for name, path in modules().items() if _inside(name, "kniffel.engine")
           and any(f'"kniffel.{layer}' in path.read_text(encoding="utf-8")
                   for layer in ("solver", "cli", "tui", "history", "storage", "web", "browser",
                                 "errors"))]
    assert not bad, bad


def test_the_players_of_every_layer_are_found_through_the_entry_points_in_their_order() -> None:
    from importlib.metadata import entry_points

    from kniffel.engine.strategy import get_strategy, strategy_names

    listed = {e.name: e.value for e in entry_points(group="kniffel.players")}
    assert not listed["optimal"].startswith("kniffel.engine.")  # the desktop's own player
    assert strategy_names()[:4] == ("random", "greedy", "optimal", "expert")
    assert type(get_strategy("optimal", _classic())).__module__ == "kniffel.solver.advise"


def test_listing_the_players_loads_neither_numpy_nor_the_solvers_kernel() -> None:
    import subprocess

    probe = ("import sys; from kniffel.engine.strategy import strategy_names; "
             "print(strategy_names()); "
             "print(sorted(m for m in ('numpy', 'kniffel.solver.advise', 'kniffel.solver.kernel')"
             " if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True,
                         text=True).stdout.splitlines()
    assert out == ["('random', 'greedy', 'optimal', 'expert', 'expert-win')", "[]"]


def test_the_expert_finds_the_solvers_tables_through_an_entry_point() -> None:
    from kniffel.engine.values import table_sources
    from kniffel.solver.solve import expert_table_file

    assert expert_table_file in table_sources()


def _classic() -> RuleSet:
    from kniffel.engine.rules import preset

    return preset("kniffel")
