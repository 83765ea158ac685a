// @ts-check
// The dice box: one input at the top of the history tray, on every page, where any dice
// notation is rolled by the engine (every die shown) into the history. A notation the
// engine refuses gets its sentence and caret in place. The key D (outside text fields;
// Material's own keys are F, S, /, N, P, comma and period) opens the tray and focuses it.

import { isReady, newSeed, request } from "./engine.js";
import { record } from "./history.js";
import { language, t } from "./i18n.js";
import { markBusy } from "./busy.js";
import { el } from "./dom.js";
import { pageUrl } from "./site.js";

export const SHORTCUT = "d";
const ID = "rb-dicebox";
// Text this long is no dice notation (the engine's own limit is far lower): it is not sent
// to the engine, and what the box echoes of any input is cut to a few lines.
const INPUT_LIMIT = 10_000;
const AROUND = 60; // characters of the notation shown either side of the problem
const SENTENCE_LIMIT = 300; // characters of an error sentence (it may quote the input)

/**
 * `text` cut to `max` characters with an ellipsis; {text, cut}.
 * @param {string} text
 * @param {number} max
 */
function shortened(text, max) {
  return text.length > max ? { text: `${text.slice(0, max)}…`, cut: true } : { text, cut: false };
}

/**
 * The engine's caret ("notation" + line break + spaces and "^") with the notation cut to
 * AROUND characters either side of the caret; {text, cut}.
 * @param {string} caret
 */
function clippedCaret(caret) {
  const [line, marker = ""] = caret.split("\n");
  const at = Math.max(0, marker.indexOf("^"));
  if (line.length <= 2 * AROUND) return { text: caret.slice(0, 4 * AROUND), cut: caret.length > 4 * AROUND };
  const start = Math.max(0, at - AROUND);
  const end = Math.min(line.length, at + AROUND);
  const head = start > 0 ? "…" : "";
  const text = `${head}${line.slice(start, end)}${end < line.length ? "…" : ""}`;
  return { text: `${text}\n${" ".repeat(at - start + head.length)}^`, cut: true };
}

/**
 * The sentence said when an echo was cut.
 * @param {number} length
 */
function cutNote(length) {
  return el("p", { class: "rb-dicebox-cut" }, t("dicebox.cut", { count: length }));
}

/**
 * Whether a key pressed in `target` is typing (a text field, an editable element).
 * @param {EventTarget | null} target
 */
function editable(target) {
  return (
    target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))
  );
}

/**
 * The dice box's form, put in the tray's panel under its heading.
 * @param {Element} panel
 */
function build(panel) {
  const form = el("form", { class: "rb-dicebox", "aria-label": t("dicebox.form") });
  const label = el("label", { for: `${ID}-input` }, t("dicebox.label"));
  const input = el("input", {
    id: `${ID}-input`,
    type: "text",
    "data-rb-dicebox": "",
    autocomplete: "off",
    autocapitalize: "off",
    spellcheck: "false",
    placeholder: t("dicebox.placeholder"),
    dir: "ltr", // dice notation reads left to right in every language
    "aria-keyshortcuts": SHORTCUT.toUpperCase(),
    "aria-describedby": `${ID}-result`,
    title: t("dicebox.title", { key: SHORTCUT.toUpperCase() }),
  });
  const button = el("button", { type: "submit" }, t("dicebox.roll"));
  const result = el("div", { id: `${ID}-result`, class: "rb-dicebox-result", role: "status" });
  form.append(label, input, button, result);
  const heading = panel.querySelector(".rb-history-title");
  if (heading) heading.after(form);
  else panel.prepend(form);

  let rolling = false;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (rolling) return;
    const expr = input.value.trim();
    if (!expr) {
      input.setAttribute("aria-invalid", "true");
      result.replaceChildren(el("p", {}, t("dicebox.empty")));
      return;
    }
    if (expr.length > INPUT_LIMIT) {
      input.setAttribute("aria-invalid", "true");
      result.classList.add("rb-refused");
      delete result.dataset.rbSeed;
      const start = shortened(expr, AROUND).text;
      result.replaceChildren(
        el("p", {}, t("dicebox.too_long")),
        el("pre", { class: "rb-caret", dir: "ltr" }, start),
        cutNote(expr.length),
      );
      return;
    }
    rolling = true;
    const ready = isReady();
    const done = markBusy(button, form, !ready);
    if (!ready) result.replaceChildren(el("p", {}, t("dice.warming")));
    const seed = newSeed();
    // The page language's dice letter (1W20, 1k6, 1к6) is read as d by the engine.
    const reply = await request({ op: "roll", expr, seed, language: language() });
    rolling = false;
    done();
    if (reply.error !== undefined) {
      input.setAttribute("aria-invalid", "true");
      result.classList.add("rb-refused");
      const sentence = shortened(String(reply.error), SENTENCE_LIMIT);
      const caret = reply.caret ? clippedCaret(String(reply.caret)) : null;
      /** @type {HTMLElement[]} */
      const parts = [el("p", {}, sentence.text)];
      if (caret) parts.push(el("pre", { class: "rb-caret", dir: "ltr" }, caret.text));
      if (sentence.cut || caret?.cut) parts.push(cutNote(expr.length));
      result.replaceChildren(...parts);
      delete result.dataset.rbSeed;
      return;
    }
    input.removeAttribute("aria-invalid");
    result.classList.remove("rb-refused");
    result.dataset.rbSeed = String(seed);
    result.replaceChildren(el("p", { dir: "ltr" }, reply.text));
    record({ where: t("dicebox.where"), result: reply.text, href: pageUrl() });
  });
  return form;
}

/** Put the dice box in the history tray (once per tray; the tray survives navigation). */
export function mount() {
  const panel = document.querySelector(".rb-history-panel");
  if (!panel || panel.querySelector(".rb-dicebox")) return;
  build(panel);
  const toggle = /** @type {HTMLElement | null} */ (document.querySelector(".rb-history-toggle"));
  if (toggle) toggle.title = t("history.toggle_title", { key: SHORTCUT.toUpperCase() });
}

/** Open the tray and put the cursor in the dice box. */
export function focus() {
  mount();
  const panel = /** @type {HTMLElement | null} */ (document.querySelector(".rb-history-panel"));
  const toggle = /** @type {HTMLElement | null} */ (document.querySelector(".rb-history-toggle"));
  if (panel?.hidden && toggle) toggle.click();
  const input = /** @type {HTMLInputElement | null} */ (document.querySelector("input[data-rb-dicebox]"));
  if (input) {
    input.focus();
    input.select();
  }
}

addEventListener("keydown", (event) => {
  if (event.key.toLowerCase() !== SHORTCUT || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.defaultPrevented || editable(event.target)) return;
  event.preventDefault();
  focus();
});
