"""Text that looks like Typst (or breaks it) is printed as written, never interpreted."""

from __future__ import annotations

import html
import io

from pypdf import PdfReader

from rollbook.pdf import BookOptions, BookPage, make_book

CORPUS = [
    "// not a comment", "/* not a block */ comment", "#set text(red)", "#panic(\"x\")",
    "= not a heading", "- not a list", "+ not an enum", "1. not numbered", "/ term: no",
    "$x^2$ stays", "<label> and @ref", "`raw` and ```block```", "*bold?* _emph?_",
    "\\u{41} backslash", "~tilde~", "a -- b --- c ... d", "[brackets] (parens) {braces}",
    "https://example.org/not-a-link", "100% & 50 < 60 > 40", "tab\there", "x\\", "#",
]  # fmt: skip


def test_every_line_of_the_corpus_prints_as_written(tmp_path):
    body = "".join(f"<p>{html.escape(line)}</p>\n" for line in CORPUS)
    body += "<ul>" + "".join(f"<li>{html.escape(line)}</li>" for line in CORPUS) + "</ul>"
    body += (
        "<table><tr><td>"
        + "</td><td>".join(html.escape(c) for c in CORPUS[:6])
        + "</td></tr></table>"
    )
    page = BookPage(src="index.md", url="", title="Corpus", html=f"<h1>Corpus</h1>{body}")
    pdf = make_book([page], BookOptions(title="Corpus"), root=str(tmp_path))
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)
    # Quotes become typographic ones, as a book prints them; nothing else changes.
    flat = " ".join(text.split()).translate(str.maketrans("“”‘’", "\"\"''"))
    for line in CORPUS:
        expected = " ".join(line.split())
        assert flat.count(expected) >= 2, (line, flat[:500])
