"""The ``kniffel`` command line: a thin layer over the library."""

from __future__ import annotations

import gc
import json
import math
import os
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

import click
from rich.console import Console

from kniffel import __version__
from kniffel.dice import Roll
from kniffel.errors import KniffelError
from kniffel.lang import default_lang
from kniffel.messages import dice_text, render, rules_title
from kniffel.messages import strategy_name as shown_strategy
from kniffel.messages import text as words
from kniffel.paths import default_db_path
from kniffel.rules import (
    BOX_TEXTS,
    DEFAULT_RULES,
    FLAT_POINTS,
    PRESETS,
    Box,
    Lang,
    RuleSet,
    describe,
    evaluate,
    preset,
)

# Imported where used: the game, its saves, the history database and rich's tables (_table)
# are not needed by every command (``kniffel solve`` starts without them).
if TYPE_CHECKING:
    from rich.table import Table

    from kniffel.game import Game
    from kniffel.history import History
    from kniffel.simulate import SimulationResult


def strategy_names() -> tuple[str, ...]:
    """The registered strategy names (imported on use: the strategies need numpy, which the
    other commands do without)."""
    from kniffel.strategy import strategy_names as names

    return names()

RULES_HELP = "Regelwerk / rule set"
LANG_KEY = "kniffel.lang"

rules_option = click.option(
    "--rules", "rules_name", type=click.Choice(PRESETS, case_sensitive=False),
    default=DEFAULT_RULES, show_default=True, help=RULES_HELP,
)


def _remember_lang(ctx: click.Context, _param: click.Parameter, value: Lang) -> Lang:
    """Keep the chosen language where the error handler of :class:`KniffelGroup` finds it."""
    ctx.meta[LANG_KEY] = value
    return value


lang_option = click.option(
    "--lang", type=click.Choice(["de", "en"]), default=default_lang, callback=_remember_lang,
    is_eager=True,
    help="Sprache / language (Standard/default: aus der Locale / from the locale; Deutsch, wenn "
         "sie nichts sagt / German when it says nothing)",
)


def _message(error: BaseException, lang: Lang) -> str:
    """An error as a player reads it: a kniffel error from the message catalog, a file that
    cannot be read or written by its name and the reason in words."""
    if isinstance(error, OSError):
        where = str(error.filename) if error.filename is not None else "?"
        if isinstance(error, FileNotFoundError):
            return words("os.not_found", lang, where=where)
        if isinstance(error, PermissionError):
            return words("os.permission", lang, where=where)
        if isinstance(error, IsADirectoryError):
            return words("os.is_folder", lang, where=where)
        if isinstance(error, NotADirectoryError):
            return words("os.not_a_folder", lang, where=where)
        return words("os.error", lang, where=where)
    return render(error, lang)


def _write_failed(path: str, error: OSError, lang: Lang) -> str:
    """Why the file ``path`` could not be written, in words."""
    if isinstance(error, FileNotFoundError):
        return words("os.no_folder", lang, where=path)
    if isinstance(error, PermissionError):
        return words("os.permission", lang, where=path)
    return words("os.cannot_write", lang, where=path)


def _fail(command: str, error: BaseException | str, lang: Lang) -> NoReturn:
    """Print ``kniffel COMMAND: <the error in words>`` on stderr and exit with status 2."""
    words = error if isinstance(error, str) else _message(error, lang)
    _console(err=True).print(f"kniffel {command}: {words}", markup=False)
    sys.exit(2)


class KniffelGroup(click.Group):
    """The command group: a kniffel error that a command did not handle itself is still shown
    in words, in the command's language, with exit status 2 — never as a traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KniffelError as e:
            lang = ctx.meta.get(LANG_KEY) or default_lang()
            name = ctx.invoked_subcommand or "kniffel"
            _fail(name, e, lang)


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


CACHE_HELP = ("Ablage der Wertetabellen / where the value tables are kept (Standard/default: "
              "$KNIFFEL_CACHE_DIR, sonst/else $XDG_CACHE_HOME/kniffel/solver)")

free_strike_option = click.option(
    "--free-strike", is_flag=True,
    help="Hausregel: jederzeit streichen / house rule: strike any box any time")


def _console(err: bool = False) -> Console:
    return Console(stderr=err, highlight=False, soft_wrap=True)


def _table(title: str | None = None, **options: Any) -> Table:
    """A rich table; rich's table module is imported here, on first use (``kniffel solve``
    starts without it)."""
    from rich.table import Table

    return Table(title=title, **options)


@click.group(cls=KniffelGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="kniffel")
def main() -> None:
    """Kniffel Extreme und klassisches Kniffel: Browser-App, Terminalspiel, Computergegner,
    optimale Strategie, Regeln, Wertung, Spielstände.

    Kniffel Extreme and classic Kniffel: browser app (kniffel web), terminal game (kniffel
    play), computer players, optimal strategy (kniffel solve / advise), rules, scoring, saves.

    Rule sets / Regelwerke: extreme (Kniffel Extreme, default), kniffel (classic German rules),
    kniffel-championship (championship rules), yahtzee (official Hasbro rules).
    """


def _roll_json(rules: RuleSet, roll: Roll) -> str:
    values = evaluate(roll)
    boxes = {b.value: {"points": values[b] or 0, "fits": values[b] is not None}
             for b in rules.boxes}
    return json.dumps({"dice": list(roll.values), "boxes": boxes}, separators=(",", ":"))


def _roll_line(rules: RuleSet, roll: Roll) -> str:
    values = evaluate(roll)
    fitting = [f"{b.value} {values[b]}" for b in rules.boxes if values[b] is not None]
    return f"{roll}: {', '.join(fitting)}"


def _roll_table(rules: RuleSet, roll: Roll, lang: Lang) -> Table:
    values = evaluate(roll)
    de = lang == "de"
    table = _table(title=f"{'Wurf' if de else 'Roll'} {dice_text(roll.d6, roll.d10, lang)}  "
                         f"({rules.title(lang)})")
    table.add_column("Kästchen" if de else "Box")
    table.add_column("id", style="dim")
    table.add_column("Punkte" if de else "Points", justify="right")
    table.add_column("passt" if de else "fits", justify="center")
    for b in rules.boxes:
        v = values[b]
        table.add_row(rules.box_name(b, lang), b.value, str(v or 0),
                      ("ja" if de else "yes") if v is not None else "–",
                      style=None if v is not None else "dim")
    return table


def _read_rolls(rules: RuleSet, lines: Iterable[str], out: TextIO, as_json: bool,
                lang: Lang) -> int:
    errors = 0
    err = _console(err=True)
    for number, line in enumerate(lines, start=1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        try:
            roll = rules.parse_roll(text)
        except KniffelError as e:
            err.print(f"kniffel score: {words('cli.line', lang, line=number)}: "
                      f"{render(e, lang)}", markup=False)
            errors += 1
            continue
        out.write((_roll_json(rules, roll) if as_json else _roll_line(rules, roll)) + "\n")
    return errors


# Negative numbers are dice to complain about, not options: "-1" must reach the dice check.
@main.command(context_settings={"ignore_unknown_options": True})
@rules_option
@click.option("--json", "as_json", is_flag=True,
              help="one JSON object per roll and line / ein JSON-Objekt je Wurf und Zeile")
@lang_option
@click.argument("dice", nargs=-1)
def score(rules_name: str, as_json: bool, lang: Lang, dice: tuple[str, ...]) -> None:
    """Punkte jedes Kästchens für einen Wurf / the points of every box for one roll.

    DICE: for extreme six values, the five d6 (1–6) then the d10 (0–9) last; for the classic
    rule sets five d6. Separate them by spaces or commas ("5 5 5 6 6 6" or "5,5,5,6,6,6").
    Without DICE, rolls are read from standard input, one per line.

    \b
    Examples:
      kniffel score 5 5 5 6 6 6
      kniffel score --rules kniffel --json 3,3,3,5,5
      printf '1 2 3 4 5 0\\n6 6 6 6 6 6\\n' | kniffel score --json
    """
    rules = preset(rules_name)
    for arg in dice:
        if arg.startswith("-") and not arg.lstrip("-").isdigit():
            raise click.NoSuchOption(arg)
    if not dice:
        errors = _read_rolls(rules, sys.stdin, sys.stdout, as_json, lang)
        if errors:
            sys.exit(2)
        return
    try:
        roll = rules.parse_roll(" ".join(dice))
    except KniffelError as e:
        _fail("score", e, lang)
    if as_json:
        click.echo(_roll_json(rules, roll))
    else:
        _console().print(_roll_table(rules, roll, lang))


def _points_text(rules: RuleSet, box: Box, lang: Lang) -> str:
    de = lang == "de"
    if box in FLAT_POINTS:
        return str(FLAT_POINTS[box])
    if box.face is not None:
        top = rules.max_points(box)
        return f"Summe der {box.face}er (0–{top})" if de else f"sum of the {box.face}s (0–{top})"
    if box is Box.SUPER_CHANCE:
        return "2× Summe" if de else "2× sum"
    return "Summe" if de else "sum"


@main.command()
@rules_option
@free_strike_option
@lang_option
def rules(rules_name: str, free_strike: bool, lang: Lang) -> None:
    """Der Spielblock eines Regelwerks / the score sheet of a rule set.

    Lists every box with its condition and points, then the bonus, chips, strike and joker
    rules.
    """
    ruleset = preset(rules_name, free_strike=free_strike)
    de = lang == "de"
    table = _table(title=ruleset.title(lang))
    console = _console()
    # The ids (for the API and --json) only where the terminal has room for them.
    with_ids = console.width >= 110
    table.add_column("Kästchen" if de else "Box", no_wrap=True)
    if with_ids:
        table.add_column("id", style="dim", no_wrap=True)
    table.add_column("Bedingung" if de else "Condition")
    table.add_column("Punkte" if de else "Points", justify="right", no_wrap=True)
    for box in ruleset.boxes:
        ids = [box.value] if with_ids else []
        table.add_row(ruleset.box_name(box, lang), *ids, BOX_TEXTS[box].rule(lang),
                      _points_text(ruleset, box, lang),
                      end_section=box is ruleset.upper_boxes[-1])
    console.print(table)
    for line in describe(ruleset, lang):
        console.print(f"• {line}", markup=False)


@main.command()
@click.argument("save", type=click.Path(dir_okay=False))
@lang_option
def show(save: str, lang: Lang) -> None:
    """Den Spielblock eines gespeicherten Spiels zeigen / show the sheet of a saved game."""
    try:
        from kniffel.storage import load_game
        game = load_game(save)
    except (KniffelError, OSError) as e:
        _fail("show", e, lang)
    _console().print(sheet_table(game, lang))


def sheet_table(game: Game, lang: Lang = "de") -> Table:
    """The score sheet of ``game``: a column per player, totals and the leader or winner."""
    rules = game.rules
    de = lang == "de"
    table = _table(title=rules.title(lang))
    table.add_column("Kästchen" if de else "Box")
    sheets = [game.sheet(i) for i in range(len(game.players))]
    for i, p in enumerate(game.players):
        marker = " ◀" if i == game.current_player else ""
        table.add_column(p.name + marker, justify="right")
    for box in rules.boxes:
        cells = []
        for s in sheets:
            e = s.entries.get(box)
            cells.append("" if e is None else ("–" if e.struck else str(e.points)))
        table.add_row(rules.box_name(box, lang), *cells,
                      end_section=box is rules.upper_boxes[-1])
    rows = [
        ("Summe oben" if de else "Upper sum", [s.upper_sum for s in sheets]),
        (f"{'noch bis Bonus' if de else 'to bonus'}", [s.bonus_missing for s in sheets]),
        ("Bonus", [s.bonus for s in sheets]),
        ("Summe unten" if de else "Lower sum", [s.lower_sum for s in sheets]),
    ]
    if rules.extra_kniffel_bonus:
        rows.append(("Extra-Kniffel" if de else "Extra Kniffel", [s.extra_bonus for s in sheets]))
    if rules.chips:
        rows.append(("Chips", [s.chips_left for s in sheets]))
    for label, vals in rows:
        table.add_row(label, *map(str, vals), style="dim")
    table.add_row("Gesamt" if de else "Total", *(str(s.total) for s in sheets), style="bold")
    return table


# --- kniffel simulate -------------------------------------------------------------------------


@main.command()
@rules_option
@free_strike_option
@click.option("--strategy", "strategy_name", type=StrategyChoice(), default="greedy",
              show_default=True,
              help="Computerspieler / computer player: greedy (gierig), random (zufällig), "
                   "optimal (needs the solver's table / braucht die Wertetabelle)")
@click.option("--games", type=click.IntRange(min=1), default=1000, show_default=True,
              help="Anzahl Spiele / number of games")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Startwert der Würfel / random seed (same seed, same result)")
@click.option("--plot", type=click.Path(dir_okay=False), default=None,
              help="PNG-Histogramm der Summen / PNG histogram of the totals")
@click.option("--json", "as_json", is_flag=True, help="Ergebnis als JSON / result as JSON")
@lang_option
@click.option("--jobs", type=click.IntRange(min=1), default=None,
              help="Prozesse / processes (Standard/default: alle Kerne / all cores)")
def simulate_cmd(rules_name: str, free_strike: bool, strategy_name: str, games: int, seed: int,
                 plot: str | None, as_json: bool, lang: Lang, jobs: int | None) -> None:
    """Solospiele eines Computerspielers simulieren / simulate solitaire games of a strategy.

    Prints mean, standard deviation, percentiles, bonus rate and, per box, the mean points and
    how often it was struck. A Rich progress bar runs on stderr.
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from kniffel.simulate import simulate
    from kniffel.strategy import get_strategy

    ruleset = preset(rules_name, free_strike=free_strike)
    err = _console(err=True)
    try:
        strategy = get_strategy(strategy_name, ruleset)
    except KniffelError as e:
        _fail("simulate", e, lang)
    with Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), console=err, transient=True) as bar:
        task = bar.add_task(f"{shown_strategy(strategy.name, lang)} / {ruleset.title(lang)}",
                            total=games)
        result = simulate(ruleset, strategy, games, seed,
                          progress=lambda done, _n: bar.update(task, completed=done),
                          jobs=jobs or os.cpu_count() or 1)
    if plot is not None:
        try:
            plot_totals(result, plot, lang)
        except OSError as e:
            _fail("simulate", _write_failed(plot, e, lang), lang)
    if as_json:
        click.echo(json.dumps(rounded(result.to_json())))
        return
    _print_simulation(result, ruleset, lang)


simulate_cmd.name = "simulate"


def _print_simulation(result: SimulationResult, rules: RuleSet, lang: Lang) -> None:
    de = lang == "de"
    console = _console()
    summary = _table(title=f"{rules.title(lang)} · {shown_strategy(result.strategy, lang)} · "
                           f"{result.games} {'Spiele' if de else 'games'} · seed {result.seed}",
                     show_header=False)
    summary.add_column("")
    summary.add_column("", justify="right")
    rows: list[tuple[str, str]] = [
        ("Mittelwert" if de else "Mean", f"{result.mean:.1f}"),
        ("Standardabweichung" if de else "Standard deviation", f"{result.std:.1f}"),
        ("Minimum", str(min(result.totals))),
    ]
    rows += [(f"{p}. Perzentil" if de else f"{p}th percentile", f"{v:.1f}")
             for p, v in result.percentiles().items()]
    rows += [
        ("Maximum", str(max(result.totals))),
        ("Bonusquote" if de else "Bonus rate", f"{100 * result.bonus_rate:.1f} %"),
    ]
    if rules.chips:
        rows.append(("Chips je Spiel eingesetzt" if de else "Chips handed in per game",
                     f"{result.chips_per_game:.2f}"))
    rows += [
        ("Spiele/s" if de else "Games/s", f"{result.games_per_second:.1f}"),
    ]
    for label, value in rows:
        summary.add_row(label, value)
    console.print(summary)
    boxes = _table()
    boxes.add_column("Kästchen" if de else "Box")
    boxes.add_column("Ø Punkte" if de else "Mean points", justify="right")
    boxes.add_column("gestrichen" if de else "struck", justify="right")
    for box in rules.boxes:
        boxes.add_row(rules.box_name(box, lang), f"{result.box_mean(box):.2f}",
                      f"{100 * result.strike_rate(box):.1f} %",
                      end_section=box is rules.upper_boxes[-1])
    console.print(boxes)


def rounded(value: Any, digits: int = 4) -> Any:
    """``value`` (JSON: dicts, lists, numbers) with every float rounded to ``digits`` decimals,
    so that ``733.0500000000002`` is written ``733.05``."""
    if isinstance(value, float):
        return round(value, digits)
    if isinstance(value, dict):
        return {k: rounded(v, digits) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [rounded(v, digits) for v in value]
    return value


def histogram_bins(totals: Sequence[int]) -> int:
    """About the square root of the number of games (5–60 bins), never more than there are
    different totals: 200 games get 14 bins."""
    n = len(totals)
    return max(1, min(len(set(totals)), max(5, min(60, round(math.sqrt(n))))))


def plot_totals(result: SimulationResult, path: str, lang: Lang = "de") -> None:
    """Write a PNG histogram of ``result``'s totals to ``path`` (matplotlib, no display)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    de = lang == "de"
    fig, ax = plt.subplots(figsize=(8, 4.5))
    try:
        ax.hist(result.totals, bins=histogram_bins(result.totals), color="#3b6ea8",
                edgecolor="white")
        ax.axvline(result.mean, color="#c0392b", linestyle="--",
                   label=f"{'Mittelwert' if de else 'mean'} {result.mean:.1f}")
        ax.set_xlabel("Gesamtpunkte" if de else "Total points")
        ax.set_ylabel("Spiele" if de else "Games")
        ax.set_title(f"{rules_title(result.rules, lang)} · "
                     f"{shown_strategy(result.strategy, lang)} · {result.games} "
                     f"{'Spiele' if de else 'games'} · seed {result.seed}")
        ax.legend()
        fig.tight_layout()
        fig.savefig(path, format="png")
    finally:
        plt.close(fig)




# --- history, statistics, export and import ----------------------------------------------------

db_option = click.option(
    "--db", "db_path", type=click.Path(dir_okay=False), default=None,
    help=f"Spielverlauf-Datenbank / history database (Standard/default: {default_db_path()})")


def _open_history(db_path: str | None, command: str, lang: Lang = "de", *,
                  create: bool = True) -> History:
    """The history database, or a clear message and exit status 2. With ``create=False`` (the
    commands that only read) a missing database is not created: it is read as empty."""
    try:
        from kniffel.history import History
        return History(db_path, create=create)
    except KniffelError as e:
        _fail(command, e, lang)


def _no_database(db: History, lang: Lang) -> None:
    """Tell on stderr that the database does not exist (and was not created)."""
    if not db.exists:
        _console(err=True).print(words("cli.no_database", lang, where=str(db.path)),
                                 markup=False)


@main.command()
@db_option
@click.option("--limit", type=click.IntRange(min=1), default=None,
              help="höchstens so viele Spiele / at most this many games")
@lang_option
def history(db_path: str | None, limit: int | None, lang: Lang) -> None:
    """Gespeicherte Spiele auflisten / list the stored games (most recent first)."""
    de = lang == "de"
    with _open_history(db_path, "history", lang, create=False) as db:
        _no_database(db, lang)
        try:
            records = db.games(limit)
        except KniffelError as e:
            _fail("history", e, lang)
    table = _table(title="Spielverlauf" if de else "Game history")
    table.add_column("#", justify="right")
    table.add_column("Beginn" if de else "Started")
    table.add_column("Regeln" if de else "Rules")
    table.add_column("Spieler und Punkte" if de else "Players and totals")
    table.add_column("Stand" if de else "State")
    for r in records:
        people = ", ".join(n if t is None else f"{n} {t}" for n, t in zip(r.players, r.totals,
                                                                          strict=True))
        if r.finished:
            state = "beendet" if de else "finished"
        else:
            state = (f"offen ({r.actions} Züge)" if de else f"unfinished ({r.actions} actions)")
        table.add_row(str(r.id), r.started_at.replace("T", " ")[:16], rules_title(r.rules, lang),
                      people, state)
    if not records:
        _console().print("Noch keine Spiele gespeichert." if de else "No games stored yet.")
        return
    _console().print(table)


@main.command()
@db_option
@click.option("--player", default=None, help="nur dieser Spieler / only this player")
@lang_option
def stats(db_path: str | None, player: str | None, lang: Lang) -> None:
    """Statistik beendeter Spiele / statistics of finished games, per player and rule set."""
    de = lang == "de"
    with _open_history(db_path, "stats", lang, create=False) as db:
        _no_database(db, lang)
        try:
            rows = db.stats(player)
        except KniffelError as e:
            _fail("stats", e, lang)
    if not rows:
        who = f" ({player})" if player else ""
        _console().print(f"Keine beendeten Spiele{who}." if de else f"No finished games{who}.",
                         markup=False)
        return
    table = _table(title="Statistik" if de else "Statistics")
    for head in (("Spieler", "Player"), ("Regeln", "Rules"), ("Spiele", "Games"),
                 ("Siege", "Wins"), ("Ø Punkte", "Average"), ("Bestwert", "Best"),
                 ("Bonusquote", "Bonus rate"), ("Kniffelquote", "Kniffel rate")):
        table.add_column(head[0] if de else head[1], justify="left" if head[0] in (
            "Spieler", "Regeln") else "right")
    for s in rows:
        table.add_row(s.name, rules_title(s.rules, lang), str(s.games), str(s.wins),
                      f"{s.average:.1f}",
                      str(s.best), f"{100 * s.bonus_rate:.0f} %",
                      f"{100 * s.kniffel_rate:.0f} %")
    _console().print(table)


@main.command()
@db_option
@lang_option
@click.argument("target", type=click.Path(dir_okay=False, allow_dash=True), default="-")
def export(db_path: str | None, lang: Lang, target: str) -> None:
    """Alle Spiele als Verlaufsdatei (JSON) exportieren / export every game as a history file
    (JSON) to TARGET or stdout.

    The file is the one the browser app imports too (format kniffel-history, version 2: uid,
    start and finish time and the game of every stored game).
    """
    from kniffel.storage import write_atomic

    with _open_history(db_path, "export", lang, create=False) as db:
        _no_database(db, lang)
        try:
            data = db.export()
        except KniffelError as e:
            _fail("export", e, lang)
    out = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
    if target == "-":
        click.echo(out, nl=False)
        return
    try:
        write_atomic(Path(target), out)
    except OSError as e:
        _fail("export", _write_failed(target, e, lang), lang)
    _console(err=True).print(words("cli.exported", lang, count=len(data["games"]), where=target),
                             markup=False)


@main.command("import")
@db_option
@lang_option
@click.argument("source", type=click.Path(dir_okay=False, allow_dash=True))
def import_cmd(db_path: str | None, lang: Lang, source: str) -> None:
    """Spiele aus einer Verlaufsdatei übernehmen / import the games of a history file.

    Reads the desktop's and the browser app's exports (every version). Every game is checked
    first; an invalid file is refused and nothing is changed (no database is created). Games
    already stored (same uid) are skipped and counted.
    """
    from kniffel.history_file import decode_history

    try:
        raw = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    except OSError as e:
        _fail("import", f"{_message(e, lang)} {words('cli.nothing_imported', lang)}", lang)
    except UnicodeDecodeError:
        _fail("import", f"{source}: {words('file.not_utf8', lang)} "
                        f"{words('cli.nothing_imported', lang)}", lang)
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        _fail("import", f"{source}: {words('file.not_json', lang)} "
                        f"{words('cli.nothing_imported', lang)}", lang)
    try:
        entries = decode_history(data)
    except KniffelError as e:
        _fail("import", f"{source}: {render(e, lang)} {words('cli.nothing_imported', lang)}",
              lang)
    with _open_history(db_path, "import", lang) as db:
        try:
            result = db.add_entries(entries)
        except KniffelError as e:
            _fail("import", f"{render(e, lang)} {words('cli.nothing_imported', lang)}", lang)
    _console().print(words("cli.imported", lang, imported=result.imported,
                          skipped=result.skipped), markup=False)


# --- kniffel play -------------------------------------------------------------------------------


@main.command()
@rules_option
@free_strike_option
@click.option("--lang", type=click.Choice(["de", "en"]), default=default_lang,
              help="Sprache / language (Standard/default: from the locale, German when unknown)")
@db_option
@click.option("--resume", is_flag=True,
              help="das letzte offene Spiel fortsetzen / continue the last unfinished game")
@click.option("--player", "players", multiple=True, metavar="NAME[:STRATEGY]",
              help="Spieler ohne Setup-Bildschirm, z. B. --player Anna --player Bot:greedy / "
                   "players without the setup screen")
@click.option("--start", type=click.IntRange(min=1, max=8), default=None,
              help="Startspieler (1–8) statt auswürfeln / start player instead of a roll-off")
@click.option("--speed", type=click.FloatRange(min=0), default=0.5, show_default=True,
              help="Sekunden pro Computerschritt / seconds per computer step")
@click.option("--seed", type=int, default=None, help="Würfel-Startwert / dice seed")
def play(rules_name: str, free_strike: bool, lang: Lang, db_path: str | None, resume: bool,
         players: tuple[str, ...], start: int | None, speed: float, seed: int | None) -> None:
    """Kniffel im Terminal spielen / play kniffel in the terminal (full screen).

    Without --player a setup screen asks for the rule set and players. Every action is saved in
    the history database as it happens: quit with q at any time, continue with --resume.
    """
    from kniffel.match import parse_seat, validate_players
    from kniffel.tui import KniffelApp

    err = _console(err=True)
    ruleset = preset(rules_name, free_strike=free_strike)
    try:  # players, names and strategies are checked before any file or screen is opened
        seats = [parse_seat(p) for p in players]
        if seats:
            validate_players(seats, ruleset)
    except KniffelError as e:
        err.print(f"kniffel play: {render(e, lang)}", markup=False)
        sys.exit(2)
    if start is not None and start > max(len(seats), 1):
        err.print(f"kniffel play: --start {start}, but there are {len(seats)} players",
                  markup=False)
        sys.exit(2)
    with _open_history(db_path, "play") as db:
        found = None
        if resume:
            try:
                found = db.latest_unfinished()
            except KniffelError as e:
                err.print(f"kniffel play: {render(e, lang)}", markup=False)
                sys.exit(2)
            if found is None:
                err.print(f"kniffel play: {words('cli.no_unfinished', lang)}", markup=False)
                sys.exit(2)
            for p in found[1].players:
                if p.strategy is not None and p.strategy not in strategy_names():
                    err.print(f"kniffel play: unknown strategy {p.strategy!r} of {p.name}; the "
                              f"strategies are: {', '.join(strategy_names())}", markup=False)
                    sys.exit(2)
        try:
            app = KniffelApp(lang=lang, rules=ruleset, history=db, seats=seats, resume=found,
                             speed=speed, seed=seed, start=None if start is None else start - 1)
            app.run()
        except KniffelError as e:
            err.print(f"kniffel play: {render(e, lang)}", markup=False)
            sys.exit(2)
    report = app.quit_report()
    if report:
        err.print(report, markup=False)
    if app.unsaved_on_exit:
        sys.exit(1)


# --- solver: kniffel solve / kniffel advise -------------------------------------------------


def _solve_progress(console: Console) -> Any:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TaskProgressColumn,
        TextColumn,
        TimeRemainingColumn,
    )

    return Progress(TextColumn("[bold]{task.description}"), BarColumn(bar_width=20),
                    TaskProgressColumn(), MofNCompleteColumn(), TextColumn("{task.fields[rate]}"),
                    TimeRemainingColumn(), console=console)


def _run_solve(rules: RuleSet, max_open: int | None, cache: str | None, force: bool,
               console: Console) -> Any:
    """Build (or load and check) the value table of ``rules`` with a progress bar."""
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
            console.print(f"{e}; computing it anew", markup=False)
            force = True
    def notice(message: str) -> None:
        console.print(message, markup=False)

    if not console.is_terminal:  # no bar into a file or a pipe (nor its import: rich.progress)
        return solve_table(rules, max_open=max_open, directory=directory, force=force,
                           notice=notice)
    began = time.perf_counter()
    with _solve_progress(console) as bar:
        task = bar.add_task(f"{rules.name}", total=None, rate="")

        def update(p: SolveProgress) -> None:
            spent = time.perf_counter() - began
            rate = (p.done - p.resumed) / spent if spent > 0 else 0.0
            bar.update(task, total=p.total, completed=p.done,
                       description=f"{rules.name} {p.layer}/{p.layers}",
                       rate=f"{rate:,.0f}/s")

        return solve_table(rules, max_open=max_open, directory=directory, progress=update,
                           force=force, notice=notice)


@main.command()
@rules_option
@free_strike_option
@click.option("--threads", type=int, default=None,
              help="CPU-Threads / CPU threads (Standard/default: alle/all)")
@click.option("--device", type=click.Choice(["cpu", "gpu"]), default="cpu", show_default=True,
              help="Rechenwerk / device")
@click.option("--max-open", type=int, default=None,
              help="nur Endspiele mit höchstens K offenen Kästchen / only endgames with at most K "
                   "open boxes")
@click.option("--force", is_flag=True, help="neu berechnen / recompute even if a table exists")
@click.option("--cache-dir", type=click.Path(file_okay=False), default=None,
              help=CACHE_HELP)
@lang_option
def solve(rules_name: str, free_strike: bool, threads: int | None, device: str,
          max_open: int | None, force: bool, cache_dir: str | None, lang: Lang) -> None:
    """Optimale Strategie berechnen / compute the optimal strategy's value table.

    Builds the table of expected final scores of optimal solitaire play (or loads and checks the
    stored one) and prints the expected score of the empty sheet. Long solves resume where they
    stopped.
    """
    from kniffel.solver import SolverError, set_threads

    console = _console()
    err = _console(err=True)
    if device == "gpu":
        _fail("solve", words("cli.no_gpu", lang), lang)
    rules = preset(rules_name, free_strike=free_strike)
    try:
        n = set_threads(threads)
        table = _run_solve(rules, max_open, cache_dir, force, console)
    except SolverError as e:
        _fail("solve", e, lang)
    except KeyboardInterrupt:
        err.print(f"kniffel solve: {words('cli.interrupted', lang)}", markup=False)
        sys.exit(130)
    header = table.header
    console.print(words("cli.table", lang, where=str(table.path),
                       states=f"{table.layout.states:,}", threads=n), markup=False)
    if header.get("seconds") is not None:
        console.print(words("cli.computed_in", lang, seconds=f"{float(header['seconds']):.2f}"),
                      markup=False)
    if table.layout.is_full:
        console.print(words("cli.expected_score", lang, rules=rules.name,
                           score=f"{table.expected_score():.4f}"), markup=False)
    else:
        console.print(words("cli.endgames", lang, most=table.layout.max_open), markup=False)


def _parse_filled(rules: RuleSet, items: tuple[str, ...]) -> dict[Box, Any]:
    from kniffel.errors import IllegalMoveError
    from kniffel.rules import Entry

    entries: dict[Box, Entry] = {}
    for item in items:
        for part in item.split(","):
            part = part.strip()
            if not part:
                continue
            name, _, value = part.partition("=")
            box = rules.box(name.strip())
            if box in entries:
                raise IllegalMoveError(f"box {box.value} is given twice", code="advise.box_twice",
                                       params={"box": box.value})
            if not value.strip() or value.strip() in ("-", "x", "X"):
                entries[box] = Entry(0, struck=True)
                continue
            try:
                points = int(value)
            except ValueError:
                raise IllegalMoveError(f"{part!r}: the points must be a number",
                                       code="advise.points_not_number",
                                       params={"text": part}) from None
            if points not in rules.possible_points(box):
                raise IllegalMoveError(f"{box.value} cannot hold {points} points in {rules.name}",
                                       code="advise.points_impossible",
                                       params={"box": box.value, "points": points,
                                               "rules": rules.name})
            entries[box] = Entry(points)
    return entries


@main.command(context_settings={"ignore_unknown_options": True})
@rules_option
@free_strike_option
@click.option("--filled", multiple=True, metavar="BOX=POINTS",
              help="belegtes Kästchen, z. B. fives=20 oder kniffel=- (gestrichen) / a filled "
                   "box, e.g. fives=20 or kniffel=- (struck); repeat or separate by commas")
@click.option("--upper", type=int, default=None,
              help="Summe oben, falls nicht aus --filled / upper sum if not from --filled")
@click.option("--chips", type=int, default=None, help="Chips übrig / chips left (extreme)")
@click.option("--rolls-used", type=int, default=None,
              help="Würfe in diesem Zug / throws made this turn (default: 1 with DICE)")
@click.option("--chip-used", is_flag=True, help="Chip in diesem Zug abgegeben / chip handed in")
@click.option("--game", "save", type=click.Path(dir_okay=False), default=None,
              help="Rat für die Stellung eines Spielstands / advise the position of a saved game")
@click.option("--top", type=int, default=10, show_default=True, help="so viele Optionen / options")
@click.option("--json", "as_json", is_flag=True, help="JSON")
@click.option("--cache-dir", type=click.Path(file_okay=False), default=None,
              help=CACHE_HELP)
@lang_option
@click.argument("dice", nargs=-1)
def advise(rules_name: str, free_strike: bool, filled: tuple[str, ...], upper: int | None,
           chips: int | None, rolls_used: int | None, chip_used: bool, save: str | None,
           top: int, as_json: bool, cache_dir: str | None, lang: Lang,
           dice: tuple[str, ...]) -> None:
    """Was behalten, wo eintragen? / what to keep, where to score — ranked by expected score.

    Every legal choice with its expected final score under optimal play and its loss against
    the best. Without DICE: the expected final score from the start of the turn.

    \b
    Examples:
      kniffel advise --rules yahtzee 1 3 3 5 6
      kniffel advise --rules kniffel --filled sixes=24,kniffel=50 --rolls-used 2 6 6 6 2 3
      kniffel advise --game partie.json
    """
    from pathlib import Path

    from kniffel.solver import TableMissingError
    from kniffel.solver.advise import Advisor, Position

    err = _console(err=True)
    console = _console()
    try:
        if save:
            from kniffel.storage import load_game
            game = load_game(save)
            rules = game.rules
            pos = Position.from_game(game)
        else:
            rules = preset(rules_name, free_strike=free_strike)
            entries = _parse_filled(rules, filled)
            roll = rules.parse_roll(" ".join(dice)) if dice else None
            used = rolls_used if rolls_used is not None else (1 if roll else 0)
            pos = Position(rules, entries, chips, roll, used, chip_used, upper)
        directory = Path(cache_dir) if cache_dir else None
        advisor = Advisor(rules, directory=directory)
        try:
            result = advisor.advise(pos)
        except TableMissingError as e:
            if not (sys.stdin.isatty() and click.confirm(
                    f"{render(e, lang)}\n{words('cli.build_now', lang)}", err=True)):
                raise
            table = _run_solve(rules, None, cache_dir, False, err)
            result = Advisor(rules, table=table).advise(pos)
    except (KniffelError, OSError) as e:
        _fail("advise", e, lang)
    shown = result.options[:top] if top > 0 else result.options
    if as_json:
        click.echo(json.dumps({
            "rules": rules.name, "score_so_far": result.score_so_far, "source": result.source,
            "options": [{"action": _action_json(o.action), "text": o.describe(rules, lang),
                         "expected": round(o.expected, 6), "loss": round(o.loss, 6),
                         "points": o.points} for o in shown]}, ensure_ascii=False))
        return
    de = lang == "de"
    table = _table(title=(f"{rules.title(lang)} — {'bisher' if de else 'so far'} "
                          f"{result.score_so_far}"))
    table.add_column("#", justify="right")
    table.add_column("Wahl" if de else "Choice")
    table.add_column("Erwartet" if de else "Expected", justify="right")
    table.add_column("Verlust" if de else "Loss", justify="right")
    for i, o in enumerate(shown, start=1):
        table.add_row(str(i), o.describe(rules, lang), f"{o.expected:.4f}", f"{o.loss:.4f}",
                      style="bold" if i == 1 else None)
    console.print(table)
    if len(result.options) > len(shown):
        console.print(f"… {len(result.options) - len(shown)} "
                      f"{'weitere' if de else 'more'} (--top 0)", markup=False)


def _action_json(action: Any) -> Any:
    from kniffel.game import action_to_json

    return action_to_json(action)


@main.command()
@click.argument("save", required=False, type=click.Path(dir_okay=False))
@click.option("--history", "game_id", type=int, default=None,
              help="ein Spiel aus dem Spielverlauf (ID) / a game from the history (its id)")
@db_option
@click.option("--json", "as_json", is_flag=True,
              help="als JSON ausgeben / print one JSON object")
@click.option("--cache-dir", type=click.Path(file_okay=False), default=None,
              help="Ordner der Wertetabellen / folder of the value tables "
                   "(Standard/default: the user's cache)")
@lang_option
def review(save: str | None, game_id: int | None, db_path: str | None, as_json: bool,
           cache_dir: str | None, lang: Lang) -> None:
    """Partie auswerten / review a game: every decision against the optimal choice.

    For a saved game (SAVE) or one from the history (--history ID): each decision with the
    choice taken, the best choice and the expected points lost, the total loss per player and
    the three costliest decisions. Classic rule sets use their table (built if missing); Kniffel
    Extreme its stored table or endgames solved on the spot, and where neither covers a
    position the expert player (its fitted model at the turn's end), which the output says.
    """
    from kniffel.solver import SolverError
    from kniffel.solver.review import review as review_game

    err = _console(err=True)
    de = lang == "de"
    if (save is None) == (game_id is None):
        err.print("kniffel review: gib eine Spielstand-Datei oder --history ID an / give a save "
                  "file or --history ID", markup=False)
        sys.exit(2)
    try:
        if save is not None:
            from kniffel.storage import load_game
            game = load_game(save)
        else:
            with _open_history(db_path, "review") as db:
                game = db.load(int(game_id or 0))
        result = review_game(game, directory=Path(cache_dir) if cache_dir else None,
                             build=not game.rules.d10)
    except (KniffelError, SolverError) as e:
        _fail("review", e, lang)
    rules = game.rules
    names = [p.name for p in game.players]

    def text(d: Any, option: Any) -> str:
        return str(option.describe(rules, lang))

    if as_json:
        click.echo(json.dumps({
            "rules": rules.name,
            "decisions": [{"index": d.index, "player": names[d.player], "round": d.round,
                           "roll": str(d.position.roll), "taken": _action_json(d.taken.action),
                           "taken_text": text(d, d.taken), "best": _action_json(d.best.action),
                           "best_text": text(d, d.best), "loss": round(d.loss, 6),
                           "source": d.source}
                          for d in result.decisions],
            "sources": result.by_source(),
            "uncovered": [{"index": u.index, "player": names[u.player], "round": u.round,
                           "reason": u.reason} for u in result.uncovered],
            "total_loss": {names[i]: round(result.total_loss(i), 6) for i in range(len(names))},
            "costliest": [d.index for d in result.costliest(3)]}, ensure_ascii=False))
        return
    console = _console()
    table = _table(title=f"{rules.title(lang)} — {'Auswertung' if de else 'review'}")
    for head in (("Runde", "Round"), ("Spieler", "Player"), ("Wurf", "Roll"),
                 ("Gewählt", "Taken"), ("Bestes", "Best"), ("Verlust", "Loss")):
        table.add_column(head[0] if de else head[1],
                         justify="right" if head[0] in ("Runde", "Verlust") else "left")
    for d in result.decisions:
        table.add_row(str(d.round), names[d.player], str(d.position.roll), text(d, d.taken),
                      text(d, d.best), ("≈" if d.source == "model" else "") + f"{d.loss:.3f}",
                      style="bold red" if d.loss >= 1.0 else None)
    console.print(table)
    for i, name in enumerate(names):
        console.print(f"{name}: {'Verlust gesamt' if de else 'total loss'} "
                      f"{result.total_loss(i):.3f} {'Punkte' if de else 'points'}", markup=False)
    costly = result.costliest(3)
    if costly:
        console.print("Die teuersten Entscheidungen:" if de
                      else "The costliest decisions:", markup=False)
        for d in costly:
            console.print(f"  {'Runde' if de else 'round'} {d.round}, {names[d.player]}, "
                          f"{d.position.roll}: {text(d, d.taken)} → {text(d, d.best)} "
                          f"(−{d.loss:.3f})", markup=False)
    by_model = result.by_source().get("model", 0)
    if by_model:
        console.print(words("expert.review_fallback", lang, count=by_model), markup=False)
    if result.uncovered:
        console.print(f"{len(result.uncovered)} "
                      + ("Entscheidungen ohne Bewertung: " if de else "decisions not judged: ")
                      + result.uncovered[0].reason, markup=False)


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Adresse / address (0.0.0.0: für Handys im selben Netz / for phones on the "
                   "same network)")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True,
              help="Port (0: ein freier / any free one)")
@click.option("--no-browser", is_flag=True, help="keinen Browser öffnen / do not open a browser")
@click.option("--export", "export_dir", type=click.Path(file_okay=False),
              help="statische Seite in DIR schreiben statt zu starten / write the static site "
                   "to DIR instead of serving it")
@lang_option
def web(host: str, port: int, no_browser: bool, export_dir: str | None, lang: Lang) -> None:
    """Die Browser-App: Block und Würfelspiel / the browser app: score pad and dice game."""
    from kniffel.web.server import build_site, serve

    try:
        if export_dir is not None:
            info = build_site(export_dir)
            click.echo("kniffel web: " + words("cli.site_written", lang, count=len(info["files"]),
                                              where=export_dir, build=info["build"],
                                              pyodide=info["pyodide"]))
            return
        serve(host, port, open_browser=not no_browser, echo=click.echo)
    except (KniffelError, OSError) as e:
        _fail("web", e, lang)
    except KeyboardInterrupt:
        pass


def run() -> None:
    """The ``kniffel`` program (its console script and ``python -m kniffel``): :func:`main`,
    then the exit without the interpreter's final sweeps over every object it ever loaded.

    The young garbage (what the command left lately) is collected, so its finalizers run, and
    every object left is frozen (:func:`gc.freeze`): the final collections at exit skip frozen
    objects, which takes the exit of a ``kniffel solve`` from about 60–100 ms to about 15
    (benchmarks/bench_solver.py times the whole process).
    """
    try:
        main()
    finally:
        gc.collect(1)
        gc.freeze()
