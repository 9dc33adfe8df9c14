"""What several commands share: the options ``--rules``, ``--free-strike``, ``--db``, the
strategy choice, the history opened with a sentence on failure, rich's tables and progress
bars (rich is imported on first use)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

import click

from kniffel.cli.localized import both, fail, rich_console
from kniffel.engine.errors import KniffelError
from kniffel.engine.messages import render
from kniffel.engine.messages import text as words
from kniffel.engine.rules import DEFAULT_RULES, PRESETS, RuleSet, StrikeRule, preset
from kniffel.paths import default_db_path

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

    from kniffel.engine.rules import Lang
    from kniffel.history import History


def strategy_names() -> tuple[str, ...]:
    """The registered strategy names (imported on use: the strategies need numpy, which the
    other commands do without)."""
    from kniffel.engine.strategy import strategy_names as names

    return names()



RULES_HELP = both("cli.help.rules")

rules_option = click.option(
    "--rules", "rules_name", type=click.Choice(PRESETS, case_sensitive=False),
    default=DEFAULT_RULES, show_default=True, help=RULES_HELP,
)



class StrategyChoice(click.Choice[str]):
    """The registered strategy names, read when the command line runs (so a strategy registered
    after this module was imported is offered too)."""

    def __init__(self) -> None:
        super().__init__((), case_sensitive=False)

    @property  # type: ignore[override]
    def choices(self) -> Sequence[str]:
        return strategy_names()

    @choices.setter
    def choices(self, value: Sequence[str]) -> None:
        pass  # the registry is the only source of names


CACHE_HELP = both("cli.help.cache")

free_strike_option = click.option(
    "--free-strike", is_flag=True,
    help=both("cli.help.free_strike"))


def ruleset_from_options(rules_name: str, free_strike: bool, command: str,
                         lang: Lang) -> RuleSet:
    """The rule set that ``--rules`` and ``--free-strike`` ask for. ``--free-strike`` with a
    rule set in which any open box may be filled with 0 at any time anyway (the championship
    rules, Yahtzee, the rule sheet) would change nothing: it is refused with a sentence and exit
    status 2 instead of being ignored silently."""
    if free_strike and preset(rules_name).strike is not StrikeRule.FORCED:
        fail(command, words("cli.free_strike_changes_nothing", lang, rules=rules_name), lang)
    return preset(rules_name, free_strike=free_strike)



FORCE_HELP = both("cli.help.force")


def rich_table(title: str | None = None, **options: Any) -> Table:
    """A rich table; rich's table module is imported here, on first use (``kniffel solve``
    starts without it)."""
    from rich.table import Table

    return Table(title=title, **options)


db_option = click.option(
    "--db", "db_path", type=click.Path(dir_okay=False), default=None,
    help=both("cli.help.db", path=default_db_path()))


def open_history(db_path: str | None, command: str, lang: Lang = "de", *,
                  create: bool = True, suffix: str = "") -> History:
    """The history database, or a clear message (followed by ``suffix``) and exit status 2.
    With ``create=False`` (the commands that only read) nothing is written: a missing or empty
    database is not created but read as empty, and a read-only one can be read."""
    try:
        from kniffel.history import History
        return History(db_path, create=create)
    except KniffelError as e:
        fail(command, f"{render(e, lang)}{suffix}", lang)


def no_database(db: History, lang: Lang) -> None:
    """Tell on stderr that the database does not exist (and was not created)."""
    if not db.exists:
        rich_console(err=True).print(words("cli.no_database", lang, where=str(db.path)),
                                 markup=False)


def count_column(lang: Lang) -> Any:
    """A progress bar's "done/total" column with the numbers as ``lang`` writes them
    ("12.000/359.424" in German; rich's own column writes no separators)."""
    from rich.progress import ProgressColumn, Task
    from rich.text import Text

    from kniffel.engine.messages import count

    class CountColumn(ProgressColumn):
        def render(self, task: Task) -> Text:
            total = "?" if task.total is None else count(int(task.total), lang)
            return Text(f"{count(int(task.completed), lang)}/{total}", style="progress.download")

    return CountColumn()


@contextlib.contextmanager
def work_progress(title: str, lang: Lang) -> Iterator[Callable[[int, int], None]]:
    """A progress bar on stderr for a command's long work (where stderr is a terminal; none in
    a file or a pipe), shown once the work has run half a second: the ``step(done, total)``
    the work calls as it goes. The bar is removed when the work ends."""
    import time

    err = rich_console(err=True)
    if not err.is_terminal:
        yield lambda done, total: None
        return
    began = time.monotonic()
    bar = solve_progress(err, lang, transient=True)
    task = None

    def step(done: int, total: int) -> None:
        nonlocal task
        if task is None:
            if time.monotonic() - began < 0.5:
                return
            bar.start()
            task = bar.add_task(title, total=total, rate="")
        bar.update(task, completed=done, total=total)

    try:
        yield step
    finally:
        if task is not None:
            bar.stop()


def solve_progress(console: Console, lang: Lang, *, transient: bool = False) -> Any:
    from rich.progress import (
        BarColumn,
        Progress,
        TaskProgressColumn,
        TextColumn,
        TimeRemainingColumn,
    )

    return Progress(TextColumn("[bold]{task.description}"), BarColumn(bar_width=20),
                    TaskProgressColumn(), count_column(lang), TextColumn("{task.fields[rate]}"),
                    TimeRemainingColumn(), console=console, transient=transient)
