"""Stored data and the history page in a real browser (Debian's Chromium, Playwright).

Nothing stored can lock the app: every stored key is mangled in many ways and the app must
become interactive each time, keep a copy of what it could not use, say so, and keep the
history whenever the history itself is fine. The history keeps each game's own dates, skips
games it already has, opens and deletes entries, and fits a phone.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import BrowserContext, FilePayload, Page

from conftest import clear_storage, stored_history
from kniffel import Enter, Game, Mode, Strike, preset
from kniffel.browser.bridge import Session
from kniffel.browser.view import summary

if TYPE_CHECKING:
    from conftest import BrowserContexts

pytestmark = pytest.mark.browser

READY = "html[data-ready='1']"
CURRENT, HISTORY, SETTINGS = "kniffel.v1.current", "kniffel.v1.history", "kniffel.v1.settings"


@pytest.fixture(scope="module")
def context(browser_contexts: BrowserContexts) -> Iterator[BrowserContext]:
    # the session's engine (conftest.py): no fresh Pyodide start; no request to other origins
    with browser_contexts.open(viewport={"width": 390, "height": 844}, has_touch=True) as ctx:
        yield ctx


@pytest.fixture(scope="module")
def shared_page(context: BrowserContext, site: str) -> Iterator[tuple[Page, list[str]]]:
    """One page for the whole module (the engine snapshot makes each reload quick)."""
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(site)
    page.wait_for_selector(READY, state="attached", timeout=120_000)
    yield page, errors
    page.close()


@pytest.fixture
def page(shared_page: tuple[Page, list[str]]) -> Iterator[Page]:
    p, errors = shared_page
    errors.clear()
    p.set_viewport_size({"width": 390, "height": 844})
    restart(p, {})
    yield p
    assert errors == []


# --- stored data as the page writes it -------------------------------------------------------


def finished(names: list[str], points: list[int], rules: str = "kniffel", seed: int = 1) -> Game:
    """A finished score-pad game: each player's last box holds ``points``, the rest struck."""
    game = Game(preset(rules), names, mode=Mode.PAD, seed=seed)
    last = game.rules.boxes[-1]  # chance
    for box in game.rules.boxes:
        for p in points:
            game.apply(Enter(box, p) if box is last and p else Strike(box))
    return game


def entry(uid: str, game: Game, started: str | None, finished_at: str | None) -> dict[str, Any]:
    return {"uid": uid, "started": started, "finished_at": finished_at,
            "game": game.to_json(), "summary": summary(game)}


def real_data() -> dict[str, str]:
    """Settings, a dice game in progress (thrown once) and a history of three games."""
    s = Session()
    s.handle({"op": "new", "mode": "dice", "seed": 11, "players": [
        {"name": "Anna"}, {"name": "Ben"}, {"name": "Carla"}]})
    reply = s.handle({"op": "roll"})
    current = {"version": 1, "id": "cur-1", "started": "2026-11-29T18:00:00.000Z",
               "game": reply["game"], "view": reply["view"], "summary": reply["summary"]}
    unfinished = Game(preset("extreme"), ["Dora"], mode=Mode.PAD, seed=2)
    unfinished.apply(Enter(unfinished.rules.boxes[0], 3))
    history = {"version": 1, "entries": [
        entry("h-1", finished(["Anna", "Ben"], [20, 25]), "2026-10-01T18:00:00.000Z",
              "2026-10-01T18:45:00.000Z"),
        entry("h-2", finished(["Anna", "Ben"], [30, 6], seed=2), "2026-10-08T18:00:00.000Z",
              "2026-10-08T18:50:00.000Z"),
        entry("h-3", unfinished, "2026-10-09T18:00:00.000Z", None)]}
    settings = {"version": 1, "lang": "de", "setup": {
        "rules": "extreme", "free_strike": False, "mode": "dice", "players": [
            {"name": "Anna", "kind": "human", "strategy": None},
            {"name": "Bot", "kind": "computer", "strategy": "greedy"}]}}
    return {CURRENT: json.dumps(current), HISTORY: json.dumps(history),
            SETTINGS: json.dumps(settings)}


def restart(page: Page, data: dict[str, str | None]) -> None:
    """Store exactly ``data`` (None: the key is missing) and start the app afresh (a history
    given under its localStorage key moves into IndexedDB as the page starts)."""
    clear_storage(page)
    page.evaluate("""data => {
        for (const [k, v] of Object.entries(data)) if (v !== null) localStorage.setItem(k, v); }""",
                  data)
    page.reload()
    page.wait_for_selector(READY, state="attached", timeout=60_000)


def stored(page: Page) -> dict[str, str]:
    """What the page stored: localStorage, the history as IndexedDB holds it."""
    data: dict[str, str] = page.evaluate(
        "Object.fromEntries(Object.keys(localStorage).map(k => [k, localStorage.getItem(k)]))")
    history = stored_history(page)
    data.pop(HISTORY, None)
    return data if history is None else {**data, HISTORY: history}


def copies(page: Page, key: str) -> list[str]:
    return [v for k, v in stored(page).items() if k.startswith(f"{key}.corrupt.")]


def warnings(page: Page) -> list[str]:
    return page.locator(".notice.warn").all_text_contents()


def assert_interactive(page: Page, history: bool = True) -> None:
    """The app answers: a live game or the start screen, and the history page draws."""
    page.wait_for_selector("#start:enabled, section.game[data-live='1'], section.game "
                           "[id='rematch']", state="attached", timeout=30_000)
    if not history:
        return
    page.click("#nav-history")
    page.wait_for_selector("#history-title")
    page.click("#nav-game")
    page.wait_for_selector("#setup, section.game", state="attached")


# --- mangling every stored key ---------------------------------------------------------------


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every nested field; of a list the first and the last item (deeper down only the first),
    of a dict of many like fields (a sheet's cells) only two."""
    if isinstance(value, dict):
        keys = list(value)
        if len(keys) > 12 and all(isinstance(v, dict) for v in value.values()):
            keys = keys[:2]
        for k in keys:
            yield (*prefix, k)
            yield from paths(value[k], (*prefix, k))
    elif isinstance(value, list) and value:
        for i in sorted({0, len(value) - 1} if len(prefix) < 2 else {0}):
            yield (*prefix, i)
            yield from paths(value[i], (*prefix, i))


def wrong_type(v: Any) -> Any:
    if isinstance(v, str):
        return 5
    if isinstance(v, bool | int | float):
        return "x"
    if isinstance(v, list):
        return {"0": v[0]} if v else "x"
    return [v] if isinstance(v, dict) else "x"


MANGLE = ("delete", "null", "wrong type")
WHOLE = {"deleted": None, "null": "null", "number": "5", "text": '"x"', "list": "[]",
         "empty object": "{}", "truncated": None, "not JSON": "{oops"}
ISSUE_9 = ("view.columns[2] = None", "view.columns[2] = 'x'", "players [null, 5]",
           "entry summary {}")


def mangled(raw: str, path: tuple[Any, ...], how: str) -> str:
    data = json.loads(raw)
    parent = data
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    if how == "delete":
        if isinstance(parent, list):
            parent.pop(last)
        else:
            del parent[last]
    else:
        parent[last] = None if how == "null" else wrong_type(parent[last])
    return json.dumps(data)


def cases() -> list[tuple[str, str, str | None]]:
    """(key, what, new raw text or None for deleted) for every stored key."""
    data = real_data()
    out: list[tuple[str, str, str | None]] = []
    for key, raw in data.items():
        for what, text in WHOLE.items():
            out.append((key, what, raw[: len(raw) // 2] if what == "truncated" else text))
        for n, path in enumerate(paths(json.loads(raw))):
            # a record's own fields get every kind of damage, the nested ones one kind in turn
            kinds = MANGLE if len(path) == 1 else (MANGLE[n % 3],)
            for how in kinds:
                out.append((key, f"{'.'.join(map(str, path))} {how}", mangled(raw, path, how)))
    # the lock-ups seen in issue 9
    cur = json.loads(data[CURRENT])
    for v in (None, "x"):
        c = copy.deepcopy(cur)
        c["view"]["columns"][2] = v
        out.append((CURRENT, f"view.columns[2] = {v!r}", json.dumps(c)))
    s = json.loads(data[SETTINGS])
    s["setup"]["players"] = [None, 5]
    out.append((SETTINGS, "players [null, 5]", json.dumps(s)))
    h = json.loads(data[HISTORY])
    h["entries"][0]["summary"] = {}
    out.append((HISTORY, "entry summary {}", json.dumps(h)))
    return out


CASES = cases()


def test_the_mangling_covers_every_key_and_hundreds_of_fields() -> None:
    assert {k for k, _, _ in CASES} == {CURRENT, HISTORY, SETTINGS}
    assert len(CASES) > 200


def check_kept_and_told(page: Page, key: str, raw: str | None) -> bool:
    """Whatever the page could not use is kept exactly as it was stored, and the user is told;
    returns whether they were told."""
    kept = copies(page, key)
    if warnings(page):
        assert kept == [raw], (kept, raw)
        return True
    assert kept == [], kept
    return False


def run_cases(page: Page, errors: list[str], cases: list[tuple[str, str, str | None]],
              check: Any) -> tuple[list[str], int]:
    data = real_data()
    failures: list[str] = []
    told = 0
    for key, what, raw in cases:
        errors.clear()
        try:
            told += check(page, data, key, raw)
            assert errors == [], errors
        except Exception as e:  # collect every case that fails
            failures.append(f"{key} {what}: {type(e).__name__}: {str(e)[:300]}")
    return failures, told


def test_no_mangled_stored_data_breaks_the_first_screen(context: BrowserContext, site: str
                                                        ) -> None:
    """Every case, drawn from storage alone while the engine is still starting (a stand-in
    worker that never answers): the first screen is drawn, nothing thrown."""
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.route(re.compile(r".*/worker\.js.*"), lambda route: route.fulfill(
        status=200, content_type="text/javascript", body="onmessage = () => {};"))
    page.goto(site)

    def check(page: Page, data: dict[str, str], key: str, raw: str | None) -> bool:
        clear_storage(page)
        page.evaluate("""data => {
            for (const [k, v] of Object.entries(data)) if (v !== null) localStorage.setItem(k, v);
            }""", {**data, key: raw})
        page.reload(wait_until="commit")
        # the first screen, and the history (IndexedDB: loaded beside it, the engine not needed)
        page.wait_for_function("window.kniffelTiming && window.kniffelTiming.firstDrawMs > 0 && "
                               "window.kniffelTiming.historyMs > 0 && "
                               "document.querySelector('#setup, section.game') !== null",
                               polling=20, timeout=10_000)
        seen: dict[str, Any] = page.evaluate(f"""() => ({{
            copies: Object.keys(localStorage).filter(k => k.startsWith("{key}.corrupt."))
                .map(k => localStorage.getItem(k)),
            told: document.querySelectorAll(".notice.warn").length }})""")
        seen["history"] = stored_history(page)
        if key != HISTORY:
            assert len(json.loads(seen["history"])["entries"]) == 3
        else:  # the history page shows what was kept
            page.click("#nav-history")
            page.wait_for_selector("#history-title")
            kept = json.loads(seen["history"] or '{"entries": []}')["entries"]
            # the list and the group of older unfinished games below it
            assert page.locator("#history-list li, #unfinished-list li").count() == len(kept)
        assert seen["copies"] == ([raw] if seen["told"] else []), seen
        return bool(seen["told"])

    try:
        failures, told = run_cases(page, errors, CASES, check)
    finally:
        page.close()
    assert failures == [], "\n".join(failures)
    assert told > len(CASES) // 3  # most damage is noticed, not silently used


def test_no_mangled_stored_data_locks_the_app(shared_page: tuple[Page, list[str]]) -> None:
    """With the engine: the cases that get past the page's checks to the engine (a stored
    game whose view or summary is damaged, a game the engine refuses) and one whole damaged
    record per key; the app becomes interactive every time."""
    page, errors = shared_page
    data = real_data()
    restart(page, dict(data))
    assert_interactive(page)
    assert warnings(page) == []  # the real data is fine
    top = [c for c in CASES if c[1] == "truncated"
           or (c[0] == CURRENT and re.fullmatch(r"(started|view|summary) .+", c[1]))
           or re.fullmatch(r"game\.\w+ \w.*", c[1])  # what only the engine refuses
           or c[1] in ISSUE_9]

    def check(page: Page, data: dict[str, str], key: str, raw: str | None) -> bool:
        restart(page, {**data, key: raw})
        assert_interactive(page, history=key == HISTORY)
        if key != HISTORY:
            assert len(json.loads(stored(page)[HISTORY])["entries"]) == 3
        return check_kept_and_told(page, key, raw)

    failures, told = run_cases(page, errors, top, check)
    assert failures == [], "\n".join(failures)
    assert told > len(top) // 3


@pytest.mark.parametrize(("key", "change", "message"), [
    (CURRENT, lambda d: d["view"]["columns"].__setitem__(2, None), "Anzeige"),
    (CURRENT, lambda d: d["view"].pop("rules"), "Anzeige"),
    (SETTINGS, lambda d: d["setup"].__setitem__("players", [None, 5]), "Einstellungen"),
    (HISTORY, lambda d: d["entries"][0].__setitem__("summary", {}), "Ein Spiel im Verlauf"),
])
def test_the_lock_ups_of_issue_9_keep_a_copy_tell_the_user_and_keep_the_rest(
    page: Page, key: str, change: Any, message: str
) -> None:
    data = real_data()
    value = json.loads(data[key])
    change(value)
    raw = json.dumps(value)
    restart(page, {**data, key: raw})
    assert_interactive(page)
    assert copies(page, key) == [raw]
    assert any(message in w and "Kopie" in w for w in warnings(page)), warnings(page)
    history = json.loads(stored(page)[HISTORY])["entries"]
    assert [e["uid"] for e in history] == (["h-2", "h-3"] if key == HISTORY
                                           else ["h-1", "h-2", "h-3"])
    if key == CURRENT:  # the game itself was fine: it is restored from its moves
        page.wait_for_selector("section.game[data-live='1'][data-actions='2']", state="attached")
        assert json.loads(stored(page)[CURRENT])["view"]["columns"][2]["name"] == "Carla"


def test_a_notice_speaks_english_when_the_user_chose_english(page: Page) -> None:
    data = real_data()
    settings = json.loads(data[SETTINGS])
    settings["lang"] = "en"
    restart(page, {**data, SETTINGS: json.dumps(settings), HISTORY: "[1, 2"})
    assert_interactive(page)
    assert any("history was damaged" in w and "copy" in w for w in warnings(page))
    assert copies(page, HISTORY) == ["[1, 2"]


def test_history_entries_of_the_older_page_are_kept_with_their_date(page: Page) -> None:
    game = finished(["Anna"], [17])
    old = {"version": 1, "entries": [
        {"id": "old-1", "finished": "2025-02-03T10:00:00.000Z", "game": game.to_json(),
         "summary": summary(game)},
        {"id": "old-2", "finished": "2025-02-04T10:00:00.000Z", "game": game.to_json(),
         "summary": summary(game)}]}  # imported twice by the older page: once is enough
    restart(page, {HISTORY: json.dumps(old)})
    assert warnings(page) == []
    entries = json.loads(stored(page)[HISTORY])["entries"]
    assert [(e["uid"], e["finished_at"]) for e in entries] == [
        ("old-1", "2025-02-03T10:00:00.000Z")]


# --- the history page -------------------------------------------------------------------------


def import_file(page: Page, content: dict[str, Any]) -> None:
    payload: FilePayload = {"name": "verlauf.json", "mimeType": "application/json",
                            "buffer": json.dumps(content).encode()}
    page.set_input_files("#import-file", files=[payload])


def history_export(*entries: dict[str, Any]) -> dict[str, Any]:
    return {"format": "kniffel-history", "version": 2, "games": [
        {k: e[k] for k in ("uid", "started", "finished_at", "game")} for e in entries]}


def notice_text(page: Page, pattern: str) -> str:
    page.wait_for_selector(f".notice:has-text('{pattern}')")
    return " ".join(page.locator(".notice").all_text_contents())


def test_an_import_skips_games_already_stored_says_how_many_were_new_and_keeps_dates(
    page: Page,
) -> None:
    a = entry("u-a", finished(["Anna", "Ben"], [20, 25]), "2025-03-12T18:00:00.000Z",
              "2025-03-12T18:40:00.000Z")
    b = entry("u-b", finished(["Anna", "Ben"], [30, 6], seed=2), "2025-04-01T19:00:00.000Z",
              "2025-04-01T19:30:00.000Z")
    c = entry("u-c", finished(["Carla"], [12], seed=3), "2025-05-20T08:00:00.000Z",
              "2025-05-20T08:20:00.000Z")
    restart(page, {HISTORY: json.dumps({"version": 1, "entries": [a]})})
    page.click("#nav-history")
    import_file(page, history_export(a, b, c))
    assert "2 neue Spiele importiert, 1 Spiel war schon im Verlauf." in notice_text(
        page, "importiert")
    entries = json.loads(stored(page)[HISTORY])["entries"]
    assert [(e["uid"], e["started"], e["finished_at"]) for e in entries] == [
        (x["uid"], x["started"], x["finished_at"]) for x in (a, b, c)]
    page.wait_for_selector("#stats")
    assert "Spiele: 3" in (page.text_content("#stats-summary") or "")
    # the list shows each game's own date, newest first
    whens = page.locator("#history-list .when").all_text_contents()
    assert [re.sub(r"\D", "", w)[:8] for w in whens] == ["20052025", "01042025", "12032025"]
    # the same file again: nothing new, nothing counted twice
    import_file(page, history_export(a, b, c))
    assert "0 neue Spiele importiert, 3 Spiele waren schon im Verlauf." in notice_text(
        page, "0 neue")
    assert len(json.loads(stored(page)[HISTORY])["entries"]) == 3
    page.wait_for_selector("#stats")
    assert "Spiele: 3" in (page.text_content("#stats-summary") or "")
    # a single finished game that is already there
    import_file(page, a["game"])
    notice_text(page, "schon im Verlauf.")
    assert len(json.loads(stored(page)[HISTORY])["entries"]) == 3


def test_a_game_another_phone_stored_under_its_own_uid_is_one_game_by_the_engines_identity(
    page: Page,
) -> None:
    """A table's game stored on every phone: the same game under another uid and other times,
    from the engine's own summary (its identity) of a game the page stored, is skipped."""
    game = finished(["Anna", "Ben"], [20, 25])
    mine = entry("mine", game, "2025-03-12T18:00:00.000Z", "2025-03-12T18:40:00.000Z")
    theirs = entry("theirs", game, "2025-03-12T18:00:02.000Z", "2025-03-12T18:40:05.000Z")
    other = entry("other", finished(["Anna", "Ben"], [20, 24]), "2025-03-13T18:00:00.000Z",
                  "2025-03-13T18:40:00.000Z")
    restart(page, {HISTORY: json.dumps({"version": 1, "entries": [mine]})})
    page.click("#nav-history")
    import_file(page, history_export(theirs, other))
    assert "1 neues Spiel importiert, 1 Spiel war schon im Verlauf." in notice_text(
        page, "importiert")
    assert [e["uid"] for e in json.loads(stored(page)[HISTORY])["entries"]] == ["mine", "other"]


def test_the_history_exports_a_table_for_spreadsheets(page: Page) -> None:
    a = entry("u-a", finished(["Anna", "Zoë"], [20, 25]), "2025-03-12T18:00:00.000Z",
              "2025-03-12T18:40:00.000Z")
    restart(page, {HISTORY: json.dumps({"version": 1, "entries": [a]})})
    page.click("#nav-history")
    with page.expect_download() as download:
        page.click("#export-csv")
    assert download.value.suggested_filename == "kniffel-verlauf.csv"
    text = Path(download.value.path()).read_bytes().decode("utf-8")
    rows = [line.split(",") for line in text.removeprefix("\ufeff").split("\r\n") if line]
    assert rows[0][:5] == ["Spiel", "Datum", "Regeln", "Spieler", "Gesamt"]
    assert [(r[3], r[4], r[5]) for r in rows[1:]] == [("Anna", "20", "2"), ("Zoë", "25", "1")]


def test_the_statistics_show_head_to_head_and_the_last_evenings_standings(page: Page) -> None:
    games = [finished(["Anna", "Ben"], [20, 25]), finished(["Anna", "Ben"], [30, 6], seed=2),
             finished(["Anna", "Ben"], [9, 9], seed=3)]
    entries = [entry(f"e{i}", g, f"2025-03-12T1{i}:00:00.000Z", f"2025-03-12T1{i}:30:00.000Z")
               for i, g in enumerate(games)]
    restart(page, {HISTORY: json.dumps({"version": 1, "entries": entries})})
    page.click("#nav-history")
    page.wait_for_selector("#h2h")
    rows = page.locator("#h2h tbody tr").all_inner_texts()
    # Anna 1 win, Ben 1, one tie; Anna ahead by (−5 + 24 + 0) / 3 = 6,3 on average
    assert [" ".join(r.split()) for r in rows] == ["Anna – Ben 3 1 : 1 1 Anna +6,3"]
    assert "Direkter Vergleich" in (page.text_content("#h2h caption") or "")
    title = page.text_content("#evening-title") or ""
    assert title.startswith("Abend vom 12.03.2025") or "12.3.2025" in title, title
    assert "3 Spiele" in title
    standings = [" ".join(r.split()) for r in page.locator("#evening-table tbody tr")
                 .all_inner_texts()]
    assert standings[0].startswith("1 Anna 2 59")  # two first places (one shared), 59 points


def test_an_entry_opens_read_only_and_can_be_deleted_with_undo(page: Page) -> None:
    data = real_data()
    restart(page, {HISTORY: data[HISTORY]})
    page.click("#nav-history")
    page.click("[data-open='h-2']")
    page.wait_for_selector("#opened-sheet table")
    assert page.text_content("#opened-sheet [data-total='Anna']") == "30"
    assert page.text_content("#opened-sheet [data-total='Ben']") == "6"
    assert page.locator("#opened-sheet td button").count() == 0  # read-only
    assert "Anna" in (page.text_content(".history .status") or "")
    page.click("#history-back")
    page.click("[data-delete='h-2']")
    page.wait_for_selector("#undo-delete")
    assert [e["uid"] for e in json.loads(stored(page)[HISTORY])["entries"]] == ["h-1", "h-3"]
    assert page.locator("#history-list [data-uid='h-2']").count() == 0
    page.click("#undo-delete")
    page.wait_for_selector("#history-list [data-uid='h-2']")
    assert [e["uid"] for e in json.loads(stored(page)[HISTORY])["entries"]] == [
        "h-1", "h-2", "h-3"]
    page.click("[data-delete='h-1']")
    page.wait_for_selector("#undo-delete")
    page.reload()
    page.wait_for_selector(READY, state="attached")
    assert [e["uid"] for e in json.loads(stored(page)[HISTORY])["entries"]] == ["h-2", "h-3"]


def many_games() -> str:
    entries = []
    for i in range(9):
        game = finished(["Anna", "Ben", "Carla Sophie"], [5 + 3 * i, 30 - 2 * i, 12 + i % 4],
                        seed=i)
        entries.append(entry(f"m-{i}", game, f"2026-{i + 1:02d}-0{i % 9 + 1}T18:00:00.000Z",
                             f"2026-{i + 1:02d}-0{i % 9 + 1}T19:00:00.000Z"))
    return json.dumps({"version": 1, "entries": entries})


@pytest.mark.parametrize("size", [(390, 844), (360, 740)])
def test_the_history_page_fits_a_phone_with_readable_plot(page: Page, size: tuple[int, int]
                                                          ) -> None:
    page.set_viewport_size({"width": size[0], "height": size[1]})
    restart(page, {HISTORY: many_games()})
    page.click("#nav-history")
    page.wait_for_selector("#plot")
    overflow = page.evaluate("document.documentElement.scrollWidth - "
                             "document.documentElement.clientWidth")
    assert overflow <= 0
    # the statistics table fits without sideways scrolling of its own
    assert page.evaluate("(w => w.scrollWidth - w.clientWidth)(document.querySelector("
                         "'.stats-wrap'))") <= 0
    sizes = page.eval_on_selector_all(
        "#plot text", "els => els.map(e => e.getBoundingClientRect().height)")
    assert min(sizes) >= 12  # the text of the plot is drawn at its real size
    labels = page.locator("#plot text.axis-title").all_text_contents()
    assert labels == ["Spiele nach Datum", "Punkte"]
    ticks = page.locator("#plot text.tick").all_text_contents()
    assert "1.1." in ticks  # dates on the x axis, the first and the last game's
    assert "9.9." in ticks
    box = page.locator("#plot").bounding_box()
    assert box is not None
    assert 0 <= box["x"] <= box["x"] + box["width"] <= size[0]


def test_one_game_makes_a_sensible_plot(page: Page) -> None:
    game = finished(["Anna"], [21])
    restart(page, {HISTORY: json.dumps({"version": 1, "entries": [
        entry("one", game, None, "2026-06-01T10:00:00.000Z")]})})
    page.click("#nav-history")
    page.wait_for_selector("#plot")
    assert page.locator("#plot circle").count() == 1
    assert page.locator("#plot polyline").count() == 0
    cx = float(page.get_attribute("#plot circle", "cx") or "0")
    width = float((page.get_attribute("#plot", "viewBox") or "0 0 0 0").split()[2])
    assert width / 3 < cx < 2 * width / 3  # in the middle, not on the axis


# --- unfinished games, opening an entry, the plot, import refusals (issue 20) ----------------


def days_ago(days: float, at: datetime | None = None) -> str:
    when = (at or datetime.now(UTC)) - timedelta(days=days)
    return when.strftime("%Y-%m-%dT%H:%M:%S.000Z")


def unfinished(name: str, seed: int) -> Game:
    game = Game(preset("kniffel"), [name], mode=Mode.PAD, seed=seed)
    game.apply(Enter(game.rules.boxes[0], 3))
    return game


def cluttered_history() -> str:
    """Two finished games and six unfinished ones: four of the last days, two of long ago."""
    entries = [entry("f-1", finished(["Anna", "Ben"], [20, 25]), days_ago(30), days_ago(30)),
               entry("f-2", finished(["Anna", "Ben"], [30, 6], seed=2), days_ago(0.5),
                     days_ago(0.4))]
    entries += [entry(f"u-{d}", unfinished(f"Neu{d}", d), days_ago(d), None) for d in (1, 2, 3, 4)]
    entries += [entry(f"o-{d}", unfinished(f"Alt{d}", 10 + d), days_ago(40 + d), None)
                for d in (1, 2)]
    return json.dumps({"version": 1, "entries": entries})


def uids(page: Page, selector: str) -> list[str]:
    found: list[str] = page.eval_on_selector_all(f"{selector} > li", "els => els.map(e => "
                                                 "e.dataset.uid)")
    return found


def stored_uids(page: Page) -> list[str]:
    return sorted(e["uid"] for e in json.loads(stored(page)[HISTORY])["entries"])


def test_older_unfinished_games_wait_in_a_closed_group_to_be_resumed_or_deleted(
        page: Page) -> None:
    restart(page, {HISTORY: cluttered_history()})
    page.click("#nav-history")
    page.wait_for_selector("#history-list")
    # the three newest unfinished games of the last days stay in the list, newest first
    assert uids(page, "#history-list") == ["f-2", "u-1", "u-2", "u-3", "f-1"]
    assert page.text_content("#unfinished-summary") == "3 ältere nicht beendete Spiele"
    assert page.get_attribute("#unfinished-group", "open") is None
    assert not page.is_visible("#unfinished-list")
    page.click("#unfinished-summary")
    assert uids(page, "#unfinished-list") == ["u-4", "o-1", "o-2"]
    # "Fortsetzen" is a button like "Ansehen" and "Löschen", not an underlined link
    look = page.eval_on_selector_all(
        "[data-uid='o-1'] .entry-tools button",
        "els => els.map(e => { const s = getComputedStyle(e); return [e.textContent, "
        "s.textDecorationLine, s.borderTopStyle, s.borderTopWidth, s.minHeight, "
        "s.backgroundColor, s.fontSize]; })")
    assert [x[0] for x in look] == ["Fortsetzen", "Ansehen", "Löschen"]
    assert all(x[1:] == look[1][1:] for x in look), look
    assert look[0][1] == "none"
    # all of them deleted at once, with undo; nothing else goes
    page.click("#delete-unfinished")
    page.wait_for_selector("#undo-delete")
    assert "3 nicht beendete Spiele gelöscht." in (page.text_content("#deleted") or "")
    assert stored_uids(page) == ["f-1", "f-2", "u-1", "u-2", "u-3"]
    assert page.locator("#unfinished-group").count() == 0
    page.click("#undo-delete")
    page.wait_for_selector("#unfinished-group")
    assert stored_uids(page) == ["f-1", "f-2", "o-1", "o-2", "u-1", "u-2", "u-3", "u-4"]
    # one of them resumed: it is the game in play and leaves the history
    page.click("[data-resume='o-1']")
    page.wait_for_selector("section.game[data-live='1'][data-actions='1']", state="attached")
    assert json.loads(stored(page)[CURRENT])["id"] == "o-1"
    assert "o-1" not in stored_uids(page)
    page.click("#nav-history")
    page.wait_for_selector("#history-list")
    assert uids(page, "#unfinished-list") == ["u-4", "o-2"]


def test_an_opened_entry_shows_its_sheet_from_the_top_and_back_returns_to_the_list(
        page: Page) -> None:
    restart(page, {HISTORY: many_games()})
    page.click("#nav-history")
    page.wait_for_selector("#plot")  # the statistics are in: the list no longer moves
    button = page.locator("[data-open='m-0']")  # the oldest game: last in the list
    button.scroll_into_view_if_needed()
    below = page.evaluate("window.scrollY")
    assert below > 300
    where = button.bounding_box()
    assert where is not None
    button.click()
    page.wait_for_selector("#opened-sheet table")
    assert page.evaluate("window.scrollY") == 0
    assert page.evaluate("document.activeElement.id") == "history-title"
    top = page.eval_on_selector("#history-title", "e => e.getBoundingClientRect().top")
    bar = page.eval_on_selector(".bar", "e => e.getBoundingClientRect().bottom")
    assert top >= bar  # the heading is not under the sticky bar
    Path("/tmp/shots").mkdir(exist_ok=True)
    page.screenshot(path="/tmp/shots/history-opened-390.png")
    page.click("#history-back")
    page.wait_for_selector("#history-list")
    # the entry's button is where it was on the screen (the statistics above the list may have
    # come in while the sheet was open, moving the list down)
    back = page.locator("[data-open='m-0']").bounding_box()
    assert back is not None
    assert abs(back["y"] - where["y"]) < 2
    assert page.evaluate("document.activeElement.dataset.open") == "m-0"


def test_back_from_an_opened_entry_finds_its_place_when_the_statistics_came_in_meanwhile(
        page: Page) -> None:
    restart(page, {HISTORY: many_games()})
    page.click("#nav-history")
    page.wait_for_selector("#plot")
    button = page.locator("[data-open='m-0']")
    # the statistics (table and plot, above the list) are dropped as if they had not yet arrived
    page.evaluate("document.querySelectorAll('.stats-wrap, #plot').forEach(e => e.remove())")
    button.scroll_into_view_if_needed()
    where = button.bounding_box()
    assert where is not None
    button.click()
    page.wait_for_selector("#opened-sheet table")
    page.click("#history-back")
    page.wait_for_selector("#plot")
    back = page.locator("[data-open='m-0']").bounding_box()
    assert back is not None
    assert abs(back["y"] - where["y"]) < 2
    assert page.evaluate("document.activeElement.dataset.open") == "m-0"


def one_days_games(day: str = "2026-06-01") -> str:
    """Five games of Anna and Ben on one day; in the third both have the same total."""
    entries = []
    for i, (clock, a, b) in enumerate([("10:05", 12, 30), ("11:10", 25, 18), ("12:20", 22, 22),
                                       ("13:30", 30, 5), ("14:45", 8, 30)]):
        at = f"{day}T{clock}:00.000Z"
        entries.append(entry(f"d-{i}", finished(["Anna", "Ben"], [a, b], seed=i), at, at))
    return json.dumps({"version": 1, "entries": entries})


MARKS_INSIDE = """svg => {
  const [, , w, h] = svg.getAttribute('viewBox').split(' ').map(Number);
  return [...svg.querySelectorAll('.dot')].map(d => {
    const b = d.getBBox();
    const s = 1;  // half the outline
    return [b.x - s >= 0 && b.y - s >= 0 && b.x + b.width + s <= w && b.y + b.height + s <= h,
            b.x + b.width / 2, b.y + b.height / 2, d.tagName, getComputedStyle(d).fill];
  });
}"""


def test_a_plot_of_one_days_games_labels_distinct_times_and_every_mark_is_whole(
        page: Page) -> None:
    restart(page, {HISTORY: one_days_games()})
    page.click("#nav-history")
    page.wait_for_selector("#plot")
    ticks = page.locator("#plot text.tick").all_text_contents()
    times = [t for t in ticks if ":" in t]
    assert len(times) >= 2
    assert len(set(times)) == len(times)  # no two alike
    first, last = page.evaluate("""() => ['2026-06-01T10:05:00.000Z', '2026-06-01T14:45:00.000Z']
        .map(t => new Date(t).toLocaleTimeString('de', {hour: '2-digit', minute: '2-digit'}))""")
    assert times[0] == first
    assert times[-1] == last
    title = page.locator("#plot text.axis-title").all_text_contents()[0]
    assert title.startswith("Spiele am ")
    assert title.endswith(" nach Uhrzeit")
    marks = page.eval_on_selector("#plot", MARKS_INSIDE)
    assert len(marks) == 10
    assert all(m[0] for m in marks), marks  # inside the viewBox, outline and all
    # two players: two shapes and two clearly different colours
    assert {m[3] for m in marks} == {"circle", "path"}
    assert len({m[4] for m in marks}) == 2
    # the same total in the same game: the two marks lie side by side, not on each other
    centres = sorted((round(m[1]), round(m[2])) for m in marks)
    assert len(set(centres)) == 10
    # a text alternative names what it shows
    alt = page.text_content("#plot-title") or ""
    assert "5 Spielen" in alt
    assert "Anna, Ben" in alt
    assert page.locator("#plot-legend li").all_text_contents() == ["Anna", "Ben"]
    Path("/tmp/shots").mkdir(exist_ok=True)
    page.locator("#plot").screenshot(path="/tmp/shots/plot-one-day.png")


def test_a_plot_over_months_labels_dates_never_twice(page: Page) -> None:
    entries = json.loads(many_games())["entries"]
    # a second game on the day of the first one
    game = finished(["Anna", "Ben", "Carla Sophie"], [9, 9, 9], seed=42)
    entries.insert(1, entry("m-x", game, "2026-01-01T20:00:00.000Z", "2026-01-01T20:30:00.000Z"))
    restart(page, {HISTORY: json.dumps({"version": 1, "entries": entries})})
    page.click("#nav-history")
    page.wait_for_selector("#plot")
    ticks = [t for t in page.locator("#plot text.tick").all_text_contents() if "." in t]
    assert len(set(ticks)) == len(ticks)
    assert ticks[0] == "1.1."
    assert ticks[-1] == "9.9."
    assert all(m[0] for m in page.eval_on_selector("#plot", MARKS_INSIDE))


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [360, 1280])
def test_the_history_page_with_its_plot_and_group_fits_light_and_dark(
        page: Page, width: int, scheme: str) -> None:
    page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
    try:
        page.set_viewport_size({"width": width, "height": 800})
        data = json.loads(cluttered_history())
        data["entries"] += json.loads(many_games())["entries"]
        restart(page, {HISTORY: json.dumps(data)})
        page.click("#nav-history")
        page.wait_for_selector("#plot")
        page.click("#unfinished-summary")
        assert page.evaluate("document.documentElement.scrollWidth - "
                             "document.documentElement.clientWidth") <= 0
        assert all(m[0] for m in page.eval_on_selector("#plot", MARKS_INSIDE))
        colours = page.eval_on_selector_all(
            "#plot-legend .dot", "els => els.map(e => getComputedStyle(e).fill)")
        assert len(set(colours)) == len(colours) >= 3
        Path("/tmp/shots").mkdir(exist_ok=True)
        page.screenshot(path=f"/tmp/shots/history-{width}-{scheme}.png", full_page=True)
        page.locator("#plot").screenshot(path=f"/tmp/shots/plot-{width}-{scheme}.png")
    finally:
        page.emulate_media(color_scheme="light")


def import_named(page: Page, name: str, data: bytes) -> str:
    payload: FilePayload = {"name": name, "mimeType": "application/json", "buffer": data}
    page.set_input_files("#import-file", files=[payload])
    page.wait_for_selector(f".notice.warn:has-text('{name}')")
    return " ".join(warnings(page))


def test_an_import_refusal_names_the_file_and_no_field_of_the_format(page: Page) -> None:
    restart(page, {})
    page.click("#nav-history")
    save = finished(["Anna"], [17]).to_json()
    del save["rules"]
    said = import_named(page, "spiele.json", json.dumps(save).encode())
    assert said.startswith("„spiele.json“ wurde nicht importiert, es wurde nichts geändert: ")
    assert "die Regeln" in said
    assert "rules" not in said
    page.click(".notice button")
    said = import_named(page, "foto.jpg", b"\xff\xd8\xff\xe0 not json")
    assert said == ("„foto.jpg“ ist weder ein Kniffel-Spielstand noch ein Kniffel-Verlauf; es "
                    "wurde nichts geändert. ✕")
    assert stored(page).get(HISTORY) is None  # nothing was changed


def test_the_statistics_and_the_plot_are_per_rule_set(page: Page) -> None:
    # issue 29: Anna's average mixed her Kniffel Extreme and her classic totals, and the plot's
    # line fell from one to the other as if she got worse
    history = {"version": 1, "entries": [
        entry("r-1", finished(["Anna", "Ben"], [40, 30], rules="extreme"),
              "2026-10-01T18:00:00.000Z", "2026-10-01T18:45:00.000Z"),
        entry("r-2", finished(["Anna"], [20]), "2026-10-02T18:00:00.000Z",
              "2026-10-02T18:45:00.000Z"),
        entry("r-3", finished(["Anna", "Ben"], [25, 10], seed=2), "2026-10-03T18:00:00.000Z",
              "2026-10-03T18:45:00.000Z")]}
    restart(page, {HISTORY: json.dumps(history)})
    page.click("#nav-history")
    page.wait_for_selector("#plot-2")
    parts = page.locator("section.rule-set-stats")
    assert [parts.nth(i).get_attribute("data-rules") for i in range(2)] == ["kniffel", "extreme"]
    assert page.text_content("#stats-title") == "Kniffel (klassisch)"
    assert page.text_content("#stats-title-2") == "Kniffel Extreme"
    assert page.text_content("#stats-summary") == "Spiele: 2 · Bestes: 25 · Schnitt: 18,3"
    assert page.text_content("#stats-summary-2") == "Spiele: 1 · Bestes: 40 · Schnitt: 35"

    def row(table: str, name: str) -> list[str]:
        return page.locator(f"{table} tbody tr", has_text=name).locator("td").all_text_contents()

    assert row("#stats", "Anna")[3] == "22,5"  # her classic games only
    assert row("#stats-2", "Anna")[3] == "40"  # her Extreme game only
    # each plot joins a player's games of its own rule set only
    assert page.locator("#plot polyline").count() == 1  # Anna's two classic games
    assert page.locator("#plot-2 polyline").count() == 0
    assert page.locator("#plot-legend-2 li").all_text_contents() == ["Anna", "Ben"]
    Path("/tmp/shots").mkdir(exist_ok=True)
    page.screenshot(path="/tmp/shots/history-per-rule-set.png", full_page=True)


def test_a_new_notice_shows_at_once_beside_an_old_refusal_and_goes_by_itself(
        page: Page) -> None:
    # issue 29: notices queued one at a time, so a good import's result waited behind an old
    # refusal for 8 s and more (and every redraw of the page started the refusal's time again)
    restart(page, {})
    page.click("#nav-history")
    import_named(page, "kaputt.json", b"not json")
    a = entry("n-a", finished(["Anna", "Ben"], [20, 25]), "2025-03-12T18:00:00.000Z",
              "2025-03-12T18:40:00.000Z")
    import_file(page, history_export(a))
    # at once, not after the refusal: both are shown, the newest last
    page.wait_for_selector(".notice.info:has-text('importiert')", timeout=2_000)
    shown = page.locator(".notice").all_text_contents()
    assert len(shown) == 2
    assert shown[0].startswith("„kaputt.json“")
    assert "1 neues Spiel importiert" in shown[1]
    # a good result goes after its own 5 s, the refusal stays its 12 s; redraws (the history
    # page draws again when its statistics come in) start no time afresh
    page.wait_for_selector(".notice.info", state="detached", timeout=7_000)
    assert page.locator(".notice.warn").count() == 1
    # never more than three at a time: the oldest gives way
    for name in ("a.json", "b.json", "c.json"):
        import_named(page, name, b"[]")
    texts = page.locator(".notice").all_text_contents()
    assert len(texts) == 3
    assert not any("kaputt.json" in t for t in texts)
    Path("/tmp/shots").mkdir(exist_ok=True)
    page.screenshot(path="/tmp/shots/notices-stacked.png")
    # the same refusal again is shown once, as the newest
    import_named(page, "a.json", b"[]")
    page.wait_for_function("""() => [...document.querySelectorAll('.notice')]
        .at(-1).textContent.startsWith('„a.json“')""")
    texts = page.locator(".notice").all_text_contents()
    assert len(texts) == 3
    assert sum("„a.json“" in t for t in texts) == 1
