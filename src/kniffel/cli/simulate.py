"""``kniffel simulate``: one strategy plays many games; the totals summarised, plotted."""

from __future__ import annotations

import json
import os
import sys
from typing import TYPE_CHECKING

import click

from kniffel.cli.common import (
    StrategyChoice,
    count_column,
    free_strike_option,
    rich_table,
    rules_option,
    ruleset_from_options,
)
from kniffel.cli.localized import (
    KniffelCommand,
    both,
    fail,
    lang_option,
    rich_console,
    summary,
)
from kniffel.engine.errors import KniffelError
from kniffel.engine.messages import count
from kniffel.engine.messages import strategy_name as shown_strategy
from kniffel.engine.messages import text as words

if TYPE_CHECKING:
    from collections.abc import Sequence

    from rich.table import Table

    from kniffel.engine.rules import Lang, RuleSet
    from kniffel.engine.strategy import Strategy
    from kniffel.simulate import HeadToHeadResult, SimulationResult


@click.command("simulate", cls=KniffelCommand)
@summary("cli.help.command.simulate")
@rules_option
@free_strike_option
@click.option("--strategy", "strategy_names", type=StrategyChoice(), multiple=True,
              default=("greedy",), show_default=True,
              help=both("cli.help.simulate.strategy"))
@click.option("--games", type=click.IntRange(min=1), default=1000, show_default=True,
              help=both("cli.help.simulate.games"))
@click.option("--seed", type=int, default=0, show_default=True,
              help=both("cli.help.simulate.seed"))
@click.option("--plot", type=click.Path(dir_okay=False), default=None,
              help=both("cli.help.simulate.plot"))
@click.option("--json", "as_json", is_flag=True, help=both("cli.help.simulate.json"))
@lang_option
@click.option("--jobs", type=click.IntRange(min=1), default=None,
              help=both("cli.help.simulate.jobs"))
def simulate_cmd(rules_name: str, free_strike: bool, strategy_names: tuple[str, ...],
                 games: int, seed: int, plot: str | None, as_json: bool, lang: Lang,
                 jobs: int | None) -> None:
    """Prints mean, standard deviation, percentiles, bonus rate and, per box, the mean points and
    how often it was struck. A Rich progress bar runs on stderr. Ctrl-C (or SIGTERM) stops the
    run: the games 0…N-1 finished by then are printed as a partial result (the same as
    ``--games N``), exit status 130. A ``--plot`` target is checked before any game runs.

    --strategy given 2 to 8 times: the computer players play against each other, one per seat,
    the start seat going round; per seat the win share with its 95 % interval (ties shared)
    beside the mean, spread and bonus rate.
    """
    from kniffel.engine.strategy import get_strategy
    from kniffel.interrupt import EXIT_INTERRUPTED, shielded
    from kniffel.simulate import SimulationInterrupted, rounded

    ruleset = ruleset_from_options(rules_name, free_strike, "simulate", lang)
    try:
        strategies = [get_strategy(name, ruleset) for name in strategy_names]
    except KniffelError as e:
        fail("simulate", e, lang)
    if len(strategies) > 1:
        if plot is not None:
            fail("simulate", words("simulate.plot_seats", lang), lang)
        head_to_head_cmd(ruleset, strategies, games, seed, as_json, lang, jobs)
        return
    strategy = strategies[0]
    if plot is not None and (problem := plot_target_problem(plot, lang)) is not None:
        fail("simulate", problem, lang)
    try:
        result = _run(ruleset, strategy, games, seed, jobs or os.cpu_count() or 1, lang)
    except KeyboardInterrupt as e:
        with shielded():  # a second Ctrl-C does not cut the partial result short
            partial = e.partial if isinstance(e, SimulationInterrupted) else None
            _print_interrupted(partial, ruleset, strategy.name, games, seed, plot, as_json, lang)
        sys.exit(EXIT_INTERRUPTED)
    if plot is not None:
        _draw(result, plot, lang)
    if as_json:
        click.echo(json.dumps(rounded(result.to_json())))
    else:
        _print_simulation(result, ruleset, lang)


def _run(ruleset: RuleSet, strategy: Strategy, games: int, seed: int, jobs: int,
         lang: Lang) -> SimulationResult:
    """:func:`kniffel.simulate.simulate` with a progress bar on stderr (in a terminal);
    Ctrl-C or SIGTERM raise ``KeyboardInterrupt`` (with the games finished by then)."""
    from rich.progress import BarColumn, Progress, TimeRemainingColumn

    from kniffel.interrupt import interruptible
    from kniffel.simulate import simulate

    err = rich_console(err=True)
    with interruptible(), Progress(
            "[progress.description]{task.description}", BarColumn(), count_column(lang),
            TimeRemainingColumn(), console=err, transient=True,
            disable=not err.is_terminal) as bar:
        task = bar.add_task(f"{shown_strategy(strategy.name, lang)} / {ruleset.title(lang)}",
                            total=games)
        return simulate(ruleset, strategy, games, seed,
                        progress=lambda done, _n: bar.update(task, completed=done), jobs=jobs)


def head_to_head_cmd(ruleset: RuleSet, strategies: list[Strategy], games: int, seed: int,
                     as_json: bool, lang: Lang, jobs: int | None) -> None:
    """``kniffel simulate`` with a strategy per seat: every seat's win share with its 95 %
    interval beside the statistics of its totals (:func:`kniffel.simulate.head_to_head`);
    too many seats are refused with the catalog's sentence (exit status 2), Ctrl-C prints the
    games finished so far (exit status 130)."""
    from rich.progress import BarColumn, Progress, TimeRemainingColumn

    from kniffel.engine.game import MAX_PLAYERS
    from kniffel.interrupt import EXIT_INTERRUPTED, interruptible, shielded
    from kniffel.simulate import HeadToHeadInterrupted, head_to_head, rounded

    if len(strategies) > MAX_PLAYERS:
        fail("simulate", words("simulate.seats", lang, most=MAX_PLAYERS,
                               got=len(strategies)), lang)
    err = rich_console(err=True)
    label = " / ".join(shown_strategy(s.name, lang) for s in strategies)
    try:
        with interruptible(), Progress(
                "[progress.description]{task.description}", BarColumn(), count_column(lang),
                TimeRemainingColumn(), console=err, transient=True,
                disable=not err.is_terminal) as bar:
            task = bar.add_task(f"{label} / {ruleset.title(lang)}", total=games)
            result = head_to_head(ruleset, strategies, games, seed,
                                  jobs=jobs or os.cpu_count() or 1,
                                  progress=lambda done, _n: bar.update(task, completed=done))
    except KeyboardInterrupt as e:
        with shielded():
            partial = e.partial if isinstance(e, HeadToHeadInterrupted) else None
            done = partial.games if partial is not None else 0
            sentence = words("simulate.interrupted", lang, done=count(done, lang),
                             games=count(games, lang))
            err.print(f"kniffel simulate: {sentence}", markup=False)
            if as_json:
                data = (rounded(partial.to_json()) if partial is not None else
                        {"rules": ruleset.name, "strategies": [s.name for s in strategies],
                         "seed": seed, "games": 0, "partial": True,
                         "games_requested": games, "seats": []})
                click.echo(json.dumps(data))
            elif partial is not None:
                _print_head_to_head(partial, lang)
        sys.exit(EXIT_INTERRUPTED)
    if as_json:
        click.echo(json.dumps(rounded(result.to_json())))
    else:
        _print_head_to_head(result, lang)


def _print_head_to_head(result: HeadToHeadResult, lang: Lang) -> None:
    """The seats' table (strategy, wins, win share with its 95 % interval, mean, spread, median,
    bonus rate), the strategies' where one plays more than one seat, and how the start goes
    round."""
    from rich import box

    from kniffel.engine.messages import number, percent
    from kniffel.simulate import head_to_head_title, wilson

    def interval(lo: float, hi: float) -> str:
        return words("simulate.interval", lang, lo=number(100 * lo, lang),
                     hi=number(100 * hi, lang))

    def table_of(keys: Sequence[str], title: str | None = None) -> Table:
        # the compact form of the review's tables: eight columns fit 80 characters
        table = rich_table(title=title, title_justify="left", box=box.SIMPLE_HEAD,
                           show_edge=False, pad_edge=False, collapse_padding=True,
                           padding=(0, 1, 0, 0))
        for key in keys:
            table.add_column(words(f"simulate.{key}", lang),
                             justify="left" if key == "col_strategy" else "right",
                             no_wrap=key != "col_strategy")
        return table

    console = rich_console()
    console.print(head_to_head_title(result, lang), markup=False, soft_wrap=False)
    table = table_of(("col_seat", "col_strategy", "col_wins", "col_share", "col_interval",
                      "col_mean", "col_std", "col_bonus"))
    for i, seat in enumerate(result.seats):
        table.add_row(count(i + 1, lang), shown_strategy(seat.strategy, lang),
                      number(result.wins[i], lang), percent(result.share(i), lang),
                      interval(*result.interval(i)), number(seat.mean, lang),
                      number(seat.std, lang), percent(seat.bonus_rate, lang))
    console.print(table)
    per = result.by_strategy()
    if len(per) < len(result.strategies):
        console.print("")
        strategies = table_of(("col_strategy", "col_seats", "col_share", "col_interval"),
                              words("simulate.by_strategy", lang))
        for name, (seats, share) in per.items():
            strategies.add_row(shown_strategy(name, lang), count(seats, lang),
                               percent(share, lang), interval(*wilson(share, result.games)))
        console.print(strategies)
    console.print(words("simulate.start_rotates", lang), markup=False, soft_wrap=False)
    console.print(f"{words('simulate.speed', lang)}: {number(result.games_per_second, lang)}",
                  markup=False, soft_wrap=False)


def _draw(result: SimulationResult, plot: str, lang: Lang) -> None:
    """Draw the plot to ``plot``; a failure is a sentence and exit status 2, Ctrl-C skips it
    (exit status 130)."""
    from kniffel.interrupt import EXIT_INTERRUPTED, interruptible

    try:
        with interruptible():
            problem = _plot(result, plot, lang)
    except KeyboardInterrupt:
        rich_console(err=True).print(f"kniffel simulate: {words('interrupt.stopped', lang)} "
                                     f"{words('simulate.plot_skipped', lang, where=plot)}",
                                     markup=False)
        sys.exit(EXIT_INTERRUPTED)
    if problem is not None:
        fail("simulate", problem, lang)


def _print_interrupted(partial: SimulationResult | None, rules: RuleSet, strategy: str,
                       games: int, seed: int, plot: str | None, as_json: bool,
                       lang: Lang) -> None:
    """After Ctrl-C: "interrupted after N of M games" on stderr, then the result of those N
    games (JSON with ``"partial": true`` and ``"games_requested"``); no plot is drawn."""
    done = partial.games if partial is not None else 0
    sentence = words("simulate.interrupted", lang, done=count(done, lang), games=count(games, lang))
    if plot is not None:
        sentence += " " + words("simulate.plot_skipped", lang, where=plot)
    rich_console(err=True).print(f"kniffel simulate: {sentence}", markup=False)
    if as_json:
        from kniffel.simulate import rounded

        data = (rounded(partial.to_json()) if partial is not None else
                {"rules": rules.name, "strategy": strategy, "seed": seed, "games": 0,
                 "partial": True, "games_requested": games, "totals": []})
        click.echo(json.dumps(data))
    elif partial is not None:
        _print_simulation(partial, rules, lang)


def _print_simulation(result: SimulationResult, rules: RuleSet, lang: Lang) -> None:
    """The summary table (mean, spread, percentiles, bonus rate, speed) and the box table."""
    from kniffel.engine.messages import number, percent
    from kniffel.simulate import simulation_title

    console = rich_console()
    summary = rich_table(title=simulation_title(result, lang), show_header=False)
    summary.add_column("")
    summary.add_column("", justify="right")
    rows: list[tuple[str, str]] = [
        (words("simulate.mean", lang), number(result.mean, lang)),
        (words("simulate.std", lang), number(result.std, lang)),
        (words("simulate.min", lang), count(min(result.totals), lang)),
    ]
    rows += [(words("simulate.percentile", lang, p=p), number(v, lang))
             for p, v in result.percentiles().items()]
    rows += [
        (words("simulate.max", lang), count(max(result.totals), lang)),
        (words("simulate.bonus_rate", lang), percent(result.bonus_rate, lang)),
    ]
    if rules.chips:
        rows.append((words("simulate.chips", lang), number(result.chips_per_game, lang, 2)))
    rows += [
        (words("simulate.speed", lang), number(result.games_per_second, lang)),
    ]
    for label, value in rows:
        summary.add_row(label, value)
    console.print(summary)
    boxes = rich_table()
    boxes.add_column(words("simulate.col_box", lang))
    boxes.add_column(words("simulate.col_mean", lang), justify="right")
    boxes.add_column(words("simulate.col_struck", lang), justify="right")
    for box in rules.boxes:
        boxes.add_row(rules.box_name(box, lang), number(result.box_mean(box), lang, 2),
                      percent(result.strike_rate(box), lang),
                      end_section=box is rules.upper_boxes[-1])
    console.print(boxes)


def plot_target_problem(path: str, lang: Lang) -> str | None:
    """Why a PNG cannot be written to ``path``, as a sentence, or ``None`` when it can (and
    matplotlib loads): checked before any game runs (:func:`kniffel.storage.check_new_file`)."""
    from kniffel.storage import check_new_file

    try:
        check_new_file(path)
    except KniffelError as e:
        from kniffel.engine.messages import render

        return render(e, lang)
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot
    except Exception:  # an ImportError, or a broken installation: no traceback either way
        return words("simulate.no_matplotlib", lang)
    return None


def _plot(result: SimulationResult, path: str, lang: Lang) -> str | None:
    """Draw the plot of ``result`` to ``path``; why that failed, as a sentence, or ``None``."""
    from kniffel.simulate import plot_totals
    from kniffel.storage import os_sentence

    try:
        plot_totals(result, path, lang)
    except OSError as e:
        return os_sentence(e, lang, path, doing="write")
    except Exception:  # matplotlib's own failures: one sentence, no traceback
        return words("simulate.plot_failed", lang, where=path)
    return None
