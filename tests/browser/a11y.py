"""axe-core in a page: which widgets it checks, how they are used first, what it reports.

Shared by the accessibility tests of the MkDocs-built and the Zensical-built demo.
"""

from __future__ import annotations

import json

from playwright.sync_api import Page, expect

from tests.browser.conftest import READY_TIMEOUT_MS, ROOT, wait_ready

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"

# What rollbook puts on a page; axe looks at these and nothing else.
WIDGETS = [
    ".rb-inline",
    ".rb-inline-tools",
    ".rb-gm",
    ".rb-table",
    ".rb-statblock",
    ".rb-combat",
    ".rb-history",
    ".rb-link-notice",
    ".rb-engine-notice",
    ".rb-error",
]

# axe over the widgets present, violations reduced to what a failure message needs.
RUN_AXE = """async (selectors) => {
  const include = selectors.filter((s) => document.querySelector(s)).map((s) => [s]);
  if (!include.length) return null;
  const result = await axe.run({ include }, {
    resultTypes: ["violations"],
    // Links inside a table cell or a result are the theme's own links, coloured and
    // undecorated by Material exactly as in the surrounding text; that choice is the
    // theme's, and axe reports it on every Material page, widgets or not.
    rules: { "link-in-text-block": { enabled: false } },
  });
  return result.violations.map((v) => ({
    rule: v.id,
    help: v.help,
    nodes: v.nodes.map((n) => `${n.target.join(" ")}: ${n.failureSummary.replace(/\\s+/g, " ")}`),
  }));
}"""

# The page's random seeds, made repeatable: each run of the test sees the same rolls.
SEEDED = """(() => {
  let state = 12345;
  crypto.getRandomValues = (array) => {
    for (let i = 0; i < array.length; i += 1) {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      array[i] = state;
    }
    return array;
  };
})();"""

# Use everything once: every roll, the chances, the fights, the odds, the history tray.
USE_EVERYTHING = """() => {
  const click = (selector) => document.querySelectorAll(selector).forEach((b) => b.click());
  click(".rb-table .rb-bar button.rb-chances");
  click(".rb-inline button.rb-roll, .rb-table .rb-bar button.rb-roll, button.rb-fight-end");
  document.querySelectorAll(".rb-combat details").forEach((d) => (d.open = true));
  click("button.rb-mc-run");
  click(".rb-history-toggle");
}"""

# Every row as it looks when rolled (one roll marks one row; the styles are the same).
MARK_EVERY_ROW = """() => {
  document.querySelectorAll(".rb-table [data-rb-row]").forEach((r) => r.classList.add("rb-hit"));
}"""

# Everything used has answered: rolls shown, rows marked, fights over (the status starts
# with `over`, the page language's "Fight over"), nothing still busy.
ALL_ANSWERED = """(over) => {
  const all = (selector, ok) => [...document.querySelectorAll(selector)].every(ok);
  return all(".rb-inline .rb-out", (o) => o.textContent.trim() !== "")
    && all(".rb-table", (t) => t.querySelector("[aria-current=true], .rb-refused"))
    && all(".rb-combat .rb-fight-status", (s) => s.textContent.startsWith(over))
    && all(".rb-combat .rb-mc-result", (r) => r.textContent.trim() !== "")
    && !document.querySelector("[aria-busy=true]");
}"""


def violations_after_use(page: Page, url: str, scheme: str, over: str = "Fight over") -> list[dict]:
    """Open `url` in colour `scheme` with repeatable seeds, use every widget, then run axe
    (`over`: how the page's language starts a finished fight's status)."""
    page.add_init_script(SEEDED)
    page.goto(url)
    page.evaluate("s => document.body.setAttribute('data-md-color-scheme', s)", scheme)
    use_everything(page, over)
    return violations(page)


def use_everything(page: Page, over: str = "Fight over") -> None:
    """Use every widget of the loaded page once, wait for all answers, mark every row."""
    wait_ready(page)
    page.evaluate(USE_EVERYTHING)
    page.wait_for_function(ALL_ANSWERED, arg=over, timeout=READY_TIMEOUT_MS)
    expect(page.locator(".rb-history-panel")).to_be_visible()
    page.evaluate(MARK_EVERY_ROW)


def violations(page: Page) -> list[dict]:
    """axe's violations within the page's widgets (there must be at least one widget)."""
    page.add_script_tag(path=str(AXE))
    found: list[dict] | None = page.evaluate(RUN_AXE, WIDGETS)
    assert found is not None, f"no rollbook widget on {page.url}"
    return found


def explain(found: object) -> str:
    """A failure message: axe's findings, indented."""
    return json.dumps(found, indent=1, ensure_ascii=False)
