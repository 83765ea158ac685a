// @ts-check
// Roll tables and roll lists: roll button, prompts, highlighted row, result sentence,
// chances toggle, tabs, and a reproducible link to every roll.

import { isReady, newSeed, request } from "./engine.js";
import { record } from "./history.js";
import { bindHand, makeHand } from "./inhand.js";
import { pinButton } from "./pins.js";
import { collect, ensureInputs, read } from "./prompts.js";
import * as nested from "./nested.js";
import * as tabs from "./tabs.js";
import {
  copyText,
  el,
  formatChance,
  formatTotal,
  htmlToText,
  humanize,
  markBusy,
  pageUrl,
  readPayload,
} from "./util.js";

export const SELECTOR = ".rb-table";

const widgets = new WeakMap(); // root -> {roll(seed, given)}

function ensureBar(root) {
  let bar = root.querySelector(".rb-bar");
  if (!bar) {
    bar = el("div", { class: "rb-bar" });
    const data = root.querySelector(":scope > .rb-data");
    if (data) data.after(bar);
    else root.prepend(bar);
  }
  const button = (cls, label, attrs = {}) => {
    let b = bar.querySelector(`button.${cls}`);
    if (!b) {
      b = el("button", { type: "button", class: cls, ...attrs }, label);
      bar.append(b);
    }
    return b;
  };
  const rollButton = button("rb-roll", "Roll on the table");
  const chances = button("rb-chances", "Show chances", { "aria-pressed": "false" });
  const copy = button("rb-copy-link", "Copy link to this roll");
  let permalink = bar.querySelector("a.rb-permalink");
  if (!permalink) {
    permalink = el("a", { class: "rb-permalink", hidden: "" }, "Link to this roll");
    bar.append(permalink);
  }
  if (!permalink.href) permalink.hidden = true;
  if (!permalink.href) copy.hidden = true;
  return { bar, rollButton, chances, copy, permalink };
}

function ensureResult(root) {
  let result = root.querySelector(".rb-result");
  if (!result) {
    result = el("div", { class: "rb-result", "aria-live": "polite" });
    root.append(result);
  }
  return result;
}

/** A chance as the build writes it (rollbook/markup/render.py `_percent`): "27.8%", "<0.1%". */
export function percentText(pq) {
  const [p, q = "1"] = String(pq).split("/");
  const value = (Number(p) / Number(q)) * 100;
  if (!Number.isFinite(value)) return "";
  if (value && value < 0.1) return "<0.1%";
  const fixed = value.toFixed(1);
  return `${fixed.endsWith(".0") ? fixed.slice(0, -2) : fixed}%`;
}

/** The chance cell of a row (made here when the build wrote none). */
function chanceCell(row) {
  let cell = row.querySelector(":scope > .rb-p");
  if (!cell) {
    const item = row.tagName !== "TR";
    cell = el(item ? "span" : "td", { class: "rb-p" });
    cell.hidden = !row.closest(SELECTOR)?.classList.contains("rb-show-chances");
    if (item) row.append(" "); // as the build writes it: "item (33.3%)"
    row.append(cell);
  }
  return cell;
}

/**
 * Write one row's chance: `data-rb-p` ("p/q"), the shown percentage, the exact fraction as
 * the title. `pq` null: no chance to show (`note` says why).
 */
function paintChance(row, pq, note = "") {
  const cell = chanceCell(row);
  if (pq === null) {
    delete row.dataset.rbP;
    cell.textContent = row.tagName === "TR" ? "–" : "(–)";
    cell.title = note;
    return;
  }
  row.dataset.rbP = pq;
  const percent = percentText(pq);
  cell.textContent = row.tagName === "TR" ? percent : `(${percent})`;
  cell.title = `exactly ${formatChance(pq).fraction}`;
  drawShare(cell, pq);
}

/** The chance as a bar behind its percentage (the text stays what is read). */
function drawShare(cell, pq) {
  const [p, q = "1"] = String(pq).split("/");
  const share = Math.min(100, Math.max(0, (Number(p) / Number(q)) * 100));
  if (Number.isFinite(share)) cell.style.setProperty("--rb-share", `${share}%`);
}

/** Show or hide each row's exact chance (first paint: the build's `data-rb-p`). */
function setChances(root, on) {
  if (!root.querySelector(".rb-p") && !root.dataset.rbChancesAdded) {
    root.dataset.rbChancesAdded = "true";
    for (const row of root.querySelectorAll("[data-rb-row][data-rb-p]")) {
      paintChance(row, row.dataset.rbP);
    }
    for (const head of root.querySelectorAll("thead tr")) {
      head.append(el("th", { class: "rb-p", scope: "col" }, "Chance"));
    }
  }
  for (const cell of root.querySelectorAll(".rb-p")) cell.hidden = !on;
  // The exact fraction stays available to pointer and screen-reader users alike.
  for (const row of root.querySelectorAll("[data-rb-row][data-rb-p]")) {
    const cell = row.querySelector(".rb-p");
    if (cell && !cell.title) cell.title = `exactly ${formatChance(row.dataset.rbP).fraction}`;
    if (cell) drawShare(cell, row.dataset.rbP);
  }
  root.classList.toggle("rb-show-chances", on);
}

/**
 * Keep the shown chances in step with the prompt values. The build's numbers (prompts at
 * their defaults) need no engine; other values ask the worker's `table_odds`. Only while
 * chances are shown; a newer change wins over an older reply.
 */
function chanceUpdater(root, data, inputs) {
  const rows = () => root.querySelectorAll("[data-rb-row]");
  const built = new Map([...rows()].map((row) => [row.dataset.rbRow, row.dataset.rbP ?? null]));
  const keyOf = (values) => JSON.stringify(inputs.map((input) => [input.name, values[input.name]]));
  const initial = collect(
    inputs,
    Object.fromEntries(inputs.map((input) => [input.name, input.defaultValue])),
  );
  const defaultsKey = initial.error ? null : keyOf(initial.values);
  let shownKey = defaultsKey;
  let asked = 0;
  return async function update() {
    if (!root.classList.contains("rb-show-chances") || !inputs.length) return;
    const checked = collect(inputs);
    if (checked.error) {
      shownKey = null;
      for (const row of rows()) paintChance(row, null, checked.error);
      return;
    }
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
    for (const row of rows()) {
      const pq = reply.error ? null : reply.chances[Number(row.dataset.rbRow)] ?? null;
      paintChance(row, pq, reply.error || "");
    }
    shownKey = reply.error ? null : key;
  };
}

/** The anchor of a table: its id, or the heading's when a heading right above owns it. */
export function anchorOf(root) {
  return root.id || root.dataset.rbAnchor || "";
}

/** The table for a deep link's ID. */
export function find(id) {
  for (const root of document.querySelectorAll(SELECTOR)) {
    if (anchorOf(root) === id) return root;
  }
  return null;
}

function title(root, data) {
  if (root.dataset.rbTitle) return root.dataset.rbTitle;
  // When a heading owns the anchor, its text names the table best ("Weather", not "2d6").
  const anchor = anchorOf(root);
  const owner = anchor ? document.getElementById(anchor) : null;
  if (owner && /^H[1-6]$/.test(owner.tagName)) {
    const text = owner.textContent.replace(/¶\s*$/, "").trim();
    if (text) return text;
  }
  return data.roll_name || humanize(anchor || "table");
}

/** A URL that repeats this exact roll: ?roll=ID&seed=N&prompt=value#ID. */
export function rollLink(id, seed, values) {
  const params = new URLSearchParams({ roll: id, seed: String(seed) });
  for (const [name, value] of Object.entries(values)) params.set(name, String(value));
  return `${pageUrl()}?${params}#${encodeURIComponent(id)}`;
}

/** Make one table or list live; safe to call again on the same element. */
export function mount(root) {
  if (root.dataset.rbMounted) return;
  const data = readPayload(root);
  if (!data) return;
  root.dataset.rbMounted = "true";
  const ui = ensureBar(root);
  const result = ensureResult(root);
  const inputs = [...ensureInputs(root, data), ...nested.ensureInputs(root, data)];
  tabs.mount(root);
  nested.mountRefs(root, data, () => collect(inputs));
  const pin = pinButton({ kind: root.dataset.rbKind === "list" ? "list" : "table", id: anchorOf(root), label: title(root, data) });
  if (pin) ui.bar.append(pin);

  const updateChances = chanceUpdater(root, data, inputs);
  ui.chances.addEventListener("click", () => {
    const on = ui.chances.getAttribute("aria-pressed") !== "true";
    ui.chances.setAttribute("aria-pressed", String(on));
    ui.chances.textContent = on ? "Hide chances" : "Show chances";
    setChances(root, on);
    updateChances();
  });
  let pending = null;
  for (const input of inputs) {
    input.addEventListener("input", () => {
      hand.drop(); // a held roll was asked with the old value
      clearTimeout(pending); // typing "12" asks once, not for "1" and then "12"
      pending = setTimeout(updateChances, 150);
    });
  }

  ui.copy.addEventListener("click", async () => {
    const ok = await copyText(ui.permalink.href);
    const note = el("span", { class: "rb-note" }, ok ? " Link copied." : " Copy the link next to this button.");
    result.querySelector(".rb-note")?.remove();
    result.append(note);
    if (!ok) ui.permalink.focus();
  });

  const refuse = (sentence) => {
    result.classList.add("rb-refused");
    result.textContent = sentence;
  };

  let rolling = false;
  const roll = async (seed, given = null) => {
    if (rolling) return;
    const checked = collect(inputs, given);
    if (checked.error) {
      if (given) checked.input.value = given[checked.input.name] ?? checked.input.value;
      refuse(`Not rolled: ${checked.error}`);
      if (!given) checked.input.focus();
      return;
    }
    if (given) {
      for (const input of inputs) input.value = String(checked.values[input.name]);
      updateChances();
    }
    rolling = true;
    const ready = isReady();
    const done = markBusy(ui.rollButton, root, !ready);
    if (!ready) {
      result.classList.remove("rb-refused");
      result.textContent = "Warming up the dice…";
    }
    const reply = await request({ op: "table", table: data, seed, prompts: checked.values });
    rolling = false;
    done();
    if (reply.error) {
      refuse(reply.error);
      return;
    }
    show(reply, seed, checked.values);
    hand.prepare();
  };
  // The next roll is held (inhand.js), so a click paints at once. With prompts it is asked
  // with the values the inputs hold, dropped when one changes, and used only if they match.
  const hand = makeHand(() => {
    const { values } = read(inputs);
    return values && { op: "table", table: data, seed: newSeed(), prompts: values };
  });

  const show = (reply, seed, values) => {
    for (const old of root.querySelectorAll("[aria-current]")) {
      old.removeAttribute("aria-current");
      old.classList.remove("rb-hit");
    }
    const total = formatTotal(reply.roll && "total" in reply.roll ? reply.roll.total : "?");
    const row = reply.row === null ? null : root.querySelector(`[data-rb-row="${Number(reply.row)}"]`);
    if (row) {
      tabs.reveal(row);
      row.setAttribute("aria-current", "true");
      row.classList.add("rb-hit");
      nested.paint(row, reply);
      const smooth = !matchMedia("(prefers-reduced-motion: reduce)").matches;
      row.scrollIntoView({ block: "nearest", behavior: smooth ? "smooth" : "auto" });
    }
    result.classList.remove("rb-refused");
    result.classList.toggle("rb-unmatched", !row);
    root.dataset.rbSeed = String(seed);
    root.dataset.rbTotal = total;
    if (reply.text) {
      // Authors wrote this HTML (result_text and cells); it is part of their page.
      result.innerHTML = reply.text;
    } else {
      result.replaceChildren(el("span", { class: "rb-sr-only" }, `Rolled ${total}.`));
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
      result: reply.text ? htmlToText(reply.text) : `Rolled ${total}.`,
      href: link || pageUrl(),
    });
  };

  widgets.set(root, { roll });
  bindHand(ui.rollButton, hand, {
    busy: () => rolling,
    roll: () => roll(newSeed()),
    use: (held) => show(held.reply, held.seed, held.request.prompts),
    fits: (asked) => {
      const { values } = read(inputs);
      return Boolean(values) && JSON.stringify(values) === JSON.stringify(asked.prompts);
    },
  });
  const form = root.querySelector("form.rb-prompts");
  const submit = (event) => {
    event.preventDefault();
    roll(newSeed());
  };
  if (form) form.addEventListener("submit", submit);
  else {
    for (const input of inputs) {
      input.addEventListener("keydown", (event) => event.key === "Enter" && submit(event));
    }
  }
}

/** Roll a mounted table with this seed and prompt values (deep links). */
export function rollWith(root, seed, given) {
  const widget = widgets.get(root);
  if (!widget) return false;
  widget.roll(seed, given);
  return true;
}

/** Show a refusal in a table's live region (deep links with bad parameters). */
export function explain(root, sentence) {
  const result = ensureResult(root);
  result.classList.add("rb-refused");
  result.textContent = sentence;
}
