"""``kniffel score``: what a roll scores in every box."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, TextIO

import click

from kniffel.cli.common import rich_table, rules_option
from kniffel.cli.localized import KniffelCommand, both, fail, lang_option, rich_console, summary
from kniffel.engine.dice import Roll
from kniffel.engine.errors import KniffelError
from kniffel.engine.messages import count, dice_text, render
from kniffel.engine.messages import text as words
from kniffel.engine.rules import RuleSet, evaluate, preset

if TYPE_CHECKING:
    from rich.table import Table

    from kniffel.engine.rules import Lang


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
    title = words("cli.roll", lang, dice=dice_text(roll.d6, roll.d10, lang))
    table = rich_table(title=f"{title}  ({rules.title(lang)})")
    table.add_column(words("cli.col.box", lang))
    table.add_column("id", style="dim")
    table.add_column(words("cli.col.points", lang), justify="right")
    table.add_column(words("cli.col.fits", lang), justify="center")
    for b in rules.boxes:
        v = values[b]
        table.add_row(rules.box_name(b, lang), b.value, count(v or 0, lang),
                      words("cli.yes", lang) if v is not None else "–",
                      style=None if v is not None else "dim")
    return table


def _read_rolls(rules: RuleSet, lines: Iterable[str], out: TextIO, as_json: bool,
                lang: Lang) -> int:
    errors = 0
    err = rich_console(err=True)
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



# Negative numbers are dice to complain about, not options: "-1" must reach the dice check
# (an unknown option is refused all the same: KniffelCommand.parse_args).
@click.command("score", cls=KniffelCommand, context_settings={"ignore_unknown_options": True})
@summary("cli.help.command.score")
@rules_option
@click.option("--json", "as_json", is_flag=True,
              help=both("cli.help.score.json"))
@lang_option
@click.argument("dice", nargs=-1)
def score(rules_name: str, as_json: bool, lang: Lang, dice: tuple[str, ...]) -> None:
    """DICE: for extreme six values, the five d6 (1–6) then the d10 (0–9) last; for the classic
    rule sets five d6. Separate them by spaces or commas ("5 5 5 6 6 6" or "5,5,5,6,6,6").
    Without DICE, rolls are read from standard input, one per line.

    \b
    Examples:
      kniffel score 5 5 5 6 6 6
      kniffel score --rules kniffel --json 3,3,3,5,5
      printf '1 2 3 4 5 0\\n6 6 6 6 6 6\\n' | kniffel score --json
    """
    rules = preset(rules_name)
    if not dice:
        if _read_rolls(rules, sys.stdin, sys.stdout, as_json, lang):
            sys.exit(2)
        return
    try:
        roll = rules.parse_roll(" ".join(dice))
    except KniffelError as e:
        fail("score", e, lang)
    if as_json:
        click.echo(_roll_json(rules, roll))
    else:
        rich_console().print(_roll_table(rules, roll, lang))

