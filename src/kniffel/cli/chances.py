"""``kniffel chances``: every player's chance to win a saved game, the expected final total
and its range (:mod:`kniffel.engine.chances`)."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

import click

from kniffel.cli.common import rich_table
from kniffel.cli.localized import (
    KniffelCommand,
    both,
    details,
    lang_option,
    message,
    rich_console,
    summary,
)
from kniffel.engine.errors import KniffelError
from kniffel.engine.messages import count
from kniffel.engine.messages import text as words

if TYPE_CHECKING:
    from rich.table import Table

    from kniffel.engine.chances import Chances
    from kniffel.engine.game import Game
    from kniffel.engine.rules import Lang


def _chances_of(path: str) -> tuple[Game, Chances]:
    """The game saved at ``path`` and every player's chances in it (the model of each rule set
    is loaded once per process: :func:`kniffel.engine.chances.chance_model`)."""
    from kniffel.engine.chances import win_chances
    from kniffel.storage import load_game

    game = load_game(path)
    return game, win_chances(game)


def chances_json(path: str, chances: Chances) -> dict[str, Any]:
    """The JSON line of ``kniffel chances --json`` for the save ``path``: every player's name,
    chance to win (the chances sum to 1), expected final total and range (10 %–90 %)."""
    return {"file": path, "players": [
        {"name": o.name, "win": round(o.win, 6), "expected": round(o.expected, 6),
         "low": o.low, "high": o.high} for o in chances.players]}


def chances_table(path: str, game: Game, chances: Chances, lang: Lang) -> Table:
    """The chances of the game saved at ``path`` as a table: per player the chance to win,
    the points now, the expected final total and the range; the leader in bold."""
    from rich.markup import escape
    from rich.text import Text

    from kniffel.engine.messages import number, percent

    rules = game.rules
    state = (words("cli.chances.over", lang) if game.is_over() else
             words("cli.chances.round", lang, round=count(game.round, lang),
                   of=count(len(rules.boxes), lang)))
    title = words("cli.chances.title", lang, file=path, rules=rules.name, state=state)
    table = rich_table(title=escape(title), title_justify="left")
    table.add_column(words("cli.chances.col_player", lang))
    for code in ("cli.chances.col_win", "cli.chances.col_points", "cli.chances.col_expected",
                 "cli.chances.col_range"):
        table.add_column(words(code, lang), justify="right", no_wrap=True)
    for i, o in enumerate(chances.players):
        table.add_row(Text(o.name), percent(o.win, lang), count(o.total, lang),
                      number(o.expected, lang, 1),
                      count(o.low, lang) if o.low == o.high else
                      f"{count(o.low, lang)}–{count(o.high, lang)}",
                      style="bold" if i == chances.leader else None)
    return table


@click.command("chances", cls=KniffelCommand)
@summary("cli.help.command.chances")
@details("cli.help.chances.exit")
@click.argument("saves", nargs=-1, required=True, metavar="SAVE...")
@click.option("--json", "as_json", is_flag=True, help=both("cli.help.chances.json"))
@lang_option
def chances(saves: tuple[str, ...], as_json: bool, lang: Lang) -> None:
    """For each saved game (SAVE, any number of them): every player's chance to win if everyone
    plays well from here (a tie shared), the expected final total and the range the final total
    falls in with 80 % (10 %–90 %). A finished game gives its winner 1. --json: one JSON object
    per file and line, {"file": ..., "players": [{"name", "win", "expected", "low", "high"}]}.
    A file that cannot be read, or a rule set without values, is named on stderr in one
    sentence; the other files are shown all the same.
    """
    failed, shown = False, 0
    console = rich_console()
    for path in saves:
        try:
            game, found = _chances_of(path)
        except (KniffelError, OSError) as e:
            said = message(e, lang)
            if isinstance(e, KniffelError) and "where" not in e.params:
                said = f"{path}: {said}"  # the error does not name the file
            rich_console(err=True).print(f"kniffel chances: {said}", markup=False)
            failed = True
            continue
        shown += 1
        if as_json:
            click.echo(json.dumps(chances_json(path, found), ensure_ascii=False))
        else:
            if shown > 1:
                console.print()
            console.print(chances_table(path, game, found, lang))
    if shown and not as_json:
        console.print(words("cli.chances.note", lang), markup=False)
    if failed:
        sys.exit(2)
