"""The history in the browser's IndexedDB (static/storage.js, historydb.js), in Debian's
Chromium: a history in localStorage moves there on the first start with nothing lost (a damaged
entry kept aside), 1,000 games are stored and loaded again, a save writes only what changed, a
restore shows its progress and adds nothing the second time, a full storage says so in one
sentence and changes nothing stored, and a browser without IndexedDB keeps the history in
localStorage as before and says that it may not keep it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import BrowserContext, FilePayload, Page

from conftest import HISTORY_KEY, clear_storage, stored_history
from kniffel import Enter, Game, Mode, Strike, preset
from kniffel.browser.view import summary
from kniffel.engine.history_file import HistoryEntry, encode_history

if TYPE_CHECKING:
    from conftest import BrowserContexts

pytestmark = pytest.mark.browser

READY = "html[data-ready='1']"

# The faults a test asks for (in localStorage, before the page starts): "test.full" makes every
# write of the history's IndexedDB fail as a full disk does; "test.noidb" takes IndexedDB away
# (as some WebViews and private windows have none). window.kniffelPuts counts the records
# written; window.kniffelProgress collects the restore's progress lines.
FAULTS = """
(() => {
  window.kniffelPuts = 0;
  if (localStorage.getItem("test.noidb")) {
    Object.defineProperty(window, "indexedDB", { value: undefined, configurable: true });
  }
  const put = IDBObjectStore.prototype.put;
  IDBObjectStore.prototype.put = function (...args) {
    if (localStorage.getItem("test.full")) {
      throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
    }
    window.kniffelPuts++;
    return put.apply(this, args);
  };
  window.kniffelProgress = [];
  new MutationObserver(() => {
    const line = document.querySelector("#restore-progress");
    const seen = window.kniffelProgress;
    if (line && seen.at(-1) !== line.textContent) seen.push(line.textContent);
  }).observe(document, { childList: true, subtree: true, characterData: true });
})();
"""


@pytest.fixture(scope="module")
def context(browser_contexts: BrowserContexts) -> Iterator[BrowserContext]:
    with browser_contexts.open(viewport={"width": 390, "height": 844}) as ctx:
        ctx.add_init_script(FAULTS)
        yield ctx


@pytest.fixture
def page(context: BrowserContext, site: str) -> Iterator[Page]:
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(site)
    page.wait_for_selector(READY, state="attached", timeout=120_000)
    yield page
    page.close()
    assert errors == []


def restart(page: Page, data: dict[str, str]) -> None:
    """Forget everything stored, store ``data`` in localStorage and start the app afresh."""
    clear_storage(page)
    page.evaluate("""data => {
        for (const [k, v] of Object.entries(data)) localStorage.setItem(k, v); }""", data)
    page.reload()
    page.wait_for_selector(READY, state="attached", timeout=60_000)


def finished(names: list[str], points: list[int], seed: int) -> Game:
    """A finished score-pad game: each player's chance holds ``points``, the rest struck."""
    game = Game(preset("kniffel"), names, mode=Mode.PAD, seed=seed)
    last = game.rules.boxes[-1]
    for box in game.rules.boxes:
        for p in points:
            game.apply(Enter(box, p) if box is last and p else Strike(box))
    return game


def when(i: int) -> str:
    return f"2025-{1 + i // 28 % 12:02d}-{1 + i % 28:02d}T18:{i % 60:02d}:00.000Z"


def entries(n: int, first: int = 0) -> list[dict[str, Any]]:
    """``n`` finished games as the page stores them (uids h<i>)."""
    out = []
    for i in range(first, first + n):
        game = finished(["Anna", "Ben"], [5 + i % 26, 20], seed=i + 1)
        out.append({"uid": f"h{i}", "started": when(i), "finished_at": when(i),
                    "game": game.to_json(), "summary": summary(game)})
    return out


@pytest.fixture(scope="module")
def thousand() -> list[dict[str, Any]]:
    """1,000 finished games as the page stores them."""
    return entries(1000)


def uids(page: Page) -> list[str]:
    text = stored_history(page)
    return sorted(e["uid"] for e in json.loads(text)["entries"]) if text else []


def local_history(page: Page) -> str | None:
    text: str | None = page.evaluate(f"localStorage.getItem('{HISTORY_KEY}')")
    return text


def import_text(page: Page, name: str, data: object) -> None:
    page.set_input_files("#import-file", files=[FilePayload(
        name=name, mimeType="application/json", buffer=json.dumps(data).encode())])


def test_a_history_in_local_storage_moves_into_indexeddb_with_nothing_lost(page: Page) -> None:
    good = entries(3)
    old = {"id": "old-1", "finished": "2024-05-01T20:00:00.000Z", "game": good[0]["game"],
           "summary": {**good[0]["summary"], "identity": "x" * 64}}  # an older page's entry
    damaged = {**good[1], "uid": "broken", "summary": {}}
    history = json.dumps({"version": 1, "entries": [old, good[1], good[2], damaged]})
    restart(page, {HISTORY_KEY: history})
    assert page.evaluate("window.kniffelHistory.kind()") == "idb"
    assert uids(page) == ["h1", "h2", "old-1"]
    moved = json.loads(stored_history(page) or "")["entries"]
    assert [e["started"] for e in moved if e["uid"] == "old-1"] == ["2024-05-01T20:00:00.000Z"]
    # the localStorage copy is gone once IndexedDB holds the games; the damaged one kept aside
    assert local_history(page) is None
    copies = page.evaluate("Object.keys(localStorage).filter(k => k.startsWith("
                           f"'{HISTORY_KEY}.corrupt.')).map(k => localStorage.getItem(k))")
    assert copies == [history]
    assert "Ein Spiel im Verlauf war beschädigt" in " ".join(
        page.locator(".notice.warn").all_text_contents())
    # and they stay after a reload
    page.reload()
    page.wait_for_selector(READY, state="attached")
    page.click("#nav-history")
    assert page.locator("#history-list li").count() == 3


def test_a_damaged_record_in_indexeddb_is_kept_aside_alone(page: Page) -> None:
    restart(page, {HISTORY_KEY: json.dumps({"version": 1, "entries": entries(2)})})
    page.evaluate("""() => new Promise((done) => {
        const req = indexedDB.open("kniffel");
        req.onsuccess = () => {
          const tx = req.result.transaction("history", "readwrite");
          tx.objectStore("history").put({ uid: "bad", game: 3 });
          tx.oncomplete = () => { req.result.close(); done(); };
        };
    })""")
    page.reload()
    page.wait_for_selector(READY, state="attached")
    assert uids(page) == ["h0", "h1"]
    copies = page.evaluate("Object.keys(localStorage).filter(k => k.startsWith("
                           f"'{HISTORY_KEY}.corrupt.'))"
                           ".map(k => JSON.parse(localStorage.getItem(k)))")
    assert copies == [{"version": 1, "entries": [{"uid": "bad", "game": 3}]}]


def test_a_thousand_games_are_stored_and_loaded_again_and_a_save_writes_only_the_change(
        page: Page, thousand: list[dict[str, Any]]) -> None:
    restart(page, {})
    page.evaluate("""records => new Promise((done) => {
        const req = indexedDB.open("kniffel");
        req.onsuccess = () => {
          const tx = req.result.transaction("history", "readwrite");
          for (const r of records) tx.objectStore("history").put(r);
          tx.oncomplete = () => { req.result.close(); done(); };
        };
    })""", thousand)
    page.reload()
    page.wait_for_selector(READY, state="attached", timeout=60_000)
    assert page.evaluate("window.kniffelTiming.historyEntries") == 1000
    page.click("#nav-history")
    page.wait_for_selector("#stats")
    assert page.locator("#history-list li").count() == 1000
    puts = page.evaluate("window.kniffelPuts")
    # deleting one game deletes one record and writes none
    page.click("#history-list li[data-uid='h500'] button[data-delete]")
    page.evaluate("window.kniffelHistory.saved()")
    assert page.evaluate("window.kniffelPuts") == puts
    # a new game (imported) writes one record
    game = finished(["Carla"], [7], seed=5000)
    import_text(page, "carla.json", game.to_json())
    page.wait_for_selector(".notice:has-text('importiert')")
    page.evaluate("window.kniffelHistory.saved()")
    assert page.evaluate("window.kniffelPuts") == puts + 1
    stored = uids(page)
    assert len(stored) == 1000
    assert "h500" not in stored
    page.reload()
    page.wait_for_selector(READY, state="attached", timeout=60_000)
    assert page.evaluate("window.kniffelTiming.historyEntries") == 1000


def test_a_restore_shows_its_progress_and_a_second_one_adds_nothing(page: Page) -> None:
    games = [HistoryEntry(f"r{i}", when(i), when(i),
                          finished(["Anna", "Ben"], [5 + i % 26, 5], i + 1)) for i in range(60)]
    data = encode_history(games)
    # the phone holds ten of them already (one under another uid: another phone's)
    mine = entries(10)
    for e, g in zip(mine, games[:10], strict=True):
        e["uid"] = g.uid
        e["game"], e["summary"] = g.game.to_json(), summary(g.game)
    mine[0]["uid"] = "other-phone"
    restart(page, {HISTORY_KEY: json.dumps({"version": 1, "entries": mine})})
    page.click("#nav-history")
    import_text(page, "sicherung.json", data)
    page.wait_for_selector(".notice:has-text('50 neue Spiele importiert, 10 Spiele waren "
                           "schon im Verlauf')", timeout=60_000)
    progress = page.evaluate("window.kniffelProgress")
    assert progress[0] == "0 von 50 neuen Spielen geprüft …", progress
    assert "25 von 50 neuen Spielen geprüft …" in progress
    assert page.locator("#restore-progress").count() == 0  # gone once done
    assert len(uids(page)) == 60
    import_text(page, "sicherung.json", data)
    page.wait_for_selector(".notice:has-text('0 neue Spiele importiert, 60 Spiele waren')")
    assert len(uids(page)) == 60
    # a damaged game among the new ones: one sentence, nothing stored changes
    before = stored_history(page)
    bad = encode_history([*games, HistoryEntry("r-new", when(99), when(99),
                                                finished(["Dora"], [6], 999))])
    bad["games"][-1]["game"]["actions"][0] = {"type": "enter", "box": "nonsense"}
    import_text(page, "kaputt.json", bad)
    said = page.locator(".notice.warn:has-text('kaputt.json')")
    said.wait_for()
    text = said.text_content() or ""
    assert ("„kaputt.json“ wurde nicht importiert, es wurde nichts geändert: Spiel 61 der "
            "Datei") in text
    assert stored_history(page) == before


def test_a_full_storage_says_so_and_changes_nothing_stored_nor_shown(page: Page) -> None:
    restart(page, {HISTORY_KEY: json.dumps({"version": 1, "entries": entries(3)})})
    before = stored_history(page)
    page.evaluate("localStorage.setItem('test.full', '1')")
    page.click("#nav-history")
    game = finished(["Carla"], [7], seed=5000)
    import_text(page, "carla.json", game.to_json())
    page.wait_for_selector(".notice.warn:has-text('Der Speicher des Browsers ist voll')")
    said = page.locator(".notice.warn:has-text('voll')").first.text_content() or ""
    assert "der gespeicherte Verlauf ist unverändert" in said
    assert "Sichern" in said
    assert stored_history(page) == before  # the transaction was aborted
    # an import that could not be stored is not taken (its file still holds it): the list is
    # the stored one
    assert page.locator("#history-list li").count() == 3
    page.evaluate("localStorage.removeItem('test.full')")
    # once there is room again, the same import stores it, and a delete is stored too
    import_text(page, "carla.json", game.to_json())
    page.wait_for_selector("#history-list li:nth-child(4)")
    page.click("#history-list li[data-uid='h0'] button[data-delete]")
    page.evaluate("window.kniffelHistory.saved()")
    now = uids(page)
    assert len(now) == 3
    assert "h0" not in now
    assert "h1" in now
    assert any(u.startswith("g") for u in now)  # the imported game, stored at last


def test_without_indexeddb_the_history_stays_in_local_storage_and_the_page_says_so(
        page: Page) -> None:
    restart(page, {"test.noidb": "1",
                   HISTORY_KEY: json.dumps({"version": 1, "entries": entries(2)})})
    assert page.evaluate("window.kniffelHistory.kind()") == "local"
    page.click("#nav-history")
    status = page.text_content("#keep-status") or ""
    assert status == ("Dieser Browser behält die Spiele vielleicht nur, bis das Fenster "
                      "geschlossen wird (etwa im privaten Fenster), und nur wenige: sichere sie "
                      "mit „Sichern“.")
    game = finished(["Carla"], [7], seed=5000)
    import_text(page, "carla.json", game.to_json())
    page.wait_for_selector(".notice:has-text('importiert')")
    stored = json.loads(local_history(page) or "")
    assert len(stored["entries"]) == 3
    page.evaluate("localStorage.removeItem('test.noidb')")
