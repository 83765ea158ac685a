// @ts-check
// Deep links: page/?roll=ID[&seed=N][&NAME=VALUE...]#ID rolls ID on arrival. Every
// parameter is data: looked up, validated, never inserted as HTML.

import * as inline from "./inline.js";
import { t } from "./i18n.js";
import { parseSeed, seedRule } from "./seeds.js";
import * as table from "./table.js";

const MAX_SHOWN_ID = 80; // characters of an unknown id quoted back to the reader
const NOTICE_CLASS = "rb-link-notice";
/** @type {string | null} */
let handled = null; // the URL whose roll was already done (document$ may fire twice)

/** Roll what the current URL asks for, once per URL. */
export function follow() {
  const params = new URLSearchParams(location.search);
  const id = params.get("roll");
  if (!id || handled === location.href) return;
  handled = location.href;
  document.querySelector(`.${NOTICE_CLASS}`)?.remove(); // an earlier link's notice
  const root = /** @type {HTMLElement | null} */ (table.find(id) || document.getElementById(id));
  if (!root) {
    const shown = id.length > MAX_SHOWN_ID ? `${id.slice(0, MAX_SHOWN_ID)}…` : id;
    notice(t("deeplink.unknown", { name: shown }));
    return;
  }
  const rawSeed = params.get("seed");
  let seed = null;
  if (rawSeed !== null) {
    seed = parseSeed(rawSeed);
    if (seed === null) {
      const sentence = t("deeplink.bad_seed", { rule: seedRule() });
      if (root.matches(table.SELECTOR)) table.explain(root, sentence);
      // An inline roll says it in its own output (as text), not silently nothing.
      else root.querySelector("output.rb-out")?.replaceChildren(sentence);
      return;
    }
  }
  // Prompt values by name, as text: a Map, so names like "constructor" are only names.
  const given = new Map();
  for (const [name, value] of params) {
    if (name !== "roll" && name !== "seed") given.set(name, value); // the last one counts
  }
  root.scrollIntoView({ block: "start" });
  if (root.matches(table.SELECTOR)) {
    table.rollWith(root, seed ?? randomSeed(), given);
  } else if (root.matches(inline.SELECTOR)) {
    inline.rollWith(root, seed ?? randomSeed());
  }
}

/**
 * Show `sentence` in a dismissible notice at the top of the content. The sentence holds
 * text from the URL, so it only ever goes in as a text node.
 * @param {string} sentence
 */
function notice(sentence) {
  const box = document.createElement("div");
  box.className = NOTICE_CLASS;
  box.setAttribute("role", "status");
  const text = document.createElement("p");
  text.textContent = sentence;
  const close = document.createElement("button");
  close.type = "button";
  close.className = "rb-link-notice-close";
  close.setAttribute("aria-label", t("deeplink.dismiss"));
  close.textContent = "×";
  close.addEventListener("click", () => box.remove());
  box.append(text, close);
  // First match in this order (a selector list would pick Material's outer <main>).
  const content =
    ["article.md-content__inner", "main", "[role=main]"]
      .map((selector) => document.querySelector(selector))
      .find(Boolean) || document.body;
  content.prepend(box);
}

function randomSeed() {
  return crypto.getRandomValues(new Uint32Array(1))[0];
}
