// @ts-check
// The page's handle on the engine worker: one worker per document, started once through a
// memoised promise, requests answered one at a time, runaways cancelled after 1 s of
// running (counted from the worker's "begin": the imports a request waits for first are
// not part of its second). Work asked ahead (a roll in hand, on hover) is never a reason to
// restart the engine: past 1 s its asker hears that it was too slow, and the worker is
// replaced only once a reader's request has waited behind it for another second.

import { t } from "./i18n.js";
import { arm } from "./startup-watchdog.js";

/** @typedef {import("./protocol.js").BridgeRequest} BridgeRequest */
/** @typedef {import("./protocol.js").BridgeReply} BridgeReply */
/** @typedef {import("./protocol.js").ErrorReply} ErrorReply */
/** @typedef {import("./protocol.js").FromWorker} FromWorker */
/** @typedef {import("./protocol.js").ToWorker} ToWorker */
/** @typedef {import("./protocol.js").ImportRecord} ImportRecord */
/** @typedef {import("./protocol.js").SnapshotChoice} SnapshotChoice */
/**
 * @template {BridgeRequest["op"]} Op
 * @typedef {import("./protocol.js").ReplyTo<Op>} ReplyTo
 */

/**
 * One request on its way: its JSON, who waits for its reply, and while it is in the
 * worker, its id and watchdog timers. `background`: work asked ahead that nobody waits
 * for; `overdue`: such work that ran past RUNAWAY_MS.
 * @typedef {{json: string, resolve: (reply: BridgeReply) => void, background: boolean,
 *   id?: number, timer?: ReturnType<typeof setTimeout>, behind?: ReturnType<typeof setTimeout>,
 *   overdue?: boolean}} Job
 */

/**
 * The running worker: whether it answers yet, the promise of its start, and whether (and
 * when) it was told to import the rest of the engine.
 * @typedef {{worker: Worker, isReady: boolean, ready: Promise<void> | null, later: boolean,
 *   laterTimer: ReturnType<typeof setTimeout> | undefined}} Session
 */

/** How long one request may run before the worker is replaced (milliseconds). */
export const RUNAWAY_MS = 1000;
/** How long a request may wait for the worker to begin it (the module being imported in
 * the background, then its own): imports are slow on a slow processor, but never this
 * slow; a worker that says nothing for so long has died. */
export const BEGIN_MS = 10_000;
/** How long the page stays idle after ready (or a reply) before the worker imports the
 * rest of the engine: a click that comes sooner does not wait for those imports. A pointer
 * over a button or a key pressed meanwhile starts the wait again (a click may follow). */
export const LATER_MS = 1500;
/** Replies whose import record `stats.imports` keeps. */
const IMPORTS_KEPT = 50;

const WORKER_URL = new URL("./worker.js", import.meta.url);
const MANIFEST_URL = new URL("./manifest.json", import.meta.url);

// readyMs: worker creation -> ready; startedAt / readyAt: page times (ms since navigation
// start) of the latest worker's creation and of ready.
// readyMarks: the worker's own timings of its start-up steps.
// restored: whether the worker started from the build's memory snapshot; snapshotChoice:
// why it fetched it or not ({use, reason, rate}: linkspeed.js). imports: per reply, the
// worker's record of the modules it waited for, those still to come, and those imported
// while it ran ({waited, notYet, during}: worker.js), the latest IMPORTS_KEPT.
export const stats = {
  /** @type {ImportRecord[]} */
  imports: [],
  workerStarts: 0,
  /** @type {number | null} */
  readyMs: null,
  /** @type {number | null} */
  startedAt: null,
  /** @type {number | null} */
  readyAt: null,
  /** @type {Record<string, number> | null} */
  readyMarks: null,
  restored: false,
  /** @type {SnapshotChoice | null} */
  snapshotChoice: null,
};

/** @type {Session | null} */
let current = null;
/** @type {Job[]} */
const queue = []; // waiting for the worker
/** @type {Job[]} */
const spare = []; // the same for background requests: sent only when `queue` is empty
/** @type {Job | null} */
let inflight = null;
let nextId = 1;
/** @type {Set<(state: string) => void>} */
const listeners = new Set();
/** @type {string | null} */
let failure = null; // the sentence of the latest start that failed, until one succeeds

/** Why the engine could not start (a sentence), or null. */
export function startFailure() {
  return failure;
}

/** @param {string} state */
function setState(state) {
  document.documentElement.dataset.rbEngine = state;
  for (const listener of listeners) listener(state);
}

/**
 * Call `listener(state)` whenever the engine's state changes; returns an unsubscribe.
 * @param {(state: string) => void} listener
 */
export function onState(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether a request sent now would be answered without waiting for start-up. */
export function isReady() {
  return Boolean(current?.isReady);
}

/** Whether nothing is waiting for, or running in, the worker. */
export function isIdle() {
  return !inflight && !queue.length && !spare.length;
}

// Replies the worker writes itself (not the engine), by kind: the catalogue key to show.
/** @type {Record<string, string>} */
const WORKER_SENTENCES = { WorkerError: "engine.request_failed", OddsUnavailable: "engine.odds_unavailable" };

/**
 * Post one message to the worker (the contract: protocol.js `ToWorker`).
 * @param {Worker} worker
 * @param {ToWorker} message
 */
function post(worker, message) {
  worker.postMessage(message);
}

/** Start the worker if it is not running; resolves when it can answer requests. */
export function start() {
  if (current) return current.ready;
  stats.workerStarts += 1;
  // The page's head may have started the worker already (early_start.py): take it over,
  // with the messages it sent meanwhile, which are handled below as if they came now.
  const early = takeEarly();
  const t0 = early ? early.at : performance.now();
  stats.startedAt = t0;
  const worker = early ? early.worker : new Worker(WORKER_URL, { type: "module", name: "rollbook-engine" });
  /** @type {Session} */
  const session = { worker, isReady: false, ready: null, later: false, laterTimer: undefined };
  session.ready = new Promise((resolve, reject) => {
    // A start that never finishes (a blocked download) ends in a sentence, not in waiting.
    const deadline = arm((seconds) => {
      fail(session, t("engine.timeout", { count: seconds }));
      reject(new Error("start-up deadline"));
    });
    worker.onmessage = (event) => {
      const message = /** @type {FromWorker} */ (event.data);
      if (message.type === "deadline") {
        deadline.set(message.ms);
      } else if (message.type === "ready") {
        deadline.clear();
        failure = null;
        session.isReady = true;
        stats.readyAt = performance.now();
        stats.readyMs = stats.readyAt - t0;
        stats.readyMarks = message.marks || null;
        stats.restored = Boolean(message.restored);
        stats.snapshotChoice = message.choice || null;
        setState("ready");
        resolve();
        pump();
      } else if (message.type === "failed") {
        deadline.clear();
        if (message.key !== "start.failed") console.warn("rollbook engine:", message.error);
        const why = t(message.key || "start.failed", { file: message.file || "" });
        fail(session, t("engine.failed_because", { why }));
        reject(new Error(message.error));
      } else if (message.type === "begin") {
        begin(session, message.id);
      } else if (message.type === "reply") {
        if (message.imports) stats.imports = [...stats.imports, message.imports].slice(-IMPORTS_KEPT);
        settle(session, message.id, message.json);
      }
    };
    worker.onerror = (event) => {
      event.preventDefault();
      deadline.clear();
      fail(session, t("engine.failed"));
      reject(new Error("worker error"));
    };
  });
  session.ready.catch(() => {}); // failures are reported through the requests
  current = session;
  setState("starting");
  if (early) {
    // As the worker would have delivered them: errors to onerror, messages to onmessage.
    for (const event of early.queue) {
      if (event.type === "error") worker.onerror?.call(worker, /** @type {ErrorEvent} */ (event));
      else worker.onmessage?.call(worker, /** @type {MessageEvent} */ (event));
    }
  } else {
    post(worker, { type: "init", manifest: MANIFEST_URL.href });
  }
  return session.ready;
}

/**
 * The worker the page's head started (once), if it started one for this manifest, with
 * the events it sent before this module took it over and the page time it was made.
 * @returns {{worker: Worker, queue: Event[], at: number} | null}
 */
function takeEarly() {
  const early = /** @type {any} */ (globalThis).__rbEarly;
  if (!early || !(early.worker instanceof Worker) || !Array.isArray(early.queue)) return null;
  /** @type {any} */ (globalThis).__rbEarly = null;
  return { worker: early.worker, queue: early.queue, at: Number(early.at) || performance.now() };
}

/**
 * @param {Session} session
 * @param {string} sentence
 */
function fail(session, sentence) {
  if (current !== session) return;
  session.worker.terminate();
  current = null;
  failure = sentence;
  setState("error");
  // Everything waiting gets the sentence; the next click tries a fresh worker.
  const waiting = [...(inflight ? [inflight] : []), ...queue.splice(0), ...spare.splice(0)];
  if (inflight) clearTimeout(inflight.timer);
  inflight = null;
  for (const job of waiting) job.resolve({ error: sentence, kind: "EngineError" });
}

/**
 * @param {Session} session
 * @param {number} id
 * @param {string} json
 */
function settle(session, id, json) {
  if (current !== session || !inflight || inflight.id !== id) return;
  clearTimeout(inflight.timer);
  clearTimeout(inflight.behind);
  const job = inflight;
  inflight = null;
  /** @type {BridgeReply} */
  let reply;
  try {
    reply = JSON.parse(json);
  } catch {
    reply = { error: t("engine.unreadable"), kind: "EngineError" };
  }
  // The worker's own sentences, in the page's language (the English one goes to the console).
  const own = reply?.error ? WORKER_SENTENCES[reply.kind] : undefined;
  if (own && reply.error) {
    console.warn("rollbook engine:", reply.error);
    reply = { ...reply, error: t(own) };
  }
  // The engine's own sentences (a refusal, "no row", a fight's log) in the page's language:
  // said.js and their texts arrive with the first reply that holds one.
  if (saysWords(reply)) {
    import("./said.js")
      .then(
        (said) => said.localised(reply),
        () => reply,
      )
      .then(job.resolve);
  } else job.resolve(reply);
  pump();
}

/**
 * Whether a reply, or a table rolled inside it, holds a sentence of the engine's.
 * @param {unknown} reply
 * @returns {boolean}
 */
function saysWords(reply) {
  const words = /** @type {{message?: unknown, said?: unknown, events?: unknown, nested?: unknown}} */ (reply);
  if (!words) return false;
  if (words.message || words.said || Array.isArray(words.events)) return true;
  return Array.isArray(words.nested) && words.nested.some((part) => part?.kind === "table" && saysWords(part));
}

function pump() {
  const session = current;
  if (!session?.isReady) return;
  const job = inflight ? undefined : queue.shift() || spare.shift();
  if (!job) return void importLater(session);
  inflight = job;
  job.id = nextId++;
  job.timer = setTimeout(() => runaway(session, SILENT), BEGIN_MS);
  post(session.worker, { type: "request", id: job.id, json: job.json });
}

/**
 * The worker has what the request needs and runs it now: its second starts.
 * @param {Session} session
 * @param {number} id
 */
function begin(session, id) {
  if (current !== session || !inflight || inflight.id !== id) return;
  clearTimeout(inflight.timer);
  inflight.timer = setTimeout(() => runaway(session), RUNAWAY_MS);
}

/**
 * Once the page has been idle LATER_MS, let the worker import the rest of the engine.
 * @param {Session} session
 */
function importLater(session) {
  if (session.later) return;
  clearTimeout(session.laterTimer);
  session.laterTimer = setTimeout(() => {
    if (current !== session || !isIdle()) return; // the next reply tries again
    session.later = true;
    post(session.worker, { type: "later" });
  }, LATER_MS);
}

/**
 * Reader intent before the background imports have begun: they wait LATER_MS again.
 * @param {Event} event
 */
function postponeLater(event) {
  const session = current;
  if (!session || session.later || session.laterTimer === undefined) return;
  const target = event.target;
  if (event.type === "keydown" || (target instanceof Element && target.closest("button"))) importLater(session);
}
for (const type of ["pointerover", "pointerdown", "focusin", "keydown"])
  document.addEventListener(type, postponeLater, { capture: true, passive: true });

const TOO_LONG = "engine.runaway"; // catalogue keys of what the reader is told
const SILENT = "engine.silent";

/**
 * @param {Session} session
 * @param {string} [sentence]  catalogue key of what the reader is told
 */
function runaway(session, sentence = TOO_LONG) {
  if (current !== session || !inflight) return;
  const job = inflight;
  if (job.background) {
    // Nobody waits for it: the worker may finish it, and its asker asks no more (inhand.js).
    job.overdue = true;
    job.resolve({ error: "That roll is too much work to roll ahead.", kind: "Runaway" });
    if (queue.length) waitBehind(session);
    return;
  }
  job.resolve({ error: t(sentence), kind: "Runaway" });
  replace(session);
}

/**
 * Replace the worker of `session` (busy with the request in flight); queued requests go to the new one.
 * @param {Session} session
 */
function replace(session) {
  clearTimeout(inflight?.timer);
  clearTimeout(inflight?.behind);
  inflight = null;
  session.worker.terminate();
  current = null;
  start();
}

/**
 * A reader's request waits behind work asked ahead that overran: give it RUNAWAY_MS more.
 * @param {Session} session
 */
function waitBehind(session) {
  const job = inflight;
  if (!job?.overdue || job.behind) return;
  job.behind = setTimeout(() => {
    if (current === session && inflight === job) replace(session);
  }, RUNAWAY_MS);
}

/**
 * Send one bridge request; resolves with the reply of its kind (protocol.js `Replies`) or
 * an ErrorReply; never rejects.
 * @template {BridgeRequest} R
 * @param {R} req  e.g. {op: "roll", expr: "2d6", seed: 42}
 * @param {{background?: boolean}} [options]  background: a request nobody is waiting for
 *   (a roll in hand), sent only when no reader's request is waiting.
 * @returns {Promise<ReplyTo<R["op"]>>}
 */
export function request(req, { background = false } = {}) {
  return new Promise((resolve) => {
    // The worker answers with the reply of the request's kind: the contract protocol.js states.
    const answer = /** @type {(reply: BridgeReply) => void} */ (resolve);
    (background ? spare : queue).push({ json: JSON.stringify(req), resolve: answer, background });
    start();
    pump();
    if (!background && current) waitBehind(current);
  });
}

/** A seed for one roll: 32 random bits from the platform's CSPRNG (short enough for a URL). */
export function newSeed() {
  const words = new Uint32Array(1);
  crypto.getRandomValues(words);
  return words[0];
}
