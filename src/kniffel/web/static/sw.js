// Service worker: keeps every file of this build so the app works offline after the first visit.
// A new build never takes over a page that runs: it waits until the page's update notice asks it
// to ("skipWaiting", then the page reloads) or until no page of the app is open any more. The
// game itself lives in localStorage and carries over from one build to the next.
const BUILD = "__BUILD__";
const ASSETS = __ASSETS__;
// Builds that wait for the page to ask keep their files under "kniffel-site-2-<build>"; the
// releases before kept them under "kniffel-site-<build>" and took over every page at once.
const CACHE = `kniffel-site-2-${BUILD}`;
const isLegacy = (key) => /^kniffel-site-[0-9a-f]+$/.test(key);

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    await (await caches.open(CACHE)).addAll(ASSETS);
    // A page of a release before this one has no update notice: this build takes over at once
    // (and reloads that page once it is active, below) instead of waiting for a button it lacks.
    if ((await caches.keys()).some(isLegacy)) await self.skipWaiting();
  })());
});

self.addEventListener("message", (event) => {
  if (event.data === "skipWaiting") self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    let legacy = false;
    for (const key of await caches.keys()) {
      if (!key.startsWith("kniffel-site-") || key === CACHE) continue;
      legacy ||= isLegacy(key);
      await caches.delete(key);
    }
    await self.clients.claim();
    if (!legacy) return; // the first visit, or a page that asked and reloads by itself
    // A page of an older release would go on with its old code under this build's files: it is
    // reloaded into this build (its game is stored, nothing is lost).
    for (const client of await self.clients.matchAll({ type: "window" })) {
      client.navigate(client.url).catch(() => {});
    }
  })());
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const hit = await cache.match(event.request, { ignoreSearch: true });
    if (hit) return hit;
    const response = await fetch(event.request);
    return response;
  })());
});
