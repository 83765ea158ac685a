// @ts-check
// Small helpers shared by the widgets. Text goes in through textContent, never innerHTML.

import { localPercent, numberText } from "./i18n.js";

/** Create an element with attributes and text (text is inserted as text, never as HTML). */
export function el(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined && value !== false) node.setAttribute(name, value);
  }
  if (text) node.textContent = text;
  return node;
}

/** A roll total as readers read it: numbers in the page's language, comma rolls as "3, 5". */
export function formatTotal(total) {
  if (Array.isArray(total)) return total.map(formatTotal).join(", ");
  if (typeof total === "number" && !Number.isInteger(total)) {
    return numberText(String(Math.round(total * 100) / 100));
  }
  return numberText(String(total));
}

// Chances as the engine writes them, "p/q", shown to readers. The twins of these two
// formatters in Python (rollbook/engine/numbers.py) give the same text for the same fraction.

/**
 * "p/q" (or a whole number) as [p, q] in lowest terms with q > 0; null when it is not one.
 * @param {string | number} value
 * @returns {[bigint, bigint] | null}
 */
function exactFraction(value) {
  const match = /^\s*([-+]?\d+)\s*(?:\/\s*(\d+)\s*)?$/.exec(String(value));
  if (!match) return null;
  let p = BigInt(match[1]);
  let q = BigInt(match[2] ?? "1");
  if (q === 0n) return null;
  let [a, b] = [p < 0n ? -p : p, q];
  while (b) [a, b] = [b, a % b];
  if (a > 1n) [p, q] = [p / a, q / a];
  return [p, q];
}

/** "p/q" as a number (NaN when it is not a fraction). */
export function ratio(pq) {
  const [p, q = "1"] = String(pq).split("/");
  return Number(p) / Number(q);
}

/**
 * A fraction as "p/q" in lowest terms ("2/4" -> "1/2"); text that is no fraction as it is.
 * @param {string | number} value  "p/q", or a whole number
 * @param {{whole?: boolean}} [how]  whole: whole numbers without their "/1" ("7", for people)
 */
export function fractionText(value, { whole = false } = {}) {
  const exact = exactFraction(value);
  if (!exact) return String(value);
  const [p, q] = exact;
  return whole && q === 1n ? `${p}` : `${p}/${q}`;
}

/**
 * A share as a percentage in the page's language: "1/36" -> "2.8%" ("2,8 %" in French). A "p/q" is rounded from its exact value, a
 * half to the even digit ("1/16" -> "6.2%"), as the build writes it; a number (a Monte Carlo
 * rate, a sum of shares) as `toFixed` rounds it. "" when `share` is neither.
 * @param {string | number} share  1 being 100%
 * @param {{digits?: number, trim?: boolean, floor?: boolean}} [how]  digits: decimals
 *   shown; trim: leave out trailing zeros after the point ("50%", not "50.0%"); floor: write
 *   a share too small to show but not zero as "<0.1%", not "0%".
 */
export function percentText(share, { digits = 1, trim = true, floor = true } = {}) {
  const smallest = digits > 0 ? `0.${"0".repeat(digits - 1)}1` : "1";
  let text;
  if (typeof share === "number") {
    const value = share * 100;
    if (!Number.isFinite(value)) return "";
    if (floor && value && Math.abs(value) < 10 ** -digits) return localPercent(`<${smallest}%`);
    text = value.toFixed(digits);
  } else {
    const exact = exactFraction(share);
    if (!exact) return "";
    const [p, q] = exact;
    const unit = 10n ** BigInt(digits);
    const scaled = (p < 0n ? -p : p) * 100n * unit; // |share| in units of the last digit, times q
    if (floor && p !== 0n && scaled < q) return localPercent(`<${smallest}%`);
    let count = scaled / q;
    const twice = 2n * (scaled % q);
    if (twice > q || (twice === q && count % 2n === 1n)) count += 1n;
    const whole = `${count / unit}`;
    const decimals = digits > 0 ? `.${`${count % unit}`.padStart(digits, "0")}` : "";
    text = `${p < 0n && count ? "-" : ""}${whole}${decimals}`;
  }
  if (trim && text.includes(".")) text = text.replace(/\.?0+$/, "");
  return localPercent(`${text}%`);
}

/** Plain text of an HTML fragment, parsed inertly (a template runs no scripts, loads nothing). */
export function htmlToText(html) {
  const template = document.createElement("template");
  template.innerHTML = html;
  return template.content.textContent.replace(/\s+/g, " ").trim();
}

/** A label for a person: "failed_roll" -> "Failed Roll". */
export function humanize(name) {
  return String(name)
    .replace(/[_-]+/g, " ")
    .replace(/\b\w/g, (c) => c.toUpperCase())
    .trim();
}

/** Unique-enough ids for elements we add (tooltips, panels). */
let counter = 0;
export function uid(prefix) {
  counter += 1;
  return `${prefix}-${counter}`;
}

/** This page's path (no query, no hash): the base for links back to a roll. */
export function pageUrl() {
  return `${location.origin}${location.pathname}`;
}

/**
 * The JSON payload of a widget: the text of its `template.rb-data` (the build writes `<`,
 * `>` and `&` as JSON escapes, so the template holds one text node). A template, because
 * Material's instant navigation re-runs inline scripts without their type. Hand-written
 * pages outside Material may use `script.rb-data[type="application/json"]` instead.
 */
export function readPayload(root) {
  const node = root.querySelector(
    ':scope > template.rb-data, :scope > script.rb-data[type="application/json"]',
  );
  if (!node) return null;
  const text = node.tagName === "TEMPLATE" ? node.content.textContent : node.textContent;
  try {
    return JSON.parse(text);
  } catch {
    return null; // the build reported it; nothing to roll with
  }
}

/** Put text on the clipboard; false where the browser refuses (no permission, no https). */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * How long a request may run before its widget shows that it is busy (milliseconds). A
 * reply within this shows no intermediate state, so a click costs the reader one frame of
 * rendering, not two (click -> painted: docs/reference/performance.md); a slow one still
 * says it is working.
 */
export const BUSY_DELAY_MS = 80;

/**
 * Mark `button` (aria-busy) and `root` (class rb-busy) busy once the work has run for
 * BUSY_DELAY_MS, or at once when `now`; returns the function that ends the mark.
 */
export function markBusy(button, root, now = false) {
  let shown = false;
  const show = () => {
    shown = true;
    button.setAttribute("aria-busy", "true");
    root.classList.add("rb-busy");
  };
  const timer = now ? null : setTimeout(show, BUSY_DELAY_MS);
  if (now) show();
  return () => {
    clearTimeout(timer);
    if (!shown) return; // nothing was changed, so nothing to render again
    button.removeAttribute("aria-busy");
    root.classList.remove("rb-busy");
  };
}

/**
 * The site's base URL: our assets live at `<base>/assets/rollbook/`, so two sites on one
 * origin (project pages of one account) have different bases.
 */
export const SITE_BASE = new URL("../../", import.meta.url).href;

/** A storage key scoped to this site, so sites on one origin keep apart what they store. */
export function siteKey(name) {
  return `${name}@${new URL(SITE_BASE).pathname}`;
}
