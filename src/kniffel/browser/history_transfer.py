"""A history to another phone (issue 40): the messages that carry a whole history over a data
channel between two phones, and what each phone makes of them.

The phones connect as a table's do (:mod:`kniffel.browser.table`: an offer code, an answer code,
WebRTC, no server); either may then send its history to the other. Every message is a JSON
object (as text, compact) with ``t`` (its type), ``v`` (:data:`VERSION`) and ``transfer`` (the
sender's id for this transfer):

- ``transfer.hello {games, chunks}``: the sender starts: how many games come, in how many
  chunks.
- ``transfer.chunk {i, games: [entry, …]}``: the chunk ``i`` (0, 1, …): whole games, each an
  entry of the history file (:class:`kniffel.engine.history_file.HistoryEntry`: ``uid``,
  ``started``, ``finished_at``, ``game``), at most :data:`CHUNK_BYTES` of them (a game larger
  than that goes alone).
- ``transfer.done {games, chunks}``: every chunk sent.
- ``transfer.ack {i, games}``: the receiver took chunk ``i`` (``games``: received so far); the
  sender keeps at most :data:`WINDOW` chunks unanswered, so both phones count the games that
  arrived.
- ``transfer.result {games, added, known, stored}``: the receiver merged what arrived into its
  history (``stored``: false when its storage was full and nothing was kept).
- ``transfer.stop {code, params}``: the receiver refuses the rest (a damaged message, a game
  that does not replay, a newer version): the games taken before stay.

The receiver checks every game of a chunk (replayed, as an import is) before it hands the chunk
to the page; a chunk with a fault is refused whole. A chunk received twice is taken once, one
out of order ends the transfer; a message of another transfer, or one that is no message of a
transfer at all, is left alone. The page merges the games that arrived into its history (the
engine's identity of a game: a game both phones hold stays one) when the transfer ends, whole or
not: only whole games ever arrive.

Pure Python, no I/O: it runs inside Pyodide.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from kniffel.engine.errors import KniffelError, cause_param
from kniffel.engine.game import Game
from kniffel.engine.history_file import FORMAT, UNKNOWN_TIME, HistoryEntry, decode_history
from kniffel.engine.history_file import VERSION as FILE_VERSION
from kniffel.engine.messages import count, plural, render_code
from kniffel.engine.rules import Lang

#: The protocol's version (every message's ``v``).
VERSION = 1
#: The largest chunk (bytes of its games' JSON): under the 64 kB every browser takes in one
#: message (the standard's size where a phone states none).
CHUNK_BYTES = 60_000
#: The most chunks the sender keeps unanswered.
WINDOW = 4
#: The types of the protocol's messages.
TYPES = frozenset({"transfer.hello", "transfer.chunk", "transfer.done", "transfer.ack",
                   "transfer.result", "transfer.stop"})

Message = dict[str, Any]


class TransferError(KniffelError):
    """A message that the transfer cannot take."""

    default_code = "transfer.bad_message"


def dumps(message: Message) -> str:
    """A message as the channel carries it (JSON, no spaces)."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def _msg(kind: str, transfer: str, **fields: Any) -> Message:
    return {"t": kind, "v": VERSION, "transfer": transfer, **fields}


def read(data: object) -> Message | None:
    """The message a channel's text ``data`` carries, or None for one that is no message of a
    transfer (another app's, a table's). Raises :class:`TransferError` for a message of a
    transfer that is cut off (``transfer.cut_message``), of a newer version
    (``transfer.newer_version``) or without its fields (``transfer.bad_message``)."""
    if not isinstance(data, str):
        return None
    try:
        message = json.loads(data)
    except (ValueError, RecursionError):
        if data.lstrip().startswith('{"t":"transfer.'):
            raise TransferError("a transfer's message arrived cut off",
                                code="transfer.cut_message") from None
        return None
    if not isinstance(message, dict) or message.get("t") not in TYPES:
        return None
    version = message.get("v")
    if isinstance(version, bool) or not isinstance(version, int):
        raise TransferError(f"a transfer's message has no version: {version!r:.40}",
                            code="transfer.bad_message")
    if version > VERSION:
        raise TransferError(f"the other phone speaks version {version} of the transfer, this "
                            f"one {VERSION}", code="transfer.newer_version",
                            params={"version": version, "known": VERSION})
    if not isinstance(message.get("transfer"), str) or not message["transfer"]:
        raise TransferError("a transfer's message names no transfer",
                            code="transfer.bad_message")
    return message


def _whole(message: Message, key: str) -> int:
    value = message.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise TransferError(f"{message.get('t')}'s {key} must be a whole number, got "
                            f"{value!r:.40}", code="transfer.bad_message")
    return value


def wire_entry(e: object) -> dict[str, Any] | None:
    """A page's history entry as a chunk carries it (the history file's entry: ``uid``,
    ``started``, ``finished_at``, ``game``), or None for one without a game. An older entry
    (``id``, ``finished``) gets its id as uid and that time as its start."""
    if not isinstance(e, dict) or not isinstance(e.get("game"), dict):
        return None
    stored = e.get("finished") if isinstance(e.get("finished"), str) else None
    uid = e.get("uid") or e.get("id")
    summary: dict[str, Any] = e["summary"] if isinstance(e.get("summary"), dict) else {}
    if not isinstance(uid, str) or not uid:
        identity = summary.get("identity")
        uid = ("g" + identity[:31] if isinstance(identity, str) and identity
               else "g" + Game.from_json(e["game"]).identity[:31])
    started = e.get("started") if isinstance(e.get("started"), str) else None
    started = started or stored or UNKNOWN_TIME
    if "finished_at" in e:
        finished_at = e.get("finished_at") if isinstance(e.get("finished_at"), str) else None
    else:
        finished_at = (stored or started) if summary.get("over") is True else None
    return {"uid": uid, "started": started, "finished_at": finished_at, "game": e["game"]}


def chunked(items: list[dict[str, Any]], budget: int = CHUNK_BYTES) -> list[list[str]]:
    """``items`` (entries as a chunk carries them) cut into chunks of whole games, each at most
    ``budget`` bytes of JSON (a larger game alone), in order; each game as its JSON text."""
    chunks: list[list[str]] = []
    size = budget + 1
    for item in items:
        text = dumps(item)
        n = len(text.encode())
        if size + n + 1 > budget:
            chunks.append([])
            size = 0
        chunks[-1].append(text)
        size += n + 1
    return chunks


@dataclass
class Sending:
    """This phone's side of a transfer it sends: the chunks, and how far the other phone took
    them."""

    id: str
    games: int
    #: each chunk's message (text) and the games it holds
    chunks: list[tuple[str, int]]
    #: the next chunk to send
    next: int = 0
    #: the chunks answered, and the games in them
    acked: int = 0
    arrived: int = 0
    done_sent: bool = False
    #: how it ended: the receiver's result, or its refusal
    result: Message | None = None
    stopped: Message | None = None

    @classmethod
    def of(cls, transfer: str, entries: list[object], budget: int = CHUNK_BYTES) -> Sending:
        """The transfer ``transfer`` of the page's history ``entries`` (those without a game
        left out)."""
        items = [w for w in map(wire_entry, entries) if w is not None]
        chunks = []
        for i, part in enumerate(chunked(items, budget)):
            head = dumps(_msg("transfer.chunk", transfer, i=i, games=[]))[:-3]
            chunks.append((f"{head}[{','.join(part)}]}}", len(part)))
        return cls(transfer, len(items), chunks)

    def start(self) -> list[str]:
        """The hello and the first chunks."""
        hello = dumps(_msg("transfer.hello", self.id, games=self.games,
                           chunks=len(self.chunks)))
        return [hello, *self._more()]

    def _more(self) -> list[str]:
        out = []
        while self.next < len(self.chunks) and self.next - self.acked < WINDOW:
            out.append(self.chunks[self.next][0])
            self.next += 1
        if self.next == len(self.chunks) and not self.done_sent:
            self.done_sent = True
            out.append(dumps(_msg("transfer.done", self.id, games=self.games,
                                  chunks=len(self.chunks))))
        return out

    def take(self, message: Message) -> list[str]:
        """An answer of the receiver: the messages to send next."""
        kind = message["t"]
        if kind == "transfer.ack":
            i = _whole(message, "i")
            if i == self.acked and i < len(self.chunks):
                self.acked += 1
                self.arrived += self.chunks[i][1]
            return self._more() if self.stopped is None else []
        if kind == "transfer.result":
            self.result = message
        elif kind == "transfer.stop":
            self.stopped = message
        return []


@dataclass
class Receiving:
    """This phone's side of a transfer it receives: how much came, and how it ended."""

    id: str
    games: int
    chunks: int
    #: the next chunk expected, and the games taken so far
    next: int = 0
    arrived: int = 0
    done: bool = False
    #: the fault that ended it (a refused message), as a catalog code and params
    fault: dict[str, Any] | None = None
    entries: list[HistoryEntry] = field(default_factory=list)

    @property
    def over(self) -> bool:
        return self.done or self.fault is not None

    def chunk(self, message: Message) -> list[HistoryEntry] | None:
        """The games of a chunk, every one replayed and checked; None for one taken before
        (the same ``i`` twice). Raises :class:`TransferError` for a chunk out of order, one
        with more games than the hello said, or a game that does not replay (naming it by its
        number in the whole transfer)."""
        i = _whole(message, "i")
        if i < self.next:
            return None
        if i > self.next:
            raise TransferError(f"chunk {i} arrived where chunk {self.next} was due",
                                code="transfer.out_of_order",
                                params={"got": i + 1, "want": self.next + 1})
        games = message.get("games")
        if not isinstance(games, list):
            raise TransferError("a chunk's games are a list", code="transfer.bad_message")
        if self.arrived + len(games) > self.games:
            raise TransferError(f"more games arrived than the {self.games} announced",
                                code="transfer.too_many", params={"games": self.games})
        out = []
        for k, item in enumerate(games):
            number = self.arrived + k + 1
            try:
                out += decode_history({"format": FORMAT, "version": FILE_VERSION,
                                       "games": [item]})
            except KniffelError as e:
                cause = e.params.get("cause") if e.code == "import.game_invalid" else None
                raise TransferError(f"game {number} of the transfer: {e}",
                                    code="transfer.game_invalid",
                                    params={"number": number,
                                            "cause": cause if isinstance(cause, dict)
                                            else cause_param(e)}) from None
        self.next += 1
        self.arrived += len(out)
        self.entries += out
        return out

    def finish(self, message: Message) -> None:
        """The sender's done: the transfer is whole when every chunk and game came; else it
        ended short (what came is kept)."""
        if _whole(message, "chunks") != self.next or _whole(message, "games") != self.arrived:
            self.fault = {"code": "transfer.short", "params": {}}
        self.done = True

    def ack(self, i: int) -> str:
        return dumps(_msg("transfer.ack", self.id, i=i, games=self.arrived))

    def stop(self, error: KniffelError) -> str:
        """The refusal for the sender (the transfer ends here)."""
        self.fault = {"code": error.code, "params": error.params}
        return stop_message(self.id, error)


def stop_message(transfer: str, error: KniffelError) -> str:
    """The receiver's refusal of the transfer ``transfer`` (the rest does not come)."""
    return dumps(_msg("transfer.stop", transfer, code=error.code, params=error.params))


def sender_of(data: object) -> str | None:
    """The transfer a message names, where it is a JSON object that names one (a newer app's
    hello is answered with a refusal the sender reads), else None."""
    try:
        message = json.loads(data) if isinstance(data, str) else None
    except (ValueError, RecursionError):
        return None
    name = message.get("transfer") if isinstance(message, dict) else None
    return name if isinstance(name, str) and name else None


def hello(message: Message) -> Receiving:
    """The receiver's side of the transfer a hello starts."""
    games, chunks = _whole(message, "games"), _whole(message, "chunks")
    return Receiving(str(message["transfer"]), games, chunks)


def result_message(r: Receiving, added: int, known: int, stored: bool) -> str:
    """The receiver's result for the sender."""
    return dumps(_msg("transfer.result", r.id, games=r.arrived, added=added, known=known,
                      stored=stored))


# --- the sentences that end a transfer ----------------------------------------------------------

def _games(n: int, lang: Lang) -> dict[str, str]:
    """``n`` games as the sentences say them: ``games`` ("30 Spiele") and ``games_of`` ("von 30
    Spielen")."""
    return {"games": plural("transfer.games", n, lang),
            "games_of": plural("transfer.games_of", n, lang)}


def received_words(r: Receiving, added: int, known: int, stored: bool, lang: Lang) -> str:
    """What the receiving phone says when the transfer ends: every game came (how many were new,
    how many it had), or it broke off (how many came, how many of them new, that the rest did
    not), or its storage was full (nothing changed)."""
    if not stored and added:
        return render_code("transfer.full", _games(r.arrived, lang), lang)
    numbers = {"got": count(r.arrived, lang), "added": count(added, lang),
               "known": count(known, lang), **_games(r.games, lang),
               "missing": count(r.games - r.arrived, lang)}
    if r.fault is None and r.arrived == r.games:
        return render_code("transfer.received", numbers, lang)
    if r.fault is None:
        return render_code("transfer.cut", numbers, lang)
    why = render_code(r.fault["code"], r.fault["params"], lang)
    return render_code("transfer.stopped", {**numbers, "why": why}, lang)


def sent_words(s: Sending, lang: Lang) -> str:
    """What the sending phone says when the transfer ends: the other phone's result, its
    refusal, or the connection lost (how many games arrived)."""
    numbers = {"got": count(s.arrived, lang), **_games(s.games, lang),
               "missing": count(s.games - s.arrived, lang)}
    if s.result is not None:
        r = s.result
        if r.get("stored") is False and r.get("added"):
            return render_code("transfer.sent_full", numbers, lang)
        return render_code("transfer.sent", {
            **numbers, "added": count(int(r.get("added") or 0), lang),
            "known": count(int(r.get("known") or 0), lang)}, lang)
    if s.stopped is not None:
        params = s.stopped.get("params")
        why = render_code(str(s.stopped.get("code")), params if isinstance(params, dict)
                          else {}, lang)
        return render_code("transfer.sent_stopped", {**numbers, "why": why}, lang)
    return render_code("transfer.sent_cut", numbers, lang)


def both(words: Any, *args: Any) -> dict[str, str]:
    """A sentence in both languages (the page shows the one it speaks, also after a switch)."""
    return {lang: words(*args, lang) for lang in ("de", "en")}
