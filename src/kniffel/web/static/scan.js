// The phone's camera as a QR code reader, for the codes the phones of a table show each other:
// startScan() opens the rear camera in a <video>, looks for a QR code a few times a second (the
// browser's BarcodeDetector where it has one, else the site's copy of jsQR on a small canvas) and
// hands the first code's text over, then closes the camera. A camera it cannot open is a
// ScanError whose code is a catalog code ("page.scan.*") the caller shows with tr(). No words
// here, no request to another origin: the decoder is a file of the site (vendor/jsqr.js).

// How often a frame is looked at (ms): about four a second keeps a phone cool and still reads a
// code held still within a second.
export const SCAN_EVERY_MS = 250;
// The longer side of the canvas jsQR reads (px): enough for a dense code filling half the frame
// (a version-20 code has 97 modules: 3 px each), small enough to decode a frame in tens of ms.
export const FRAME_SIDE = 640;

// A camera that could not be opened (or read), with the catalog code that says why.
export class ScanError extends Error {
  constructor(code, cause) {
    super(code, { cause });
    this.name = "ScanError";
    this.code = code;
  }
}

// The catalog code for what getUserMedia refused with (its DOMException's name): the user or the
// browser's settings said no, there is no camera, or another app holds it; anything else failed.
export function refusalCode(error) {
  switch (error?.name) {
    case "NotAllowedError":
    case "SecurityError":
    case "PermissionDeniedError":
      return "page.scan.refused";
    case "NotFoundError":
    case "OverconstrainedError":
    case "DevicesNotFoundError":
      return "page.scan.no_camera";
    case "NotReadableError":
    case "TrackStartError":
    case "AbortError":
      return "page.scan.busy";
    default:
      return "page.scan.failed";
  }
}

// The canvas size a frame of ``width`` × ``height`` is drawn at for jsQR: its shape kept, the
// longer side at most ``side`` (never enlarged).
export function frameSize(width, height, side = FRAME_SIDE) {
  const scale = Math.min(1, side / Math.max(width, height, 1));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

// The browser's own QR reader, where it has one that reads QR codes; null where it has none.
async function nativeDetector() {
  if (typeof globalThis.BarcodeDetector !== "function") return null;
  try {
    const formats = await globalThis.BarcodeDetector.getSupportedFormats();
    return formats.includes("qr_code") ? new globalThis.BarcodeDetector({ formats: ["qr_code"] }) : null;
  } catch {
    return null;
  }
}

// A reader of frames of ``video`` on a canvas with jsQR (loaded the first time it is needed):
// ``read()`` gives the text of the code in the current frame, or null.
async function canvasReader(video) {
  const { default: jsQR } = await import("./vendor/jsqr.js?b=__BUILD__");
  const canvas = document.createElement("canvas");
  const context = canvas.getContext("2d", { willReadFrequently: true });
  return {
    read() {
      if (!video.videoWidth || !video.videoHeight) return null;
      const { width, height } = frameSize(video.videoWidth, video.videoHeight);
      if (canvas.width !== width || canvas.height !== height) Object.assign(canvas, { width, height });
      context.drawImage(video, 0, 0, width, height);
      const found = jsQR(context.getImageData(0, 0, width, height).data, width, height,
        { inversionAttempts: "attemptBoth" });
      return found ? found.data : null;
    },
  };
}

// Open the rear camera in ``video`` and call ``onCode(text)`` once, with the first QR code it
// sees; the camera is closed by then. Resolves to {stop(), decoder} once the camera runs
// (``decoder``: "native" or "jsqr"; ``stop()`` closes the camera, its tracks stopped, and ends
// the scan); rejects with a ScanError where the camera cannot be opened. ``use: "jsqr"`` reads
// with jsQR even where the browser has a reader of its own.
export async function startScan(video, onCode, { use = "auto" } = {}) {
  if (!globalThis.isSecureContext) throw new ScanError("page.scan.insecure");
  if (typeof navigator.mediaDevices?.getUserMedia !== "function") throw new ScanError("page.scan.unsupported");
  let stream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" }, audio: false });
  } catch (error) {
    throw new ScanError(refusalCode(error), error);
  }
  let stopped = false;
  let timer = null;
  const stop = () => {
    stopped = true;
    clearTimeout(timer);
    for (const track of stream.getTracks()) track.stop();
    if (video.srcObject === stream) video.srcObject = null;
  };
  let detector = null;
  let reader = null;
  try {
    video.muted = true;
    video.playsInline = true;
    video.srcObject = stream;
    await video.play();
    detector = use === "jsqr" ? null : await nativeDetector();
    if (!detector) reader = await canvasReader(video);
  } catch (error) {
    stop();
    throw error instanceof ScanError ? error : new ScanError("page.scan.failed", error);
  }
  const look = async () => {
    if (stopped) return;
    let text = null;
    try {
      if (video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA) {
        text = detector ? (await detector.detect(video))[0]?.rawValue ?? null : reader.read();
      }
    } catch {
      text = null; // a frame that could not be read: the next one
    }
    if (stopped) return;
    if (text !== null && text !== "") {
      stop();
      onCode(text);
      return;
    }
    timer = setTimeout(look, SCAN_EVERY_MS);
  };
  timer = setTimeout(look, 0); // after the caller has the handle
  return { stop, decoder: detector ? "native" : "jsqr" };
}
