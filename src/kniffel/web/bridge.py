"""The engine's side of the browser app: the requests the page's Web Worker passes to Python.

The page sends JSON requests (``{"op": "act", "action": {...}}``) and gets JSON answers: the game
as a save (:meth:`Game.to_json`) and its view (:func:`kniffel.web.view.game_view`), or an error
naming the problem. The page never decides a rule: it forwards what the user tapped.

Pure Python, no I/O: it runs inside Pyodide. The random generator for virtual dice is
``seeded_rng(game.seed, len(game.actions))``, so a game's dice follow from its seed and an undone
throw, thrown again, brings the same dice.

Computer players (virtual dice only) take their turn a step at a time, as the page asks:
``computer_plan`` says what the computer to move will do next (the dice it keeps, so the page can
show them before the throw) and changes nothing; ``computer_move`` makes that move. A strategy's
own random choices come from ``random.Random(f"{seed}:{len(actions)}")`` like in the terminal
game, so a game with computers replays too. Undo takes back the last decision of a human and every
computer move after it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from kniffel.dice import Keep, keep_positions, seeded_rng
from kniffel.errors import (
    CorruptSaveError,
    IllegalMoveError,
    InvalidGameError,
    KniffelError,
    UnknownStrategyError,
    UnsupportedVersionError,
)
from kniffel.game import (
    Action,
    Game,
    Mode,
    Player,
    PlayerKind,
    Throw,
    action_from_json,
    action_to_json,
)
from kniffel.rules import PRESETS, Lang, RuleSet, preset
from kniffel.storage import loads_game
from kniffel.strategy import Strategy, get_strategy
from kniffel.web import share
from kniffel.web.view import (
    corrections_view,
    game_view,
    history_stats,
    pad_options_view,
    summary,
)

HISTORY_FORMAT = "kniffel-history"
HISTORY_VERSION = 1
MAX_IMPORT_GAMES = 10_000
#: The computer players the browser offers (``optimal`` needs numba: desktop only).
WEB_STRATEGIES = ("greedy", "random")

Reply = dict[str, Any]


class Session:
    """The game the page is showing, and the requests that read and change it."""

    def __init__(self) -> None:
        self.game: Game | None = None
        self._strategies: dict[tuple[str, RuleSet], Strategy] = {}

    def _game(self) -> Game:
        if self.game is None:
            raise IllegalMoveError("no game is loaded; start or load one first")
        return self.game

    def _state(self) -> Reply:
        game = self._game()
        return {"game": game.to_json(), "view": game_view(game), "summary": summary(game)}

    def _settle(self, game: Game) -> None:
        """Throw the dice a pending throw waits for (dice mode), from the game's own seed."""
        if game.is_chance_node():
            game.apply(game.sample_outcome(seeded_rng(game.seed, len(game.actions))))

    def new(self, req: dict[str, Any]) -> Reply:
        """A new game: rule set, free-strike house rule, mode, players, seed (random if
        absent)."""
        rules = preset(_text(req.get("rules", "extreme"), "rules"),
                       free_strike=req.get("free_strike") is True)
        try:
            mode = Mode(req.get("mode", "pad"))
        except ValueError:
            raise InvalidGameError(f"unknown mode {req.get('mode')!r}") from None
        raw_players = req.get("players")
        if not isinstance(raw_players, list):
            raise InvalidGameError(f"players must be a list, got {raw_players!r}")
        players = []
        for p in raw_players:
            if not isinstance(p, dict):
                raise InvalidGameError(f"a player must be an object, got {p!r}")
            try:
                kind = PlayerKind(p.get("kind", "human"))
            except ValueError:
                raise InvalidGameError(f"unknown player kind {p.get('kind')!r}") from None
            strategy = p.get("strategy")
            if kind is PlayerKind.COMPUTER:
                if mode is not Mode.DICE:
                    raise InvalidGameError("computer players play only with virtual dice: on the "
                                           "score pad every player is a person")
                strategy = _web_strategy(strategy)
            players.append(Player(_text(p.get("name"), "a player's name"), kind,
                                  strategy if isinstance(strategy, str) else None))
        seed = req.get("seed")
        if seed is None:
            # below 2**53: the page keeps the game as JSON in JavaScript, whose numbers hold
            # whole numbers exactly only up to there, and the dice follow from the seed
            seed = random.SystemRandom().randrange(2**53)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise InvalidGameError(f"the seed must be a whole number, got {seed!r}")
        self.game = Game(rules, players, mode=mode, seed=seed)
        return self._state()

    def load(self, req: dict[str, Any]) -> Reply:
        """Replay a saved game (the page's stored copy); a bad one raises and changes
        nothing."""
        game = Game.from_json(req.get("game"))
        self._settle(game)
        self.game = game
        return self._state()

    def act(self, req: dict[str, Any]) -> Reply:
        """Apply one action the user chose (its JSON from the view's options)."""
        game = self._game()
        action = action_from_json(req.get("action"))
        if isinstance(action, Throw):
            raise IllegalMoveError("throws go through the 'roll' request")
        game.apply(action)
        return self._state()

    def roll(self, req: dict[str, Any]) -> Reply:
        """Dice mode: keep the dice at ``keep`` (positions in the view's dice) and throw the
        others."""
        game = self._game()
        turn = game.turn
        positions = req.get("keep", [])
        if not isinstance(positions, list) or not all(
            isinstance(p, int) and not isinstance(p, bool) for p in positions
        ):
            raise IllegalMoveError(f"keep must be a list of dice positions, got {positions!r}")
        if turn is None or turn.roll is None:
            keep = Keep()
            if positions:
                raise IllegalMoveError("the first throw of a turn throws all dice")
        else:
            keep = Keep.from_positions(turn.roll, positions)
        game.apply(Throw(keep))
        try:
            self._settle(game)
        except KniffelError:
            game.undo()
            raise
        return self._state()

    def undo(self, req: dict[str, Any]) -> Reply:
        """Take back the last decision of a human (a throw with its dice counts as one step),
        and every computer move after it."""
        game = self._game()
        last = game.last_human_decision()
        if last is None:
            raise IllegalMoveError("nothing to undo: no person has made a move yet")
        self.game = Game(game.rules, game.players, mode=game.mode, seed=game.seed,
                         start_player=game.start_player, actions=game.actions[:last])
        return self._state()

    def _computer(self) -> tuple[Game, Action]:
        """The game and the next action of the computer player to move."""
        game = self._game()
        turn = game.turn
        if turn is None:
            raise IllegalMoveError("the game is over: there is nothing to play")
        player = game.players[turn.player]
        if player.kind is not PlayerKind.COMPUTER:
            raise IllegalMoveError(f"{player.name!r} is a person: it is not a computer's turn")
        if game.mode is not Mode.DICE:
            raise IllegalMoveError("computer players play only with virtual dice")
        name = _web_strategy(player.strategy)
        key = (name, game.rules)
        if key not in self._strategies:
            self._strategies[key] = get_strategy(name, game.rules)
        rng = random.Random(f"{game.seed}:{len(game.actions)}")
        return game, self._strategies[key].choose(game, rng)

    def computer_plan(self, req: dict[str, Any]) -> Reply:
        """What the computer to move does next, changing nothing: the action, and for a throw
        after the first the positions of the dice it keeps."""
        game, action = self._computer()
        turn = game.turn
        keep = None
        if isinstance(action, Throw) and turn is not None and turn.roll is not None:
            keep = list(keep_positions(turn.roll, action.keep))
        return {"action": action_to_json(action), "keep": keep}

    def computer_move(self, req: dict[str, Any]) -> Reply:
        """Make the next move of the computer to move (a throw with its dice)."""
        game, action = self._computer()
        game.apply(action)
        try:
            self._settle(game)
        except KniffelError:
            game.undo()
            raise
        return {"move": action_to_json(action), **self._state()}

    def pad_choices(self, req: dict[str, Any]) -> Reply:
        """Score pad: where the dice a player typed in may go, with their points."""
        game = self._game()
        roll = game.rules.parse_roll(_dice(req.get("dice")))
        return {"dice": list(roll.values),
                "options": pad_options_view(game, game.pad_choices(roll))}

    def corrections(self, req: dict[str, Any]) -> Reply:
        """Score pad: the ways to put a filled box of any player right (``player``, ``box``)."""
        game = self._game()
        player = req.get("player")
        if isinstance(player, bool) or not isinstance(player, int):
            raise InvalidGameError(f"player must be a player's number, got {player!r}")
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
        return {"game": game.to_json(), "view": game_view(game), "summary": summary(game)}

    def stats(self, req: dict[str, Any]) -> Reply:
        """Statistics over the history's summaries."""
        summaries = req.get("summaries")
        if not isinstance(summaries, list):
            raise CorruptSaveError(f"summaries must be a list, got {type(summaries).__name__}")
        return {"stats": history_stats([s for s in summaries if isinstance(s, dict)])}

    def parse_import(self, req: dict[str, Any]) -> Reply:
        """Check an imported file: one game, or a whole history. Every game is replayed; any
        fault refuses the whole file. Changes nothing here: the page stores what comes back."""
        text = req.get("text")
        if not isinstance(text, str):
            raise CorruptSaveError("the file is not text")
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as e:
            raise CorruptSaveError(f"the file is not valid JSON ({e})") from None
        if isinstance(data, dict) and data.get("format") == HISTORY_FORMAT:
            return {"kind": "history", "entries": _history_entries(data)}
        game = loads_game(text, name="the file")
        return {"kind": "game", "game": game.to_json(), "view": game_view(game),
                "summary": summary(game)}

    def export_history(self, req: dict[str, Any]) -> Reply:
        """The history file for export: the games of the page's history entries."""
        entries = req.get("entries")
        if not isinstance(entries, list):
            raise CorruptSaveError("entries must be a list")
        return {"file": {"format": HISTORY_FORMAT, "version": HISTORY_VERSION,
                         "games": [{"finished": e.get("finished"), "game": e.get("game")}
                                   for e in entries if isinstance(e, dict)]}}

    def handle(self, request: object) -> Reply:
        """Answer one request: ``{"ok": true, ...}`` or ``{"ok": false, "error": {...}}``."""
        if not isinstance(request, dict) or not isinstance(request.get("op"), str):
            return _error(CorruptSaveError(f"a request is an object with an 'op', got "
                                           f"{request!r}"))
        op = _OPS.get(request["op"])
        if op is None:
            return _error(IllegalMoveError(f"unknown request {request['op']!r}"))
        # Every request leaves the game as it was when it fails: Game.apply and Game.undo change
        # nothing when they refuse, a throw whose dice fail is taken back, and a new or loaded
        # game replaces the old one only once it is complete.
        try:
            return {"ok": True, **op(self, request)}
        except KniffelError as e:
            return _error(e)

    def handle_json(self, text: str) -> str:
        """:meth:`handle` for a JSON request text, answering JSON text."""
        try:
            request = json.loads(text)
        except ValueError as e:
            return json.dumps(_error(CorruptSaveError(f"a request must be JSON ({e})")))
        return json.dumps(self.handle(request), separators=(",", ":"), ensure_ascii=False)


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
    "import": Session.parse_import,
    "export_history": Session.export_history,
}


def _error(e: KniffelError) -> Reply:
    return {"ok": False, "error": {"type": type(e).__name__, "message": str(e)}}


def _text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise InvalidGameError(f"{what} must be text, got {value!r}")
    return value


def _web_strategy(name: object) -> str:
    """The strategy of a computer player in the browser: greedy when none is named."""
    if name is None:
        return "greedy"
    if not isinstance(name, str) or name.strip().lower() not in WEB_STRATEGIES:
        raise UnknownStrategyError(f"the browser's computer players are "
                                   f"{', '.join(WEB_STRATEGIES)}, not {name!r}")
    return name.strip().lower()


def _dice(value: object) -> list[int] | str:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool)
                                       for v in value):
        return value
    raise CorruptSaveError(f"dice must be a list of numbers, got {value!r}")


def _history_entries(data: dict[str, Any]) -> list[dict[str, Any]]:
    version = data.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise CorruptSaveError(f"the history's version {version!r} is not a version number")
    if version > HISTORY_VERSION:
        raise UnsupportedVersionError(f"the history has format version {version}, newer than "
                                      f"this kniffel reads ({HISTORY_VERSION})")
    games = data.get("games")
    if not isinstance(games, list):
        raise CorruptSaveError("the history's 'games' must be a list")
    if len(games) > MAX_IMPORT_GAMES:
        raise CorruptSaveError(f"the history holds {len(games)} games, more than "
                               f"{MAX_IMPORT_GAMES}")
    entries = []
    for i, item in enumerate(games):
        if not isinstance(item, dict):
            raise CorruptSaveError(f"game #{i + 1} of the history is not an object")
        finished = item.get("finished")
        if finished is not None and not isinstance(finished, str):
            raise CorruptSaveError(f"game #{i + 1}: 'finished' must be text, got {finished!r}")
        try:
            game = Game.from_json(item.get("game"))
        except KniffelError as e:
            raise type(e)(f"game #{i + 1} of the history: {e}") from None
        entries.append({"finished": finished, "game": game.to_json(), "summary": summary(game)})
    return entries


SESSION = Session()


def warm_up() -> None:
    """Fill the engine's caches (the points each box can hold, the scores of rolls) by playing a
    turn of every rule set in both modes, so that a memory snapshot taken afterwards answers the
    page's first request at once."""
    for name in PRESETS:
        for mode in Mode:
            s = Session()
            s.handle_json(json.dumps({"op": "new", "rules": name, "mode": mode.value, "seed": 0,
                                      "players": [{"name": "A"}]}))
            s.handle_json(json.dumps({"op": "roll"} if mode is Mode.DICE else
                                     {"op": "pad_choices", "dice": [1, 2, 3, 4, 5, 6][
                                         :preset(name).dice_count]}))
            s.handle_json(json.dumps({"op": "undo"}))
            s.handle_json(json.dumps({"op": "load", "game": s._game().to_json()}))


def handle_json(text: str) -> str:
    """The worker's entry point: answer one JSON request for the page's single session."""
    return SESSION.handle_json(text)
