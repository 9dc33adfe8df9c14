"""The history to another phone (issue 40) in one Chromium: two browser contexts are two phones
on the loopback, connected through the history screen's panel the messenger's way (this phone's
code pasted on the other, the other's answer code pasted here), a WebRTC data channel and
nothing else (the ``browser_contexts`` fixture fails on a request to another origin). A history
of 30 finished games moves from A to B; a second transfer adds nothing; B sends back; a game both
held stays one; the channel closed halfway keeps the whole games that came and says so."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, FilePayload, Page

from conftest import READY, BrowserContexts, clear_storage, stored_history
from kniffel.engine.game import Game, Mode, Player, PlayerKind
from kniffel.engine.history_file import HistoryEntry, encode_history
from kniffel.engine.match import Match
from kniffel.engine.rules import preset

pytestmark = pytest.mark.browser

ERRORS: list[str] = []


def played(seed: int) -> Game:
    """A classic dice game of two random computer players, played to its end."""
    game = Game(preset("kniffel"), [Player(n, PlayerKind.COMPUTER, "random")
                                    for n in ("Anna", "Ben")], mode=Mode.DICE, seed=seed)
    Match(game).play_out()
    return game


def history(seeds: range | list[int]) -> dict[str, Any]:
    """A history file of finished games (uid ``s<seed>``)."""
    return encode_history([HistoryEntry(f"s{seed}", f"2026-11-{1 + seed % 28:02d}T18:00:00+00:00",
                                        f"2026-11-{1 + seed % 28:02d}T18:30:00+00:00",
                                        played(seed)) for seed in seeds])


@pytest.fixture(scope="module")
def phones(browser_contexts: BrowserContexts) -> Iterator[list[BrowserContext]]:
    contexts = [browser_contexts.new(is_mobile=True, has_touch=True,
                                     viewport={"width": 390, "height": 844}) for _ in range(2)]
    yield contexts
    for ctx in contexts:
        browser_contexts.close(ctx)


def open_app(ctx: BrowserContext, site: str) -> Page:
    """The app on the phone ``ctx``, nothing stored, on the history screen."""
    page = ctx.new_page()
    page.on("pageerror", lambda e: ERRORS.append(f"{e}"))
    page.goto(site)
    clear_storage(page)
    page.reload()
    page.wait_for_selector(READY, state="attached", timeout=120_000)
    page.click("#nav-history")
    return page


def import_history(page: Page, data: dict[str, Any]) -> None:
    n = stored(page)
    page.set_input_files("#import-file", files=[FilePayload(
        name="verlauf.json", mimeType="application/json", buffer=json.dumps(data).encode())])
    for _ in range(600):
        if stored(page) > n:
            return
        page.wait_for_timeout(100)
    raise AssertionError("the import was not stored")


def entries(page: Page) -> list[dict[str, Any]]:
    raw = stored_history(page)
    found: list[dict[str, Any]] = json.loads(raw)["entries"] if raw else []
    return found


def stored(page: Page) -> int:
    return len(entries(page))


def uids(page: Page) -> set[str]:
    return {e["uid"] for e in entries(page)}


def connect(a: Page, b: Page) -> None:
    """A shows its code, B pastes it and shows its answer, A pastes that: both connected."""
    for page in (a, b):
        if not page.locator("#panel[open] #transfer-panel").count():
            page.click("#transfer-open")
    if not a.locator("#transfer-connected").count():
        a.click("#transfer-offer")
        a.wait_for_selector("#transfer-offer-code")
        b.fill("#transfer-code-in", a.input_value("#transfer-offer-code"))
        b.click("#transfer-read")
        b.wait_for_selector("#transfer-answer-code")
        a.fill("#transfer-answer-in", b.input_value("#transfer-answer-code"))
        a.click("#transfer-connect")
    for page in (a, b):
        page.wait_for_selector("#transfer-connected")


def send(a: Page, b: Page) -> tuple[str, str]:
    """A sends its history to B; both panels' closing sentences (A's, B's)."""
    for page in (a, b):
        page.evaluate("document.getElementById('transfer-result')?.remove()")
    a.click("#transfer-send")
    for page in (a, b):
        page.wait_for_selector("#transfer-result", timeout=60_000)
    return a.text_content("#transfer-result") or "", b.text_content("#transfer-result") or ""


def test_a_history_moves_to_another_phone_a_second_time_adds_nothing_and_goes_back(
        phones: list[BrowserContext], site: str) -> None:
    a, b = (open_app(ctx, site) for ctx in phones)
    import_history(a, history(range(30)))
    import_history(b, history([0, 1, 100, 101, 102]))  # two games both phones hold
    assert (stored(a), stored(b)) == (30, 5)
    connect(a, b)
    assert "30 Spiele" in (a.text_content("#transfer-send-hint") or "")
    said_a, said_b = send(a, b)
    assert said_b == "Verlauf empfangen: 30 Spiele; neu im Verlauf: 28, schon da: 2."
    assert said_a == "Verlauf gesendet: 30 Spiele; das andere Handy hat 28 neu, 2 hatte es schon."
    assert stored(b) == 33  # the two both held stay one each
    assert uids(b) == uids(a) | {"s100", "s101", "s102"}
    # the history screen shows them at once (behind the panel)
    assert b.locator("#history-list li").count() == 33
    # the progress was counted on both phones in whole games
    progress = b.evaluate("window.kniffelTiming.transfer")
    assert progress["chunksReceived"] >= 4
    # a second transfer adds nothing
    _, said_b = send(a, b)
    assert said_b == "Verlauf empfangen: 30 Spiele; neu im Verlauf: 0, schon da: 30."
    assert stored(b) == 33
    # and B sends back: A gets B's own three
    said_b, said_a = send(b, a)
    assert said_a == "Verlauf empfangen: 33 Spiele; neu im Verlauf: 3, schon da: 30."
    assert uids(a) == uids(b)
    # the sentence in English after the language is switched (the panel reopened)
    a.click("#panel-close")
    a.click("#lang")
    a.click("#transfer-open")
    assert a.text_content("#transfer-result") == (
        "History received: 33 games; new in the history: 3, already here: 30.")
    a.click("#panel-close")
    a.click("#lang")
    assert ERRORS == []


def test_a_channel_closed_halfway_keeps_the_whole_games_that_came_and_says_the_rest_did_not(
        phones: list[BrowserContext], site: str) -> None:
    a, b = (open_app(ctx, site) for ctx in phones)
    import_history(a, history(range(30)))
    connect(a, b)
    b.evaluate("window.kniffelTransferCut = 2")  # B closes the channel after two chunks
    said_a, said_b = send(a, b)
    got = stored(b)
    assert 0 < got < 30
    assert uids(b) <= uids(a)
    assert said_b == (f"Die Verbindung brach ab: {got} von 30 Spielen kamen an, davon {got} neu "
                      f"im Verlauf; die übrigen {30 - got} kamen nicht an.")
    assert said_a.startswith("Die Verbindung brach ab: ")
    assert "kamen beim anderen Handy an" in said_a
    # every game that came is whole: each replays on B as the history's own entry does
    for e in entries(b):
        assert e["summary"]["over"] is True
    assert b.locator("#transfer-note").text_content() == (
        "Die Verbindung zum anderen Handy ist getrennt.")
    # connected again, the rest arrives and nothing is doubled
    b.evaluate("delete window.kniffelTransferCut")
    connect(a, b)
    _, said_b = send(a, b)
    assert said_b == (f"Verlauf empfangen: 30 Spiele; neu im Verlauf: {30 - got}, "
                      f"schon da: {got}.")
    assert uids(b) == uids(a)
    assert ERRORS == []


def test_a_full_storage_keeps_the_history_as_it_was_in_one_sentence(
        phones: list[BrowserContext], site: str) -> None:
    a, b = (open_app(ctx, site) for ctx in phones)
    import_history(a, history(range(5)))
    import_history(b, history([200]))
    before = stored_history(b)
    connect(a, b)
    # B's storage is full from here on (its history lives in IndexedDB)
    b.evaluate("""() => {
      IDBObjectStore.prototype.put = function () {
        throw new DOMException('full', 'QuotaExceededError');
      };
    }""")
    said_a, said_b = send(a, b)
    assert said_b.startswith("Der Speicher dieses Handys ist voll: von den angekommenen 5 "
                             "Spielen wurde keines gespeichert, der Verlauf ist unverändert.")
    assert said_a == ("Der Speicher des anderen Handys ist voll: es hat keines der Spiele "
                      "gespeichert.")
    assert stored_history(b) == before
    assert b.locator("#history-list li").count() == 1  # nothing changed on the screen either
    # one sentence: the panel's, not the storage's own besides it
    assert b.locator("#notices .notice", has_text="Speicher des Browsers").count() == 0
    assert ERRORS == []


def test_each_panel_refuses_the_others_code_in_one_sentence(
        phones: list[BrowserContext], site: str) -> None:
    a, b = (open_app(ctx, site) for ctx in phones)
    a.click("#transfer-open")
    a.click("#transfer-offer")
    a.wait_for_selector("#transfer-offer-code")
    code = a.input_value("#transfer-offer-code")
    b.click("#transfer-open")
    b.fill("#transfer-code-in", "")
    b.click("#transfer-read")
    assert b.text_content("#transfer-note") == (
        "Das Feld ist leer: füge den Code ein oder scanne ihn mit der Kamera.")
    # the history's code in the table's field: said where it belongs
    b.click("#panel-close")
    b.click("#nav-game")  # no game yet: the setup screen, with its button to join a table
    b.click("#table-join-open")
    b.fill("#table-offer-in", code)
    b.click("#table-join-go")
    b.wait_for_selector("#table-note")
    assert b.text_content("#table-note") == (
        "Das ist ein Code aus „Verlauf an ein anderes Handy“: lies ihn dort, im Verlauf.")
    assert ERRORS == []
