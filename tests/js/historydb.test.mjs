// The history's IndexedDB (static/historydb.js): opened, or why not (no IndexedDB, refused,
// blocked, never answering: the page keeps the history in localStorage then), and one
// transaction of changes that is stored whole or not at all.
import assert from "node:assert/strict";
import test from "node:test";

import { DB, openDb, writeChanges } from "../../src/kniffel/web/static/historydb.js?b=__BUILD__";

// A request of the browser's IndexedDB, answered by ``answer`` (called with it) after this task.
function fakeOpen(answer) {
  const opened = [];
  const idb = {
    open(name, version) {
      const req = { result: null, error: null };
      opened.push([name, version]);
      setTimeout(() => answer(req), 0);
      return req;
    },
  };
  return { idb, opened };
}

test("a browser without IndexedDB, or one that refuses to open it, keeps the history elsewhere", async () => {
  assert.deepEqual(await openDb(undefined), { why: "no IndexedDB" });
  const throwing = { open() { throw new Error("SecurityError: private window"); } };
  assert.match((await openDb(throwing)).why, /private window/);
  const { idb } = fakeOpen((req) => { req.error = "InvalidStateError"; req.onerror({}); });
  assert.deepEqual(await openDb(idb), { why: "InvalidStateError" });
  const blocked = fakeOpen((req) => req.onblocked());
  assert.match((await openDb(blocked.idb)).why, /blocked/);
  const silent = fakeOpen(() => {}); // some WebViews never answer
  assert.match((await openDb(silent.idb, 20)).why, /did not open/);
});

test("the database opens with one store of history entries keyed by uid, created once", async () => {
  const created = [];
  const db = { objectStoreNames: { contains: (n) => created.some(([x]) => x === n) },
    createObjectStore: (name, options) => created.push([name, options]) };
  const { idb, opened } = fakeOpen((req) => {
    req.result = db;
    req.onupgradeneeded();
    req.onupgradeneeded(); // (a second upgrade finds the store there)
    req.onsuccess();
  });
  assert.deepEqual(await openDb(idb), { db });
  assert.deepEqual(opened, [[DB.name, DB.version]]);
  assert.deepEqual(created, [[DB.store, { keyPath: "uid" }]]);
});

// A database whose one transaction records what was asked; ``failOn`` makes a put throw.
function fakeDb(failOn = null) {
  const log = [];
  const tx = {
    aborted: false,
    objectStore: () => ({
      put(e) {
        if (e.uid === failOn) {
          const err = new Error("the quota is exceeded");
          err.name = "QuotaExceededError";
          throw err;
        }
        log.push(["put", e.uid]);
      },
      delete(uid) { log.push(["delete", uid]); },
    }),
    abort() { tx.aborted = true; setTimeout(() => tx.onabort(), 0); },
  };
  const db = { transaction(store, mode) {
    log.push(["transaction", store, mode]);
    setTimeout(() => { if (!tx.aborted) tx.oncomplete(); }, 0);
    return tx;
  } };
  return { db, log, tx };
}

test("the history's changes are written in one transaction: every put and delete, then done", async () => {
  const { db, log } = fakeDb();
  assert.deepEqual(await writeChanges(db, [{ uid: "a" }, { uid: "b" }], ["c"]), { ok: true });
  assert.deepEqual(log, [["transaction", "history", "readwrite"], ["put", "a"], ["put", "b"], ["delete", "c"]]);
});

test("a write the full storage refuses aborts the whole transaction and says why", async () => {
  const { db, log, tx } = fakeDb("b");
  const result = await writeChanges(db, [{ uid: "a" }, { uid: "b" }, { uid: "c" }], ["d"]);
  assert.equal(result.ok, false);
  assert.equal(result.error.name, "QuotaExceededError");
  assert.equal(tx.aborted, true); // "a", already put, is not stored either
  assert.deepEqual(log.filter(([what]) => what !== "transaction"), [["put", "a"]]);
});
