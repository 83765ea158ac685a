// @ts-check
// Reading offline: registers the site's service worker (rollbook-sw.js at the site's root,
// written by the build), shows the save button (catalogue key offline.save) with its progress in the
// history tray, and a "new version: reload" notice when an updated site takes over. When
// the manifest says `"offline": false` (the site turned it off, or `mkdocs serve`) it
// removes a worker and caches a reader may still have. What is cached when:
// docs/reading-offline.md.

import * as engine from "./engine.js";
import { numberText, t } from "./i18n.js";
import { el } from "./dom.js";
import { SITE_BASE } from "./site.js";
import * as storage from "./storage.js";

const MANIFEST_URL = new URL("./manifest.json", import.meta.url);
// The site's root: the worker's scope.
const ROOT = new URL(SITE_BASE);
const PREFIX = `rollbook:${ROOT.pathname}:`; // the worker's cache names
const SECTION_ID = "rb-offline";
const UPDATE_CHECK_MS = 60_000;

/** @typedef {import("./protocol.js").ToServiceWorker} ToServiceWorker */
/** @typedef {import("./protocol.js").FromServiceWorker} FromServiceWorker */
/** @typedef {import("./protocol.js").OfflineStatus} OfflineStatus */

/**
 * `state`: what <html data-rb-offline> says; the rest is the worker's last status.
 * @type {{state: string, status: (OfflineStatus & {type: string}) | null,
 *   progress: {done: number, total: number} | null}}
 */
export const stats = { state: "idle", status: null, progress: null };
/** @type {Promise<void> | null} */
let setupDone = null; // promise of setup(), once per document
/**
 * What this module reads of the engine's manifest: where the site's offline worker is
 * (false: offline reading is off) and the snapshot's file.
 * @type {{offline?: {worker: string} | false, snapshot?: unknown} | null}
 */
let manifest = null;
let lastUpdateCheck = 0;
/** @type {Set<string>} */
const opened = new Set(); // pages shown in this document, instant navigations included
// Whether a service worker served this document (one of an older version, if one takes over).
const servedByWorker = supported() && Boolean(navigator.serviceWorker.controller);

/** @param {string} state */
function setState(state) {
  stats.state = state;
  document.documentElement.dataset.rbOffline = state;
  render();
}

function supported() {
  return "serviceWorker" in navigator && window.isSecureContext && "caches" in window;
}

/**
 * Whether the reader removed the offline copy of this site ("1"; "0" once saved again).
 * The flag of older versions was one for the whole origin, so a site that has no flag of
 * its own yet takes that one's word (and leaves it for the others).
 */
function removed() {
  let flag = storage.readText("offline-removed");
  if (flag === null) {
    flag = storage.readShared(storage.SHARED_KEYS.offlineRemoved) === "1" ? "1" : "0";
    storage.writeText("offline-removed", flag);
  }
  return flag === "1";
}

/**
 * Remember that the reader removed (or saved again) the offline copy; storage disabled:
 * the choice lasts this visit.
 * @param {boolean} yes
 */
function setRemoved(yes) {
  storage.writeText("offline-removed", yes ? "1" : "0");
}

async function ourRegistration() {
  const registration = await navigator.serviceWorker.getRegistration(ROOT.href);
  return registration && registration.scope === ROOT.href ? registration : null;
}

/** Unregister this site's worker and delete its caches (other sites on the origin keep theirs). */
async function removeAll() {
  const registration = await ourRegistration();
  if (registration) await registration.unregister();
  for (const name of await caches.keys()) {
    if (name.startsWith(PREFIX)) await caches.delete(name);
  }
}

function whenLoaded() {
  if (document.readyState === "complete") return Promise.resolve();
  return new Promise((resolve) => addEventListener("load", resolve, { once: true }));
}

/** Resolves once the engine has finished starting, if it is starting: its downloads come first. */
function whenEngineSettled() {
  return /** @type {Promise<void>} */ (
    new Promise((resolve) => {
      const settled = () => document.documentElement.dataset.rbEngine !== "starting";
      if (settled()) return resolve();
      const stop = engine.onState(() => {
        if (!settled()) return;
        stop();
        resolve();
      });
    })
  );
}

/**
 * Post one message to the worker that controls the page (protocol.js `ToServiceWorker`).
 * @param {ToServiceWorker} message
 */
function post(message) {
  const controller = navigator.serviceWorker.controller;
  if (controller) controller.postMessage(message);
}

/**
 * Resolves once `worker` is active; rejects if it is dropped (a failed install).
 * @param {ServiceWorker} worker
 */
function activated(worker) {
  return /** @type {Promise<void>} */ (
    new Promise((resolve, reject) => {
      const check = () => {
        if (worker.state === "activated") resolve();
        else if (worker.state === "redundant") reject(new Error("the offline worker did not install"));
        else return;
        worker.removeEventListener("statechange", check);
      };
      worker.addEventListener("statechange", check);
      check();
    })
  );
}

/** Register the worker and wait until it controls this page. */
async function register() {
  const offline = manifest?.offline;
  if (!offline) throw new Error("the site has no offline worker");
  const url = new URL(offline.worker, MANIFEST_URL);
  const registration = await navigator.serviceWorker.register(url, {
    scope: ROOT.href,
    updateViaCache: "none",
  });
  const worker = registration.installing || registration.waiting || registration.active;
  if (!worker) throw new Error("the offline worker did not install");
  await activated(worker);
  if (!navigator.serviceWorker.controller) {
    await new Promise((resolve) =>
      navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true }),
    );
  }
  lastUpdateCheck = Date.now();
  return registration;
}

/** The pages and what they loaded before the worker controlled them: pages opened are kept. */
function visitedUrls() {
  const urls = [...opened];
  for (const entry of performance.getEntriesByType("resource")) urls.push(entry.name);
  // The snapshot is the engine worker's download, not the page's: kept when the engine
  // started from it (then it is in the browser's cache already), never fetched for this
  // on a link where the engine chose to start without it.
  const choice = engine.stats.snapshotChoice;
  if (choice?.use && manifest && typeof manifest.snapshot === "string") {
    urls.push(new URL(manifest.snapshot, MANIFEST_URL).href);
  }
  return urls.filter((url) => url.startsWith(ROOT.href));
}

/** @param {MessageEvent} event */
function onMessage(event) {
  const data = /** @type {FromServiceWorker} */ (event.data || {});
  // A new version took over a page an older one served; a first registration taking over
  // a page no worker served is not news.
  if (data.type === "updated" && servedByWorker) showUpdateNotice();
  else if (data.type === "status" || data.type === "saved") {
    stats.status = data;
    if (data.type === "saved") {
      stats.progress = null;
      setState(data.failed ? "partial" : "saved");
    } else if (stats.state !== "saving") {
      setState(data.saved ? "saved" : "ready");
    }
  } else if (data.type === "progress") {
    stats.progress = data;
    render();
  }
}

// From the moment this module runs (the page's other set-up waits for the engine): the
// worker's messages, among them a new version's "updated", which the browser holds until
// the document has parsed, so a takeover faster than the page's own start is not missed.
if (supported()) navigator.serviceWorker.addEventListener("message", onMessage);

/** Once per document: read the manifest, then register, or remove what is left. */
export function setup() {
  if (setupDone) return setupDone;
  setupDone = (async () => {
    if (!supported()) return setState("unsupported");
    await whenLoaded();
    await whenEngineSettled();
    try {
      // Asked of the server each time (cheap when unchanged): a copy the browser kept from
      // before a redeploy would register a worker the site no longer wants.
      const response = await fetch(MANIFEST_URL, { cache: "no-cache" });
      manifest = await response.json();
    } catch {
      return setState("error");
    }
    if (!manifest?.offline) {
      await removeAll().catch(() => {});
      return setState("off");
    }
    if (removed()) return setState("removed");
    try {
      // A worker already in place keeps itself up to date: registering again could revive
      // one that is on its way out.
      if (!navigator.serviceWorker.controller) await register();
    } catch {
      return setState("error");
    }
    setState("ready");
    post({ type: "visited", urls: visitedUrls() });
  })().catch(() => setState("error"));
  return setupDone;
}

/** On every page shown (instant navigation too): note it, look for a new version now and then. */
export function afterNavigation() {
  opened.add(location.href);
  if (stats.state === "idle" || stats.state === "off" || stats.state === "unsupported") return;
  if (Date.now() - lastUpdateCheck < UPDATE_CHECK_MS) return;
  lastUpdateCheck = Date.now();
  ourRegistration()
    .then((registration) => registration?.update())
    .catch(() => {});
}

async function save() {
  setRemoved(false);
  stats.progress = { done: 0, total: 0 };
  setState("saving");
  try {
    if (!navigator.serviceWorker.controller) await register();
    if (navigator.storage?.persist) navigator.storage.persist().catch(() => {});
    post({ type: "save" });
  } catch {
    stats.progress = null;
    setState("error");
  }
}

async function remove() {
  setRemoved(true);
  await removeAll().catch(() => {});
  stats.status = null;
  setState("removed");
}

/** @param {number} bytes */
function megabytes(bytes) {
  return t("offline.megabytes", { count: numberText((bytes / 1e6).toFixed(1)) });
}

/** The sentence under "Offline reading" for the current state. */
function sentence() {
  const status = stats.status;
  switch (stats.state) {
    case "unsupported":
      return t("offline.unsupported");
    case "error":
      return t("offline.error");
    case "removed":
      return t("offline.not_kept");
    case "saving": {
      const { done = 0, total = 0 } = stats.progress || {};
      return total
        ? t("offline.saving_progress", { done: megabytes(done), total: megabytes(total) })
        : t("offline.saving");
    }
    case "saved":
      return status
        ? t("offline.saved_all", { count: status.pages, size: megabytes(status.heldBytes) })
        : t("offline.saved");
    case "partial":
      return t("offline.partial");
    case "ready":
      return status
        ? t("offline.held", { count: status.pagesHeld, size: megabytes(status.heldBytes) })
        : t("offline.held_none");
    default:
      return t("offline.visiting");
  }
}

function ensureSection() {
  const panel = document.getElementById("rb-history-panel");
  if (!panel) return null;
  let section = document.getElementById(SECTION_ID);
  if (section) return section;
  section = el("section", { id: SECTION_ID, class: "rb-offline", "aria-labelledby": `${SECTION_ID}-title` });
  const title = el("h2", { id: `${SECTION_ID}-title`, class: "rb-offline-title" }, t("offline.title"));
  const text = el("p", { class: "rb-offline-status", id: `${SECTION_ID}-status`, "aria-live": "polite" });
  const bar = el("progress", {
    class: "rb-offline-progress",
    max: "1",
    value: "0",
    "aria-labelledby": `${SECTION_ID}-status`,
    hidden: "",
  });
  const actions = el("div", { class: "rb-history-actions" });
  const saveButton = el("button", { type: "button", class: "rb-offline-save" }, t("offline.save"));
  const removeButton = el("button", { type: "button", class: "rb-offline-remove" }, t("offline.remove"));
  saveButton.addEventListener("click", save);
  removeButton.addEventListener("click", remove);
  actions.append(saveButton, removeButton);
  section.append(title, text, bar, actions);
  panel.append(section);
  return section;
}

/** Draw the tray's offline section (when the tray exists). */
export function render() {
  const section = ensureSection();
  if (!section) return;
  const state = stats.state;
  section.hidden = state === "off";
  const text = /** @type {HTMLElement} */ (section.querySelector(".rb-offline-status"));
  const line = sentence();
  if (text.textContent !== line) text.textContent = line;
  const bar = /** @type {HTMLProgressElement} */ (section.querySelector(".rb-offline-progress"));
  bar.hidden = state !== "saving";
  if (state === "saving" && stats.progress && stats.progress.total) {
    bar.max = stats.progress.total;
    bar.value = stats.progress.done;
  }
  const saveButton = /** @type {HTMLButtonElement} */ (section.querySelector(".rb-offline-save"));
  saveButton.hidden = state === "unsupported" || state === "saved";
  saveButton.disabled = state === "saving";
  /** @type {HTMLElement} */ (section.querySelector(".rb-offline-remove")).hidden = ![
    "ready",
    "saved",
    "partial",
  ].includes(state);
}

function showUpdateNotice() {
  if (document.querySelector(".rb-update")) return;
  const notice = el("div", { class: "rb-update", role: "status" });
  const reload = el("button", { type: "button", class: "rb-update-reload" }, t("offline.reload"));
  reload.addEventListener("click", () => location.reload());
  notice.append(el("span", {}, `${t("offline.update")} `), reload);
  document.body.append(notice);
}
