// @ts-check
// The roll history tray: every roll on every page, kept in localStorage so it survives
// page changes and reloads; each entry links back to its roll; clearable; exportable as
// Markdown. All text goes in through textContent.

import { LIMIT, MAX_TEXT, load, migrate, remove, save } from "./history-store.js";
import { language, numberText, t } from "./i18n.js";
import { el } from "./dom.js";
import { keyOf } from "./storage.js";

/** @typedef {import("./history-store.js").Entry} Entry */

const TRAY_ID = "rb-history";

migrate();

/** @type {Entry[] | null} */
let memory = null; // fallback when storage is unavailable

/** The history: what storage holds, else what this page kept. */
function entries() {
  const stored = load();
  return stored.length || !memory ? stored : memory;
}

/** @type {Entry[]} */
const pending = []; // rolls not yet written: storage waits until the result is painted
let flushScheduled = false;

function flush() {
  flushScheduled = false;
  if (!pending.length) return;
  const list = entries();
  list.push(...pending.splice(0));
  memory = list.slice(-LIMIT);
  save(memory);
  render();
}

/**
 * Add one roll: {where: label, result: plain text, href: link back}.
 * @param {{where: string, result: string, href: string}} roll
 */
export function record({ where, result, href }) {
  const cut = (/** @type {unknown} */ text) => String(text ?? "").slice(0, MAX_TEXT); // longer ones would not load
  const entry = { page: cut(document.title), where: cut(where), result: cut(result), href };
  pending.push({ time: new Date().toISOString(), ...entry });
  if (flushScheduled) return;
  flushScheduled = true;
  // After the frame that shows the result: the reader sees it before we touch storage.
  requestAnimationFrame(() => setTimeout(flush, 0));
}

// Leaving the page (reload, full navigation) must not lose a roll made just before.
addEventListener("pagehide", flush);

/**
 * The history as Markdown, oldest first.
 * @param {Entry[]} [list]
 */
export function toMarkdown(list = entries()) {
  const escaped = (/** @type {string} */ text) => String(text).replace(/([\\`*_[\]<>|])/g, "\\$1");
  const lines = [`# ${t("history.title")}`, ""];
  for (const e of list) {
    const when = e.time.replace("T", " ").slice(0, 19);
    lines.push(
      `- ${when} · [${escaped(e.where)}](${String(e.href).replace(/[()\s]/g, encodeURIComponent)}): ${escaped(e.result)}`,
    );
  }
  return `${lines.join("\n")}\n`;
}

/**
 * Offer `text` as the file roll-history.md.
 * @param {string} text
 */
function download(text) {
  const url = URL.createObjectURL(new Blob([text], { type: "text/markdown" }));
  const link = el("a", { href: url, download: "roll-history.md" });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The history tray (made once; kept across instant navigation in one language). */
function ensureTray() {
  let tray = document.getElementById(TRAY_ID);
  // Kept across instant navigation, unless the new page speaks another language.
  if (tray && tray.dataset.rbLang === language()) return tray;
  tray?.remove();
  tray = el("div", { id: TRAY_ID, class: "rb-history", "data-rb-lang": language() });
  const toggle = el("button", {
    type: "button",
    class: "rb-history-toggle",
    "aria-expanded": "false",
    "aria-controls": `${TRAY_ID}-panel`,
  });
  const panel = el("section", {
    id: `${TRAY_ID}-panel`,
    class: "rb-history-panel",
    "aria-label": t("history.title"),
    hidden: "",
  });
  const heading = el("h2", { class: "rb-history-title" }, t("history.title"));
  const list = el("ol", { class: "rb-history-list", reversed: "" });
  const empty = el("p", { class: "rb-history-empty" }, t("history.empty"));
  const actions = el("div", { class: "rb-history-actions" });
  const copy = el("button", { type: "button", class: "rb-history-copy" }, t("history.copy"));
  const downloadButton = el("button", { type: "button", class: "rb-history-download" }, t("history.download"));
  const clear = el("button", { type: "button", class: "rb-history-clear" }, t("history.clear"));
  const status = el("p", { class: "rb-history-status", "aria-live": "polite" });
  actions.append(copy, downloadButton, clear);
  panel.append(heading, empty, list, actions, status);
  tray.append(toggle, panel);
  document.body.append(tray);

  const open = (/** @type {boolean} */ yes) => {
    panel.hidden = !yes;
    toggle.setAttribute("aria-expanded", String(yes));
    if (yes) render();
  };
  toggle.addEventListener("click", () => open(Boolean(panel.hidden)));
  tray.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !panel.hidden) {
      open(false);
      toggle.focus();
    }
  });
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(toMarkdown());
      status.textContent = t("history.copied");
    } catch {
      status.textContent = t("history.copy_blocked");
    }
  });
  downloadButton.addEventListener("click", () => download(toMarkdown()));
  clear.addEventListener("click", () => {
    memory = [];
    remove();
    status.textContent = t("history.cleared");
    render();
  });
  return tray;
}

/** Draw the tray from storage (called on every page, and after each roll). */
export function render() {
  const tray = ensureTray();
  const list = entries();
  const toggle = /** @type {HTMLElement} */ (tray.querySelector(".rb-history-toggle"));
  toggle.textContent = t("history.toggle", { count: numberText(list.length) });
  /** @type {HTMLElement} */ (tray.querySelector(".rb-history-empty")).hidden = list.length > 0;
  // The list is drawn only while it is open: a roll costs one counter update, not 200 rows.
  if (/** @type {HTMLElement} */ (tray.querySelector(".rb-history-panel")).hidden) return;
  const items = [...list].reverse().map((e) => {
    const item = el("li", { class: "rb-history-entry" });
    const link = el("a", { href: e.href }, e.where);
    // bdi: a result in another direction (dice notation on a right-to-left page) keeps its own.
    item.append(link, ": ", el("bdi", { class: "rb-history-result" }, e.result));
    return item;
  });
  tray.querySelector(".rb-history-list")?.replaceChildren(...items);
}

// Other tabs roll too.
addEventListener("storage", (event) => {
  if (event.key === keyOf("history") || event.key === null) {
    memory = null;
    if (document.getElementById(TRAY_ID)) render();
  }
});
