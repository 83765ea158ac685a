// @ts-check
// Encounter widget of a ```combat``` block: roll initiative, step round by round, fight to
// the end, reset; the round log in a live list; exact hit chances from the build; Monte
// Carlo win rates from the worker.
//
// The worker stays stateless: a fight is its seed. "Next round" asks the bridge for the same
// seed with one round more (`{op: "fight", rounds: N}`), which replays the same dice, so
// the log shown always equals `rollbook fight FILE.yaml --seed N` for the same sides.

import { isReady, newSeed, request } from "./engine.js";
import { record } from "./history.js";
import { pinButton } from "./pins.js";
import { MAX_SEED, parseSeed, seedRule } from "./seeds.js";
import { numberText, t } from "./i18n.js";
import { copyText, el, readPayload } from "./dom.js";
import { percentText } from "./numbers.js";
import { pageUrl } from "./site.js";

export const SELECTOR = ".rb-combat";

/** @typedef {import("./protocol.js").CombatantState} CombatantState */
/** @typedef {import("./protocol.js").FightReply} FightReply */
/** @typedef {import("./protocol.js").Sides} Sides */
/**
 * A combat block's payload: the system, the sides (as [[name, members], ...]) and the seed
 * the author gave, if any.
 * @typedef {{system: string, sides: Array<[string, object[]]>, seed?: number | string | null}} CombatPayload
 */
/**
 * The block's controls, as the build writes them (rollbook/markup/combat/render.py); the
 * Monte Carlo button and its result only where the system simulates.
 * @typedef {{seed: HTMLInputElement, start: HTMLButtonElement, next: HTMLButtonElement,
 *   end: HTMLButtonElement, reset: HTMLButtonElement, copy: HTMLButtonElement, status: HTMLElement,
 *   log: HTMLElement, rows: HTMLElement[], mcRun: HTMLButtonElement | null, mcResult: HTMLElement | null}} Controls
 */

// Monte Carlo fights per request: start small, then aim at ~250 ms a request, far inside
// the engine's 1 s watchdog on a slow device too.
const FIRST_BATCH = 50;
const BATCH_MS = 250;
const Z95 = 1.959964;
// Catalogue keys: how a side won, and what became of a combatant.
const HOW = new Set(["defeated", "fled", "surrendered"]);
const STATES = new Set(["dead", "down", "fled", "surrendered"]);

/**
 * A rule system's word (a stat's label, a choice) from the catalogue's `stat.*` keys, which
 * arrive with the first fight's reply; else as the engine names it.
 * @param {string} key
 * @param {string} fallback
 */
function word(key, fallback) {
  const text = t(key);
  return text === key ? fallback : text;
}

/** @param {unknown} value */
function statusValue(value) {
  if (Array.isArray(value)) {
    return value.length ? value.map((v) => word(`stat.value.${v}`, String(v))).join(", ") : t("combat.value.none");
  }
  if (typeof value === "boolean") return t(value ? "combat.value.yes" : "combat.value.no");
  return String(value);
}

/**
 * "dead", or "fighting; AC 2, Scars 1" from the system's status (hp has its own column; a
 * number not set, such as "dying in" of a fighter who is not dying, is left out).
 * @param {CombatantState} c
 */
function statusText(c) {
  const head = c.out ? (STATES.has(c.out) ? t(`combat.state.${c.out}`) : c.out) : t("combat.state.fighting");
  const extras = Object.entries(c.status || {})
    .filter(([key, value]) => key !== "health" && key !== "hp" && value !== null)
    .map(([key, value]) => `${word(`stat.${key}`, key.replace(/_/g, " "))} ${statusValue(value)}`);
  return extras.length ? `${head}; ${extras.join(", ")}` : head;
}
/** @type {string | null} */
let linkHandled = null; // the URL whose ?fight= was already followed

/**
 * The Wilson score interval of a proportion, as the engine's Monte Carlo computes it.
 * @param {number} successes
 * @param {number} trials
 * @returns {[number, number]}
 */
export function wilson(successes, trials, z = Z95) {
  if (trials <= 0) return [0, 1];
  const p = successes / trials;
  const denom = 1 + (z * z) / trials;
  const centre = (p + (z * z) / (2 * trials)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / trials + (z * z) / (4 * trials * trials))) / denom;
  return [successes === 0 ? 0 : Math.max(0, centre - half), successes === trials ? 1 : Math.min(1, centre + half)];
}

// A Monte Carlo rate keeps its ".0": its decimal is its precision, not a rounding.
const pct = (/** @type {number} */ x) => percentText(x, { trim: false, floor: false });

/**
 * Health as "7/9" text (what screen readers read) over a bar (what eyes read).
 * @param {Element | null} cell
 * @param {string} text
 */
function paintHp(cell, text) {
  if (!cell) return;
  const [hp, max] = String(text).split("/").map(Number);
  let bar = /** @type {HTMLElement | null} */ (cell.querySelector(".rb-hp-bar"));
  let label = cell.querySelector(".rb-hp-text");
  if (!label || !bar) {
    label = el("span", { class: "rb-hp-text" });
    bar = el("span", { class: "rb-hp-bar", "aria-hidden": "true" }, "");
    bar.append(el("span", { class: "rb-hp-fill" }));
    cell.replaceChildren(label, bar);
  }
  label.textContent = text;
  const share = max > 0 && Number.isFinite(hp) ? Math.max(0, Math.min(1, hp / max)) : 0;
  bar.hidden = !(max > 0);
  const fill = /** @type {HTMLElement | null} */ (bar.firstElementChild);
  if (fill) fill.style.inlineSize = `${share * 100}%`;
  bar.classList.toggle("rb-hp-low", share <= 0.25);
}

/**
 * A side's Monte Carlo win chance as a bar with its 95% interval marked.
 * @param {number} rate
 * @param {number} lo
 * @param {number} hi
 */
function winBar(rate, lo, hi) {
  const bar = el("span", { class: "rb-win-bar", "aria-hidden": "true" });
  const fill = el("span", { class: "rb-win-fill" });
  fill.style.inlineSize = `${rate * 100}%`;
  const range = el("span", { class: "rb-win-ci" });
  range.style.insetInlineStart = `${lo * 100}%`;
  range.style.inlineSize = `${Math.max(0, hi - lo) * 100}%`;
  bar.append(fill, range);
  return bar;
}

/**
 * Make one combat block live; safe to call again on the same element.
 * @param {HTMLElement} root
 */
export function mount(root) {
  if (root.dataset.rbMounted) return;
  const data = /** @type {CombatPayload | null} */ (readPayload(root));
  if (!data) return;
  root.dataset.rbMounted = "true";
  const anchor = root.dataset.rbAnchor || root.id;
  // The build writes every control but the Monte Carlo ones (render.py).
  const q = (/** @type {string} */ selector) => /** @type {any} */ (root.querySelector(selector));
  /** @type {Controls} */
  const ui = {
    seed: q("input.rb-seed"),
    start: q("button.rb-fight-start"),
    next: q("button.rb-fight-next"),
    end: q("button.rb-fight-end"),
    reset: q("button.rb-fight-reset"),
    copy: q("button.rb-copy-link"),
    status: q(".rb-fight-status"),
    log: q("ol.rb-log-lines"),
    rows: [.../** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll("tr[data-rb-c]"))],
    mcRun: q("button.rb-mc-run"),
    mcResult: q(".rb-mc-result"),
  };
  const maxHp = ui.rows.map((row) => row.querySelector(".rb-hp")?.textContent || "");
  const pin = pinButton({ kind: "combat", id: anchor, label: q(".rb-combat-title strong")?.textContent || anchor });
  if (pin) ui.copy.after(pin);
  /** @type {{seed: number | null, round: number | null, ended: boolean, busy: boolean, shown: number}} */
  const fight = { seed: null, round: null, ended: false, busy: false, shown: 0 };
  const title = q(".rb-combat-title strong")?.textContent || anchor;
  // A click while a request is out (on a slow phone, "Start" and at once "To the end") is
  // kept, the last one, and done once the reply is in: never dropped without a word.
  /** @type {(() => number | null) | null} */
  let queued = null;

  const setBusy = (/** @type {boolean} */ on) => {
    fight.busy = on;
    for (const b of [ui.start, ui.next, ui.end]) {
      if (on) b.setAttribute("aria-busy", "true");
      else b.removeAttribute("aria-busy");
    }
    root.classList.toggle("rb-busy", on);
  };

  const syncButtons = () => {
    ui.start.disabled = fight.round !== null;
    ui.next.disabled = fight.ended;
    ui.end.disabled = fight.ended;
    ui.copy.disabled = fight.seed === null;
  };

  const reset = (keepSeed = false) => {
    queued = null;
    fight.seed = null;
    fight.round = null;
    fight.ended = false;
    fight.shown = 0;
    ui.log.replaceChildren();
    ui.rows.forEach((row, i) => {
      paintHp(row.querySelector(".rb-hp"), maxHp[i]);
      const status = row.querySelector(".rb-status");
      if (status) status.textContent = t("combat.state.ready");
      row.classList.remove("rb-out");
    });
    if (!keepSeed) ui.seed.value = String(data.seed ?? "");
    ui.status.textContent = t("combat.not_started");
    syncButtons();
  };

  const show = (/** @type {FightReply} */ reply) => {
    const lines = reply.log || [];
    if (lines.length < fight.shown) {
      ui.log.replaceChildren();
      fight.shown = 0;
    }
    // Only the new lines are added, so screen readers hear just what happened since.
    for (const line of lines.slice(fight.shown)) ui.log.append(el("li", {}, line));
    fight.shown = lines.length;
    const box = ui.log.parentElement;
    if (box) box.scrollTop = box.scrollHeight; // the newest lines in view
    (reply.combatants || []).forEach((c, i) => {
      const row = ui.rows[i];
      if (!row) return;
      paintHp(row.querySelector(".rb-hp"), `${c.hp}/${c.max_hp}`);
      const status = row.querySelector(".rb-status");
      if (status) status.textContent = statusText(c);
      row.classList.toggle("rb-out", Boolean(c.out));
    });
    fight.round = reply.round;
    fight.ended = Boolean(reply.result);
    if (reply.result) {
      const { winner, reason, rounds } = reply.result;
      const how = HOW.has(reason) ? t(`combat.how.${reason}`) : reason;
      const outcome = winner ? t("combat.win", { side: winner, how }) : t("combat.no_winner", { reason: how });
      const seed = String(fight.seed);
      ui.status.textContent = t("combat.over", { count: rounds, outcome, seed });
      record({
        where: title,
        result: t("combat.history", { winner: winner || t("combat.nobody"), reason: how, count: rounds, seed }),
        href: fightLink(),
      });
    } else if (reply.round === 0) {
      ui.status.textContent =
        t("combat.ready", { seed: String(fight.seed) }) + (lines.length ? "" : ` ${t("combat.initiative_later")}`);
    } else {
      ui.status.textContent = t("combat.round_done", { round: reply.round, seed: String(fight.seed) });
    }
    syncButtons();
  };

  const fightLink = () => {
    const params = new URLSearchParams({ fight: anchor, seed: String(fight.seed) });
    return `${pageUrl()}?${params}#${encodeURIComponent(anchor)}`;
  };

  // rounds: how many to fight, asked when the click is done (a queued "Next" counts from
  // the round the reply before it reached).
  const act = (/** @type {() => number | null} */ rounds) => {
    if (fight.busy) queued = rounds;
    else run(rounds());
  };

  // rounds: a number, or null for "to the end".
  const run = async (/** @type {number | null} */ rounds) => {
    if (fight.busy) return;
    if (fight.seed === null) {
      const typed = ui.seed.value.trim();
      const seed = typed ? parseSeed(typed) : newSeed();
      if (seed === null) {
        ui.status.textContent = t("combat.bad_seed", { rule: seedRule() });
        return;
      }
      fight.seed = seed;
      ui.seed.value = String(seed);
    }
    setBusy(true);
    if (!isReady()) ui.status.textContent = t("combat.warming");
    /** @type {import("./protocol.js").FightRequest} */
    const req = { op: "fight", system: data.system, sides: data.sides, seed: fight.seed };
    if (rounds !== null) req.rounds = rounds;
    const reply = await request(req);
    setBusy(false);
    const next = queued;
    queued = null;
    if (reply.error !== undefined) {
      ui.status.textContent = reply.error;
      return;
    }
    show(reply);
    if (next && !fight.ended) act(next);
  };

  ui.start.addEventListener("click", () => act(() => 0));
  ui.next.addEventListener("click", () => act(() => (fight.round ?? 0) + 1));
  ui.end.addEventListener("click", () => act(() => null));
  ui.reset.addEventListener("click", () => reset());
  ui.seed.addEventListener("change", () => {
    if (fight.round !== null) reset(true); // a new seed is a new fight
  });
  ui.copy.addEventListener("click", async () => {
    if (fight.seed === null) return;
    const href = fightLink();
    const ok = await copyText(href);
    ui.status.querySelector(".rb-note")?.remove();
    const note = ok
      ? el("span", { class: "rb-note" }, ` ${t("link.copied")}`)
      : el("a", { class: "rb-note", href }, ` ${t("combat.link")}`);
    ui.status.append(note);
  });

  ui.mcRun?.addEventListener("click", () => simulate(data, ui));

  reset();
  widgets.set(root, {
    runWithSeed: (seed) => {
      reset();
      ui.seed.value = String(seed);
      return run(null);
    },
  });
  followLink(root, anchor);
}

/** @type {WeakMap<Element, {runWithSeed: (seed: number) => Promise<void>}>} */
const widgets = new WeakMap();

/**
 * Fight a mounted widget to the end with this seed (deep links, tests).
 * @param {Element} root
 * @param {number} seed
 */
export function fightWith(root, seed) {
  const widget = widgets.get(root);
  return widget ? widget.runWithSeed(seed) : null;
}

/**
 * Fight the block whose anchor the address's ?fight= names, once per address.
 * @param {HTMLElement} root
 * @param {string} anchor
 */
function followLink(root, anchor) {
  const params = new URLSearchParams(location.search);
  if (params.get("fight") !== anchor || linkHandled === location.href) return;
  linkHandled = location.href;
  const raw = params.get("seed");
  const seed = raw === null ? newSeed() : parseSeed(raw);
  root.scrollIntoView({ block: "start" });
  if (seed === null) {
    const status = root.querySelector(".rb-fight-status");
    if (status) status.textContent = t("combat.link_bad_seed", { rule: seedRule() });
    return;
  }
  fightWith(root, seed);
}

/**
 * Run the Monte Carlo fights in batches and show each side's win rate.
 * @param {CombatPayload} data
 * @param {Controls} ui
 */
async function simulate(data, ui) {
  const button = ui.mcRun;
  const result = ui.mcResult;
  if (!button || !result || button.getAttribute("aria-busy") === "true") return;
  const runs = Number(button.dataset.rbRuns) || 1000;
  button.setAttribute("aria-busy", "true");
  const names = data.sides.map(([name]) => name);
  const wins = Object.fromEntries(names.map((n) => [n, 0]));
  const fled = Object.fromEntries(names.map((n) => [n, 0]));
  let done = 0;
  let stalemate = 0;
  let rounds = 0;
  const base = newSeed();
  result.textContent = isReady() ? t("combat.simulating") : t("combat.warming");
  let batch = FIRST_BATCH;
  for (let k = 0; done < runs; k += 1) {
    const size = Math.min(batch, runs - done);
    const warm = isReady(); // a request that waited for start-up says nothing about speed
    const t0 = performance.now();
    const reply = await request({
      op: "simulate",
      system: data.system,
      sides: data.sides,
      runs: size,
      seed: (base + k) % (MAX_SEED + 1),
    });
    const ms = performance.now() - t0;
    if (warm) batch = Math.max(10, Math.min(1000, Math.round((size * BATCH_MS) / Math.max(ms, 1))));
    if (reply.error !== undefined) {
      result.textContent = reply.error;
      button.removeAttribute("aria-busy");
      return;
    }
    for (const n of names) {
      wins[n] += reply.wins[n];
      fled[n] += reply.fled[n];
    }
    stalemate += reply.stalemate;
    rounds += reply.avg_rounds * reply.runs;
    done += reply.runs;
    result.textContent = t("combat.simulating_progress", { done: numberText(done), count: runs });
  }
  button.removeAttribute("aria-busy");
  const list = el("ul", { class: "rb-mc-rates" });
  for (const n of names) {
    const [lo, hi] = wilson(wins[n], done);
    const flight = fled[n] ? t("combat.rate_fled", { count: fled[n] }) : "";
    const li = el(
      "li",
      { "data-rb-side": n },
      t("combat.rate", { side: n, rate: pct(wins[n] / done), low: pct(lo), high: pct(hi), flight }),
    );
    li.prepend(winBar(wins[n] / done, lo, hi));
    list.append(li);
  }
  if (stalemate)
    list.append(el("li", {}, t("combat.stalemate", { count: numberText(stalemate), total: numberText(done) })));
  result.replaceChildren(
    el("span", {}, t("combat.summary", { count: done, rounds: numberText((rounds / done).toFixed(1)), seed: base })),
    list,
  );
}
