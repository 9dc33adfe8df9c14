// The history's IndexedDB: one record per history entry, keyed by its uid, so that years of
// games fit (localStorage holds about 180 four-player Extreme games). Only the opening, the
// reading and one transaction of changes live here; storage.js decides what is written and
// checks what is read (store.js). No DOM, no words.

export const DB = { name: "kniffel", version: 1, store: "history" };

// How long the page waits for the database to open before it keeps the history in
// localStorage instead (some WebViews never answer).
const OPEN_MS = 5000;

// The database, or why there is none: {db} or {why}. A browser without IndexedDB, one that
// refuses to open it (Firefox's private windows did, some WebViews do), one whose open is
// blocked or never answers: {why}, and the page keeps the history in localStorage.
export function openDb(idb = globalThis.indexedDB, waitMs = OPEN_MS) {
  return new Promise((resolve) => {
    let done = false;
    const end = (result) => {
      if (done) {
        if (result.db) result.db.close(); // opened too late: the page went on without it
        return;
      }
      done = true;
      resolve(result);
    };
    let request;
    try {
      if (!idb || typeof idb.open !== "function") { end({ why: "no IndexedDB" }); return; }
      request = idb.open(DB.name, DB.version);
    } catch (err) {
      end({ why: String(err) });
      return;
    }
    const timer = setTimeout(() => end({ why: "IndexedDB did not open" }), waitMs);
    request.onupgradeneeded = () => {
      const db = request.result;
      if (!db.objectStoreNames.contains(DB.store)) db.createObjectStore(DB.store, { keyPath: "uid" });
    };
    request.onsuccess = () => {
      clearTimeout(timer);
      end({ db: request.result });
    };
    request.onerror = (ev) => {
      clearTimeout(timer);
      ev.preventDefault?.();
      end({ why: String(request.error ?? "IndexedDB refused") });
    };
    request.onblocked = () => {
      clearTimeout(timer);
      end({ why: "IndexedDB blocked by another tab" });
    };
  });
}

// Every record of the history (in key order).
export function readAll(db) {
  return new Promise((resolve, reject) => {
    try {
      const req = db.transaction(DB.store, "readonly").objectStore(DB.store).getAll();
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    } catch (err) {
      reject(err);
    }
  });
}

// Write the entries ``put`` and delete the uids ``del`` in one transaction: {ok: true} once it
// completed, else {ok: false, error} and nothing of it is stored (a write that fails, such as a
// full disk's QuotaExceededError, aborts the whole transaction).
export function writeChanges(db, put, del) {
  return new Promise((resolve) => {
    let tx;
    let failed = null;
    try {
      tx = db.transaction(DB.store, "readwrite");
    } catch (err) {
      resolve({ ok: false, error: err });
      return;
    }
    tx.oncomplete = () => resolve({ ok: true });
    tx.onabort = () => resolve({ ok: false, error: failed ?? tx.error });
    const store = tx.objectStore(DB.store);
    try {
      for (const e of put) store.put(e);
      for (const uid of del) store.delete(uid);
    } catch (err) {
      failed = err;
      try {
        tx.abort();
      } catch {
        // already finished: its abort event says so
      }
    }
  });
}
