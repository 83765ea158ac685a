"""The build is the only producer of widget markup: the browser code wires what
rollbook/markup wrote and adds no bar, button, result region or output of its own (those
would say other things than the build's: "Copy link to this roll" against "Copy link")."""

from __future__ import annotations

from playwright.sync_api import Page, expect

# The tables page's weather table without its bar, the first inline roll of the home page
# without its output, both as the build wrote them, put on the page and mounted.
HAND_MADE = """async () => {
  const built = async (path) => new DOMParser().parseFromString(
    await (await fetch(new URL(path, location.href))).text(), "text/html");
  const table = (await built("./")).querySelector(".rb-table[data-rb-anchor=weather]");
  table.querySelector(".rb-bar").remove();
  table.removeAttribute("id");
  table.dataset.rbAnchor = "no-bar";
  const inline = (await built("../")).querySelector(".rb-inline");
  inline.querySelector("output.rb-out").remove();
  inline.dataset.rbId = "no-output";
  const box = document.createElement("div");
  box.id = "hand-made";
  box.append(document.importNode(table, true), document.importNode(inline, true));
  document.body.append(box);
  window.rollbook.mountAll();
  return {
    mounted: box.querySelectorAll("[data-rb-mounted]").length,
    bars: box.querySelectorAll(".rb-bar, .rb-permalink").length,
    outputs: box.querySelectorAll("output").length,
    buttons: box.querySelectorAll("button").length,
  };
}"""


def test_markup_the_build_did_not_write_is_left_alone(page: Page, fixture_site: str) -> None:
    page.goto(f"{fixture_site}tables/")
    expect(page.locator(".rb-table[data-rb-anchor=weather]")).to_have_attribute(
        "data-rb-mounted", "true"
    )
    # The inline roll keeps its one button; the table has none left (they were in its bar).
    assert page.evaluate(HAND_MADE) == {"mounted": 0, "bars": 0, "outputs": 0, "buttons": 1}
    # The real table next to it still works.
    table = page.locator(".rb-table[data-rb-anchor=weather]")
    table.locator(".rb-bar button.rb-roll").click()
    expect(table.locator("[aria-current=true]")).to_have_count(1, timeout=90_000)
