"""The plugin's book steps, called directly (no MkDocs build): link, book, INFO line."""

from __future__ import annotations

import logging
from types import SimpleNamespace

from pypdf import PdfReader

from rollbook.pdf.plugin_steps import add_link, write_book


def _page(src: str, url: str, title: str, content: str | None) -> SimpleNamespace:
    return SimpleNamespace(
        is_page=True, is_section=False, file=SimpleNamespace(src_uri=src), url=url,
        title=title, content=content,
    )  # fmt: skip


def test_the_home_page_gets_the_download_control_after_its_title():
    html = add_link('<h1 id="home">Home</h1>\n<p>Text</p>', "rules.pdf")
    assert html == (
        '<h1 id="home">Home</h1>\n<p class="rb-pdf-link"><a class="md-button" href="rules.pdf" '
        "download>Download the rules as PDF</a></p>\n<p>Text</p>"
    )


def test_the_book_follows_the_nav_leaves_out_the_gm_screen_and_says_once_without_site_url(
    tmp_path, caplog
):
    site = tmp_path / "site"
    site.mkdir()
    nav = SimpleNamespace(items=[
        _page("index.md", "", "Home", "<h1>Home</h1><p>Welcome, <a href=\"rules/\">rules</a>.</p>"),
        SimpleNamespace(is_section=True, is_page=False, title="Part", children=[
            _page("rules.md", "rules/", "Rules", "<h1>Rules</h1><p>Roll well.</p>"),
            _page("gm/index.md", "gm/", "GM screen", '<div class="rb-gm" data-rb-gm></div>'),
        ]),
    ])  # fmt: skip
    config = {"site_dir": str(site), "docs_dir": str(tmp_path), "site_name": "Tiny",
              "theme": {"palette": {"primary": "teal"}}}  # fmt: skip
    log = logging.getLogger("test.rollbook.pdf")
    with caplog.at_level(logging.INFO, logger="test.rollbook.pdf"):
        target = write_book(config, nav, {"pdf": "tiny.pdf"}, log)
    assert target == site / "tiny.pdf"
    assert [r.getMessage() for r in caplog.records] == [
        "rollbook: the PDF has no links to the live tables: set `site_url` to add them."
    ]
    reader = PdfReader(target)
    titles = [item.title for item in reader.outline if not isinstance(item, list)]
    assert titles == ["Home", "Part"]
    text = "".join(page.extract_text() for page in reader.pages)
    assert "Roll well." in text and "GM screen" not in text
