"""The fixture site built in each shipped language: no English control text in its pages
(every widget, the GM screen), the page gets its language's catalogue only, and no browser
module carries an English sentence of its own (the DOM after rolling: tests/browser)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from rollbook.language import LANGUAGES, catalogue
from rollbook.site_runtime.build import browser_assets
from tests.language.build import build, english_in, visible_texts

_BUILT: dict[str, Path] = {}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory):
    def get(language: str) -> Path:
        if language not in _BUILT:
            _BUILT[language] = build(language, tmp_path_factory.mktemp(f"site-{language}"))
        return _BUILT[language]

    return get


@pytest.mark.parametrize("language", LANGUAGES)
def test_pages_show_no_english_control_text(language: str, built) -> None:
    site = built(language)
    text = catalogue(language)
    for page in ("index.html", "gm/index.html"):
        html = (site / page).read_text("utf-8")
        assert english_in(visible_texts(html), language) == [], page
    index = (site / "index.html").read_text("utf-8")
    shown = visible_texts(index)
    assert text("table.roll") in shown and text("chances.show") in shown
    assert text("combat.start") in shown
    gm = visible_texts((site / "gm" / "index.html").read_text("utf-8"))
    assert text("gm.title") in gm and text("gm.empty") in gm
    # The statblock's labels and values are the language's (the rule system's words).
    assert text("stat.hp") in shown and text("stat.morale") in shown


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_page_gets_its_own_catalogue_only(language: str, built) -> None:
    ours = built(language) / "assets" / "rollbook"
    strings = (ours / "strings.js").read_text("utf-8")
    assert f'"default":"{language}"' in strings
    assert re.findall(r'"lang":"([^"]+)"', strings) == [language]
    if language != "en":
        assert catalogue("en")("offline.save") not in strings
    # The engine's sentences come later, in their own module, in the same language only.
    assert '"log.' not in strings and '"error.' not in strings and '"stat.' not in strings
    engine = (ours / "strings-engine.js").read_text("utf-8")
    assert re.findall(r'"catalogues":\{"([^"]+)"', engine) == [language]
    said = catalogue(language).strings["log.dd.slain"]
    assert json.dumps(said, ensure_ascii=False) in engine


def test_chances_and_tooltips_are_written_in_the_language(built) -> None:
    html = (built("fr") / "index.html").read_text("utf-8")
    assert "&#160;%" in html  # "16,7 %": a no-break space before the sign
    assert re.search(r"title=\"1d20&#160;: moyenne 10,5, de 1 &#224; 20\"", html)
    he = (built("he") / "index.html").read_text("utf-8")
    assert 'dir="rtl"' in he  # Material lays the page out right to left
    assert re.search(r'<button class="rb-roll"[^>]* dir="ltr"[^>]*>1d20</button>', he)


def test_no_page_module_asks_for_a_text_only_the_build_has() -> None:
    from rollbook.language.catalogue import BUILD_ONLY

    english = catalogue("en").strings
    assert set(english) >= BUILD_ONLY
    for name, path in sorted(browser_assets().items()):
        if name.endswith((".js", ".mjs")):
            source = path.read_text("utf-8")
            assert [key for key in BUILD_ONLY if f'"{key}"' in source] == [], name


def test_no_browser_module_holds_an_english_sentence() -> None:
    # The worker's modules (assets/worker/) keep English clauses for the console; readers
    # get those failures by catalogue key.
    english = catalogue("en").strings
    sentences = set()
    for text in english.values():
        for form in text.values() if isinstance(text, dict) else [text]:
            sentences.update(
                part.strip() for part in re.split(r"\{[a-z_]+\}", form) if len(part.split()) >= 3
            )
    assert len(sentences) > 80
    modules = {
        name: path for name, path in browser_assets().items() if name.endswith((".js", ".mjs"))
    }
    assert {"worker.js", "table.js", "i18n.js"} <= set(modules)
    for name, path in sorted(modules.items()):
        if path.parent.name == "worker":
            continue
        held = sorted(s for s in sentences if s in path.read_text("utf-8"))
        assert held == [], name


BUDGET_BROTLI = 180_000  # the engine and our JS/CSS (tests/bench/bench_page.py row 4)
# What the reader's language adds to it: the page's catalogue and the module that reads it.
LANGUAGE_BROTLI = {"strings.js": 4_000, "i18n.js": 2_000}
# Fetched after the first roll, only where needed: the fight widget (pages with a fight),
# the list of pages the GM screen may fetch, and the engine's sentences with the module that
# says them (a dice error, a fight's log).
LATER = frozenset({"combat.mjs", "pages.json", "said.js", "strings-engine.js"})


@pytest.mark.parametrize("language", ["fr", "he"])
def test_one_languages_catalogue_stays_small(language: str, built) -> None:
    """The budget (bench row 4) is the bench's to judge; this keeps the language's share of
    it small and says the whole, counted file by file, when it fails."""
    import brotli

    ours = built(language) / "assets" / "rollbook"
    sizes = {
        path.relative_to(ours).as_posix(): len(brotli.compress(path.read_bytes(), quality=11))
        for path in sorted(ours.rglob("*"))
        if path.is_file()
        and "icepool" not in path.name
        and not path.name.startswith("snapshot")
        and path.name not in LATER
    }
    assert any(name.startswith("wheels/rollbook") for name in sizes)
    total = sum(sizes.values())
    for name, limit in LANGUAGE_BROTLI.items():
        assert sizes[name] <= limit, (name, sizes[name], f"all before the first roll: {total}")
