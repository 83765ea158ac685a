// @ts-check
// Roll tables and roll lists: roll button, prompts, highlighted row, result sentence,
// chances toggle, tabs, and a reproducible link to every roll.

import { isReady, newSeed, request } from "./engine.js";
import { record } from "./history.js";
import { bindHand, makeHand } from "./inhand.js";
import { pinButton } from "./pins.js";
import { canonical, mark, read } from "./prompts.js";
import { t } from "./i18n.js";
import * as nested from "./nested.js";
import { withRefs } from "./refs-store.js";
import * as tabs from "./tabs.js";
import { markBusy } from "./busy.js";
import { copyText, el, htmlToText, humanize, readPayload } from "./dom.js";
import { formatTotal, fractionText, percentText, ratio } from "./numbers.js";
import { pageUrl } from "./site.js";

export const SELECTOR = ".rb-table";

/** @typedef {import("./protocol.js").TablePayload} TablePayload */
/** @typedef {import("./protocol.js").TableRequest} TableRequest */
/** @typedef {import("./protocol.js").TableReply} TableReply */
/** @typedef {import("./protocol.js").PromptValues} PromptValues */

/**
 * The controls of a block as the build writes them (rollbook/markup/roll_table/render.py), plus the
 * link to the latest roll, which exists only once there is a roll to link to.
 * @typedef {{bar: HTMLElement, rollButton: HTMLButtonElement, chances: HTMLButtonElement,
 *   copy: HTMLButtonElement, permalink: HTMLAnchorElement, result: HTMLElement}} Controls
 */

/**
 * One live block: its element, payload, controls, prompt inputs and its roll in hand.
 * @typedef {{root: HTMLElement, data: TablePayload, ui: Controls, inputs: HTMLInputElement[],
 *   hand: import("./inhand.js").Hand<TableRequest>}} Widget
 */

/** @type {WeakMap<Element, {roll: (seed: number, given?: Map<string, string> | null) => void}>} */
const widgets = new WeakMap();

/**
 * The block's controls, found in the markup the build wrote; null when some are missing
 * (markup the build did not write: nothing to wire). Only the link to a roll is made here.
 * @param {HTMLElement} root
 * @returns {Controls | null}
 */
function controls(root) {
  const bar = /** @type {HTMLElement | null} */ (root.querySelector(".rb-bar"));
  const result = /** @type {HTMLElement | null} */ (root.querySelector(".rb-result"));
  if (!bar || !result) return null;
  const button = (/** @type {string} */ cls) =>
    /** @type {HTMLButtonElement | null} */ (bar.querySelector(`button.${cls}`));
  const rollButton = button("rb-roll");
  const chances = button("rb-chances");
  const copy = button("rb-copy-link");
  if (!rollButton || !chances || !copy) return null;
  let permalink = /** @type {HTMLAnchorElement | null} */ (bar.querySelector("a.rb-permalink"));
  if (!permalink) {
    permalink = /** @type {HTMLAnchorElement} */ (
      el("a", { class: "rb-permalink", hidden: "" }, t("table.link_to_roll"))
    );
    bar.append(permalink);
  }
  if (!permalink.href) permalink.hidden = true;
  if (!permalink.href) copy.hidden = true;
  return { bar, rollButton, chances, copy, permalink, result };
}

/**
 * The prompt inputs: the table's own (the build's `.rb-prompts`), then those of the tables
 * its rows roll (nested.js adds them).
 * @param {HTMLElement} root
 * @param {TablePayload} data
 * @returns {HTMLInputElement[]}
 */
function promptInputs(root, data) {
  const box = root.querySelector(".rb-prompts");
  const own = box ? box.querySelectorAll("input[name], select[name]") : [];
  return [.../** @type {Iterable<HTMLInputElement>} */ (own), ...nested.ensureInputs(root, data)];
}

/**
 * The chance cell of a row (the build writes one in every row).
 * @param {HTMLElement} row
 * @returns {HTMLElement | null}
 */
function chanceCell(row) {
  return row.querySelector(":scope > .rb-p");
}

/**
 * Write one row's chance: `data-rb-p` ("p/q"), the shown percentage, the exact fraction as
 * the title. `pq` null: no chance to show (`note` says why).
 * @param {HTMLElement} row
 * @param {string | null} pq
 */
function paintChance(row, pq, note = "") {
  const cell = chanceCell(row);
  if (pq === null) {
    delete row.dataset.rbP;
    if (!cell) return;
    cell.textContent = row.tagName === "TR" ? "–" : "(–)";
    cell.title = note;
    return;
  }
  row.dataset.rbP = pq;
  if (!cell) return;
  const percent = percentText(pq);
  cell.textContent = row.tagName === "TR" ? percent : `(${percent})`;
  cell.title = t("table.exactly", { fraction: fractionText(pq, { whole: true }) });
  drawShare(cell, pq);
}

/**
 * The chance as a bar behind its percentage (the text stays what is read).
 * @param {HTMLElement} cell
 * @param {string} pq
 */
function drawShare(cell, pq) {
  const share = Math.min(100, Math.max(0, ratio(pq) * 100));
  if (Number.isFinite(share)) cell.style.setProperty("--rb-share", `${share}%`);
}

/**
 * The block's rows (`<tr>` or `<li>` with `data-rb-row`); `[data-rb-p]` only those with a chance.
 * @param {HTMLElement} root
 * @returns {HTMLElement[]}
 */
function rowsOf(root, selector = "[data-rb-row]") {
  return [.../** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll(selector))];
}

/**
 * Show or hide each row's exact chance (first paint: the build's `data-rb-p`).
 * @param {HTMLElement} root
 * @param {boolean} on
 */
function setChances(root, on) {
  for (const cell of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll(".rb-p"))) cell.hidden = !on;
  // The exact fraction stays available to pointer and screen-reader users alike.
  for (const row of rowsOf(root, "[data-rb-row][data-rb-p]")) {
    const cell = /** @type {HTMLElement | null} */ (row.querySelector(".rb-p"));
    const pq = row.dataset.rbP ?? ""; // every row selected has one
    if (cell && !cell.title) cell.title = t("table.exactly", { fraction: fractionText(pq, { whole: true }) });
    if (cell) drawShare(cell, pq);
  }
  root.classList.toggle("rb-show-chances", on);
}

/**
 * Keep the shown chances in step with the prompt values. The build's numbers (prompts at
 * their defaults) need no engine; other values ask the worker's `table_odds`. Only while
 * chances are shown; a newer change wins over an older reply.
 * @param {HTMLElement} root
 * @param {TablePayload} data
 * @param {HTMLInputElement[]} inputs
 * @returns {() => Promise<void>}
 */
function chanceUpdater(root, data, inputs) {
  const rows = () => rowsOf(root);
  const built = new Map([...rows()].map((row) => [row.dataset.rbRow, row.dataset.rbP ?? null]));
  const keyOf = (/** @type {PromptValues} */ values) =>
    JSON.stringify(inputs.map((input) => [input.name, values[input.name]]));
  const initial = read(inputs, new Map(inputs.map((input) => [input.name, input.defaultValue])));
  const defaultsKey = keyOf(initial.values);
  /** @type {string | null} */
  let shownKey = defaultsKey;
  let asked = 0;
  return async function update() {
    if (!root.classList.contains("rb-show-chances") || !inputs.length) return;
    const checked = read(inputs);
    const key = keyOf(checked.values);
    if (key === shownKey) return;
    const mine = ++asked;
    if (key === defaultsKey) {
      for (const row of rows()) paintChance(row, built.get(row.dataset.rbRow) ?? null);
      shownKey = key;
      return;
    }
    root.classList.add("rb-chances-busy");
    const reply = await request({ op: "table_odds", table: data, prompts: checked.values });
    if (mine !== asked) return; // the reader changed the values again meanwhile
    root.classList.remove("rb-chances-busy");
    const failed = reply.error !== undefined;
    mark(inputs, failed ? (reply.prompt ?? null) : null);
    for (const row of rows()) {
      const pq = failed ? null : (reply.chances[Number(row.dataset.rbRow)] ?? null);
      paintChance(row, pq, reply.error || "");
    }
    shownKey = failed ? null : key;
  };
}

/**
 * The anchor of a table: its id, or the heading's when a heading right above owns it.
 * @param {HTMLElement} root
 */
export function anchorOf(root) {
  return root.id || root.dataset.rbAnchor || "";
}

/**
 * The table for a deep link's ID.
 * @param {string} id
 * @returns {HTMLElement | null}
 */
export function find(id) {
  for (const root of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(SELECTOR))) {
    if (anchorOf(root) === id) return root;
  }
  return null;
}

/**
 * What the history calls the table: its title, its heading's text, its roll's name.
 * @param {HTMLElement} root
 * @param {TablePayload} data
 */
function title(root, data) {
  if (root.dataset.rbTitle) return root.dataset.rbTitle;
  // When a heading owns the anchor, its text names the table best ("Weather", not "2d6").
  const anchor = anchorOf(root);
  const owner = anchor ? document.getElementById(anchor) : null;
  if (owner && /^H[1-6]$/.test(owner.tagName)) {
    const text = (owner.textContent || "").replace(/¶\s*$/, "").trim();
    if (text) return text;
  }
  return data.roll_name || humanize(anchor || "table");
}

/**
 * A URL that repeats this exact roll: ?roll=ID&seed=N&prompt=value#ID.
 * @param {string} id
 * @param {number} seed
 * @param {PromptValues} values
 */
export function rollLink(id, seed, values) {
  const params = new URLSearchParams({ roll: id, seed: String(seed) });
  for (const [name, value] of Object.entries(values)) params.set(name, canonical(value));
  return `${pageUrl()}?${params}#${encodeURIComponent(id)}`;
}

/**
 * Make one table or list live; safe to call again on the same element. The steps: read
 * the payload and the build's controls, wire the chances, the copy button, the rolls and
 * the prompts' Enter key; `show` paints each result.
 * @param {HTMLElement} root
 */
export function mount(root) {
  if (root.dataset.rbMounted) return;
  const data = /** @type {TablePayload | null} */ (withRefs(readPayload(root), root.ownerDocument));
  const ui = data && controls(root);
  if (!ui) return;
  root.dataset.rbMounted = "true";
  const inputs = promptInputs(root, data);
  tabs.mount(root);
  nested.mountRefs(root, data, () => read(inputs));
  const pin = pinButton({
    kind: root.dataset.rbKind === "list" ? "list" : "table",
    id: anchorOf(root),
    label: title(root, data),
  });
  if (pin) ui.bar.append(pin);
  // The next roll is held (inhand.js), so a click paints at once. With prompts it is asked
  // with the values the inputs hold, dropped when one changes, and used only if they match.
  // A table whose rows roll other tables may be much work (each reference rolls again), so
  // it is rolled on a click only: work nobody asked for never meets the watchdog.
  const refers = Boolean(data.refs && Object.keys(data.refs).length);
  const hand = makeHand(() => {
    if (refers) return null;
    const { values } = read(inputs);
    return values && /** @type {TableRequest} */ ({ op: "table", table: data, seed: newSeed(), prompts: values });
  });
  /** @type {Widget} */
  const widget = { root, data, ui, inputs, hand };
  const updateChances = wireChances(widget);
  wireCopy(widget);
  const roll = wireRolls(widget, updateChances);
  widgets.set(root, { roll });
  wirePrompts(widget, () => roll(newSeed()));
}

/**
 * The "Show chances" toggle, and chances that follow the prompt values as they change.
 * @param {Widget} widget
 * @returns {() => Promise<void>} what brings the shown chances up to date
 */
function wireChances({ root, data, ui, inputs, hand }) {
  const updateChances = chanceUpdater(root, data, inputs);
  ui.chances.addEventListener("click", () => {
    const on = ui.chances.getAttribute("aria-pressed") !== "true";
    ui.chances.setAttribute("aria-pressed", String(on));
    ui.chances.textContent = t(on ? "chances.hide" : "chances.show");
    setChances(root, on);
    updateChances();
  });
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let pending;
  for (const input of inputs) {
    input.addEventListener("input", () => {
      hand.drop(); // a held roll was asked with the old value
      clearTimeout(pending); // typing "12" asks once, not for "1" and then "12"
      pending = setTimeout(updateChances, 150);
    });
  }
  return updateChances;
}

/**
 * The "Copy link" button: the link to the latest roll on the clipboard, or a note.
 * @param {Widget} widget
 */
function wireCopy({ ui }) {
  ui.copy.addEventListener("click", async () => {
    const ok = await copyText(ui.permalink.href);
    const note = el("span", { class: "rb-note" }, ` ${t(ok ? "link.copied" : "table.copy_beside")}`);
    ui.result.querySelector(".rb-note")?.remove();
    ui.result.append(note);
    if (!ok) ui.permalink.focus();
  });
}

/**
 * The roll button (with its roll in hand); returns the roll, for deep links and prompts.
 * @param {Widget} widget
 * @param {() => Promise<void>} updateChances
 * @returns {(seed: number, given?: Map<string, string> | null) => Promise<void>}
 */
function wireRolls(widget, updateChances) {
  const { root, data, ui, inputs, hand } = widget;
  const refuse = (/** @type {string} */ sentence) => {
    ui.result.classList.add("rb-refused");
    ui.result.textContent = sentence;
  };
  let rolling = false;
  const roll = async (/** @type {number} */ seed, /** @type {Map<string, string> | null} */ given = null) => {
    if (rolling) return;
    const checked = read(inputs, given);
    rolling = true;
    const ready = isReady();
    const done = markBusy(ui.rollButton, root, !ready);
    if (!ready) {
      ui.result.classList.remove("rb-refused");
      ui.result.textContent = t("dice.warming");
    }
    const reply = await request({ op: "table", table: data, seed, prompts: checked.values });
    rolling = false;
    done();
    const refused = mark(inputs, reply.error ? (reply.prompt ?? null) : null);
    if (refused) {
      // The engine judged a prompt value (the rule `rollbook table --set` follows too).
      if (given) refused.value = String(checked.values[refused.name]);
      refuse(t("table.not_rolled", { why: String(reply.error) }));
      if (!given) refused.focus();
      return;
    }
    if (reply.error !== undefined) {
      refuse(reply.error);
      return;
    }
    if (given) {
      for (const input of inputs) input.value = canonical(checked.values[input.name]);
      updateChances();
    }
    show(widget, reply, seed, checked.values);
    hand.prepare();
  };
  bindHand(ui.rollButton, hand, {
    busy: () => rolling,
    roll: () => roll(newSeed()),
    use: (held) => show(widget, held.reply, held.seed, held.request.prompts ?? {}),
    fits: (asked) => {
      const { values } = read(inputs);
      return Boolean(values) && JSON.stringify(values) === JSON.stringify(asked.prompts);
    },
  });
  return roll;
}

/**
 * Enter in a prompt (or the prompts' form submitted) rolls.
 * @param {Widget} widget
 * @param {() => unknown} rollNew  a roll with a fresh seed
 */
function wirePrompts({ root, inputs }, rollNew) {
  const form = root.querySelector("form.rb-prompts");
  const submit = (/** @type {Event} */ event) => {
    event.preventDefault();
    rollNew();
  };
  if (form) form.addEventListener("submit", submit);
  else {
    for (const input of inputs) {
      input.addEventListener("keydown", (event) => event.key === "Enter" && submit(event));
    }
  }
}

/**
 * Paint a table roll: the hit row, its nested rolls, the result sentence, the link to this
 * roll; and record it in the history.
 * @param {Widget} widget
 * @param {TableReply} reply
 * @param {number} seed
 * @param {PromptValues} values
 */
function show({ root, data, ui }, reply, seed, values) {
  for (const old of root.querySelectorAll("[aria-current]")) {
    old.removeAttribute("aria-current");
    old.classList.remove("rb-hit");
  }
  const total = formatTotal(reply.roll && "total" in reply.roll ? reply.roll.total : "?");
  const row =
    reply.row === null
      ? null
      : /** @type {HTMLElement | null} */ (root.querySelector(`[data-rb-row="${Number(reply.row)}"]`));
  if (row) {
    tabs.reveal(row);
    row.setAttribute("aria-current", "true");
    row.classList.add("rb-hit");
    nested.paint(row, reply);
    const smooth = !matchMedia("(prefers-reduced-motion: reduce)").matches;
    row.scrollIntoView({ block: "nearest", behavior: smooth ? "smooth" : "auto" });
  }
  ui.result.classList.remove("rb-refused");
  ui.result.classList.toggle("rb-unmatched", !row);
  root.dataset.rbSeed = String(seed);
  root.dataset.rbTotal = total;
  if (reply.text) {
    // Authors wrote this HTML (result_text and cells); it is part of their page.
    ui.result.innerHTML = reply.text;
  } else {
    ui.result.replaceChildren(el("span", { class: "rb-sr-only" }, t("roll.rolled", { total })));
  }
  const anchor = anchorOf(root);
  const link = anchor ? rollLink(anchor, seed, values) : null;
  if (link) {
    ui.permalink.href = link;
    ui.permalink.hidden = false;
    ui.copy.hidden = false;
  }
  record({
    where: title(root, data),
    result: reply.text ? htmlToText(reply.text) : t("roll.rolled", { total }),
    href: link || pageUrl(),
  });
}

/**
 * Roll a mounted table with this seed and prompt values (deep links).
 * @param {Element} root
 * @param {number} seed
 * @param {Map<string, string>} given
 */
export function rollWith(root, seed, given) {
  const widget = widgets.get(root);
  if (!widget) return false;
  widget.roll(seed, given);
  return true;
}

/**
 * Show a refusal in a table's live region (deep links with bad parameters).
 * @param {Element} root
 * @param {string} sentence
 */
export function explain(root, sentence) {
  const result = root.querySelector(".rb-result");
  if (!result) return;
  result.classList.add("rb-refused");
  result.textContent = sentence;
}
