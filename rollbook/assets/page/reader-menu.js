// @ts-check
// The reader's menu beside an inline roll: roll again, advantage, disadvantage, a
// modifier (remembered for that roll on that page), the roll's chances as a bar chart, and
// a pin to the GM screen. A menu button, so it works by touch and keyboard alike: no
// modifier keys. Every roll still goes through the engine in the worker.

import { request } from "./engine.js";
import { chart } from "./chart.js";
import { t } from "./i18n.js";
import { pinButton } from "./pins.js";
import { el, uid } from "./dom.js";
import { modifierOf, notationFor, offers, parseModifier, setModifier } from "./variants.js";

// Each variant and the catalogue key of its menu item.
const ITEMS = [
  ["again", "menu.again"],
  ["advantage", "menu.advantage"],
  ["disadvantage", "menu.disadvantage"],
  ["modifier", "menu.modifier"],
  ["chances", "chances.show"],
];

/**
 * Add the menu to a mounted inline roll. `rollNotation(notation)` rolls that notation as
 * the roll's own button does; `id` names the roll on its page, `key` its modifier
 * (variants.js rollKey). The menu offers the variants the build wrote for the roll, and its
 * chances when the build could work them out (data-rb-mean).
 * @param {HTMLElement} root
 * @param {HTMLButtonElement} button
 * @param {string} id
 * @param {string} key
 * @param {(notation: string) => unknown} rollNotation
 */
export function attach(root, button, id, key, rollNotation) {
  const written = button.dataset.roll || "";
  const label = (button.textContent || "").trim() || written;
  // The notation of a variant the menu offers (it shows only those the build wrote).
  const notation = (/** @type {string} */ variant, /** @type {number} */ modifier) =>
    /** @type {string} */ (notationFor(button, variant, modifier));
  const menuId = uid("rb-menu");
  const toggle = el(
    "button",
    {
      type: "button",
      class: "rb-more",
      "aria-haspopup": "menu",
      "aria-expanded": "false",
      "aria-controls": menuId,
      "aria-label": t("menu.more", { roll: label }),
      title: t("menu.more", { roll: written }),
    },
    "▾",
  );
  const menu = el("div", {
    class: "rb-menu",
    role: "menu",
    id: menuId,
    "aria-label": t("menu.label", { roll: label }),
    hidden: "",
  });
  for (const [variant, key] of ITEMS) {
    if (variant === "chances" ? button.dataset.rbMean === undefined : variant !== "again" && !offers(button, variant)) {
      continue;
    }
    menu.append(el("button", { type: "button", role: "menuitem", tabindex: "-1", "data-rb-variant": variant }, t(key)));
  }
  const pin = pinButton({ kind: "inline", id, label, asMenuItem: true });
  if (pin) menu.append(pin);
  const panel = el("div", { class: "rb-variant-panel", hidden: "" });
  // Beside the roll, not inside it: the roll's own markup stays as the build wrote it.
  const tools = el("span", { class: "rb-inline-tools", "data-search-exclude": "" });
  tools.append(toggle, menu, panel);
  root.after(tools);

  const modifier = () => (offers(button, "modifier") ? modifierOf(key) : 0);
  const showModifier = () => {
    const value = modifier();
    toggle.classList.toggle("rb-has-modifier", value !== 0);
    toggle.title = value
      ? t("menu.more_modified", { roll: written, modifier: `${value > 0 ? "+" : ""}${value}` })
      : t("menu.more", { roll: written });
  };
  showModifier();

  const items = () => [.../** @type {NodeListOf<HTMLElement>} */ (menu.querySelectorAll('[role="menuitem"]'))];
  const open = (/** @type {boolean} */ yes, focusFirst = true) => {
    menu.hidden = !yes;
    toggle.setAttribute("aria-expanded", String(yes));
    if (yes && focusFirst) items()[0]?.focus();
  };
  const close = (refocus = true) => {
    if (menu.hidden) return;
    open(false);
    if (refocus) toggle.focus();
  };
  toggle.addEventListener("click", () => open(Boolean(menu.hidden)));
  toggle.addEventListener("keydown", (event) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      open(true);
      if (event.key === "ArrowUp") items().at(-1)?.focus();
    }
  });
  menu.addEventListener("keydown", (event) => {
    const list = items();
    const at = list.indexOf(/** @type {HTMLElement} */ (document.activeElement));
    const go = (/** @type {number} */ i) => list[(i + list.length) % list.length]?.focus();
    if (event.key === "ArrowDown") go(at + 1);
    else if (event.key === "ArrowUp") go(at - 1);
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(list.length - 1);
    else if (event.key === "Escape") close();
    else if (event.key === "Tab") close(false);
    else return;
    event.preventDefault();
  });
  document.addEventListener("click", (event) => {
    const target = event.target instanceof Node ? event.target : null;
    if (!menu.hidden && !menu.contains(target) && target !== toggle) open(false);
  });

  menu.addEventListener("click", (event) => {
    const item = event.target instanceof Element ? event.target.closest("[data-rb-variant]") : null;
    if (!(item instanceof HTMLElement)) return;
    const variant = item.dataset.rbVariant;
    close();
    if (variant === "again") rollNotation(notation("plain", modifier()));
    else if (variant === "advantage" || variant === "disadvantage") {
      rollNotation(notation(variant, modifier()));
    } else if (variant === "modifier") showModifierForm();
    else if (variant === "chances") showChances();
  });

  const showPanel = (/** @type {Node[]} */ ...children) => {
    panel.replaceChildren(...children);
    panel.hidden = false;
  };
  const closeButton = () => {
    const b = el("button", { type: "button", class: "rb-panel-close", "aria-label": t("menu.close") }, "×");
    b.addEventListener("click", () => {
      panel.hidden = true;
      panel.replaceChildren();
      toggle.focus();
    });
    return b;
  };

  function showModifierForm() {
    const inputId = uid("rb-mod");
    const form = el("form", { class: "rb-mod-form" });
    const input = el("input", {
      id: inputId,
      type: "text",
      inputmode: "numeric",
      class: "rb-mod-input",
      value: modifier() ? String(modifier()) : "",
      placeholder: "+2",
      size: "5",
      "aria-describedby": `${inputId}-note`,
    });
    const note = el("span", { class: "rb-mod-note", id: `${inputId}-note`, "aria-live": "polite" }, t("modifier.note"));
    form.append(
      el("label", { for: inputId }, t("modifier.label", { roll: written })),
      input,
      el("button", { type: "submit", class: "rb-mod-apply" }, t("modifier.apply")),
      el("button", { type: "button", class: "rb-mod-clear" }, t("modifier.clear")),
      note,
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const parsed = parseModifier(input.value);
      if (parsed.error !== undefined) {
        note.textContent = parsed.error;
        input.setAttribute("aria-invalid", "true");
        input.focus();
        return;
      }
      input.removeAttribute("aria-invalid");
      setModifier(key, parsed.value);
      showModifier();
      note.textContent = parsed.value ? t("modifier.kept", { modifier: input.value.trim() }) : t("modifier.none");
      rollNotation(notation("plain", parsed.value));
    });
    form.querySelector(".rb-mod-clear")?.addEventListener("click", () => {
      setModifier(key, 0);
      input.value = "";
      showModifier();
      note.textContent = t("modifier.none");
    });
    showPanel(form, closeButton());
    input.focus();
  }

  async function showChances() {
    const expr = notation("plain", modifier());
    const status = el("p", { class: "rb-chart-status", "aria-live": "polite" }, t("chart.working"));
    showPanel(status, closeButton());
    const reply = await request({ op: "odds", expr });
    if (reply.error !== undefined) {
      status.textContent = reply.error;
      return;
    }
    status.remove();
    panel.prepend(chart(expr, reply));
  }

  return { showModifier };
}
