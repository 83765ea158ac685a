// @ts-check
// The GM screen: the pinned rolls, tables, lists and encounters of every page on one page,
// each rolling in place with its prompts. Items are copied from their own pages (fetched
// from this site only), so they roll exactly as they do there. Reorder, remove, share.

import { numberText, t } from "./i18n.js";
import * as pins from "./pins.js";
import { copyText, el, SITE_BASE } from "./util.js";

export const SELECTOR = "[data-rb-gm]";

const SELECTORS = {
  inline: (id) => `.rb-inline[data-rb-id="${CSS.escape(id)}"]`,
  table: (id) => `.rb-table[data-rb-anchor="${CSS.escape(id)}"]`,
  list: (id) => `.rb-table[data-rb-anchor="${CSS.escape(id)}"]`,
  combat: (id) => `.rb-combat[data-rb-anchor="${CSS.escape(id)}"]`,
};
const ID_REFS = ["for", "aria-controls", "aria-labelledby", "aria-describedby", "list"];
const pagesFetched = new Map(); // page -> Promise<Document | null>, per screen mount

/** A shared screen in the address: ?pin=page|id|kind&pin=... (prompt values as page|id|kind|a=1;b=2). */
export function shareLink(list) {
  const params = new URLSearchParams();
  for (const pin of list) {
    const prompts = Object.entries(pin.prompts || {}).map(([k, v]) => `${k}=${v}`).join(";");
    params.append("pin", [pin.page, pin.id, pin.kind, prompts].filter((part, i) => i < 3 || part).join("|"));
  }
  return `${location.origin}${location.pathname}?${params}`;
}

/** The pins of a shared link (checked like stored ones), or null when the address has none. */
export function fromLink(search = location.search) {
  const values = new URLSearchParams(search).getAll("pin");
  if (!values.length) return null;
  const out = [];
  for (const value of values.slice(0, 60)) {
    const [page, id, kind, promptText = ""] = value.split("|");
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

function fetchPage(page) {
  if (!pagesFetched.has(page)) {
    const url = new URL(page, SITE_BASE);
    pagesFetched.set(
      page,
      fetch(url, { credentials: "same-origin" })
        .then((response) => (response.ok ? response.text() : null))
        .then((html) => (html === null ? null : new DOMParser().parseFromString(html, "text/html")))
        .catch(() => null),
    );
  }
  return pagesFetched.get(page);
}

/** A copy of the item with its ids made unique on this screen (labels still point right). */
function adopt(node, prefix) {
  const copy = document.importNode(node, true);
  const all = [copy, ...copy.querySelectorAll("*")];
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
      if (value) element.setAttribute(attr, value.split(/\s+/).map((v) => renamed.get(v) || v).join(" "));
    }
    element.removeAttribute("data-rb-mounted");
  }
  return copy;
}

/** Mount the GM screen; `mountWidgets(container)` makes the copied items live. */
export function mount(root, mountWidgets) {
  if (root.dataset.rbMounted) return;
  root.dataset.rbMounted = "true";
  pagesFetched.clear();
  const shared = fromLink();
  let list = shared ?? pins.load();
  const status = el("p", { class: "rb-gm-status", "aria-live": "polite" });
  const actions = el("div", { class: "rb-bar rb-gm-actions", "data-search-exclude": "" });
  const share = el("button", { type: "button", class: "rb-gm-share" }, t("gm.share"));
  const keep = el("button", { type: "button", class: "rb-gm-keep", hidden: "" }, t("gm.keep"));
  const shareOut = el("a", { class: "rb-gm-link", hidden: "" }, t("gm.link"));
  actions.append(share, keep, shareOut);
  const items = el("ol", { class: "rb-gm-items" });
  root.replaceChildren(actions, status, items);
  if (shared) {
    keep.hidden = false;
    status.textContent = t("gm.shared", { count: shared.length });
  }

  share.addEventListener("click", async () => {
    const href = shareLink(list);
    shareOut.href = href;
    shareOut.hidden = false;
    status.textContent = t((await copyText(href)) ? "link.copied" : "gm.copy_beside");
  });
  keep.addEventListener("click", () => {
    pins.save(list);
    keep.hidden = true;
    status.textContent = t("gm.yours");
  });

  const persist = () => {
    if (!shared || keep.hidden) pins.save(list);
  };

  const draw = async (focusAt = null) => {
    items.replaceChildren();
    if (!list.length) {
      items.append(el("li", { class: "rb-gm-empty" }, t("gm.empty")));
      return;
    }
    const cards = list.map((pin, index) => card(pin, index));
    items.append(...cards.map((c) => c.item));
    if (focusAt) cards[focusAt.index]?.item.querySelector(`.${focusAt.cls}`)?.focus();
    await Promise.all(cards.map((c) => c.fill()));
  };

  const move = (index, by) => {
    const to = index + by;
    if (to < 0 || to >= list.length) return;
    [list[index], list[to]] = [list[to], list[index]];
    persist();
    draw({ index: to, cls: by < 0 ? "rb-gm-up" : "rb-gm-down" });
    status.textContent = t("gm.moved", { item: list[to].label, place: numberText(to + 1), count: numberText(list.length) });
  };
  const remove = (index) => {
    const [gone] = list.splice(index, 1);
    persist();
    draw();
    status.textContent = t("gm.removed", { item: gone.label });
  };

  const card = (pin, index) => {
    const item = el("li", { class: "rb-gm-item", "data-rb-gm-page": pin.page, "data-rb-gm-id": pin.id });
    const head = el("div", { class: "rb-gm-head" });
    const link = el("a", { href: new URL(`${pin.page}#${encodeURIComponent(pin.id)}`, SITE_BASE).href }, pin.label);
    const controls = el("div", { class: "rb-gm-controls", "data-search-exclude": "" });
    const up = el("button", { type: "button", class: "rb-gm-up", "aria-label": t("gm.up", { item: pin.label }) }, "↑");
    const down = el("button", { type: "button", class: "rb-gm-down", "aria-label": t("gm.down", { item: pin.label }) }, "↓");
    const drop = el("button", { type: "button", class: "rb-gm-remove", "aria-label": t("gm.remove_item", { item: pin.label }) }, t("gm.remove"));
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
      const doc = await fetchPage(pin.page);
      const found = doc?.querySelector(SELECTORS[pin.kind](pin.id));
      if (!found) {
        body.textContent = doc
          ? t("gm.gone")
          : t("gm.unreachable");
        return;
      }
      const copy = adopt(found, `gm${index}`);
      if (pin.kind !== "inline") copy.dataset.rbTitle = pin.label;
      for (const [name, value] of Object.entries(pin.prompts || {})) {
        const input = copy.querySelector(`input[name="${CSS.escape(name)}"]`);
        if (input) input.value = value;
      }
      if (pin.kind === "inline") {
        const line = el("p");
        line.append(copy);
        body.replaceChildren(line);
      } else body.replaceChildren(copy);
      mountWidgets(body);
      for (const input of copy.querySelectorAll(".rb-prompts input")) {
        input.addEventListener("change", () => {
          const values = Object.fromEntries([...copy.querySelectorAll(".rb-prompts input")].map((i) => [i.name, i.value]));
          pin.prompts = values;
          persist();
        });
      }
    };
    return { item, fill };
  };

  if (!shared) pins.onChange(() => {
    if (!root.isConnected) return;
    list = pins.load();
  });
  draw();
}
