// @ts-check
// The engine's start-up deadline, and the notice (with a Retry button) a reader sees when
// the engine cannot start. Without them a page whose Pyodide files are blocked, missing or
// damaged would say "warming up…" for ever.

import { t } from "./i18n.js";

/**
 * How long the engine may take to start before the page gives up on it (milliseconds).
 * Generous: a slow connection downloads some 10 MB of Pyodide and snapshot first. A site
 * may set its own with `"startup_deadline_ms"` in assets/rollbook/manifest.json (the
 * worker passes it on as soon as it has read the manifest; the tests use it).
 */
export const STARTUP_DEADLINE_MS = 120_000;

/**
 * Call `expire(seconds)` unless `clear()` comes first; `set(ms)` moves the deadline to `ms`
 * after the arming (the manifest's value, which arrives a little later).
 * @param {(seconds: number) => void} expire
 * @returns {{set: (ms: number) => void, clear: () => void}}
 */
export function arm(expire, ms = STARTUP_DEADLINE_MS) {
  const armed = performance.now();
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const set = (/** @type {number} */ limit) => {
    clearTimeout(timer);
    const left = Math.max(0, armed + limit - performance.now());
    timer = setTimeout(() => expire(Math.round(limit / 1000)), left);
  };
  set(ms);
  return { set, clear: () => clearTimeout(timer) };
}

const NOTICE_CLASS = "rb-engine-notice";

/**
 * Keep a notice in step with the engine: shown with `failure()`'s sentence and a Retry
 * button while the engine state is "error", gone once it is ready again. `retry()` starts
 * a fresh engine.
 * @param {(listener: (state: string) => void) => unknown} onState
 * @param {() => string | null} failure
 * @param {() => unknown} retry
 */
export function watchEngine(onState, failure, retry) {
  onState((state) => {
    const old = document.querySelector(`.${NOTICE_CLASS}`);
    if (state === "ready") {
      old?.remove();
      return;
    }
    if (state === "starting" && old) {
      const text = old.querySelector("p");
      const button = old.querySelector("button");
      if (text) text.textContent = t("engine.restarting");
      if (button) button.disabled = true;
      return;
    }
    if (state !== "error" || !failure()) return;
    const box = old || document.createElement("div");
    box.className = NOTICE_CLASS;
    box.setAttribute("role", "alert");
    const text = document.createElement("p");
    text.textContent = t("engine.retry_hint", { why: failure() || "" });
    const button = document.createElement("button");
    button.type = "button";
    button.className = "rb-engine-retry";
    button.textContent = t("engine.retry");
    button.addEventListener("click", () => retry());
    box.replaceChildren(text, button);
    if (!old) {
      const content =
        ["article.md-content__inner", "main", "[role=main]"]
          .map((selector) => document.querySelector(selector))
          .find(Boolean) || document.body;
      content.prepend(box);
    }
  });
}
