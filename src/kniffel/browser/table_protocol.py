"""One table, every phone: the protocol between the phones of a table (issue 34).

A star: every guest has a data channel to the host, the host holds the game and is its only
writer. Every message is a JSON object with ``t`` (its type), ``v`` (1) and ``table`` (the
table's id); a message of another table or version is left alone.

- ``hello {peer, name, host, term, have, rev, gterm, game_id, game?}``: a guest to the host,
  when it joins or rejoins (``have``: its game's number of actions; ``rev``: the table's
  changes it has seen; ``gterm``: the term of the last of them; ``game``: its copy of the
  table's game, once it has one).
- ``state {term, host, rev, gterm, n, peers, game, by?, said?}``: the host to a guest, after every
  change (to every guest) and as the answer to a hello. ``n`` counts the host's states: a guest
  takes a state only when its ``(term, n)`` is newer than the last it took, so a late or
  doubled one changes nothing.
- ``act {seq, term, rev, request}``: a guest's move (the bridge's ``act``, ``roll``, ``undo``,
  ``computer_move``, ``new`` or ``load`` request: another game is the whole table's) to the
  host. The host applies the moves in the order they arrive, through the same engine code as
  a move made on the host (the bridge's own ops); a move made on a state that is no longer the
  table's (``term`` or ``rev`` behind) or one the engine refuses is answered with
  ``refused {seq, error}`` to its sender only. The same ``seq`` of a peer twice is handled
  once.
- ``name {peer, name}``: a guest's new name for itself (the host sends the state on).
- ``bye {peer}``: a phone leaves.

A state that follows a phone joining, coming back or leaving carries the host's ``said`` for it
(``by.peer``: the phone it is about, which is not told of itself), so every phone reads who
came and went, as the host does.

Host change: when the host is lost, every guest picks the same new host from what the last
state told all of them: the phone that holds the most of the table's changes (``have`` in the
state's peers), ties by join order. The term goes up by one; a state of an older term is left
alone. Of two copies of the game the newer is the one changed in the later term (``gterm``),
then the one with more changes (``rev``): the new host takes the copy of a guest that rejoins
with a newer one as long as it has made no change itself in its term (so the last state of
the lost host survives when any guest got it). The new host counts at its table only the
phones that sit down again (say hello): one of the last state that never does is not picked
at the next host change.

Pure Python, no I/O: it runs inside Pyodide. The game itself is changed only through
:class:`Engine` (the bridge's session).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Protocol

from kniffel.engine.errors import KniffelError, dice_param
from kniffel.engine.game import Game, Outcome, Sheet
from kniffel.engine.identity import game_key

#: The protocol's version (every message's ``v``).
VERSION = 1
#: The requests a table passes on to the engine: the moves of the page (and a computer
#: player's move, virtual dice: the phone that drives the computers asks for it), and another
#: game: a new one (a rematch, the setup's start) or one loaded (resumed from a phone's
#: history, imported, opened from a hand-off): the whole table plays it.
MOVES = frozenset({"act", "roll", "undo", "computer_move", "new", "load"})
#: The words of a phone coming and going: sent on to every phone but the one they are about.
SEAT_WORDS = frozenset({"table.said.joined", "table.said.back", "table.said.left"})

Message = dict[str, Any]


class TableError(KniffelError):
    """A message or request that the table cannot take."""

    default_code = "table.bad_message"


class Engine(Protocol):
    """The game a table runs on: the bridge's session."""

    def current_game(self) -> Game | None:
        """The game this phone holds (None before the first)."""

    def apply(self, request: dict[str, Any]) -> dict[str, Any]:
        """Apply a move (a request of :data:`MOVES`) as the page's own would be, answering
        what the engine answered (a computer's move: its ``move``); raises
        :class:`KniffelError` and changes nothing when the engine refuses it."""

    def adopt(self, save: object) -> None:
        """Make the game of ``save`` this phone's game (replayed and checked)."""


@dataclass
class Seat:
    """A phone at the table."""

    peer: str
    name: str
    joined: int
    #: the table's changes the phone is known to hold (the ``rev`` of the last state the host
    #: sent it)
    have: int = 0

    def to_json(self) -> dict[str, Any]:
        """The seat as a message and the page carry it."""
        return {"peer": self.peer, "name": self.name, "joined": self.joined, "have": self.have}


@dataclass
class Result:
    """What a step of the protocol gives the page: the messages to send, and whether the game
    changed (with the words of who did what), or this phone's move was refused."""

    send: list[tuple[str, Message]] = field(default_factory=list)
    changed: bool = False
    said: dict[str, Any] | None = None
    by: dict[str, Any] | None = None
    refused: tuple[int, dict[str, Any]] | None = None
    pending: bool = False
    #: a move made on this phone (the host): the computer's move the engine made, as the
    #: bridge's ``computer_move`` answers it (the page says it and lights its box)
    move: dict[str, Any] | None = None


def game_id(save: dict[str, Any]) -> str:
    """The id of a save's game: the same for every save of the same game, whatever its
    actions (:func:`kniffel.engine.identity.game_key`)."""
    return game_key(save)


def said_of(before: Game, after: Game, request: dict[str, Any], device: str
            ) -> dict[str, Any]:
    """Who did what, as a catalog code with its params: the move ``request`` that turned
    ``before`` (a copy) into ``after``, made on the phone ``device``. An undo names what it
    took back (the entry, the change, the chip or the throw)."""
    op = request.get("op")
    if op in ("new", "load"):
        return {"code": f"table.said.{op}", "params": {"device": device}}
    if op == "undo":
        took = _difference(after, before)
        if took is None:
            return {"code": "table.said.undo", "params": {"device": device}}
        code, params = took
        return {"code": code.replace("table.said.", "table.said.undo_"),
                "params": {**params, "device": device}}
    mover = before.current_player
    name = after.players[mover].name if mover is not None else ""
    threw = op == "roll" or (op == "computer_move" and bool(after.actions)
                             and isinstance(after.actions[-1], Outcome))
    if threw and after.turn is not None and after.turn.roll is not None:
        code, params = "table.said.roll", {"name": name, "roll": dice_param(after.turn.roll)}
    else:
        code, params = _difference(before, after) or ("table.said.move", {"name": name})
    if op == "computer_move":
        # a computer player's own move: no phone made it (the one that holds the table asked)
        return {"code": code.replace("table.said.", "table.said.computer_"), "params": params}
    return {"code": code, "params": {**params, "device": device}}


def _difference(was_game: Game, now_game: Game) -> tuple[str, dict[str, Any]] | None:
    """What a move changed from ``was_game`` to ``now_game`` (for an undo: from the game
    after it back to the one before, read the other way round): a box filled, struck or
    changed, a chip handed in, the dice thrown; as a ``table.said.*`` code and its params
    (the device aside). None for anything else."""
    rules = now_game.rules.name
    for i, player in enumerate(now_game.players):
        was: Sheet = was_game.sheet(i)
        now: Sheet = now_game.sheet(i)
        for box in now_game.rules.boxes:
            a, z = was.entries.get(box), now.entries.get(box)
            common = {"name": player.name, "box": box.value, "rules": rules}
            if a is None and z is not None:
                if z.struck:
                    return "table.said.strike", common
                return "table.said.score", {**common, "points": z.points}
            if a is not None and z is not None and (a.struck, a.points) != (z.struck, z.points):
                return "table.said.change", {**common, "now": None if z.struck else z.points,
                                             "was": None if a.struck else a.points}
        if now.chips_left < was.chips_left:
            return "table.said.chip", {"name": player.name, "chips": now.chips_left}
    mover = was_game.current_player
    if (mover is not None and mover == now_game.current_player and now_game.turn is not None
            and now_game.turn.roll is not None
            and len(was_game.actions) < len(now_game.actions)):
        return "table.said.roll", {"name": now_game.players[mover].name,
                                   "roll": dice_param(now_game.turn.roll)}
    return None


class Table:
    """This phone's side of a table: host or guest, and what it knows of the others."""

    def __init__(self, engine: Engine, table_id: str, me: str, name: str, host: str) -> None:
        self.engine = engine
        self.id = table_id
        self.me = me
        self.name = name
        #: the host's peer id ("host" for a guest before its first state: the phone it joined
        #: through)
        self.host = host
        self.term = 0
        #: the table's changes (every move applied, and every game taken over)
        self.rev = 0
        #: the term in which the game this phone holds was last changed: of two copies of the
        #: table's game the newer is the one of the later term, then of the higher rev
        self.gterm = 0
        #: the host's states counted (a guest: the last one it took)
        self.n = 0
        self.peers: dict[str, Seat] = {me: Seat(me, name, 0)}
        self._joins = 1
        #: a guest: its moves' numbers, and the moves sent and not yet answered
        self.seq = 0
        self.pending: dict[int, dict[str, Any]] = {}
        #: the host: the moves' numbers handled per peer (a doubled one is dropped)
        self.done: dict[str, set[int]] = {}
        #: the host: its rev when it became host (it takes a rejoining guest's newer game
        #: only while it has changed nothing itself)
        self.term_rev = 0
        #: a guest: whether it holds the table's game (a state came)
        self.synced = False
        #: the phones that have sat at this table (peer ids and names): one that says hello
        #: again is back, not new
        self.seen: set[str] = {me, name}

    # --- the page's steps ------------------------------------------------------------------

    @classmethod
    def open(cls, engine: Engine, table_id: str, me: str, name: str,
             before: Table | None = None) -> Table:
        """A table hosted by this phone for the game it holds; ``before``: this phone's side
        of the same table until now (it carries the table on, in a new term: a guest that
        rejoins with an older state of the table does not turn the game back)."""
        if engine.current_game() is None:
            raise TableError("a table needs a game: start or load one first",
                             code="web.no_game")
        table = cls(engine, table_id, me, name, me)
        table.term = 1
        if before is not None and (before.id, before.me) == (table_id, me):
            table.term = before.term + 1
            table.rev = table.term_rev = before.rev
            table.gterm = before.gterm
            table.n = before.n
        table.synced = True
        return table

    @classmethod
    def join(cls, engine: Engine, table_id: str, me: str, name: str, host: str | None,
             before: Table | None = None) -> tuple[Table, Result]:
        """A guest's side of the table ``table_id``, and its hello to the host (``host``, or
        ``"host"``: the phone it is connected to). ``before``: this phone's side of the same
        table until now: it keeps counting its moves, and its hello brings its game along
        (the host takes it when it is newer and the host changed nothing since it took
        over)."""
        table = cls(engine, table_id, me, name, host or "host")
        if before is not None and (before.id, before.me) == (table_id, me):
            table.seq = before.seq
            table.term = before.term  # a state of an older host stays older
            table.rev = before.rev
            table.gterm = before.gterm
            table.synced = before.synced
        return table, Result(send=[(table.host, table.hello())])

    @property
    def is_host(self) -> bool:
        return self.host == self.me

    def view(self) -> dict[str, Any]:
        """The table as the page shows it."""
        return {"id": self.id, "me": self.me, "host": self.host, "term": self.term,
                "rev": self.rev, "peers": [s.to_json() for s in self._seats()],
                "pending": sorted(self.pending)}

    def act(self, request: dict[str, Any], rev: int | None = None) -> Result:
        """A move made on this phone: applied on the host (and its state sent to every
        guest), sent to the host from a guest. ``rev``: the table's change the page showed
        when the move was made; a move made on a state this phone has left since (another
        phone's move came in meanwhile) is refused, as the host refuses a guest's."""
        if not isinstance(request, dict) or request.get("op") not in MOVES:
            raise TableError(f"a table passes on act, roll, undo, computer_move, new and "
                             f"load requests, got {request!r}", code="web.bad_request")
        if rev is not None and rev != self.rev:
            raise TableError("the move was made on a state the table has left behind",
                             code="table.stale")
        if self.is_host:
            return self._apply(request, self.me, None)
        self.seq += 1
        self.pending[self.seq] = request
        return Result(send=[(self.host, self._msg("act", seq=self.seq, term=self.term,
                                                  rev=self.rev, request=request))],
                      pending=True)

    def receive(self, frm: str, message: object) -> Result:
        """A message from the phone ``frm``."""
        if not isinstance(message, dict) or not isinstance(message.get("t"), str):
            raise TableError(f"a table message is an object with a 't', got {message!r}",
                             code="table.bad_message")
        if message.get("v") != VERSION or message.get("table") != self.id:
            return Result()  # another table's, or a version this one does not speak
        kind = message["t"]
        try:
            if kind == "hello":
                return self._hello(frm, message)
            if kind == "act":
                return self._act(frm, message)
            if kind == "state":
                return self._state(frm, message)
            if kind == "refused":
                return self._refused(message)
            if kind == "bye":
                return self.lost(frm)
            if kind == "name":
                return self._name(frm, m=message)
        except (KeyError, TypeError, ValueError) as e:
            if isinstance(e, KniffelError):
                raise
            raise TableError(f"a {kind} message lacks a field or has a wrong one: {e!r}",
                             code="table.bad_message") from None
        raise TableError(f"unknown table message {kind!r}", code="table.bad_message")

    def lost(self, peer: str) -> Result:
        """The connection to ``peer`` is gone (closed, or the phone left): the host lets the
        others know; a guest that lost the host takes part in the host change."""
        if peer == self.me:
            return Result()
        if self.is_host:
            seat = self.peers.pop(peer, None)
            if seat is None:
                return Result()
            said = {"code": "table.said.left", "params": {"device": seat.name}}
            by = {"peer": peer, "seq": None}
            return Result(send=self._broadcast(by, said), said=said)
        if peer != self.host:
            self.peers.pop(peer, None)
            return Result()
        if not self.synced:
            return Result()  # the join never came through: nothing to carry on
        for seat in self.peers.values():  # the lost host among them: back, when it comes back
            self.seen |= {seat.peer, seat.name}
        self.peers.pop(peer, None)
        self.pending.clear()  # sent to the lost host: not made (the page may make them again)
        winner = max(self.peers.values(), key=lambda s: (s.have, -s.joined))
        self.term += 1
        self.host = winner.peer
        said = {"code": "table.said.host", "params": {"device": winner.name}}
        if winner.peer == self.me:
            self._take_over()
            return Result(said=said)
        return Result(send=[(self.host, self.hello())], said=said)

    def _take_over(self) -> None:
        """This phone holds the table now (in its new term): the changes it makes from here
        on counted from its rev, the moves' numbers afresh, and at the table only itself
        until the others sit down again by its code (their hellos). A phone of the last
        state that never does is not at the table: kept, it would be counted as holding every
        change and, joined early, picked as the next host, gone."""
        self.term_rev = self.rev
        self.done = {}
        for seat in self.peers.values():
            self.seen |= {seat.peer, seat.name}
        self.peers = {self.me: self.peers.get(self.me) or Seat(self.me, self.name, 0)}

    def rename(self, name: str) -> Result:
        """This phone's new name at the table: the host's seat renamed and the state sent to
        every guest; a guest's sent to the host (which sends the state on)."""
        if not isinstance(name, str) or not name.strip():
            raise TableError("a phone's name at the table is a text that is not empty",
                             code="web.bad_request")
        self.name = name.strip()[:40]
        self.seen.add(self.name)
        self.peers.setdefault(self.me, Seat(self.me, self.name, 0)).name = self.name
        if self.is_host:
            return Result(send=self._broadcast())
        return Result(send=[(self.host, self._msg("name", peer=self.me, name=self.name))])

    def leave(self) -> Result:
        """This phone leaves: a bye to the host, or from the host to every guest."""
        bye = self._msg("bye", peer=self.me)
        if self.is_host:
            return Result(send=[(s.peer, bye) for s in self._seats() if s.peer != self.me])
        return Result(send=[(self.host, bye)])

    # --- messages --------------------------------------------------------------------------

    def _msg(self, kind: str, **fields: Any) -> Message:
        return {"t": kind, "v": VERSION, "table": self.id, **fields}

    def hello(self) -> Message:
        """This guest's hello to the host: who it is and how much of the table it holds."""
        game = self.engine.current_game()
        fields: dict[str, Any] = {"peer": self.me, "name": self.name, "host": self.host,
                                  "term": self.term, "rev": self.rev, "gterm": self.gterm,
                                  "have": 0 if game is None or not self.synced
                                  else len(game.actions), "game_id": None}
        if game is not None and self.synced:
            save = game.to_json()
            fields["game_id"] = game_id(save)
            fields["game"] = save
        return self._msg("hello", **fields)

    def _seats(self) -> list[Seat]:
        return sorted(self.peers.values(), key=lambda s: s.joined)

    def _state_msg(self, by: dict[str, Any] | None, said: dict[str, Any] | None) -> Message:
        game = self.engine.current_game()
        assert game is not None
        fields: dict[str, Any] = {"term": self.term, "host": self.me, "rev": self.rev,
                                  "gterm": self.gterm, "n": self.n,
                                  "peers": [s.to_json() for s in self._seats()],
                                  "game": game.to_json()}
        if by is not None:
            fields["by"] = by
        if said is not None:
            fields["said"] = said
        return self._msg("state", **fields)

    def _broadcast(self, by: dict[str, Any] | None = None,
                   said: dict[str, Any] | None = None) -> list[tuple[str, Message]]:
        """The state to every guest (each now known to hold this rev)."""
        self.n += 1
        for seat in self.peers.values():
            seat.have = self.rev
        message = self._state_msg(by, said)
        return [(s.peer, message) for s in self._seats() if s.peer != self.me]

    def _apply(self, request: dict[str, Any], frm: str, seq: int | None) -> Result:
        """Apply a move on the host and tell every guest (raises when the engine refuses)."""
        before = self.engine.current_game()
        if before is None:
            raise TableError("no game is loaded", code="web.no_game")
        was = before.copy()
        made = self.engine.apply(request)
        after = self.engine.current_game()
        assert after is not None
        self.rev += 1
        self.gterm = self.term
        device = self.peers[frm].name if frm in self.peers else frm
        said = said_of(was, after, request, device)
        by = {"peer": frm, "seq": seq}
        move = made.get("move") if isinstance(made, dict) else None
        return Result(send=self._broadcast(by, said), changed=True, said=said, by=by,
                      move=move if isinstance(move, dict) else None)

    def _refuse(self, to: str, seq: object, error: KniffelError) -> tuple[str, Message]:
        return (to, self._msg("refused", seq=seq, error={"code": error.code,
                                                         "params": error.params,
                                                         "message": str(error)}))

    def _hello(self, frm: str, m: Message) -> Result:
        if int(m["term"]) > self.term and m.get("host") == self.me:
            # a guest that lost the host picked this phone before it noticed the loss itself
            self.term = int(m["term"])
            self.host = self.me
            self._take_over()
        if not self.is_host:
            return Result()
        # a guest that counted a later term (it took part in a host change that went
        # another way): the table moves on to it, so that the guest takes its states
        self.term = max(self.term, int(m["term"]))
        name = str(m["name"])
        seat = self.peers.get(frm)
        # a phone at the table already says hello again (its first one resent, or it slept
        # with its connection kept): nothing to tell; one that had left is back
        word = None if seat is not None else (
            "table.said.back" if frm in self.seen or name in self.seen else "table.said.joined")
        if seat is None:
            seat = self.peers[frm] = Seat(frm, name, self._joins)
            self._joins += 1
        seat.name = name
        self.seen |= {frm, name}
        self.done[frm] = set()  # a phone that rejoins may count its moves afresh
        game = self.engine.current_game()
        said = None if word is None else {"code": word, "params": {"device": name}}
        result = Result(said=said)
        save = m.get("game")
        newer = (int(m["gterm"]), int(m["rev"])) > (self.gterm, self.rev)
        if (isinstance(save, dict) and game is not None and newer
                and self.rev == self.term_rev and game_id(save) == game_id(game.to_json())):
            # the lost host's last changes, which this phone never got: taken over
            self.engine.adopt(save)
            self.rev = self.term_rev = int(m["rev"])
            self.gterm = int(m["gterm"])
            result.changed = True
        result.send = self._broadcast({"peer": frm, "seq": None}, said)
        return result

    def _name(self, frm: str, m: Message) -> Result:
        """A guest's new name: its seat renamed, the state sent on to every guest."""
        seat = self.peers.get(frm)
        name = str(m["name"]).strip()[:40]
        if not self.is_host or seat is None or not name:
            return Result()
        seat.name = name
        self.seen.add(name)
        return Result(send=self._broadcast())

    def _act(self, frm: str, m: Message) -> Result:
        seq = m["seq"]
        if isinstance(seq, bool) or not isinstance(seq, int):
            raise TableError(f"an act's seq is a whole number, got {seq!r}",
                             code="table.bad_message")
        if not self.is_host:
            return Result(send=[self._refuse(frm, seq, TableError(
                "this phone does not hold the table", code="table.stale"))])
        if frm not in self.peers:
            return Result(send=[self._refuse(frm, seq, TableError(
                f"{frm} is not at the table", code="table.not_at_table",
                params={"name": frm}))])
        done = self.done.setdefault(frm, set())
        if seq in done:
            return Result()  # delivered twice: handled once
        done.add(seq)
        if m.get("rev") != self.rev or m.get("term") != self.term:
            self.n += 1
            self.peers[frm].have = self.rev
            stale = TableError("the move was made on a state the table has left behind",
                               code="table.stale")
            return Result(send=[self._refuse(frm, seq, stale),
                                (frm, self._state_msg(None, None))])
        request = m["request"]
        if not isinstance(request, dict) or request.get("op") not in MOVES:
            return Result(send=[self._refuse(frm, seq, TableError(
                f"a table passes on act, roll, undo, computer_move, new and load "
                f"requests, got {request!r}",
                code="web.bad_request"))])
        try:
            return self._apply(request, frm, seq)
        except KniffelError as e:
            return Result(send=[self._refuse(frm, seq, e)])

    def _state(self, frm: str, m: Message) -> Result:
        term, n = int(m["term"]), int(m["n"])
        host = str(m["host"])
        if term < self.term:
            return Result()  # an older host's
        if self.is_host and host != self.me and not (
                term > self.term or host < self.me):
            return Result()  # two hosts in one term: the smaller id holds the table
        if self.synced and host == self.host and term == self.term and n <= self.n:
            return Result()  # late or doubled
        save = m["game"]
        game = self.engine.current_game()
        changed = game is None or game.to_json() != save
        if changed:
            self.engine.adopt(save)
        self.term, self.n, self.rev, self.host = term, n, int(m["rev"]), host
        self.gterm = int(m["gterm"])
        self.synced = True
        self.peers = {}
        for s in m["peers"]:
            seat = Seat(str(s["peer"]), str(s["name"]), int(s["joined"]), int(s["have"]))
            self.peers[seat.peer] = seat
        self._joins = 1 + max(s.joined for s in self.peers.values())
        if self.me not in self.peers:
            self.peers[self.me] = Seat(self.me, self.name, self._joins, self.rev)
            self._joins += 1
        by = m.get("by")
        if isinstance(by, dict) and by.get("peer") == self.me:
            self.pending.pop(by.get("seq"), None)  # type: ignore[arg-type]
        said = m.get("said") if isinstance(m.get("said"), dict) else None
        about_me = isinstance(by, dict) and by.get("peer") == self.me
        if said is not None and ((said.get("code") in SEAT_WORDS and about_me)
                                 or (said.get("code") not in SEAT_WORDS and not changed)):
            said = None  # a phone is not told of itself; a move's words come with its change
        return Result(changed=changed, said=said, by=by if isinstance(by, dict) else None)

    def _refused(self, m: Message) -> Result:
        seq = m["seq"]
        if seq not in self.pending:
            return Result()
        del self.pending[seq]
        error = m["error"]
        if not isinstance(error, dict):
            raise TableError("a refusal without its error", code="table.bad_message")
        return Result(refused=(seq, error))


def message_bytes(message: Message) -> int:
    """The bytes a message takes on a data channel (JSON, UTF-8, no spaces)."""
    return len(json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode())
