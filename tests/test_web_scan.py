"""The page's QR code reader (static/scan.js) with a camera: Chromium's fake camera shows a QR
code drawn by segno (a .y4m file made here), and ``startScan`` reads its text, with the site's
jsQR (vendor/jsqr.js) and through the browser's BarcodeDetector where it has one; it closes the
camera when it has the code or is stopped, and a camera refused, missing or out of reach (a page
without a secure context) is a catalog code the page can show.

The fake camera needs flags of its own, so this module launches a Chromium of its own (the same
/usr/bin/chromium): ``--use-fake-device-for-media-stream`` with the file as the camera, no fake
permission prompt, so a context granted ``camera`` has it and one without is refused, as a
player who said no. The page is the site's own module on a bare test page of the session's
site under the app's Content-Security-Policy (no engine needed), opened through
:class:`conftest.BrowserContexts`: no request may leave the local server.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Playwright

from conftest import CHROMIUM_ARGS, BrowserContexts

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from bench_scan import qr_y4m  # the fake camera's file, as the benchmark makes it

pytestmark = pytest.mark.browser

#: The text of the code the fake camera shows: as long as a table's connection code is short.
CODE_TEXT = "kniffel-table:offer:v1:" + "Q7ZK2M4XW9HTR3BND6PFJ5LC8YVGS0A1" * 4
#: A name of a machine on the network, served by the session's server over plain http: no
#: secure context there (only https and this machine's own addresses give one).
LAN_HOST = "kniffel-lan.test"
#: The bare page the tests open on the site's origin: a video element for the camera.
TEST_PAGE = "scan-test.html"


def _page_policy() -> str:
    """The app's Content-Security-Policy element, as index.html has it."""
    index = Path(__file__).resolve().parents[1] / "src/kniffel/web/static/index.html"
    found = re.search(r'<meta http-equiv="Content-Security-Policy"[^>]*>',
                      index.read_text(encoding="utf-8"))
    assert found is not None, "index.html has no Content-Security-Policy"
    return found[0]


#: The app's Content-Security-Policy: the test page has it too, so the decoder loads under it.
PAGE_POLICY = _page_policy()

#: startScan on the page's video; resolves to what came of it: the code's text and the decoder
#: (``text``, ``decoder``), or the ScanError's catalog code (``error``); ``ended`` says of
#: every camera stream the page opened whether all its tracks ended, ``attached`` whether the
#: video still shows one, and ``asked`` what was asked of getUserMedia.
SCAN = """async ({use, stopAtOnce}) => {
  const streams = [];
  const asked = [];
  const devices = navigator.mediaDevices; // none without a secure context
  const open = devices?.getUserMedia.bind(devices);
  if (devices) {
    devices.getUserMedia = async (constraints) => {
      asked.push(constraints);
      const stream = await open(constraints);
      streams.push(stream);
      return stream;
    };
  }
  const { startScan } = await import("./scan.js?b=test");
  const video = document.querySelector("video");
  const ended = () => streams.map((s) => s.getTracks().every((t) => t.readyState === "ended"));
  return await new Promise((done) => {
    const attached = () => video.srcObject !== null;
    startScan(video, (text) => done({ text, ended: ended(), attached: attached(), asked }),
      { use }).then((scan) => {
        window.kniffelScan = scan;
        if (stopAtOnce) {
          scan.stop();
          done({ stopped: true, ended: ended(), attached: attached() });
        }
      }, (error) => done({ error: error.code, name: error.name, ended: ended() }));
  }).then((result) => ({ decoder: window.kniffelScan?.decoder, ...result }));
}"""

#: A stand-in for the browser's BarcodeDetector (where Chromium has none): it reads QR codes
#: only, with the site's jsQR on a canvas, and notes what it was asked.
STAND_IN_DETECTOR = """(() => {
  window.kniffelDetector = { formats: null, sources: [] };
  globalThis.BarcodeDetector = class {
    static async getSupportedFormats() { return ["qr_code"]; }
    constructor({ formats }) { window.kniffelDetector.formats = formats; }
    async detect(source) {
      window.kniffelDetector.sources.push(source.tagName);
      const { default: jsQR } = await import("./vendor/jsqr.js?b=test");
      const canvas = document.createElement("canvas");
      canvas.width = source.videoWidth;
      canvas.height = source.videoHeight;
      const context = canvas.getContext("2d");
      context.drawImage(source, 0, 0);
      const found = jsQR(context.getImageData(0, 0, canvas.width, canvas.height).data,
        canvas.width, canvas.height);
      return found ? [{ format: "qr_code", rawValue: found.data }] : [];
    }
  };
})()"""


def test_the_fake_cameras_file_is_a_y4m_video_of_the_codes_frames() -> None:
    data = qr_y4m("x", 64, 48)
    header, rest = data.split(b"\n", 1)
    assert header == b"YUV4MPEG2 W64 H48 F10:1 Ip A1:1 C420jpeg"
    frame = b"FRAME\n" + rest.split(b"FRAME\n")[1]
    assert rest == frame * 2
    luma = frame[len(b"FRAME\n"):][:64 * 48]
    assert set(luma) == {16, 235}  # the code's dark modules on the light frame
    assert len(frame) == len(b"FRAME\n") + 64 * 48 * 3 // 2


@pytest.fixture(scope="module")
def camera_browser(playwright: Playwright, chromium: Path, site: str,
                   tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    """A Chromium of this module's own whose camera shows :data:`CODE_TEXT` as a QR code."""
    video = tmp_path_factory.mktemp("camera") / "qr.y4m"
    video.write_bytes(qr_y4m(CODE_TEXT))
    b = playwright.chromium.launch(
        executable_path=str(chromium),
        args=[*CHROMIUM_ARGS, "--use-fake-device-for-media-stream",
              f"--use-file-for-fake-video-capture={video}"])
    yield b
    b.close()


@pytest.fixture(scope="module")
def contexts(camera_browser: Browser, site: str) -> BrowserContexts:
    """This module's contexts in its Chromium: a request to another origin fails the test."""
    return BrowserContexts(camera_browser, site, None)


def open_test_page(ctx: BrowserContext, site: str) -> Page:
    """The bare test page (a video element, under the app's own Content-Security-Policy) at
    :data:`TEST_PAGE` of ``site``'s origin, where the site's modules are imported from (on
    :data:`LAN_HOST`, from the session's server)."""
    if LAN_HOST in site:
        # the session's server answers for the network's name (Playwright fetches it: Chromium
        # would refuse a page of a public address reaching into this machine's loopback)
        ctx.route(f"http://{LAN_HOST}:*/**", lambda route: route.fulfill(response=route.fetch(
            url=route.request.url.replace(LAN_HOST, "127.0.0.1"))))
    page = ctx.new_page()
    body = f'<!doctype html><meta charset="utf-8">{PAGE_POLICY}<video></video>'
    page.route(site + TEST_PAGE, lambda route: route.fulfill(content_type="text/html", body=body))
    page.goto(site + TEST_PAGE)
    return page


def scan(contexts: BrowserContexts, site: str, *, camera: bool = True, use: str = "auto",
         stop_at_once: bool = False, init: str | None = None) -> dict[str, Any]:
    """What :data:`SCAN` gives on the test page in a new context of ``contexts`` (on ``site``,
    the camera granted where ``camera``; ``init`` a script run before the page's own)."""
    with contexts.open(engine=False, site=site, bypass_csp=False,
                       permissions=["camera"] if camera else []) as ctx:
        if init is not None:
            ctx.add_init_script(init)
        page = open_test_page(ctx, site)
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        result: dict[str, Any] = page.evaluate(SCAN, {"use": use, "stopAtOnce": stop_at_once})
        if init is not None:
            result["detector"] = page.evaluate("window.kniffelDetector")
    assert errors == []
    return result


def test_the_site_decoder_reads_the_code_the_rear_camera_shows_and_closes_the_camera(
    contexts: BrowserContexts, site: str,
) -> None:
    result = scan(contexts, site, use="jsqr")
    assert result["text"] == CODE_TEXT
    assert result["decoder"] == "jsqr"
    assert result["asked"] == [{"video": {"facingMode": "environment"}, "audio": False}]
    assert result["ended"] == [True]  # the camera is closed before the code is handed over
    assert result["attached"] is False


def test_the_browsers_own_barcode_detector_reads_the_code_where_chromium_has_one(
    contexts: BrowserContexts, site: str,
) -> None:
    with contexts.open(engine=False) as ctx:
        has = open_test_page(ctx, site).evaluate("typeof BarcodeDetector === 'function'")
    if not has:
        pytest.skip("this Chromium has no BarcodeDetector (Chromium on Linux ships none; "
                    "Android's and macOS's do): the stand-in test below takes its path")
    result = scan(contexts, site)
    assert result["decoder"] == "native"
    assert result["text"] == CODE_TEXT
    assert result["ended"] == [True]


def test_a_barcode_detector_is_preferred_asked_for_qr_codes_and_handed_the_video(
    contexts: BrowserContexts, site: str,
) -> None:
    result = scan(contexts, site, init=STAND_IN_DETECTOR)
    assert result["decoder"] == "native"
    assert result["text"] == CODE_TEXT
    assert result["detector"]["formats"] == ["qr_code"]
    assert set(result["detector"]["sources"]) == {"VIDEO"}
    assert result["ended"] == [True]


def test_stopping_a_scan_closes_the_camera(contexts: BrowserContexts, site: str) -> None:
    result = scan(contexts, site, use="jsqr", stop_at_once=True)
    assert result["stopped"] is True
    assert result["ended"] == [True]
    assert result["attached"] is False
    assert "text" not in result


def _catalog(code: str) -> dict[str, str]:
    """The words of ``code`` in both of the catalog's files (it is in both)."""
    words = Path(__file__).resolve().parent.parent / "src/kniffel/engine/words"
    found = {lang: json.loads((words / f"{lang}.json").read_text(encoding="utf-8")).get(code)
             for lang in ("de", "en")}
    assert all(found.values()), f"{code} is missing in the catalog: {found}"
    return found


def test_a_refused_camera_is_the_catalog_code_that_says_so(
    contexts: BrowserContexts, site: str,
) -> None:
    result = scan(contexts, site, camera=False)
    assert result["error"] == "page.scan.refused"
    assert result["name"] == "ScanError"
    assert result["ended"] == []  # no camera was opened
    _catalog("page.scan.refused")


def test_a_page_over_plain_http_on_the_network_cannot_open_the_camera_and_says_why(
    contexts: BrowserContexts, site: str,
) -> None:
    lan = site.replace("127.0.0.1", LAN_HOST)
    result = scan(contexts, lan)
    assert result["error"] == "page.scan.insecure"
    assert result["ended"] == []
    _catalog("page.scan.insecure")


def test_a_device_without_a_camera_is_the_catalog_code_that_says_so(
    browser: Browser, site: str,
) -> None:
    """The session's Chromium has no camera, not even a fake one (its contexts as
    :class:`BrowserContexts` opens them; no engine needed)."""
    result = scan(BrowserContexts(browser, site, None), site)
    assert result["error"] == "page.scan.no_camera"
    _catalog("page.scan.no_camera")


def test_a_browser_without_get_user_media_is_the_catalog_code_that_says_so(
    contexts: BrowserContexts, site: str,
) -> None:
    """A secure page of a browser that has no camera API at all (an old or locked-down one)."""
    result = scan(contexts, site, init="Object.defineProperty(Navigator.prototype, "
                                        "'mediaDevices', { get: () => undefined })")
    assert result["error"] == "page.scan.unsupported"
    assert result["ended"] == []
    _catalog("page.scan.unsupported")
