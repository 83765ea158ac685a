// @ts-check
// Prompt inputs of a table: read as text, sent to the engine (which judges them: type, min,
// max), marked when refused, and filled from deep links.

/**
 * The text of each input, or of the link's value for it (`given`: a Map of name -> text).
 * Nothing is judged here: the engine judges every value by the rule the CLI uses
 * (rollbook/engine/tables/prompt_value.py), so a form, a link and `rollbook table --set`
 * accept the same values and refuse the rest with the same sentence.
 * @param {HTMLInputElement[]} inputs
 * @param {Map<string, string> | null} [given]
 * @returns {{values: import("./protocol.js").PromptValues}}  name -> text, prototype-free
 */
export function read(inputs, given = null) {
  /** @type {import("./protocol.js").PromptValues} */
  const values = Object.create(null);
  for (const input of inputs) {
    values[input.name] = given?.get(input.name) ?? input.value;
  }
  return { values };
}

/**
 * Mark the input of the prompt the engine refused (`name`; null: none) and clear the rest.
 * @param {HTMLInputElement[]} inputs
 * @param {string | null} [name]
 * @returns {HTMLInputElement | null}
 */
export function mark(inputs, name = null) {
  for (const input of inputs) {
    if (input.name === name) input.setAttribute("aria-invalid", "true");
    else input.removeAttribute("aria-invalid");
  }
  return inputs.find((input) => input.name === name) || null;
}

/**
 * A value the engine accepted, as links and inputs show it: "-0" and "007" and " 7 " are
 * written "0", "7" and "7" (an accepted value is an optional "-" and at most ten digits,
 * exact as a JavaScript number).
 * @param {unknown} text
 * @returns {string}
 */
export function canonical(text) {
  const value = Number(String(text).trim());
  return Object.is(value, -0) ? "0" : String(value);
}
