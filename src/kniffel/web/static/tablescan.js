// The camera at the table (issue 34): the box in the table's panel where a phone reads the other
// phone's code with its camera (scan.js): the guest the table's code, the host a guest's answer.
// scanCode() opens the box above the panel's own fields (the paste field stays: the way in when
// there is no camera, or it is refused) and resolves with the text read, which the table then
// takes exactly as a pasted code. The camera is closed when a code is read, when the box is
// cancelled, when the panel closes or shows something else, and when the page is hidden (a phone
// put away, another app in front): then the scan resolves with null. A camera that cannot be
// opened is said in the box with the catalog's sentence of its code (page.scan.*).

import { $, h } from "./dom.js?b=__BUILD__";
import { startScan } from "./scan.js?b=__BUILD__";
import { tr } from "./words.js?b=__BUILD__";

let current = null; // the scan in progress: {box, end(text)} (one at a time)

// The box's element (where it is shown): for tests and the page's styles.
export const BOX_ID = "table-scan-box";

// Read a code with the camera in the open panel: the text read, or null where the scan ended
// without one (cancelled, the panel closed or changed, the page hidden, the camera refused).
// ``timing`` (optional) gets ``scanStarted`` and ``scanRead`` (performance.now(), ms).
export function scanCode(timing = null) {
  if (current) current.end(null); // a scan asked again starts afresh
  $(BOX_ID)?.remove(); // and a refusal said before goes
  const panel = $("panel");
  const body = $("panel-body");
  const video = h("video", { id: `${BOX_ID}-video`, playsinline: true, muted: true, autoplay: true });
  const line = h("p", { id: `${BOX_ID}-note`, class: "hint", role: "status" }, tr("page.table.scan_hint"));
  const cancel = h("button", { type: "button", id: `${BOX_ID}-cancel` }, tr("page.dialog.cancel"));
  const box = h("div", { id: BOX_ID, class: "scan" }, video, line, cancel);
  body.prepend(box);
  // the button lies at the panel's foot, the box at its head: the box is scrolled into view
  box.scrollIntoView({ block: "nearest" });
  if (timing) timing.scanStarted = performance.now();
  return new Promise((resolve) => {
    let scan = null;
    let done = false;
    // the panel replaced by another's (showPanel) or emptied: the box is gone, the camera closes
    const watch = new MutationObserver(() => { if (!box.isConnected) end(null); });
    const hidden = () => { if (document.visibilityState === "hidden") end(null); };
    const closed = () => end(null);
    function end(text, keepBox = false) {
      if (done) return;
      done = true;
      if (current && current.box === box) current = null;
      scan?.stop();
      watch.disconnect();
      document.removeEventListener("visibilitychange", hidden);
      panel.removeEventListener("close", closed);
      if (!keepBox) box.remove();
      resolve(text);
    }
    current = { box, end };
    cancel.onclick = () => end(null);
    watch.observe(body, { childList: true });
    document.addEventListener("visibilitychange", hidden);
    panel.addEventListener("close", closed);
    startScan(video, (text) => {
      if (timing) timing.scanRead = performance.now();
      end(text);
    }).then((started) => {
      scan = started;
      if (done) started.stop(); // ended while the camera was opening
    }, (error) => {
      // no camera: its sentence in the box (the paste field below is the way in), the box
      // closed by its ✕ beside it, as a notice is (a second "Schließen" above the panel's own
      // read as closing the panel); the scan has ended
      video.remove();
      line.className = "notice warn";
      line.setAttribute("role", "alert");
      line.textContent = tr(error?.code ?? "page.scan.failed");
      box.classList.add("said");
      cancel.className = "link";
      cancel.textContent = "✕";
      cancel.setAttribute("aria-label", tr("page.dialog.dismiss"));
      cancel.onclick = () => box.remove();
      end(null, true);
    });
  });
}
