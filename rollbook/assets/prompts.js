// @ts-check
// Prompt inputs of a table: read, validated (type, min, max) before any roll, and filled
// from deep links. A value out of range is explained, never rolled.

import { el, humanize, uid } from "./util.js";

/**
 * Inputs the build emitted, or built here from the table payload when it emitted none.
 * @param {Element} root
 * @param {import("./protocol.js").TablePayload} data
 * @returns {HTMLInputElement[]}
 */
export function ensureInputs(root, data) {
  let box = root.querySelector(".rb-prompts");
  /** @type {HTMLInputElement[]} */
  let inputs = box ? [.../** @type {NodeListOf<HTMLInputElement>} */ (box.querySelectorAll("input[name], select[name]"))] : [];
  const specs = Array.isArray(data.prompts) ? data.prompts : [];
  if (!inputs.length && specs.length) {
    box = el("div", { class: "rb-prompts" });
    for (const raw of specs) {
      /** @type {import("./protocol.js").PromptSpec} */
      const spec = typeof raw === "string" ? { name: raw } : raw;
      const id = uid("rb-prompt");
      const label = el("label", { for: id }, spec.label || humanize(spec.name));
      const input = el("input", {
        id,
        name: spec.name,
        type: spec.type === "text" ? "text" : "number",
        inputmode: spec.type === "text" ? null : "numeric",
        min: spec.min ?? null,
        max: spec.max ?? null,
        step: spec.type === "text" ? null : "1",
        required: "",
      });
      const help = spec["help-text"] || spec.help_text || spec.help;
      const field = el("span", { class: "rb-field" });
      field.append(label, input);
      if (help) {
        const hint = el("span", { class: "rb-help", id: `${id}-help` }, help);
        input.setAttribute("aria-describedby", hint.id);
        field.append(hint);
      }
      box.append(field);
    }
    root.querySelector(".rb-bar")?.after(box);
    inputs = [.../** @type {NodeListOf<HTMLInputElement>} */ (box.querySelectorAll("input[name]"))];
  }
  return inputs;
}

/**
 * One value checked: the value, or the sentence that says why it is refused.
 * @typedef {{value: number | string, error?: undefined} | {error: string, value?: undefined}} Checked
 */

/**
 * Every value checked: the values by input name, or the first refusal and its input.
 * @typedef {{values: import("./protocol.js").PromptValues, error?: undefined, input?: undefined}
 *   | {error: string, input: HTMLInputElement, values?: undefined}} Collected
 */

/** @param {HTMLInputElement} input */
function labelOf(input) {
  const label =
    (input.id && input.ownerDocument.querySelector(`label[for="${CSS.escape(input.id)}"]`)) ||
    input.closest("label");
  const text = input.dataset.rbLabel || (label && label.textContent.trim());
  return text || humanize(input.name);
}

/**
 * Check one raw value against an input's type and bounds.
 * @param {HTMLInputElement} input
 * @param {unknown} raw
 * @returns {Checked}
 */
export function check(input, raw) {
  const name = labelOf(input);
  const text = String(raw ?? "").trim();
  const min = input.getAttribute("min");
  const max = input.getAttribute("max");
  if (input.type !== "number" && input.getAttribute("inputmode") !== "numeric") {
    return text ? { value: text } : { error: `${name} needs a value.` };
  }
  const bounds =
    min !== null && max !== null
      ? ` from ${min} to ${max}`
      : min !== null
        ? ` of at least ${min}`
        : max !== null
          ? ` of at most ${max}`
          : "";
  if (!/^[-+]?\d+$/.test(text)) {
    return { error: `${name} must be a whole number${bounds}; “${text || "nothing"}” is not.` };
  }
  const value = Number(text);
  if ((min !== null && value < Number(min)) || (max !== null && value > Number(max))) {
    return { error: `${name} must be a whole number${bounds}; ${value} is out of range.` };
  }
  return { value };
}

/**
 * Validate every input (or the `given` values), marking nothing.
 * @param {HTMLInputElement[]} inputs
 * @param {Record<string, unknown> | null} [given]
 * @returns {Collected}
 */
export function read(inputs, given = null) {
  /** @type {import("./protocol.js").PromptValues} */
  const values = {};
  for (const input of inputs) {
    const raw = given && given[input.name] !== undefined ? given[input.name] : input.value;
    const result = check(input, raw);
    if (result.error) return { error: result.error, input };
    values[input.name] = result.value;
  }
  return { values };
}

/**
 * `read`, marking the first bad input (aria-invalid) and clearing the good ones before it.
 * @param {HTMLInputElement[]} inputs
 * @param {Record<string, unknown> | null} [given]
 * @returns {Collected}
 */
export function collect(inputs, given = null) {
  const result = read(inputs, given);
  for (const input of inputs) {
    if (input === result.input) {
      input.setAttribute("aria-invalid", "true");
      break;
    }
    input.removeAttribute("aria-invalid");
  }
  return result;
}
