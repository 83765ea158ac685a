// @ts-check
// rollbook's browser entry: mounts every widget on the page (again after each Material
// instant navigation), starts the engine worker once the page has painted, follows deep links.

import * as engine from "./engine.js";
import * as deeplink from "./deeplink.js";
import * as dicebox from "./dicebox.js";
import * as gm from "./gm.js";
import * as history from "./history.js";
import { t } from "./i18n.js";
import * as inline from "./inline.js";
import * as instant from "./instant.js";
import * as nested from "./nested.js";
import * as offline from "./offline.js";
import { watchEngine } from "./startup-watchdog.js";
import * as table from "./table.js";
// The rest of the page's static module graph, named here too: once the browser has read
// this file it fetches every module at once, instead of one round trip per level of
// imports (five levels: 0.3 s on a 60 ms link). tests/build/test_module_graph.py keeps
// this list whole.
import "./busy.js";
import "./chart.js";
import "./dom.js";
import "./history-store.js";
import "./inhand.js";
import "./numbers.js";
import "./pins.js";
import "./prompts.js";
import "./reader-menu.js";
import "./refs-store.js";
import "./seeds.js";
import "./site.js";
import "./storage.js";
import "./strings.js";
import "./tabs.js";
import "./variants.js";

// A hidden tab runs no animation frames; start anyway this long after the widgets mount.
const HIDDEN_FALLBACK_MS = 100;
// Fight widgets are on few pages, and theirs is our largest module: it loads only on a
// page that has one (combat.mjs exports the same selector).
const COMBAT_SELECTOR = ".rb-combat";
/** @type {Promise<typeof import("./combat.mjs")> | null} */
let combatModule = null; // promise of combat.mjs, once a page has needed it

function hasWidgets() {
  return Boolean(document.querySelector(`${inline.SELECTOR}, ${table.SELECTOR}, ${COMBAT_SELECTOR}, ${gm.SELECTOR}`));
}

/** @param {ParentNode} [scope] */
function mountFights(scope = document) {
  if (!scope.querySelector(COMBAT_SELECTOR)) return;
  combatModule ||= import("./combat.mjs");
  combatModule.then(
    (combat) => {
      for (const node of /** @type {NodeListOf<HTMLElement>} */ (scope.querySelectorAll(COMBAT_SELECTOR))) {
        combat.mount(node);
      }
    },
    () => {
      combatModule = null; // the next page (or a reload) tries again
      for (const status of scope.querySelectorAll(`${COMBAT_SELECTOR} .rb-fight-status`)) {
        status.textContent = t("combat.widget_failed");
      }
    },
  );
}

// Start the worker right after the page's first frame, not after `load` and an idle
// callback (up to a second later): the worker boots Pyodide off the main thread, so it
// cannot delay rendering, and waiting for `load` was most of the time to ready.
// The task after the frame keeps worker creation out of the frame itself.
function startAfterFirstFrame() {
  if (!hasWidgets()) return;
  // Usually the page has painted by the time the theme sets it up: no frame to wait for.
  if (performance.getEntriesByType("paint").length) return void engine.start();
  /** @type {ReturnType<typeof setTimeout> | null} */
  let fallback = null;
  const begin = () => {
    if (fallback === null) return; // the other path already started it
    clearTimeout(fallback);
    fallback = null;
    engine.start();
  };
  fallback = setTimeout(begin, HIDDEN_FALLBACK_MS);
  requestAnimationFrame(() => setTimeout(begin, 0));
}

/**
 * Mount the widgets inside `scope` (the page, or items copied onto the GM screen).
 * @param {ParentNode} scope
 */
function mountWidgets(scope) {
  /** @type {(selector: string) => NodeListOf<HTMLElement>} */
  const all = (selector) => scope.querySelectorAll(selector);
  for (const node of all(inline.SELECTOR)) inline.mount(node);
  for (const node of all(table.SELECTOR)) table.mount(node);
  for (const node of all(nested.DICE_REF_SELECTOR)) nested.mountDiceRef(node);
  mountFights(scope);
}

/** Mount every widget in the document; idempotent. */
export function mountAll() {
  mountWidgets(document);
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(gm.SELECTOR))) {
    gm.mount(node, (scope) => {
      mountWidgets(scope);
      engine.start();
    });
  }
  history.render();
  offline.afterNavigation();
  offline.render();
  offline.setup();
  dicebox.mount();
  deeplink.follow();
  startAfterFirstFrame();
}

// Hooks for tests and benchmarks (getters: read live values, not copies).
window.rollbook = Object.defineProperties(window.rollbook || {}, {
  workerStarts: { get: () => engine.stats.workerStarts },
  readyMs: { get: () => engine.stats.readyMs },
  startedAt: { get: () => engine.stats.startedAt },
  readyAt: { get: () => engine.stats.readyAt },
  readyMarks: { get: () => engine.stats.readyMarks },
  restored: { get: () => engine.stats.restored },
  snapshotChoice: { get: () => engine.stats.snapshotChoice },
  imports: { get: () => engine.stats.imports },
  instantClaims: { get: () => instant.stats.claims },
  offline: { get: () => offline.stats },
  idle: { get: () => engine.isIdle() },
  ready: { value: () => engine.start() },
  request: {
    value: (
      /** @type {import("./protocol.js").BridgeRequest} */ req,
      /** @type {{background?: boolean} | undefined} */ options,
    ) => engine.request(req, options),
  },
  mountAll: { value: mountAll },
});

document.documentElement.dataset.rbEngine ??= "idle";
watchEngine(engine.onState, engine.startFailure, () => engine.start());

if (window.document$ && typeof window.document$.subscribe === "function") {
  // Material: fires for the first page and after every instant navigation.
  window.document$.subscribe(() => mountAll());
  instant.enable(); // instant navigation whatever port the site is served on
} else if (document.readyState === "loading") {
  addEventListener("DOMContentLoaded", mountAll, { once: true });
} else {
  mountAll();
}
