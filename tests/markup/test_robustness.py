"""Whatever an author writes, conversion gives HTML and problems, never an exception."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.markup.helpers import convert

PIECES = [
    "roll: 2d6", "roll: d6,d6", "roll: 1d6 + {{ x }}", "roll: 2d", "roll: [1, 2]", "roll:",
    "results:", "results: []", "results: x", "  1: a", "  2--3: b", "  \">=4\": c", "  1-1: d",
    "  - e", "  - [f, g]", "  7: {Foe: h}", "headers: [A, B]", "headers: 3", "tabs:",
    "  1: One", "  x: {name: X, results: [1]}", "prompts: [x]", "prompts:", "  - name: x",
    "    min: 0", "    max: -1", "id: t", "id: [1]", "class: c", "button: {placement: up}",
    "preset: none", "result_text: false", "result_text: {{ result }}", "column_count: -1",
    ": :", "- - -", "{", "\"", "\t", "key: &a [*a]",
]  # fmt: skip
INLINE = [
    "![roll:2d6]()", "![roll:]()", "![roll:2d](.)", "[!roll:1d6](.)", "![roll:1d6](preset:x)",
    "`![roll:d]()`", "![roll:d6,d6](. \"t\n u\")", "![roll:1d6", "| ![roll:d4]() |",
]  # fmt: skip


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    kind=st.sampled_from(["roll-table", "roll-list", "ROLL-TABLE"]),
    body=st.lists(st.sampled_from(PIECES), max_size=8),
    before=st.lists(st.sampled_from(INLINE), max_size=3),
)
def test_any_page_converts_without_raising(kind, body, before):
    src = "# T\n\n" + " ".join(before) + "\n\n```" + kind + "\n" + "\n".join(body) + "\n```\n"
    html, problems = convert(src)
    assert isinstance(html, str)
    lines = src.count("\n") + 1
    assert all(1 <= p.line <= lines for p in problems)
    assert all(p.message and p.severity in ("error", "warning") for p in problems)
