// @ts-check
// rollbook's offline reading is turned off for this site (or it is served by
// `mkdocs serve`): this worker replaces the one a reader may have, deletes its caches and
// unregisters itself, so every page comes from the network again.

/** This script runs as a service worker (tsc's WebWorker lib types `self` as any worker). */
const sw = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

sw.addEventListener("install", () => sw.skipWaiting());

sw.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const prefix = `rollbook:${new URL(sw.registration.scope).pathname}:`;
      for (const name of await caches.keys()) {
        if (name.startsWith(prefix)) await caches.delete(name);
      }
      await sw.registration.unregister();
    })(),
  );
});
