"""``kniffel advise``: every choice of a position with its expected final score and its loss
against the best (:mod:`kniffel.solver.advise`)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from click.core import ParameterSource

from kniffel.cli.common import (
    CACHE_HELP,
    free_strike_option,
    rich_table,
    rules_option,
    ruleset_from_options,
)
from kniffel.cli.localized import (
    KniffelCommand,
    both,
    confirm,
    fail,
    lang_option,
    rich_console,
    summary,
)
from kniffel.engine.errors import KniffelError
from kniffel.engine.messages import count, dice_text, render
from kniffel.engine.messages import text as words

if TYPE_CHECKING:
    from kniffel.engine.rules import Box, Lang, RuleSet
    from kniffel.solver.advise import Advice, Position


def parse_filled(rules: RuleSet, items: tuple[str, ...]) -> dict[Box, Any]:
    """The boxes ``--filled`` names (``BOX=POINTS``, comma-separated or repeated; no points,
    ``-`` or ``x``: struck) with their entries; a box named twice or points it cannot hold
    raise :class:`~kniffel.engine.errors.IllegalMoveError`."""
    from kniffel.engine.errors import IllegalMoveError
    from kniffel.engine.rules import Entry

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


# Negative numbers are dice to complain about, not options: "-1" must reach the dice check
# (an unknown option is refused all the same: KniffelCommand.parse_args).
@click.command("advise", cls=KniffelCommand, context_settings={"ignore_unknown_options": True})
@summary("cli.help.command.advise")
@rules_option
@free_strike_option
@click.option("--filled", multiple=True, metavar="BOX=POINTS",
              help=both("cli.help.advise.filled"))
@click.option("--upper", type=int, default=None,
              help=both("cli.help.advise.upper"))
@click.option("--chips", type=int, default=None, help=both("cli.help.advise.chips"))
@click.option("--rolls-used", type=int, default=None,
              help=both("cli.help.advise.rolls_used"))
@click.option("--chip-used", is_flag=True, help=both("cli.help.advise.chip_used"))
@click.option("--game", "save", type=click.Path(dir_okay=False), default=None,
              help=both("cli.help.advise.game"))
@click.option("--to-win", "to_win", is_flag=True, help=both("cli.help.advise.to_win"))
@click.option("--top", type=int, default=10, show_default=True, help=both("cli.help.advise.top"))
@click.option("--json", "as_json", is_flag=True, help="JSON")
@click.option("--cache-dir", type=click.Path(file_okay=False), default=None,
              help=CACHE_HELP)
@lang_option
@click.argument("dice", nargs=-1)
def advise(rules_name: str, free_strike: bool, filled: tuple[str, ...], upper: int | None,
           chips: int | None, rolls_used: int | None, chip_used: bool, save: str | None,
           to_win: bool, top: int, as_json: bool, cache_dir: str | None, lang: Lang,
           dice: tuple[str, ...]) -> None:
    """Every legal choice with its expected final score under optimal play and its loss against
    the best, for the player, throw and dice named in the first line. Without DICE: the expected
    final score from the start of the turn. A Kniffel Extreme position no table covers is
    answered by the expert, whose values are an estimate (the output says so).

    \b
    Examples:
      kniffel advise --rules yahtzee 1 3 3 5 6
      kniffel advise --rules kniffel --filled sixes=24,kniffel=50 --rolls-used 2 6 6 6 2 3
      kniffel advise --game partie.json
      kniffel advise --game partie.json --to-win

    With --to-win (a saved game of two or more players): every choice ranked by its chance to
    win, with its expected final total (exact in the last round, the win-chance model's
    before it).
    """
    from kniffel.solver.advise import Position

    if save:
        _refuse_beside_game(dice, lang)
    elif to_win:
        fail("advise", words("cli.advise.to_win_needs_game", lang), lang)
    if to_win:
        assert save is not None
        _advise_to_win(save, top, as_json, lang)
        return
    try:
        if save:
            pos, player = _saved_position(save)
        else:
            rules = ruleset_from_options(rules_name, free_strike, "advise", lang)
            entries = parse_filled(rules, filled)
            roll = rules.parse_roll(" ".join(dice)) if dice else None
            used = rolls_used if rolls_used is not None else (1 if roll else 0)
            pos, player = Position(rules, entries, chips, roll, used, chip_used, upper), None
        result = _advice(pos, cache_dir, lang)
    except (KniffelError, OSError) as e:
        fail("advise", e, lang)
    shown = result.options[:top] if top > 0 else result.options
    if as_json:
        click.echo(json.dumps(advice_json(pos, result, shown, player, lang), ensure_ascii=False))
    else:
        print_advice(pos, result, shown, player, lang)


def _advise_to_win(save: str, top: int, as_json: bool, lang: Lang) -> None:
    """``kniffel advise --game SAVE --to-win``: every choice of the saved game's player to move,
    best chance to win first, with its expected final total."""
    from kniffel.engine.advice import Position
    from kniffel.engine.game import action_to_json
    from kniffel.engine.messages import number
    from kniffel.engine.winning import win_advice
    from kniffel.storage import load_game

    try:
        game = load_game(save)
        pos = Position.from_game(game)
        if len(game.players) < 2:
            fail("advise", words("cli.advise.to_win_alone", lang), lang)
        result = win_advice(game, pos)
    except (KniffelError, OSError) as e:
        fail("advise", e, lang)
    player = game.players[game.current_player or 0].name
    rules = game.rules
    shown = result.options[:top] if top > 0 else result.options
    if as_json:
        click.echo(json.dumps({
            "rules": rules.name, "score_so_far": result.points.score_so_far, "goal": "win",
            "exact": result.exact, "source": result.points.source,
            "options": [{"action": action_to_json(o.action), "text": o.describe(rules, lang),
                         "win": round(o.win, 9), "win_loss": round(o.win_loss, 9),
                         "expected": round(o.expected, 6), "loss": round(o.loss, 6),
                         "points": o.points} for o in shown],
            "best_for_points": action_to_json(result.for_points.action),
            "differ": result.differ, "player": player,
            "roll": None if pos.roll is None else {"d6": list(pos.roll.d6),
                                                   "d10": pos.roll.d10},
            "rolls_used": pos.rolls_used, "chip_used": pos.chip_used}, ensure_ascii=False))
        return
    console = rich_console()
    if pos.roll is None:
        moment = words("advise.at_start", lang)
    else:
        shown_dice = dice_text(pos.roll.d6, pos.roll.d10, lang)
        moment = (words("advise.at_chip", lang, dice=shown_dice) if pos.chip_used else
                  words("advise.at_throw", lang, throw=pos.rolls_used, dice=shown_dice))
    moment = words("advise.for_player", lang, name=player, moment=moment)
    table = rich_table(title=words("advise.title", lang, title=rules.title(lang), moment=moment,
                                   score=count(result.points.score_so_far, lang)))
    table.add_column("#", justify="right")
    table.add_column(words("advise.col_choice", lang))
    table.add_column(words("advise.col_win", lang), justify="right")
    table.add_column(words("advise.col_expected", lang), justify="right")
    for i, o in enumerate(shown, start=1):
        table.add_row(str(i), o.describe(rules, lang), number(100 * o.win, lang, 1) + " %",
                      number(o.expected, lang, 2), style="bold" if i == 1 else None)
    console.print(table)
    if len(result.options) > len(shown):
        console.print(words("advise.more", lang, count=count(len(result.options) - len(shown),
                                                             lang)), markup=False)
    best = result.for_points
    console.print(words("advise.win_exact" if result.exact else "advise.win_model", lang),
                  markup=False)
    if result.differ:
        console.print(words("advise.win_differs", lang, choice=best.describe(rules, lang),
                            win=number(100 * best.win, lang, 1)), markup=False)


#: The options that describe a position: ``--game`` reads all of it from the save instead.
_POSITION_OPTIONS = ("rules_name", "free_strike", "filled", "upper", "chips", "rolls_used",
                     "chip_used")


def _refuse_beside_game(dice: tuple[str, ...], lang: Lang) -> None:
    """With ``--game`` the position, dice included, is the saved game's: dice or a position
    option given beside it would be ignored, so they are refused in a sentence (exit status
    2)."""
    if dice:
        fail("advise", words("cli.advise.game_and_dice", lang, dice=" ".join(dice)), lang)
    ctx = click.get_current_context()
    given = [max(p.opts, key=len) for p in ctx.command.params
             if isinstance(p, click.Option) and p.name in _POSITION_OPTIONS
             and ctx.get_parameter_source(p.name) not in (None, ParameterSource.DEFAULT)]
    if given:
        fail("advise", words("cli.advise.game_and_position", lang, options=", ".join(given)),
             lang)


def _saved_position(save: str) -> tuple[Position, str]:
    """The position of the game saved at ``save`` and the name of the player at turn."""
    from kniffel.solver.advise import Position
    from kniffel.storage import load_game

    game = load_game(save)
    return Position.from_game(game), game.players[game.current_player or 0].name


def _advice(pos: Position, cache_dir: str | None, lang: Lang) -> Advice:
    """The advice for ``pos`` from the table of its rule set; without one, Kniffel Extreme's
    from the expert (an estimate), a classic rule set's from a table built now where the user
    says so (in a terminal)."""
    from kniffel.cli.solve import run_solve
    from kniffel.solver import TableMissingError
    from kniffel.solver.advise import Advice, Advisor

    rules = pos.rules
    advisor = Advisor(rules, directory=Path(cache_dir) if cache_dir else None, expert=rules.d10)
    try:
        return advisor.advise(pos)
    except TableMissingError as e:
        if rules.d10:  # the expert's estimate, as in kniffel review
            found = advisor.estimate(pos, e)
            if not isinstance(found, Advice):
                fail("advise", " ".join(render(x, lang) for x in found), lang)
            return found
        if not (sys.stdin.isatty() and confirm(
                f"{render(e, lang)}\n{words('cli.build_now', lang)}", lang)):
            raise
        table = run_solve(rules, None, cache_dir, False, rich_console(err=True), lang)
        return Advisor(rules, table=table).advise(pos)


def advice_json(pos: Position, result: Advice, shown: Any, player: str | None,
                lang: Lang) -> dict[str, Any]:
    """``kniffel advise --json``: the choices ``shown`` with their expected scores and losses,
    the position and the player."""
    from kniffel.engine.game import action_to_json

    rules, roll = pos.rules, pos.roll
    return {
        "rules": rules.name, "score_so_far": result.score_so_far, "source": result.source,
        "options": [{"action": action_to_json(o.action), "text": o.describe(rules, lang),
                     "expected": round(o.expected, 6), "loss": round(o.loss, 6),
                     "points": o.points} for o in shown],
        "player": player,
        "roll": None if roll is None else {"d6": list(roll.d6), "d10": roll.d10},
        "rolls_used": pos.rolls_used, "chip_used": pos.chip_used}


def print_advice(pos: Position, result: Advice, shown: Any, player: str | None,
                 lang: Lang) -> None:
    """The choices ``shown`` as a table titled with the moment (the player's, where named),
    how many more there are, and whether the values are the expert's estimate."""
    from kniffel.engine.messages import number

    rules, roll = pos.rules, pos.roll
    console = rich_console()
    if roll is None:
        moment = words("advise.at_start", lang)
    else:
        shown_dice = dice_text(roll.d6, roll.d10, lang)
        moment = (words("advise.at_chip", lang, dice=shown_dice) if pos.chip_used else
                  words("advise.at_throw", lang, throw=pos.rolls_used, dice=shown_dice))
    if player is not None:
        moment = words("advise.for_player", lang, name=player, moment=moment)
    table = rich_table(title=words("advise.title", lang, title=rules.title(lang), moment=moment,
                                   score=count(result.score_so_far, lang)))
    table.add_column("#", justify="right")
    table.add_column(words("advise.col_choice", lang))
    table.add_column(words("advise.col_expected", lang), justify="right")
    table.add_column(words("advise.col_loss", lang), justify="right")
    for i, o in enumerate(shown, start=1):
        table.add_row(str(i), o.describe(rules, lang), number(o.expected, lang, 2),
                      number(o.loss, lang, 2), style="bold" if i == 1 else None)
    console.print(table)
    if len(result.options) > len(shown):
        console.print(words("advise.more", lang, count=count(len(result.options) - len(shown),
                                                             lang)), markup=False)
    if result.source == "model":
        console.print(words("advise.estimate", lang), markup=False, soft_wrap=False)
