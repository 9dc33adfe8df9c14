"""A history to another phone (issue 40): the transfer's messages and their checks, run through
two bridge sessions as the two phones' engines (what the page does: each message's text from one
session handed to the other as it came, the games that arrive merged with ``merge_history``)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from kniffel.browser import history_transfer as transfer
from kniffel.browser import table
from kniffel.browser.bridge import Session
from kniffel.engine.game import Game, Mode, Player, PlayerKind
from kniffel.engine.match import Match
from kniffel.engine.rules import preset

SDPS: dict[str, str] = json.loads(
    (Path(__file__).parent / "data" / "table_sdp.json").read_text(encoding="utf-8"))


def played(seed: int, players: int = 2, rules: str = "kniffel") -> Game:
    """A dice game of random computer players, played to its end."""
    game = Game(preset(rules), [Player(f"P{i}", PlayerKind.COMPUTER, "random")
                                for i in range(players)], mode=Mode.DICE, seed=seed)
    Match(game).play_out()
    return game


def entries(seeds: range, **kw: Any) -> list[dict[str, Any]]:
    """History entries as the page stores them (uid, started, finished_at, game, summary)."""
    s = Session()
    out = []
    for seed in seeds:
        game = played(seed, **kw)
        reply = s.handle({"op": "import", "text": json.dumps(game.to_json())})
        out.append({"uid": f"u{seed}", "started": f"2026-11-01T18:{seed % 60:02d}:00+00:00",
                    "finished_at": "2026-11-01T19:00:00+00:00", "game": reply["game"],
                    "summary": reply["summary"]})
    return out


def ok(reply: dict[str, Any]) -> dict[str, Any]:
    assert reply["ok"], reply
    return reply


class Phone:
    """A phone's engine and history, as the page keeps them."""

    def __init__(self, history: list[dict[str, Any]]) -> None:
        self.s = Session()
        self.history = list(history)
        self.arrived: list[dict[str, Any]] = []
        self.said: dict[str, str] = {}
        self.stop: dict[str, Any] = {}

    def send(self, transfer_id: str = "t1") -> list[str]:
        return list(ok(self.s.handle({"op": "transfer_send", "entries": self.history,
                                      "transfer": transfer_id}))["send"])

    def take(self, data: str, *, full: bool = False) -> list[str]:
        """One message in (the page's received()): what to send back."""
        reply = ok(self.s.handle({"op": "transfer_message", "data": data}))
        self.arrived += reply.get("entries", [])
        if reply.get("stop"):
            self.stop = reply["stop"]
        out = list(reply["send"])
        if reply.get("said"):
            self.said = reply["said"]
        if reply.get("role") == "receiving" and reply.get("ended"):
            out += self.finish(full=full)
        return out

    def lost(self, *, full: bool = False) -> list[str]:
        reply = ok(self.s.handle({"op": "transfer_lost"}))
        if reply.get("said"):
            self.said = reply["said"]
        if reply.get("role") == "receiving" and reply.get("ended"):
            return self.finish(full=full)
        return []

    def finish(self, *, full: bool = False) -> list[str]:
        """The games that arrived merged as history.js's addEntries does."""
        def known(e: dict[str, Any]) -> dict[str, Any]:
            return {"uid": e["uid"], "identity": e["summary"]["identity"]}
        merged = ok(self.s.handle({"op": "merge_history", "have": [known(e) for e in self.history],
                                   "entries": [known(e) for e in self.arrived]}))
        if not full:
            self.history += [self.arrived[i] for i in merged["add"]]
        reply = ok(self.s.handle({"op": "transfer_finish", "added": len(merged["add"]),
                                  "known": merged["known"], "stored": not full}))
        self.arrived = []
        self.said = reply["said"]
        return list(reply["send"])


def move(a: Phone, b: Phone, *, cut_after: int | None = None, full: bool = False) -> int:
    """A's history to B, the messages handed over in order; with ``cut_after``, the channel
    closes after that many chunks reached B. Answers the chunks B took."""
    to_b = a.send()
    to_a: list[str] = []
    chunks = 0
    while to_b or to_a:
        for data in to_b[:]:
            to_b.remove(data)
            if cut_after is not None and '"transfer.chunk"' in data[:30] and chunks == cut_after:
                to_b.clear()
                a.lost()
                b.lost(full=full)
                return chunks
            chunks += '"transfer.chunk"' in data[:30]
            to_a += b.take(data, full=full)
        for data in to_a[:]:
            to_a.remove(data)
            to_b += a.take(data)
    return chunks


def uids(phone: Phone) -> set[str]:
    return {e["uid"] for e in phone.history}


@pytest.fixture(scope="module")
def thirty() -> list[dict[str, Any]]:
    return entries(range(30))


def test_a_whole_history_moves_in_chunks_of_whole_games_and_both_phones_say_so(
        thirty: list[dict[str, Any]]) -> None:
    sent = Phone(thirty).send()
    hello = json.loads(sent[0])
    assert (hello["t"], hello["v"], hello["games"]) == ("transfer.hello", 1, 30)
    chunk = json.loads(sent[1])
    assert chunk["i"] == 0
    assert len(chunk["games"]) >= 1
    assert len(sent[1].encode()) <= transfer.CHUNK_BYTES + 200
    b2, a2 = Phone([]), Phone(thirty)
    assert move(a2, b2) == hello["chunks"] > 1
    assert uids(b2) == uids(a2)
    assert b2.said
    assert a2.said is not None
    assert b2.said["de"] == "Verlauf empfangen: 30 Spiele; neu im Verlauf: 30, schon da: 0."
    assert b2.said["en"] == "History received: 30 games; new in the history: 30, already here: 0."
    assert a2.said["de"] == ("Verlauf gesendet: 30 Spiele; das andere Handy hat 30 neu, 0 hatte "
                             "es schon.")


def test_a_second_transfer_adds_nothing_and_a_game_both_phones_hold_stays_one(
        thirty: list[dict[str, Any]]) -> None:
    a, b = Phone(thirty[:20]), Phone(thirty[15:] + entries(range(100, 103)))
    move(a, b)
    assert len(b.history) == 15 + 3 + 15  # the five games both held stay one each
    assert b.said
    assert b.said["en"].endswith("new in the history: 15, already here: 5.")
    move(a, b)
    assert len(b.history) == 33
    assert b.said
    assert "new in the history: 0, already here: 20" in b.said["en"]
    move(b, a)  # and back
    assert len(a.history) == 33
    assert uids(a) == uids(b)


def test_a_game_under_another_uid_is_the_same_game_by_its_identity(
        thirty: list[dict[str, Any]]) -> None:
    a = Phone([{**thirty[0], "uid": "other-phone-uid"}])
    b = Phone(thirty[:1])
    move(a, b)
    assert len(b.history) == 1


def test_a_channel_closed_halfway_keeps_the_whole_games_that_arrived_and_says_the_rest_did_not(
        thirty: list[dict[str, Any]]) -> None:
    a, b = Phone(thirty), Phone([])
    per_chunk = [len(json.loads(m)["games"]) for m in
                 ok(Session().handle({"op": "transfer_send", "entries": thirty,
                                      "transfer": "x"}))["send"][1:] if '"transfer.chunk"' in m]
    taken = move(a, b, cut_after=2)
    assert taken == 2
    got = sum(per_chunk[:2])
    assert len(b.history) == got  # only whole games, those of the chunks that came
    assert b.said["de"] == (f"Die Verbindung brach ab: {got} von 30 Spielen kamen an, davon "
                            f"{got} neu im Verlauf; die übrigen {30 - got} kamen nicht an.")
    assert b.said["en"] == (f"The connection broke off: {got} of 30 games arrived, {got} of them "
                            f"new in the history; the other {30 - got} did not arrive.")
    assert a.said
    assert a.said["en"].startswith("The connection broke off:")
    # the rest comes with the next transfer; what came before is not doubled
    move(a, b)
    assert uids(b) == uids(a)


def test_a_full_storage_keeps_nothing_and_says_so_in_one_sentence(
        thirty: list[dict[str, Any]]) -> None:
    a, b = Phone(thirty[:5]), Phone(thirty[10:12])
    move(a, b, full=True)
    assert uids(b) == {"u10", "u11"}
    assert b.said["de"].startswith("Der Speicher dieses Handys ist voll: von den angekommenen "
                                   "5 Spielen wurde keines gespeichert")
    assert a.said["en"] == "The other phone's storage is full: it stored none of the games."


def _receiving(games: int = 3, chunks: int = 3) -> Phone:
    b = Phone([])
    b.take(transfer.dumps({"t": "transfer.hello", "v": 1, "transfer": "t1", "games": games,
                           "chunks": chunks}))
    return b


def _chunk(i: int, items: list[dict[str, Any]], transfer_id: str = "t1") -> str:
    return transfer.dumps({"t": "transfer.chunk", "v": 1, "transfer": transfer_id, "i": i,
                           "games": [transfer.wire_entry(e) for e in items]})


def test_a_chunk_received_twice_is_taken_once(thirty: list[dict[str, Any]]) -> None:
    b = _receiving()
    b.take(_chunk(0, thirty[:1]))
    again = ok(b.s.handle({"op": "transfer_message", "data": _chunk(0, thirty[:1])}))
    assert again["duplicate"] is True
    assert "entries" not in again
    assert again["arrived"] == 1
    assert len(b.arrived) == 1


def test_a_chunk_out_of_order_ends_the_transfer_keeping_what_came_before(
        thirty: list[dict[str, Any]]) -> None:
    b = _receiving()
    b.take(_chunk(0, thirty[:1]))
    back = b.take(_chunk(2, thirty[2:3]))
    assert b.stop
    assert b.stop["code"] == "transfer.out_of_order"
    assert json.loads(back[0])["code"] == "transfer.out_of_order"  # the sender is told
    assert len(b.history) == 1
    assert b.said
    assert b.said["de"].startswith(
        "Übertragung abgebrochen: Ein Teil des Verlaufs kam in falscher Reihenfolge an "
        "(Teil 3 statt 2). 1 von 3 Spielen kamen an")
    # the transfer is over: a late chunk changes nothing
    assert ok(b.s.handle({"op": "transfer_message", "data": _chunk(1, thirty[1:2])}))["ignored"]


def test_a_cut_off_message_ends_the_transfer_in_both_languages(
        thirty: list[dict[str, Any]]) -> None:
    b = _receiving()
    b.take(_chunk(0, thirty[:1]))
    cut = _chunk(1, thirty[1:2])
    b.take(cut[:len(cut) // 2])
    assert b.stop
    assert b.stop["code"] == "transfer.cut_message"
    assert b.stop["text"] == "Eine Nachricht des anderen Handys kam abgeschnitten an."
    en = Session()
    en.handle({"op": "transfer_message", "data": transfer.dumps(
        {"t": "transfer.hello", "v": 1, "transfer": "x", "games": 1, "chunks": 1})})
    reply = en.handle({"op": "transfer_message", "data": cut[:40], "lang": "en"})
    assert reply["stop"]["text"] == "A message from the other phone arrived cut off."
    assert len(b.history) == 1


def test_a_game_that_does_not_replay_refuses_its_chunk_naming_the_game(
        thirty: list[dict[str, Any]]) -> None:
    b = _receiving()
    b.take(_chunk(0, thirty[:1]))
    bad = json.loads(_chunk(1, thirty[1:2]))
    bad["games"][0]["game"]["actions"][3] = {"kind": "score", "box": "nonsense"}
    b.take(transfer.dumps(bad))
    assert b.stop
    assert b.stop["code"] == "transfer.game_invalid"
    assert b.stop["params"]["number"] == 2
    assert b.stop["text"].startswith("Spiel 2 der Übertragung: ")
    assert uids(b) == {"u0"}


def test_foreign_messages_are_left_alone(thirty: list[dict[str, Any]]) -> None:
    b = _receiving()
    for data in ["hello", "{}", json.dumps({"t": "state", "v": 1, "table": "x"}),
                 _chunk(0, thirty[:1], transfer_id="another"), "[1, 2]"]:
        assert ok(b.s.handle({"op": "transfer_message", "data": data})).get("ignored"), data
    assert b.arrived == []
    assert not b.stop
    # no transfer under way: a chunk, an ack or a result is nobody's
    idle = Session()
    for data in [_chunk(0, thirty[:1]), transfer.dumps(
            {"t": "transfer.ack", "v": 1, "transfer": "t1", "i": 0, "games": 1})]:
        assert ok(idle.handle({"op": "transfer_message", "data": data}))["ignored"]


def test_a_message_of_a_newer_version_is_refused_with_an_update_sentence(
        thirty: list[dict[str, Any]]) -> None:
    idle = Session()
    newer = transfer.dumps({"t": "transfer.hello", "v": 2, "transfer": "t1", "games": 1,
                            "chunks": 1})
    reply = ok(idle.handle({"op": "transfer_message", "data": newer, "lang": "en"}))
    assert reply["stop"]["code"] == "transfer.newer_version"
    assert reply["stop"]["text"].startswith("The other phone has a newer app (transfer "
                                            "version 2, this one knows 1)")
    told = json.loads(reply["send"][0])  # the newer sender is told, in the version it reads
    assert (told["t"], told["v"], told["transfer"]) == ("transfer.stop", 1, "t1")
    assert "role" not in reply
    assert idle.receiving is None
    b = _receiving()
    b.take(_chunk(0, thirty[:1]))
    newer_chunk = json.loads(_chunk(1, thirty[1:2]))
    newer_chunk["v"] = 2
    b.take(transfer.dumps(newer_chunk))
    assert b.stop
    assert b.stop["code"] == "transfer.newer_version"
    assert uids(b) == {"u0"}


def test_more_games_than_announced_or_a_short_done_end_the_transfer(
        thirty: list[dict[str, Any]]) -> None:
    b = _receiving(games=1, chunks=1)
    b.take(_chunk(0, thirty[:2]))
    assert b.stop
    assert b.stop["code"] == "transfer.too_many"
    assert b.history == []
    short = _receiving(games=3, chunks=2)
    short.take(_chunk(0, thirty[:1]))
    short.take(transfer.dumps({"t": "transfer.done", "v": 1, "transfer": "t1", "games": 3,
                               "chunks": 2}))
    assert short.said
    assert short.said["en"].startswith(
        "Transfer stopped: Fewer games arrived than announced. 1 of 3 games arrived")
    assert uids(short) == {"u0"}


def test_a_second_hello_while_a_history_arrives_is_refused_to_its_sender(
        thirty: list[dict[str, Any]]) -> None:
    b = _receiving()
    reply = ok(b.s.handle({"op": "transfer_message", "data": transfer.dumps(
        {"t": "transfer.hello", "v": 1, "transfer": "t2", "games": 1, "chunks": 1})}))
    stop = json.loads(reply["send"][0])
    assert (stop["t"], stop["transfer"], stop["code"]) == ("transfer.stop", "t2", "transfer.busy")
    b.take(_chunk(0, thirty[:1]))
    assert len(b.arrived) == 1  # the first goes on


def test_the_sender_keeps_at_most_a_window_of_chunks_unanswered() -> None:
    history = entries(range(12), players=4, rules="extreme")
    s = Session()
    sent = ok(s.handle({"op": "transfer_send", "entries": history, "transfer": "w"}))
    chunks = [m for m in sent["send"] if '"transfer.chunk"' in m[:30]]
    assert sent["chunks"] > transfer.WINDOW
    assert len(chunks) == transfer.WINDOW
    for m in chunks:
        assert len(m.encode()) <= transfer.CHUNK_BYTES + 200
    ack = ok(s.handle({"op": "transfer_message", "data": transfer.dumps(
        {"t": "transfer.ack", "v": 1, "transfer": "w", "i": 0, "games": 1})}))
    assert [json.loads(m)["i"] for m in ack["send"]] == [transfer.WINDOW]
    assert ack["arrived"] == len(json.loads(chunks[0])["games"])


def test_chunks_hold_whole_games_in_order_and_a_large_game_goes_alone() -> None:
    items = [{"n": i, "pad": "x" * size} for i, size in enumerate([10, 10, 500, 10])]
    parts = transfer.chunked(items, budget=100)
    assert [[json.loads(t)["n"] for t in p] for p in parts] == [[0, 1], [2], [3]]


def test_an_entry_of_an_older_page_gets_its_id_as_uid_and_its_time_as_start(
        thirty: list[dict[str, Any]]) -> None:
    e = thirty[0]
    old = {"id": "old-1", "finished": "2025-01-01T10:00:00+00:00", "game": e["game"],
           "summary": e["summary"]}
    assert transfer.wire_entry(old) == {"uid": "old-1", "started": "2025-01-01T10:00:00+00:00",
                                        "finished_at": "2025-01-01T10:00:00+00:00",
                                        "game": e["game"]}
    assert transfer.wire_entry({"uid": "x"}) is None
    nameless = transfer.wire_entry({"game": e["game"], "summary": e["summary"]})
    assert nameless is not None
    assert nameless["uid"] == "g" + e["summary"]["identity"][:31]


def test_a_transfer_code_says_its_purpose_and_a_tables_code_its_own() -> None:
    s = Session()
    for purpose in ("transfer", "table"):
        coded = ok(s.handle({"op": "table_code", "kind": "offer",
                             "sdp": SDPS["chromium_mdns_offer"], "table": "ab12cd",
                             "purpose": purpose, "offer": 3}))
        read = ok(s.handle({"op": "table_sdp", "code": coded["code"]}))
        assert read["purpose"] == purpose
        assert read["table"] == ("~h:ab12cd" if purpose == "transfer" else "ab12cd")
    assert table.purpose_of("0123abcd") == "table"
    bad = s.handle({"op": "table_code", "kind": "offer", "sdp": SDPS["chromium_mdns_offer"],
                    "table": "x", "purpose": "chat"})
    assert bad["error"]["code"] == "web.bad_request"


def test_finishing_without_a_transfer_or_with_bad_counts_is_refused() -> None:
    s = Session()
    assert s.handle({"op": "transfer_finish", "added": 0, "known": 0})["error"]["code"] == \
        "transfer.none"
    s.handle({"op": "transfer_message", "data": transfer.dumps(
        {"t": "transfer.hello", "v": 1, "transfer": "t", "games": 0, "chunks": 0})})
    s.handle({"op": "transfer_message", "data": transfer.dumps(
        {"t": "transfer.done", "v": 1, "transfer": "t", "games": 0, "chunks": 0})})
    assert s.handle({"op": "transfer_finish", "added": -1, "known": 0})["error"]["code"] == \
        "web.bad_request"
    done = ok(s.handle({"op": "transfer_finish", "added": 0, "known": 0}))
    assert done["said"]["en"] == ("History received: 0 games; new in the history: 0, "
                                  "already here: 0.")
    assert ok(s.handle({"op": "transfer_lost"}))["send"] == []


def test_random_cuts_never_add_a_partial_or_doubled_game(thirty: list[dict[str, Any]]) -> None:
    rnd = random.Random(4)
    for _ in range(4):
        a = Phone(thirty)
        b = Phone(rnd.sample(thirty, 5))
        move(a, b, cut_after=rnd.randrange(0, 4))
        assert len(uids(b)) == len(b.history) <= 30
        assert {e["summary"]["identity"] for e in b.history} <= \
            {e["summary"]["identity"] for e in thirty}
        move(a, b)
        assert uids(b) == uids(a)
