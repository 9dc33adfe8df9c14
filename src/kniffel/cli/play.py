"""``kniffel play``: a game in the terminal (:mod:`kniffel.tui`), every action stored in the
history as it happens."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

import click

from kniffel.cli.common import (
    db_option,
    free_strike_option,
    open_history,
    rules_option,
    ruleset_from_options,
    strategy_names,
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
from kniffel.engine.messages import text as words

if TYPE_CHECKING:
    from kniffel.engine.game import Game
    from kniffel.engine.match import Seat
    from kniffel.engine.rules import Lang, RuleSet
    from kniffel.history import History


def parse_seat(text: str) -> Seat:
    """The seat ``--player`` names: ``NAME`` (a person) or ``NAME:STRATEGY`` (a computer); a
    suffix after the last colon that names no registered strategy is refused with
    :class:`~kniffel.engine.errors.UnknownStrategyError` listing them."""
    from kniffel.engine.errors import UnknownStrategyError
    from kniffel.engine.match import Seat

    name, sep, strategy = text.rpartition(":")
    if not sep:
        return Seat(text)
    key = strategy.strip().lower()
    if key not in strategy_names():
        raise UnknownStrategyError(
            f"unknown strategy {strategy!r} in {text!r}; a computer player is NAME:STRATEGY "
            f"with one of: {', '.join(strategy_names())}",
            code="strategy.unknown",
            params={"name": strategy.strip(), "strategies": list(strategy_names())})
    return Seat(name, key)


def _has_terminal() -> bool:
    """Whether ``kniffel play`` talks to a terminal: its input, its output and the error
    stream Textual draws on (a closed pipe or a redirection is none)."""
    try:
        return all(stream is not None and stream.isatty()
                   for stream in (sys.stdin, sys.stdout, sys.stderr))
    except (ValueError, OSError):  # a closed stream
        return False


@click.command("play", cls=KniffelCommand)
@summary("cli.help.command.play")
@rules_option
@free_strike_option
@lang_option
@db_option
@click.option("--resume", type=int, is_flag=False, flag_value=0, default=None, metavar="[ID]",
              help=both("cli.help.play.resume"))
@click.option("--load", "load", type=click.Path(dir_okay=False), default=None, metavar="SAVE",
              help=both("cli.help.play.load"))
@click.option("--player", "players", multiple=True, metavar="NAME[:STRATEGY]",
              help=both("cli.help.play.player"))
@click.option("--start", type=click.IntRange(min=1, max=8), default=None,
              help=both("cli.help.play.start"))
@click.option("--speed", type=click.FloatRange(min=0), default=0.5, show_default=True,
              help=both("cli.help.play.speed"))
@click.option("--seed", type=int, default=None, help=both("cli.help.play.seed"))
def play(rules_name: str, free_strike: bool, lang: Lang, db_path: str | None,
         resume: int | None, load: str | None, players: tuple[str, ...], start: int | None,
         speed: float, seed: int | None) -> None:
    """Without --player a setup screen asks for the rule set and players. Every action is saved in
    the history database as it happens: quit with q at any time, continue with --resume (the
    last unfinished game) or --resume ID (any of them). A game that could not be stored is
    written to a rescue file; --load FILE plays it on.
    """
    from kniffel.extras import require

    require("tui")  # textual (kniffel[tui]): else one sentence naming the extra, status 2
    from kniffel.tui.app import KniffelApp

    ruleset = _check_options(rules_name, free_strike, lang, resume, load, bool(players), start,
                             seed)
    seats = _seats(players, ruleset, start, lang)
    loaded = None if load is None else _loaded(load, lang)
    terminal = _has_terminal()
    # without a terminal nothing is created: a missing history is only read (as empty)
    with open_history(db_path, "play", lang, create=terminal) as db:
        found, stored = _resumed(db, resume, loaded, lang)
        if not terminal:
            fail("play", words("play.no_terminal", lang), lang)
        try:
            app = KniffelApp(lang=lang, rules=ruleset, history=db, seats=seats, resume=found,
                             stored=stored, speed=speed, seed=seed,
                             start=None if start is None else start - 1)
            app.run()
        except KniffelError as e:
            fail("play", e, lang)
        # the last try to write the game, while the history is still open
        report = app.quit_report()
    if report:
        rich_console(err=True).print(report, markup=False)
    if app.unsaved_on_exit:
        sys.exit(1)


def _check_options(rules_name: str, free_strike: bool, lang: Lang, resume: int | None,
                   load: str | None, players: bool, start: int | None,
                   seed: int | None) -> RuleSet:
    """The rule set to play; ``--resume`` and ``--load`` (which play a game on) with an option
    that sets a new game up, or both together, are refused with a sentence (exit status 2)."""
    ctx = click.get_current_context()
    given = ctx.get_parameter_source("rules_name") not in (
        click.core.ParameterSource.DEFAULT, click.core.ParameterSource.DEFAULT_MAP)
    if resume is not None or load is not None:
        against = [name for name, used in (
            ("--resume", resume is not None and load is not None), ("--player", players),
            ("--rules", given), ("--free-strike", free_strike), ("--start", start is not None),
            ("--seed", seed is not None)) if used]
        if against:
            code = "play.load_conflict" if load is not None else "play.resume_conflict"
            fail("play", words(code, lang, options=against), lang)
    if resume is not None and resume < 0:
        fail("play", words("history.no_such_game", lang, id=resume), lang)
    return ruleset_from_options(rules_name, free_strike, "play", lang)


def _seats(players: tuple[str, ...], ruleset: RuleSet, start: int | None,
           lang: Lang) -> list[Seat]:
    """The seats ``--player`` names, checked before any file or screen is opened."""
    from kniffel.engine.match import validate_players

    try:
        seats = [parse_seat(p) for p in players]
        if seats:
            validate_players(seats, ruleset)
    except (KniffelError, OSError) as e:  # a file a computer player needs: named, no traceback
        fail("play", e, lang)
    if start is not None and start > max(len(seats), 1):
        fail("play", words("play.start_beyond", lang, start=start, players=len(seats)), lang)
    return seats


def _loaded(load: str, lang: Lang) -> Game:
    """The unfinished game saved at ``load`` (``--load``)."""
    from kniffel.storage import load_game

    try:
        loaded = load_game(load)
    except (KniffelError, OSError) as e:
        fail("play", e, lang)
    if loaded.is_over():
        fail("play", words("play.load_over", lang, where=load), lang)
    return loaded


def _resumed(db: History, resume: int | None, loaded: Game | None, lang: Lang
             ) -> tuple[tuple[int | None, Game] | None, tuple[Any, ...] | None]:
    """The game to play on and its id in ``db`` (None: a new game), and of a loaded rescue
    file the actions stored already; every computer player of it still registered."""
    found: tuple[int | None, Game] | None = None
    stored: tuple[Any, ...] | None = None
    try:
        if resume == 0:
            found = db.latest_unfinished()
            if found is None:
                fail("play", words("cli.no_unfinished", lang), lang)
        elif resume is not None:
            game = db.load(resume)
            if game.is_over():
                fail("play", words("play.not_unfinished", lang, id=resume), lang)
            found = resume, game
        elif loaded is not None:
            prefix = db.continued_by(loaded)
            found = (None if prefix is None else prefix[0]), loaded
            stored = () if prefix is None else prefix[1].actions
    except KniffelError as e:
        fail("play", e, lang)
    if found is not None:
        for p in found[1].players:
            if p.strategy is not None and p.strategy not in strategy_names():
                fail("play", words("play.resume_strategy", lang, id=found[0] or "–",
                                   strategy=p.strategy, player=p.name,
                                   strategies=list(strategy_names())), lang)
    return found, stored
