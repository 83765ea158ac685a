// @ts-check
// Small helpers shared by the widgets. Text goes in through textContent, never innerHTML.

/** Create an element with attributes and text (text is inserted as text, never as HTML). */
export function el(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined && value !== false) node.setAttribute(name, value);
  }
  if (text) node.textContent = text;
  return node;
}

/** A roll total as readers read it: numbers as they are, comma rolls as "3, 5". */
export function formatTotal(total) {
  if (Array.isArray(total)) return total.map(formatTotal).join(", ");
  if (typeof total === "number" && !Number.isInteger(total)) {
    return String(Math.round(total * 100) / 100);
  }
  return String(total);
}

/** "p/q" -> {text: "1/36", percent: "2.78%"}; exact from the build, no engine needed. */
export function formatChance(pq) {
  const [p, q = "1"] = String(pq).split("/");
  const value = Number(p) / Number(q);
  if (!Number.isFinite(value)) return { fraction: String(pq), percent: "" };
  const percent = value * 100;
  const digits = percent === 0 || percent >= 10 ? 1 : percent >= 1 ? 2 : 3;
  const shown = Number(percent.toFixed(digits)).toString();
  return { fraction: q === "1" ? p : `${p}/${q}`, percent: `${shown}%` };
}

/** Plain text of an HTML fragment, parsed inertly (a template runs no scripts, loads nothing). */
export function htmlToText(html) {
  const template = document.createElement("template");
  template.innerHTML = html;
  return template.content.textContent.replace(/\s+/g, " ").trim();
}

/** A label for a person: "failed_roll" -> "Failed Roll". */
export function humanize(name) {
  return String(name)
    .replace(/[_-]+/g, " ")
    .replace(/\b\w/g, (c) => c.toUpperCase())
    .trim();
}

/** Unique-enough ids for elements we add (tooltips, panels). */
let counter = 0;
export function uid(prefix) {
  counter += 1;
  return `${prefix}-${counter}`;
}

/** This page's path (no query, no hash): the base for links back to a roll. */
export function pageUrl() {
  return `${location.origin}${location.pathname}`;
}

/**
 * The JSON payload of a widget: the text of its `template.rb-data` (the build writes `<`,
 * `>` and `&` as JSON escapes, so the template holds one text node). A template, because
 * Material's instant navigation re-runs inline scripts without their type. Hand-written
 * pages outside Material may use `script.rb-data[type="application/json"]` instead.
 */
export function readPayload(root) {
  const node = root.querySelector(
    ':scope > template.rb-data, :scope > script.rb-data[type="application/json"]',
  );
  if (!node) return null;
  const text = node.tagName === "TEMPLATE" ? node.content.textContent : node.textContent;
  try {
    return JSON.parse(text);
  } catch {
    return null; // the build reported it; nothing to roll with
  }
}

/** Put text on the clipboard; false where the browser refuses (no permission, no https). */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * How long a request may run before its widget shows that it is busy (milliseconds). A
 * reply within this shows no intermediate state, so a click costs the reader one frame of
 * rendering, not two (issue 6: click -> painted); a slow one still says it is working.
 */
export const BUSY_DELAY_MS = 80;

/**
 * Mark `button` (aria-busy) and `root` (class rb-busy) busy once the work has run for
 * BUSY_DELAY_MS, or at once when `now`; returns the function that ends the mark.
 */
export function markBusy(button, root, now = false) {
  let shown = false;
  const show = () => {
    shown = true;
    button.setAttribute("aria-busy", "true");
    root.classList.add("rb-busy");
  };
  const timer = now ? null : setTimeout(show, BUSY_DELAY_MS);
  if (now) show();
  return () => {
    clearTimeout(timer);
    if (!shown) return; // nothing was changed, so nothing to render again
    button.removeAttribute("aria-busy");
    root.classList.remove("rb-busy");
  };
}

/**
 * The site's base URL: our assets live at `<base>/assets/rollbook/`, so two sites on one
 * origin (project pages of one account) have different bases.
 */
export const SITE_BASE = new URL("../../", import.meta.url).href;

/** A storage key scoped to this site, so sites on one origin keep apart what they store. */
export function siteKey(name) {
  return `${name}@${new URL(SITE_BASE).pathname}`;
}
