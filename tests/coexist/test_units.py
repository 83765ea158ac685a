"""The pieces the coexistence suite relies on, each on its own (no build)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import jinja2

from rollbook.markup.line_map import LineMap
from rollbook.markup.nested import REFS_MARK
from rollbook.markup.plain.obsidian import ONE_REF_MARK
from rollbook.markup.refs import MARKS_START, holds_marks
from rollbook.mkdocs_plugin.coexist import (
    check_plugin_order,
    fill_written_pages,
    protect_placeholders,
    restore_minified_names,
)
from rollbook.mkdocs_plugin.written import WrittenPages
from rollbook.offline.service_worker import keep_query_in_redirects
from rollbook.sitewide.gm_page import gm_src_uri

SOURCE = "# T\n\n{% for x in xs %}\n- {{ x }}\n{% endfor %}\n\n```roll-table\nroll: 1d6\n```\n"


def test_line_map_sends_rewritten_lines_back_to_the_authors() -> None:
    rewritten = "# T\n\n\n- a\n\n- b\n\n- c\n\n\n```roll-table\nroll: 1d6\n```\n"
    lines = LineMap(SOURCE, rewritten)
    assert lines(1) == 1
    assert lines(11) == 7 and lines(12) == 8  # the fence, four lines lower after Jinja
    assert 3 <= lines(6) <= 5  # a line the loop made: within the loop
    assert lines(99) == 99  # past the end: unchanged


def _macros(variables: dict) -> SimpleNamespace:
    plugin = SimpleNamespace(
        env=jinja2.Environment(), config={"render_by_default": True}, variables=variables
    )
    return SimpleNamespace(plugins={"macros": plugin})


def test_placeholders_in_our_fences_are_kept_from_macros_only() -> None:
    page = SimpleNamespace(meta={}, file=SimpleNamespace(src_path="a.md"))
    text = (
        "Hello {{ name }}\n```roll-table\nroll: 1d6 + {{ bonus }}\n"
        "result_text: '{{ site }} {{ result }}'\n```\n{{ bonus }}\n"
    )
    out = protect_placeholders(text, page, _macros({"site": "x", "name": "y"}))  # type: ignore[arg-type]
    assert out.count("\n") == text.count("\n")
    lines = out.split("\n")
    assert lines[0] == "Hello {{ name }}" and lines[5] == "{{ bonus }}"  # outside: macros'
    assert lines[2] == "roll: 1d6 + {% raw %}{{ bonus }}{% endraw %}"
    assert lines[3] == "result_text: '{{ site }} {% raw %}{{ result }}{% endraw %}'"
    rendered = jinja2.Environment(undefined=jinja2.StrictUndefined).from_string(
        "\n".join(lines[1:5])
    )
    assert "1d6 + {{ bonus }}" in rendered.render(site="x")
    page.meta["render_macros"] = False  # a page macros leaves alone stays as written
    assert protect_placeholders(text, page, _macros({})) == text  # type: ignore[arg-type]


def test_redirect_stub_keeps_the_query(tmp_path: Path) -> None:
    stub = tmp_path / "old" / "index.html"
    stub.parent.mkdir()
    stub.write_text(
        '<html><head><script>var anchor=window.location.hash.substr(1);location.href="../new/"'
        '+(anchor?"#"+anchor:"")</script><meta http-equiv="refresh" content="0; url=../new/">'
        "</head></html>",
        encoding="utf-8",
    )
    assert keep_query_in_redirects(tmp_path) == ["old/index.html"]
    assert 'location.href="../new/"+location.search+(anchor?' in stub.read_text(encoding="utf-8")
    assert keep_query_in_redirects(tmp_path) == []  # once


def test_minified_assets_get_their_import_names_back(tmp_path: Path) -> None:
    ours = tmp_path / "assets" / "rollbook"
    ours.mkdir(parents=True)
    (ours / "manifest.json").write_text('{"assets": ["table.js", "rollbook.css"]}')
    (ours / "table.0a1b2c3d.min.js").write_text("export const a=1;")
    (ours / "other.min.js").write_text("x")  # not ours: left alone
    assert restore_minified_names(str(tmp_path)) == ["table.js"]
    assert (ours / "table.js").read_text() == "export const a=1;"


def test_gm_page_path() -> None:
    assert gm_src_uri("gm/") == "gm/index.md"
    assert gm_src_uri("screen/", folder="en") == "en/screen/index.md"
    assert gm_src_uri("  ") is None


def test_print_site_before_rollbook_is_one_sentence(caplog) -> None:
    before = SimpleNamespace(plugins={"search": 0, "print-site": 0, "rollbook": 0})
    check_plugin_order(before)  # type: ignore[arg-type]
    after = SimpleNamespace(plugins={"search": 0, "rollbook": 0, "print-site": 0})
    check_plugin_order(after)  # type: ignore[arg-type]
    messages = [r.getMessage() for r in caplog.records]
    assert len(messages) == 1 and messages[0].count(". ") == 0  # one sentence
    assert "list `rollbook` above `print-site`" in messages[0]


def test_pages_finished_without_references_are_not_read_again(tmp_path: Path) -> None:
    written = WrittenPages()
    pages = {name: tmp_path / name / "index.html" for name in ("plain", "later", "refs", "ref")}
    for name, path in pages.items():
        path.parent.mkdir()
        html = f"<p>{name}</p>"
        if name == "refs":
            html = f'<p>{name} "refs":"{REFS_MARK}docs/a.md#t"</p>'
        written.finished(str(path), html, marked=holds_marks(html))
        path.write_text(html, encoding="utf-8")  # MkDocs writes it after post_page
    written.settle()
    assert written.untouched(pages["plain"]) and written.untouched(pages["later"])
    assert not written.untouched(pages["refs"])  # a reference left in it: always read
    # Other plugins write pages at post_build (print-site): read again, both marks filled.
    pages["later"].write_text(f'<p>"refs":"{REFS_MARK}docs/a.md#t"</p>', encoding="utf-8")
    pages["ref"].write_text(f'<p>"refs":"{ONE_REF_MARK}[[b]]#t"</p>', encoding="utf-8")
    assert not written.untouched(pages["later"]) and not written.untouched(pages["ref"])
    filled: list[str] = []

    class _Site:
        def fill(self, text: str) -> str:
            filled.append(text)
            return text.replace(REFS_MARK, "").replace(ONE_REF_MARK, "")

    assert fill_written_pages(str(tmp_path), _Site(), written.untouched) == 3  # type: ignore[arg-type]
    assert len(filled) == 3
    assert not any(holds_marks(path.read_text(encoding="utf-8")) for path in pages.values())
    assert pages["plain"].read_text(encoding="utf-8") == "<p>plain</p>"


def test_one_search_finds_both_reference_marks() -> None:
    assert REFS_MARK.startswith(MARKS_START) and ONE_REF_MARK.startswith(MARKS_START)
    assert holds_marks(f'"refs":"{ONE_REF_MARK}[[b]]#t"') and holds_marks(f"{REFS_MARK}a#t")
    assert not holds_marks('<span class="rb-inline rb-ref">')  # the prefix alone is no mark
