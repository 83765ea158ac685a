"""The early-start tag: pages with widgets start the engine from <head>, others do not."""

from __future__ import annotations

import pytest

from plugins.mkdocs_plugin.early_start import add_early_start, has_widgets

SCRIPT = "assets/rollbook/rollbook.js"
PAGE = '<html><head>\n<meta charset="utf-8">\n<title>t</title>\n</head><body>{body}</body></html>'


@pytest.mark.parametrize(
    "body",
    [
        '<span class="rb-inline" data-rb-id="a"><button class="rb-roll">',
        '<div class="rb-table rb-list" data-rb-anchor="names">',
        '<div class="rb-combat" data-rb-anchor="ambush">',
    ],
)
def test_pages_with_a_widget_get_the_tag_after_the_charset(body: str) -> None:
    html = add_early_start(PAGE.format(body=body), "rules/combat/", SCRIPT)
    src = "../../assets/rollbook/engine.js"
    tag = f'<script type="module" async src="{src}" data-rb-early></script>'
    assert html.count(tag) == 1
    assert html.index('<meta charset="utf-8">') < html.index(tag) < html.index("<title>")


@pytest.mark.parametrize(
    "body",
    ["<p>No dice here.</p>", '<div class="rb-tablex">', '<p class="rb-error">broken</p>'],
)
def test_pages_without_widgets_are_left_byte_for_byte(body: str) -> None:
    page = PAGE.format(body=body)
    assert not has_widgets(page)
    assert add_early_start(page, "index.html", SCRIPT) is page


def test_url_follows_the_page_depth_and_the_configured_script_folder() -> None:
    page = '<html><head><title>t</title></head><body><span class="rb-inline">'
    top = add_early_start(page, "", "js/dice/rollbook.js")
    assert 'src="js/dice/engine.js"' in top
    # No charset declaration: the tag goes just before </head>.
    assert top.index("data-rb-early") < top.index("</head>")
    flat = add_early_start(page, "a/b.html", SCRIPT)
    assert 'src="../assets/rollbook/engine.js"' in flat


def test_a_fragment_without_head_is_left_alone() -> None:
    fragment = '<span class="rb-inline"><button class="rb-roll">'
    assert add_early_start(fragment, "x/", SCRIPT) == fragment
