"""``kniffel solve``: the table of expected final scores of optimal solitaire play."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

import click

from kniffel.cli.common import (
    CACHE_HELP,
    free_strike_option,
    rules_option,
    ruleset_from_options,
    solve_progress,
)
from kniffel.cli.localized import (
    KniffelCommand,
    both,
    fail,
    lang_option,
    rich_console,
    summary,
)
from kniffel.engine.messages import count, render
from kniffel.engine.messages import text as words

if TYPE_CHECKING:
    from rich.console import Console

    from kniffel.engine.rules import Lang, RuleSet


def run_solve(rules: RuleSet, max_open: int | None, cache: str | None, force: bool,
              console: Console, lang: Lang = "de") -> Any:
    """Build (or load and check) the value table of ``rules`` with a progress bar (in a
    terminal); what it tells is in ``lang``."""
    import time
    from pathlib import Path

    from kniffel.solver import Progress as SolveProgress
    from kniffel.solver import TableMismatchError, TableMissingError, load_table
    from kniffel.solver import solve as solve_table

    directory = Path(cache) if cache else None
    if not force:
        try:
            return load_table(rules, max_open=max_open, directory=directory)
        except TableMissingError:
            pass
        except TableMismatchError as e:
            console.print(words("solve.recompute", lang, problem=render(e, lang)), markup=False)
            force = True
    def notice(message: str) -> None:
        from kniffel.engine.messages import count, render_code
        from kniffel.solver.solve import Notice

        if isinstance(message, Notice):  # in the user's language
            params = dict(message.params)
            sets = params.get("sets")
            if isinstance(sets, int):
                params["sets"] = count(sets, lang)
            message = render_code(message.code, params, lang)
        console.print(message, markup=False)

    if not console.is_terminal:  # no bar into a file or a pipe (nor its import: rich.progress)
        return solve_table(rules, max_open=max_open, directory=directory, force=force,
                           notice=notice)
    began = time.perf_counter()
    with solve_progress(console, lang) as bar:
        task = bar.add_task(f"{rules.name}", total=None, rate="")

        def update(p: SolveProgress) -> None:
            spent = time.perf_counter() - began
            rate = (p.done - p.resumed) / spent if spent > 0 else 0.0
            bar.update(task, total=p.total, completed=p.done,
                       description=f"{rules.name} {p.layer}/{p.layers}",
                       rate=f"{count(round(rate), lang)}/s")

        return solve_table(rules, max_open=max_open, directory=directory, progress=update,
                           force=force, notice=notice)


@click.command("solve", cls=KniffelCommand)
@summary("cli.help.command.solve")
@rules_option
@free_strike_option
@click.option("--threads", type=int, default=None,
              help=both("cli.help.solve.threads"))
@click.option("--device", type=click.Choice(["cpu", "gpu"]), default="cpu", show_default=True,
              help=both("cli.help.solve.device"))
@click.option("--max-open", type=int, default=None,
              help=both("cli.help.solve.max_open"))
@click.option("--force", is_flag=True, help=both("cli.help.solve.force"))
@click.option("--cache-dir", type=click.Path(file_okay=False), default=None,
              help=CACHE_HELP)
@lang_option
def solve(rules_name: str, free_strike: bool, threads: int | None, device: str,
          max_open: int | None, force: bool, cache_dir: str | None, lang: Lang) -> None:
    """Builds the table of expected final scores of optimal solitaire play (or loads and checks the
    stored one) and prints the expected score of the empty sheet. Long solves resume where they
    stopped: Ctrl-C or SIGTERM stop it (exit status 130), the last checkpoint is kept.
    """
    from kniffel.interrupt import EXIT_INTERRUPTED, interruptible
    from kniffel.solver import SolverError, set_threads

    console = rich_console()
    if device == "gpu":
        fail("solve", words("cli.no_gpu", lang), lang)
    rules = ruleset_from_options(rules_name, free_strike, "solve", lang)
    try:
        with interruptible():
            n = set_threads(threads)
            table = run_solve(rules, max_open, cache_dir, force, console, lang)
    except SolverError as e:
        fail("solve", e, lang)
    except KeyboardInterrupt:
        rich_console(err=True).print(f"kniffel solve: {words('cli.interrupted', lang)}",
                                     markup=False)
        sys.exit(EXIT_INTERRUPTED)
    _print_table(table, rules, n, console, lang)


def _print_table(table: Any, rules: RuleSet, threads: int, console: Console, lang: Lang) -> None:
    """Where the table is, how many states it holds and how long it took, and the expected
    score of the empty sheet (of a table of endgames: how many boxes they have open)."""
    from kniffel.engine.messages import number

    header = table.header
    where = str(table.path) if table.path is not None else words("cli.table_not_kept", lang)
    console.print(words("cli.table", lang, where=where,
                        states=count(table.layout.states, lang), threads=threads), markup=False)
    if header.get("seconds") is not None:
        console.print(words("cli.computed_in", lang,
                            seconds=number(float(header["seconds"]), lang, 2)), markup=False)
    if table.layout.is_full:
        console.print(words("cli.expected_score", lang, rules=rules.name,
                            score=number(table.expected_score(), lang, 4)), markup=False)
    else:
        console.print(words("cli.endgames", lang, most=table.layout.max_open), markup=False)
