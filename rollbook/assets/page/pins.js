// @ts-check
// Pins for the GM screen: which rolls, tables, lists and encounters a GM keeps at hand.
// Stored per site as [{page, id, kind, label, prompts}]; everything read back from storage
// or a shared link is checked field by field, and a page is always a path inside the site.

import { t } from "./i18n.js";
import { el, SITE_BASE, siteKey } from "./util.js";

const KEY = siteKey("rollbook.pins.v1");
const LIMIT = 60; // pins on one screen
const KINDS = new Set(["inline", "table", "list", "combat"]);
const changeListeners = new Set();

const text = (value, max) => typeof value === "string" && value.length > 0 && value.length <= max;

/**
 * A page path as pins hold it: relative to the site's base, decoded, normalised
 * ("systems/scars/", "" for the home page, "tables.html"); null for anything else. A path
 * that could mean another place once a server decodes it (`%2e%2e%2f`, `..`, a backslash,
 * a scheme, `//`, control characters) is refused outright; the GM screen then fetches
 * only pages the site lists (pages.json), with each segment encoded again (pageUrl).
 */
export function cleanPage(page) {
  if (typeof page !== "string" || page.length > 300) return null;
  if (/[\\\u0000-\u001f\u007f?#]|%[0-9a-f]{2}/i.test(page)) return null;
  if (/^[a-z][a-z0-9+.-]*:/i.test(page) || page.startsWith("/")) return null;
  const parts = page.split("/");
  if (parts.some((part, i) => part === ".." || part === "." || (part === "" && i < parts.length - 1))) {
    return null;
  }
  return pageUrl(page).href.startsWith(SITE_BASE) ? page : null;
}

/** The URL of a clean page path: each segment encoded, under the site's base. */
export function pageUrl(page) {
  return new URL(page.split("/").map(encodeURIComponent).join("/"), SITE_BASE);
}

/** The file a page path is served from, as pages.json lists it ("rules/" -> "rules/index.html"). */
export function pageFile(page) {
  return page === "" || page.endsWith("/") ? `${page}index.html` : page;
}

/** One pin as stored, or null when any field is missing or of the wrong type. */
export function cleanPin(raw) {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return null;
  const page = cleanPage(raw.page);
  if (page === null || !text(raw.id, 200) || !KINDS.has(raw.kind)) return null;
  const label = text(raw.label, 200) ? raw.label : raw.id;
  const prompts = Object.create(null);
  if (raw.prompts && typeof raw.prompts === "object" && !Array.isArray(raw.prompts)) {
    for (const [name, value] of Object.entries(raw.prompts).slice(0, 20)) {
      if (text(name, 100) && typeof value === "string" && /^-?[0-9]{1,15}$/.test(value)) prompts[name] = value;
    }
  }
  return { page, id: raw.id, kind: raw.kind, label, prompts };
}

const sameItem = (a, b) => a.page === b.page && a.id === b.id;

/** The pins, cleaned, in screen order. */
export function load() {
  try {
    const stored = JSON.parse(localStorage.getItem(KEY) || "[]");
    if (!Array.isArray(stored)) return [];
    const out = [];
    for (const raw of stored.slice(0, LIMIT)) {
      const pin = cleanPin(raw);
      if (pin && !out.some((p) => sameItem(p, pin))) out.push(pin);
    }
    return out;
  } catch {
    return [];
  }
}

/** Store the pins (at most LIMIT); tells listeners. */
export function save(pins) {
  try {
    localStorage.setItem(KEY, JSON.stringify(pins.slice(0, LIMIT)));
  } catch {
    // Storage disabled: the screen lasts while the page is open.
  }
  for (const listener of changeListeners) listener();
}

/** Call `listener()` after every change of the pins; returns an unsubscribe. */
export function onChange(listener) {
  changeListeners.add(listener);
  return () => changeListeners.delete(listener);
}

/** This page's path relative to the site's base ("" for the home page). */
export function currentPage() {
  const base = new URL(SITE_BASE).pathname;
  const path = location.pathname;
  return path.startsWith(base) ? decodeURIComponent(path.slice(base.length)) : path.replace(/^\//, "");
}

export function isPinned(page, id) {
  return load().some((p) => p.page === page && p.id === id);
}

/** Pin or unpin an item; returns whether it is pinned now. */
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

/** Remember prompt values for a pinned table (the screen rolls with them next time). */
export function setPrompts(page, id, prompts) {
  const pins = load();
  const pin = pins.find((p) => p.page === page && p.id === id);
  if (!pin) return;
  pin.prompts = Object.fromEntries(Object.entries(prompts).map(([k, v]) => [k, String(v)]));
  save(pins.map((p) => cleanPin(p)).filter(Boolean));
}

/** Whether the site has a GM screen (the build says `gm_screen: ""` with a meta element). */
export function gmScreenOn() {
  return document.querySelector('meta[name="rollbook-gm-screen"][content="off"]') === null;
}

/**
 * The pin control of one item on its page: `[data-rb-pin]`, pressed while pinned. As a menu
 * item (inline rolls) it is a `menuitemcheckbox`. Null on the GM screen itself.
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
