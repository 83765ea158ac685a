// @ts-check
// Seeds from links and forms: ASCII digits only (no sign, no spaces), at most MAX_SEED,
// the rule `rollbook table --seed` applies too (rollbook/engine/bridge.py `parse_seed`).

import { numberText, t } from "./i18n.js";

/** The bridge's bound, exact in JavaScript. */
export const MAX_SEED = 2 ** 53 - 1;

/** The seed rule as a phrase of the page's language (catalogue key seed.rule). */
export function seedRule() {
  return t("seed.rule", { max: numberText(MAX_SEED) });
}

/**
 * The seed `text` stands for, or null when it breaks the rule.
 * @param {unknown} text
 */
export function parseSeed(text) {
  if (typeof text !== "string" || !/^[0-9]{1,16}$/.test(text)) return null;
  const seed = Number(text);
  return seed <= MAX_SEED ? seed : null;
}
