// @ts-check
// Everything rollbook keeps in the reader's browser (localStorage), in one place and under
// one key scheme: `rollbook:<site base path>:<name>`, the prefix of the offline worker's
// cache names too, so two sites on one origin (project sites of one account) keep apart
// what they store. Storage is shared by every page of the origin (other sites, other
// scripts, an older rollbook), so whatever comes back is untrusted: the text of a key is
// read only up to MAX_CHARS, JSON that does not parse reads as the caller's fallback, and
// each caller checks every field of what it gets. Nothing here throws: storage that is
// disabled (private mode) or full reads as empty and refuses writes quietly.
//
// Earlier versions kept each name under a key of its own making; the first read or write
// of a document moves this site's keys to the scheme (`migrate`), none lost.

import { BASE_PATH } from "./site.js";

/**
 * What is stored, by name: the roll history (history-store.js), the GM screen's pins
 * (pins.js), the modifier each reader set on a roll (variants.js), and whether the reader
 * removed the site's offline copy (offline.js: "1", or "0" once saved again).
 * @typedef {"history" | "pins" | "modifiers" | "offline-removed"} Name
 */

/** Characters of stored text read at all: more was not written by us (200 history entries fit). */
export const MAX_CHARS = 3_000_000;

/**
 * The key `name` is stored under for this site.
 * @param {Name} name
 */
export function keyOf(name) {
  return `rollbook:${BASE_PATH}:${name}`;
}

/**
 * This site's keys before the scheme, by name: each moves to `keyOf(name)` once.
 * @type {Record<Name, string>}
 */
export const LEGACY_KEYS = {
  history: `rollbook.history.v2:${BASE_PATH}`,
  pins: `rollbook.pins.v1@${BASE_PATH}`,
  modifiers: `rollbook.modifiers.v1@${BASE_PATH}`,
  "offline-removed": `rollbook.offline.removed@${BASE_PATH}`,
};

/**
 * Keys every site of the origin shared before keys were per site. They are not moved: the
 * history's entries are claimed by the site they link to (history-store.js `migrate`), and
 * the offline flag is a site's word until it has one of its own (offline.js).
 */
export const SHARED_KEYS = { history: "rollbook.history.v1", offlineRemoved: "rollbook.offline.removed" };

let migrated = false;

/**
 * Move this site's keys of earlier versions to the scheme, once per document. A key the
 * scheme has already (written by this version) wins over its old one, which goes. The
 * old key is removed before the copy is written, so a nearly full storage has room for it;
 * if the copy is refused all the same, the old key is put back for the next visit.
 */
export function migrate() {
  if (migrated) return;
  migrated = true;
  for (const [name, old] of /** @type {Array<[Name, string]>} */ (Object.entries(LEGACY_KEYS))) {
    try {
      const text = localStorage.getItem(old);
      if (text === null) continue;
      const key = keyOf(name);
      localStorage.removeItem(old);
      if (localStorage.getItem(key) !== null) continue;
      try {
        localStorage.setItem(key, text);
      } catch {
        localStorage.setItem(old, text);
      }
    } catch {
      // storage disabled or read-only: nothing to move
    }
  }
}

/**
 * The text stored under `key`, or null: none, longer than MAX_CHARS, or storage disabled.
 * @param {string} key
 */
function readKey(key) {
  try {
    const text = localStorage.getItem(key);
    return text !== null && text.length <= MAX_CHARS ? text : null;
  } catch {
    return null;
  }
}

/**
 * Store `text` under `key` (null: remove it); false when storage refuses (full, disabled).
 * @param {string} key
 * @param {string | null} text
 */
function writeKey(key, text) {
  try {
    if (text === null) localStorage.removeItem(key);
    else localStorage.setItem(key, text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether anything is stored under `key` (however long); false when storage is disabled.
 * @param {string} key
 */
function hasKey(key) {
  try {
    return localStorage.getItem(key) !== null;
  } catch {
    return false;
  }
}

/**
 * Whether anything is stored under `name` for this site.
 * @param {Name} name
 */
export function has(name) {
  migrate();
  return hasKey(keyOf(name));
}

/**
 * The text stored under `name` for this site, or null (see `readKey`).
 * @param {Name} name
 */
export function readText(name) {
  migrate();
  return readKey(keyOf(name));
}

/**
 * What is stored under `name` for this site, parsed: `fallback` when there is nothing, too
 * much, or no JSON. Untrusted: the caller checks every field.
 * @param {Name} name
 * @param {unknown} fallback
 * @returns {unknown}
 */
export function readJSON(name, fallback) {
  const text = readText(name);
  if (text === null) return fallback;
  try {
    return JSON.parse(text);
  } catch {
    return fallback;
  }
}

/**
 * Store `text` under `name` for this site (null: forget it); false when storage refuses.
 * @param {Name} name
 * @param {string | null} text
 */
export function writeText(name, text) {
  migrate();
  return writeKey(keyOf(name), text);
}

/**
 * Store `value` as JSON under `name` for this site; false when storage refuses.
 * @param {Name} name
 * @param {unknown} value
 */
export function writeJSON(name, value) {
  return writeText(name, JSON.stringify(value));
}

/**
 * Whether anything is stored under a key all sites of the origin shared (SHARED_KEYS).
 * @param {string} key
 */
export function hasShared(key) {
  return hasKey(key);
}

/**
 * The text of a key all sites of the origin shared (SHARED_KEYS), or null.
 * @param {string} key
 */
export function readShared(key) {
  return readKey(key);
}

/**
 * Store (or, with null, remove) the text of a shared key; false when storage refuses.
 * @param {string} key
 * @param {string | null} text
 */
export function writeShared(key, text) {
  return writeKey(key, text);
}
