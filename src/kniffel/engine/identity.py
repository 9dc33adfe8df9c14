"""One identity of a game, for every part that asks whether two games are the same: the
history file's import, the desktop's SQLite history, the browser's history (its import, a
restore, a transfer) and the table.

Two questions, answered once here from a game's save (:meth:`Game.to_json`, or the same keys):

* :func:`game_key` — *which* game: its rule set (with its house rule), mode, seed, start player
  and players, however far it has been played. The table asks this: the table's game arriving
  again is the same game, further on.
* :func:`game_identity` — the game *as played*: its key and every action. Import, restore,
  transfer and the desktop history ask this: a game a table stored on every phone, in a file of
  any version, under any uid and with any times, is one game; two games of the same seed played
  differently are two.

Neither reads times, uids, the save's format version or what a save derives from its actions
(``over``, ``scores``). :class:`KnownGames` is the merge rule built on them: an entry is known
when its uid or its identity is.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from typing import Any

from kniffel.engine.errors import InvalidArgumentError

__all__ = ["KnownGames", "game_identity", "game_key"]


def _canonical(save: Mapping[str, Any], *, actions: bool) -> str:
    """The parts of ``save`` that make it the game it is, as one text (keys sorted, no
    spaces): the rule set as its name and house rule, each player as name, kind and strategy,
    and (``actions``) the actions as they are written."""
    if not isinstance(save, Mapping):
        raise InvalidArgumentError(f"a game's identity is read from its save, got {save!r:.40}",
                                   code="argument.invalid",
                                   params={"what": "save", "value": repr(save)[:40]})
    rules = save.get("rules")
    rules = ({"name": rules.get("name"), "free_strike": rules.get("free_strike") is True}
             if isinstance(rules, Mapping) else rules)
    players = save.get("players")
    if isinstance(players, list):
        players = [{"name": p.get("name"), "kind": p.get("kind", "human"),
                    "strategy": p.get("strategy")} if isinstance(p, Mapping) else p
                   for p in players]
    content: dict[str, Any] = {"rules": rules, "mode": save.get("mode"), "seed": save.get("seed"),
                               "start_player": save.get("start_player", 0), "players": players}
    if actions:
        content["actions"] = save.get("actions")
    return json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def game_identity(save: Mapping[str, Any]) -> str:
    """The identity of the game ``save`` holds, as played so far (64 hex digits): the same for
    the same rule set, mode, seed, start player, players and actions, whatever else the save
    says (its version, times, uid, derived totals).

    >>> from kniffel import Game, preset
    >>> game = Game(preset("kniffel"), ["Anna"], seed=1)
    >>> game_identity(game.to_json()) == game_identity({**game.to_json(), "version": 99})
    True
    """
    return hashlib.sha256(_canonical(save, actions=True).encode()).hexdigest()


def game_key(save: Mapping[str, Any]) -> str:
    """Which game ``save`` holds, however far it was played (64 hex digits): its rule set,
    mode, seed, start player and players, not its actions."""
    return hashlib.sha256(_canonical(save, actions=False).encode()).hexdigest()


class KnownGames:
    """The games a history holds, by uid and by identity (:func:`game_identity`): the merge
    rule of every import, restore and transfer. An entry is known when its uid or its identity
    is; :meth:`add` keeps a new one, so the same game twice in one file is added once."""

    def __init__(self, games: Iterable[tuple[str, str]] = ()) -> None:
        self.uids: set[str] = set()
        self.identities: set[str] = set()
        for uid, identity in games:
            self.uids.add(uid)
            self.identities.add(identity)

    def knows(self, uid: str, identity: str) -> bool:
        """Whether the game ``uid`` / ``identity`` is one of these."""
        return uid in self.uids or identity in self.identities

    def add(self, uid: str, identity: str) -> bool:
        """Keep the game ``uid`` / ``identity``: True when it was new, False when known."""
        if self.knows(uid, identity):
            return False
        self.uids.add(uid)
        self.identities.add(identity)
        return True

    def __repr__(self) -> str:
        return f"<KnownGames: {len(self.uids)} uids, {len(self.identities)} identities>"
