// rollbook's offline reading is turned off for this site (or it is served by
// `mkdocs serve`): this worker replaces the one a reader may have, deletes its caches and
// unregisters itself, so every page comes from the network again.

self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const prefix = `rollbook:${new URL(self.registration.scope).pathname}:`;
      for (const name of await caches.keys()) {
        if (name.startsWith(prefix)) await caches.delete(name);
      }
      await self.registration.unregister();
    })(),
  );
});
