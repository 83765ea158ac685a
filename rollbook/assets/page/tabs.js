// @ts-check
// Tabs of a table (the d66 "Head / Face / Arms..." case): click or arrow keys switch them.

/**
 * Show `tab`'s panel and hide its siblings'.
 * @param {HTMLElement} tab
 */
export function select(tab, focus = false) {
  const list = tab.closest("[role=tablist]");
  if (!list) return;
  for (const other of list.querySelectorAll("[role=tab]")) {
    if (!(other instanceof HTMLElement)) continue;
    const chosen = other === tab;
    other.setAttribute("aria-selected", String(chosen));
    other.tabIndex = chosen ? 0 : -1;
    const panel = document.getElementById(other.getAttribute("aria-controls") || "");
    if (panel) panel.hidden = !chosen;
  }
  if (focus) tab.focus();
}

/**
 * Show the tab whose panel holds `node`, if it sits in a tab panel.
 * @param {Element} node
 */
export function reveal(node) {
  const panel = node.closest("[role=tabpanel]");
  if (!panel?.id) return;
  const tab = document.querySelector(`[role=tab][aria-controls="${CSS.escape(panel.id)}"]`);
  if (tab instanceof HTMLElement) select(tab);
}

/**
 * Wire the tablists inside `root` (idempotent through the caller's mount flag).
 * @param {ParentNode} root
 */
export function mount(root) {
  for (const list of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll("[role=tablist]"))) {
    const tabs = [...list.querySelectorAll("[role=tab]")].filter((tab) => tab instanceof HTMLElement);
    if (!tabs.length) continue;
    const current = tabs.find((t) => t.getAttribute("aria-selected") === "true") || tabs[0];
    select(current);
    list.addEventListener("click", (event) => {
      const tab = event.target instanceof Element ? event.target.closest("[role=tab]") : null;
      if (tab instanceof HTMLElement && list.contains(tab)) select(tab);
    });
    list.addEventListener("keydown", (event) => {
      const index = tabs.indexOf(/** @type {HTMLElement} */ (document.activeElement));
      if (index < 0) return;
      /** @type {Record<string, number>} */
      const moves = {
        ArrowRight: index + 1,
        ArrowDown: index + 1,
        ArrowLeft: index - 1,
        ArrowUp: index - 1,
        Home: 0,
        End: tabs.length - 1,
      };
      if (!(event.key in moves)) return;
      event.preventDefault();
      select(tabs[(moves[event.key] + tabs.length) % tabs.length], true);
    });
  }
}
