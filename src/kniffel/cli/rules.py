"""``kniffel rules``: every box of a rule set with its condition and points, then its rules."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from kniffel.cli.common import free_strike_option, rich_table, rules_option, ruleset_from_options
from kniffel.cli.localized import KniffelCommand, lang_option, rich_console, summary
from kniffel.engine.messages import count
from kniffel.engine.messages import text as words
from kniffel.engine.rules import BOX_TEXTS, FLAT_POINTS, Box, RuleSet, describe

if TYPE_CHECKING:
    from rich.table import Table

    from kniffel.engine.rules import Lang


def _points_text(rules: RuleSet, box: Box, lang: Lang) -> str:
    if box in FLAT_POINTS:
        return count(FLAT_POINTS[box], lang)
    if box.face is not None:
        return words("cli.points.face_sum", lang, face=box.face, low=count(0, lang),
                     high=count(rules.max_points(box), lang))
    if box is Box.SUPER_CHANCE:
        return words("cli.points.double_sum", lang)
    return words("cli.points.sum", lang)


@click.command("rules", cls=KniffelCommand)
@summary("cli.help.command.rules")
@rules_option
@free_strike_option
@lang_option
def rules(rules_name: str, free_strike: bool, lang: Lang) -> None:
    """Lists every box with its condition and points, then the bonus, chips, strike and joker
    rules.
    """
    ruleset = ruleset_from_options(rules_name, free_strike, "rules", lang)
    console = rich_console()
    # The ids (for the API and --json) only where the terminal has room for them.
    console.print(rules_table(ruleset, lang, with_ids=console.width >= 110))
    for line in describe(ruleset, lang):
        console.print(f"• {line}", markup=False)


def rules_table(ruleset: RuleSet, lang: Lang, *, with_ids: bool) -> Table:
    """Every box of ``ruleset`` with its condition and points (``with_ids``: and its id)."""
    table = rich_table(title=ruleset.title(lang))
    table.add_column(words("cli.col.box", lang), no_wrap=True)
    if with_ids:
        table.add_column("id", style="dim", no_wrap=True)
    table.add_column(words("cli.col.condition", lang))
    table.add_column(words("cli.col.points", lang), justify="right", no_wrap=True)
    for box in ruleset.boxes:
        ids = [box.value] if with_ids else []
        table.add_row(ruleset.box_name(box, lang), *ids, BOX_TEXTS[box].rule(lang),
                      _points_text(ruleset, box, lang),
                      end_section=box is ruleset.upper_boxes[-1])
    return table
