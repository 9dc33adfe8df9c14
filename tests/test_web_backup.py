"""Keeping the history in the browser (static/backup.js): persistent storage asked for after a
finished game, the history screen's one-line status, "Sichern" (the whole history as one file),
the reminder after each five finished games since the last backup, and the restore on another
phone (the import, which merges)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import BrowserContext, FilePayload, Page

from conftest import clear_storage, stored_history
from kniffel import Enter, Game, Mode, Strike, preset
from kniffel.browser.view import summary

if TYPE_CHECKING:
    from conftest import BrowserContexts

pytestmark = pytest.mark.browser

READY = "html[data-ready='1']"
HISTORY, SETTINGS = "kniffel.v1.history", "kniffel.v1.settings"

# The browser's answer to persistent storage, as the test sets it ("granted", "refused"), and
# how often the page asked (window.persistCalls); headless Chromium answers on its own otherwise.
STORAGE_STUB = """
(() => {
  const mode = localStorage.getItem("test.persist");
  if (!mode || !navigator.storage) return;
  window.persistCalls = 0;
  let kept = mode === "kept";
  navigator.storage.persisted = async () => kept;
  navigator.storage.persist = async () => {
    window.persistCalls++;
    kept = mode !== "refused";
    return kept;
  };
})();
"""


@pytest.fixture(scope="module")
def context(browser_contexts: BrowserContexts) -> Iterator[BrowserContext]:
    with browser_contexts.open(viewport={"width": 390, "height": 844}, has_touch=True,
                               accept_downloads=True) as ctx:
        ctx.add_init_script(STORAGE_STUB)
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
    """Store exactly ``data`` and start the app afresh (a history given under its localStorage
    key moves into IndexedDB as the page starts)."""
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


def history(n: int) -> str:
    entries = []
    for i in range(n):
        game = finished(["Anna", "Ben"], [10 + i, 20], seed=i + 1)
        when = f"2025-03-{10 + i:02d}T18:00:00.000Z"
        entries.append({"uid": f"h{i}", "started": when, "finished_at": when,
                        "game": game.to_json(), "summary": summary(game)})
    return json.dumps({"version": 1, "entries": entries})


SETUP = json.dumps({"version": 1, "lang": "de", "setup": {
    "rules": "kniffel", "free_strike": False, "mode": "pad", "players": [
        {"name": "Anna", "kind": "human", "strategy": None},
        {"name": "Ben", "kind": "human", "strategy": None}]}})


def test_where_the_browser_may_delete_the_history_says_so_and_reminds_after_five_games(
        page: Page) -> None:
    restart(page, {"test.persist": "refused", HISTORY: history(5), SETTINGS: SETUP})
    page.click("#nav-history")
    # nobody asked yet (no finished game here): the browser does not keep the games for good
    page.wait_for_selector("#keep-status")
    assert page.evaluate("window.persistCalls") == 0  # never asked before the player did a thing
    page.wait_for_function("document.querySelector('#keep-status').textContent.includes('darf')")
    status = page.text_content("#keep-status") or ""
    assert status.startswith("Der Browser darf die Spiele löschen, wenn der Speicher knapp wird.")
    assert "installieren" in status
    assert "5 beendete Spiele seit der letzten Sicherung" in (
        page.text_content("#backup-reminder") or "")
    # "Sichern": the whole history, settings and names as one file (no share sheet here)
    with page.expect_download() as download:
        page.click("#backup")
    assert download.value.suggested_filename.startswith("kniffel-sicherung-")
    data = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert data["format"] == "kniffel-history"
    assert len(data["games"]) == 5
    assert [p["name"] for p in data["settings"]["players"]] == ["Anna", "Ben"]
    page.wait_for_selector(".notice:has-text('Gesichert: 5 Spiele')")
    # the reminder is gone once backed up, and says when it comes again
    page.wait_for_selector("#backup-last")
    assert page.locator("#backup-reminder").count() == 0
    assert "Letzte Sicherung: 5 beendete Spiele." in (page.text_content("#backup-last") or "")


def test_where_the_browser_keeps_the_games_there_is_no_reminder(page: Page) -> None:
    restart(page, {"test.persist": "kept", HISTORY: history(6)})
    page.click("#nav-history")
    page.wait_for_function(
        "document.querySelector('#keep-status')?.textContent.includes('dauerhaft')")
    assert page.text_content("#keep-status") == "Der Browser behält die Spiele dauerhaft."
    assert page.locator("#backup-reminder").count() == 0


def test_a_finished_game_asks_the_browser_to_keep_the_data(page: Page) -> None:
    restart(page, {"test.persist": "granted", SETTINGS: SETUP})
    game = Game(preset("kniffel"), ["Anna"], mode=Mode.PAD, seed=3)
    for box in game.rules.boxes[:-1]:
        game.apply(Strike(box))
    page.click("#nav-history")
    page.set_input_files("#import-file", files=[FilePayload(
        name="fast.json", mimeType="application/json",
        buffer=json.dumps(game.to_json()).encode())])
    page.wait_for_selector("td[data-player='0'][data-box='chance'] button.open")
    assert page.evaluate("window.persistCalls") == 0
    page.click("td[data-player='0'][data-box='chance'] button.open")
    page.click("#picker-options button[data-strike='1']")
    page.wait_for_function("window.persistCalls === 1")
    page.click("#nav-history")
    page.wait_for_function(
        "document.querySelector('#keep-status')?.textContent.includes('dauerhaft')")


def backup_of(page: Page) -> dict[str, Any]:
    with page.expect_download() as download:
        page.click("#backup")
    data: dict[str, Any] = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    return data


def import_text(page: Page, name: str, text: bytes) -> None:
    page.set_input_files("#import-file", files=[FilePayload(
        name=name, mimeType="application/json", buffer=text)])


def test_a_backup_restores_on_another_phone_merges_and_a_damaged_one_changes_nothing(
        context: BrowserContext, page: Page, browser_contexts: BrowserContexts,
        site: str) -> None:
    restart(page, {"test.persist": "refused", HISTORY: history(3), SETTINGS: SETUP})
    page.click("#nav-history")
    page.wait_for_selector("#backup:not([disabled])")
    data = backup_of(page)
    text = json.dumps(data).encode()
    with browser_contexts.open(viewport={"width": 390, "height": 844}) as other:
        phone = other.new_page()
        phone.goto(site)
        phone.wait_for_selector(READY, state="attached", timeout=120_000)
        phone.click("#nav-history")
        # a cut-off backup, one from a newer version, one of another app: one sentence each,
        # and nothing stored changes
        before = stored_history(phone)
        newer = json.dumps({**data, "version": 99}).encode()
        foreign = json.dumps({"format": "other-app", "items": []}).encode()
        for name, bad, words in (("cut.json", text[: len(text) // 2], "unvollständig"),
                                 ("newer.json", newer, "neuer"),
                                 ("foreign.json", foreign, "weder ein Kniffel-Spielstand")):
            import_text(phone, name, bad)
            shown = phone.locator(f".notice.warn:has-text('{name}')")
            shown.wait_for()
            said = shown.text_content() or ""
            assert words in said, said
            assert stored_history(phone) == before
        import_text(phone, "backup.json", text)
        phone.wait_for_selector(".notice:has-text('3 neue Spiele importiert')")
        stored = json.loads(stored_history(phone) or "null")
        assert sorted(e["uid"] for e in stored["entries"]) == ["h0", "h1", "h2"]
        # the second restore adds nothing
        import_text(phone, "backup.json", text)
        phone.wait_for_selector(".notice:has-text('0 neue Spiele importiert')")
        again = json.loads(stored_history(phone) or "null")
        assert len(again["entries"]) == 3
        # the names come along where this phone had no settings of its own
        settings = json.loads(phone.evaluate("localStorage.getItem('kniffel.v1.settings')"))
        assert [p["name"] for p in settings["setup"]["players"]] == ["Anna", "Ben"]
        phone.close()
