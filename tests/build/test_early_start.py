"""Pages with dice start the engine's worker from the top of their head; others get nothing.

The inline classic script names ``worker.js`` and ``manifest.json`` by paths relative to the
page, so they must resolve to the files beside ``rollbook.js`` from any depth of page and URL
style; it comes before the stylesheets (a script after them waits for them to load).
"""

from __future__ import annotations

import json
import posixpath
import re
from pathlib import Path

import pytest

from rollbook.mkdocs_plugin.early_start import WASM_MARK, fill_early_wasm, with_early_start

SCRIPT = "assets/rollbook/rollbook.js"
HEAD = (
    '<html><head><meta charset="utf-8"><link rel="stylesheet" href="t.css"><title>t</title>'
    '</head><body>{body}<script src="x.js"></script></body></html>'
)
_URLS = re.compile(r'new URL\(("[^"]*")')


def _started_from(html: str) -> list[str] | None:
    head = html.split("</head>")[0]
    if "__rbEarly" not in head:
        return None
    return [json.loads(found) for found in _URLS.findall(head)]


@pytest.mark.parametrize(
    ("page_url", "prefix"),
    [
        ("", ""),
        ("index.html", ""),
        ("rules/", "../"),
        ("area-00/page-0000/", "../../"),
        ("rules/combat.html", "../"),
    ],
)
def test_a_page_with_dice_starts_the_engine_from_its_head(page_url: str, prefix: str) -> None:
    html = with_early_start(HEAD.format(body='<span class="rb-inline">'), page_url, SCRIPT)
    found = _started_from(html)
    assert found == [f"{prefix}assets/rollbook/worker.js", f"{prefix}assets/rollbook/manifest.json"]
    # Resolved against the page's folder, they name the files beside rollbook.js.
    folder = page_url if page_url.endswith("/") else posixpath.dirname(page_url)
    for path, name in zip(found, ("worker.js", "manifest.json"), strict=True):
        assert posixpath.normpath(posixpath.join(folder, path)) == f"assets/rollbook/{name}"
    assert html.count("<script") == 2
    # The WebAssembly's preload and a classic script right after the charset, before the
    # stylesheet; both name the file by a mark (beside worker.js) until the build fills it.
    preload = (
        f'<link rel="preload" href="{prefix}assets/rollbook/{WASM_MARK}" as="fetch" crossorigin>'
    )
    assert html.index(f'<meta charset="utf-8">{preload}<script>') < html.index('rel="stylesheet"')
    assert f'var p="{WASM_MARK}"' in html


def test_a_head_without_charset_gets_it_first() -> None:
    page = (
        '<html><head class="x"><link rel="stylesheet" href="t.css"></head>'
        '<body><span class="rb-inline"></span></body></html>'
    )
    html = with_early_start(page, "", SCRIPT)
    assert html.startswith('<html><head class="x"><link rel="preload"')
    assert "crossorigin><script>(function(){" in html


def test_a_hostile_asset_path_cannot_close_the_script() -> None:
    html = with_early_start(HEAD.format(body='<span class="rb-inline">'), "", "a</script><b/x.js")
    head = html.split("</head>")[0]
    assert head.count("</script>") == 1 and "\\u003c/script>" in head


@pytest.mark.parametrize(
    "body",
    [
        '<div class="admonition rb-table">',
        '<section class="rb-combat" data-rb-anchor="ford">',
        '<div data-rb-gm="">',
    ],
)
def test_every_widget_counts(body: str) -> None:
    assert _started_from(with_early_start(HEAD.format(body=body), "x/", SCRIPT))


@pytest.mark.parametrize(
    "body",
    [
        "<p>Rules without dice.</p>",
        '<p class="rb-inlined">a class that only starts alike</p>',
        "<p>The text rb-inline written out is not a widget.</p>",
    ],
)
def test_a_page_without_dice_is_left_as_it_is(body: str) -> None:
    html = HEAD.format(body=body)
    assert with_early_start(html, "x/", SCRIPT) == html


WASM = "../pyodide/314.0.7-0123456789/pyodide.asm.wasm.br"


def _page_with_dice(tmp_path: Path, name: str, page_url: str = "rules/") -> Path:
    path = tmp_path / name
    path.write_text(
        with_early_start(HEAD.format(body='<span class="rb-inline">'), page_url, SCRIPT)
    )
    return path


def test_the_build_fills_the_webassembly_into_the_preload_and_the_script(tmp_path: Path) -> None:
    pages = [_page_with_dice(tmp_path, "a.html"), _page_with_dice(tmp_path, "b.html")]
    assert fill_early_wasm([*pages, tmp_path / "gone.html"], WASM) == 2
    head = pages[0].read_text().split("</head>")[0]
    assert WASM_MARK not in head
    # The preload, relative to the page, and the script's path, relative to worker.js,
    # name the same file.
    href = re.search(r'rel="preload" href="([^"]+)"', head)
    assert href and posixpath.normpath(posixpath.join("rules/", href.group(1))) == (
        "assets/pyodide/314.0.7-0123456789/pyodide.asm.wasm.br"
    )
    assert f'var p="{WASM}"' in head
    assert posixpath.normpath(posixpath.join("assets/rollbook", WASM)) == (
        "assets/pyodide/314.0.7-0123456789/pyodide.asm.wasm.br"
    )
    assert fill_early_wasm(pages, WASM) == 0  # filled once: nothing left to fill


def test_a_minified_head_is_filled_too(tmp_path: Path) -> None:
    page = _page_with_dice(tmp_path, "m.html")
    minified = (
        page.read_text()
        .replace('rel="preload"', "rel=preload")
        .replace(" crossorigin>", " crossorigin >")
        .replace(f'var p="{WASM_MARK}"', f"var p='{WASM_MARK}'")
    )
    page.write_text(minified)
    assert fill_early_wasm([page], "") == 1
    head = page.read_text().split("</head>")[0]
    assert "preload" not in head and "var p=''" in head


@pytest.mark.parametrize(
    "path",
    [
        "",  # a site without Pyodide
        '../x/pyodide.asm.wasm.br"><script>alert(1)</script>',
        "../x/pyodide.asm.wasm.br\\u2028",
        "javascript:alert(1)//.wasm",
    ],
)
def test_no_path_or_a_hostile_one_leaves_no_preload_and_tells_the_worker_nothing(
    tmp_path: Path, path: str
) -> None:
    page = _page_with_dice(tmp_path, "h.html")
    assert fill_early_wasm([page], path) == 1
    head = page.read_text().split("</head>")[0]
    assert 'rel="preload"' not in head and WASM_MARK not in head
    assert 'var p=""' in head and head.count("<script") == 1 and head.count("</script>") == 1
