// @ts-check
// Where the roll history lives, and what may come back out of it. Storage is shared by
// every page of the origin (other sites, other scripts, an older rollbook), so everything
// read back is untrusted: each entry is rebuilt from type-checked fields, and its link is
// kept only when it is an http(s) URL of this site (same origin, under the site's base).
// The history is kept per site (storage.js, name "history"); the key every site shared
// before has its entries claimed per site (see `migrate`).

import { BASE_PATH } from "./site.js";
import * as storage from "./storage.js";

/**
 * One entry of the history: when (ISO time, UTC), on which page, what was rolled where,
 * its result, and the link that rolls it again.
 * @typedef {{time: string, page: string, where: string, result: string, href: string}} Entry
 */

export const LIMIT = 200; // entries kept; the oldest go first
export const MAX_TEXT = 2000; // characters of a label or result; longer entries are dropped
const MAX_HREF = 4000; // characters of a link
const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

/**
 * `href` as a link of this site (absolute, normalised), or null.
 * @param {unknown} href
 * @param {string} [base]  the path it must be under
 */
export function siteHref(href, base = BASE_PATH) {
  if (typeof href !== "string" || !href || href.length > MAX_HREF) return null;
  let url;
  try {
    url = new URL(href, location.href);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (url.origin !== location.origin || url.username || url.password) return null;
  if (!url.pathname.startsWith(base)) return null;
  return url.href;
}

/**
 * @param {Record<string, unknown>} entry
 * @param {string} name
 * @param {boolean} [optional]
 */
function text(entry, name, optional = false) {
  const value = Object.hasOwn(entry, name) ? entry[name] : undefined;
  if (optional && value === undefined) return "";
  return typeof value === "string" && value.length <= MAX_TEXT ? value : null;
}

/**
 * A clean copy of one stored entry, or null when anything about it is wrong. `base`: the
 * path its link must be under (this site's, unless asked for another).
 * @param {unknown} raw
 * @param {string} [base]
 * @returns {Entry | null}
 */
export function clean(raw, base = BASE_PATH) {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return null;
  const entry = /** @type {Record<string, unknown>} */ (raw);
  const time = text(entry, "time");
  if (time === null || !TIME.test(time) || Number.isNaN(Date.parse(time))) return null;
  const where = text(entry, "where");
  const result = text(entry, "result");
  const page = text(entry, "page", true);
  const href = siteHref(Object.hasOwn(entry, "href") ? entry.href : undefined, base);
  if (where === null || result === null || page === null || href === null) return null;
  return { time, page, where, result, href };
}

/**
 * Entries as stored, raw (possibly junk); [] when none.
 * @param {unknown} stored
 * @returns {unknown[]}
 */
function entries(stored) {
  return Array.isArray(stored) ? stored : [];
}

/**
 * Every entry of a list that passes `clean`.
 * @param {unknown[]} raw
 * @returns {Entry[]}
 */
function cleaned(raw) {
  return raw.flatMap((entry) => clean(entry) ?? []);
}

/** This site's history, oldest first, every entry checked. */
export function load() {
  return cleaned(entries(storage.readJSON("history", [])).slice(-LIMIT));
}

/**
 * Keep `list` (its latest LIMIT entries) as this site's history. Storage full or disabled
 * (private mode): the tray still shows this page's rolls.
 * @param {Entry[]} list
 */
export function save(list) {
  storage.writeJSON("history", list.slice(-LIMIT));
}

/** Forget this site's history. */
export function remove() {
  storage.writeText("history", null);
}

/**
 * Claim this site's entries from the old shared key, once (only while this site has no
 * history of its own): entries that pass `clean` and link under this site's base move
 * here; the rest stay for the other sites of the origin, junk is dropped, and the old key
 * goes away when nothing is left in it. A site at the origin's root claims its project
 * sites' entries too: their links are under its base.
 */
export function migrate() {
  const old = storage.SHARED_KEYS.history;
  if (!storage.hasShared(old) || storage.has("history")) return;
  /** @type {unknown} */
  let stored = [];
  try {
    stored = JSON.parse(storage.readShared(old) ?? "[]");
  } catch {
    // junk: dropped below
  }
  const mine = [];
  const others = [];
  for (const raw of entries(stored).slice(-LIMIT * 10)) {
    const entry = clean(raw);
    if (entry) mine.push(entry);
    else {
      const theirs = clean(raw, "/"); // another site of this origin
      if (theirs) others.push(theirs);
    }
  }
  if (mine.length) save(mine);
  // Read-only storage: nothing to tidy.
  storage.writeShared(storage.SHARED_KEYS.history, others.length ? JSON.stringify(others) : null);
}
