"""A table of phones (issue 34) in one Chromium: three browser contexts are three phones on the
loopback, joined through the messenger's path (the table's code pasted on the guest, the
guest's answer code pasted on the host), WebRTC data channels and nothing else: no request to
another origin (the ``browser_contexts`` fixture fails on one). Measured and printed: the join
time of each phone and an entry's latency to the other phones."""

from __future__ import annotations

import json
import statistics
from collections.abc import Iterator

import pytest
from playwright.sync_api import BrowserContext, Page
from playwright.sync_api import Error as PlaywrightError

from conftest import READY, BrowserContexts, start_game, wait_actions
from kniffel.engine.messages import text

pytestmark = pytest.mark.browser

#: An entry on one phone is on every other phone within this many milliseconds (the issue's 1 s),
#: at the median of a test's entries; any one of them within SLOWEST_MS (on a loaded 2-core
#: machine single entries took 1.2-1.5 s; tests/test_web_table_soak.py prints the spread).
LATENCY_MS = 1000
SLOWEST_MS = 3000

# Resolves (on the page it is set up in) with the wall-clock time, in ms, at which the game's
# section first shows at least ``n`` actions: performance.timeOrigin + performance.now() is one
# clock for every page of the browser.
WATCH = """(n) => {
  window.kniffelSeen = new Promise((done) => {
    const seen = () => {
      const s = document.querySelector("section.game");
      if (!s || Number(s.dataset.actions) < n) return false;
      done(performance.timeOrigin + performance.now());
      return true;
    };
    if (seen()) return;
    const watch = new MutationObserver(() => { if (seen()) watch.disconnect(); });
    watch.observe(document.documentElement, { subtree: true, childList: true, attributes: true });
  });
}"""

# When the watched entry showed (WATCH); refused after 10 s, so that a lost entry fails the test
# rather than holding it up.
SEEN = """() => Promise.race([window.kniffelSeen, new Promise((_, fail) =>
  setTimeout(() => fail(new Error("the entry did not show within 10 s")), 10000))])"""

# Clicks the option ``sel`` of the open picker and answers the wall-clock time just before; an
# entry in another player's column than the phone's own is asked once more: its "enter for"
# button clicked too (the player's second tap), the time taken just before that one.
CLICK = """(sel) => {
  let at = performance.timeOrigin + performance.now();
  document.querySelector(sel).click();
  const go = document.querySelector("#picker[open] #table-other-go");
  if (go) {
    at = performance.timeOrigin + performance.now();
    go.click();
  }
  return at;
}"""


# The phone asleep and awake again: the page hidden for a moment (visibilitychange).
SLEEP = """() => {
  for (const hidden of [true, false]) {
    Object.defineProperty(document, "hidden", { configurable: true, get: () => hidden });
    document.dispatchEvent(new Event("visibilitychange"));
  }
  delete document.hidden;
}"""


#: What the phones' pages raised or logged as errors and warnings (said when a join fails).
ERRORS: list[str] = []


@pytest.fixture(scope="module")
def phones(browser_contexts: BrowserContexts) -> Iterator[list[BrowserContext]]:
    """Three phones: each its own browser context (its own storage), engine from the snapshot."""
    contexts = [browser_contexts.new(is_mobile=True, has_touch=True,
                                     viewport={"width": 390, "height": 844})
                for _ in range(3)]
    yield contexts
    for ctx in contexts:
        browser_contexts.close(ctx)


def open_app(ctx: BrowserContext, site: str, *, clear: bool = True) -> Page:
    """The app on the phone ``ctx``, ready; with ``clear``, nothing stored."""
    page = ctx.new_page()
    page.on("pageerror", lambda e: ERRORS.append(f"{e}"))
    page.on("console", lambda m: ERRORS.append(m.text) if m.type in ("error", "warning") else None)
    page.goto(site)
    if clear:
        page.evaluate("localStorage.clear()")
        page.reload()
    page.wait_for_selector(READY, state="attached", timeout=120_000)
    return page


def perf_ms(page: Page) -> float:
    """The page's wall clock in ms (performance.timeOrigin + performance.now())."""
    at: float = page.evaluate("performance.timeOrigin + performance.now()")
    return at


def open_table(host: Page) -> None:
    """The host's table panel open with its code for the next phone."""
    if not host.locator("#panel[open] #table-offer-code").count():
        host.click("#menu summary")
        host.click("#table-open")
    host.wait_for_selector("#table-offer-code")


def join(host: Page, guest: Page, mine: int | None = None, name: str | None = None) -> float:
    """The guest joins the host's table the messenger's way: the table's code pasted on the guest,
    the guest's answer code pasted on the host; done once the guest shows the table's game, and
    its player has picked their column (``mine``); ``name``: the phone's name at the table,
    typed before joining. Answers the join's time in ms, from the
    paste of the table's code to the game shown."""
    offer = host.input_value("#table-offer-code")
    if not guest.locator("#table-offer-in").count():
        if guest.locator("section.game").count():
            guest.click("#menu summary")
        guest.click("#table-join-open")
    guest.fill("#table-offer-in", offer)
    if name is not None:
        guest.fill("#table-name", name)
    actions = host.get_attribute("section.game", "data-actions")
    started = perf_ms(guest)
    guest.click("#table-join-go")
    guest.wait_for_selector("#table-answer-code")
    host.fill("#table-answer", guest.input_value("#table-answer-code"))
    host.click("#table-connect")
    try:
        guest.wait_for_selector(f"section.game[data-actions='{actions}']", state="attached")
    except PlaywrightError as e:  # what each phone's panel says: why they did not connect
        panels = [p.evaluate("[document.querySelector('#panel').textContent,"
                             " window.kniffelTiming.tableMessages]") for p in (host, guest)]
        raise AssertionError(f"the guest did not get the table's game: {panels}, {ERRORS}") from e
    took = perf_ms(guest) - started
    # the host makes the next phone's code at once
    host.wait_for_function("(c) => { const f = document.querySelector('#table-offer-code');"
                           " return f && f.value !== c; }", arg=offer)
    # the guest's panel says it sits at the table (its answer code is used up)
    guest.wait_for_selector("#table-seated")
    if mine is not None:
        guest.select_option("#table-mine", str(mine))
    guest.click("#panel-close")
    return took


def enter(at: Page, others: list[Page], player: int, box: str, points: int) -> float:
    """Enter ``points`` in ``box`` for ``player`` on the phone ``at``; once every phone shows
    it, answer the latency in ms: from the tap on ``at`` to the last other phone showing it."""
    n = int(at.get_attribute("section.game", "data-actions") or "-1") + 1
    for page in others:
        page.evaluate(WATCH, n)
    at.click(f"td[data-player='{player}'][data-box='{box}'] button.open")
    tapped: float = at.evaluate(
        CLICK, f"#picker-options button[data-strike='0'][data-points='{points}']")
    seen = [float(page.evaluate(SEEN)) for page in others]
    for page in [at, *others]:
        wait_actions(page, n)
    return max(seen) - tapped


def sheet(page: Page) -> dict[str, str]:
    """Every filled cell of the page's sheet: "player/box" -> what it shows."""
    cells: dict[str, str] = page.eval_on_selector_all(
        "#sheet td[data-box] button.filled",
        "els => Object.fromEntries(els.map(e =>"
        " [`${e.dataset.player}/${e.dataset.box}`, e.textContent]))")
    return cells


def milliseconds(values: list[float]) -> str:
    """``values`` as whole milliseconds, comma-separated."""
    return ", ".join(f"{v:.0f}" for v in values)


def test_three_phones_at_one_table_see_every_entry_and_a_guest_rejoins(
        phones: list[BrowserContext], site: str) -> None:
    host, ben, cem = (open_app(ctx, site) for ctx in phones)
    start_game(host, ["Anna", "Ben", "Cem"], "pad", rules="extreme")
    open_table(host)
    bytes_offer = int(host.get_attribute("#table-offer-code", "data-bytes") or "0")
    joins = [join(host, ben, mine=1, name="Bens Handy"), join(host, cem, mine=2)]
    assert "3" in (host.text_content("#table-status") or "")
    host.click("#panel-close")
    for page in (ben, cem):
        wait_actions(page, 0)
        assert page.locator("#table-line").is_visible()
    # each guest's own column first on its sheet, and marked
    for page, mine in ((ben, "1"), (cem, "2")):
        first = page.locator("#sheet thead th[data-player]").first
        assert first.get_attribute("data-player") == mine
        assert "mine" in (first.get_attribute("class") or "")
    assert host.locator("#sheet thead th[data-player]").first.get_attribute("data-player") == "0"
    # one entry on each phone, each on every other phone within a second
    latencies = [enter(host, [ben, cem], 0, "ones", 3), enter(ben, [host, cem], 1, "twos", 6)]
    # who did what, on the other phones: the player and the phone that entered it
    assert "Ben (Bens Handy)" in (host.text_content("#confirm") or "")
    assert "Ben (Bens Handy)" in (cem.text_content("#confirm") or "")
    latencies.append(enter(cem, [host, ben], 2, "threes", 9))
    assert all(ms < SLOWEST_MS for ms in latencies), latencies
    assert sheet(host) == sheet(ben) == sheet(cem) == {"0/ones": "3", "1/twos": "6",
                                                         "2/threes": "9"}
    # a phone nobody named is named after the column its player picked
    assert "Cem (Handy von Cem)" in (host.text_content("#confirm") or "")
    # a guest's phone closes; the table goes on; the phone comes back and catches up
    cem.close()
    enter(host, [ben], 0, "fours", 12)
    cem = open_app(phones[2], site, clear=False)
    # opened again, the page knows it sat at the table and sits there no more: said, the field
    # for the table's code open (it takes no entries the table would never see unwarned)
    cem.wait_for_selector("#table-offer-in")
    assert text("page.table.seat_lost", "de") in (cem.text_content("#notices") or "")
    open_table(host)
    rejoin = join(host, cem)
    wait_actions(cem, 4)
    # sitting again, it keeps its column and the warning goes
    assert cem.locator("#sheet thead th[data-player]").first.get_attribute("data-player") == "2"
    assert text("page.table.seat_lost", "de") not in (cem.text_content("#notices") or "")
    assert sheet(cem) == sheet(host) == sheet(ben)
    host.click("#panel-close")
    latencies.append(enter(cem, [host, ben], 1, "fives", 15))
    assert latencies[-1] < SLOWEST_MS, latencies
    assert sheet(host) == sheet(ben) == sheet(cem)
    # the host's phone goes: the guest with the most of the game (ties: the first to join) holds
    # the table now and shows its code; the other joins it and the game goes on. Cem's phone
    # slept meanwhile: it starts no host change of its own, it asks for the table's code.
    cem.evaluate(SLEEP)
    host.close()
    ben.wait_for_selector("#table-offer-code")
    assert text("page.table.this_phone", "de") in (ben.text_content("#table-status") or "")
    cem.wait_for_selector("#table-offer-in")
    assert text("page.table.rejoin", "de") in (cem.text_content("#notices") or "")
    host_change = join(ben, cem)
    latencies.append(enter(cem, [ben], 2, "sixes", 18))
    assert latencies[-1] < SLOWEST_MS, latencies
    assert sheet(ben) == sheet(cem)
    assert len(sheet(ben)) == 6
    assert statistics.median(latencies) < LATENCY_MS, latencies
    print(f"\ntable: offer code {bytes_offer} bytes; join {milliseconds(joins)} ms,"
          f" rejoin {rejoin:.0f} ms, to a new host {host_change:.0f} ms;"
          f" entry latency {milliseconds(latencies)} ms")
    for page in (ben, cem):
        page.close()


def test_phones_that_cannot_reach_each_other_are_told_so_and_offered_the_hand_off(
        phones: list[BrowserContext], site: str) -> None:
    host, guest = open_app(phones[0], site), open_app(phones[1], site)
    start_game(host, ["Anna", "Ben"], "pad")
    host.evaluate("window.kniffelConnectMs = 1500")
    open_table(host)
    # this time the guest opens the table's link (as from a messenger)
    link = host.input_value("#table-link")
    assert link.startswith(site)
    assert "#t=" in link
    guest.goto(link)
    guest.wait_for_selector("#table-answer-code")
    answer = guest.input_value("#table-answer-code")
    guest.close()  # the answering phone is gone: no candidate pair answers
    host.fill("#table-answer", answer)
    host.click("#table-connect")
    host.wait_for_selector("#table-handoff")
    assert host.text_content("#table-note") == text("page.table.no_connection", "de")
    host.click("#table-handoff")
    host.wait_for_selector("#handoff-link")
    host.close()


def test_an_answer_to_a_used_code_is_told_at_once_and_the_current_code_still_seats_that_phone(
        phones: list[BrowserContext], site: str) -> None:
    host, ben, cem = (open_app(ctx, site) for ctx in phones)
    start_game(host, ["Anna", "Ben", "Cem"], "pad")
    open_table(host)
    used = host.input_value("#table-link")  # the code posted to a group chat
    join(host, ben)  # the host's panel shows the next phone's code now
    current = host.input_value("#table-offer-code")
    assert current not in used
    # Cem opens the posted link: the code Ben used; its answer comes to the host
    cem.goto(used)
    cem.wait_for_selector("#table-answer-code")
    # its answer shown, the phone does not sit at the table yet, and says so
    assert cem.text_content("#table-status") == text("page.table.not_seated", "de")
    host.fill("#table-answer", cem.input_value("#table-answer-code"))
    started = perf_ms(host)
    host.click("#table-connect")
    sentence = text("page.table.used_code", "de")
    host.wait_for_function("(s) => document.querySelector('#table-note')?.textContent === s",
                           arg=sentence, timeout=2000)
    assert perf_ms(host) - started < 2000
    assert "warn" in (host.get_attribute("#table-note", "class") or "")  # a refusal, marked so
    # nothing was tried on the connection: the host still shows the same code, not connecting
    assert host.input_value("#table-offer-code") == current
    assert not host.locator("#table-handoff").count()
    # Cem's phone reads another code, the one the host shows now, and sits down
    actions = host.get_attribute("section.game", "data-actions")
    first_answer = cem.input_value("#table-answer-code")
    cem.click("#table-reread")
    cem.fill("#table-offer-in", current)
    cem.click("#table-join-go")
    cem.wait_for_function("(c) => { const f = document.querySelector('#table-answer-code');"
                          " return f && f.value !== c; }", arg=first_answer)
    host.fill("#table-answer", cem.input_value("#table-answer-code"))
    host.click("#table-connect")
    cem.wait_for_selector(f"section.game[data-actions='{actions}']", state="attached")
    cem.wait_for_selector("#table-seated")
    host.wait_for_function("(c) => { const f = document.querySelector('#table-offer-code');"
                           " return f && f.value !== c; }", arg=current)
    assert "3" in (host.text_content("#table-status") or "")
    for page in (host, ben, cem):
        page.close()


def dice(page: Page) -> list[int]:
    """The dice the page shows, in their order."""
    shown: list[int] = page.eval_on_selector_all(
        ".die .sr", "els => els.map(e => Number(e.textContent))")
    return shown


def test_a_dice_game_at_a_table_throws_on_the_host_for_a_guest(
        phones: list[BrowserContext], site: str) -> None:
    host, guest = open_app(phones[0], site), open_app(phones[1], site)
    start_game(host, ["Anna", "Ben"], "dice")
    open_table(host)
    join(host, guest, mine=1)  # Ben's phone
    host.click("#panel-close")
    # the guest's throw for Anna: asked once more (not its player's turn); then the host's
    # engine throws and both show the dice
    guest.click("#roll")
    guest.wait_for_selector("#picker[open] #table-other-go")
    assert guest.text_content("#picker-title") == text("page.table.other_roll", "de", name="Anna")
    guest.click("#table-other-go")
    for page in (host, guest):
        wait_actions(page, 2)
    assert len(dice(guest)) == 6
    assert dice(host) == dice(guest)
    host.click("#roll")  # and the host's, shown on the guest
    for page in (host, guest):
        wait_actions(page, 4)
    assert dice(host) == dice(guest)
    host.close()
    guest.close()


def test_two_entries_at_once_are_ordered_the_later_refused_and_told(
        phones: list[BrowserContext], site: str) -> None:
    host, ben, cem = (open_app(ctx, site) for ctx in phones)
    start_game(host, ["Anna", "Ben"], "pad")
    open_table(host)
    join(host, ben)
    join(host, cem)
    host.click("#panel-close")
    # both guests enter for Anna at the same moment, in different boxes
    ben.click("td[data-player='0'][data-box='fours'] button.open")
    cem.click("td[data-player='0'][data-box='fives'] button.open")
    ben.evaluate(CLICK, "#picker-options button[data-strike='0'][data-points='12']")
    cem.evaluate(CLICK, "#picker-options button[data-strike='0'][data-points='15']")
    for page in (host, ben, cem):
        wait_actions(page, 1)
    # which of the two reached the host first is the network's to say: that one is made, on
    # every phone, and only that one; the other phone is told it was too late
    entries = {"0/fours": "12"}, {"0/fives": "15"}
    made = sheet(host)
    assert made in entries, made
    later = cem if made == entries[0] else ben
    first = ben if later is cem else cem
    later.wait_for_selector("#notices .notice.warn")
    assert sheet(ben) == sheet(cem) == made
    assert text("table.stale", "de") in (later.text_content("#notices") or "")
    assert text("table.stale", "de") not in (first.text_content("#notices") or "")
    for page in (host, ben, cem):
        page.close()


def test_a_phone_is_asked_before_another_players_column_and_a_new_game_reaches_every_phone(
        phones: list[BrowserContext], site: str) -> None:
    host, ben, cem = (open_app(ctx, site) for ctx in phones)
    start_game(host, ["Anna", "Ben"], "pad")
    open_table(host)
    # the host names its phone in its panel, as a guest does before it joins
    host.fill("#table-name", "Annas Handy")
    host.dispatch_event("#table-name", "change")
    join(host, ben, mine=1, name="Bens Handy")
    join(host, cem, name="Cems Handy")  # it enters for everyone: it has no column of its own
    host.click("#panel-close")
    # Ben's phone taps Anna's box: asked once more, naming Anna and the phone's own player;
    # cancelled, nothing is entered
    ben.click("td[data-player='0'][data-box='ones'] button.open")
    ben.click("#picker-options button[data-points='3']")
    ben.wait_for_selector("#picker[open] #table-other-go")
    assert ben.text_content("#picker-title") == text("page.table.other_column", "de", name="Anna")
    assert ben.text_content("#picker-rule") == text("page.table.other_column_hint", "de",
                                                    mine="Ben")
    ben.click("#picker-cancel")
    ben.wait_for_timeout(300)
    assert host.get_attribute("section.game", "data-actions") == "0"
    # confirmed, it is made, and said on every phone with the phone that made it
    enter(ben, [host, cem], 0, "ones", 3)
    assert "Anna (Bens Handy)" in (host.text_content("#confirm") or "")
    # the line reads on in the other language once the player switches
    host.click("#lang")
    said_en = text("table.said.score", "en", name="Anna", device="Bens Handy", points=3,
                   box="ones", rules="extreme")
    host.wait_for_function("(t) => document.querySelector('#confirm')?.textContent.includes(t)",
                           arg=said_en)
    host.click("#lang")
    # so is an undo of an entry in another player's column; cancelled, nothing is taken back
    ben.click("#undo")
    ben.wait_for_selector("#picker[open] #table-other-go")
    assert ben.text_content("#picker-title") == text("page.table.other_undo", "de", name="Anna")
    ben.click("#picker-cancel")
    ben.wait_for_timeout(300)
    assert host.get_attribute("section.game", "data-actions") == "1"
    # a phone without a column of its own is not asked
    cem.click("td[data-player='1'][data-box='twos'] button.open")
    cem.click("#picker-options button[data-points='4']")
    assert not cem.locator("#picker[open]").count()
    for page in (host, ben, cem):
        wait_actions(page, 2)
    # undo names what it took back, on every phone (Ben's own column: not asked)
    ben.click("#undo")
    for page in (host, ben, cem):
        wait_actions(page, 1)
    said = text("table.said.undo_score", "de", device="Bens Handy", name="Ben", points=4,
                box="Zweier")
    for page in (host, cem):
        page.wait_for_function("(t) => document.querySelector('#confirm')?.textContent"
                               ".includes(t)", arg=said)
    # a new game started on a guest is the whole table's, on every phone at once (its setup
    # screen says so)
    cem.click("#menu summary")
    cem.click("#new-game")
    assert cem.text_content("#table-new-note") == text("page.table.new_for_all", "de")
    # the setup is the table's (its players), not this phone's last one
    assert [cem.input_value(f"input[data-player='{i}']") for i in range(2)] == ["Anna", "Ben"]
    start_game(cem, ["Anna", "Ben", "Cem"], "pad", wait=False)
    # it ends the table's game in progress on every phone: asked first
    cem.wait_for_selector("#picker[open] #table-other-go")
    assert cem.text_content("#picker-title") == text("page.table.replace", "de")
    cem.click("#table-other-go")
    wait_actions(cem, 0)
    for page in (host, ben):
        page.wait_for_selector("#sheet thead th[data-player='2']", state="attached")
        wait_actions(page, 0)
        assert text("table.said.new", "de", device="Cems Handy") in (
            page.text_content("#confirm") or "")
    # Ben's phone keeps Ben's column in the new game (found by name)
    assert ben.locator("#sheet thead th[data-player]").first.get_attribute("data-player") == "1"
    enter(host, [ben, cem], 0, "sixes", 18)
    assert sheet(host) == sheet(ben) == sheet(cem) == {"0/sixes": "18"}
    # the game before, resumed from a guest's history, is the whole table's again: on every
    # phone, one copy in each history (the game of three), none of the game of two
    ben.click("#nav-history")
    ben.click("[data-resume]")
    ben.click("#picker[open] #table-other-go")
    for page in (host, ben, cem):
        page.wait_for_selector("#sheet thead th[data-player='2']", state="detached")
        wait_actions(page, 1)
        assert sheet(page) == {"0/ones": "3"}
        page.click("#nav-history")
        assert page.locator("[data-resume]").count() == 1
        page.click("#nav-game")
    assert text("table.said.load", "de", device="Bens Handy") in (
        host.text_content("#confirm") or "")
    # a guest that leaves is said on the other guests too, not only on the host (once)
    cem.close()
    ben.wait_for_function("(t) => document.querySelector('#notices').textContent.includes(t)",
                          arg=text("table.said.left", "de", device="Cems Handy"))
    host.wait_for_timeout(500)
    assert text("page.table.lost", "de") not in (host.text_content("#notices") or "")
    for page in (host, ben):
        page.close()


def test_a_host_that_leaves_by_its_panel_hands_the_table_on_and_no_guest_is_stranded(
        phones: list[BrowserContext], site: str) -> None:
    host, ben, cem = (open_app(ctx, site) for ctx in phones)
    start_game(host, ["Anna", "Ben", "Cem"], "pad")
    open_table(host)
    join(host, ben, name="Bens Handy")
    join(host, cem, mine=2, name="Cems Handy")
    host.click("#panel-close")
    enter(host, [ben, cem], 0, "ones", 3)
    open_table(host)
    host.click("#table-leave")
    # Ben joined first: its phone holds the table and shows its code; Cem's is told so and asked
    # for that code, at once (it took its seat's words from the host's bye)
    ben.wait_for_selector("#panel[open] #table-offer-code")
    cem.wait_for_selector("#panel[open] #table-offer-in")
    said = text("table.said.host", "de", device="Bens Handy")
    assert said in (cem.text_content("#notices") or "")
    join(ben, cem)
    # Cem's column stayed Cem's
    assert cem.locator("#sheet thead th[data-player]").first.get_attribute("data-player") == "2"
    enter(cem, [ben], 1, "twos", 4)
    assert sheet(ben) == sheet(cem) == {"0/ones": "3", "1/twos": "4"}
    for page in (host, ben, cem):
        page.close()


def test_on_a_phone_held_sideways_a_notice_leaves_the_games_menu_free(
        phones: list[BrowserContext], site: str) -> None:
    # a new player's report: on a sideways phone a notice ("… hat den Tisch verlassen") lay over
    # the game's menu for its seconds; it goes under the game's head now
    page = open_app(phones[0], site)
    page.set_viewport_size({"width": 844, "height": 390})
    start_game(page, ["Anna", "Ben"], "pad")
    open_table(page)
    page.click("#table-leave")
    page.wait_for_selector(".notice")
    menu = page.locator("#menu summary").bounding_box()
    notice = page.locator(".notice").first.bounding_box()
    assert menu is not None
    assert notice is not None
    assert notice["y"] >= menu["y"] + menu["height"], (menu, notice)
    assert page.evaluate("([x, y]) => document.elementFromPoint(x, y).closest('#menu') !== null",
                         [menu["x"] + menu["width"] / 2, menu["y"] + menu["height"] / 2])
    page.close()


def test_a_computer_player_at_a_table_plays_on_the_phone_that_holds_it_and_all_see_its_moves(
        phones: list[BrowserContext], site: str) -> None:
    # a new player's try: the computer's turn stopped after its first throw on every phone
    host, guest = open_app(phones[0], site), open_app(phones[1], site)
    start_game(host, ["Anna", "Robo"], "dice", rules="kniffel", kinds={1: "computer:greedy"})
    open_table(host)
    join(host, guest, mine=0, name="Annas Handy")
    host.click("#panel-close")
    guest.click("#roll")
    for page in (host, guest):
        wait_actions(page, 2)
    guest.click("#choices button")  # Anna's entry, from her own phone
    # Robo's whole turn, played by the phone that holds the table; Anna's turn again on both
    done = ("() => { const s = document.querySelector('section.game');"
            " return s && s.dataset.computer === '0' && s.dataset.live === '1'"
            " && Number(s.dataset.actions) > 3; }")
    for page in (host, guest):
        page.wait_for_function(done, timeout=60_000)
    saves = [p.evaluate("localStorage.getItem('kniffel.v1.current')") for p in (host, guest)]
    games = [json.loads(s)["game"] for s in saves]
    assert games[0] == games[1]
    # the guest reads the computer's moves as its own, not as a phone's
    said = guest.text_content("#confirm") or ""
    assert said.startswith("Robo"), said
    assert "Handy" not in said, said
    assert host.text_content("#computer-say")
    for page in (host, guest):
        page.close()
