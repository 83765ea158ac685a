// @ts-check
// Inline roll: a button in running text; the total appears next to it, every die on
// hover/focus, and each roll goes to the history.

import { isReady, newSeed, request } from "./engine.js";
import { record } from "./history.js";
import { t } from "./i18n.js";
import { bindHand, makeHand } from "./inhand.js";
import { attach as attachMenu } from "./reader-menu.js";
import { markBusy } from "./busy.js";
import { el, uid } from "./dom.js";
import { formatTotal } from "./numbers.js";
import { pageUrl } from "./site.js";
import { modifierOf, notationFor, rollKey } from "./variants.js";

/** @typedef {import("./protocol.js").ReplyTo<"roll">} RollAnswer */

export const SELECTOR = ".rb-inline";

/**
 * Make one inline roll live; safe to call again on the same element. The button (with its
 * odds as the title) and the output are the build's (rollbook/markup/inline.py).
 * @param {HTMLElement} root
 */
export function mount(root) {
  if (root.dataset.rbMounted) return;
  const button = /** @type {HTMLButtonElement | null} */ (root.querySelector("button.rb-roll"));
  const output = root.querySelector("output.rb-out");
  if (!button || !output) return; // not the markup the build writes: nothing to wire
  if (root.dataset.rbTable) return; // a table reference: nested.js mounts it
  root.dataset.rbMounted = "true";
  if (!root.id && root.dataset.rbId && !document.getElementById(root.dataset.rbId)) {
    root.id = root.dataset.rbId;
  }
  // Every die, shown on hover and on keyboard focus, and read as the button's description.
  const dice = el("span", { class: "rb-dice", role: "tooltip", id: uid("rb-dice"), dir: "ltr", hidden: "" });
  root.append(dice);

  // What the button rolls: the written notation with the reader's modifier, if any.
  const rollId = root.dataset.rbId || root.id;
  const key = rollKey(root, rollId);
  // The build writes the plain notation on every roll's button (data-roll).
  const current = () => /** @type {string} */ (notationFor(button, "plain", modifierOf(key)));

  /**
   * @param {number | null} seed
   * @param {RollAnswer} reply
   */
  const show = (seed, reply, quiet = false) => {
    if (reply.error !== undefined) {
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
    if (quiet) return; // rolled with its table row: the table records the roll
    root.dataset.rbSeed = String(seed);
    root.dataset.rbNotation = reply.notation;
    record({
      where: (button.textContent || "").trim() || button.dataset.roll || "",
      result: reply.text,
      href: root.id ? `${pageUrl()}#${encodeURIComponent(root.id)}` : pageUrl(),
    });
  };

  // Rolled ahead on hover, focus and after each roll; only rolls the build could measure
  // (a roll too big for that might run into the watchdog without anyone asking for it).
  const hand = makeHand(() =>
    button.dataset.rbMean === undefined ? null : { op: "roll", expr: current(), seed: newSeed() },
  );
  let rolling = false;
  /**
   * @param {number} seed
   * @param {string} [notation]
   */
  const roll = async (seed, notation = current()) => {
    if (rolling) return;
    rolling = true;
    const ready = isReady();
    const done = markBusy(button, root, !ready);
    if (!ready) output.textContent = t("roll.warming");
    const reply = await request({ op: "roll", expr: notation, seed });
    rolling = false;
    done();
    show(seed, reply);
    if (!reply.error) hand.prepare();
  };
  rollers.set(root, roll);
  painters.set(root, (/** @type {RollAnswer} */ reply) => show(null, reply, true));
  bindHand(button, hand, {
    busy: () => rolling,
    roll: () => roll(newSeed()),
    use: (held) => show(held.seed, held.reply),
    fits: (asked) => asked.expr === current(), // a held roll made before a modifier changed
  });
  attachMenu(root, button, rollId, key, (notation) => {
    hand.drop();
    return roll(newSeed(), notation);
  });
}

/** @type {WeakMap<Element, (seed: number) => Promise<void>>} */
const rollers = new WeakMap();
/** @type {WeakMap<Element, (reply: RollAnswer) => void>} */
const painters = new WeakMap();

/**
 * Show a roll made elsewhere (a table row's nested roll) without recording it.
 * @param {HTMLElement} root
 * @param {RollAnswer} reply
 */
export function paint(root, reply) {
  if (!painters.has(root)) mount(root);
  const show = painters.get(root);
  if (show) show(reply);
}

/**
 * Roll a mounted inline roll with this seed (deep links); false if `root` is not one.
 * @param {Element} root
 * @param {number} seed
 */
export function rollWith(root, seed) {
  const roll = rollers.get(root);
  if (!roll) return false;
  roll(seed);
  return true;
}
