"""``kniffel show``: the score sheet of a saved game."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from kniffel.cli.common import rich_table
from kniffel.cli.localized import KniffelCommand, fail, lang_option, rich_console, summary
from kniffel.engine.errors import KniffelError
from kniffel.engine.messages import count
from kniffel.engine.messages import text as words

if TYPE_CHECKING:
    from rich.table import Table

    from kniffel.engine.game import Game
    from kniffel.engine.rules import Lang


@click.command("show", cls=KniffelCommand)
@summary("cli.help.command.show")
@click.argument("save", type=click.Path(dir_okay=False))
@lang_option
def show(save: str, lang: Lang) -> None:
    try:
        from kniffel.storage import load_game
        game = load_game(save)
    except (KniffelError, OSError) as e:
        fail("show", e, lang)
    rich_console().print(sheet_table(game, lang))


def sheet_table(game: Game, lang: Lang = "de") -> Table:
    """The score sheet of ``game``: a column per player, totals and the leader or winner."""
    rules = game.rules
    table = rich_table(title=rules.title(lang))
    table.add_column(words("cli.col.box", lang))
    sheets = [game.sheet(i) for i in range(len(game.players))]
    for i, p in enumerate(game.players):
        marker = " ◀" if i == game.current_player else ""
        table.add_column(p.name + marker, justify="right")
    for box in rules.boxes:
        cells = []
        for s in sheets:
            e = s.entries.get(box)
            cells.append("" if e is None else ("–" if e.struck else count(e.points, lang)))
        table.add_row(rules.box_name(box, lang), *cells,
                      end_section=box is rules.upper_boxes[-1])
    rows = [
        ("cli.sheet.upper_sum", [s.upper_sum for s in sheets]),
        ("cli.sheet.to_bonus", [s.bonus_missing for s in sheets]),
        ("cli.sheet.bonus", [s.bonus for s in sheets]),
        ("cli.sheet.lower_sum", [s.lower_sum for s in sheets]),
    ]
    if rules.extra_kniffel_bonus:
        rows.append(("cli.sheet.extra_kniffel", [s.extra_bonus for s in sheets]))
    if rules.chips:
        rows.append(("cli.sheet.chips", [s.chips_left for s in sheets]))
    for label, vals in rows:
        table.add_row(words(label, lang), *(count(v, lang) for v in vals), style="dim")
    table.add_row(words("cli.sheet.total", lang), *(count(s.total, lang) for s in sheets),
                  style="bold")
    return table
