// @ts-check
// Nested rolls in table rows: the dice and tables a row rolls together with it. After a
// table roll the hit row's inline rolls and table references show what the engine rolled
// (reply.nested, in the order of the row's [data-rb-nest] elements); each stays a button
// that rolls again on its own. Prompts of the referenced tables are asked next to the
// table's own, named ANCHOR.NAME as the engine expects.

import { newSeed, request } from "./engine.js";
import { record } from "./history.js";
import { t } from "./i18n.js";
import { paint as paintInline } from "./inline.js";
import { el, htmlToText, humanize, readPayload, uid } from "./dom.js";
import { formatTotal } from "./numbers.js";
import { withRefs } from "./refs-store.js";
import { pageUrl } from "./site.js";

/** @typedef {import("./protocol.js").TablePayload} TablePayload */
/** @typedef {import("./protocol.js").PromptValues} PromptValues */
/** @typedef {import("./protocol.js").PromptSpec} PromptSpec */
/** @typedef {import("./protocol.js").ReplyTo<"table">} TableAnswer */
/** @typedef {import("./protocol.js").TableRollReply} TableRollReply */

const PARTS = "[data-rb-nest]";

/**
 * The anchor of a table reference ("page#anchor" -> "anchor").
 * @param {string} key
 */
function anchorOf(key) {
  return String(key).split("#").pop() || "";
}

/**
 * What a referenced table's roll shows: its result, else its total, else why it failed.
 * @param {TableAnswer} reply
 */
function refText(reply) {
  if (reply.error !== undefined) return reply.error;
  if (reply.text) return htmlToText(reply.text);
  return t("roll.rolled", { total: formatTotal(reply.roll ? reply.roll.total : "?") });
}

/**
 * The cell of `column` in the row a reply hit (Obsidian's `|Column`), or null.
 * @param {TablePayload} table
 * @param {TableAnswer} reply
 * @param {string | null} column
 */
function columnText(table, reply, column) {
  if (!column || !table || reply.error !== undefined || reply.row === null || reply.row === undefined) return null;
  const headers = Array.isArray(table.headers) ? table.headers : [];
  const at = headers.findIndex((h) => String(h).trim().toLowerCase() === column.trim().toLowerCase());
  const row = Array.isArray(table.rows) ? table.rows[reply.row] : null;
  if (at < 0 || !row || !Array.isArray(row.cells)) return null;
  return `Rolled ${formatTotal(reply.roll ? reply.roll.total : "?")}: ${htmlToText(String(row.cells[at]))}`;
}

export const DICE_REF_SELECTOR = ".rb-dice-ref";

/**
 * An Obsidian Dice Roller table roll written in running text (`dice: [[Page#^id]]`): its
 * payload names the table (and the tables it rolls: the page's store holds them) and,
 * maybe, the column to show.
 * @param {HTMLElement} root
 */
export function mountDiceRef(root) {
  if (root.dataset.rbMounted) return;
  const data = withRefs(readPayload(root), root.ownerDocument);
  if (!data) return;
  mountRefs(root, data, () => ({ values: {} }), typeof data.column === "string" ? data.column : null);
}

/**
 * Show a table roll's nested results in its row (`row`: the hit row element).
 * @param {HTMLElement} row
 * @param {TableRollReply} reply
 */
export function paint(row, reply) {
  const nested = Array.isArray(reply.nested) ? reply.nested : [];
  [.../** @type {NodeListOf<HTMLElement>} */ (row.querySelectorAll(PARTS))].forEach((part, i) => {
    const result = nested[i];
    if (!result) return;
    if (result.kind === "dice") paintInline(part, result.roll);
    else {
      const out = part.querySelector("output.rb-out");
      if (out) out.textContent = refText(result);
    }
  });
}

/** @param {PromptSpec} spec */
function defaultOf(spec) {
  if (spec.min !== null && spec.min !== undefined) return spec.min;
  if (spec.max !== null && spec.max !== undefined && spec.max < 0) return spec.max;
  return 0;
}

/**
 * Inputs for the prompts of the tables this one rolls (ANCHOR.NAME), after its own.
 * @param {Element} root
 * @param {TablePayload} data
 * @returns {HTMLInputElement[]}
 */
export function ensureInputs(root, data) {
  const refs = data.refs && typeof data.refs === "object" ? data.refs : {};
  /** @type {Set<string>} */
  const seen = new Set();
  const box = el("fieldset", { class: "rb-prompts rb-nested-prompts" });
  box.append(el("legend", {}, t("table.nested_prompts")));
  for (const [key, table] of Object.entries(refs)) {
    const anchor = anchorOf(key);
    for (const given of table?.prompts || []) {
      const spec = /** @type {PromptSpec} */ (given); // the build writes every prompt in full
      const name = `${anchor}.${spec.name}`;
      if (seen.has(name)) continue;
      seen.add(name);
      const id = uid("rb-nested-prompt");
      const input = el("input", {
        type: spec.type === "range" ? "range" : "number",
        name,
        id,
        value: String(defaultOf(spec)),
        step: "1",
        required: "",
        min: spec.min ?? null,
        max: spec.max ?? null,
      });
      const label = el("label", { for: id }, `${humanize(anchor)}: ${spec.label || humanize(spec.name)}`);
      const field = el("div", { class: "rb-prompt" });
      field.append(label, input);
      box.append(field);
    }
  }
  if (!seen.size) return [];
  const own = root.querySelector(".rb-prompts");
  if (own) own.after(box);
  else root.querySelector(".rb-bar")?.before(box);
  return [.../** @type {NodeListOf<HTMLInputElement>} */ (box.querySelectorAll("input[name]"))];
}

/**
 * The request's prompts for rolling the referenced table `anchor` on its own.
 * @param {string} anchor
 * @param {PromptValues} values
 */
function promptsFor(anchor, values) {
  /** @type {PromptValues} */
  const out = {};
  for (const [name, value] of Object.entries(values)) {
    if (name.startsWith(`${anchor}.`)) out[name.slice(anchor.length + 1)] = value;
    else if (name.includes(".")) out[name] = value;
  }
  return out;
}

/**
 * Make the table references in a table's cells roll their table on their own.
 * @param {Element} root the table block
 * @param {TablePayload} data its payload
 * @param {() => {values: PromptValues, error?: string}} read its checked prompt values
 * @param {string | null} [column]  the column whose cell a roll shows (a dice reference)
 */
export function mountRefs(root, data, read, column = null) {
  const refs = data.refs && typeof data.refs === "object" ? data.refs : {};
  for (const part of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll(".rb-ref[data-rb-table]"))) {
    if (part.dataset.rbMounted) continue;
    part.dataset.rbMounted = "true";
    const button = part.querySelector("button.rb-roll");
    const out = part.querySelector("output.rb-out");
    if (!button || !out) continue;
    const key = part.dataset.rbTable || "";
    button.addEventListener("click", async () => {
      const table = refs[key];
      if (!table) {
        out.textContent = t("table.ref_missing");
        return;
      }
      const checked = read();
      if (checked.error) {
        out.textContent = t("table.not_rolled", { why: checked.error });
        return;
      }
      const anchor = anchorOf(key);
      const reply = await request({
        op: "table",
        table: { ...table, refs },
        seed: newSeed(),
        prompts: promptsFor(anchor, checked.values),
      });
      const shown = columnText(table, reply, column) || refText(reply);
      out.textContent = shown;
      if (!reply.error) {
        record({
          where: humanize(anchor),
          result: shown,
          href: part.id ? `${pageUrl()}#${encodeURIComponent(part.id)}` : pageUrl(),
        });
      }
    });
  }
}
