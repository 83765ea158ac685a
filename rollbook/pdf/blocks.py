"""rollbook's widgets as a printed book shows them.

A roll table becomes a real table (the die in its key column, ranges as the site shows
them: ``2–3``, ``≥10``), d66 tabs become sub-tables, roll lists are numbered by their die,
prompts a short "you choose" line, inline rolls their label, stat blocks cards and
encounters a roster with the exact chances of each blow. Every rollable thing links to its
live version when the site's address is known. Each renderer reads the widget markup the
site build wrote (``ARCHITECTURE.md``, "HTML emitted by the Markdown extensions").
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from xml.etree.ElementTree import Element

from rollbook.pdf.context import RenderContext
from rollbook.pdf.qr import qr_svg
from rollbook.pdf.tree import classes, text_of
from rollbook.pdf.typst_text import markup, string
from rollbook.pdf.walker import children, label_for, render, render_block_children

__all__ = ["admonition", "widget_renderer"]

Renderer = Callable[[Element, RenderContext], str]
_PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}")


def _payload(element: Element) -> dict:
    for child in element:
        if child.tag in ("template", "script") and "rb-data" in classes(child):
            try:
                data = json.loads(text_of(child))
            except ValueError:
                return {}
            return data if isinstance(data, dict) else {}
    return {}


def _anchor_label(element: Element, ctx: RenderContext) -> tuple[str, str]:
    """(anchor, Typst label markup placed once) of a widget."""
    anchor = element.get("id") or element.get("data-rb-anchor") or ""
    return anchor, label_for(anchor, ctx)


def _prompt_names(payload: dict) -> dict[str, str]:
    names: dict[str, str] = {}
    for prompt in payload.get("prompts") or []:
        if isinstance(prompt, dict) and prompt.get("name"):
            names[str(prompt["name"])] = str(prompt.get("label") or prompt["name"])
    return names


def notation_text(notation: str, payload: dict) -> str:
    """Dice notation with each ``{{ name }}`` shown as the prompt's label."""
    names = _prompt_names(payload)
    return _PLACEHOLDER.sub(lambda m: names.get(m[1], m[1].replace("_", " ")), notation)


def _choose(element: Element, ctx: RenderContext) -> str:
    """Prompts as one line: what the reader picks before rolling, and its bounds."""
    parts = []
    for field in element.iter("div"):
        if "rb-prompt" not in classes(field):
            continue
        label = field.find("label")
        box = field.find("input")
        if box is None:
            continue
        name = text_of(label).strip() if label is not None else box.get("name", "")
        low, high = box.get("min"), box.get("max")
        if low is not None and high is not None:
            bounds = f" ({_minus(low)} to {_minus(high)})"
        elif low is not None:
            bounds = f" ({_minus(low)} or more)"
        elif high is not None:
            bounds = f" (up to {_minus(high)})"
        else:
            bounds = ""
        parts.append(f"#strong[{markup(name)}]{markup(bounds)}")
    if not parts:
        return ""
    return f"#rb-choose(rb-opts)[You choose: {', '.join(parts)}.]\n"


def _minus(number: str) -> str:
    return number.replace("-", "−")


def _rows_table(table: Element, ctx: RenderContext, key_head: str) -> str:
    """A ``table.rb-rows`` as ``rb-roll-table``: key column, result columns, chance."""
    header: list[str] = []
    head_row = table.find("thead/tr")
    chances = ctx.options.chances
    if head_row is not None:
        for cell in head_row:
            names = classes(cell)
            if "rb-p" in names and not chances:
                continue
            if "rb-key" in names:
                header.append(f"[{markup(key_head)}]")
            else:
                header.append(f"[{children(cell, ctx).strip()}]")
    rows: list[str] = []
    width = len(header)
    for row in table.iter("tr"):
        if row.get("data-rb-row") is None:
            continue
        cells = []
        for cell in row:
            names = classes(cell)
            if cell.tag not in ("td", "th"):
                continue
            if "rb-p" in names:
                if chances:
                    cells.append(f"[{markup(text_of(cell).strip())}]")
                continue
            if "rb-key" in names:
                cells.append(f"[{markup(text_of(cell).strip())}]")
            else:
                cells.append(f"[{render_block_children(cell, ctx)}]")
        width = max(width, len(cells))
        rows.append(cells)  # type: ignore[arg-type]
    columns = ["auto"] + ["1fr"] * max(1, width - 1 - (1 if chances else 0))
    if chances:
        columns.append("auto")
    body = ", ".join(f"({', '.join(r + ['[]'] * (width - len(r)))},)" for r in rows)  # type: ignore[operator]
    head = ", ".join(header + ["[]"] * (width - len(header)))
    return (
        f"#rb-roll-table(rb-opts, ({', '.join(columns)},), ({head},), "
        f"({body}{',' if len(rows) == 1 else ''}))\n"
    )


def _roll_list(ol: Element, ctx: RenderContext) -> str:
    items: list[str] = []
    for item in ol:
        if item.tag != "li":
            continue
        value = item.get("value", "")
        chance = ""
        if ctx.options.chances:
            for span in item.iter("span"):
                if "rb-p" in classes(span):
                    chance = (
                        f" #text(size: 0.85em, fill: luma(90))[{markup(text_of(span).strip())}]"
                    )
        number = int(value) if re.fullmatch(r"-?\d+", value) else len(items) + 1
        items.append(f"enum.item({number})[{render_block_children(item, ctx)}{chance}]")
    body = f'#enum(numbering: "1.", {", ".join(items)})'
    columns = ol.get("data-rb-columns", "")
    if columns.isdigit() and int(columns) > 1:
        body = f"#columns({min(int(columns), 4)}, gutter: 12pt)[{body}]"
    return body + "\n"


def roll_block(element: Element, ctx: RenderContext) -> str:
    """A ``roll-table`` or ``roll-list`` widget as a printed table or numbered list."""
    payload = _payload(element)
    anchor, label = _anchor_label(element, ctx)
    notation = element.get("data-roll", "") or str(payload.get("roll", ""))
    shown = notation_text(notation, payload)
    roll_name = str(payload.get("roll_name") or notation)
    key_head = notation_text(roll_name, payload)
    out: list[str] = []
    for child in element:
        names = classes(child)
        if "admonition" in names:
            out.append(admonition(child, ctx))
        elif "rb-prompts" in names:
            out.append(_choose(child, ctx))
    tab_names = {}
    for tabs in element.iter("div"):
        if "rb-tabs" in classes(tabs):
            for button in tabs:
                tab_names[button.get("aria-controls", "")] = text_of(button).strip()
    for child in element:
        if child.tag == "table" and "rb-rows" in classes(child):
            out.append(_rows_table(child, ctx, key_head))
        elif child.tag == "ol" and "rb-rows" in classes(child):
            out.append(_roll_list(child, ctx))
        elif child.get("role") == "tabpanel":
            name = tab_names.get(child.get("id", ""), child.get("data-rb-tab", ""))
            out.append(f"#rb-subtable-caption(rb-opts)[{markup(name)}]\n")
            for table in child.iter("table"):
                out.append(_rows_table(table, ctx, key_head))
    kind = "list" if element.get("data-rb-kind") == "list" else "table"
    caption = f"[Roll #rb-roll(rb-opts)[{markup(shown)}]]" if shown else "none"
    if kind == "table" and key_head == shown:
        caption = "none"  # the key column's head already names the die
    live = ctx.live_url(anchor, roll=True) if anchor else None
    return _roll_frame(label, caption, live, "".join(out), ctx)


def _roll_frame(
    label: str, caption: str, live: str | None, body: str, ctx: RenderContext, *, verb: str = ""
) -> str:
    qr = "none"
    if live and ctx.options.qr:
        qr = string(qr_svg(live))
    live_arg = string(live) if live else "none"
    extra = f", live-label: [{verb} ↗]" if verb else ""
    return (
        f"\n\n{label}#rb-roll-block(rb-opts, caption: {caption}, live: {live_arg}, qr: {qr}"
        f"{extra})[{body}]\n\n"
    )


def inline_roll(element: Element, ctx: RenderContext) -> str:
    """An inline roll: its label (the notation when untitled), linked to its live version."""
    button = element.find("button")
    if button is None:
        return children(element, ctx)
    text = markup(text_of(button).strip())
    shown = f"#rb-roll(rb-opts)[{text}]"
    if ctx.options.roll_details and button.get("data-rb-mean") is not None:
        low, high = button.get("data-rb-min", ""), button.get("data-rb-max", "")
        mean = button.get("data-rb-mean", "")
        detail = f" (average {mean}, {_minus(low)}–{_minus(high)})"
        shown += f"#text(size: 0.85em)[{markup(detail)}]"
    if "rb-ref" in classes(element):
        ref = element.get("data-rb-nest", "")
        target = ctx.resolve(ref.replace(".md#", ".md#", 1)) if ref else None
        if target is not None:
            name = ctx.labels.add(target)
            ctx.labels.used.add(name)
            return f"#link(<{name}>)[{shown}]"
        return shown
    roll_id = element.get("data-rb-id", "")
    live = ctx.live_url(roll_id) if roll_id else None
    return f"#link({string(live)})[{shown}]" if live else shown


def statblock(element: Element, ctx: RenderContext) -> str:
    """A stat block as a card: name, system, the stats in two columns, notes."""
    anchor, label = _anchor_label(element, ctx)
    name_el = element.find("p")
    name, system = "", "none"
    if name_el is not None:
        strong = name_el.find("strong")
        name = markup(text_of(strong if strong is not None else name_el).strip())
        for span in name_el.iter("span"):
            if "rb-statblock-system" in classes(span):
                system = f"[{markup(text_of(span).strip())}]"
    stats = []
    for field in element.iter("div"):
        if "rb-stat" not in classes(field):
            continue
        term, value = field.find("dt"), field.find("dd")
        if term is None or value is None:
            continue
        stats.append(f"([{children(term, ctx).strip()}], [{children(value, ctx).strip()}])")
    notes = "none"
    for para in element.iter("p"):
        if "rb-statblock-notes" in classes(para):
            notes = f"[{children(para, ctx).strip()}]"
    live = ctx.live_url(anchor) if anchor else None
    stats_arg = f"({', '.join(stats)}{',' if len(stats) == 1 else ''})"
    card = f"#rb-card(rb-opts, [{name}], {system}, {stats_arg}, {notes})"
    if live:
        card = f"{card}\n#align(right, text(size: 8pt, link({string(live)})[See it live ↗]))"
    return f"\n\n{label}{card}\n\n"


def combat(element: Element, ctx: RenderContext) -> str:
    """An encounter: its title, the roster and each pairing's chance that a blow lands.

    The roster gives side, name and hit points; the chances are exact.
    """
    anchor, label = _anchor_label(element, ctx)
    from rollbook.pdf.walker import TAGS

    parts: list[str] = []
    title = "none"
    for child in element:
        names = classes(child)
        if "rb-combat-title" in names:
            strong = child.find("strong")
            text = text_of(strong if strong is not None else child).strip()
            system = "".join(
                text_of(s) for s in child.iter("span") if "rb-statblock-system" in classes(s)
            ).strip()
            title = f"[#text(size: 11pt)[#strong[{markup(text)}]" + (
                f" #emph[{markup(system)}]]]" if system else "]]"
            )
        elif "rb-combatants" in names:
            parts.append(_roster(child, ctx))
        elif child.tag == "details":
            for table in child.iter("table"):
                if "rb-pair-odds" in classes(table):
                    parts.append(TAGS["table"](table, ctx))
    live = ctx.live_url(anchor) if anchor else None
    return _roll_frame(label, title, live, "".join(parts), ctx, verb="Fight it live")


def _roster(table: Element, ctx: RenderContext) -> str:
    keep = [i for i, cell in enumerate(table.iter("th")) if text_of(cell).strip() != "Status"]
    header = [
        f"[{markup(text_of(c).strip())}]" for i, c in enumerate(table.iter("th")) if i in keep
    ]
    rows = []
    for row in table.iter("tr"):
        cells = [c for c in row if c.tag == "td"]
        if not cells:
            continue
        rows.append([f"[{children(c, ctx).strip()}]" for i, c in enumerate(cells) if i in keep])
    body = ", ".join(f"({', '.join(r)},)" for r in rows)
    columns = ", ".join(["auto", "1fr", "auto"][: len(header)] + ["auto"] * (len(header) - 3))
    body_arg = f"({body}{',' if len(rows) == 1 else ''})"
    return (
        f"#rb-subtable-caption(rb-opts)[Combatants]\n"
        f"#rb-plain-table(rb-opts, ({columns},), ({', '.join(header)},), {body_arg})\n"
    )


def admonition(element: Element, ctx: RenderContext) -> str:
    """An admonition (or ``<details>``) as a tinted box with its title."""
    names = classes(element) - {"admonition", "rb-error"}
    kind = sorted(names)[0] if names else "note"
    title = "none"
    body: list[str] = [markup(element.text or "")]
    for child in element:
        if ("admonition-title" in classes(child) or child.tag == "summary") and title == "none":
            title = f"[{children(child, ctx).strip()}]"
        else:
            body.append(render(child, ctx))
        body.append(markup(child.tail or ""))
    label = label_for(element.get("id"), ctx)
    return (
        f"\n\n{label}#rb-admonition(rb-opts, {string(kind)}, {title}, "
        f"[{''.join(body).strip()}])\n\n"
    )


def _highlight(element: Element, ctx: RenderContext) -> str:
    from rollbook.pdf.walker import TAGS

    pre = element.find(".//pre")
    return TAGS["pre"](pre, ctx) if pre is not None else ""


def widget_renderer(element: Element, names: set[str]) -> Renderer | None:
    """The renderer of a rollbook widget or a styled block, or None for ordinary HTML."""
    if "rb-table" in names and element.tag == "div":
        return roll_block
    if "rb-inline" in names:
        return inline_roll
    if "rb-statblock" in names:
        return statblock
    if "rb-combat" in names:
        return combat
    if "admonition" in names and element.tag == "div":
        return admonition
    if "highlight" in names and element.tag == "div":
        return _highlight
    if "rb-prompts" in names and element.tag == "fieldset":
        return _choose
    return None
