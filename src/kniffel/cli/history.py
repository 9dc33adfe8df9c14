"""``kniffel history``, ``stats``, ``export`` and ``import``: the game history database."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import click

from kniffel.cli.common import FORCE_HELP, db_option, no_database, open_history, rich_table
from kniffel.cli.localized import (
    KniffelCommand,
    both,
    fail,
    lang_option,
    rich_console,
    summary,
)
from kniffel.engine.errors import KniffelError
from kniffel.engine.messages import count, render, rules_title
from kniffel.engine.messages import text as words
from kniffel.paths import default_db_path

if TYPE_CHECKING:
    from rich.table import Table

    from kniffel.engine.rules import Lang
    from kniffel.engine.standings import Evening, HeadToHead
    from kniffel.history import GameRecord, PlayerStats


@click.command("history", cls=KniffelCommand)
@summary("cli.help.command.history")
@db_option
@click.option("--limit", type=click.IntRange(min=1), default=None,
              help=both("cli.help.history.limit"))
@lang_option
def history(db_path: str | None, limit: int | None, lang: Lang) -> None:
    """Only reads: a missing or empty database file stays as it is.
    """
    with open_history(db_path, "history", lang, create=False) as db:
        no_database(db, lang)
        try:
            records = db.games(limit)
            rounds = db.rounds(records)
        except KniffelError as e:
            fail("history", e, lang)
    if not records:
        rich_console().print(words("history.list.empty", lang), markup=False)
        return
    rich_console().print(games_table(records, rounds, lang))


def games_table(records: Sequence[GameRecord], rounds: Mapping[int, tuple[int, int]],
                lang: Lang) -> Table:
    """The stored games: number, start, rule set, players with their totals, and whether a
    game is finished or the round it is in (``rounds``)."""
    table = rich_table(title=words("history.list.title", lang))
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column(words("history.list.started", lang))
    table.add_column(words("history.list.rules", lang))
    table.add_column(words("history.list.players", lang), overflow="fold")
    table.add_column(words("history.list.state", lang))
    for r in records:
        people = ", ".join(n if t is None else f"{n} {count(t, lang)}"
                           for n, t in zip(r.players, r.totals, strict=True))
        state = (words("history.list.finished", lang) if r.finished else
                 words("history.list.unfinished_round", lang, round=rounds[r.id][0],
                       rounds=rounds[r.id][1]))
        table.add_row(str(r.id), r.started_at.replace("T", " ")[:16], rules_title(r.rules, lang),
                      people, state)
    return table


@click.command("stats", cls=KniffelCommand)
@summary("cli.help.command.stats")
@db_option
@click.option("--player", default=None, help=both("cli.help.stats.player"))
@click.option("--evening", is_flag=False, flag_value="last", default=None, metavar="[DAY]",
              help=both("cli.help.stats.evening"))
@lang_option
def stats(db_path: str | None, player: str | None, evening: str | None, lang: Lang) -> None:
    """One table per rule set; Bonus and Kniffel are the shares of a player's games with the bonus
    and with at least one Kniffel. Then head to head: for each pair of players who played each
    other, per rule set, who had more points how often and by how much on average. With
    --evening, the standings of one evening instead (the games of the same players on one rule
    set on one day, by the computer's time zone): the last one, or that of DAY (YYYY-MM-DD).
    Only reads: a missing or empty database file stays as it is.
    """
    from datetime import date, datetime

    from kniffel.engine.standings import evenings, head_to_head

    if evening not in (None, "last"):
        try:
            date.fromisoformat(evening)
        except ValueError:
            fail("stats", words("history.evening.bad_day", lang, day=evening), lang)
    with open_history(db_path, "stats", lang, create=False) as db:
        no_database(db, lang)
        try:
            rows = db.stats(player)
            results = db.results(datetime.now().astimezone().tzinfo)
        except KniffelError as e:
            fail("stats", e, lang)
    if player:
        results = [r for r in results if player in r.names]
    if evening is not None:
        found = [e for e in evenings(results) if evening in ("last", e.day)]
        if not found:
            rich_console().print(words("history.evening.none", lang) if evening == "last" else
                                 words("history.evening.none_on", lang, day=evening),
                                 markup=False)
            return
        print_evening(found[0], lang)
        return
    if not rows:
        rich_console().print(words("history.stats.none_for", lang, player=player) if player else
                             words("history.stats.none", lang), markup=False)
        return
    print_stats(rows, lang)
    pairs = [p for p in head_to_head(results) if not player or player in (p.first, p.second)]
    if pairs:
        print_head_to_head(pairs, lang)


def print_head_to_head(pairs: Sequence[HeadToHead], lang: Lang) -> None:
    """A table per rule set of the pairs' games together: games, wins of each (and ties), the
    average margin and who had it; then the legend."""
    from kniffel.engine.messages import number

    console = rich_console()
    keys = ("history.stats.games", "history.h2h.wins", "history.h2h.ties", "history.h2h.margin")
    heads = [words(key, lang) for key in keys]
    # the table's width: borders, padding, the pair and the margin at 10 and 12, the numbers
    narrow = console.width < 1 + 3 * (len(keys) + 1) + sum(map(len, heads)) + 22
    for rules_name in dict.fromkeys(p.rules for p in pairs):
        title = words("history.h2h.title", lang, rules=rules_title(rules_name, lang))
        lines = []
        for p in pairs:
            if p.rules != rules_name:
                continue
            ahead = p.first if p.margin >= 0 else p.second
            margin = (words("history.h2h.even", lang) if p.margin == 0 else
                      f"{ahead} +{number(abs(p.margin), lang, 1)}")
            lines.append((f"{p.first} – {p.second}",
                          [count(p.games, lang),
                           f"{count(p.first_wins, lang)} : {count(p.second_wins, lang)}",
                           count(p.ties, lang), margin]))
        if narrow:  # too narrow for the table: a block per pair, nothing cut
            console.print(title, markup=False)
            for pair, values in lines:
                games, wins, ties, margin = (f"{h} {v}" for h, v in zip(heads, values,
                                                                          strict=True))
                for line in (f"  {pair}", f"    {games}: {wins} · {ties}", f"    {margin}"):
                    console.print(line, markup=False, soft_wrap=False)  # wrapped, never cut
            continue
        table = rich_table(title=title)
        table.add_column(words("history.h2h.pair", lang), overflow="fold", min_width=10)
        for key in ("history.stats.games", "history.h2h.wins", "history.h2h.ties"):
            head = words(key, lang)
            table.add_column(head, justify="right", no_wrap=True, min_width=len(head))
        table.add_column(words("history.h2h.margin", lang), overflow="fold",
                         min_width=len(heads[-1]))
        for pair, values in lines:
            table.add_row(pair, *values)
        console.print(table)
    console.print(words("history.h2h.legend", lang), markup=False, soft_wrap=False)


def print_evening(evening: Evening, lang: Lang) -> None:
    """One evening's standings: place, player, games won, points, average place."""
    from kniffel.engine.messages import number

    table = rich_table(title=words("history.evening.title", lang, day=evening.day,
                                   rules=rules_title(evening.rules, lang),
                                   games=count(evening.games, lang)))
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column(words("history.stats.player", lang), overflow="fold", min_width=10)
    for key in ("history.h2h.wins", "history.evening.points", "history.evening.place"):
        head = words(key, lang)
        table.add_column(head, justify="right", no_wrap=True, min_width=len(head))
    place = 0
    for i, s in enumerate(evening.standings):
        before = evening.standings[i - 1] if i else None
        if before is None or (before.wins, before.points) != (s.wins, s.points):
            place = i + 1
        table.add_row(str(place), s.name, count(s.wins, lang), count(s.points, lang),
                      number(s.average_place, lang, 2))
    rich_console().print(table)


def print_stats(rows: Sequence[PlayerStats], lang: Lang) -> None:
    """A table per rule set of the players' statistics, then the legend; a block per player
    where the terminal is too narrow for the table (nothing cut)."""
    from kniffel.engine.messages import number, percent

    console = rich_console()
    keys = ("games", "wins", "average", "best", "bonus", "kniffel")
    heads = [words(f"history.stats.{key}", lang) for key in keys]
    # the table's width without the names: borders, padding and the number columns
    narrow = console.width < 1 + 3 * (len(keys) + 1) + sum(map(len, heads)) + 10
    for rules_name in dict.fromkeys(s.rules for s in rows):
        title = words("history.stats.title", lang, rules=rules_name)
        lines = [(s.name, [count(s.games, lang), count(s.wins, lang), number(s.average, lang, 1),
                           count(s.best, lang), percent(s.bonus_rate, lang, 0),
                           percent(s.kniffel_rate, lang, 0)])
                 for s in rows if s.rules == rules_name]
        if narrow:  # too narrow for the table: a block per player, nothing cut
            console.print(title, markup=False)
            for name, values in lines:
                console.print(f"  {name}", markup=False)
                cells = [f"{h} {v}" for h, v in zip(heads, values, strict=True)]
                for start in (0, 3):
                    console.print("    " + " · ".join(cells[start:start + 3]), markup=False)
            continue
        table = rich_table(title=title)
        table.add_column(words("history.stats.player", lang), overflow="fold", min_width=10)
        for head in heads:
            # a number column is never narrower than its heading: headings are never cut
            table.add_column(head, justify="right", no_wrap=True, min_width=len(head))
        for name, values in lines:
            table.add_row(name, *values)
        console.print(table)
    console.print(words("history.stats.legend", lang), markup=False, soft_wrap=False)


@click.command("export", cls=KniffelCommand)
@summary("cli.help.command.export")
@db_option
@click.option("--game", "game_id", type=click.IntRange(min=1), default=None, metavar="ID",
              help=both("cli.help.export.game"))
@click.option("--csv", "as_csv", is_flag=True, help=both("cli.help.export.csv"))
@click.option("--force", is_flag=True, help=FORCE_HELP)
@lang_option
@click.argument("target", type=click.Path(dir_okay=False, allow_dash=True), default="-")
def export(db_path: str | None, game_id: int | None, as_csv: bool, force: bool, lang: Lang,
           target: str) -> None:
    """The file is the one the browser app imports too (format kniffel-history, version 2: uid,
    start and finish time and the game of every stored game). With --game ID, only that game
    is written, as a save file (kniffel show, kniffel advise --game, kniffel review read it).
    With --csv, a table for spreadsheets instead: one row per player and finished game (date,
    rule set, player, total, place, bonus, upper sum, every box), UTF-8 with a header; with
    --game ID too, that game's rows.

    TARGET is checked before anything is read: it is never the history database itself or any
    other SQLite database, an existing file is replaced only with --force, and a missing folder
    is not created. Only reads the history: a missing or empty database file stays as it is.
    """
    from datetime import datetime

    from kniffel.engine.history_csv import csv_text
    from kniffel.engine.messages import plural
    from kniffel.storage import check_target, write_target

    try:
        if target != "-":
            check_target(target, force=force, keep=[db_path or default_db_path()])
        with open_history(db_path, "export", lang, create=False) as db:
            if as_csv:
                if game_id is None:
                    no_database(db, lang)
                entries = db.entries(game_id)
                out = csv_text(entries, lang, datetime.now().astimezone().tzinfo)
                done = plural("cli.exported_csv", sum(e.finished for e in entries), lang,
                              where=target)
            elif game_id is None:
                no_database(db, lang)
                data = db.export()
                out = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
                done = plural("cli.exported", len(data["games"]), lang, where=target)
            else:
                out = db.export_game(game_id)
                done = words("history.exported_game", lang, id=game_id, where=target)
        if target == "-":
            click.echo(out, nl=False)
            return
        write_target(target, out)
    except KniffelError as e:
        fail("export", e, lang)
    rich_console(err=True).print(done, markup=False)


@click.command("import", cls=KniffelCommand)
@summary("cli.help.command.import")
@db_option
@lang_option
@click.argument("source", type=click.Path(dir_okay=False, allow_dash=True))
def import_cmd(db_path: str | None, lang: Lang, source: str) -> None:
    """Reads the desktop's and the browser app's exports (every version), and a single saved game
    (``kniffel export --game``, a rescue file of ``kniffel play``). Every game is checked
    first; an invalid file is refused and nothing is changed (no database is created). Games
    already stored (by uid, or by content: the same game from a file of another version) are
    skipped and counted.
    """
    from kniffel.engine.history_file import decode_history
    from kniffel.engine.messages import plural
    from kniffel.storage import read_json

    nothing = f" {words('cli.nothing_imported', lang)}"
    try:
        data, undated = read_json(source)  # a save that states no time: the file's own
    except KniffelError as e:
        fail("import", f"{render(e, lang)}{nothing}", lang)
    try:
        entries = decode_history(data, undated=undated)
    except KniffelError as e:
        fail("import", f"{source}: {render(e, lang)}{nothing}", lang)
    with open_history(db_path, "import", lang, suffix=nothing) as db:
        try:
            result = db.add_entries(entries)
        except KniffelError as e:
            fail("import", f"{render(e, lang)}{nothing}", lang)
    rich_console().print(words("cli.imported.both", lang,
                               new=plural("cli.imported.new", result.imported, lang),
                               skipped=plural("cli.imported.skipped", result.skipped, lang)),
                         markup=False)
