"""The engine's side of the browser app: the requests the page's Web Worker passes to Python.

The page sends JSON requests (``{"op": "act", "action": {...}}``) and gets JSON answers: the game
as a save (:meth:`Game.to_json`) and its view (:func:`kniffel.browser.view.game_view`), or an error
naming the problem. The page never decides a rule: it forwards what the user tapped.

Pure Python, no I/O: it runs inside Pyodide. Every game is run by a
:class:`kniffel.engine.match.Match`
(dice from the game's seed, so an undone throw, thrown again, brings the same dice; the
computers' decisions; undo), like in the terminal game and ``simulate``.

Computer players (virtual dice only) take their turn a step at a time, as the page asks:
``computer_plan`` says what the computer to move will do next (the dice it keeps, so the page can
show them before the throw) and changes nothing; ``computer_move`` makes that move. A strategy's
own random choices follow from the seed (:func:`kniffel.engine.match.strategy_rng`), so a game with
computers replays too. Undo takes back the last decision of a human and every computer move after
it.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from collections.abc import Callable
from datetime import timedelta, timezone
from typing import Any

from kniffel.browser import advice_view, coach_view, share, table
from kniffel.browser import history_transfer as transfer
from kniffel.browser.table_protocol import Result, Table, TableError
from kniffel.browser.view import (
    BROWSER_COMPUTERS,
    chances_view,
    corrections_view,
    game_view,
    history_stats,
    pad_options_view,
    summary,
)
from kniffel.engine import expert
from kniffel.engine.advice import Position
from kniffel.engine.errors import (
    CorruptSaveError,
    IllegalMoveError,
    InvalidGameError,
    InvalidImportError,
    KniffelError,
    UnknownStrategyError,
    cause_param,
)
from kniffel.engine.expert_model import has_model_file, model_file
from kniffel.engine.game import (
    Game,
    Mode,
    Player,
    PlayerKind,
    Throw,
    UseChip,
    action_from_json,
    action_to_json,
    players_from_json,
)
from kniffel.engine.history_csv import csv_text
from kniffel.engine.history_file import (
    FORMAT,
    MAX_GAMES,
    UNKNOWN_TIME,
    VERSION,
    HistoryEntry,
    decode_entry,
    decode_history,
    derived_uid,
    encode_history,
    history_games,
    is_history,
    stated_game,
    stated_uid,
)
from kniffel.engine.identity import KnownGames, game_identity, game_key
from kniffel.engine.match import Match
from kniffel.engine.messages import render, render_code, text
from kniffel.engine.pad_review import (
    after_chip,
    pad_advice,
    pad_position,
    review_pad,
    typed_throw,
    typed_throws,
)
from kniffel.engine.review import review_game, review_wins
from kniffel.engine.rules import PRESETS, Lang, RuleSet, preset
from kniffel.engine.saves import loads_game
from kniffel.engine.strategy import Strategy, get_strategy
from kniffel.engine.values import values_for
from kniffel.engine.vectors import box_scores
from kniffel.engine.winning import WinAdvice, win_advice

HISTORY_FORMAT = FORMAT
HISTORY_VERSION = VERSION
MAX_IMPORT_GAMES = MAX_GAMES
#: The computer players the browser offers (``optimal`` needs the compiled solver: desktop
#: only; ``expert`` plays every rule set whose values the site ships): the page's list.
WEB_STRATEGIES = BROWSER_COMPUTERS
#: The computer players that read the expert's values (refused at a new game without them).
EXPERTS = frozenset({"expert", "expert-win"})

Reply = dict[str, Any]



#: The fields of a save that make it the game it is, its actions aside (the expert's engine
#: plays a save on from the one asked last only where these agree).
_SAVE_HEADER = ("format", "version", "rules", "mode", "seed", "start_player", "players")

class Session:
    """The game the page is showing, and the requests that read and change it."""

    def __init__(self, *, chances: bool = True) -> None:
        self.match: Match | None = None
        self._strategies: dict[tuple[str, RuleSet], Strategy] = {}
        #: whether the views carry the win chances (the warm-up's sessions do without: the
        #: values they need would make the engine's memory snapshot too large)
        self.chances = chances
        #: the table this phone sits at (None: none)
        self.table: Table | None = None
        #: the history this phone sends to another, or receives from one (None: none)
        self.sending: transfer.Sending | None = None
        self.receiving: transfer.Receiving | None = None
        #: the last game a request asked about (its save's header and actions, the game)
        self._asked: tuple[tuple[object, ...], list[Any], Game] | None = None
        #: the history file a restore is checking part by part (:meth:`import_part`): its
        #: number, version, games, and the indices of the new games not checked yet
        self._restore: tuple[int, int, list[object], set[int]] | None = None
        self._restores = 0

    @property
    def game(self) -> Game | None:
        """The game the page is showing (None before the first)."""
        return self.match.game if self.match is not None else None

    @game.setter
    def game(self, game: Game | None) -> None:
        self.match = None if game is None else self._match(game)

    def _match(self, game: Game) -> Match:
        """A match of ``game`` whose computers play the browser's strategies."""
        return Match(game, factory=self._strategy)

    def _strategy(self, name: str, rules: RuleSet) -> Strategy:
        """A browser computer player's strategy, built once per session and rule set."""
        key = (_web_strategy(name), rules)
        if key not in self._strategies:
            self._strategies[key] = get_strategy(key[0], rules)
        return self._strategies[key]

    def _asked_game(self, req: dict[str, Any]) -> Game:
        """The game a request reads (``game``: a save; the game in play when absent), for
        reading only. A save that goes on from the one asked about last (the same game, more
        actions: the next throw's hint) is played on from it, not replayed from its start (a
        late Kniffel Extreme game of four holds hundreds of actions); any other is replayed."""
        save = req.get("game")
        if save is None:
            return self._game()
        last = self._asked
        if last is not None and isinstance(save, dict) and isinstance(save.get("actions"), list):
            header, actions, game = last
            theirs = save["actions"]
            if (tuple(save.get(k) for k in _SAVE_HEADER) == header
                    and len(theirs) >= len(actions) and theirs[:len(actions)] == actions):
                try:
                    for action in theirs[len(actions):]:
                        game.apply(action_from_json(action))
                except KniffelError:
                    pass  # replayed from its start below: its own error names the fault
                else:
                    self._asked = (header, list(theirs), game)
                    return game
        game = Game.from_json(save)
        assert isinstance(save, dict)
        self._asked = (tuple(save.get(k) for k in _SAVE_HEADER), list(save["actions"]), game)
        return game

    def _current(self) -> Match:
        if self.match is None:
            raise IllegalMoveError("no game is loaded; start or load one first",
                                   code="web.no_game")
        return self.match

    def _game(self) -> Game:
        return self._current().game

    def _view(self, game: Game) -> dict[str, Any]:
        """The view of ``game`` (:func:`game_view`), with the win chances unless this session
        does without; chances that would take long come stale (the page asks for them with
        the ``chances`` request once the sheet is drawn)."""
        if self.chances:
            advice_view.install()  # the classic tables the site ships, for the chances
        return game_view(game, chances=self.chances, wait=False)

    def _state(self) -> Reply:
        game = self._game()
        return {"game": game.to_json(), "view": self._view(game), "summary": summary(game)}

    def new(self, req: dict[str, Any]) -> Reply:
        """A new game: rule set, free-strike house rule, mode, players, seed (random if
        absent)."""
        rules = preset(_text(req.get("rules", "extreme"), "rules"),
                       free_strike=req.get("free_strike") is True)
        try:
            mode = Mode(req.get("mode", "pad"))
        except ValueError:
            raise InvalidGameError(f"unknown mode {req.get('mode')!r}", code="game.mode_unknown",
                                   params={"mode": str(req.get("mode"))}) from None

        def plays(kind: PlayerKind, strategy: object) -> str | None:
            """The strategy a requested player plays: a computer one of the browser's
            (greedy when none is named; virtual dice only), a person none."""
            if kind is not PlayerKind.COMPUTER:
                return strategy if isinstance(strategy, str) else None
            if mode is not Mode.DICE:
                raise InvalidGameError("computer players play only with virtual dice: on the "
                                       "score pad every player is a person",
                                       code="web.computer_needs_dice")
            return _web_strategy(strategy)

        players = players_from_json(req.get("players"), request=True, strategy=plays)
        if any(p.strategy in EXPERTS for p in players):
            # refused now, not at the expert's first move: its values must be here
            advice_view.install()
            values_for(rules, build=False)
        seed = req.get("seed")
        if seed is None:
            # below 2**53: the page keeps the game as JSON in JavaScript, whose numbers hold
            # whole numbers exactly only up to there, and the dice follow from the seed
            seed = random.SystemRandom().randrange(2**53)
        self.game = Game(rules, players, mode=mode, seed=seed)
        return self._state()

    def load(self, req: dict[str, Any]) -> Reply:
        """Replay a saved game (the page's stored copy); a bad one raises and changes
        nothing. With ``"chances": false`` the view comes without the win chances (the page's
        start: it keeps those of its stored view and asks for them with ``chances`` once it
        is ready, so loading their values does not hold up its start)."""
        match = self._match(Game.from_json(req.get("game")))
        match.settle()
        self.match = match
        if req.get("chances") is False:
            game = match.game
            return {"game": game.to_json(), "view": game_view(game, chances=False),
                    "summary": summary(game)}
        return self._state()

    def act(self, req: dict[str, Any]) -> Reply:
        """Apply one action the user chose (its JSON from the view's options)."""
        match = self._current()
        action = action_from_json(req.get("action"))
        if isinstance(action, Throw):
            raise IllegalMoveError("throws go through the 'roll' request", code="web.bad_request")
        match.apply(action)
        return self._state()

    def roll(self, req: dict[str, Any]) -> Reply:
        """Dice mode: keep the dice at ``keep`` (positions in the view's dice) and throw the
        others."""
        match = self._current()
        positions = req.get("keep", [])
        if not isinstance(positions, list) or not all(
            isinstance(p, int) and not isinstance(p, bool) for p in positions
        ):
            raise IllegalMoveError(f"keep must be a list of dice positions, got {positions!r}",
                                   code="web.bad_request")
        match.throw_keeping(positions)
        return self._state()

    def undo(self, req: dict[str, Any]) -> Reply:
        """Take back the last decision of a human (a throw with its dice counts as one step),
        and every computer move after it."""
        self._current().undo()
        return self._state()

    def _computer(self) -> Match:
        """The match, when a computer player (virtual dice) is to move."""
        match = self._current()
        game = match.game
        turn = game.turn
        if turn is not None and game.mode is not Mode.DICE and (
                game.players[turn.player].kind is PlayerKind.COMPUTER):
            raise IllegalMoveError("computer players play only with virtual dice",
                                   code="web.computer_needs_dice")
        return match

    def computer_plan(self, req: dict[str, Any]) -> Reply:
        """What the computer to move does next, changing nothing: the action, and for a throw
        after the first the positions of the dice it keeps."""
        plan = self._computer().plan()
        return {"action": action_to_json(plan.action),
                "keep": None if plan.keep is None else list(plan.keep)}

    def computer_move(self, req: dict[str, Any]) -> Reply:
        """Make the next move of the computer to move (a throw with its dice)."""
        step = self._computer().move()
        return {"move": action_to_json(step.action), **self._state()}

    def pad_choices(self, req: dict[str, Any]) -> Reply:
        """Score pad: where the dice a player typed in may go, with their points; the throw
        they lie after (``throw``) and the throws the coach offers (``throws``), given the dice
        typed before in this turn and their throw (``before``: ``{"dice", "throw"}``, or
        absent): the next throw for other dice, the same for the same
        (:func:`~kniffel.engine.pad_review.typed_throw`)."""
        game = self._game()
        roll = game.rules.parse_roll(_dice(req.get("dice")))
        before = req.get("before")
        earlier = None
        if before is not None:
            throw = before.get("throw") if isinstance(before, dict) else None
            if isinstance(throw, bool) or not isinstance(throw, int):
                raise InvalidGameError("before must hold the dice typed before and their throw, "
                                       f"got {before!r}", code="web.bad_request")
            earlier = (game.rules.parse_roll(_dice(before.get("dice"))), throw)
        # each entry records the typed dice (checked again when it is entered): the coach's
        # review judges them afterwards
        entries = [dataclasses.replace(a, dice=roll) for a in game.pad_choices(roll)]
        return {"dice": list(roll.values), "options": pad_options_view(game, entries),
                "throw": typed_throw(game, roll, earlier), "throws": list(typed_throws(game))}

    def corrections(self, req: dict[str, Any]) -> Reply:
        """Score pad: the ways to put a filled box of any player right (``player``, ``box``)."""
        game = self._game()
        player = req.get("player")
        if isinstance(player, bool) or not isinstance(player, int):
            raise InvalidGameError(f"player must be a player's number, got {player!r}",
                                   code="web.bad_request")
        return {"player": player, "box": _text(req.get("box"), "box"),
                "options": corrections_view(game, player, _text(req.get("box"), "box"))}

    def share(self, req: dict[str, Any]) -> Reply:
        """The sheet as text to share, in the request's language."""
        lang: Lang = "en" if req.get("lang") == "en" else "de"
        return {"text": share.sheet_text(self._game(), lang)}

    def handoff(self, req: dict[str, Any]) -> Reply:
        """The game packed for a link's fragment (``#g=…``) and the QR code of ``base`` (the
        page's address) with that fragment."""
        packed = share.pack(self._game())
        base = req.get("base")
        url = f"{_text(base, 'base')}#g={packed}" if base is not None else f"#g={packed}"
        return {"fragment": f"g={packed}", "url": url, "qr": share.qr_code(url)}

    def unpack(self, req: dict[str, Any]) -> Reply:
        """The game a link's fragment carries, checked by the engine; changes nothing here (the
        page asks before it loads it)."""
        game = share.unpack(_text(req.get("fragment"), "the link"))
        return {"game": game.to_json(), "view": self._view(game), "summary": summary(game)}

    def hint(self, req: dict[str, Any]) -> Reply:
        """The expert's hint for the player to move (virtual dice) in ``game`` (a save; the
        game in play when absent): every choice best first with its expected final score
        (:func:`advice_view.hint_view`); in a game of several players every choice's chance to
        win too, and the best choice for the points and the best to win (``win``). Changes
        nothing."""
        advice_view.install()
        game = self._asked_game(req)
        win = _win_advice(game)
        if win is not None:
            return {"hint": advice_view.hint_view(game, win.points, win)}
        return {"hint": advice_view.hint_view(game, expert.hint(game))}

    def review(self, req: dict[str, Any]) -> Reply:
        """The expert's review of a game (``game``: a save; the game in play when absent):
        every decision's loss, each player's total and costliest decisions
        (:func:`advice_view.review_view`). Changes nothing."""
        advice_view.install()
        game = self._game() if req.get("game") is None else Game.from_json(req.get("game"))
        return {"review": advice_view.review_view(review_game(game))}

    def review_wins(self, req: dict[str, Any]) -> Reply:
        """The review's second part for a game of several players (``game``: a save; the game
        in play when absent): every judged decision by its chance to win
        (:func:`advice_view.review_wins_view`; empty for a game of one player). Asked after
        :meth:`review`, whose points it does not hold up. Changes nothing."""
        advice_view.install()
        game = self._game() if req.get("game") is None else Game.from_json(req.get("game"))
        review = review_game(game)
        return {"wins": advice_view.review_wins_view(review, review_wins(review))}

    def warm_turn(self, req: dict[str, Any]) -> Reply:
        """Compute the chances to win of the turn of the player to move in ``game`` (a save of
        a game of several players; the game in play when absent) at its start, so that the
        hints of that turn (the dice game's or the coach's) answer at once from the advisor's
        memory. Nothing for a game of one player or one that is over. Changes nothing."""
        advice_view.install()
        game = self._asked_game(req)
        turn = game.turn
        if len(game.players) < 2 or game.is_over() or turn is None:
            return {"warmed": False}
        position = None  # a dice game: where it stands
        if game.mode is not Mode.DICE:
            # the turn's column is the same for any typed dice: a sample roll's
            sample = game.rules.parse_roll([1, 2, 3, 4, 5, 6][:game.rules.dice_count])
            position = pad_position(game, sample, 1)
        win_advice(game, position)
        return {"warmed": True}

    def moment(self, req: dict[str, Any]) -> Reply:
        """The view of a game (``game``: a save) as it was just before its action number
        ``index``: the sheet a review shows for a decision. Changes nothing."""
        game = Game.from_json(req.get("game"))
        index = req.get("index")
        if isinstance(index, bool) or not isinstance(index, int) or not (
                0 <= index <= len(game.actions)):
            raise InvalidGameError(f"index must be an action number 0–{len(game.actions)}, "
                                   f"got {index!r}", code="web.bad_request")
        # without chances: a review's sheet shows the moment, its plot the chances
        return {"index": index,
                "view": game_view(advice_view.moment(game, index), chances=False)}

    def warm_expert(self, req: dict[str, Any]) -> Reply:
        """Make the expert of a rule set (``rules``, ``free_strike``) ready: its values loaded,
        its tables built, and the turn of the player to move in ``game`` (a save of a dice
        game of these rules; a new game's first turn without one) computed, so that the hint
        asked next, or the expert's move, answers at once from the expert's cache. The page
        asks once per rule set when a dice game is shown (the expert's state is too large for
        the engine's memory snapshot). Changes nothing."""
        rules = preset(_text(req.get("rules", "extreme"), "rules"),
                       free_strike=req.get("free_strike") is True)
        advice_view.install()
        values_for(rules, build=False)
        saved = req.get("game")
        game = None if saved is None else Game.from_json(saved)
        if game is None or game.rules != rules or game.mode is not Mode.DICE or game.is_over():
            game = Game(rules, [Player("A")], mode=Mode.DICE, seed=0)
        expert.hint(game)
        return {"rules": rules.name, "free_strike": rules.free_strike}

    def pad_hint(self, req: dict[str, Any]) -> Reply:
        """The coach's tip on the score pad: the expert's advice for the dice the player to move
        in ``game`` (a pad game's save; the game in play when absent) typed in (``dice``) after
        throw number ``rolls_used`` (1–3, 4 after a chip): before the last throw the dice to
        keep, after it the chip or the box, every choice with its expected final score
        (:func:`coach_view.pad_hint_view`); in a game of several players with the chances to
        win as the dice game's hint has them. Changes nothing."""
        advice_view.install()
        game = self._asked_game(req)
        roll = game.rules.parse_roll(_dice(req.get("dice")))
        rolls_used = req.get("rolls_used", game.rules.rolls)
        if isinstance(rolls_used, bool) or not isinstance(rolls_used, int):
            raise InvalidGameError(f"rolls_used must be a whole number, got {rolls_used!r}",
                                   code="web.bad_request")
        advice = pad_advice(game, roll, rolls_used)
        win = _win_advice(game, advice.position)
        win_then = None
        if win is not None and win.differ and isinstance(win.for_win.action, UseChip):
            pos = advice.position
            assert pos.chips_left  # the chip is a legal choice: one is left
            win_then = _win_advice(game, dataclasses.replace(
                pos, chips_left=pos.chips_left - 1, chip_used=True))
        return {"hint": coach_view.pad_hint_view(
            game, advice, after_chip(advice), win,
            None if win_then is None else win_then.for_win)}

    def pad_review(self, req: dict[str, Any]) -> Reply:
        """The coach's review of a score pad game (``game``: a save; the game in play when
        absent): every entry whose dice were typed in, the box chosen against the best box for
        them, and how many entries could not be judged (:func:`coach_view.pad_review_view`).
        Changes nothing."""
        advice_view.install()
        game = self._game() if req.get("game") is None else Game.from_json(req.get("game"))
        return {"review": coach_view.pad_review_view(review_pad(game))}

    def stats(self, req: dict[str, Any]) -> Reply:
        """Statistics over the history's summaries (:func:`history_stats`), with the evening's
        standings where the page sends each summary's time (``dates``) and its time zone
        (``zone``, as ``Date.getTimezoneOffset()`` says)."""
        summaries = req.get("summaries")
        if not isinstance(summaries, list):
            raise CorruptSaveError(f"summaries must be a list, got {type(summaries).__name__}",
                                   code="web.bad_request")
        dates = req.get("dates", [])
        if not isinstance(dates, list) or len(dates) not in (0, len(summaries)):
            raise CorruptSaveError("dates must be a list, one for each summary",
                                   code="web.bad_request")
        kept = [i for i, s in enumerate(summaries) if isinstance(s, dict)]
        return {"stats": history_stats([summaries[i] for i in kept],
                                       [dates[i] for i in kept] if dates else [],
                                       _zone(req.get("zone")))}

    def parse_import(self, req: dict[str, Any]) -> Reply:
        """Check an imported file: one game, or a whole history (the engine's history file,
        :mod:`kniffel.engine.history_file`, any version). Every game is replayed; any fault refuses
        the
        whole file. Changes nothing here: the page stores what comes back.

        A history answers ``{"kind": "history", "entries": [{"uid", "started", "finished_at",
        "finished", "game", "summary"}, ...]}`` (``finished_at`` null: unfinished; ``finished``
        is the entry's time as the page stored it so far: ``finished_at``, else ``started``).

        With ``have`` (the history the page holds, each ``{"uid", "identity"}`` as for
        :meth:`merge_history`) a history file is a restore: its header is checked and each game
        known by the uid the file states or the identity of its game as written
        (:func:`~kniffel.engine.history_file.stated_game`), nothing replayed; the answer is
        ``{"kind": "history", "restore": n, "total", "new": [indices], "known"}``, and the new
        games are replayed and checked part by part (:meth:`import_part`).

        A file the page names (``name``, the file the player picked) is refused in one sentence
        that names it: ``web.import_not_kniffel`` for a file that is no kniffel game or history
        at all, else ``web.import_refused`` with the fault as its ``cause``."""
        return self._named(req, lambda where: self._parse_import(req.get("text"), where,
                                                                  req.get("have")))

    def import_part(self, req: dict[str, Any]) -> Reply:
        """The games ``indices`` of the restore ``restore`` (:meth:`parse_import` with
        ``have``), each replayed and checked as an import checks it: ``{"entries": [...]}`` as
        a history's import answers them. A fault refuses the part in one sentence naming the
        file (``name``) and the game, and ends the restore. Once every new game was asked
        for, the file is let go."""
        token, indices = req.get("restore"), req.get("indices")
        held = self._restore
        if held is None or token != held[0]:
            raise CorruptSaveError(f"no restore {token!r:.20} is under way",
                                   code="web.bad_request")
        if not isinstance(indices, list) or not all(
                isinstance(i, int) and not isinstance(i, bool) and i in held[3] for i in indices):
            raise CorruptSaveError("indices must be new games of the restore",
                                   code="web.bad_request")
        _, version, games, left = held

        def part(where: str) -> Reply:
            try:
                entries = [decode_entry(games[i], i + 1, version) for i in indices]
            except KniffelError:
                self._restore = None
                raise
            left.difference_update(indices)
            if not left:
                self._restore = None
            return {"entries": [{**e.to_json(), "finished": e.finished_at or e.started,
                                 "summary": summary(e.game)} for e in entries]}
        return self._named(req, part)

    def _named(self, req: dict[str, Any], check: Callable[[str], Reply]) -> Reply:
        """``check`` of the file the page names (``name``), its faults in one sentence naming
        it (:meth:`parse_import`)."""
        name = req.get("name")
        if not isinstance(name, str) or not name.strip():
            return check(_file_name(name, _lang(req)))
        where = _file_name(name, _lang(req))
        try:
            return check(where)
        except KniffelError as e:
            if e.code in _NOT_KNIFFEL:
                raise CorruptSaveError(f"{where}: not a kniffel game or history ({e})",
                                       code="web.import_not_kniffel",
                                       params={"where": where}) from None
            inner = {k: v for k, v in e.params.items() if k != "where"}  # named once, in front
            raise CorruptSaveError(f"{where} was not imported: {e}", code="web.import_refused",
                                   params={"where": where,
                                           "cause": {"code": e.code, "params": inner}}) from None

    def _parse_import(self, text: object, name: str, have: object = None) -> Reply:
        """:meth:`parse_import` of the file ``text``; a single game's errors name ``name``."""
        if not isinstance(text, str):
            raise CorruptSaveError("the file is not text", code="file.not_text")
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            data = None  # loads_game tells a cut-off file from one that is no JSON at all
        if is_history(data) and have is not None:
            return self._plan_restore(data, have)
        if is_history(data):
            return {"kind": "history", "entries": [
                {**e.to_json(), "finished": e.finished_at or e.started,
                 "summary": summary(e.game)} for e in decode_history(data)]}
        game = loads_game(text, name=name)
        return {"kind": "game", "uid": derived_uid(game), "game": game.to_json(),
                "view": self._view(game), "summary": summary(game)}

    def _plan_restore(self, data: object, have: object) -> Reply:
        """The restore of the history file ``data`` into a history holding ``have``
        (:meth:`parse_import`): which of its games are new, nothing replayed yet."""
        version, games = history_games(data)
        known = KnownGames(_pairs(have, "have"))
        stated: set[str] = set()
        new = []
        for i, item in enumerate(games):
            uid = stated_uid(item, version)
            if uid is not None:
                if uid in stated:  # as decode_history refuses it
                    raise InvalidImportError(f"game #{i + 1} of the file: the uid {uid!r} "
                                             f"appears twice", code="import.uid_twice",
                                             params={"number": i + 1})
                stated.add(uid)
                if uid in known.uids:  # known by its uid: its game is not even hashed
                    continue
            uid, identity = stated_game(item, version)
            if uid is None or not identity or known.add(uid, identity):
                new.append(i)  # (one without a uid or identity: its replay says what it is)
        self._restores += 1
        self._restore = (self._restores, version, games, set(new)) if new else None
        return {"kind": "history", "restore": self._restores, "total": len(games), "new": new,
                "known": len(games) - len(new)}

    def export_history(self, req: dict[str, Any]) -> Reply:
        """The history file (version 2) of the page's history entries: ``uid``, ``started``
        and ``finished_at`` where an entry has them; an older entry (``id``, ``finished``: the
        time it was stored) gets its ``id`` as uid and that time as its start, and counts as
        finished when its game is over. Every game is replayed and checked. With ``csv``, the
        table for spreadsheets instead (:mod:`kniffel.engine.history_csv`, in the request's
        language), its dates in the page's time zone ``zone`` (minutes behind UTC, as
        ``Date.getTimezoneOffset()`` says; UTC without it)."""
        entries = req.get("entries")
        if not isinstance(entries, list):
            raise CorruptSaveError("entries must be a list", code="web.bad_request")
        out = []
        for number, e in enumerate(entries, start=1):
            if not isinstance(e, dict):
                continue
            try:
                game = Game.from_json(e.get("game"))
            except KniffelError as err:
                raise CorruptSaveError(f"game #{number} of the history: {err}",
                                       code="web.history_game_invalid",
                                       params={"number": number,
                                               "cause": cause_param(err)}) from None
            stored = e.get("finished") if isinstance(e.get("finished"), str) else None
            uid = e.get("uid") or e.get("id") or derived_uid(game)
            started = e.get("started") or stored or UNKNOWN_TIME
            if "finished_at" in e:
                finished_at = e.get("finished_at")
            else:
                finished_at = (stored or started) if game.is_over() else None
            out.append(HistoryEntry(str(uid), str(started),
                                    None if finished_at is None else str(finished_at), game))
        if req.get("csv") is True:
            return {"csv": csv_text(out, _lang(req), _zone(req.get("zone")))}
        return {"file": encode_history(out)}

    def merge_history(self, req: dict[str, Any]) -> Reply:
        """Which of the imported ``entries`` a history holding ``have`` does not hold yet, by
        :class:`~kniffel.engine.identity.KnownGames` (the same uid, or the same game as
        played): ``add``, their indices in ``entries`` in order (a game twice among them is
        added once), and ``known``, how many were there already. Each item has its ``uid`` and
        either the ``identity`` the engine gave its game (in the game's summary; the quick way
        for a large history) or its ``game`` (a save, read as it is: the page stores the
        engine's own). Replays nothing, changes nothing."""
        known = KnownGames(_pairs(req.get("have"), "have"))
        add = [i for i, (uid, identity) in enumerate(_pairs(req.get("entries"), "entries"))
               if known.add(uid, identity)]
        return {"add": add, "known": len(req["entries"]) - len(add)}

    def chances_now(self, req: dict[str, Any]) -> Reply:
        """The win chances of the game in play (:func:`chances_view`; None where its rule set
        has no values here), its values loaded once; without a game, the values of the rule
        set ``rules`` (``free_strike``) are loaded for the next game's view, and the chances
        are None. Changes nothing."""
        advice_view.install()
        if self.match is not None:
            return {"chances": chances_view(self.match.game)}
        rules = preset(_text(req.get("rules", "extreme"), "rules"),
                       free_strike=req.get("free_strike") is True)
        chances_view(Game(rules, [Player("A"), Player("B")], mode=Mode.PAD, seed=0))  # loads
        return {"chances": None}

    def table_code(self, req: dict[str, Any]) -> Reply:
        """The connection code of this phone's session description (``sdp``, an ``offer`` or
        an ``answer`` with every candidate inside) for the table ``table``, with the offer's
        number ``offer`` when given (0-255: an offer's own, an answer's the one of the offer it
        answers): the code, its QR code, its bytes, and with ``base`` (the page's address) the
        link that carries it (:mod:`kniffel.browser.table`). ``purpose``: ``"transfer"`` for a
        code that connects two phones for a history's transfer (:meth:`transfer_send`), not
        for a table."""
        kind = req.get("kind")
        if kind not in ("offer", "answer"):
            raise InvalidGameError(f"kind must be 'offer' or 'answer', got {kind!r}",
                                   code="web.bad_request")
        offer = req.get("offer")
        fault = table.offer_fault(offer)
        if fault is not None:  # the page's request, not the browser's description, is wrong
            raise InvalidGameError(fault, code="web.bad_request")
        purpose = req.get("purpose", "table")
        if purpose not in ("table", "transfer"):
            raise InvalidGameError(f"purpose must be 'table' or 'transfer', got {purpose!r}",
                                   code="web.bad_request")
        name = table.code_id(purpose, _text(req.get("table"), "table"))
        packed = table.pack(table.parse_sdp(_text(req.get("sdp"), "sdp"), kind, name, offer))
        code = table.encode(packed)
        reply: Reply = {"code": code, "qr": share.qr_code(code), "bytes": len(packed)}
        if req.get("base") is not None:
            reply["link"] = table.link(_text(req.get("base"), "base"), code)
        return reply

    def table_sdp(self, req: dict[str, Any]) -> Reply:
        """The session description a connection code (or a link with one) carries, written
        as an SDP the browser takes (:func:`kniffel.browser.table.write_sdp`), with the offer's
        number it carries (``offer``; None for a code without one) and what it connects for
        (``purpose``: a ``"table"``, or a history's ``"transfer"``)."""
        d = table.description_of(req.get("code"))
        return {"kind": d.kind, "sdp": table.write_sdp(d), "table": d.table, "offer": d.offer,
                "purpose": table.purpose_of(d.table)}

    def table_open(self, req: dict[str, Any]) -> Reply:
        """Host a table for the game in play: this phone (``me``, a peer id the page chose;
        ``name``, the phone's name the others read) holds the game. The table's id is
        ``table`` when given, else ``me``; opened again on a phone that sat at that table,
        the table goes on in a new term."""
        me = _text(req.get("me"), "me")
        table_id = req.get("table") or me
        self.table = Table.open(_TableEngine(self), _text(table_id, "table"), me,
                                _text(req.get("name"), "name"), self.table)
        return {"table": self.table.view()}

    def table_join(self, req: dict[str, Any]) -> Reply:
        """Sit down at the table ``table`` as a guest (``me``, ``name``): its hello to the
        host (``host`` when the page knows its peer id, else addressed to ``"host"``: the
        phone it joined through). A phone that rejoins the same table keeps counting its
        moves and brings its game along."""
        me = _text(req.get("me"), "me")
        table_id = _text(req.get("table"), "table")
        host = req.get("host")
        self.table, result = Table.join(_TableEngine(self), table_id, me,
                                        _text(req.get("name"), "name"),
                                        None if host is None else _text(host, "host"),
                                        self.table)
        return self._table_reply(result, _lang(req))

    def table_message(self, req: dict[str, Any]) -> Reply:
        """A message from the phone ``from``: the messages to send on, the table, and when
        the game changed, the game, its view and who did what (``said``), as after ``act``;
        ``refused`` when the host refused this phone's move."""
        result = self._table().receive(_text(req.get("from"), "from"), req.get("message"))
        return self._table_reply(result, _lang(req))

    def table_act(self, req: dict[str, Any]) -> Reply:
        """A move (``request``: an ``act``, ``roll`` or ``undo`` request, ``computer_move``
        for a computer player, or ``new`` or ``load``: another game for the whole table, a
        rematch, the setup's start, a game resumed) made on this phone at a table: applied on
        the host (the reply as ``act``'s, with the state for every guest in ``send``), sent to
        the host from a guest (``pending``: the view comes with the host's state). ``rev``:
        the table's change the page showed (``table.rev``) when the move was made; refused
        (``table.stale``) where the table has moved on since."""
        request = req.get("request")
        if not isinstance(request, dict):
            raise TableError(f"request must be an act, roll, undo, computer_move, new or "
                             f"load request, got {request!r}", code="web.bad_request")
        rev = req.get("rev")
        if rev is not None and (isinstance(rev, bool) or not isinstance(rev, int)):
            raise TableError(f"rev must be a whole number, got {rev!r}", code="web.bad_request")
        return self._table_reply(self._table().act(request, rev), _lang(req))

    def table_lost(self, req: dict[str, Any]) -> Reply:
        """The connection to the phone ``peer`` is gone: the host tells the others, a guest
        that lost the host takes part in the host change (the hello to the new host)."""
        return self._table_reply(self._table().lost(_text(req.get("peer"), "peer")),
                                 _lang(req))

    def table_name(self, req: dict[str, Any]) -> Reply:
        """This phone's new name at the table (``name``, the words the others read in who did
        what): on the host sent to every guest with the state, from a guest to the host."""
        return self._table_reply(self._table().rename(_text(req.get("name"), "name")),
                                 _lang(req))

    def table_leave(self, req: dict[str, Any]) -> Reply:
        """Leave the table: the bye to send (to the host, or to every guest from it)."""
        if self.table is None:
            return {"send": []}
        result = self.table.leave()
        self.table = None
        return {"send": [[to, m] for to, m in result.send]}

    def _table(self) -> Table:
        if self.table is None:
            raise TableError("this phone is at no table", code="table.no_table")
        return self.table

    def _table_reply(self, result: Result, lang: Lang) -> Reply:
        """The page's reply to a step of the table: see :meth:`table_message`."""
        reply: Reply = {"send": [[to, m] for to, m in result.send],
                        "table": self._table().view()}
        if result.changed:
            reply.update(self._state())
        if result.said is not None:
            code, params = result.said["code"], result.said.get("params", {})
            # (``texts``: both languages, so that the line reads on in the other one after
            # the player switches)
            reply["said"] = {"code": code, "params": params,
                             "text": render_code(str(code), params, lang),
                             "texts": {each: render_code(str(code), params, each)
                                       for each in ("de", "en")}}
        if result.by is not None:
            reply["by"] = result.by
        if result.pending:
            reply["pending"] = True
        if result.move is not None:
            reply["move"] = result.move
        if result.refused is not None:
            seq, error = result.refused
            params = error.get("params")
            params = params if isinstance(params, dict) else {}
            reply["refused"] = {"seq": seq, "error": {
                "code": error.get("code"), "params": params, "message": error.get("message"),
                "text": render_code(str(error.get("code")), params, lang)}}
        return reply

    # --- a history to another phone (kniffel.browser.history_transfer) ----------------------

    def transfer_send(self, req: dict[str, Any]) -> Reply:
        """Send this phone's history (``entries``, as the page stores them) to the phone at the
        other end of the channel, as the transfer ``transfer`` (an id the page chose): the
        first messages to send (``send``, texts), the games and chunks. The rest follows the
        receiver's answers (:meth:`transfer_message`)."""
        entries = req.get("entries")
        if not isinstance(entries, list):
            raise transfer.TransferError("entries must be a list", code="web.bad_request")
        self.sending = transfer.Sending.of(_text(req.get("transfer"), "transfer"), entries)
        return {"send": self.sending.start(), **self._sending_view()}

    def _sending_view(self) -> Reply:
        s = self.sending
        assert s is not None
        return {"role": "sending", "games": s.games, "arrived": s.arrived,
                "chunks": len(s.chunks)}

    def _receiving_view(self) -> Reply:
        r = self.receiving
        assert r is not None
        return {"role": "receiving", "games": r.games, "arrived": r.arrived,
                "ended": r.over}

    def transfer_message(self, req: dict[str, Any]) -> Reply:
        """A message of the channel (``data``, its text as it came): what to send back
        (``send``) and how far the transfer is (``role``, ``games``, ``arrived``). On the
        receiving phone a chunk answers its games, each checked (``entries``, with their
        summaries, to be kept until the transfer ends); ``ended`` once the transfer is over
        (done, or refused: ``stop``, the refusal said) and the games that came are to be
        merged (:meth:`transfer_finish`). On the sending phone the end answers ``said``, the
        sentence in both languages. ``ignored``: no message of this phone's transfer."""
        data = req.get("data")
        try:
            m = transfer.read(data)
        except transfer.TransferError as e:
            if self.receiving is None or self.receiving.over:
                # (a newer app's hello: its sender is told, where its id can be read)
                sender = transfer.sender_of(data)
                return {"send": [] if sender is None else [transfer.stop_message(sender, e)],
                        "stop": _error(e, _lang(req))["error"]}
            return self._stopped(e, _lang(req))
        if m is None:
            return {"ignored": True}
        kind = m["t"]
        if kind in ("transfer.ack", "transfer.result", "transfer.stop"):
            s = self.sending
            if s is None or m["transfer"] != s.id:
                return {"ignored": True}
            reply: Reply = {"send": s.take(m), **self._sending_view()}
            if s.result is not None or s.stopped is not None:
                reply["said"] = transfer.both(transfer.sent_words, s)
                reply["ended"] = True
                reply["warn"] = s.result is None or s.result.get("stored") is False
                self.sending = None
            return reply
        if kind == "transfer.hello":
            r = self.receiving
            if r is not None and not r.over and r.id != m["transfer"]:
                busy = transfer.TransferError("a history is arriving already",
                                              code="transfer.busy")
                return {"send": [transfer.stop_message(str(m["transfer"]), busy)],
                        "ignored": True}
            self.receiving = transfer.hello(m)
            return {"send": [], **self._receiving_view()}
        r = self.receiving
        if r is None or r.over or m["transfer"] != r.id:
            return {"ignored": True}
        if kind == "transfer.done":
            r.finish(m)
            return {"send": [], **self._receiving_view()}
        try:
            entries = r.chunk(m)
        except transfer.TransferError as e:
            return self._stopped(e, _lang(req))
        if entries is None:
            return {"send": [], "duplicate": True, **self._receiving_view()}
        return {"send": [r.ack(int(m["i"]))], **self._receiving_view(),
                "entries": [{**e.to_json(), "summary": summary(e.game)} for e in entries]}

    def _stopped(self, error: KniffelError, lang: Lang) -> Reply:
        """The transfer being received ends on ``error``: the refusal for the sender, and the
        error for this phone's page (the games taken before stay)."""
        r = self.receiving
        assert r is not None
        return {"send": [r.stop(error)], **self._receiving_view(),
                "stop": _error(error, lang)["error"]}

    def transfer_lost(self, req: dict[str, Any]) -> Reply:
        """The channel closed: a transfer being received ends (``ended``: the games that came
        are merged, :meth:`transfer_finish`); one being sent ends with ``said``, how many
        games arrived, in both languages. Nothing under way: an empty reply."""
        if self.receiving is not None and not self.receiving.over:
            self.receiving.done = True
            return {"send": [], **self._receiving_view()}
        if self.sending is not None:
            s, self.sending = self.sending, None
            return {"send": [], "role": "sending", "games": s.games, "arrived": s.arrived,
                    "chunks": len(s.chunks), "ended": True, "warn": True,
                    "said": transfer.both(transfer.sent_words, s)}
        return {"send": []}

    def transfer_finish(self, req: dict[str, Any]) -> Reply:
        """The transfer received has been merged into the page's history: ``added`` games new,
        ``known`` there already, ``stored`` false where the storage was full (nothing kept).
        Answers the sentence that ends it (``said``, both languages; ``warn`` where not every
        game came or none was kept) and the result for the sender (``send``)."""
        r = self.receiving
        if r is None or not r.over:
            raise transfer.TransferError("no history has arrived", code="transfer.none")
        added, known = req.get("added"), req.get("known")
        if any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in (added, known)):
            raise transfer.TransferError("added and known must be whole numbers",
                                         code="web.bad_request")
        assert isinstance(added, int)
        assert isinstance(known, int)
        stored = req.get("stored") is not False
        self.receiving = None
        return {"send": [transfer.result_message(r, added, known, stored)],
                "said": transfer.both(transfer.received_words, r, added, known, stored),
                "warn": r.fault is not None or r.arrived < r.games or (added > 0 and not stored),
                "role": "receiving", "games": r.games, "arrived": r.arrived}

    def handle(self, request: object) -> Reply:
        """Answer one request: ``{"ok": true, ...}`` or ``{"ok": false, "error": {...}}``."""
        if not isinstance(request, dict) or not isinstance(request.get("op"), str):
            return _error(CorruptSaveError(f"a request is an object with an 'op', got "
                                           f"{request!r}", code="web.bad_request"))
        lang = _lang(request)
        op = _OPS.get(request["op"])
        if op is None:
            return _error(IllegalMoveError(f"unknown request {request['op']!r}",
                                           code="web.bad_request"), lang)
        # Every request leaves the game as it was when it fails: Game.apply and Game.undo change
        # nothing when they refuse, a throw whose dice fail is taken back, and a new or loaded
        # game replaces the old one only once it is complete.
        try:
            return {"ok": True, **op(self, request)}
        except KniffelError as e:
            return _error(advice_view.for_players(e), lang)

    def handle_json(self, text: str) -> str:
        """:meth:`handle` for a JSON request text, answering JSON text."""
        try:
            request = json.loads(text)
        except ValueError as e:
            return json.dumps(_error(CorruptSaveError(f"a request must be JSON ({e})",
                                                      code="web.bad_request")),
                              ensure_ascii=False)
        return json.dumps(self.handle(request), separators=(",", ":"), ensure_ascii=False)


def _pairs(items: object, what: str) -> list[tuple[str, str]]:
    """The (uid, identity) of each of a request's history entries ``items`` (:meth:`Session.
    merge_history`): the identity given, or that of the entry's game."""
    if not isinstance(items, list):
        raise CorruptSaveError(f"{what} must be a list", code="web.bad_request")
    out = []
    for e in items:
        e = e if isinstance(e, dict) else {}
        uid, identity, game = e.get("uid"), e.get("identity"), e.get("game")
        if isinstance(uid, str) and isinstance(identity, str) and identity:
            out.append((uid, identity))
        elif isinstance(uid, str) and isinstance(game, dict):
            out.append((uid, game_identity(game)))
        else:
            raise CorruptSaveError(f"each of {what} has a uid and an identity or a "
                                   f"game, got {e!r:.60}", code="web.bad_request")
    return out


def _zone(offset: object) -> timezone | None:
    """The page's time zone from ``Date.getTimezoneOffset()`` (minutes behind UTC), or None."""
    if offset is None:
        return None
    if isinstance(offset, bool) or not isinstance(offset, int) or abs(offset) > 24 * 60:
        raise CorruptSaveError(f"zone must be minutes behind UTC, got {offset!r:.40}",
                               code="web.bad_request")
    return timezone(timedelta(minutes=-offset))


_OPS: dict[str, Callable[[Session, dict[str, Any]], Reply]] = {
    "new": Session.new,
    "load": Session.load,
    "act": Session.act,
    "roll": Session.roll,
    "undo": Session.undo,
    "computer_plan": Session.computer_plan,
    "computer_move": Session.computer_move,
    "pad_choices": Session.pad_choices,
    "corrections": Session.corrections,
    "share": Session.share,
    "handoff": Session.handoff,
    "unpack": Session.unpack,
    "stats": Session.stats,
    "hint": Session.hint,
    "review": Session.review,
    "review_wins": Session.review_wins,
    "moment": Session.moment,
    "warm_expert": Session.warm_expert,
    "warm_turn": Session.warm_turn,
    "import": Session.parse_import,
    "export_history": Session.export_history,
    "merge_history": Session.merge_history,
    "import_part": Session.import_part,
    "pad_hint": Session.pad_hint,
    "pad_review": Session.pad_review,
    "chances": Session.chances_now,
    "table_code": Session.table_code,
    "table_sdp": Session.table_sdp,
    "table_open": Session.table_open,
    "table_join": Session.table_join,
    "table_message": Session.table_message,
    "table_act": Session.table_act,
    "table_lost": Session.table_lost,
    "table_name": Session.table_name,
    "table_leave": Session.table_leave,
    "transfer_send": Session.transfer_send,
    "transfer_message": Session.transfer_message,
    "transfer_lost": Session.transfer_lost,
    "transfer_finish": Session.transfer_finish,
}


class _TableEngine:
    """The session as a table's engine (:class:`kniffel.browser.table_protocol.Engine`): a
    move goes through the same op as the page's own request."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def current_game(self) -> Game | None:
        """The game the session holds."""
        return self.session.game

    def apply(self, request: dict[str, Any]) -> dict[str, Any]:
        """Apply a move through the session's own op (``act``, ``roll``, ``undo``, …): its
        reply."""
        op = _OPS.get(str(request.get("op")))
        if op is None:
            raise TableError(f"unknown request {request.get('op')!r}", code="web.bad_request")
        return op(self.session, request)

    def adopt(self, save: object) -> None:
        """Take the table's game: its new actions played on where the game in play is the
        start of it, else the whole save replayed; a bad save changes nothing."""
        game = self.session.game
        if game is not None and isinstance(save, dict) and isinstance(save.get("actions"),
                                                                       list):
            mine = game.to_json()
            theirs = save["actions"]
            if (game_key(mine) == game_key(save)
                    and theirs[:len(mine["actions"])] == mine["actions"]):
                try:
                    for action in theirs[len(mine["actions"]):]:
                        game.apply(action_from_json(action))
                except KniffelError:
                    self.session.game = Game.from_json(mine)
                else:
                    self.session.game = game
                    return
        self.session.game = Game.from_json(save)


#: The fields of a save that make it the game it is, its actions aside.


#: The codes of a file that is no kniffel game or history at all (a photo, a text, other JSON).
_NOT_KNIFFEL = frozenset({"file.not_text", "file.not_json", "save.not_a_save"})


def _error(e: KniffelError, lang: Lang = "de") -> Reply:
    """The error reply: its type, English message, code and params, and ``text``: the error in
    the page's language from the engine's message catalog
    (:func:`kniffel.engine.messages.render`)."""
    return {"ok": False, "error": {"type": type(e).__name__, "message": str(e), "code": e.code,
                                   "params": e.params, "text": render(e, lang)}}


def _file_name(name: object, lang: Lang) -> str:
    """The name an import's errors lead with: the file's own name as the page sent it, else
    the word for "the file" in the page's language (never English on a German screen)."""
    if isinstance(name, str) and name.strip():
        return name.strip()[:80]
    return text("file.word", lang)


def _lang(request: dict[str, Any]) -> Lang:
    """The request's ``lang`` ("de" or "en"; German when missing or unknown)."""
    return "en" if request.get("lang") == "en" else "de"


def _text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise InvalidGameError(f"{what} must be text, got {value!r}", code="web.bad_request")
    return value


def _web_strategy(name: object) -> str:
    """The strategy of a computer player in the browser: greedy when none is named."""
    if name is None:
        return "greedy"
    if not isinstance(name, str) or name.strip().lower() not in WEB_STRATEGIES:
        raise UnknownStrategyError(f"the browser's computer players are "
                                   f"{', '.join(WEB_STRATEGIES)}, not {name!r}",
                                   code="strategy.unknown",
                                   params={"name": str(name), "strategies": list(WEB_STRATEGIES)})
    return name.strip().lower()


def _win_advice(game: Game, position: Position | None = None) -> WinAdvice | None:
    """The chances to win of the choices of the player to move (:func:`win_advice`, at
    ``position`` where the game does not hold it: the coach's typed dice), or None in a game
    of one player (nothing to win against: the hint stays the expert's alone) or one that is
    over."""
    if len(game.players) < 2 or game.is_over():
        return None
    return win_advice(game, position)


def _dice(value: object) -> list[int] | str:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool)
                                       for v in value):
        return value
    raise CorruptSaveError(f"dice must be a list of numbers, got {value!r}",
                           code="web.bad_request")


SESSION = Session()


def warm_up() -> None:
    """Fill the engine's caches (the points each box can hold, the scores of rolls) by playing a
    turn of every rule set in both modes, so that a memory snapshot taken afterwards answers the
    page's first request at once."""
    for name in PRESETS:
        for mode in Mode:
            s = Session(chances=False)
            s.handle_json(json.dumps({"op": "new", "rules": name, "mode": mode.value, "seed": 0,
                                      "players": [{"name": "A"}]}))
            s.handle_json(json.dumps({"op": "roll"} if mode is Mode.DICE else
                                     {"op": "pad_choices", "dice": [1, 2, 3, 4, 5, 6][
                                         :preset(name).dice_count]}))
            s.handle_json(json.dumps({"op": "undo"}))
            s.handle_json(json.dumps({"op": "load", "game": s._game().to_json()}))
    # the points of every box for every roll, for the expert (compact enough for the snapshot)
    for d10 in (False, True):
        box_scores(d10)


#: Requests that read no expert values (and so need no table): the rest may, in a classic game.
_NO_VALUES = frozenset({"pad_choices", "corrections", "share", "handoff", "unpack", "stats",
                        "import", "import_part", "export_history", "merge_history",
                        "table_code", "table_sdp", "table_open", "table_join", "table_lost",
                        "table_leave", "transfer_send", "transfer_message", "transfer_lost",
                        "transfer_finish"})


#: The op of a request that names it first, as the page's requests do (``JSON.stringify``).
_OP_FIRST = re.compile(r'\{"op":"([a-z_]+)"')


def wanted_table(text: str) -> str | None:
    """The place in the package (``browser/tables/kniffel.table``,
    ``engine/data/expert-extreme.packed``) of the expert's values that the JSON request ``text``
    may read and this interpreter does not hold yet, or None: the site ships the classic rule
    sets' exact tables (:func:`advice_view.table_file_name`, into :data:`advice_view.TABLES_DIR`)
    and Kniffel Extreme's model (:func:`~kniffel.engine.expert_model.model_file`, into the
    engine's data files) as files of their own in its ``tables/`` folder, and the worker
    fetches one to that place before it passes on the first request that needs it (a new or
    loaded game with its chances, an action, a hint). The rule set is the request's (its game,
    or ``rules`` and ``free_strike``), else the game in play."""
    head = _OP_FIRST.match(text)
    if head is not None and head.group(1) in _NO_VALUES:
        return None  # (an import's request holds a whole file: not parsed twice)
    try:
        req = json.loads(text)
    except ValueError:
        return None
    if not isinstance(req, dict) or req.get("op") in _NO_VALUES or (
            req.get("op") == "load" and req.get("chances") is False):
        return None
    try:
        game = req.get("game")
        if isinstance(game, dict) and isinstance(game.get("rules"), dict):
            rules = preset(str(game["rules"].get("name")),
                           free_strike=game["rules"].get("free_strike") is True)
        elif isinstance(req.get("rules"), str):
            rules = preset(req["rules"], free_strike=req.get("free_strike") is True)
        elif SESSION.game is not None:
            rules = SESSION.game.rules
        else:
            return None
    except KniffelError:
        return None  # the request itself says what is wrong with it
    if rules.d10:
        # Kniffel Extreme's model, where the package does not hold it (the site's engine)
        wanted = model_file(rules)
        return None if wanted is None or has_model_file(rules) else f"engine/data/{wanted}"
    name = advice_view.table_file_name(rules)
    if (advice_view.TABLES_DIR / name).is_file():
        return None
    return f"{advice_view.TABLES_PLACE}/{name}"


def handle_json(text: str) -> str:
    """The worker's entry point: answer one JSON request for the page's single session."""
    return SESSION.handle_json(text)
