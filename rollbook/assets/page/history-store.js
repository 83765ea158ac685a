// @ts-check
// Where the roll history lives, and what may come back out of it. Storage is shared by
// every page of the origin (other sites, other scripts, an older rollbook), so everything
// read back is untrusted: each entry is rebuilt from type-checked fields, and its link is
// kept only when it is an http(s) URL of this site (same origin, under the site's base).

/** The site's base URL: this module lives in BASE/assets/rollbook/. */
export const SITE_BASE = new URL("../../", import.meta.url);

// One key per site: two rollbook sites on one origin (project sites of one GitHub Pages
// user) keep separate histories.
export const KEY = `rollbook.history.v2:${SITE_BASE.pathname}`;
// The key every site shared before; its entries are claimed per site (see `migrate`).
export const OLD_KEY = "rollbook.history.v1";

export const LIMIT = 200; // entries kept; the oldest go first
export const MAX_TEXT = 2000; // characters of a label or result; longer entries are dropped
const MAX_HREF = 4000; // characters of a link
const MAX_STORED = 3_000_000; // characters of stored JSON read at all (200 full entries fit)
const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

/** `href` as a link of this site (absolute, normalised), or null. */
export function siteHref(href, base = SITE_BASE.pathname) {
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

function text(entry, name, optional = false) {
  const value = Object.hasOwn(entry, name) ? entry[name] : undefined;
  if (optional && value === undefined) return "";
  return typeof value === "string" && value.length <= MAX_TEXT ? value : null;
}

/**
 * A clean copy of one stored entry, or null when anything about it is wrong. `base`: the
 * path its link must be under (this site's, unless asked for another).
 */
export function clean(entry, base = SITE_BASE.pathname) {
  if (!entry || typeof entry !== "object" || Array.isArray(entry)) return null;
  const time = text(entry, "time");
  if (time === null || !TIME.test(time) || Number.isNaN(Date.parse(time))) return null;
  const where = text(entry, "where");
  const result = text(entry, "result");
  const page = text(entry, "page", true);
  const href = siteHref(Object.hasOwn(entry, "href") ? entry.href : undefined, base);
  if (where === null || result === null || page === null || href === null) return null;
  return { time, page, where, result, href };
}

/** The entries stored under `key`, raw (an array, possibly of junk); [] when none. */
function readRaw(key) {
  try {
    const stored = localStorage.getItem(key);
    if (!stored || stored.length > MAX_STORED) return [];
    const parsed = JSON.parse(stored);
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
}

/** This site's history, oldest first, every entry checked. */
export function load() {
  return readRaw(KEY).slice(-LIMIT).map((raw) => clean(raw)).filter(Boolean);
}

export function save(entries) {
  try {
    localStorage.setItem(KEY, JSON.stringify(entries.slice(-LIMIT)));
  } catch {
    // Storage full or disabled (private mode): the tray still shows this page's rolls.
  }
}

export function remove() {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // nothing stored
  }
}

/**
 * Claim this site's entries from the old shared key, once (only while this site has no
 * history of its own): entries that pass `clean` and link under this site's base move
 * here; the rest stay for the other sites of the origin, junk is dropped, and the old key
 * goes away when nothing is left in it. A site at the origin's root claims its project
 * sites' entries too: their links are under its base.
 */
export function migrate() {
  try {
    if (localStorage.getItem(OLD_KEY) === null || localStorage.getItem(KEY) !== null) return;
  } catch {
    return;
  }
  const mine = [];
  const others = [];
  for (const raw of readRaw(OLD_KEY).slice(-LIMIT * 10)) {
    const entry = clean(raw);
    if (entry) mine.push(entry);
    else {
      const theirs = clean(raw, "/"); // another site of this origin
      if (theirs) others.push(theirs);
    }
  }
  if (mine.length) save(mine);
  try {
    if (others.length) localStorage.setItem(OLD_KEY, JSON.stringify(others));
    else localStorage.removeItem(OLD_KEY);
  } catch {
    // read-only storage: nothing to tidy
  }
}
