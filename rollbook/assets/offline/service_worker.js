// @ts-check
// The site's files, each as {hash, size, kind} (the start of its content hash, its size and
// what it is for), come first: BUILD, written by the build (its types, `OfflineBuild` and
// `FileKind`, are in types/service-worker.d.ts). The snapshot is kept once the page says the
// engine started from it (so it is in the browser's cache already), or by "Save" unless the
// reader saves data. Every listed file is answered from this version's cache first, so a reader always sees
// one build as a whole, and nothing is kept whose bytes do not match the listed hash (a
// download, a page served while browsing and a copy from an older version alike). A
// redeployed site changes this file, the browser installs the new version beside this one
// (files whose hash did not change are copied over, checked, not fetched again), the new
// one takes over and tells the pages, and the old caches are deleted.
// Anything not listed (another site on the origin, live reload) goes to the network.

/** This script runs as a service worker (tsc's WebWorker lib types `self` as any worker). */
const sw = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));
const SCOPE = new URL(sw.registration.scope);

/** @typedef {import("../shared/protocol.js").FromServiceWorker} FromServiceWorker */
/** @typedef {import("../shared/protocol.js").ToServiceWorker} ToServiceWorker */

/**
 * Post one message to a page (the contract: protocol.js `FromServiceWorker`).
 * @param {Client | ServiceWorker | MessagePort} client
 * @param {FromServiceWorker} message
 */
function tell(client, message) {
  client.postMessage(message);
}
const PREFIX = `rollbook:${SCOPE.pathname}:`;
const CACHE = PREFIX + BUILD.version;
const HASH = "x-rollbook-hash"; // header on cached copies: which version of the file it is
const PARALLEL = 4;
// Kept in a cache once "save" got every file: the next version saves everything again.
const SAVED_MARK = new URL("rollbook-offline-saved", SCOPE).href;

/**
 * The listed path of a URL in scope ("rules/" -> "rules/index.html"), or null.
 * @param {URL} url
 * @returns {string | null}
 */
function pathOf(url) {
  if (url.origin !== SCOPE.origin || !url.pathname.startsWith(SCOPE.pathname)) return null;
  let path;
  try {
    path = decodeURIComponent(url.pathname.slice(SCOPE.pathname.length));
  } catch {
    return null;
  }
  return path === "" || path.endsWith("/") ? `${path}index.html` : path;
}

/**
 * The one URL a listed path is cached under.
 * @param {string} path
 */
function urlOf(path) {
  return new URL(path.replace(/[%?#]/g, encodeURIComponent), SCOPE).href;
}

/** @param {ArrayBuffer} buffer */
async function sha(buffer) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", buffer));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Whether `bytes` are the file the listing names by `hash` (the start of its SHA-256).
 * @param {ArrayBuffer} bytes
 * @param {string} hash
 */
async function matches(bytes, hash) {
  return (await sha(bytes)).startsWith(hash);
}

/**
 * A copy of `response` to keep, marked with the listed hash (body: a stream or bytes).
 * @param {Response} response
 * @param {string} hash
 * @param {BodyInit | null} [body]
 */
function keepable(response, hash, body = response.body) {
  const headers = new Headers(response.headers);
  headers.delete("content-encoding"); // the body is already decoded
  headers.delete("content-length");
  headers.set(HASH, hash);
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

/** @param {Response | undefined} response */
function usable(response) {
  return response?.ok && !response.redirected && response.type === "basic";
}

/** This version's cache, or null once a newer version deleted it (so it is not made again). */
async function ownCache() {
  return (await caches.has(CACHE)) ? caches.open(CACHE) : null;
}

async function olderCaches() {
  const names = (await caches.keys()).filter((name) => name.startsWith(PREFIX) && name !== CACHE);
  return Promise.all(names.map((name) => caches.open(name)));
}

/**
 * Put one listed file into `cache`: nothing to do if it is there, copied from an older
 * version's cache if the hash is the same there, else downloaded (again, bypassing the
 * HTTP cache, if what came was not the listed file). Resolves to its size, or rejects.
 * @param {Cache} cache
 * @param {string} path
 * @param {Cache[]} older
 * @returns {Promise<number>}
 */
async function store(cache, path, older) {
  const { hash, size } = BUILD.files[path];
  const url = urlOf(path);
  const present = await cache.match(url);
  if (present && present.headers.get(HASH) === hash) return size;
  for (const old of older) {
    // An older version's copy is checked like a download: a worker before this check
    // kept pages it had not compared, and one of those must not live on here.
    const copy = await old.match(url);
    const bytes = copy && copy.headers.get(HASH) === hash ? await copy.arrayBuffer() : null;
    if (copy && bytes && (await matches(bytes, hash))) {
      await cache.put(url, keepable(copy, hash, bytes));
      return size;
    }
  }
  // The browser's cache first, however old: the page has usually just downloaded these
  // files (the engine's 7 MB snapshot among them), and the hash says whether a copy is
  // this version's. A copy that is not is fetched again past every cache on the way.
  let response = await fetch(url, { cache: "force-cache" });
  let body = usable(response) ? await response.arrayBuffer() : null;
  if (body && !(await matches(body, hash))) {
    response = await fetch(url, { cache: "no-cache" });
    body = usable(response) ? await response.arrayBuffer() : null;
    // Still not the listed file (a deployment under way, a damaged copy): never kept, so
    // a later visit fetches it again instead of serving it for ever.
    if (body && !(await matches(body, hash))) throw new Error(`${path} is not the listed file`);
  }
  if (!body) throw new Error(`${path} answered ${response.status}`);
  await cache.put(url, keepable(response, hash, body));
  return size;
}

/**
 * Run `work(path)` over `paths`, a few at a time; resolves to the failures.
 * @param {Iterable<string>} paths
 * @param {(path: string) => Promise<unknown>} work
 */
async function each(paths, work) {
  const queue = [...paths];
  /** @type {string[]} */
  const failed = [];
  const lane = async () => {
    for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
      try {
        await work(path);
      } catch {
        failed.push(path);
      }
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, lane));
  return failed;
}

/**
 * The listed paths of the given kinds.
 * @param {FileKind[]} kinds
 */
function listed(kinds) {
  return Object.keys(BUILD.files).filter((path) => kinds.includes(BUILD.files[path].kind));
}

// The snapshot is left for later when the reader saves data or the browser calls the link
// 2g/3g: the page's own start skips it there too (assets/linkspeed.js), and 7 MB in the
// background would slow every page the reader opens next.
function saveData() {
  const connection = sw.navigator?.connection;
  if (!connection) return false;
  return Boolean(connection.saveData) || /^(slow-2g|2g|3g)$/.test(connection.effectiveType || "");
}

sw.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      const older = await olderCaches();
      // The snapshot is kept when the page reports the engine started from it.
      const engine = listed(["engine", "shell"]);
      const failed = await each(engine, (path) => store(cache, path, older));
      if (failed.length) throw new Error(`could not cache ${failed.join(", ")}`);
      // What the reader kept of an older version, in this version: the same pages and
      // files, or every one if they had saved the whole site.
      let saved = false;
      const kept = new Set();
      for (const old of older) {
        for (const request of await old.keys()) {
          if (request.url === SAVED_MARK) saved = true;
          const path = pathOf(new URL(request.url));
          if (path !== null && BUILD.files[path] && !engine.includes(path)) kept.add(path);
        }
      }
      if (saved) for (const path of listed(["page", "other"])) kept.add(path);
      const missed = await each(kept, (path) => store(cache, path, older));
      if (saved && !missed.length) await cache.put(SAVED_MARK, new Response("saved"));
      await sw.skipWaiting();
    })(),
  );
});

sw.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
      }
      await sw.clients.claim();
      // Pages an older version served hear of it even if they start after the takeover
      // (the browser holds the message until the page has parsed).
      for (const client of await sw.clients.matchAll({ type: "window" })) {
        tell(client, { type: "updated", version: BUILD.version });
      }
    })(),
  );
});

/** What a page that is neither cached nor reachable shows. */
function offlinePage() {
  const home = SCOPE.href;
  const html = `<!doctype html><html lang="en"><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Not saved for offline reading</title>
<body style="font-family: system-ui, sans-serif; max-width: 36rem; margin: 2rem auto; padding: 0 1rem">
<h1>Not saved for offline reading</h1>
<p>You are offline, and this page was not kept on this device. Pages you have opened before
are; <a href="${home}">go to the home page</a> or back, and next time you are online use
"Save this site for offline use" in the Rolls tray to keep every page.</p></body></html>`;
  return new Response(html, {
    status: 503,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
  });
}

// A request that asks for a fresh copy (a reload; the page checking the manifest) goes to
// the network first, but a connection that stalls does not keep a kept copy from showing.
const FRESH = ["no-cache", "reload", "no-store"];
const STALLED_MS = 4000;

/**
 * The network's answer, or after STALLED_MS the kept copy if there is one.
 * @param {Request} request
 * @param {Promise<Response | undefined>} kept
 */
async function networkFirst(request, kept) {
  const network = fetch(request);
  network.catch(() => {}); // a failure is seen below, or the kept copy was used
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  /** @type {Promise<Response>} */
  const stalled = new Promise((resolve) => {
    timer = setTimeout(() => kept.then((copy) => copy && resolve(copy)), STALLED_MS);
  });
  try {
    return await Promise.race([network, stalled]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * @param {FetchEvent} event
 * @param {string} path  listed
 */
async function answer(event, path) {
  const cache = await ownCache();
  const url = urlOf(path);
  const fresh = FRESH.includes(event.request.cache);
  const hit = cache && !fresh && (await cache.match(url));
  if (hit) return hit;
  const kept = () => (cache ? cache.match(url) : Promise.resolve(undefined));
  let response;
  try {
    response = fresh ? await networkFirst(event.request, kept()) : await fetch(event.request);
  } catch (error) {
    const copy = await kept();
    if (copy) return copy;
    if (BUILD.files[path].kind === "page" || event.request.mode === "navigate") return offlinePage();
    throw error;
  }
  // Kept only if it is the file this version lists: a page changed on the server since the
  // build (an edit by hand, a newer deployment on its way) is shown but not kept, so it is
  // never served again from here once the server has the listed one back.
  if (cache && !fresh && usable(response)) {
    const hash = BUILD.files[path].hash;
    event.waitUntil(keepIfListed(cache, url, response.clone(), hash).catch(() => {}));
  }
  return response;
}

/**
 * @param {Cache} cache
 * @param {string} url
 * @param {Response} response
 * @param {string} hash
 */
async function keepIfListed(cache, url, response, hash) {
  const bytes = await response.arrayBuffer();
  if (await matches(bytes, hash)) await cache.put(url, keepable(response, hash, bytes));
}

sw.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || request.headers.has("range")) return;
  const path = pathOf(new URL(request.url));
  if (path !== null && BUILD.files[path]) {
    event.respondWith(answer(event, path));
  } else if (request.mode === "navigate" && path !== null) {
    event.respondWith(fetch(request).catch(() => offlinePage()));
  }
});

/**
 * Sizes of what this version holds, and of the whole site.
 * @returns {Promise<FromServiceWorker & {type: "status"}>}
 */
async function status() {
  const cache = await ownCache();
  const cached = new Set();
  for (const request of cache ? await cache.keys() : []) cached.add(pathOf(new URL(request.url)));
  /** @type {(kinds: FileKind[], only?: boolean) => string[]} */
  const count = (kinds, only) => listed(kinds).filter((path) => !only || cached.has(path));
  /** @type {(paths: string[]) => number} */
  const bytes = (paths) => paths.reduce((sum, path) => sum + BUILD.files[path].size, 0);
  /** @type {FileKind[]} */
  const wholeSite = ["engine", "snapshot", "shell", "page", "other"];
  const site = count(wholeSite);
  const held = count([...wholeSite, "later"], true);
  return {
    type: "status",
    version: BUILD.version,
    pages: count(["page"]).length,
    pagesHeld: count(["page"], true).length,
    siteBytes: bytes(site),
    heldBytes: bytes(held),
    saved: site.every((path) => cached.has(path) || (BUILD.files[path].kind === "snapshot" && saveData())),
  };
}

/**
 * Cache every page and every file they use; tell `client` how far it got.
 * @param {Client | ServiceWorker | MessagePort} client
 */
async function saveAll(client) {
  const cache = await ownCache();
  if (!cache) return; // a newer version took over: it answers the page from now on
  /** @type {FileKind[]} */
  const kinds = ["engine", "shell", "page", "other"];
  const paths = listed(saveData() ? kinds : [...kinds, "snapshot"]);
  const total = paths.reduce((sum, path) => sum + BUILD.files[path].size, 0);
  let done = 0;
  let last = 0;
  const failed = await each(paths, async (path) => {
    const size = await store(cache, path, []); // (`done += await` would race the other lanes)
    done += size;
    if (done - last > total / 100 || done === total) {
      last = done;
      tell(client, { type: "progress", done, total });
    }
  });
  if (!failed.length) await cache.put(SAVED_MARK, new Response("saved"));
  tell(client, { ...(await status()), type: "saved", failed: failed.length });
}

sw.addEventListener("message", (event) => {
  const data = /** @type {Partial<ToServiceWorker> & {urls?: unknown}} */ (event.data || {});
  const client = event.source;
  if (!client) return;
  if (data.type === "status") {
    event.waitUntil(status().then((reply) => tell(client, reply)));
  } else if (data.type === "save") {
    event.waitUntil(saveAll(client));
  } else if (data.type === "visited" && Array.isArray(data.urls)) {
    // The page and what it loaded before this worker controlled it.
    event.waitUntil(
      ownCache().then(async (cache) => {
        if (!cache) return;
        const paths = new Set();
        for (const href of /** @type {unknown[]} */ (data.urls)) {
          let path = null;
          try {
            path = pathOf(new URL(String(href)));
          } catch {
            // not a URL
          }
          if (path !== null && BUILD.files[path]) paths.add(path);
        }
        await each(paths, (path) => store(cache, path, []));
        tell(client, await status());
      }),
    );
  }
});
