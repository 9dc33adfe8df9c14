// The wake lock and the update notice.

import { notice } from "./dialogs.js?b=__BUILD__";
import { $, h } from "./dom.js?b=__BUILD__";
import { awake, state, update } from "./state.js?b=__BUILD__";
import { isObj } from "./store.js?b=__BUILD__";
import { tr } from "./words.js?b=__BUILD__";

// --- plain http from another machine (kniffel web --host 0.0.0.0, opened at its LAN address)
// is no secure context: the browser gives it no service worker (no offline copy), no cache
// storage (worker.js keeps no saved engine: a full start every time) and no wake lock. The
// player is told once on this device, in their words; the start screen says why the wake lock's
// setting is missing, and the hand-off panel what the other phone will lack.
const TIPS_KEY = "kniffel.v1.tips"; // shared with game.js's tip, each field its own
export const secureContext = () => window.isSecureContext !== false;

export function tellInsecureOnce() {
  if (secureContext()) return;
  try {
    const tips = JSON.parse(localStorage.getItem(TIPS_KEY) ?? "{}");
    if (isObj(tips) && tips.insecure === true) return;
    localStorage.setItem(TIPS_KEY, JSON.stringify({ ...(isObj(tips) ? tips : {}), insecure: true }));
  } catch {
    // no storage: said on every start rather than never
  }
  notice(tr("page.lan.lacks"), "warn");
}

// --- wake lock: the table stays awake. While a game is in progress and the page is shown, the
// screen is kept on (Screen Wake Lock API), unless the setting says no. The lock goes when the
// page is hidden or the game is over, and is asked for again when the page shows while the game
// still runs. Where the API is missing or the browser refuses (no user gesture, low battery),
// the screen simply dims as it always does: nothing is shown, and a refusal is not asked again
// until the page is shown anew.

export const canKeepAwake = () => Boolean(navigator.wakeLock && typeof navigator.wakeLock.request === "function");

export function keepAwake() {
  const cur = state.current;
  const want = awake.on && canKeepAwake() && document.visibilityState === "visible"
    && Boolean(cur && cur.view && !cur.view.over);
  if (want && !awake.lock && !awake.asking && !awake.refused) {
    awake.asking = true;
    Promise.resolve().then(() => navigator.wakeLock.request("screen")).then((lock) => {
      awake.asking = false;
      awake.lock = lock;
      // the browser lets go by itself when the page is hidden
      lock.addEventListener("release", () => { if (awake.lock === lock) awake.lock = null; });
      keepAwake(); // the game may have ended, or the page gone, meanwhile
    }, () => { awake.asking = false; awake.refused = true; });
  } else if (!want && awake.lock) {
    const lock = awake.lock;
    awake.lock = null;
    Promise.resolve().then(() => lock.release()).catch(() => {});
  }
}

// --- update: a new build's service worker waits (sw.js) until the page's notice asks it to take
// over; then every page of the app reloads into it. The game and the history are in
// localStorage and carry over. On the first visit (no worker yet) nothing is announced.

export function registerWorker() {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  const sw = navigator.serviceWorker;
  const hadController = Boolean(sw.controller);
  // a page that ran under an older build reloads once a newer one is in charge
  sw.addEventListener("controllerchange", () => { if (hadController || update.asked) reloadWhenIdle(); });
  sw.register("sw.js").then((reg) => {
    const offer = () => {
      if (!reg.waiting || !sw.controller) return;
      update.reg = reg;
      drawUpdate();
    };
    offer();
    reg.addEventListener("updatefound", () => {
      const worker = reg.installing;
      if (worker) worker.addEventListener("statechange", () => { if (worker.state === "installed") offer(); });
    });
    // a page left open looks for a new build when it is shown again, and every hour
    const look = () => reg.update().catch(() => {}); // offline: no new build to find
    document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") look(); });
    setInterval(look, 3_600_000);
  }).catch(() => {});
}

function reloadWhenIdle() {
  if (state.busy) setTimeout(reloadWhenIdle, 100); // an answer of the engine on its way is kept
  else location.reload();
}

function reloadIntoUpdate() {
  const waiting = update.reg && update.reg.waiting;
  update.asked = true;
  if (waiting) waiting.postMessage("skipWaiting"); // the reload follows on controllerchange
  else reloadWhenIdle(); // it is in charge already
}

// The notice above the screen: drawn when a new build waits, again when the language changes.
export function drawUpdate() {
  let box = $("update");
  if (!update.reg || update.dismissed) {
    if (box) box.remove();
    return;
  }
  if (box && update.shown === state.lang) return;
  if (!box) {
    box = h("div", { id: "update", role: "status" });
    $("app").insertBefore(box, $("screen"));
  }
  update.shown = state.lang;
  box.replaceChildren(h("p", { class: "notice info inline" },
    h("button", { type: "button", id: "update-reload", class: "primary", onclick: reloadIntoUpdate }, tr("page.update.ready")),
    h("button", { type: "button", class: "link", "aria-label": tr("page.dialog.dismiss"),
      onclick: () => { update.dismissed = true; drawUpdate(); } }, "✕")));
}
