// @ts-check
// The tables a page's tables roll, written once per page. A payload names them by key
// ("refs": ["docs/a.md#x", ...]); the page's store holds them:
// <template class="rb-refs">{"here": {KEY: ANCHOR}, "tables": {KEY: TABLE}}</template>,
// tables of other pages in full and the page's own by the anchor of the widget holding
// them (rollbook/markup/refs_store.py). The engine is sent {KEY: TABLE} as before.

import { readPayload } from "./dom.js";

/** @typedef {{here: Record<string, string>, tables: Record<string, object>}} Store */

const STORE = "template.rb-refs";
/** @type {WeakMap<Element, Store>} each store element's JSON, read once */
const read = new WeakMap();

/**
 * @param {unknown} value
 * @returns {Record<string, any>}
 */
function record(value) {
  return value && typeof value === "object" && !Array.isArray(value) ? /** @type {Record<string, any>} */ (value) : {};
}

/**
 * @param {Element} node
 * @returns {Store}
 */
function storeOf(node) {
  let store = read.get(node);
  if (!store) {
    let data = {};
    try {
      data = JSON.parse(/** @type {HTMLTemplateElement} */ (node).content.textContent || "");
    } catch {
      // a store the build wrote cannot be broken; one that is reads as empty
    }
    store = { here: record(record(data).here), tables: record(record(data).tables) };
    read.set(node, store);
  }
  return store;
}

/**
 * The table a page's own widget holds (its payload without its references), or null.
 * @param {ParentNode} doc
 * @param {unknown} anchor
 */
function ownTable(doc, anchor) {
  if (typeof anchor !== "string") return null;
  const widget = doc.querySelector(`.rb-table[data-rb-anchor="${CSS.escape(anchor)}"]`);
  const data = widget && readPayload(widget);
  if (!data || typeof data !== "object") return null;
  const { refs: _unused, ...table } = data;
  return table;
}

/**
 * The tables a payload names in `refs`, found in `doc`'s store: {KEY: TABLE}, as the
 * engine reads them. A payload whose `refs` are the tables themselves keeps them.
 * @param {{refs?: unknown}} data
 * @param {ParentNode} doc
 * @returns {Record<string, object>}
 */
export function refsOf(data, doc) {
  const refs = data.refs;
  if (!Array.isArray(refs)) return record(refs);
  const stores = [...doc.querySelectorAll(STORE)].map(storeOf);
  /** @type {Record<string, object>} */
  const out = {};
  for (const key of refs) {
    if (typeof key !== "string") continue;
    for (const store of stores) {
      const table = Object.hasOwn(store.tables, key)
        ? store.tables[key]
        : Object.hasOwn(store.here, key) && ownTable(doc, store.here[key]);
      if (table) {
        out[key] = table;
        break;
      }
    }
  }
  return out;
}

/**
 * A payload with the tables it rolls in place of their keys (what the worker is sent).
 * @template {{refs?: unknown} | null} T
 * @param {T} data
 * @param {ParentNode} doc where the payload's page is (its store, its widgets)
 * @returns {T}
 */
export function withRefs(data, doc) {
  if (data && Array.isArray(data.refs)) data.refs = refsOf(data, doc);
  return data;
}

/**
 * Write the tables a copied widget rolls into its own payloads, from the page it came
 * from (the GM screen copies one widget, not its page's store).
 * @param {Element} copy
 * @param {ParentNode} doc the page the widget was copied from
 */
export function embedRefs(copy, doc) {
  for (const node of [copy, ...copy.querySelectorAll("template.rb-data")]) {
    if (!(node instanceof HTMLTemplateElement) || !node.classList.contains("rb-data")) continue;
    let data;
    try {
      data = JSON.parse(node.content.textContent || "");
    } catch {
      continue;
    }
    if (!data || !Array.isArray(data.refs)) continue;
    data.refs = refsOf(data, doc);
    node.content.textContent = JSON.stringify(data);
  }
}
