"""The expert's hints and game reviews as the browser page shows them (pure Python: runs in
Pyodide).

Every number here comes from :mod:`kniffel.engine.expert` (the exact within-turn computation,
valued at
the turn's end by the classic rule sets' exact tables or by the fitted Kniffel Extreme model);
this module only turns its :class:`~kniffel.engine.advice.Advice` and
:class:`~kniffel.engine.review.Review` into JSON with the words in German and English from the
message
catalog. The page draws them and computes nothing.

The classic rule sets' exact tables (float32, built by :func:`kniffel.web.server.expert_tables`
at site-build time) are files of the site of their own (``tables/``): the page's worker fetches
one into ``kniffel/browser/tables/`` when a game of its rule set first needs it
(:func:`kniffel.browser.bridge.wanted_table`); :func:`install` makes the expert read them from
there.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from kniffel.engine.advice import Advice, Option
from kniffel.engine.chances import chance_model, chances_over_game
from kniffel.engine.dice import Roll, keep_positions
from kniffel.engine.errors import ExpertError, KniffelError
from kniffel.engine.game import Game, Score, Strike, Throw, UseChip, action_to_json
from kniffel.engine.messages import CATALOG, fields, number, percent, render, text
from kniffel.engine.review import Decision, LuckSkill, Review, WinJudged, luck_skill_split
from kniffel.engine.rules import PRESETS, Lang, RuleSet, StrikeRule, preset
from kniffel.engine.values import register_table_provider, values_for
from kniffel.engine.winning import WinAdvice, WinOption

LANGS: tuple[Lang, ...] = ("de", "en")
#: Where the engine's files hold the classic rule sets' exact tables (fetched by the worker).
TABLES_DIR = Path(__file__).resolve().parent / "tables"
#: The same folder's place in the package, as the site's worker names the files it fetches
#: (:func:`kniffel.browser.bridge.wanted_table`).
TABLES_PLACE = "browser/tables"
#: How many of a player's costliest decisions the review names.
COSTLIEST = 3


def _both(words: Callable[[Lang], str]) -> dict[str, str]:
    return {lang: words(lang) for lang in LANGS}


# --- the tables the site ships ---------------------------------------------------------------


def browser_rule_sets() -> tuple[RuleSet, ...]:
    """Every rule set the browser's start screen offers: each preset, and with the free-strike
    house rule where the preset forbids free strikes."""
    out = []
    for name in PRESETS:
        out.append(preset(name))
        if preset(name).strike is StrikeRule.FORCED:
            out.append(preset(name, free_strike=True))
    return tuple(out)


def table_file_name(rules: RuleSet) -> str:
    """The name of ``rules``' table in the site (``kniffel.table``,
    ``kniffel-free-strike.table``): the preset's name, marked when the free-strike house rule
    differs from the preset's own."""
    free = rules.free_strike != preset(rules.name).free_strike
    return f"{rules.name}{'-free-strike' if free else ''}.table"


def shipped_table(rules: RuleSet) -> bytes | None:
    """The bytes of ``rules``' exact table as the site ships it; None when it ships none."""
    try:
        return (TABLES_DIR / table_file_name(rules)).read_bytes()
    except OSError:
        return None


@cache
def install() -> None:
    """Make the expert read the classic tables the site ships (once per interpreter)."""
    register_table_provider(shipped_table)


def for_players(error: KniffelError) -> KniffelError:
    """``error`` as a player of the browser app should read it: a missing model is said in
    plain words (the desktop's sentence names the command that builds it); anything else as
    it is."""
    if error.code == "expert.model_missing":
        return ExpertError(str(error), code="web.expert.missing",
                           params={"rules": error.params.get("rules")})
    return error


def expert_status(rules: RuleSet, *, build: bool = False) -> dict[str, Any]:
    """Whether the expert plays ``rules`` here (its values load), and if not, why: ``{"ready":
    bool, "note": {"de", "en"} | None}``. ``build`` lets a desktop solve a missing classic
    table."""
    install()
    try:
        values_for(rules, build=build)
    except KniffelError as e:
        shown = for_players(e)
        return {"ready": False, "code": shown.code,
                "note": {lang: render(shown, lang) for lang in LANGS}}
    return {"ready": True, "code": None, "note": None}


PAGE_WORDS = ("web.expert.", "web.hint.", "web.review.", "web.play.")


def page_words() -> dict[str, dict[str, str]]:
    """The page's own words of hints, reviews, the expert and the dice game (the catalog's
    ``web.expert``, ``web.hint``, ``web.review`` and ``web.play`` entries without parameters),
    in German and English: the
    site's ``meta.json`` carries them, so the page has them before the engine runs."""
    return {code: {"de": de, "en": en} for code, (de, en) in CATALOG.items()
            if code.startswith(PAGE_WORDS) and not fields(de)}


def status_key(rules: RuleSet) -> str:
    """The key of ``rules`` in :func:`experts`: the preset's name, ``/free`` added when the
    free-strike house rule differs from the preset's own."""
    return rules.name + ("/free" if rules.free_strike != preset(rules.name).free_strike else "")


def experts(*, build: bool = False) -> dict[str, dict[str, Any]]:
    """:func:`expert_status` of every rule set the browser offers, by :func:`status_key`."""
    return {status_key(r): expert_status(r, build=build) for r in browser_rule_sets()}


# --- hints -----------------------------------------------------------------------------------


def _kind(option: Option) -> str:
    a = option.action
    if isinstance(a, Throw):
        return "keep" if a.keep.size else "throw"
    if isinstance(a, UseChip):
        return "chip"
    if isinstance(a, Strike):
        return "strike"
    return "score"


def option_view(rules: RuleSet, roll: Roll | None, option: Option) -> dict[str, Any]:
    """One choice: what it is (``kind``: keep, throw, chip, score, strike), its action, the
    positions in the view's dice it keeps, its box and points, the expected final score, the
    loss against the best choice, and its words."""
    a = option.action
    keep = (list(keep_positions(roll, a.keep)) if isinstance(a, Throw) and roll is not None
            else None)
    return {
        "kind": _kind(option),
        "action": action_to_json(a),
        "keep": keep,
        "box": a.box.value if isinstance(a, Score | Strike) else None,
        "points": option.points,
        "expected": round(option.expected, 3),
        "loss": round(option.loss, 3),
        "text": _both(lambda lang: option.describe(rules, lang)),
    }


def win_answer_view(rules: RuleSet, roll: Roll | None, option: WinOption,
                    words: dict[Lang, str] | None = None) -> dict[str, Any]:
    """One of a hint's two answers (:func:`win_view`): the choice as :func:`option_view` has
    it, with its chance to win (0–1); ``words`` in place of the choice's own (a chip's with the
    dice it keeps)."""
    view = {**option_view(rules, roll, option), "win": round(option.win, 4)}
    if words is not None:
        view["text"] = words
    return view


def win_view(rules: RuleSet, advice: WinAdvice,
             words: dict[Lang, str] | None = None,
             win_words: dict[Lang, str] | None = None) -> dict[str, Any]:
    """A hint's two answers (:mod:`kniffel.engine.winning`): the best choice for the points
    and the best for the win, each with its expected final total and its chance to win;
    ``differ`` when playing to win asks for another choice (the page then shows both), and
    whether the chances are exact (the last round) or the win-chance model's."""
    roll = advice.points.position.roll
    source = "exact" if advice.exact else "model"
    return {
        "differ": advice.differ,
        "exact": advice.exact,
        "points": win_answer_view(rules, roll, advice.for_points, words),
        "win": win_answer_view(rules, roll, advice.for_win,
                               win_words if advice.differ else words),
        "source_text": _both(lambda lang: text(f"web.hint.win_source.{source}", lang)),
    }


def hint_view(game: Game, advice: Advice, win: WinAdvice | None = None) -> dict[str, Any]:
    """The hint for the player to move in ``game``: every choice best first with its expected
    final score, the game's action count it belongs to, and where the values come from; with
    ``win`` (a game of several players) every choice's chance to win too and the two answers
    (:func:`win_view`, under ``win``; None without)."""
    rules = game.rules
    player = game.current_player
    assert player is not None
    name = game.players[player].name
    best = advice.options[0]
    options = [option_view(rules, advice.position.roll, o) for o in advice.options]
    if win is not None:
        chance = {o.action: o.win for o in win.options}
        for o, view in zip(advice.options, options, strict=True):
            view["win"] = round(chance[o.action], 4)
    return {
        "actions": len(game.actions),
        "player": player,
        "source": advice.source,
        "source_text": _both(lambda lang: text(f"web.hint.source.{advice.source}", lang)),
        "score_so_far": advice.score_so_far,
        "title": _both(lambda lang: text("web.hint.title", lang, player=name)),
        "expected_text": _both(lambda lang: text("web.hint.expected", lang,
                                                 points=number(best.expected, lang))),
        "options": options,
        "win": None if win is None else win_view(rules, win),
    }


# --- reviews ---------------------------------------------------------------------------------


def _moment(d: Decision, lang: Lang) -> str:
    pos = d.position
    if pos.chip_used:
        return text("web.review.moment_chip", lang, round=d.round)
    return text("web.review.moment", lang, round=d.round, throw=pos.rolls_used)


def decision_view(rules: RuleSet, d: Decision) -> dict[str, Any]:
    """One judged decision: where it was made (action index, player, round, throw), the dice,
    the choice taken and the best one with their expected final scores, and the loss."""
    roll = d.position.roll
    return {
        "index": d.index,
        "player": d.player,
        "round": d.round,
        "when": _both(lambda lang: _moment(d, lang)),
        "dice": list(roll.values) if roll is not None else [],
        "loss": round(d.loss, 3),
        "best_taken": d.taken.action == d.best.action,
        "taken": {"expected": round(d.taken.expected, 3),
                  "text": _both(lambda lang: d.taken.describe(rules, lang))},
        "best": {"expected": round(d.best.expected, 3),
                 "text": _both(lambda lang: d.best.describe(rules, lang))},
        "source": d.source,
        "lines": {lang: [text("web.review.taken", lang, choice=d.taken.describe(rules, lang)),
                         text("web.review.was_best", lang) if d.taken.action == d.best.action
                         else text("web.review.better", lang,
                                   choice=d.best.describe(rules, lang)),
                         expected_line(d.taken.expected, d.best.expected, lang)]
                  for lang in LANGS},
    }


def expected_line(taken: float, best: float, lang: Lang) -> str:
    """The expected final scores of the choice taken and of the best one in words: "704,0
    statt 712,4 Punkte", or one number where they read the same (the best choice was taken, or
    one as good to the shown digit), never "704,0 statt 704,0"."""
    shown, best_shown = number(taken, lang), number(best, lang)
    if shown == best_shown:
        return text("web.review.expected_same", lang, points=shown)
    return text("web.review.expected", lang, taken=shown, best=best_shown)


def review_view(review: Review) -> dict[str, Any]:
    """A game's review for the page: every judged decision in order, and per player the number
    of decisions, the points lost in all, and the (up to) three costliest decisions (indices
    into ``decisions``)."""
    game = review.game
    rules = game.rules
    decisions = list(review.decisions)
    position = {d.index: k for k, d in enumerate(decisions)}
    players = []
    for i, p in enumerate(game.players):
        count = sum(d.player == i for d in decisions)
        lost = review.total_loss(i)
        costliest = review.costliest(COSTLIEST, i)
        key = "web.review.summary" if costliest else "web.review.perfect"
        players.append({
            "player": i, "name": p.name, "kind": p.kind.value, "count": count,
            "loss": round(lost, 3),
            "summary": {lang: text(key, lang, name=p.name, count=count,
                                   points=number(lost, lang)) for lang in LANGS},
            "costliest": [position[d.index] for d in costliest],
        })
    sources = {d.source for d in decisions}
    source = "model" if "model" in sources else "table"
    return {
        "source": source,
        "source_text": _both(lambda lang: text(f"web.review.source.{source}", lang)),
        "players": players,
        "decisions": [decision_view(rules, d) for d in decisions],
        "uncovered": len(review.uncovered),
        "chances": review_chances_view(review),
    }


def win_cost_line(judged: WinJudged, lang: Lang) -> str:
    """A decision's chance to win in words: what it cost against the best choice to win
    ("Kostete 4,2 Prozentpunkte Gewinnchance (31,0 % statt 35,2 %)"), or that it was as good
    to the shown digit ("Gewinnchance 31,0 %, so hoch wie mit dem besten Zug")."""
    taken, best = percent(judged.taken, lang), percent(judged.best, lang)
    if taken == best:
        return text("web.review.win_same", lang, taken=taken)
    return text("web.review.win_cost", lang, points=number(100 * judged.loss, lang),
                taken=taken, best=best)


def review_wins_view(review: Review, wins: dict[int, WinJudged]) -> dict[str, Any]:
    """The review's judging by the chance to win (:func:`~kniffel.engine.review.review_wins`):
    every judged decision's chance to win (``taken``, ``best``, ``loss``, 0–1) and its line in
    both languages, by action index; per player the percentage points lost in all and a
    summary line; whether the chances are the win-chance model's (``source``). Empty
    ``decisions`` for a game of one player."""
    game = review.game
    decisions = {str(i): {"index": j.index, "player": j.player, "taken": round(j.taken, 4),
                          "best": round(j.best, 4), "loss": round(j.loss, 4), "exact": j.exact,
                          "line": {lang: win_cost_line(j, lang) for lang in LANGS}}
                 for i, j in wins.items()}
    players = []
    for i, p in enumerate(game.players):
        lost = sum(j.loss for j in wins.values() if j.player == i)
        players.append({"player": i, "loss": round(lost, 4), "summary": {
            lang: text("web.review.win_summary", lang, name=p.name,
                       points=number(100 * lost, lang)) for lang in LANGS}})
    source = "exact" if wins and all(j.exact for j in wins.values()) else "model"
    return {"decisions": decisions, "players": players if wins else [],
            "source_text": _both(lambda lang: text(f"web.review.win_source.{source}", lang))}


def review_chances_view(review: Review) -> dict[str, Any] | None:
    """How a reviewed finished game went for each player: the win chances before the first
    entry and after every entry (:func:`kniffel.engine.chances.chances_over_game`; ``entry``
    counts the entries made, ``index`` is the action's number, -1 before the first, ``win``
    one chance per player) and each player's result split into the points lost by decisions
    (``skill``) and luck, as the engine splits and rounds it (:func:`~kniffel.engine.review.
    luck_skill_split`, :meth:`~kniffel.engine.review.LuckSkill.shown`).
    None where the rule set has no values to compute chances with, or the game is not over."""
    game = review.game
    try:
        model = chance_model(game.rules)
        points = chances_over_game(game, model=model)
    except KniffelError:
        return None
    split = luck_skill_split(review, model=model)
    if not split:
        return None
    return {
        "source": model.source,
        "points": [{"entry": k, "index": p.index, "round": p.round,
                    "win": [round(o.win, 4) for o in p.chances.players]}
                   for k, p in enumerate(points)],
        "luck": [_luck_view(game, s.shown()) for s in split],
    }


def _luck_view(game: Game, shown: LuckSkill) -> dict[str, Any]:
    """One player's split as shown (:meth:`~kniffel.engine.review.LuckSkill.shown`), with the
    player's name."""
    return {"player": shown.player, "name": game.players[shown.player].name,
            "expected": shown.expected, "final": shown.final, "skill": shown.skill,
            "luck": shown.luck}


def moment(game: Game, index: int) -> Game:
    """``game`` as it was just before its action number ``index`` (replayed from the start)."""
    replay = game.at_start()
    for action in game.actions[:index]:
        replay.apply(action)
    return replay
