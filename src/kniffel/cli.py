"""The ``kniffel`` command line: a thin layer over the library."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from typing import TextIO

import click
from rich.console import Console
from rich.table import Table

from kniffel import __version__
from kniffel.dice import Roll
from kniffel.errors import KniffelError
from kniffel.game import Game
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
from kniffel.storage import load_game

RULES_HELP = (f"Regelwerk / rule set: {', '.join(PRESETS)} (Standard/default: {DEFAULT_RULES})")

rules_option = click.option(
    "--rules", "rules_name", type=click.Choice(PRESETS, case_sensitive=False),
    default=DEFAULT_RULES, show_default=True, help=RULES_HELP,
)
lang_option = click.option(
    "--lang", type=click.Choice(["de", "en"]), default="de", show_default=True,
    help="Sprache / language",
)


def _console(err: bool = False) -> Console:
    return Console(stderr=err, highlight=False, soft_wrap=True)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="kniffel")
def main() -> None:
    """Kniffel Extreme und klassisches Kniffel: Regeln, Wertung, Spielstände.

    Kniffel Extreme and classic Kniffel: rules, scoring, saved games.

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
    table = Table(title=f"{'Wurf' if de else 'Roll'} {roll}  ({rules.title(lang)})")
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


def _read_rolls(rules: RuleSet, lines: Iterable[str], out: TextIO, as_json: bool) -> int:
    errors = 0
    err = _console(err=True)
    for number, line in enumerate(lines, start=1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        try:
            roll = rules.parse_roll(text)
        except KniffelError as e:
            err.print(f"kniffel score: line {number}: {e}", markup=False)
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
        errors = _read_rolls(rules, sys.stdin, sys.stdout, as_json)
        if errors:
            sys.exit(2)
        return
    try:
        roll = rules.parse_roll(" ".join(dice))
    except KniffelError as e:
        _console(err=True).print(f"kniffel score: {e}", markup=False)
        sys.exit(2)
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
@click.option("--free-strike", is_flag=True,
              help="Hausregel: jederzeit streichen / house rule: strike any box any time")
@lang_option
def rules(rules_name: str, free_strike: bool, lang: Lang) -> None:
    """Der Spielblock eines Regelwerks / the score sheet of a rule set.

    Lists every box with its condition and points, then the bonus, chips, strike and joker
    rules.
    """
    ruleset = preset(rules_name, free_strike=free_strike)
    de = lang == "de"
    table = Table(title=ruleset.title(lang))
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
        game = load_game(save)
    except (KniffelError, OSError) as e:
        _console(err=True).print(f"kniffel show: {e}", markup=False)
        sys.exit(2)
    _console().print(sheet_table(game, lang))


def sheet_table(game: Game, lang: Lang = "de") -> Table:
    """The score sheet of ``game``: a column per player, totals and the leader or winner."""
    rules = game.rules
    de = lang == "de"
    table = Table(title=rules.title(lang))
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
def web(host: str, port: int, no_browser: bool, export_dir: str | None) -> None:
    """Die Browser-App: Block und Würfelspiel / the browser app: score pad and dice game."""
    from kniffel.web.server import build_site, serve

    try:
        if export_dir is not None:
            info = build_site(export_dir)
            click.echo(f"kniffel web: {len(info['files'])} Dateien / files in {export_dir} "
                       f"(build {info['build']}, pyodide {info['pyodide']})")
            return
        serve(host, port, open_browser=not no_browser, echo=click.echo)
    except (KniffelError, OSError) as e:
        _console(err=True).print(f"kniffel web: {e}", markup=False)
        sys.exit(2)
    except KeyboardInterrupt:
        pass
