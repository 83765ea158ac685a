// @ts-check
// Reader variants of a written roll: the notation actually rolled for "advantage",
// "disadvantage" and a modifier, built as text for the engine to parse (no dice here), and
// the modifier each reader set for a roll, remembered per site, page and roll.

import { t } from "./i18n.js";
import { siteKey } from "./util.js";

const MODIFIERS_KEY = siteKey("rollbook.modifiers.v1");
const MODIFIER_LIMIT = 1000; // a bigger bonus is a typo, not a spell
const REMEMBERED = 500; // rolls whose modifier is kept; the oldest go first

/** Whether `notation` is one total (not a comma roll such as `d6,d6`). */
export function isSingle(notation) {
  let depth = 0;
  for (const ch of String(notation)) {
    if (ch === "(" || ch === "{" || ch === "[") depth += 1;
    else if (ch === ")" || ch === "}" || ch === "]") depth -= 1;
    else if (ch === "," && depth === 0) return false;
  }
  return true;
}

/** `(2d6)+2`, `(1d20)-1`; the notation itself for 0. */
export function withModifier(notation, modifier) {
  if (!modifier) return notation;
  return `(${notation})${modifier > 0 ? "+" : "-"}${Math.abs(modifier)}`;
}

/**
 * Roll twice and keep the higher (`kh1`) or lower (`kl1`) total: `1d20` -> `2d20kh1`,
 * anything else -> `{E,E}kh1`, so the history shows both totals and which one counted.
 */
export function twice(notation, keep) {
  const single = /^\s*1?d(\d+)\s*$/i.exec(notation);
  if (single) return `2d${single[1]}${keep}1`;
  return `{${notation},${notation}}${keep}1`;
}

/** The notation to roll for a variant of `notation` with the reader's `modifier`. */
export function notationFor(notation, variant, modifier = 0) {
  if (variant === "advantage") return twice(notation, "kh") + signed(modifier);
  if (variant === "disadvantage") return twice(notation, "kl") + signed(modifier);
  return withModifier(notation, modifier);
}

function signed(modifier) {
  if (!modifier) return "";
  return `${modifier > 0 ? "+" : "-"}${Math.abs(modifier)}`;
}

/**
 * A modifier as a reader typed it: "+2", "-1", "3", "" (none). Returns {value} or
 * {error: sentence}. ASCII digits only, within +/-1000.
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

function loadModifiers() {
  try {
    const stored = JSON.parse(localStorage.getItem(MODIFIERS_KEY) || "[]");
    if (!Array.isArray(stored)) return new Map();
    const entries = stored.filter(
      (e) =>
        Array.isArray(e) &&
        e.length === 2 &&
        typeof e[0] === "string" &&
        e[0].length < 500 &&
        Number.isInteger(e[1]) &&
        Math.abs(e[1]) <= MODIFIER_LIMIT,
    );
    return new Map(entries);
  } catch {
    return new Map();
  }
}

const unsaved = new Map(); // where storage is disabled: kept while the page is open

/** The modifier remembered for the roll `id` on this page (0 if none). */
export function modifierOf(id) {
  const key = `${location.pathname}#${id}`;
  return loadModifiers().get(key) ?? unsaved.get(key) ?? 0;
}

/** Remember (or, for 0, forget) the modifier of the roll `id` on this page. */
export function setModifier(id, value) {
  const all = loadModifiers();
  const key = `${location.pathname}#${id}`;
  all.delete(key);
  unsaved.set(key, value);
  if (value) all.set(key, value);
  try {
    localStorage.setItem(MODIFIERS_KEY, JSON.stringify([...all].slice(-REMEMBERED)));
  } catch {
    // Storage disabled: the modifier lasts while the page is open.
  }
}
