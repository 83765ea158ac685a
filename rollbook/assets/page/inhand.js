// @ts-check
// A roll in hand: the next result of one widget, asked of the worker before the
// reader clicks, so the click paints its result in the frame the click itself causes.
//
// Why: after a click, the browser renders a frame before it delivers the worker's reply
// (input is followed by rendering first), so an answer that takes 1 ms in the worker still
// reaches the screen a frame later (~30 ms from the click). A result in hand is written
// in the click handler: ~12 ms. The result is an ordinary seeded roll of our engine whose
// seed came from the CSPRNG before the click; nobody can see it until it is used, it is
// used at most once, and it is recorded with its seed like any other roll.

import { isReady, request } from "./engine.js";

/**
 * A result in hand: the request it was asked with, its seed and the reply (never an error).
 * @template {import("./protocol.js").BridgeRequest & {seed?: number}} R
 * @typedef {{seed: number, reply: import("./protocol.js").Replies[R["op"]], request: R}} Held
 */

/**
 * @template {import("./protocol.js").BridgeRequest & {seed?: number}} R
 * @typedef {{prepare: () => void, take: () => (Held<R> | null), drop: () => void}} Hand
 */

/**
 * A hand for one widget.
 * @template {import("./protocol.js").BridgeRequest & {seed?: number}} R
 * @param {() => R | null} ask  The request to roll ahead with a fresh seed, e.g.
 *   {op: "roll", expr, seed}; null when this widget should not roll ahead.
 * @returns {Hand<R>}
 */
export function makeHand(ask) {
  /** @type {Held<R> | null} */
  let held = null;
  let asking = false;
  let stale = false; // dropped while a request was on its way: its reply is not kept
  let heavy = false; // a roll ahead overran the watchdog: this widget rolls on clicks only
  return {
    /** Ask for the next result if none is held or on its way (only once the engine runs). */
    prepare() {
      if (heavy || held || asking || !isReady()) return;
      const req = ask();
      if (!req) return;
      asking = true;
      request(req, { background: true }).then((reply) => {
        asking = false;
        if (reply.error !== undefined && reply.kind === "Runaway") heavy = true;
        if (!reply.error && !stale) {
          const answer = /** @type {import("./protocol.js").Replies[R["op"]]} */ (reply);
          held = { seed: /** @type {number} */ (req.seed), reply: answer, request: req };
        }
        stale = false;
      });
    },
    /** The held result, handed out once; null when there is none yet. */
    take() {
      const taken = held;
      held = null;
      return taken;
    },
    /** Forget the held result (and the one on its way): what it was asked with changed. */
    drop() {
      held = null;
      stale = asking;
    },
  };
}

/**
 * Wire a hand to its widget's roll button: it rolls ahead on hover and focus, and a click
 * shows the held roll (`use(held)`, then rolls ahead again) when there is one, the widget
 * is not `busy()` and `fits(request it was asked with)`; otherwise the click calls `roll()`.
 * @template {import("./protocol.js").BridgeRequest & {seed?: number}} R
 * @param {HTMLElement} button
 * @param {Hand<R>} hand
 * @param {{busy: () => boolean, roll: () => unknown, use: (held: Held<R>) => void,
 *   fits?: (asked: R) => boolean}} how
 */
export function bindHand(button, hand, { busy, roll, use, fits = () => true }) {
  button.addEventListener("click", () => {
    const held = busy() ? null : hand.take();
    if (!held || !fits(held.request)) return void roll();
    use(held);
    hand.prepare();
  });
  button.addEventListener("pointerenter", hand.prepare);
  button.addEventListener("focus", hand.prepare);
}
