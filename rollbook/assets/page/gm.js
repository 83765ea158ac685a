// @ts-check
// The GM screen: the pinned rolls, tables, lists and encounters of every page on one page,
// each rolling in place with its prompts. Items are copied from their own pages, so they
// roll exactly as they do there. Reorder, remove, share.
//
// A pin may come from a link anyone can write, so a page is fetched only when the site's
// page list (pages.json, written by the build) names it, and read only if it is HTML of a
// sane size; it is parsed inertly (DOMParser) and only the pinned widget is taken, with
// scripts, frames and event handler attributes left out before it joins this page.

import { numberText, t } from "./i18n.js";
import * as pins from "./pins.js";
import { copyText, el, uid } from "./dom.js";
import { embedRefs } from "./refs-store.js";
import { SITE_BASE } from "./site.js";
import { dropModifier, moveModifier } from "./variants.js";

export const SELECTOR = "[data-rb-gm]";

/** @typedef {import("./pins.js").Pin} Pin */
/** @typedef {{doc: Document, problem?: undefined} | {problem: string, doc?: undefined}} LoadedPage */

/** @type {Record<string, (id: string) => string>} */
const SELECTORS = {
  inline: (id) => `.rb-inline[data-rb-id="${CSS.escape(id)}"]`,
  table: (id) => `.rb-table[data-rb-anchor="${CSS.escape(id)}"]`,
  list: (id) => `.rb-table[data-rb-anchor="${CSS.escape(id)}"]`,
  combat: (id) => `.rb-combat[data-rb-anchor="${CSS.escape(id)}"]`,
};
const ID_REFS = ["for", "aria-controls", "aria-labelledby", "aria-describedby", "list"];
/** @type {Map<string, Promise<LoadedPage>>} */
const pagesFetched = new Map(); // page -> its page, per screen mount
const PAGES_URL = new URL("./pages.json", import.meta.url);
const PAGE_LIMIT = 5_000_000; // bytes of one page the screen reads at most
/** @type {Promise<Set<string>> | null} */
let listing = null; // the files pages.json lists, per screen mount
// Left out of a copied widget: what could run, load a document or restyle the page.
const DROPPED = "script, iframe, frame, frameset, object, embed, applet, link, meta, base, style, noscript";
const UNREACHABLE = "gm.unreachable"; // catalogue keys of why an item cannot be shown

/**
 * A shared screen in the address: ?pin=page|id|kind&pin=... (prompt values as page|id|kind|a=1;b=2).
 * @param {Pin[]} list
 */
export function shareLink(list) {
  const params = new URLSearchParams();
  for (const pin of list) {
    const prompts = Object.entries(pin.prompts || {})
      .map(([k, v]) => `${k}=${v}`)
      .join(";");
    params.append("pin", [pin.page, pin.id, pin.kind, prompts].filter((part, i) => i < 3 || part).join("|"));
  }
  return `${location.origin}${location.pathname}?${params}`;
}

/**
 * The pins of a shared link (checked like stored ones), or null when the address has none.
 * @returns {Pin[] | null}
 */
export function fromLink(search = location.search) {
  const values = new URLSearchParams(search).getAll("pin");
  if (!values.length) return null;
  /** @type {Pin[]} */
  const out = [];
  for (const value of values.slice(0, 60)) {
    const [page, id, kind, promptText = ""] = value.split("|");
    /** @type {Record<string, string>} */
    const prompts = {};
    for (const pair of promptText.split(";").filter(Boolean)) {
      const at = pair.indexOf("=");
      if (at > 0) prompts[pair.slice(0, at)] = pair.slice(at + 1);
    }
    const pin = pins.cleanPin({ page, id, kind, label: id, prompts });
    if (pin) out.push(pin);
  }
  return out;
}

/**
 * The site's pages with rolls (pages.json) as files; empty when it cannot be read.
 * @returns {Promise<Set<string>>}
 */
function pageList() {
  listing ??= fetch(PAGES_URL, { credentials: "same-origin" })
    .then((response) => (response.ok ? response.json() : null))
    .then(
      (data) =>
        new Set(
          Array.isArray(data?.pages) ? data.pages.filter((/** @type {unknown} */ p) => typeof p === "string") : [],
        ),
    )
    .catch(() => new Set());
  return listing;
}

/**
 * Whether the page list names `page` (a pin's page path).
 * @param {string} page
 */
async function listed(page) {
  return pins.cleanPage(page) !== null && (await pageList()).has(pins.pageFile(page));
}

/**
 * The body of `response` as text, or null past `limit` bytes (the rest is not downloaded).
 * @param {Response} response
 * @param {number} limit
 * @returns {Promise<string | null>}
 */
async function limitedText(response, limit) {
  if (Number(response.headers.get("content-length")) > limit) {
    response.body?.cancel().catch(() => {});
    return null;
  }
  if (!response.body) return response.text();
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    total += value.byteLength;
    if (total > limit) {
      reader.cancel().catch(() => {});
      return null;
    }
    text += decoder.decode(value, { stream: true });
  }
}

/**
 * A listed page of this site, parsed inertly: {doc}, or {problem: a catalogue key}.
 * @param {string} page
 * @returns {Promise<LoadedPage>}
 */
async function loadPage(page) {
  if (!(await listed(page))) {
    return { problem: "gm.unlisted" };
  }
  const response = await fetch(pins.pageUrl(page), { credentials: "same-origin" });
  if (!response.ok || !response.url.startsWith(SITE_BASE)) return { problem: UNREACHABLE };
  const type = response.headers.get("content-type") || "";
  if (!/^\s*(text\/html|application\/xhtml\+xml)\s*(;|$)/i.test(type)) {
    response.body?.cancel().catch(() => {});
    return { problem: "gm.not_html" };
  }
  const html = await limitedText(response, PAGE_LIMIT);
  if (html === null) return { problem: "gm.too_big" };
  return { doc: new DOMParser().parseFromString(html, "text/html") };
}

/**
 * A page of the site, fetched once per screen mount.
 * @param {string} page
 * @returns {Promise<LoadedPage>}
 */
function fetchPage(page) {
  let loaded = pagesFetched.get(page);
  if (!loaded) {
    loaded = loadPage(page).catch(() => ({ problem: UNREACHABLE }));
    pagesFetched.set(page, loaded);
  }
  return loaded;
}

/**
 * Strip what could run or load from a widget of a parsed (inert) page, in place.
 * @template {Element} T
 * @param {T} node
 * @returns {T}
 */
function inert(node) {
  for (const element of node.querySelectorAll(DROPPED)) element.remove();
  for (const element of [node, ...node.querySelectorAll("*")]) {
    for (const { name, value } of [...element.attributes]) {
      const lower = name.toLowerCase();
      // Control characters and spaces inside a scheme are ignored by URL parsers.
      // biome-ignore lint/suspicious/noControlCharactersInRegex: they are what it removes
      const scheme = value.replace(/[\u0000-\u0020]/g, "").toLowerCase();
      const runs = scheme.startsWith("javascript:") || scheme.startsWith("vbscript:");
      // A link keeps an href (navigation code reads every link's URL), one that goes nowhere.
      if (runs && lower === "href") element.setAttribute(name, "#");
      else if (runs || lower.startsWith("on") || lower === "srcdoc" || lower === "formaction") {
        element.removeAttribute(name);
      }
    }
  }
  return node;
}

/**
 * A copy of the item with its ids made unique on this screen (labels still point right).
 * @template {Element} T
 * @param {T} node
 * @param {string} prefix
 * @returns {T}
 */
function adopt(node, prefix) {
  const copy = document.importNode(inert(node), true);
  const all = [copy, ...copy.querySelectorAll("*")];
  /** @type {Map<string, string>} */
  const renamed = new Map();
  for (const element of all) {
    if (element.id) {
      renamed.set(element.id, `${prefix}-${element.id}`);
      element.id = `${prefix}-${element.id}`;
    }
  }
  for (const element of all) {
    for (const attr of ID_REFS) {
      const value = element.getAttribute(attr);
      if (value)
        element.setAttribute(
          attr,
          value
            .split(/\s+/)
            .map((v) => renamed.get(v) || v)
            .join(" "),
        );
    }
    element.removeAttribute("data-rb-mounted");
  }
  return copy;
}

/**
 * Put a pin's prompt values into the inputs of its copy (nested ones exist once mounted).
 * @param {Element} copy
 * @param {Record<string, string> | undefined} prompts
 */
function fillPrompts(copy, prompts) {
  for (const [name, value] of Object.entries(prompts || {})) {
    const input = copy.querySelector(`.rb-prompts input[name="${CSS.escape(name)}"]`);
    if (input instanceof HTMLInputElement) input.value = value;
  }
}

/**
 * Modifiers of inline rolls used to be kept under the GM screen's own path and the roll's
 * id, so two pages' rolls with one id shared one. Each now lives under its page's path: an
 * old one moves to the one pinned roll with its id, and is dropped when several have it.
 * @param {Pin[]} own
 */
function migrateModifiers(own) {
  /** @type {Map<string, Pin[]>} */
  const byId = new Map();
  for (const pin of own) {
    if (pin.kind === "inline") byId.set(pin.id, [...(byId.get(pin.id) || []), pin]);
  }
  for (const [id, found] of byId) {
    const old = `${location.pathname}#${id}`;
    if (found.length === 1) moveModifier(old, `${pins.pageUrl(found[0].page).pathname}#${id}`);
    else dropModifier(old);
  }
}

/**
 * Mount the GM screen; `mountWidgets(container)` makes the copied items live.
 * @param {HTMLElement} root
 * @param {(container: Element) => void} mountWidgets
 */
export function mount(root, mountWidgets) {
  if (root.dataset.rbMounted) return;
  root.dataset.rbMounted = "true";
  pagesFetched.clear();
  listing = null;
  migrateModifiers(pins.load());
  const shared = fromLink();
  let list = shared ?? pins.load();
  const status = el("p", { class: "rb-gm-status", "aria-live": "polite" });
  const actions = el("div", { class: "rb-bar rb-gm-actions", "data-search-exclude": "" });
  const share = el("button", { type: "button", class: "rb-gm-share" }, t("gm.share"));
  const keep = el("button", { type: "button", class: "rb-gm-keep", hidden: "" }, t("gm.keep"));
  const shareOut = el("a", { class: "rb-gm-link", hidden: "" }, t("gm.link"));
  actions.append(share, keep, shareOut);
  // Asked before a shared screen replaces the GM's own pins: in the page, not a pop-up.
  const askId = uid("rb-gm-ask");
  const ask = el("div", { class: "rb-gm-confirm", role: "group", "aria-labelledby": askId, hidden: "" });
  const question = el("p", { id: askId });
  const replace = el("button", { type: "button", class: "rb-gm-replace" }, t("gm.replace"));
  const cancel = el("button", { type: "button", class: "rb-gm-cancel" }, t("gm.keep_own"));
  ask.append(question, replace, cancel);
  const items = el("ol", { class: "rb-gm-items" });
  root.replaceChildren(actions, ask, status, items);

  share.addEventListener("click", async () => {
    const href = shareLink(list);
    shareOut.href = href;
    shareOut.hidden = false;
    status.textContent = t((await copyText(href)) ? "link.copied" : "gm.copy_beside");
  });
  const adoptShared = () => {
    pins.save(list);
    keep.hidden = true;
    ask.hidden = true;
    status.textContent = t("gm.yours");
  };
  keep.addEventListener("click", () => {
    const own = pins.load();
    const same = own.length === list.length && own.every((p, i) => p.page === list[i].page && p.id === list[i].id);
    if (!own.length || same) return adoptShared();
    question.textContent = t("gm.ask_replace", { count: own.length });
    ask.hidden = false;
    cancel.focus();
  });
  replace.addEventListener("click", () => {
    adoptShared();
    keep.focus();
  });
  const stopAsking = () => {
    ask.hidden = true;
    status.textContent = t("gm.unchanged");
    keep.focus();
  };
  cancel.addEventListener("click", stopAsking);
  ask.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    event.preventDefault();
    stopAsking();
  });

  const persist = () => {
    if (!shared || keep.hidden) pins.save(list);
  };

  /** @param {{index: number, cls: string} | null} [focusAt]  the control to focus after */
  const draw = async (focusAt = null) => {
    items.replaceChildren();
    if (!list.length) {
      items.append(el("li", { class: "rb-gm-empty" }, t("gm.empty")));
      return;
    }
    const cards = list.map((pin, index) => card(pin, index));
    items.append(...cards.map((c) => c.item));
    if (focusAt)
      /** @type {HTMLElement | null} */ (cards[focusAt.index]?.item.querySelector(`.${focusAt.cls}`))?.focus();
    await Promise.all(cards.map((c) => c.fill()));
  };

  /**
   * @param {number} index
   * @param {number} by
   */
  const move = (index, by) => {
    const to = index + by;
    if (to < 0 || to >= list.length) return;
    [list[index], list[to]] = [list[to], list[index]];
    persist();
    draw({ index: to, cls: by < 0 ? "rb-gm-up" : "rb-gm-down" });
    status.textContent = t("gm.moved", {
      item: list[to].label,
      place: numberText(to + 1),
      count: numberText(list.length),
    });
  };
  /** @param {number} index */
  const remove = (index) => {
    const [gone] = list.splice(index, 1);
    persist();
    draw();
    status.textContent = t("gm.removed", { item: gone.label });
  };

  /**
   * @param {Pin} pin
   * @param {number} index
   */
  const card = (pin, index) => {
    const item = el("li", { class: "rb-gm-item", "data-rb-gm-page": pin.page, "data-rb-gm-id": pin.id });
    const head = el("div", { class: "rb-gm-head" });
    const home = pins.pageUrl(pin.page);
    item.dataset.rbHome = home.pathname; // whose modifiers its inline roll uses (variants.js)
    const link = el("a", { href: `${home.href}#${encodeURIComponent(pin.id)}` }, pin.label);
    const controls = el("div", { class: "rb-gm-controls", "data-search-exclude": "" });
    const up = el("button", { type: "button", class: "rb-gm-up", "aria-label": t("gm.up", { item: pin.label }) }, "↑");
    const down = el(
      "button",
      { type: "button", class: "rb-gm-down", "aria-label": t("gm.down", { item: pin.label }) },
      "↓",
    );
    const drop = el(
      "button",
      { type: "button", class: "rb-gm-remove", "aria-label": t("gm.remove_item", { item: pin.label }) },
      t("gm.remove"),
    );
    up.disabled = index === 0;
    down.disabled = index === list.length - 1;
    up.addEventListener("click", () => move(index, -1));
    down.addEventListener("click", () => move(index, 1));
    drop.addEventListener("click", () => remove(index));
    controls.append(up, down, drop);
    head.append(link, controls);
    const body = el("div", { class: "rb-gm-body" }, t("gm.loading"));
    item.append(head, body);
    const fill = async () => {
      const { doc, problem } = await fetchPage(pin.page);
      const found = /** @type {HTMLElement | null | undefined} */ (doc?.querySelector(SELECTORS[pin.kind](pin.id)));
      if (!doc || !found) {
        body.textContent = t(problem || "gm.gone");
        return;
      }
      const copy = adopt(found, `gm${index}`);
      embedRefs(copy, doc); // the tables it rolls are in its page's store, not in it
      if (pin.kind !== "inline") copy.dataset.rbTitle = pin.label;
      fillPrompts(copy, pin.prompts);
      if (pin.kind === "inline") {
        const line = el("p");
        line.append(copy);
        body.replaceChildren(line);
      } else body.replaceChildren(copy);
      mountWidgets(body);
      fillPrompts(copy, pin.prompts); // the referenced tables' inputs (ANCHOR.NAME) came with the mount
      /** @type {() => HTMLInputElement[]} */
      const inputs = () => [...copy.querySelectorAll(".rb-prompts input")].filter((i) => i instanceof HTMLInputElement);
      for (const input of inputs()) {
        input.addEventListener("change", () => {
          const values = Object.fromEntries(inputs().map((i) => [i.name, i.value]));
          pin.prompts = values;
          persist();
        });
      }
    };
    return { item, fill };
  };

  if (!shared)
    pins.onChange(() => {
      if (!root.isConnected) return;
      list = pins.load();
    });
  if (!shared) return void draw();
  // A shared link keeps only the pins whose page the site lists.
  Promise.all(shared.map((pin) => listed(pin.page))).then((ok) => {
    list = shared.filter((_, i) => ok[i]);
    const left = shared.length - list.length;
    keep.hidden = false;
    status.textContent = t("gm.shared", { count: list.length }) + (left ? ` ${t("gm.left_out", { count: left })}` : "");
    draw();
  });
}
