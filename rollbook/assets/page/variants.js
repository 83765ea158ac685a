// @ts-check
// Reader variants of a written roll: the notation rolled for "advantage", "disadvantage"
// and a modifier, and the modifier each reader set for a roll, remembered per site, page
// and roll. The build composes each variant the engine accepts and writes it on the roll's
// button (data-rb-advantage, data-rb-disadvantage, and data-rb-modified: the roll ready
// for a modifier; rollbook/engine/dice/variants.py); this module only adds the modifier.

import { t } from "./i18n.js";
import * as storage from "./storage.js";

const MODIFIER_LIMIT = 1000; // a bigger bonus is a typo, not a spell
const REMEMBERED = 500; // rolls whose modifier is kept; the oldest go first

/**
 * "+2", "-1", "" for 0.
 * @param {number} modifier
 */
function signed(modifier) {
  if (!modifier) return "";
  return `${modifier > 0 ? "+" : "-"}${Math.abs(modifier)}`;
}

/**
 * Whether the build offers `variant` ("advantage", "disadvantage", "modifier") for the roll.
 * @param {HTMLElement} button
 * @param {string} variant
 */
export function offers(button, variant) {
  const data = button.dataset;
  if (variant === "advantage") return data.rbAdvantage !== undefined;
  if (variant === "disadvantage") return data.rbDisadvantage !== undefined;
  if (variant === "modifier") return data.rbModified !== undefined;
  return false;
}

/**
 * The notation to roll for `variant` ("plain", "advantage", "disadvantage") of the roll
 * whose button is `button`, with the reader's `modifier`. A modifier the roll does not take
 * (a comma roll, a page built before the variants were written) is left out, so a stored
 * one never breaks the roll; null for a variant the build did not offer.
 * @param {HTMLElement} button
 * @param {string} variant
 * @returns {string | null}
 */
export function notationFor(button, variant, modifier = 0) {
  const data = button.dataset;
  const extra = offers(button, "modifier") ? signed(modifier) : "";
  if (variant === "plain") return extra ? `${data.rbModified}${extra}` : (data.roll ?? null);
  const base = variant === "advantage" ? data.rbAdvantage : data.rbDisadvantage;
  return base === undefined ? null : `${base}${extra}`;
}

/**
 * A modifier as a reader typed it: "+2", "-1", "3", "" (none). Returns {value} or
 * {error: sentence}. ASCII digits only, within +/-1000.
 * @param {unknown} text
 * @returns {{value: number, error?: undefined} | {error: string, value?: undefined}}
 */
export function parseModifier(text) {
  const trimmed = String(text).trim();
  if (trimmed === "") return { value: 0 };
  const match = /^([+-]?)([0-9]{1,4})$/.exec(trimmed);
  if (!match) return { error: t("modifier.not_number") };
  const value = Number(match[2]) * (match[1] === "-" ? -1 : 1);
  if (Math.abs(value) > MODIFIER_LIMIT) {
    return { error: t("modifier.out_of_range", { limit: MODIFIER_LIMIT }) };
  }
  return { value };
}

/**
 * Whether a stored entry is a [roll key, modifier] pair within the limits.
 * @param {unknown} e
 * @returns {e is [string, number]}
 */
function validModifier(e) {
  return (
    Array.isArray(e) &&
    e.length === 2 &&
    typeof e[0] === "string" &&
    e[0].length < 500 &&
    Number.isInteger(e[1]) &&
    Math.abs(e[1]) <= MODIFIER_LIMIT
  );
}

/**
 * The modifiers stored for this site, by roll key (rollKey), each checked.
 * @returns {Map<string, number>}
 */
function loadModifiers() {
  const stored = storage.readJSON("modifiers", []);
  if (!Array.isArray(stored)) return new Map();
  return new Map(stored.filter(validModifier));
}

/** @type {Map<string, number>} */
const unsaved = new Map(); // where storage is disabled: kept while the page is open

/**
 * Keep the modifiers (the latest REMEMBERED). Storage disabled: a modifier lasts while
 * the page is open (`unsaved`).
 * @param {Map<string, number>} all
 */
function storeModifiers(all) {
  storage.writeJSON("modifiers", [...all].slice(-REMEMBERED));
}

/**
 * The key of the roll `id` among the modifiers: the path of its own page and its id. A
 * roll copied onto the GM screen sits inside an item that names its page (data-rb-home),
 * so it keeps the modifier of its page's roll, not one of the screen's.
 * @param {Element} root  the roll's element
 * @param {string} id
 */
export function rollKey(root, id) {
  const home = /** @type {HTMLElement | null} */ (root.closest("[data-rb-home]"));
  return `${home ? home.dataset.rbHome : location.pathname}#${id}`;
}

/**
 * The modifier remembered for the roll `key` (rollKey; 0 if none).
 * @param {string} key
 */
export function modifierOf(key) {
  return loadModifiers().get(key) ?? unsaved.get(key) ?? 0;
}

/**
 * Remember (or, for 0, forget) the modifier of the roll `key`.
 * @param {string} key
 * @param {number} value
 */
export function setModifier(key, value) {
  const all = loadModifiers();
  all.delete(key);
  unsaved.set(key, value);
  if (value) all.set(key, value);
  storeModifiers(all);
}

/**
 * Move a modifier kept under `from` to `to` (unless `to` has one already).
 * @param {string} from
 * @param {string} to
 */
export function moveModifier(from, to) {
  const all = loadModifiers();
  const value = all.get(from);
  if (value === undefined) return;
  if (!all.has(to)) all.set(to, value);
  all.delete(from);
  storeModifiers(all);
}

/**
 * Forget the modifier kept under `key`.
 * @param {string} key
 */
export function dropModifier(key) {
  const all = loadModifiers();
  if (all.delete(key)) storeModifiers(all);
}
