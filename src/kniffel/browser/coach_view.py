"""The coach for real dice as the browser page shows it (pure Python: runs in Pyodide): the
expert's tip for typed dice on the score pad, and the review of a pad game's entries.

The numbers come from :mod:`kniffel.engine.pad_review` (the expert's advice at a pad position,
the judged entries); the hint's shape and words are the dice game's
(:func:`kniffel.browser.advice_view.hint_view`), the review's lines the dice review's words.
"""

from __future__ import annotations

from typing import Any

from kniffel.browser.advice_view import LANGS, expected_line, hint_view, win_view
from kniffel.engine.advice import Advice, Option
from kniffel.engine.dice import Keep
from kniffel.engine.game import Game, Throw
from kniffel.engine.messages import dice_text, text
from kniffel.engine.pad_review import PadJudged, PadReview
from kniffel.engine.rules import Lang
from kniffel.engine.winning import WinAdvice


def _chip_words(then: Option, lang: Lang) -> str:
    """The chip's tip with what follows it: the dice to keep for the 4th throw, or all."""
    a = then.action
    assert isinstance(a, Throw)
    if a.keep == Keep():
        return text("advice.chip_throw_all", lang)
    return text("advice.chip_keep", lang, kept=dice_text(a.keep.d6, a.keep.d10, lang))


def pad_hint_view(game: Game, advice: Advice, then: Option | None = None,
                  win: WinAdvice | None = None, win_then: Option | None = None) -> dict[str, Any]:
    """The tip for the typed dice of the player to move in the pad ``game``: the dice game's
    hint (every choice best first with its expected final score, the best one's words), and the
    typed dice, the throw they lie after and whether a chip counts in this turn. Where the best
    choice is the chip, ``then`` is the best choice once it is handed in
    (:func:`~kniffel.engine.pad_review.after_chip`): the chip's words then say which dice to
    keep for the 4th throw. With ``win`` (a game of several players: the same position's
    :class:`~kniffel.engine.winning.WinAdvice`) the two answers as the dice game's hint has them
    (:func:`~kniffel.browser.advice_view.win_view`), ``win_then`` being the best choice to win
    once a chip that the to-win answer hands in is in."""
    pos = advice.position
    assert pos.roll is not None
    view = {**hint_view(game, advice, win), "dice": list(pos.roll.values),
            "rolls_used": pos.rolls_used, "chip_used": pos.chip_used}
    words = None
    if then is not None and isinstance(then.action, Throw):
        words = {lang: _chip_words(then, lang) for lang in LANGS}
        view["options"][0]["text"] = words
    if win is not None:
        win_words = None
        if win_then is not None and isinstance(win_then.action, Throw):
            win_words = {lang: _chip_words(win_then, lang) for lang in LANGS}
        view["win"] = win_view(game.rules, win, words, win_words)
    return view


def _entry_view(review: PadReview, e: PadJudged) -> dict[str, Any]:
    """One judged entry: where (action index, player, round), the dice, the box written, the
    best box with their expected final scores, the loss, and the lines the page shows."""
    rules = review.game.rules
    assert e.position.roll is not None
    taken = e.taken.describe(rules, "de"), e.taken.describe(rules, "en")
    best = e.best.describe(rules, "de"), e.best.describe(rules, "en")
    return {
        "index": e.index,
        "player": e.player,
        "round": e.round,
        "dice": list(e.position.roll.values),
        "box": e.action.box.value,
        "loss": round(e.loss, 3),
        "best_taken": e.best_taken,
        "taken": {"expected": round(e.taken.expected, 3),
                  "text": {"de": taken[0], "en": taken[1]}},
        "best": {"expected": round(e.best.expected, 3),
                 "text": {"de": best[0], "en": best[1]}},
        "source": e.source,
        "lines": {lang: [text("web.review.taken", lang, choice=taken[k]),
                         text("web.review.was_best", lang) if e.best_taken
                         else text("web.review.better", lang, choice=best[k]),
                         expected_line(e.taken.expected, e.best.expected, lang)]
                  for k, lang in enumerate(LANGS)},
    }


def pad_review_view(review: PadReview) -> dict[str, Any]:
    """A pad game's review for the page: every judged entry in order, per player the entries
    judged and the points lost, and how many entries were not judged (without typed dice,
    without the expert's values)."""
    game = review.game
    players = []
    for i, p in enumerate(game.players):
        own = [e for e in review.entries if e.player == i]
        players.append({"player": i, "name": p.name, "count": len(own),
                        "loss": round(review.total_loss(i), 3)})
    sources = {e.source for e in review.entries}
    source = "model" if "model" in sources else "table"
    return {
        "source": source,
        "source_text": {lang: text(f"web.review.source.{source}", lang) for lang in LANGS},
        "players": players,
        "entries": [_entry_view(review, e) for e in review.entries],
        "not_judged": review.not_judged,
        "without_dice": review.without_dice,
        "without_values": review.without_values,
    }
