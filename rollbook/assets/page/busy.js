// @ts-check
// The busy mark of a widget whose request takes long enough for the reader to see it.

/**
 * How long a request may run before its widget shows that it is busy (milliseconds). A
 * reply within this shows no intermediate state, so a click costs the reader one frame of
 * rendering, not two (click -> painted: docs/reference/performance.md); a slow one still
 * says it is working.
 */
export const BUSY_DELAY_MS = 80;

/**
 * Mark `button` (aria-busy) and `root` (class rb-busy) busy once the work has run for
 * BUSY_DELAY_MS, or at once when `now`; returns the function that ends the mark.
 * @param {Element} button
 * @param {Element} root
 * @returns {() => void}
 */
export function markBusy(button, root, now = false) {
  let shown = false;
  const show = () => {
    shown = true;
    button.setAttribute("aria-busy", "true");
    root.classList.add("rb-busy");
  };
  const timer = now ? undefined : setTimeout(show, BUSY_DELAY_MS);
  if (now) show();
  return () => {
    clearTimeout(timer);
    if (!shown) return; // nothing was changed, so nothing to render again
    button.removeAttribute("aria-busy");
    root.classList.remove("rb-busy");
  };
}
