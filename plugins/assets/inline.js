// Inline roll: a button in running text; the total appears next to it, every die on
// hover/focus, and each roll goes to the history.

import { isReady, newSeed, request } from "./engine.js";
import { record } from "./history.js";
import { el, formatTotal, pageUrl, uid } from "./util.js";

export const SELECTOR = ".rb-inline";

/** Average and range from the build's data attributes (no engine needed). */
function summary(button) {
  const { roll, rbMin, rbMax, rbMean } = button.dataset;
  if (rbMin === undefined || rbMax === undefined) return "";
  const range = rbMin === rbMax ? rbMin : `${rbMin}–${rbMax}`;
  return `${roll}: average ${rbMean}, range ${range}`;
}

/** Make one inline roll live; safe to call again on the same element. */
export function mount(root) {
  if (root.dataset.rbMounted) return;
  const button = root.querySelector("button.rb-roll");
  if (!button) return;
  root.dataset.rbMounted = "true";
  if (!root.id && root.dataset.rbId && !document.getElementById(root.dataset.rbId)) {
    root.id = root.dataset.rbId;
  }
  if (!button.title) button.title = summary(button);
  let output = root.querySelector("output.rb-out");
  if (!output) {
    output = el("output", { class: "rb-out", "aria-live": "polite" });
    button.after(output);
  }
  // Every die, shown on hover and on keyboard focus, and read as the button's description.
  const dice = el("span", { class: "rb-dice", role: "tooltip", id: uid("rb-dice"), hidden: "" });
  root.append(dice);

  const roll = async (seed) => {
    if (button.getAttribute("aria-busy") === "true") return;
    button.setAttribute("aria-busy", "true");
    root.classList.add("rb-busy");
    if (!isReady()) output.textContent = "warming up…";
    const reply = await request({ op: "roll", expr: button.dataset.roll, seed });
    button.removeAttribute("aria-busy");
    root.classList.remove("rb-busy");
    if (reply.error) {
      root.classList.add("rb-failed");
      output.textContent = reply.error;
      dice.hidden = true;
      return;
    }
    root.classList.remove("rb-failed");
    output.textContent = formatTotal(reply.total);
    dice.textContent = reply.text;
    dice.hidden = false;
    button.setAttribute("aria-describedby", dice.id);
    root.dataset.rbSeed = String(seed);
    record({
      where: button.textContent.trim() || button.dataset.roll,
      result: reply.text,
      href: root.id ? `${pageUrl()}#${encodeURIComponent(root.id)}` : pageUrl(),
    });
  };
  rollers.set(root, roll);
  button.addEventListener("click", () => roll(newSeed()));
}

const rollers = new WeakMap();

/** Roll a mounted inline roll with this seed (deep links); false if `root` is not one. */
export function rollWith(root, seed) {
  const roll = rollers.get(root);
  if (!roll) return false;
  roll(seed);
  return true;
}
