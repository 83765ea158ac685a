// rollbook's browser entry: mounts every widget on the page (again after each Material
// instant navigation), starts the engine worker once the page is idle, follows deep links.

import * as combat from "./combat.mjs";
import * as engine from "./engine.js";
import * as deeplink from "./deeplink.js";
import * as history from "./history.js";
import * as inline from "./inline.js";
import * as instant from "./instant.js";
import * as table from "./table.js";

const IDLE_TIMEOUT_MS = 1000; // start the worker at the latest this long after load

function hasWidgets() {
  return Boolean(document.querySelector(`${inline.SELECTOR}, ${table.SELECTOR}, ${combat.SELECTOR}`));
}

function startWhenIdle() {
  if (!hasWidgets()) return;
  const idle = window.requestIdleCallback || ((callback) => setTimeout(callback, 50));
  idle(() => engine.start(), { timeout: IDLE_TIMEOUT_MS });
}

/** Mount every widget in the document; idempotent. */
export function mountAll() {
  for (const node of document.querySelectorAll(inline.SELECTOR)) inline.mount(node);
  for (const node of document.querySelectorAll(table.SELECTOR)) table.mount(node);
  for (const node of document.querySelectorAll(combat.SELECTOR)) combat.mount(node);
  history.render();
  deeplink.follow();
  if (document.readyState === "complete") startWhenIdle();
  else addEventListener("load", startWhenIdle, { once: true });
}

// Hooks for tests and benchmarks (getters: read live values, not copies).
window.rollbook = Object.defineProperties(window.rollbook || {}, {
  workerStarts: { get: () => engine.stats.workerStarts },
  readyMs: { get: () => engine.stats.readyMs },
  readyAt: { get: () => engine.stats.readyAt },
  instantClaims: { get: () => instant.stats.claims },
  ready: { value: () => engine.start() },
  request: { value: (req) => engine.request(req) },
  mountAll: { value: mountAll },
});

document.documentElement.dataset.rbEngine ??= "idle";

if (window.document$ && typeof window.document$.subscribe === "function") {
  // Material: fires for the first page and after every instant navigation.
  window.document$.subscribe(() => mountAll());
  instant.enable(); // instant navigation whatever port the site is served on
} else if (document.readyState === "loading") {
  addEventListener("DOMContentLoaded", mountAll, { once: true });
} else {
  mountAll();
}
