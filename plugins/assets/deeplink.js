// Deep links: page/?roll=ID[&seed=N][&NAME=VALUE...]#ID rolls ID on arrival. Every
// parameter is data: looked up, validated, never inserted as HTML.

import * as inline from "./inline.js";
import * as table from "./table.js";

const MAX_SEED = 2 ** 53 - 1; // the bridge's bound, exact in JavaScript
let handled = null; // the URL whose roll was already done (document$ may fire twice)

/** Roll what the current URL asks for, once per URL. */
export function follow() {
  const params = new URLSearchParams(location.search);
  const id = params.get("roll");
  if (!id || handled === location.href) return;
  handled = location.href;
  const root = table.find(id) || document.getElementById(id);
  if (!root) {
    console.warn("rollbook: this link asks for a roll this page does not have:", id);
    return;
  }
  const rawSeed = params.get("seed");
  let seed = null;
  if (rawSeed !== null) {
    seed = /^\d{1,16}$/.test(rawSeed) ? Number(rawSeed) : NaN;
    if (!(seed <= MAX_SEED)) {
      const sentence = `Not rolled: this link's seed must be a whole number from 0 to ${MAX_SEED}.`;
      if (root.matches(table.SELECTOR)) table.explain(root, sentence);
      // An inline roll says it in its own output (as text), not silently nothing.
      else root.querySelector("output.rb-out")?.replaceChildren(sentence);
      return;
    }
  }
  const given = {};
  for (const [name, value] of params) {
    if (name !== "roll" && name !== "seed") given[name] = value;
  }
  root.scrollIntoView({ block: "start" });
  if (root.matches(table.SELECTOR)) {
    table.rollWith(root, seed ?? randomSeed(), given);
  } else if (root.matches(inline.SELECTOR)) {
    inline.rollWith(root, seed ?? randomSeed());
  }
}

function randomSeed() {
  return crypto.getRandomValues(new Uint32Array(1))[0];
}
