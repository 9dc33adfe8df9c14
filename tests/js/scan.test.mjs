// The QR code reader's pure parts (static/scan.js): which catalog code a camera's refusal
// becomes, and the size of the canvas a frame is read at. The camera itself is tested in
// Chromium with a fake camera (tests/test_web_scan.py).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import test from "node:test";

import { FRAME_SIDE, ScanError, frameSize, refusalCode } from "../../src/kniffel/web/static/scan.js?b=__BUILD__";

const WORDS = new URL("../../src/kniffel/engine/words/", import.meta.url);
const catalog = (lang) => JSON.parse(readFileSync(new URL(`${lang}.json`, WORDS), "utf8"));
const refused = (name) => refusalCode(Object.assign(new Error("x"), { name }));

test("a camera the user or the browser's settings refuse is page.scan.refused", () => {
  for (const name of ["NotAllowedError", "SecurityError", "PermissionDeniedError"]) {
    assert.equal(refused(name), "page.scan.refused", name);
  }
});

test("no camera (or none that faces any way asked for) is page.scan.no_camera", () => {
  for (const name of ["NotFoundError", "OverconstrainedError", "DevicesNotFoundError"]) {
    assert.equal(refused(name), "page.scan.no_camera", name);
  }
});

test("a camera another app holds is page.scan.busy; anything else page.scan.failed", () => {
  for (const name of ["NotReadableError", "TrackStartError", "AbortError"]) {
    assert.equal(refused(name), "page.scan.busy", name);
  }
  assert.equal(refused("TypeError"), "page.scan.failed");
  assert.equal(refusalCode(undefined), "page.scan.failed");
  assert.equal(refusalCode(null), "page.scan.failed");
});

test("every page.scan code of the catalog is one the reader gives, in both languages", () => {
  const given = new Set(["page.scan.insecure", "page.scan.unsupported",
    ...["NotAllowedError", "NotFoundError", "NotReadableError", "x"].map(refused)]);
  for (const lang of ["de", "en"]) {
    const codes = Object.keys(catalog(lang)).filter((c) => c.startsWith("page.scan."));
    assert.deepEqual(codes.sort(), [...given].sort(), lang);
  }
});

test("a ScanError carries its catalog code and what caused it", () => {
  const cause = new Error("denied");
  const error = new ScanError("page.scan.refused", cause);
  assert.equal(error.code, "page.scan.refused");
  assert.equal(error.name, "ScanError");
  assert.equal(error.cause, cause);
  assert.ok(error instanceof Error);
});

test("a frame is read at its own shape, its longer side at most FRAME_SIDE, never enlarged", () => {
  assert.deepEqual(frameSize(1920, 1080), { width: FRAME_SIDE, height: 360 });
  assert.deepEqual(frameSize(1080, 1920), { width: 360, height: FRAME_SIDE });
  assert.deepEqual(frameSize(320, 240), { width: 320, height: 240 });
  assert.deepEqual(frameSize(1280, 960, 400), { width: 400, height: 300 });
  assert.deepEqual(frameSize(0, 0), { width: 1, height: 1 });
});
