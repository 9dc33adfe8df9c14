"""The camera at the table of phones (issue 34): each phone is a Chromium of its own whose fake
camera shows a QR code made here from what the other phone's page shows: the guest's camera the
host's actual table code, the host's camera the guest's actual answer code. Chromium reads its
camera's file each time a page opens the camera, so a phone's file is written anew before each
scan (the host's Chromium is started before there is an answer to show it). The guest taps
"scan", joins and shows its answer; the host taps "scan" and the phones are joined; an entry on
one shows on the other. The camera closes when a code is read, when the box is cancelled, when
the panel closes and when the page hides; a code of the wrong kind says the catalog's sentence;
a camera refused says its own and leaves the paste field. The phones' contexts are
:class:`conftest.BrowserContexts`: no request may leave the local server.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Playwright

from conftest import CHROMIUM_ARGS, BrowserContexts, EngineSnapshot, start_game
from kniffel.engine.messages import text
from test_web_table import enter, open_app, open_table, perf_ms, sheet

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from bench_scan import FRAME_HEIGHT, FRAME_WIDTH, qr_y4m  # the fake camera's file

pytestmark = pytest.mark.browser

#: Every camera stream a page opened, kept (run before the page's own scripts).
RECORD_STREAMS = """(() => {
  window.kniffelStreams = [];
  const devices = navigator.mediaDevices;
  if (!devices) return;
  const open = devices.getUserMedia.bind(devices);
  devices.getUserMedia = async (constraints) => {
    const stream = await open(constraints);
    window.kniffelStreams.push(stream);
    return stream;
  };
})()"""
#: Of every camera stream the page opened: whether all its tracks have ended.
ENDED = "window.kniffelStreams.map((s) => s.getTracks().every((t) => t.readyState === 'ended'))"
#: The page hidden, as a phone put away or another app in front makes it.
HIDE = """() => {
  Object.defineProperty(document, "visibilityState", { value: "hidden", configurable: true });
  document.dispatchEvent(new Event("visibilitychange"));
}"""


def blank_y4m() -> bytes:
    """A fake camera's file of a light frame without any code (the camera aimed elsewhere)."""
    frame = b"FRAME\n" + bytes([235]) * (FRAME_WIDTH * FRAME_HEIGHT) \
        + bytes([128]) * (FRAME_WIDTH * FRAME_HEIGHT // 2)
    return f"YUV4MPEG2 W{FRAME_WIDTH} H{FRAME_HEIGHT} F10:1 Ip A1:1 C420jpeg\n".encode() + frame * 2


class Phone:
    """A phone with a camera: a Chromium of its own whose camera shows :attr:`camera` (a .y4m
    file, written anew with :meth:`show`), its contexts :class:`BrowserContexts`."""

    def __init__(self, playwright: Playwright, chromium: Path, camera: Path, site: str,
                 engine: EngineSnapshot) -> None:
        self.camera = camera
        self.browser: Browser = playwright.chromium.launch(
            executable_path=str(chromium),
            args=[*CHROMIUM_ARGS, "--use-fake-device-for-media-stream",
                  f"--use-file-for-fake-video-capture={camera}"])
        self.contexts = BrowserContexts(self.browser, site, engine)
        self.opened: list[BrowserContext] = []

    def show(self, code: str | None) -> None:
        """The camera shows the QR code of ``code`` from its next opening on (None: no code)."""
        self.camera.write_bytes(blank_y4m() if code is None else qr_y4m(code))

    def context(self, *, camera: bool = True) -> BrowserContext:
        """A new context of a phone's screen, the camera granted where ``camera``."""
        ctx = self.contexts.new(is_mobile=True, has_touch=True,
                                viewport={"width": 390, "height": 844},
                                permissions=["camera"] if camera else [])
        ctx.add_init_script(RECORD_STREAMS)
        self.opened.append(ctx)
        return ctx

    def close(self) -> None:
        """Close its contexts (each fails where a page of it left the local server), then it."""
        try:
            for ctx in self.opened:
                self.contexts.close(ctx)
        finally:
            self.browser.close()


@pytest.fixture
def phone(playwright: Playwright, chromium: Path, site: str, engine_snapshot: EngineSnapshot,
          tmp_path: Path) -> Iterator[Callable[[str | None], Phone]]:
    """Starts a phone whose camera shows the QR code of the text given (None: no code)."""
    started: list[Phone] = []

    def start(code: str | None) -> Phone:
        camera = tmp_path / f"camera-{len(started)}.y4m"
        started.append(Phone(playwright, chromium, camera, site, engine_snapshot))
        started[-1].show(code)
        return started[-1]

    yield start
    for each in started:
        each.close()


def camera_closed(page: Page, opened: int) -> None:
    """The page has opened the camera ``opened`` times in all, every stream ended, no box left."""
    page.wait_for_function(f"{ENDED}.length === {opened} && {ENDED}.every(Boolean)")
    assert page.locator("#table-scan-box").count() == 0


def open_join(page: Page) -> None:
    """The table's join panel on ``page`` (from the game's menu)."""
    if page.locator("section.game").count():
        page.click("#menu summary")
    page.click("#table-join-open")
    page.wait_for_selector("#table-offer-in")


def test_a_guest_scans_the_tables_code_the_host_its_answer_and_both_play(
        phone: Callable[[str | None], Phone], site: str) -> None:
    host_phone = phone(None)  # the host's camera is shown the answer once there is one
    host = open_app(host_phone.context(), site)
    start_game(host, ["Anna", "Ben"], "pad")
    open_table(host)
    offer = host.input_value("#table-offer-code")
    # the guest's phone: its camera shows the table's code as the host's page shows it
    guest_phone = phone(offer)
    guest = open_app(guest_phone.context(), site)
    open_join(guest)
    started = perf_ms(guest)
    guest.click("#table-scan")
    guest.wait_for_selector("#table-answer-code")
    scan_to_answer = perf_ms(guest) - started
    read_ms = guest.evaluate("window.kniffelTiming.scanRead - window.kniffelTiming.scanStarted")
    camera_closed(guest, 1)  # closed once the code was read
    answer = guest.input_value("#table-answer-code")
    # the host's camera shows its own table's code: a code of the wrong kind, said so
    host_phone.show(offer)
    host.click("#table-scan")
    host.wait_for_selector("#table-note")
    assert host.text_content("#table-note") == text("page.table.not_answer", "de")
    camera_closed(host, 1)
    # now the guest's answer: the host reads it and the phones are joined
    host_phone.show(answer)
    started = perf_ms(guest)
    host.click("#table-scan")
    guest.wait_for_selector("section.game[data-actions='0']", state="attached")
    scan_to_game = perf_ms(guest) - started
    camera_closed(host, 2)
    host.wait_for_function("(c) => { const f = document.querySelector('#table-offer-code');"
                           " return f && f.value !== c; }", arg=offer)  # the next phone's code
    for page in (host, guest):
        page.click("#panel-close")
    latencies = [enter(host, [guest], 0, "ones", 3), enter(guest, [host], 1, "twos", 6)]
    assert sheet(host) == sheet(guest) == {"0/ones": "3", "1/twos": "6"}
    # a guest whose camera shows an answer code where the table's code belongs: said so
    guest_phone.show(answer)
    other = open_app(guest_phone.context(), site)
    open_join(other)
    other.click("#table-scan")
    other.wait_for_selector("#table-note")
    assert other.text_content("#table-note") == text("page.table.not_offer", "de")
    camera_closed(other, 1)
    assert other.locator("#table-offer-in").is_visible()  # the paste field stays the way in
    print(f"\ntable by camera: offer {len(offer)} chars, answer {len(answer)} chars;"
          f" guest: scan tapped to code read {read_ms:.0f} ms, to its answer shown"
          f" {scan_to_answer:.0f} ms; host: scan tapped to the guest's game shown"
          f" {scan_to_game:.0f} ms; entry latency {', '.join(f'{v:.0f}' for v in latencies)} ms")
    for page in (host, guest, other):
        page.close()


def test_the_camera_closes_when_cancelled_when_the_panel_closes_and_when_the_page_hides(
        phone: Callable[[str | None], Phone], site: str) -> None:
    cam = phone(None)  # aimed at no code: the camera stays open until it is closed
    page = open_app(cam.context(), site)
    open_join(page)

    def scanning(opened: int) -> None:
        page.click("#table-scan")
        page.wait_for_selector("#table-scan-box video")
        page.wait_for_function(f"{ENDED}.length === {opened} && !{ENDED}[{opened - 1}]")
        assert page.text_content("#table-scan-box-note") == text("page.table.scan_hint", "de")

    scanning(1)
    page.click("#table-scan-box-cancel")
    camera_closed(page, 1)
    assert page.locator("#table-offer-in").is_visible()
    scanning(2)
    page.click("#panel-close")
    camera_closed(page, 2)
    open_join(page)
    scanning(3)
    page.evaluate(HIDE)
    camera_closed(page, 3)
    page.close()


def test_a_camera_refused_says_so_and_leaves_the_paste_field(
        phone: Callable[[str | None], Phone], site: str) -> None:
    cam = phone(None)
    page = open_app(cam.context(camera=False), site)
    open_join(page)
    page.click("#table-scan")
    page.wait_for_selector("#table-scan-box-note.warn")
    assert page.text_content("#table-scan-box-note") == text("page.scan.refused", "de")
    assert page.locator("#table-scan-box video").count() == 0
    assert page.locator("#table-offer-in").is_visible()
    page.click("#table-scan")  # tapped again: asked again, said once
    page.wait_for_function("window.kniffelStreams.length === 0"
                           " && document.querySelectorAll('#table-scan-box').length === 1"
                           " && document.querySelector('#table-scan-box-note.warn') !== null")
    page.click("#table-scan-box-cancel")
    assert page.locator("#table-scan-box").count() == 0
    page.close()
