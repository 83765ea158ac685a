"""The widgets in French and in Hebrew (right to left), in Chromium: roll inline, a table
with a prompt, a fight (its log and the statblock), the dice box (a roll and a mistyped
notation), the GM screen and the offline tray; every text and number as the language writes
it, no English catalogue text left in the DOM after use, the layout's direction, and
axe-core."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import ExitStack

import pytest
from playwright.sync_api import Page, expect

from rollbook.language import Catalogue, catalogue
from tests.browser.a11y import MARK_EVERY_ROW, SEEDED, explain, violations
from tests.browser.conftest import READY_TIMEOUT_MS, wait_ready
from tests.browser.server import serve
from tests.language.build import build, english_in

LANGUAGES = ("fr", "he")

# Every text a reader sees or hears: text nodes and the attributes shown or read aloud
# (the fight's log and the statblock's labels included), outside the lists of dice rolled.
DOM_TEXTS = """() => {
  const skip = "script, style, template, .rb-dice";
  const out = [];
  for (const node of document.body.querySelectorAll("*")) {
    if (node.closest(skip)) continue;
    for (const name of ["title", "aria-label", "placeholder", "alt"]) {
      const value = node.getAttribute(name);
      if (value) out.push(value);
    }
    for (const child of node.childNodes) {
      if (child.nodeType === 3 && child.textContent.trim()) out.push(child.textContent.trim());
    }
  }
  return out;
}"""


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """The language fixture site built in each language (with live dice), served."""
    with ExitStack() as stack:
        yield {
            language: stack.enter_context(
                serve(build(language, tmp_path_factory.mktemp(f"lang-{language}"), pyodide=True))
            )
            for language in LANGUAGES
        }


# Every roll shown, every table rolled, nothing busy.
ANSWERED = """() => {
  const all = (selector, ok) => [...document.querySelectorAll(selector)].every(ok);
  return all(".rb-inline .rb-out", (o) => o.textContent.trim())
    && all(".rb-table", (t) => t.querySelector("[aria-current=true]"))
    && !document.querySelector("[aria-busy=true]");
}"""


def _start(template: str) -> str:
    """A catalogue text up to its first placeholder ("Combat terminé en")."""
    return template.split("{", 1)[0]


def _over(t: Catalogue, key: str = "combat.over") -> str:
    """How the language starts the status of a finished fight (or its log's last line)."""
    forms = t.strings[key]
    assert isinstance(forms, dict)
    return _start(forms["other"])


def _english(page: Page, language: str) -> list[tuple[str, str]]:
    return english_in(page.evaluate(DOM_TEXTS), language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_widget_speaks_the_language(page: Page, sites: dict[str, str], language: str) -> None:
    t = catalogue(language)
    page.goto(sites[language])
    wait_ready(page)
    # Inline roll, its menu and its chances.
    inline = page.locator(".rb-inline").first
    inline.locator("button.rb-roll").click()
    expect(inline.locator(".rb-out")).to_have_text(re.compile(r"^\d+$"))
    page.locator("button.rb-more").first.click()
    items = page.locator(".rb-menu [role=menuitem]")
    expect(items.first).to_have_text(t("menu.again"))
    expect(items.nth(1)).to_have_text(t("menu.advantage"))
    page.locator(".rb-menu [data-rb-variant=chances]").first.click()
    caption = t("chart.caption", roll="1d20", mean=t.number("10.5"), min="1", max="20")
    expect(page.locator(".rb-chart figcaption")).to_have_text(caption)
    close = page.locator(".rb-panel-close")
    expect(close).to_have_attribute("aria-label", t("menu.close"))
    close.click()
    # The table with a prompt: its sentence and its chances in the language.
    rumours = page.locator(".rb-table[data-rb-anchor=rumeurs]")
    rumours.locator("input[name=bonus]").fill("2")
    rumours.locator(".rb-bar button.rb-roll").click()
    expect(rumours.locator(".rb-result")).to_contain_text(_start(t("table.sentence")))
    chances = rumours.locator("button.rb-chances")
    chances.click()
    expect(chances).to_have_text(t("chances.hide"))
    percent = t.percent("50%").replace("50", r"\d+(?:[.,]\d)?")
    expect(rumours.locator("td.rb-p").first).to_have_text(re.compile(f"^{percent}$"))
    # A fight to the end: its log in the language, the statblock's labels too.
    _fight_to_the_end(page, t)
    log = page.locator(".rb-combat ol.rb-log-lines > li")
    expect(log.last).to_contain_text(_over(t, "log.over"))
    expect(log.first).to_contain_text(_start(str(t.strings["log.dd.surprise_none"])))
    expect(page.locator(".rb-statblock [data-rb-field=hp] dt")).to_have_text(t("stat.hp"))
    # The dice box and the offline tray.
    page.keyboard.press("d")
    box = page.locator("input[data-rb-dicebox]")
    expect(box).to_be_focused()
    expect(box).to_have_attribute("placeholder", t("dicebox.placeholder"))
    box.fill("1d6+1")
    box.press("Enter")
    expect(page.locator(".rb-dicebox-result")).to_contain_text("1d6+1: [")
    expect(page.locator(".rb-offline-title")).to_have_text(t("offline.title"))
    expect(page.locator(".rb-history-toggle")).to_have_text(t("history.toggle", count=t.number(4)))
    # A mistyped notation: the engine's sentence in the language, the caret under it.
    box.fill("2d6+")
    box.press("Enter")
    expect(page.locator(".rb-dicebox-result")).to_contain_text(t("error.dice.ends_early"))
    expect(page.locator(".rb-dicebox-result .rb-caret")).to_contain_text("2d6+")
    # Pinned for the GM screen.
    pin = rumours.locator("button.rb-pin")
    pin.click()
    expect(pin).to_have_text(t("pin.on"))
    assert _english(page, language) == []
    # Layout: the page's direction, notation left to right inside it.
    direction = "rtl" if t.rtl else "ltr"
    assert (
        page.evaluate("() => getComputedStyle(document.querySelector('.rb-table')).direction")
        == direction
    )
    assert (
        page.evaluate(
            "() => getComputedStyle(document.querySelector('.rb-dicebox input')).direction"
        )
        == "ltr"
    )
    tray_left = page.evaluate(
        "() => document.querySelector('.rb-history').getBoundingClientRect().left"
    )
    assert (
        tray_left < (page.viewport_size or {"width": 1280})["width"] / 2
    ) == t.rtl  # bottom left in Hebrew
    if t.rtl:
        notation = page.locator(".rb-inline button.rb-roll", has_text=re.compile(r"^1d20$"))
        assert notation.evaluate("b => getComputedStyle(b).direction") == "ltr"

    page.goto(f"{sites[language]}gm/")
    expect(page.locator("h1")).to_have_text(t("gm.title"))
    expect(page.locator("button.rb-gm-share")).to_have_text(t("gm.share"))
    item = page.locator(".rb-gm-items .rb-table")
    expect(item.locator(".rb-bar button.rb-roll")).to_have_text(t("table.roll"))
    item.locator(".rb-bar button.rb-roll").click()
    expect(item.locator(".rb-result")).to_contain_text(_start(t("table.sentence")))
    assert _english(page, language) == []


def _fight_to_the_end(page: Page, t: Catalogue) -> None:
    """Fight every encounter to the end; a request the engine's one-second watchdog stopped
    (a loaded machine) is asked again, as a reader would."""
    over = _over(t)
    status = page.locator(".rb-fight-status")
    for _ in range(3):
        page.locator("button.rb-fight-end").click()
        expect(status).to_contain_text(
            re.compile(f"^({re.escape(over)}|{re.escape(t('engine.runaway'))})"),
            timeout=READY_TIMEOUT_MS,
        )
        if status.text_content().startswith(over):  # type: ignore[union-attr]
            return
    raise AssertionError(f"the fight did not end: {status.text_content()}")


@pytest.mark.parametrize("language", LANGUAGES)
def test_axe_passes_in_the_language(page: Page, sites: dict[str, str], language: str) -> None:
    t = catalogue(language)
    page.add_init_script(SEEDED)
    page.goto(sites[language])
    wait_ready(page)
    page.evaluate(
        """() => document.querySelectorAll(
          ".rb-table .rb-bar button.rb-chances, .rb-inline button.rb-roll,"
          + " .rb-table .rb-bar button.rb-roll").forEach((b) => b.click())"""
    )
    _fight_to_the_end(page, t)
    page.evaluate(
        "() => document.querySelectorAll('.rb-combat details').forEach((d) => (d.open = true))"
    )
    page.locator("button.rb-mc-run").click()
    expect(page.locator(".rb-mc-rates")).to_be_visible(timeout=READY_TIMEOUT_MS)
    page.locator(".rb-history-toggle").click()
    expect(page.locator(".rb-history-panel")).to_be_visible()
    page.wait_for_function(ANSWERED, timeout=READY_TIMEOUT_MS)
    page.evaluate(MARK_EVERY_ROW)
    found = violations(page)
    assert found == [], explain(found)
