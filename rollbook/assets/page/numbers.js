// @ts-check
// Numbers as readers read them: roll totals, and chances as the engine writes them ("p/q")
// shown as fractions and percentages in the page's language. The twins of `fractionText`
// and `percentText` in Python (rollbook/engine/numbers.py) give the same text for the
// same fraction (tests/markup/test_number_formats.py).

import { localPercent, numberText } from "./i18n.js";

/**
 * A roll total as readers read it: numbers in the page's language, comma rolls as "3, 5".
 * @param {unknown} total  a Total (protocol.js), or anything else, shown as text
 * @returns {string}
 */
export function formatTotal(total) {
  if (Array.isArray(total)) return total.map(formatTotal).join(", ");
  if (typeof total === "number" && !Number.isInteger(total)) {
    return numberText(String(Math.round(total * 100) / 100));
  }
  return numberText(String(total));
}

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

/**
 * "p/q" as a number (NaN when it is not a fraction).
 * @param {string | number} pq
 */
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
 * A share as a percentage in the page's language: "1/36" -> "2.8%" ("2,8 %" in French). A
 * "p/q" is rounded from its exact value, a half to the even digit ("1/16" -> "6.2%"), as
 * the build writes it; a number (a Monte Carlo rate, a sum of shares) as `toFixed` rounds
 * it. "" when `share` is neither.
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
