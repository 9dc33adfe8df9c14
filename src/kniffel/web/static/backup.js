// Keeping the history: the browser asked to keep the site's storage for good (persistent
// storage) at moments it grants it, a one-line status on the history screen, the backup of the
// whole history as one file (the phone's share sheet where there is one, else a download) and a
// reminder after each five finished games since the last backup while the browser may delete.
// Restoring is the history's import, which merges (the engine: kniffel.engine.identity).

import { notice } from "./dialogs.js?b=__BUILD__";
import { h } from "./dom.js?b=__BUILD__";
import { ask } from "./engine.js?b=__BUILD__";
import { facts, redraw, state } from "./state.js?b=__BUILD__";
import { historyStore, saveSettings } from "./storage.js?b=__BUILD__";
import { byDate, isObj, KEY, parse, settingsCheck, STORE_VERSION } from "./store.js?b=__BUILD__";
import { count, refusal, tr } from "./words.js?b=__BUILD__";

const BACKUP_KEY = "kniffel.v1.backup";
// A reminder after each this many finished games since the last backup, while the browser may
// delete the data.
export const REMIND_EVERY = 5;

// What the page knows of the browser's keeping: null (not asked yet or no storage API), true
// (kept for good), false (the browser may delete).
export const keeping = { persisted: null, asked: false };

const storageApi = () => (navigator.storage && typeof navigator.storage.persisted === "function" ? navigator.storage : null);
const installed = () => window.matchMedia?.("(display-mode: standalone)").matches || navigator.standalone === true;
// Safari deletes what a script wrote after seven days without a visit (unless on the home screen).
const safari = () => /^Apple/.test(navigator.vendor ?? "") && !installed();

// Whether the browser keeps the data for good (asked once at the start).
export async function checkKept() {
  const api = storageApi();
  if (!api) return;
  try {
    keeping.persisted = await api.persisted();
  } catch {
    keeping.persisted = null;
  }
  if (!keeping.persisted && installed()) await askToKeep(); // on the home screen: granted
  if (state.screen === "history") redraw();
}

// Ask the browser to keep the data for good: after a finished game (the first one the player
// sees finish here) and when the app runs installed; never before the player did anything.
export async function askToKeep() {
  const api = storageApi();
  if (!api || typeof api.persist !== "function" || keeping.persisted || keeping.asked) return;
  keeping.asked = true;
  try {
    keeping.persisted = await api.persist();
  } catch {
    keeping.persisted = false; // refused: the status line says so, and what to do
  }
  if (state.screen === "history") redraw();
}

// The last backup: {version, at, finished} (the number of finished games it held), or null.
export function lastBackup() {
  try {
    const d = JSON.parse(localStorage.getItem(BACKUP_KEY));
    return d && d.version === 1 && typeof d.at === "string" && Number.isInteger(d.finished) ? d : null;
  } catch {
    return null;
  }
}

const finishedGames = () => state.history.filter((e) => e.summary && e.summary.over).length;

// Finished games since the last backup, when the browser may delete the data and the reminder is
// due (each REMIND_EVERY of them); else 0.
export function backupDue() {
  if (keeping.persisted === true) return 0;
  const since = finishedGames() - (lastBackup()?.finished ?? 0);
  return since >= REMIND_EVERY ? since : 0;
}

// The history screen's line: whether the browser keeps the games, the reminder, "Sichern".
export function drawKeeping() {
  // (no IndexedDB: the games are in localStorage, which a private window forgets, and few fit)
  const status = historyStore.kind === "local" ? tr("page.keep.no_database")
    : keeping.persisted === true ? tr("page.keep.kept")
    : keeping.persisted === false ? `${tr("page.keep.may_delete")} ${tr(safari() ? "page.keep.safari" : "page.keep.what_to_do")}`
      : tr("page.keep.unknown");
  const wrap = h("div", { class: "keeping", id: "keeping" },
    h("p", { id: "keep-status", class: "hint" }, status));
  const due = backupDue();
  if (due) {
    wrap.append(h("p", { class: "notice", id: "backup-reminder", role: "status" },
      count("page.backup.remind", due)));
  }
  const last = lastBackup();
  wrap.append(h("p", { class: "controls" },
    h("button", { type: "button", id: "backup", onclick: backup, disabled: !state.ready || !state.history.length }, tr("page.backup.button")),
    last ? h("span", { class: "hint", id: "backup-last" }, " ", count("page.backup.last", last.finished)) : null));
  return wrap;
}

// The whole history (games, settings, names) as one file: shared where the phone can share
// files, else downloaded; remembered as the last backup once it went out.
export async function backup() {
  const reply = await ask({ op: "export_history", entries: byDate(state.history) });
  if (!reply.ok) { notice(tr("page.backup.failed", { why: refusal(reply.error) }), "warn"); return; }
  const data = { ...reply.file, settings: state.setup ?? null };
  const name = `kniffel-sicherung-${new Date().toISOString().slice(0, 10)}.json`;
  // compact: a 1,000-game history takes less than half the size it takes with line breaks
  const file = new File([JSON.stringify(data)], name, { type: "application/json" });
  try {
    if (navigator.canShare && navigator.canShare({ files: [file] })) {
      await navigator.share({ files: [file], title: tr("page.backup.title") });
    } else {
      const a = h("a", { href: URL.createObjectURL(file), download: name });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(a.href), 1000);
    }
  } catch (err) {
    // the share sheet closed without sharing: nothing went out, nothing is remembered
    if (err && err.name === "AbortError") return;
    notice(tr("page.backup.failed", { why: String(err) }), "warn");
    return;
  }
  const games = reply.file.games.length;
  try {
    localStorage.setItem(BACKUP_KEY, JSON.stringify({ version: 1, at: new Date().toISOString(), finished: finishedGames() }));
  } catch {
    // not remembered (storage full): the reminder comes again; the file went out all the same
  }
  notice(count("page.backup.done", games));
  redraw();
}

// A restored backup's settings (the setup with the players' names), taken where this phone has
// none of its own stored (a new phone); never over the player's own. Whether they were taken.
export function restoreSettings(text) {
  const data = parse(text);
  if (!isObj(data) || !isObj(data.settings)) return false;
  let own = null;
  try {
    own = localStorage.getItem(KEY.settings);
  } catch {
    return false; // storage switched off: nothing to restore into
  }
  if (own !== null || settingsCheck(facts.max_players)({ version: STORE_VERSION, setup: data.settings }, "")) return false;
  state.setup = data.settings;
  saveSettings();
  return true;
}
