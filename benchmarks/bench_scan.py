"""Benchmark of the page's QR code reader (static/scan.js) where the browser has no
BarcodeDetector: how long jsQR takes to read one camera frame, and a scan from opening the
camera to the code.

Run: ``.venv/bin/python benchmarks/bench_scan.py`` (``--help`` for options). It serves a fresh
build of the site on loopback and starts Debian's Chromium with a fake camera that shows a QR
code of ``--length`` characters (segno, error level L, as a table's connection code is drawn)
in the middle of a 640×480 frame (:func:`qr_y4m`, the file the browser test uses too). In the
page, on the site's origin:

* **per frame**: a camera frame drawn to the canvas scan.js reads (its longer side
  ``FRAME_SIDE``), its pixels read back and handed to jsQR, ``--frames`` times, with the
  options scan.js uses (``inversionAttempts: "attemptBoth"``) and with ``"dontInvert"``; and
  a frame without a whole code (the usual frame while the phone is still aimed: the code's
  left half stretched over the canvas), all in ms;
* **a scan**: ``startScan`` forced to jsQR, from the call until the code's text is handed
  over (camera opening included), ``--scans`` times.

Chromium runs headless on this machine's CPU: a phone's is slower (a mid-range phone's
JavaScript runs about 2–4 times as long).
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
from pathlib import Path
from typing import Any

import segno
from playwright.sync_api import sync_playwright

from kniffel.web.server import running_server

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--use-fake-device-for-media-stream"]
#: The fake camera's frame (px).
FRAME_WIDTH, FRAME_HEIGHT = 640, 480

#: In the page: open the camera, then time jsQR on its frames as scan.js reads them.
MEASURE = """async ({frames, scans}) => {
  const { default: jsQR } = await import("./vendor/jsqr.js?b=bench");
  const { startScan, frameSize } = await import("./scan.js?b=bench");
  const video = document.querySelector("video");
  video.muted = true;
  video.srcObject = await navigator.mediaDevices.getUserMedia({ video: true });
  await video.play();
  while (!video.videoWidth) await new Promise((done) => setTimeout(done, 20));
  const { width, height } = frameSize(video.videoWidth, video.videoHeight);
  const canvas = Object.assign(document.createElement("canvas"), { width, height });
  const context = canvas.getContext("2d", { willReadFrequently: true });
  const time = (inversionAttempts, blank) => {
    const ms = [];
    let text = null;
    for (let i = 0; i < frames; i++) {
      const start = performance.now();
      if (blank) {
        // the code half in view (its right-hand finder pattern out of the frame): the search
        // runs its whole course, on the frame and on its inverse, and finds nothing
        const part = video.videoWidth * 0.45;
        context.drawImage(video, 0, 0, part, video.videoHeight, 0, 0, width, height);
      } else {
        context.drawImage(video, 0, 0, width, height);
      }
      const found = jsQR(context.getImageData(0, 0, width, height).data, width, height,
        { inversionAttempts });
      ms.push(performance.now() - start);
      text = found ? found.data : null;
    }
    return { ms, text };
  };
  const both = time("attemptBoth", false);
  const plain = time("dontInvert", false);
  const blank = time("attemptBoth", true);
  video.srcObject.getTracks().forEach((t) => t.stop());
  const scanMs = [];
  for (let i = 0; i < scans; i++) {
    const start = performance.now();
    await new Promise((done, fail) => startScan(video, done, { use: "jsqr" }).catch(fail));
    scanMs.push(performance.now() - start);
  }
  return { width, height, both, plain, blank, scanMs };
}"""


def qr_y4m(text: str, width: int = FRAME_WIDTH, height: int = FRAME_HEIGHT) -> bytes:
    """A video in the YUV4MPEG2 format (Chromium's fake camera file) of two frames, each a grey
    QR code of ``text`` (segno, error level L, with its quiet zone of 4 modules) in the middle of
    a light frame, three quarters of its height: the Y plane the picture, U and V a neutral 128
    (no colour)."""
    qr = segno.make(text, error="l", micro=False)
    modules = [list(row) for row in qr.matrix]
    side = len(modules) + 8
    scale = height * 3 // 4 // side
    luma = bytearray([235]) * (width * height)
    left, top = (width - side * scale) // 2, (height - side * scale) // 2
    for i, row in enumerate(modules):
        for j, dark in enumerate(row):
            if dark:
                for dy in range(scale):
                    start = (top + (i + 4) * scale + dy) * width + left + (j + 4) * scale
                    luma[start:start + scale] = bytes([16]) * scale
    frame = b"FRAME\n" + bytes(luma) + bytes([128]) * (width * height // 2)
    header = f"YUV4MPEG2 W{width} H{height} F10:1 Ip A1:1 C420jpeg\n".encode()
    return header + frame * 2


def measure(length: int, frames: int, scans: int) -> dict[str, Any]:
    """The timings (see the module's docstring) for a code of ``length`` characters."""
    text = ("Q7ZK2M4XW9HTR3BND6PFJ5LC8YVGS0A1" * (length // 32 + 1))[:length]
    version = segno.make(text, error="l", micro=False).version
    with tempfile.TemporaryDirectory(prefix="kniffel-scan-") as tmp, \
            running_server() as (site, _), sync_playwright() as p:
        video = Path(tmp) / "qr.y4m"
        video.write_bytes(qr_y4m(text))
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            *CHROMIUM_ARGS, f"--use-file-for-fake-video-capture={video}"])
        try:
            ctx = browser.new_context(permissions=["camera"], service_workers="block")
            page = ctx.new_page()
            page.route(site + "bench-scan.html", lambda route: route.fulfill(
                content_type="text/html", body="<!doctype html><video></video>"))
            page.goto(site + "bench-scan.html")
            found: dict[str, Any] = page.evaluate(MEASURE, {"frames": frames, "scans": scans})
        finally:
            browser.close()
    assert found["both"]["text"] == text, "no code read"
    assert found["plain"]["text"] == text, "no code read"
    assert found["blank"]["text"] is None

    def stats(ms: list[float]) -> dict[str, float]:
        return {"median": round(statistics.median(ms), 1), "max": round(max(ms), 1)}

    return {"length": length, "qr_version": version,
            "canvas": f"{found['width']}x{found['height']}",
            "frame_ms_attempt_both": stats(found["both"]["ms"]),
            "frame_ms_dont_invert": stats(found["plain"]["ms"]),
            "frame_ms_no_code": stats(found["blank"]["ms"]),
            "scan_ms": stats(found["scanMs"])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--length", type=int, nargs="+", default=[100, 300, 600],
                        help="characters of the code shown (default: 100 300 600)")
    parser.add_argument("--frames", type=int, default=30, help="frames timed (default 30)")
    parser.add_argument("--scans", type=int, default=5, help="scans timed (default 5)")
    args = parser.parse_args()
    for length in args.length:
        print(json.dumps(measure(length, args.frames, args.scans)))


if __name__ == "__main__":
    main()
