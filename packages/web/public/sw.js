/*
 * Lattice's service worker: keeps the app shell for offline start and
 * installability, and nothing else. On install it precaches the page and
 * the hashed /assets/ files the page references (read from the built
 * index.html); navigations are network-first with the cached page as the
 * fallback; /assets/ files are cache-first (their names change with their
 * content). Matrix API, media and any other origin's responses are never
 * cached: requests outside the shell pass straight to the network. A new
 * version waits until the page asks it to take over (SKIP_WAITING), then
 * old caches are deleted.
 */
const VERSION = "lattice-shell-v1";
const SHELL = ["/", "/manifest.webmanifest", "/icons/icon.svg", "/icons/icon-192.png", "/icons/icon-512.png"];

/** Same-origin paths the worker never touches (the API and media, wherever a proxy puts them). */
function isExcluded(url) {
  return (
    url.pathname.startsWith("/_matrix/") ||
    url.pathname.startsWith("/_synapse/") ||
    url.pathname.startsWith("/_lattice/")
  );
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(VERSION);
      const page = await fetch("/", { cache: "no-cache" });
      const html = await page.clone().text();
      const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
      await cache.put("/", page);
      await cache.addAll([...new Set([...SHELL.slice(1), ...assets])]);
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) if (key !== VERSION) await caches.delete(key);
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "SKIP_WAITING") void self.skipWaiting();
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || isExcluded(url)) return;
  if (request.mode === "navigate") {
    event.respondWith(
      fetch(request).catch(async () => (await caches.match("/", { cacheName: VERSION })) ?? Response.error()),
    );
    return;
  }
  if (url.pathname.startsWith("/assets/") || SHELL.includes(url.pathname)) {
    event.respondWith(
      (async () => {
        const cached = await caches.match(request, { cacheName: VERSION });
        if (cached) return cached;
        const response = await fetch(request);
        if (response.ok && url.pathname.startsWith("/assets/")) {
          const cache = await caches.open(VERSION);
          await cache.put(request, response.clone());
        }
        return response;
      })(),
    );
  }
});
