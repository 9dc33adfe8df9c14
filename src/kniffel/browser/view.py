"""The complete view of a game that the browser page draws: every number, label and legal choice.

The page stores this view with the game, so a reload draws the sheet at once from storage while
the engine boots; only the controls wait for the engine. The page computes nothing itself: every
point, sum, bonus, leader and legal choice here comes from :class:`kniffel.engine.game.Game`.

Pure Python, no I/O: it runs inside Pyodide.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping, Sequence
from datetime import tzinfo
from functools import cache, partial
from importlib import resources
from typing import Any

from kniffel import __version__
from kniffel.engine.chances import (
    HIGH_Q,
    LOW_Q,
    GameSheets,
    chance_model,
    chances_at_hand,
    chances_from,
    chances_key,
)
from kniffel.engine.errors import ExpertError
from kniffel.engine.game import (
    MAX_PLAYERS,
    Correct,
    Enter,
    Game,
    Mode,
    Player,
    Score,
    Strike,
    Throw,
    UseChip,
    action_to_json,
)
from kniffel.engine.identity import game_identity, game_key
from kniffel.engine.messages import CATALOG
from kniffel.engine.rules import BOX_TEXTS, PRESETS, Box, Lang, RuleSet, StrikeRule, preset
from kniffel.engine.standings import Result, day_of, evenings, head_to_head

VIEW_FORMAT = "kniffel-view"
VIEW_VERSION = 1
LANGS: tuple[Lang, ...] = ("de", "en")


#: Box names for a narrow column (German, English): at most two short lines each. German keeps
#: the block's own words ("1er", "3-Pasch"); English spells them out, since its abbreviations
#: ("3 alike", "Lg. f. h.") read as code to a family, and shortens only the first word of a
#: name too long for two lines ("Lg. full house"), never putting another word in its place.
#: The catalog's ``box.short.*``.
SHORT_NAMES: Mapping[Box, tuple[str, str]] = {
    b: CATALOG[f"box.short.{b.value}"] for b in Box}

#: What an open box needs, in a few words for its cell (German, English; ``box.hint.*``).
HINTS: Mapping[Box, tuple[str, str]] = {b: CATALOG[f"box.hint.{b.value}"] for b in Box}


def _both(text: Callable[[Lang], str]) -> dict[str, str]:
    """A text in German and English."""
    return {lang: text(lang) for lang in LANGS}


def rules_view(rules: RuleSet) -> dict[str, Any]:
    """The facts of a rule set the page shows: title, boxes with names and conditions, dice,
    bonus, chips and throws."""
    return {
        "name": rules.name,
        "title": _both(rules.title),
        "free_strike": rules.free_strike,
        "free_strike_option": preset(rules.name).strike is StrikeRule.FORCED,
        "d10": rules.d10,
        "dice": rules.dice_count,
        "rolls": rules.rolls,
        "chips": rules.chips,
        "bonus_threshold": rules.bonus_threshold,
        "bonus_points": rules.bonus_points,
        "boxes": [
            {"id": b.value, "upper": b.is_upper,
             "name": _both(partial(rules.box_name, b)), "rule": _both(BOX_TEXTS[b].rule),
             "short": {"de": SHORT_NAMES[b][0], "en": SHORT_NAMES[b][1]},
             "hint": {"de": HINTS[b][0], "en": HINTS[b][1]},
             "max": rules.max_points(b),
             # the box scores one amount or nothing (a straight: always 40)
             "flat": len(rules.possible_points(b) - {0}) == 1}
            for b in rules.boxes
        ],
    }


def _option(action: Score | Strike | Enter | Correct, points: int, bonus: int) -> dict[str, Any]:
    return {
        "box": action.box.value,
        "points": points,
        "strike": isinstance(action, Strike) or (isinstance(action, Correct)
                                                  and action.points is None),
        "bonus": bonus,
        "action": action_to_json(action),
    }


def options_view(game: Game) -> list[dict[str, Any]]:
    """The ways the player whose turn it is may fill a box now, in sheet order, strikes last.

    Dice mode: the choices for the dice on the table (none before the first throw). Score pad:
    every number of points each open box can hold, extra-Kniffel entries, and striking.
    """
    if game.is_over() or game.is_chance_node():
        return []
    if game.mode is Mode.DICE:
        return [_option(Strike(c.box) if c.strike else Score(c.box), c.points, c.bonus)
                for c in game.choices()]
    bonus = game.rules.extra_kniffel_bonus
    out = []
    for a in game.legal_actions():
        if isinstance(a, Enter):
            out.append(_option(a, a.points, bonus if a.extra_kniffel else 0))
        elif isinstance(a, Strike):
            out.append(_option(a, 0, 0))
    return out


def pad_options_view(game: Game, actions: Sequence[Enter | Strike]) -> list[dict[str, Any]]:
    """``game.pad_choices(roll)`` as options: the boxes a roll typed in from real dice may go
    in, with their points."""
    bonus = game.rules.extra_kniffel_bonus
    return [_option(a, a.points if isinstance(a, Enter) else 0,
                    bonus if isinstance(a, Enter) and a.extra_kniffel else 0) for a in actions]


def corrections_view(game: Game, player: int, box: Box | str) -> list[dict[str, Any]]:
    """Score pad: the ways to put player ``player``'s filled ``box`` right — every other number
    of points it can hold, and striking it — as options like :func:`options_view`'s."""
    return [_option(c, c.points or 0, 0) for c in game.corrections(player, game.rules.box(box))]


#: The last position's chances (its key, its view): a throw changes no chance, so the views of
#: a turn's throws and a computer's steps reuse them.
_LAST_CHANCES: list[tuple[tuple[object, ...], dict[str, Any]]] = []


def chances_view(game: Game, *, wait: bool = True) -> dict[str, Any] | None:
    """Every player's chance to win ``game`` if everyone plays well from here
    (:func:`kniffel.engine.chances.win_chances`: ``win`` a share, a tie shared; the expected
    final total; ``low``–``high`` the range a final total falls in with the share
    ``coverage``, 80 %; ``finished`` when the sheet is full), in player order, with the
    ``leader`` (the one best chance; None when shared) and the values' ``source`` ("table" or
    "model"). None where the chances cannot be computed (no values for the rule set here).

    Without ``wait``, chances that would take long (:func:`chances_at_hand`: Kniffel Extreme's
    exact last two boxes, cold) are not computed: the last position's chances of the same
    players come instead, marked ``"stale": True`` (None where there are none), and the page
    asks for the new ones (the ``chances`` request) after it has drawn the sheet."""
    key = chances_key(game)
    if _LAST_CHANCES and _LAST_CHANCES[0][0] == key:
        return _LAST_CHANCES[0][1]
    try:
        # from the values at hand (the tables the site ships, the Extreme model), never solved
        model = chance_model(game.rules, build=False)
        sheets = GameSheets.of(game)
        if not wait and not chances_at_hand(sheets, model):
            return _stale(game)
        chances = chances_from(sheets, model)
    except ExpertError:
        return None
    shown = {
        "players": [{"win": _share(o.win), "expected": round(o.expected, 1), "low": o.low,
                     "high": o.high, "finished": o.finished} for o in chances.players],
        "leader": chances.leader,
        "coverage": round(HIGH_Q - LOW_Q, 4),
        "source": chances.source,
    }
    _LAST_CHANCES[:] = [(key, shown)]
    return shown


def _share(win: float) -> float:
    """``win`` to four decimals, where a chance that is neither none nor certain stays so
    (the page then shows "< 1 %" rather than "0 %", a player who can still win as out)."""
    shown = round(win, 4)
    if win > 0 and shown == 0:
        return 0.0001
    if win < 1 and shown == 1:
        return 0.9999
    return shown


def _stale(game: Game) -> dict[str, Any] | None:
    """The last position's chances view marked stale, where it is one of ``game``'s rules and
    number of players."""
    if not _LAST_CHANCES:
        return None
    key, shown = _LAST_CHANCES[0]
    if key[0] != game.rules or len(shown["players"]) != len(game.players):
        return None
    return {**shown, "stale": True}


def game_view(game: Game, *, chances: bool = True, wait: bool = True) -> dict[str, Any]:
    """Everything the page draws for ``game``: the sheet of every player with sums, bonus and
    chips, whose turn it is, the dice, the legal choices, the leader, the winners, and (with
    ``chances``) every player's win chance (:func:`chances_view`, ``wait`` passed on; None
    without)."""
    rules = game.rules
    totals = game.scores()
    best = max(totals)
    # a leader is ahead of everybody else: nobody leads a tie, nor a game of one
    sole_leader = len(totals) > 1 and totals.count(best) == 1
    ranks = {player: rank for rank, player, _ in game.ranking()}
    columns = []
    for i, player in enumerate(game.players):
        sheet = game.sheet(i)
        columns.append({
            "name": player.name,
            "kind": player.kind.value,
            "cells": {b.value: {"points": e.points, "struck": e.struck}
                      for b, e in sheet.entries.items()},
            "upper_sum": sheet.upper_sum,
            "bonus": sheet.bonus,
            "bonus_missing": sheet.bonus_missing,
            "bonus_reachable": sheet.bonus_reachable,
            "upper_complete": all(b in sheet.entries for b in rules.upper_boxes),
            "lower_sum": sheet.lower_sum,
            "extra_bonus": sheet.extra_bonus,
            "total": sheet.total,
            "chips_left": sheet.chips_left,
            "rank": ranks[i],
            "leader": sole_leader and totals[i] == best,
        })
    turn = game.turn
    turn_view: dict[str, Any] | None = None
    if turn is not None:
        legal = [] if game.is_chance_node() else game.legal_actions()
        dice = None
        if turn.roll is not None:
            dice = [{"value": v, "d10": i >= 5} for i, v in enumerate(turn.roll.values)]
        turn_view = {
            "player": turn.player,
            "rolls_used": turn.rolls_used,
            "rolls_allowed": turn.rolls_allowed,
            "rolls_left": turn.rolls_left,
            "chip_used": turn.chip_used,
            "dice": dice,
            "can_throw": game.mode is Mode.DICE and any(
                isinstance(a, Throw) for a in legal),
            "can_chip": UseChip() in legal,
        }
    return {
        "format": VIEW_FORMAT,
        "version": VIEW_VERSION,
        "engine": __version__,
        "rules": rules_view(rules),
        "mode": game.mode.value,
        "players": [{"name": p.name, "kind": p.kind.value, "strategy": p.strategy}
                    for p in game.players],
        "columns": columns,
        "round": game.round,
        "rounds": len(rules.boxes),
        "current": game.current_player,
        "turn": turn_view,
        "options": options_view(game),
        "over": game.is_over(),
        "winners": list(game.winners()),
        "actions": len(game.actions),
        # undo takes back the last human decision (with every computer move after it)
        "can_undo": game.last_human_decision() is not None,
        "chances": chances_view(game, wait=wait) if chances else None,
    }


def summary(game: Game) -> dict[str, Any]:
    """What the history keeps of a game besides its save: rule set, mode, players, totals, who
    got the bonus, who won, and the game's identity (:mod:`kniffel.engine.identity`): which
    game it is (``game``, however far it was played) and the game as played (``identity``), by
    which the page knows the same game without comparing saves."""
    save = game.to_json()
    return {
        "rules": game.rules.name,
        "title": _both(game.rules.title),
        "mode": game.mode.value,
        "players": [p.name for p in game.players],
        "totals": list(game.scores()),
        "bonus": [game.sheet(i).bonus > 0 for i in range(len(game.players))],
        "winners": list(game.winners()),
        "over": game.is_over(),
        "game": game_key(save),
        "identity": game_identity(save),
    }


def history_stats(summaries: Sequence[Mapping[str, Any]], dates: Sequence[object] = (),
                  zone: tzinfo | None = None) -> dict[str, Any]:
    """Statistics over finished games' summaries (oldest first), one part per rule set (never
    one average over Kniffel Extreme and classic Kniffel, whose totals lie far apart): games,
    and per rule set its name and title, its games, best and average total, and per player name
    the games, wins, best and average total and bonus rate, and the player's totals in order
    for the plot (``[index, total]``, the index into ``summaries``). The rule set played most
    comes first (the most recent of equally many). Unfinished or malformed summaries are
    skipped and counted. Each rule set's part has its ``head_to_head`` too
    (:func:`kniffel.engine.standings.head_to_head`); ``evening`` is the last evening's standings
    (:func:`kniffel.engine.standings.evenings`; the games' days from ``dates``, each summary's
    ISO time, in ``zone``), or None."""
    parts: dict[str, dict[str, Any]] = {}
    results: list[Result] = []
    finished = skipped = 0
    for index, s in enumerate(summaries):
        names, totals = s.get("players"), s.get("totals")
        bonus, winners = s.get("bonus"), s.get("winners")
        rules, title = s.get("rules"), s.get("title")
        if not (s.get("over") is True and isinstance(names, list) and isinstance(totals, list)
                and isinstance(bonus, list) and isinstance(winners, list)
                and isinstance(rules, str) and rules
                and len(names) == len(totals) == len(bonus) and names
                and all(isinstance(n, str) for n in names)
                and all(isinstance(t, int) and not isinstance(t, bool) for t in totals)):
            skipped += 1
            continue
        finished += 1
        results.append(Result(rules, tuple(names), tuple(totals),
                              day_of(dates[index] if index < len(dates) else None, zone)))
        part = parts.setdefault(rules, {"rules": rules, "title": _title(rules, title),
                                        "games": 0, "last": index, "totals": [],
                                        "players": {}})
        part["games"] += 1
        part["last"] = index
        for i, (name, total) in enumerate(zip(names, totals, strict=True)):
            p = part["players"].setdefault(name, {"name": name, "games": 0, "wins": 0,
                                                  "best": total, "sum": 0, "bonus": 0,
                                                  "totals": []})
            p["games"] += 1
            p["wins"] += i in winners
            p["best"] = max(p["best"], total)
            p["sum"] += total
            p["bonus"] += bool(bonus[i])
            p["totals"].append([index, total])
            part["totals"].append(total)
    out = []
    pairs = head_to_head(results)
    for part in sorted(parts.values(), key=lambda q: (-q["games"], -q["last"])):
        rows = []
        for p in sorted(part["players"].values(),
                        key=lambda p: (-p["wins"], -p["best"], p["name"])):
            games = p["games"]
            rows.append({"name": p["name"], "games": games, "wins": p["wins"], "best": p["best"],
                         "average": round(p["sum"] / games, 1),
                         "bonus": p["bonus"], "bonus_rate": round(p["bonus"] / games, 3),
                         "totals": p["totals"]})
        all_totals = part["totals"]
        out.append({"rules": part["rules"], "title": part["title"], "games": part["games"],
                    "best": max(all_totals),
                    "average": round(sum(all_totals) / len(all_totals), 1),
                    "players": rows,
                    "head_to_head": [{k: v for k, v in dataclasses.asdict(p).items()
                                      if k != "rules"} for p in pairs
                                     if p.rules == part["rules"]]})
    last = next(iter(evenings(results)), None)
    evening = None if last is None else {
        "day": last.day, "rules": last.rules, "title": _both(preset(last.rules).title)
        if last.rules in PRESETS else {lang: last.rules for lang in LANGS},
        "games": last.games, "standings": [dataclasses.asdict(s) for s in last.standings]}
    return {"games": finished, "skipped": skipped, "rule_sets": out, "evening": evening}


def _title(rules: str, title: object) -> dict[str, str]:
    """A rule set's display name in both languages: the preset's, else the summary's own
    (``{"de", "en"}``), else its name."""
    try:
        return _both(preset(rules).title)
    except ValueError:
        if isinstance(title, dict) and all(isinstance(title.get(lang), str) for lang in LANGS):
            return {lang: title[lang] for lang in LANGS}
        return {lang: rules for lang in LANGS}


def meta() -> dict[str, Any]:
    """What the start screen needs before the engine runs: the rule sets, written into the
    served site."""
    return {
        "engine": __version__,
        "presets": [rules_view(preset(name)) for name in PRESETS],
    }


def pad_start(rules: RuleSet) -> dict[str, Any]:
    """What the page needs to take a score pad's entries of ``rules`` before its engine runs,
    all of it the engine's own: a new pad game of one player (``game``: its save, ``view``:
    :func:`game_view` without chances, ``summary``), whose fresh column, options (every number
    each box can hold, and striking it) and save the page copies for each player of its game;
    and the order of play (``order``: for 1 to ``MAX_PLAYERS`` players, after each number of
    entries, whose turn it is and the round, ``[None, None]`` once the sheet is full). The
    page queues the entries as the game's actions, which the engine replays once it runs
    (sums, chances and everything else follow from there)."""
    game = Game(rules, [Player("A")], mode=Mode.PAD, seed=0)
    order = []
    for count in range(1, MAX_PLAYERS + 1):
        played = Game(rules, [Player(str(i)) for i in range(count)], mode=Mode.PAD, seed=0)
        steps = [[played.current_player, played.round]]
        while not played.is_over():
            played.apply(next(a for a in played.legal_actions() if isinstance(a, Strike)))
            steps.append([played.current_player, None if played.is_over() else played.round])
        order.append(steps)
    return {"game": game.to_json(), "view": game_view(game, chances=False),
            "summary": summary(game), "order": order}


def pad_starts() -> dict[str, dict[str, Any]]:
    """:func:`pad_start` of every rule set the start screen offers, by its name, ``/free``
    added for the free-strike house rule where the preset forbids free strikes (the site's
    meta.json carries them)."""
    out = {}
    for name in PRESETS:
        out[name] = pad_start(preset(name))
        if preset(name).strike is StrikeRule.FORCED:
            out[f"{name}/free"] = pad_start(preset(name, free_strike=True))
    return out


#: The computer players the browser offers (the bridge refuses any other); the first is the
#: default.
BROWSER_COMPUTERS: tuple[str, ...] = ("greedy", "random", "expert", "expert-win")

#: The catalog's codes of the page's own words.
PAGE_PREFIX = "page."


def page_words() -> dict[Lang, dict[str, str]]:
    """The page's own words (the catalog's ``page.*`` codes) by language: ``{"de": {code:
    template}, "en": {...}}``, templates with ``str.format`` placeholders that the page fills."""
    return {lang: {code: pair[i] for code, pair in CATALOG.items() if code.startswith(PAGE_PREFIX)}
            for i, lang in enumerate(LANGS)}


def page_data() -> dict[str, Any]:
    """What the page needs for its first paint, before any request: its words
    (:func:`page_words`), the engine's facts it draws the start screen by (the most players of a
    game, the computer players it offers, the rule set a new page starts with) and the shape of
    the engine's replies (:func:`page_schema`). The site's build writes it into index.html."""
    return {"words": page_words(), "max_players": MAX_PLAYERS,
            "computers": list(BROWSER_COMPUTERS), "default_rules": PRESETS[0],
            "schema": page_schema()}


@cache
def page_schema() -> dict[str, Any]:
    """The shape of the replies the page checks before it keeps them (``schema.json`` beside
    this module, described once): the game's view (:func:`game_view`), a game's summary
    (:func:`summary`), and the bridge's operations by name. The page's ``store.js`` checks
    stored views and history entries against it; the tests check this module's replies."""
    text = resources.files("kniffel.browser").joinpath("schema.json").read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded
