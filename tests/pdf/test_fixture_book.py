"""The fixture site's book, made by `rollbook pdf`: what a reader finds in it."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

from tests.pdf.conftest import SITE, _env, run_pdf


def _text(path: Path) -> str:
    return "\n".join(page.extract_text() or "" for page in PdfReader(path).pages)


def test_two_builds_give_the_same_bytes(fixture_books):
    one, two = fixture_books
    assert one.read_bytes() == two.read_bytes()


def test_every_table_prints_its_ranges_and_chances(fixture_books):
    text = _text(fixture_books[0])
    for label in ("2–3", "4–9", "≥10", "<8", "8–14", "1, 1", "3, 3"):
        assert label in text, label
    for chance in ("8.3%", "75%", "16.7%", "11.1%"):
        assert chance in text, chance
    for tab in ("Legs", "Arms", "Head"):
        assert tab in text
    assert "You choose: Wits (0 to 5)." in text
    assert re.search(r"4\. A whistle carved from bone", text)


def test_rolls_stat_blocks_and_encounters_print_as_a_book_does(fixture_books):
    text = _text(fixture_books[0])
    assert "roll 1d6 for the weather" in text
    assert "2d6 x 10 paces" in text
    assert "Bog Wight" in text and "Dark Dungeons" in text
    assert "Bog Wight 2" in text  # the roster with counts expanded
    assert "Travellers attacking: chance a blow lands" in text
    assert "35%" in text


def test_no_markup_or_yaml_reaches_the_page(fixture_books):
    text = _text(fixture_books[0])
    for raw in ("![roll:", "roll-table", "roll-list", "{{", "results:", "statblock", "[^log]",
                "!!!", "Roll on the table", "Show chances", "Copy link"):  # fmt: skip
        assert raw not in text, raw


def test_footnotes_admonitions_terms_code_and_scripts(fixture_books):
    text = _text(fixture_books[0])
    assert "Three lines at most, written by the lantern." in text
    assert "Deep water" in text and "Never cross the black pools" in text
    assert "Ford" in text and "A shallow place to wade across." in text
    assert "lantern --light 3" in text
    assert "Путники идут ночью." in text
    assert "בלילה" in text or "הלילב" in text  # extraction may reverse right-to-left runs


def test_title_page_contents_outline_and_internal_links(fixture_books):
    reader = PdfReader(fixture_books[0])
    first = reader.pages[0].extract_text()
    assert "Lantern Roads" in first and "Version 1.2" in first
    assert "The Lantern Roads authors" in first
    titles = [item.title for item in reader.outline if not isinstance(item, list)]
    assert titles == ["Lantern Roads", "Travel", "Notes"]
    nested = [i.title for i in reader.outline[2] if not isinstance(i, list)]
    assert nested == ["Tables", "Strangers"]
    internal = [
        a for page in reader.pages for a in (page.get("/Annots") or [])
        if "/Dest" in a.get_object() or a.get_object().get("/A", {}).get("/S") == "/GoTo"
    ]  # fmt: skip
    assert len(internal) >= 2  # "the tables" and "the strangers" on the home page


def test_links_between_pages_land_on_the_page_of_their_target(fixture_books):
    reader = PdfReader(fixture_books[0])
    texts = [page.extract_text() for page in reader.pages]
    home = next(i for i, t in enumerate(texts) if "See the tables and the strangers" in t)
    named = reader.named_destinations
    refs = [page.indirect_reference for page in reader.pages]

    def landing(dest: object) -> int:
        if isinstance(dest, str):  # a named destination (a label of ours)
            return reader.get_destination_page_number(named[dest])
        return refs.index(dest[0])  # type: ignore[index]  # an explicit [page, /XYZ, ...]

    landed = {
        landing(a.get_object()["/Dest"])
        for a in reader.pages[home].get("/Annots") or []
        if "/Dest" in a.get_object()
    }
    tables = next(i for i, t in enumerate(texts) if "Road events" in t)
    strangers = next(i for i, t in enumerate(texts) if "Ambush at the ford" in t)
    assert landed == {tables, strangers}


def test_live_links_go_to_each_table_on_the_published_site(fixture_books):
    reader = PdfReader(fixture_books[0])
    uris = {
        a.get_object()["/A"]["/URI"]
        for page in reader.pages
        for a in (page.get("/Annots") or [])
        if "/URI" in a.get_object().get("/A", {})
    }
    assert "https://lantern.example.org/roads/tables/?roll=road-events#road-events" in uris
    assert "https://lantern.example.org/roads/strangers/#night-ambush" in uris
    assert any(u.startswith("https://lantern.example.org/roads/#rb-roll-") for u in uris)


def test_letter_paper_and_black_and_white(tmp_path):
    out = tmp_path / "letter.pdf"
    done = run_pdf(out, "--paper", "letter", "--black-white")
    assert done.returncode == 0, done.stderr
    box = PdfReader(out).pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (612, 792)


def test_an_author_style_file_overrides_the_default(tmp_path):
    style = tmp_path / "mine.typ"
    style.write_text('#set page(paper: "a5")\n', encoding="utf-8")
    out = tmp_path / "styled.pdf"
    done = run_pdf(out, "--style", str(style))
    assert done.returncode == 0, done.stderr
    box = PdfReader(out).pages[0].mediabox
    assert round(float(box.width)) == 420  # A5


def test_a_broken_style_file_is_one_sentence(tmp_path):
    style = tmp_path / "broken.typ"
    style.write_text("#let x = (\n", encoding="utf-8")
    done = run_pdf(tmp_path / "x.pdf", "--style", str(style))
    assert done.returncode == 2
    assert "Typst could not typeset the book" in done.stderr
    assert "Traceback" not in done.stderr


def test_without_the_extra_the_command_names_the_install(tmp_path):
    code = (
        "import sys; sys.modules['typst'] = None; sys.modules['segno'] = None\n"
        "from rollbook.cli import main; sys.exit(main(['pdf', '-o', 'x.pdf']))"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=SITE, env=_env(),
                          capture_output=True, text=True, check=False)  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.strip() == (
        'rollbook: The PDF book needs rollbook\'s pdf extra: run pip install "rollbook[pdf]" '
        "and build again."
    )


def test_without_the_extra_the_plugin_option_names_the_install(monkeypatch):
    from rollbook.pdf import plugin_steps

    monkeypatch.setattr(plugin_steps, "available", lambda: False)
    sentence = plugin_steps.check_setup({"pdf": "rules.pdf"})
    assert sentence is not None and 'pip install "rollbook[pdf]"' in sentence
    assert plugin_steps.check_setup({"pdf": ""}) is None
    bad = plugin_steps.check_setup({"pdf": "../up.pdf"})
    assert bad is not None and "plain file name" in bad


@pytest.mark.parametrize("name", ["index.md", "tables.md", "strangers.md", "notes.md"])
def test_the_fixture_pages_check_clean(name):
    done = subprocess.run(
        [sys.executable, "-m", "rollbook.cli", "check", f"docs/{name}"],
        cwd=SITE, env=_env(), capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
