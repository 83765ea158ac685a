// @ts-check
// Elements the widgets make and read: text goes in through textContent, never innerHTML;
// a widget's payload and an HTML fragment's text are read inertly.

/**
 * Create an element with attributes and text (text is inserted as text, never as HTML).
 * An attribute whose value is null, undefined or false is left out.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, string | number | boolean | null | undefined>} [attrs]
 * @param {string} [text]
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined && value !== false) node.setAttribute(name, String(value));
  }
  if (text) node.textContent = text;
  return node;
}

/**
 * Plain text of an HTML fragment, parsed inertly (a template runs no scripts, loads nothing).
 * @param {string} html
 */
export function htmlToText(html) {
  const template = document.createElement("template");
  template.innerHTML = html;
  return (template.content.textContent || "").replace(/\s+/g, " ").trim();
}

/**
 * A label for a person: "failed_roll" -> "Failed Roll".
 * @param {unknown} name
 */
export function humanize(name) {
  return String(name)
    .replace(/[_-]+/g, " ")
    .replace(/\b\w/g, (c) => c.toUpperCase())
    .trim();
}

let counter = 0;

/**
 * Unique-enough ids for elements we add (tooltips, panels).
 * @param {string} prefix
 */
export function uid(prefix) {
  counter += 1;
  return `${prefix}-${counter}`;
}

/**
 * The JSON payload of a widget: the text of its `template.rb-data` (the build writes `<`,
 * `>` and `&` as JSON escapes, so the template holds one text node). A template, because
 * Material's instant navigation re-runs inline scripts without their type. Hand-written
 * pages outside Material may use `script.rb-data[type="application/json"]` instead.
 * The payload is untrusted JSON: its reader checks what it uses.
 * @param {Element} root
 * @returns {any}
 */
export function readPayload(root) {
  const node = root.querySelector(':scope > template.rb-data, :scope > script.rb-data[type="application/json"]');
  if (!node) return null;
  const text = node instanceof HTMLTemplateElement ? node.content.textContent : node.textContent;
  try {
    return JSON.parse(text || "");
  } catch {
    return null; // the build reported it; nothing to roll with
  }
}

/**
 * Put text on the clipboard; false where the browser refuses (no permission, no https).
 * @param {string} text
 */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
