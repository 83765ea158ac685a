// @ts-check
// Pins for the GM screen: which rolls, tables, lists and encounters a GM keeps at hand.
// Stored per site as [{page, id, kind, label, prompts}]; everything read back from storage
// or a shared link is checked field by field, and a page is always a path inside the site.

import { t } from "./i18n.js";
import { el } from "./dom.js";
import { BASE_PATH, SITE_BASE } from "./site.js";
import * as storage from "./storage.js";

const LIMIT = 60; // pins on one screen
const KINDS = new Set(["inline", "table", "list", "combat"]);
/** @type {Set<() => void>} */
const changeListeners = new Set();

/**
 * One pin: the page (a clean path relative to the site's base), the item's id on it, its
 * kind, its label, and the prompt values it rolls with (integer strings by name).
 * @typedef {{page: string, id: string, kind: string, label: string, prompts: Record<string, string>}} Pin
 */

/**
 * Whether `value` is text of 1 to `max` characters.
 * @param {unknown} value
 * @param {number} max
 * @returns {value is string}
 */
function text(value, max) {
  return typeof value === "string" && value.length > 0 && value.length <= max;
}

/**
 * A page path as pins hold it: relative to the site's base, decoded, normalised
 * ("systems/scars/", "" for the home page, "tables.html"); null for anything else. A path
 * that could mean another place once a server decodes it (`%2e%2e%2f`, `..`, a backslash,
 * a scheme, `//`, control characters) is refused outright; the GM screen then fetches
 * only pages the site lists (pages.json), with each segment encoded again (pageUrl).
 * @param {unknown} page
 * @returns {string | null}
 */
export function cleanPage(page) {
  if (typeof page !== "string" || page.length > 300) return null;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a path holding one is refused
  if (/[\\\u0000-\u001f\u007f?#]|%[0-9a-f]{2}/i.test(page)) return null;
  if (/^[a-z][a-z0-9+.-]*:/i.test(page) || page.startsWith("/")) return null;
  const parts = page.split("/");
  if (parts.some((part, i) => part === ".." || part === "." || (part === "" && i < parts.length - 1))) {
    return null;
  }
  return pageUrl(page).href.startsWith(SITE_BASE) ? page : null;
}

/**
 * The URL of a clean page path: each segment encoded, under the site's base.
 * @param {string} page
 */
export function pageUrl(page) {
  return new URL(page.split("/").map(encodeURIComponent).join("/"), SITE_BASE);
}

/**
 * The file a page path is served from, as pages.json lists it ("rules/" -> "rules/index.html").
 * @param {string} page
 */
export function pageFile(page) {
  return page === "" || page.endsWith("/") ? `${page}index.html` : page;
}

/**
 * One pin as stored, or null when any field is missing or of the wrong type.
 * @param {unknown} stored
 * @returns {Pin | null}
 */
export function cleanPin(stored) {
  if (!stored || typeof stored !== "object" || Array.isArray(stored)) return null;
  const raw = /** @type {Record<string, unknown>} */ (stored);
  const page = cleanPage(raw.page);
  if (page === null || !text(raw.id, 200) || typeof raw.kind !== "string" || !KINDS.has(raw.kind)) return null;
  const label = text(raw.label, 200) ? raw.label : raw.id;
  /** @type {Record<string, string>} */
  const prompts = Object.create(null);
  if (raw.prompts && typeof raw.prompts === "object" && !Array.isArray(raw.prompts)) {
    for (const [name, value] of Object.entries(raw.prompts).slice(0, 20)) {
      if (text(name, 100) && typeof value === "string" && /^-?[0-9]{1,15}$/.test(value)) prompts[name] = value;
    }
  }
  return { page, id: raw.id, kind: raw.kind, label, prompts };
}

/** @type {(a: {page: string, id: string}, b: {page: string, id: string}) => boolean} */
const sameItem = (a, b) => a.page === b.page && a.id === b.id;

/**
 * The pins, cleaned, in screen order.
 * @returns {Pin[]}
 */
export function load() {
  const stored = storage.readJSON("pins", []);
  if (!Array.isArray(stored)) return [];
  /** @type {Pin[]} */
  const out = [];
  for (const raw of stored.slice(0, LIMIT)) {
    const pin = cleanPin(raw);
    if (pin && !out.some((p) => sameItem(p, pin))) out.push(pin);
  }
  return out;
}

/**
 * Store the pins (at most LIMIT); tells listeners.
 * @param {Pin[]} pins
 */
export function save(pins) {
  // Storage disabled: the screen lasts while the page is open.
  storage.writeJSON("pins", pins.slice(0, LIMIT));
  for (const listener of changeListeners) listener();
}

/**
 * Call `listener()` after every change of the pins; returns an unsubscribe.
 * @param {() => void} listener
 */
export function onChange(listener) {
  changeListeners.add(listener);
  return () => changeListeners.delete(listener);
}

/** This page's path relative to the site's base ("" for the home page). */
export function currentPage() {
  const path = location.pathname;
  return path.startsWith(BASE_PATH) ? decodeURIComponent(path.slice(BASE_PATH.length)) : path.replace(/^\//, "");
}

/**
 * Whether the item `id` of `page` is pinned.
 * @param {string} page
 * @param {string} id
 */
export function isPinned(page, id) {
  return load().some((p) => p.page === page && p.id === id);
}

/**
 * Pin or unpin an item; returns whether it is pinned now.
 * @param {{page: string, id: string, kind: string, label?: string, prompts?: Record<string, string>}} item
 */
export function toggle(item) {
  const pins = load();
  const at = pins.findIndex((p) => sameItem(p, item));
  if (at >= 0) pins.splice(at, 1);
  else {
    const pin = cleanPin(item);
    if (!pin) return false;
    if (pins.length >= LIMIT) pins.shift();
    pins.push(pin);
  }
  save(pins);
  return at < 0;
}

/**
 * Remember prompt values for a pinned table (the screen rolls with them next time).
 * @param {string} page
 * @param {string} id
 * @param {Record<string, string | number>} prompts
 */
export function setPrompts(page, id, prompts) {
  const pins = load();
  const pin = pins.find((p) => p.page === page && p.id === id);
  if (!pin) return;
  pin.prompts = Object.fromEntries(Object.entries(prompts).map(([k, v]) => [k, String(v)]));
  save(pins.flatMap((p) => cleanPin(p) ?? []));
}

/** Whether the site has a GM screen (the build says `gm_screen: ""` with a meta element). */
export function gmScreenOn() {
  return document.querySelector('meta[name="rollbook-gm-screen"][content="off"]') === null;
}

/**
 * The pin control of one item on its page: `[data-rb-pin]`, pressed while pinned. As a menu
 * item (inline rolls) it is a `menuitemcheckbox`. Null on the GM screen itself.
 * @param {{kind: string, id: string, label: string, asMenuItem?: boolean}} item
 */
export function pinButton({ kind, id, label, asMenuItem = false }) {
  if (document.querySelector("[data-rb-gm]") || !id || !gmScreenOn()) return null;
  const page = currentPage();
  const attrs = asMenuItem
    ? { type: "button", role: "menuitemcheckbox", tabindex: "-1" }
    : { type: "button", class: "rb-pin" };
  const button = el("button", { ...attrs, "data-rb-pin": kind, "data-search-exclude": "" });
  const paint = () => {
    const on = isPinned(page, id);
    button.setAttribute(asMenuItem ? "aria-checked" : "aria-pressed", String(on));
    button.textContent = t(on ? "pin.on" : "pin.off");
  };
  paint();
  button.addEventListener("click", () => {
    toggle({ page, id, kind, label });
    paint();
  });
  // Instant navigation replaces the page: a control no longer shown stops listening.
  const off = onChange(() => (button.isConnected ? paint() : off()));
  return button;
}
