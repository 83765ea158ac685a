"""HTML in, Typst out: one case per renderer (no Typst needed), like the HTML renderers' tests."""

from __future__ import annotations

from rollbook.markup.pages import MarkdownSetup
from rollbook.markup.refs import convert_with_refs
from rollbook.pdf.book import book_source
from rollbook.pdf.context import BookPage, BookSection, RenderContext
from rollbook.pdf.options import BookOptions, primary_colour
from rollbook.pdf.tree import parse_html
from rollbook.pdf.typst_text import markup, string
from rollbook.pdf.walker import render_block_children


def _typst(html: str, **options: object) -> str:
    page = BookPage(src="rules/page.md", url="rules/page/", title="Page", html=html)
    other = BookPage(src="rules/other.md", url="rules/other/", title="Other", html="")
    ctx = RenderContext(options=BookOptions(**options), pages=[page, other])  # type: ignore[arg-type]
    return render_block_children(parse_html(html), ctx)


def _page_html(tmp_path, source: str) -> str:
    path = tmp_path / "page.md"
    path.write_text(source, encoding="utf-8")
    [result], _ = convert_with_refs([path], MarkdownSetup())
    return result.html


def test_text_is_escaped_so_nothing_becomes_markup():
    assert markup("= 1. *a* #b [c] $d$ // e <f> @g") == (
        r"\= 1\. \*a\* \#b \[c\] \$d\$ \/\/ e \<f\> \@g"
    )
    assert string('say "hi"\\\n') == r'"say \"hi\"\\\n"'


def test_paragraphs_emphasis_code_and_breaks():
    out = _typst("<p>A <strong>bold</strong> and <em>soft</em> <code>x*y</code><br>line</p>")
    assert out == 'A #strong[bold] and #emph[soft] #raw("x*y")#linebreak()line'


def test_links_inside_the_book_become_labels_and_outside_stay_urls():
    out = _typst('<p><a href="other.md#camp">camp</a> <a href="https://example.org/x">site</a></p>')
    assert "#link(<rb1>)[camp]" in out
    assert '#link("https://example.org/x")[site]' in out


def test_headings_shift_with_the_page_depth_and_carry_their_label():
    out = _typst('<h2 id="moves">Moves<a class="headerlink" href="#moves">¶</a></h2>')
    assert out == "#heading(level: 2, outlined: false, bookmarked: true)[Moves] <rb1>"


def test_lists_tables_terms_and_code_blocks():
    assert _typst('<ol start="3"><li>a</li><li>b</li></ol>') == "#enum(start: 3, [a], [b])"
    table = _typst("<table><thead><tr><th>k</th><th>v</th></tr></thead>"
                   "<tbody><tr><td>1</td><td>one</td></tr></tbody></table>")  # fmt: skip
    assert "#rb-plain-table(rb-opts, (auto, 1fr), ([k], [v],), (([1], [one],),)" in table
    assert _typst("<dl><dt>Ford</dt><dd>shallow</dd></dl>") == "#terms(terms.item[Ford][shallow])"
    code = _typst(
        '<div class="highlight"><pre><code class="language-yaml">a: 1\n</code></pre></div>'
    )
    assert code == '#raw(block: true, lang: "yaml", "a: 1")'


def test_admonitions_keep_their_kind_and_title():
    out = _typst('<div class="admonition warning"><p class="admonition-title">Careful</p>'
                 "<p>Deep water.</p></div>")  # fmt: skip
    assert out == r'#rb-admonition(rb-opts, "warning", [Careful], [Deep water\.])'


def test_a_roll_table_prints_die_ranges_and_optional_chances(tmp_path):
    html = _page_html(tmp_path, "```roll-table\nroll: 2d6\nid: t\nresults:\n  2--3: Low\n"
                      '  4--9: Mid\n  ">=10": High\n```\n')  # fmt: skip
    plain = _typst(html)
    assert "#rb-roll-table(rb-opts, (auto, 1fr,), ([2d6], [Result],), " in plain
    assert "([2–3], [Low],), ([4–9], [Mid],), ([≥10], [High],)" in plain
    assert "16.7%" not in plain
    with_chances = _typst(html, chances=True, site_url="https://x.example/")
    assert "[Chance]" in with_chances and "[16\\.7%]" in with_chances
    assert 'live: "https://x.example/rules/page/?roll=t#t"' in with_chances


def test_tabs_are_sub_tables_and_prompts_a_choose_line(tmp_path):
    html = _page_html(tmp_path, "```roll-table\nroll: d2,d2\ntabs:\n  1: Low\n  2: High\n"
                      "results:\n  1-1: a\n  1-2: b\n  2-1: c\n  2-2: d\n```\n\n"
                      "```roll-table\nroll: 1d6 + {{ skill }}\nprompts:\n  - name: skill\n"
                      "    min: 0\n    max: 3\nresults:\n  \"<5\": fail\n"
                      "  \">=5\": pass\n```\n")  # fmt: skip
    out = _typst(html)
    assert "#rb-subtable-caption(rb-opts)[Low]" in out
    assert "#rb-subtable-caption(rb-opts)[High]" in out
    assert "You choose: #strong[Skill] \\(0 to 3\\).]" in out
    assert "1d6 \\+ Skill" in out and "{{" not in out


def test_roll_lists_are_numbered_by_their_die(tmp_path):
    html = _page_html(tmp_path, "```roll-list\nroll: 1d3+1\nresults: [a, b, c]\n```\n")
    out = _typst(html)
    assert "enum.item(2)[a], enum.item(3)[b], enum.item(4)[c]" in out
    assert "Roll #rb-roll(rb-opts)[1d3\\+1]" in out


def test_inline_rolls_print_their_label_and_on_request_average_and_range(tmp_path):
    html = _page_html(tmp_path, 'Roll ![roll:2d6]() or ![roll:1d20](. "a d20").\n')
    out = _typst(html)
    assert "#rb-roll(rb-opts)[2d6]" in out and "#rb-roll(rb-opts)[a d20]" in out
    detailed = _typst(html, roll_details=True, site_url="https://x.example/")
    assert "\\(average 7, 2–12\\)" in detailed
    assert '#link("https://x.example/rules/page/#rb-roll-1")' in detailed


def test_without_site_url_nothing_links_to_a_live_site(tmp_path):
    html = _page_html(tmp_path, "Roll ![roll:2d6]().\n\n```roll-list\nresults: [a, b]\n```\n")
    out = _typst(html, qr=True)
    assert "https://" not in out and "live: none, qr: none" in out


def test_controls_and_payloads_never_reach_the_book(tmp_path):
    html = _page_html(tmp_path, "```roll-table\nroll: 1d2\nresults: [x, y]\n```\n")
    out = _typst(html)
    for word in ("Roll on the table", "Show chances", "Copy link", '"rollbook"', "rb-data"):
        assert word not in out


def test_a_link_to_an_id_that_prints_nothing_is_plain_text():
    html = '<p><a href="#x-result">result</a></p><div class="rb-result" id="x-result"></div>'
    pages = [BookPage(src="a.md", url="a/", title="A", html=html)]
    text = book_source([BookSection("Part"), *pages], BookOptions()).text
    assert "#rb-nolink[result]" in text


def test_material_palette_names_give_readable_primary_colours():
    assert primary_colour([{"primary": "indigo"}]) == "#4051b5"
    assert primary_colour({"primary": "deep-purple"}) == "#7e56c2"
    yellow = primary_colour({"primary": "yellow"})
    assert yellow != "#ffec3d" and int(yellow[1:3], 16) < 0xFF
    assert primary_colour(None) == "#4051b5"
