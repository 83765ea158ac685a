// @ts-check
// The engine's sentences in the reader's language: why a roll was refused, "no row", every
// line of a fight's log. The engine sends each as a catalogue key and its arguments
// (rollbook/engine/messages.py); this module and their texts (strings-engine.js) are
// fetched the first time a reply holds one (engine.js), not with the page's first bytes.

import DATA from "./strings.js";
import ENGINE from "./strings-engine.js";
import { catalogue, language, numberText, t } from "./i18n.js";

/**
 * @typedef {{catalogues: Record<string, Record<string, string | Record<string, string>>>}} EngineStringsFile
 * A sentence of the engine: a catalogue key and its arguments, each text, a number, another
 * message, or parts joined by the text of the key `sep`.
 * @typedef {{key: string, args?: Record<string, MessageArg>}} Message
 * @typedef {{sep: string, items: MessageArg[]}} JoinedArg
 * @typedef {string | number | Message | JoinedArg} MessageArg
 */

for (const [lang, strings] of Object.entries(ENGINE.catalogues || {})) {
  const cat = DATA.catalogues?.[lang];
  if (cat) cat.strings = { ...strings, ...cat.strings };
}

/**
 * A text as a sentence, as the engine writes its refusals: the first letter a capital and a
 * full stop at the end unless it ends with one ("prompt 'bonus' must be …" said alone).
 * @param {string} text
 */
export function asSentence(text) {
  if (!text) return text;
  const first = text[0].toLocaleUpperCase(language());
  return first + text.slice(1) + (/[.!?…]$/.test(text) ? "" : ".");
}

/**
 * An engine message in the page's language; `fallback` (the engine's English) when the
 * catalogue does not have its key.
 * @param {MessageArg} message
 * @param {string} [fallback]
 * @returns {string}
 */
export function say(message, fallback) {
  if (typeof message === "number") return numberText(message);
  if (typeof message !== "object" || message === null) return String(message);
  if ("items" in message) return message.items.map((item) => say(item)).join(t(message.sep));
  if (!catalogue()?.strings[message.key]) return fallback ?? message.key;
  /** @type {Record<string, string | number>} */
  const args = {};
  for (const [name, value] of Object.entries(message.args || {})) {
    args[name] = name === "count" && typeof value === "number" ? value : say(value);
  }
  return t(message.key, args);
}

/**
 * A reply with the engine's own sentences (an error's `message`, a table's `said` when no
 * row matched, a fight's `events`) said in the page's language, in `error`, `text` and `log`
 * where every widget reads them.
 * @template {object} R
 * @param {R} given
 * @returns {R}
 */
export function localised(given) {
  const reply = /** @type {Record<string, any>} */ (given);
  const out = { ...reply };
  if (reply.message && reply.error) out.error = asSentence(say(reply.message, reply.error));
  // `text` is HTML (a row's sentence); this one is plain text.
  if (reply.said) out.text = say(reply.said, "").replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`) || reply.text;
  if (Array.isArray(reply.events)) {
    out.log = reply.events.map((event, i) => say(event, reply.log?.[i]));
  }
  // A table a row rolled answers inside the reply, its "no row" as well.
  if (Array.isArray(reply.nested)) {
    out.nested = reply.nested.map((part) => (part?.kind === "table" ? localised(part) : part));
  }
  return /** @type {R} */ (out);
}
