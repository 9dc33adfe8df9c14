"""``kniffel review``: every decision of a game against the best one, and each player's result
split into decisions and luck (:mod:`kniffel.solver.review`, :mod:`kniffel.engine.review`)."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from kniffel.cli.common import db_option, open_history, rich_table, work_progress
from kniffel.cli.localized import (
    KniffelCommand,
    both,
    fail,
    lang_option,
    rich_console,
    summary,
)
from kniffel.engine.errors import KniffelError
from kniffel.engine.messages import count, dice_text
from kniffel.engine.messages import text as words

if TYPE_CHECKING:
    from kniffel.engine.game import Game
    from kniffel.engine.review import LuckSkill
    from kniffel.engine.rules import Lang


#: A decision that loses at least this many expected points is listed by ``kniffel review``
#: (every decision with ``--all``).
REVIEW_LEAST = 0.5
#: A decision that gives away at least this much chance to win (half a percentage point) is
#: among a player's costliest for the chance to win, and its cost is said beside its points,
#: in a game of two or more players.
WIN_LEAST = 0.005


@click.command("review", cls=KniffelCommand)
@summary("cli.help.command.review")
@click.argument("save", required=False, type=click.Path(dir_okay=False))
@click.option("--history", "game_id", type=int, default=None,
              help=both("cli.help.review.history"))
@db_option
@click.option("--all", "show_all", is_flag=True,
              help=both("cli.help.review.all"))
@click.option("--json", "as_json", is_flag=True,
              help=both("cli.help.review.json"))
@click.option("--cache-dir", type=click.Path(file_okay=False), default=None,
              help=both("cli.help.review.cache_dir"))
@lang_option
def review(save: str | None, game_id: int | None, db_path: str | None, show_all: bool,
           as_json: bool, cache_dir: str | None, lang: Lang) -> None:
    """For a saved game (SAVE) or one from the history (--history ID), per player: the points given
    away in all, that player's three costliest decisions and every decision that cost at least
    half a point (--all: every decision), each with the choice taken and the better one. Classic
    rule sets use their table (built if missing); Kniffel Extreme its stored table or endgames
    solved on the spot, and where neither covers a position the expert player (its fitted model
    at the turn's end), which the output says. Of a finished game, every player's result split
    into the total expected at the start with best play, the points the decisions lost and
    luck (the rest). --json: every decision at full precision. With two or more players, also
    what each decision cost in chance to win (in percentage points; exact in the last round,
    before it by the win-chance model), and the costliest decisions for the chance to win.
    """
    from kniffel.engine.review import luck_skill_split

    if (save is None) == (game_id is None):
        fail("review", words("review.need_game", lang), lang)
    game, result = _reviewed(save, game_id, db_path, cache_dir, lang)
    names = [p.name for p in game.players]
    split = luck_skill_split(result)
    if as_json:
        click.echo(json.dumps(review_json(result, split, names, lang), ensure_ascii=False))
    else:
        _print_review(result, split, names, show_all, lang)


def _reviewed(save: str | None, game_id: int | None, db_path: str | None,
              cache_dir: str | None, lang: Lang) -> tuple[Game, Any]:
    """The game saved at ``save`` or stored as ``game_id``, and its review, with a progress bar
    (in a terminal); Ctrl-C or SIGTERM end it with a sentence and exit status 130."""
    from kniffel.interrupt import interruptible
    from kniffel.solver import SolverError
    from kniffel.solver.review import review as review_game

    try:
        if save is not None:
            from kniffel.storage import load_game
            game = load_game(save)
        else:
            with open_history(db_path, "review", lang, create=False) as db:
                game = db.load(int(game_id or 0))
        with interruptible(), work_progress(words("review.progress", lang), lang) as step:
            return game, review_game(game, directory=Path(cache_dir) if cache_dir else None,
                                     build=not game.rules.d10, progress=step)
    except (KniffelError, SolverError) as e:
        fail("review", e, lang)
    except KeyboardInterrupt:
        rich_console(err=True).print(f"kniffel review: {words('interrupt.review', lang)}",
                                     markup=False)
        sys.exit(130)


def review_json(result: Any, split: Sequence[LuckSkill], names: Sequence[str],
                lang: Lang) -> dict[str, Any]:
    """``kniffel review --json``: every decision at full precision, the sources of the values,
    the positions no value covers, and per player the points given away, the costliest
    decisions and the split into decisions and luck."""
    from kniffel.engine.game import action_to_json

    rules = result.game.rules

    def text(option: Any) -> str:
        return str(option.describe(rules, lang))

    return {
        "rules": rules.name,
        "decisions": [{"index": d.index, "player": names[d.player], "round": d.round,
                       "roll": str(d.position.roll), "taken": action_to_json(d.taken.action),
                       "taken_text": text(d.taken), "best": action_to_json(d.best.action),
                       "best_text": text(d.best), "loss": round(d.loss, 6),
                       "source": d.source, "throw": d.position.rolls_used,
                       "chip_used": d.position.chip_used, **_win_json(d, text)}
                      for d in result.decisions],
        "sources": result.by_source(),
        "uncovered": [{"index": u.index, "player": names[u.player], "round": u.round,
                       "reason": u.reason, "why": u.why(lang)} for u in result.uncovered],
        "total_loss": {names[i]: round(result.total_loss(i), 6) for i in range(len(names))},
        "costliest": [d.index for d in result.costliest(3)],
        "players": [{"name": name, "decisions": sum(d.player == i for d in result.decisions),
                     "total_loss": round(result.total_loss(i), 6),
                     "costliest": [d.index for d in result.costliest(3, i)],
                     **({"total_win_loss": round(result.total_win_loss(i), 6),
                         "costliest_for_win": [d.index for d in result.costliest_for_win(3, i)]}
                        if result.judges_wins else {}),
                     "luck_skill": _luck_skill_json(split, i)}
                    for i, name in enumerate(names)]}


def _win_json(d: Any, text: Any) -> dict[str, Any]:
    """A decision's chances to win for ``--json`` (none where they were not judged): the
    chance of the choice taken, of the best choice to win (and that choice), and the loss."""
    if d.win_best is None:
        return {}
    from kniffel.engine.game import action_to_json

    return {"win_taken": round(d.win_taken, 6), "win_best": round(d.win_best.win, 6),
            "win_loss": round(d.win_loss, 6), "best_for_win": action_to_json(d.win_best.action),
            "best_for_win_text": text(d.win_best)}


def _luck_skill_json(split: Sequence[Any], player: int) -> dict[str, Any] | None:
    if not split:
        return None
    s = split[player]
    return {"expected": round(s.expected, 6), "final": s.final, "skill": round(s.skill, 6),
            "luck": round(s.luck, 6)}


def signed(value: float, lang: Lang, digits: int = 1) -> str:
    """``value`` with its sign, "+" or "−" (none where it rounds to 0): ``"−12,3"``."""
    from kniffel.engine.messages import number

    shown = number(abs(value), lang, digits)
    if shown == number(0, lang, digits):
        return shown
    return ("+" if value > 0 else "−") + shown


def luck_skill_lines(split: Sequence[LuckSkill], names: Sequence[str], lang: Lang) -> list[str]:
    """The review's lines of the split into decisions and luck: a heading, then per player
    the final total, the expected one, the points the decisions lost and luck, as the engine
    rounds them (:meth:`~kniffel.engine.review.LuckSkill.shown`: the shown numbers add up)."""
    from kniffel.engine.messages import number
    from kniffel.engine.review import SHOWN_DIGITS

    if not split:
        return []
    shown = [s.shown() for s in split]
    return [words("cli.review.luck_title", lang), *(
        words("cli.review.luck", lang, name=names[s.player], final=count(s.final, lang),
              expected=number(s.expected, lang, SHOWN_DIGITS),
              skill=signed(-s.skill, lang, SHOWN_DIGITS),
              luck=signed(s.luck, lang, SHOWN_DIGITS)) for s in shown)]


def _print_review(result: Any, split: Sequence[LuckSkill], names: Sequence[str], show_all: bool,
                  lang: Lang) -> None:
    """A review as a person reads it: every player's result split into decisions and luck
    (``split``, :func:`luck_skill_lines`), then per player the points given away in all, the
    player's three costliest decisions and a table of the decisions that cost at least
    :data:`REVIEW_LEAST` points (every decision with ``show_all``); numbers with two decimals
    in the language's format, values of the expert's model marked "≈"; every line wrapped to
    the terminal's width."""
    from rich import box

    from kniffel.engine.messages import count, number, percent

    rules = result.game.rules
    console = rich_console()
    least = number(REVIEW_LEAST, lang, 1)

    def say(line: str, style: str | None = None) -> None:
        console.print(line, markup=False, soft_wrap=False, style=style)

    def choice(option: Any) -> str:
        return str(option.describe(rules, lang))

    def dice(d: Any) -> str:
        roll = d.position.roll
        return dice_text(roll.d6, roll.d10, lang)

    def loss(d: Any, sign: str = "") -> str:
        return ("≈ " if d.source == "model" else "") + sign + number(d.loss, lang, 2)

    def throw(d: Any) -> str:
        if d.position.chip_used:
            return words("review.chip_throw", lang)
        return words("review.throw_number", lang, throw=d.position.rolls_used)

    def moment(d: Any) -> str:
        return words("review.moment_chip" if d.position.chip_used else "review.moment",
                     lang, round=d.round, throw=d.position.rolls_used, dice=dice(d))

    def win_points(d: Any, sign: str = "−") -> str:
        shown = number(100 * d.win_loss, lang, 1)
        return words("review.win_points", lang, points=shown,
                     sign=sign if shown != number(0, lang, 1) else "")

    wins = result.judges_wins

    say(words("review.title", lang, title=rules.title(lang)))
    lines = luck_skill_lines(split, names, lang)
    if lines:
        say("")
        say(lines[0], "bold")
        for line in lines[1:]:
            say(f"  {line}")
    hidden = 0
    for i, name in enumerate(names):
        own = [d for d in result.decisions if d.player == i]
        total = result.total_loss(i)
        say("")
        if not own:
            say(words("review.player_none", lang, name=name), "bold")
            continue
        for_win = result.costliest_for_win(3, i) if wins else ()
        for_win = tuple(d for d in for_win if d.win_loss >= WIN_LEAST)
        if round(total, 2) == 0:
            say(words("review.player_perfect", lang, name=name, count=count(len(own), lang)),
                "bold")
            if not for_win:
                continue
        else:
            say(words("review.player", lang, name=name, count=count(len(own), lang),
                      points=number(total, lang, 2)), "bold")
            say(words("review.costliest", lang))
            costly = rich_table(box=None, show_header=False, padding=(0, 0, 0, 2))
            costly.add_column(no_wrap=True, justify="right")
            costly.add_column()
            for d in result.costliest(3, i):
                line = words("review.costly", lang, moment=moment(d), taken=choice(d.taken),
                             best=choice(d.best))
                if d.win_loss >= WIN_LEAST:
                    line += "; " + words("review.win_cost", lang,
                                         points=number(100 * d.win_loss, lang, 1))
                costly.add_row(loss(d, "−"), line)
            console.print(costly)
        if for_win:
            say(words("review.costliest_win", lang))
            costly = rich_table(box=None, show_header=False, padding=(0, 0, 0, 2))
            costly.add_column(no_wrap=True, justify="right")
            costly.add_column()
            for d in for_win:
                assert d.win_best is not None
                assert d.win_taken is not None
                costly.add_row(words("review.win_cost_short", lang, points=win_points(d)), words(
                    "review.costly_win", lang, moment=moment(d), taken=choice(d.taken),
                    best=choice(d.win_best), chance=percent(d.win_taken, lang),
                    best_chance=percent(d.win_best.win, lang)))
            console.print(costly)
        shown = own if show_all else [d for d in own if d.loss >= REVIEW_LEAST]
        hidden += len(own) - len(shown)
        if not shown:
            continue
        title = (words("review.all_title", lang, name=name) if show_all else
                 words("review.costly_title", lang, name=name, least=least))
        table = rich_table(title=title, title_justify="left", box=box.SIMPLE_HEAD,
                       show_edge=False, pad_edge=False, collapse_padding=True,
                       padding=(0, 1, 0, 0))
        columns = [("review.col_round", True, False), ("review.col_throw", True, False),
                   ("review.col_dice", False, True), ("review.col_taken", False, True),
                   ("review.col_best", False, True), ("review.col_loss", True, False)]
        if wins:
            columns.append(("review.col_win", True, False))
        for code, right, wrap in columns:
            # a choice's words wrap, and a word longer than its column folds rather than
            # being cut: the box's name is what the player reads it for ("Viererpa…")
            table.add_column(words(code, lang), justify="right" if right else "left",
                             no_wrap=not wrap, overflow="fold" if wrap else "ellipsis")
        for d in shown:
            same = d.best.action == d.taken.action
            cells = [str(d.round), throw(d), dice(d), choice(d.taken),
                     "–" if same else choice(d.best), loss(d)]
            if wins:
                cells.append(win_points(d) if d.win_best is not None else "–")
            table.add_row(*cells, style="bold red" if d.loss >= 1.0 else None)
        console.print(table)
    say("")
    if hidden:
        say(words("review.hidden", lang, count=count(hidden, lang), least=least))
    if wins:
        say(words("review.win_note", lang))
    by_model = result.by_source().get("model", 0)
    if by_model:
        say(words("expert.review_fallback", lang, count=count(by_model, lang)))
    if result.uncovered:
        say(words("review.uncovered", lang, count=count(len(result.uncovered), lang),
                  why=result.uncovered[0].why(lang)))
