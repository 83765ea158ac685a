// @ts-check
// The reader's language: every text a widget shows or says comes from the site's catalogue
// (strings.js, written by the build), never from an English sentence built here. Numbers
// get the language's signs from the same catalogue (Babel's CLDR data at build time, so the
// page writes "27,8 %" exactly as the build did); plural forms come from Intl.PluralRules.

import DATA from "./strings.js";

/**
 * @typedef {{decimal: string, group: string, grouping: number[], minus: string, percent: string}} NumberSigns
 * @typedef {{lang: string, dir: string, numbers: NumberSigns,
 *   strings: Record<string, string | Record<string, string>>}} Catalogue
 * @typedef {{default: string, catalogues: Record<string, Catalogue>}} StringsFile
 */

/** @type {NumberSigns} */
const PLAIN = { decimal: ".", group: ",", grouping: [3, 3], minus: "-", percent: "{n}%" };

let chosen = /** @type {{lang: string, cat: Catalogue | null} | null} */ (null);

/** The page's language: the build's mark in the content (it follows Material's instant
 * navigation, which keeps the first page's `<html lang>`), else `<html lang>`. */
function pageLanguage() {
  if (typeof document === "undefined") return "";
  const mark = document.querySelector("[data-rb-lang]:not(.rb-history)");
  return mark?.getAttribute("data-rb-lang") || document.documentElement.lang || "";
}

/** The catalogue of the page's language, else the site's first. */
export function catalogue() {
  const lang = pageLanguage();
  if (chosen && chosen.lang === lang) return chosen.cat;
  /** @type {Record<string, Catalogue>} */
  const all = DATA.catalogues || {};
  const base = lang.split(/[-_]/)[0].toLowerCase();
  const key =
    Object.keys(all).find((name) => name.toLowerCase() === lang.toLowerCase()) ||
    Object.keys(all).find((name) => name.split("-")[0].toLowerCase() === base) ||
    DATA.default;
  chosen = { lang, cat: all[key] || null };
  return chosen.cat;
}

/** The catalogue's language code ("fr", "pt-BR"); "en" without one. */
export function language() {
  return catalogue()?.lang || "en";
}

/** "rtl" for right-to-left languages, else "ltr". */
export function direction() {
  return catalogue()?.dir || "ltr";
}

/**
 * A number written the engine's way ("-1234.5", 7) as the language writes it ("-1 234,5").
 * @param {string | number} value
 */
export function numberText(value) {
  const signs = catalogue()?.numbers || PLAIN;
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(String(value));
  if (!match) return String(value);
  const [, sign, whole, decimals] = match;
  const [primary, secondary] = signs.grouping;
  let grouped = whole;
  if (primary > 0 && whole.length > primary) {
    const groups = [whole.slice(-primary)];
    let rest = whole.slice(0, -primary);
    const size = secondary || primary;
    while (rest.length > size) {
      groups.unshift(rest.slice(-size));
      rest = rest.slice(0, -size);
    }
    groups.unshift(rest);
    grouped = groups.join(signs.group);
  }
  return `${sign ? signs.minus : ""}${grouped}${decimals ? signs.decimal + decimals : ""}`;
}

/**
 * A percentage written the engine's way ("27.8%", "<0.1%") as the language writes it.
 * @param {string} text
 */
export function localPercent(text) {
  const signs = catalogue()?.numbers || PLAIN;
  const below = text.startsWith("<");
  const body = text.replace(/^</, "").replace(/%$/, "");
  if (!/^-?\d+(?:\.\d+)?$/.test(body)) return text;
  const shown = signs.percent.replace("{n}", numberText(body).replace(signs.minus, ""));
  return `${below ? "<" : ""}${body.startsWith("-") ? signs.minus : ""}${shown}`;
}

/**
 * The CLDR plural category of a count in the page's language.
 * @param {number} count
 */
export function pluralCategory(count) {
  try {
    return new Intl.PluralRules(language()).select(count);
  } catch {
    return count === 1 ? "one" : "other";
  }
}

/**
 * The text of `key` with its `{name}` placeholders filled; `count` picks a plural form and
 * is written as the language writes numbers. A key the catalogue lacks shows as itself.
 * @param {string} key
 * @param {Record<string, string | number>} [params]
 */
export function t(key, params = {}) {
  let text = catalogue()?.strings[key] ?? key;
  let values = params;
  if (typeof text === "object") {
    const count = Number(params.count ?? 0);
    text = text[pluralCategory(count)] ?? String(text.other);
    values = { ...params, count: numberText(count) };
  }
  return String(text).replace(/\{([a-z_]+)\}/g, (all, /** @type {string} */ name) =>
    name in values ? String(values[name]) : all,
  );
}
