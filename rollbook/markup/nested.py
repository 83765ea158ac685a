"""Nested rolls in table cells: inline rolls and table references rolled with the row.

Inside a ``roll-table`` / ``roll-list`` cell an inline roll gets ``data-rb-nest`` (its
notation), which makes the engine roll it together with the row
(``rollbook.engine.tables.nested``). A cell may also roll another table:
``![roll:#backlash]()`` (this page) or ``![roll:magic.md#backlash]()`` (another page, relative
to this one); its key (``docs/magic.md#backlash``, the page as the host names it) goes into
``data-rb-table`` and the referenced tables' payloads are added by ``refs.py`` once every
page's tables are known. ``roll_dice_in_results: true`` turns plain notation written in the
cells (``+1d3 health points``) into inline rolls first.
"""

from __future__ import annotations

import contextlib
import posixpath
import re
import xml.etree.ElementTree as etree
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from markdown import Markdown, util

from rollbook.markup.host_page import mkdocs_file
from rollbook.markup.html import roll_controls
from rollbook.markup.prescan import NAME_OF
from rollbook.markup.problems import active_context, host_prefix
from rollbook.markup.roll_table.render import ascii_refs

if TYPE_CHECKING:
    from rollbook.markup.page_state import PageState


__all__ = [
    "OPTION",
    "REFS_MARK",
    "in_cells",
    "is_table_ref",
    "mark_nested",
    "on_block",
    "prepare",
    "ref_element",
    "ref_key",
    "rewrite_plain_dice",
    "roll_controls",
]

#: The table option that turns plain notation in cells into nested rolls.
OPTION = "roll_dice_in_results"
#: The payload's ``refs`` before the host fills it: ``"rb-refs:" + the table's own key``.
REFS_MARK = "rb-refs:"

_REF = re.compile(r"^(?P<page>[^\s#]*\.md)?#(?P<anchor>[\w-]+)$")
_FLAG = "_rb_in_cells"


def is_table_ref(notation: str) -> bool:
    """Whether an inline roll's notation names a table (``#id``, ``page.md#id``)."""
    return bool(_REF.match(notation.strip()))


def page_src(state: PageState) -> str:
    """The page being converted as the host names it (``docs/rules/magic.md``), or ``""``."""
    ctx = active_context()
    if ctx is not None:
        return ctx.src_path
    prefix = host_prefix()  # a page MkDocs converts again (an excerpt): named as before
    found = mkdocs_file(state.md) if prefix is not None else None
    if found is not None:
        return f"{prefix}/{found[0].src_uri}" if prefix else str(found[0].src_uri)
    return state.host.shown if state.host is not None else ""


def ref_key(src: str, ref: str, md: Markdown | None = None) -> str:
    """The key of the table a reference written on page ``src`` names.

    Under MkDocs the page is found as MkDocs finds a link's target (``Files``, which
    mkdocs-static-i18n makes pick the page of the language built, or the default
    language's): the key names the page that will be in the site.
    """
    page, _, anchor = ref.strip().partition("#")
    if not page:
        return f"{src}#{anchor}"
    found = mkdocs_file(md) if md is not None else None
    if found is not None:
        file, files = found
        target = posixpath.normpath(posixpath.join(posixpath.dirname(file.src_uri), page))
        hit = files.get_file_from_path(target.lstrip("/"))
        if hit is not None and src.endswith(file.src_uri):
            return f"{src[: len(src) - len(file.src_uri)]}{hit.src_uri}#{anchor}"
    page = posixpath.normpath(posixpath.join(posixpath.dirname(src), page))
    return f"{page}#{anchor}"


@contextlib.contextmanager
def in_cells(md: Markdown) -> Iterator[None]:
    """Render table cells inside this block: their inline rolls become nested rolls."""
    setattr(md, _FLAG, True)
    try:
        yield
    finally:
        setattr(md, _FLAG, False)


def rendering_cells(state: PageState) -> bool:
    return bool(getattr(state.md, _FLAG, False))


def mark_nested(state: PageState, element: etree.Element, notation: str, label: str) -> None:
    """Make an inline roll in a table cell a nested roll of its row."""
    if not rendering_cells(state):
        return
    element.set("data-rb-nest", notation)
    if label != notation:
        element.set("data-rb-label", label)


def ref_element(state: PageState, ref: str, title: str | None, line: int) -> etree.Element:
    """A table reference: a button rolling that table, its result beside it."""
    ref = ref.strip()
    anchor = ref.partition("#")[2]
    if not rendering_cells(state):
        problem = (
            f"the inline roll {ref!r} names a table; a table reference rolls only inside a "
            "roll-table or roll-list cell."
        )
        state.report(line, problem)
        el = etree.Element("span")
        el.set("class", "rb-error rb-inline-error")
        el.set("role", "note")
        code = etree.SubElement(el, "code")
        code.text = util.AtomicString(f"![roll:{ref}]")
        code.tail = util.AtomicString(f" (roll error: {problem})")
        return el
    key = ref_key(page_src(state), ref, state.md)
    label = " ".join(title.split()) if title and title.strip() else anchor.replace("-", " ")
    wrap = etree.Element("span")
    wrap.set("class", "rb-inline rb-ref")
    wrap.set("data-rb-id", state.next_inline_id())
    wrap.set("data-rb-nest", ref)
    wrap.set("data-rb-table", key)
    roll_controls(wrap, label).set("title", ascii_refs(state.text()("table.ref_title", ref=ref)))
    return wrap


# -- roll_dice_in_results --------------------------------------------------------------------

# Code spans, links and images (inline rolls too), tags and placeholders stay as written.
_PROTECTED = re.compile(r"(`+).*?\1|!?\[[^\]]*\]\([^)]*\)|<[^>]*>|\{\{.*?\}\}")
_PLAIN_DICE = re.compile(
    r"(?<![\w.\-])(\d*d(?:\d+|%|F)(?:(?:kh|kl|dh|dl|k|d)\d+)?(?:\s*[-+*/]\s*\d+(?![\w.]))*)(?![\w])"
)


def rewrite_plain_dice(text: str) -> str:
    """Plain notation in a cell's Markdown (``+1d3 health``) written as an inline roll."""
    from rollbook.engine.dice import DiceError, parse

    def convert(match: re.Match[str]) -> str:
        notation = match[1]
        try:
            parse(notation)
        except (DiceError, ValueError):
            return notation
        return f"![roll:{notation}]()"

    out: list[str] = []
    pos = 0
    for protected in _PROTECTED.finditer(text):
        out.append(_PLAIN_DICE.sub(convert, text[pos : protected.start()]))
        out.append(protected[0])
        pos = protected.end()
    out.append(_PLAIN_DICE.sub(convert, text[pos:]))
    return "".join(out)


def _rewrite(value: Any) -> Any:
    if isinstance(value, str):
        return rewrite_plain_dice(value)
    if isinstance(value, list):
        return [_rewrite(v) for v in value]
    if isinstance(value, dict):
        return {k: _rewrite(v) for k, v in value.items()}
    return value


def prepare(
    state: PageState, kind: str, data: dict[str, Any], positions: dict[Any, int], line: int
) -> dict[str, Any]:
    """Read ``roll_dice_in_results`` (a markup option, not the engine's) and apply it."""
    if OPTION not in data:
        return data
    data = dict(data)
    on = data.pop(OPTION)
    if not isinstance(on, bool):
        at = positions.get((OPTION,), line)
        state.report(at, f"{NAME_OF[kind]}: {OPTION} must be true or false, not {on!r}.")
        return data
    if on and "results" in data:
        data["results"] = _rewrite(data["results"])
    return data


def on_block(state: PageState, table: Any, anchor: str, payload: dict[str, Any]) -> None:
    """A block whose rows roll other tables: its payload's ``refs`` wait for the host."""
    if any(part.ref is not None for row in table.rows for part in row.nested):
        payload["refs"] = f"{REFS_MARK}{page_src(state)}#{anchor}"
