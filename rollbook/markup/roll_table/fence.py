"""The ``roll-table`` fence: read, build and check the table, then draw it.

``roll-list`` (``rollbook.markup.roll_list``) is the same lifecycle with other rows. The
superfences configuration of every fence is ``rollbook.markup.superfences``.
"""

from __future__ import annotations

from typing import Any, override

from markdown import Markdown

from rollbook.language import Catalogue
from rollbook.markup import nested
from rollbook.markup.cells import render_inline
from rollbook.markup.fence_runner import Fence, Parsed, formatter_for
from rollbook.markup.page_state import PageState
from rollbook.markup.prescan import FENCE_KINDS, NAME_OF, fence_name
from rollbook.markup.problems import Problem
from rollbook.markup.roll_table.model import PromptView, RowView, TableView
from rollbook.markup.roll_table.render import render_table
from rollbook.markup.yamlpos import YamlProblem, load_with_positions

__all__ = [
    "Blocked",
    "RollTableFence",
    "build_table",
    "formatter",
    "table_from_data",
    "validator",
]

# Preset options that only make sense for inline rolls; never passed to the table engine.
INLINE_ONLY_OPTIONS = frozenset({"odds"})


class RollTableFence(Fence):
    """``roll-table``: a table of results; validation errors show inside the rendered table."""

    NAME = NAME_OF["table"]
    KIND = "table"

    @override
    def parse(self) -> Parsed:
        first_line = (self.line + 1) if self.line else 1
        try:
            table, notes = build_table(self.state, self.KIND, self.src, first_line)
        except YamlProblem as err:
            return Parsed(problems=[err.problem])
        except Blocked as err:
            return Parsed(problems=err.problems)
        return Parsed(table, table.id, notes, blocking=False)

    @override
    def render(self, parsed: Parsed, anchor: str, own_id: bool, errors: list[str]) -> str:
        self.state.tables[anchor] = parsed.value
        view = view_of(parsed.value, self.KIND, self.state.text())
        nested.on_block(self.state, parsed.value, anchor, view.payload)
        return render_table(view, anchor, own_id, errors, self.body(view, anchor))

    def body(self, view: TableView, anchor: str) -> str | None:
        """The rows as this kind draws them; None: a table's (``render_table``)."""
        return None


# -- the names superfences' custom_fences configuration uses --------------------------------


def validator(language: str | None, *_superfences_args: Any) -> bool:
    """Accept ``roll-table`` and ``roll-list`` in any letter case; decline everything else.

    A fence without a language (``None`` or ``""``) is plain code, never one of ours.
    """
    return fence_name(language) in FENCE_KINDS


formatter = formatter_for(RollTableFence)


class Blocked(Exception):
    """The engine could not build a table: every problem."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__(problems[0].message if problems else "")
        self.problems = problems


def build_table(
    state: PageState, kind: str, src: str, first_line: int
) -> tuple[Any, list[Problem]]:
    """Parse, render cells, build and validate one fence body.

    Returns:
        The engine's ``Table`` / ``RollList`` and its problems (errors and warnings).

    Raises:
        YamlProblem: the body is not YAML (or repeats a key).
        Blocked: the engine could not build a table from it.
    """
    data, positions = load_with_positions(src, first_line)
    if not isinstance(data, dict):
        what = "empty" if data is None else f"a {type(data).__name__}"
        raise Blocked(
            [
                Problem(
                    first_line - 1,
                    f"the body must be a YAML mapping with at least 'roll' "
                    f"or 'results', but it is {what}.",
                )
            ]
        )
    data = apply_preset(state, data, positions, first_line)
    return table_from_data(state, kind, data, positions, first_line - 1)


def table_from_data(
    state: PageState, kind: str, data: dict[str, Any], positions: dict[Any, int], line: int
) -> tuple[Any, list[Problem]]:
    """Render the cells of a fence-shaped body, build and validate it.

    ``build_table``'s second half, shared with plain Markdown tables.

    Raises:
        Blocked: the engine could not build a table from it.
    """
    from rollbook.engine.tables import RollList, Table, TableError, validate

    data = in_language(state, kind, data)
    data = nested.prepare(state, kind, data, positions, line)
    data = render_cells(state.md, kind, data)
    cls = RollList if kind == "list" else Table
    try:
        table = cls.from_dict(data, positions)
    except TableError as err:
        raise Blocked(list(err.problems)) from None
    return table, list(validate(table))


def apply_preset(
    state: PageState, data: dict[str, Any], positions: dict[Any, int], first_line: int
) -> dict[str, Any]:
    """Fill keys the author left out from the named preset (the author's keys win)."""
    name = data.get("preset")
    if name is None:
        return data
    preset = state.preset(str(name))
    if preset is None:
        raise Blocked(
            [
                Problem(
                    positions.get(("preset",), first_line),
                    f"unknown preset {name!r}; known presets: {state.preset_names()}.",
                )
            ]
        )
    merged = {k: v for k, v in preset.items() if k not in INLINE_ONLY_OPTIONS}
    for key, value in data.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = {**merged[key], **value}
        else:
            merged[key] = value
    return merged


def render_cells(md: Markdown, kind: str, data: dict[str, Any]) -> dict[str, Any]:
    """Return a copy of ``data`` whose cell texts and ``result_text`` are HTML."""
    out = dict(data)

    def cell(value: Any) -> Any:
        if isinstance(value, str):
            return render_inline(md, value)
        if isinstance(value, list):
            return [cell(v) for v in value]
        if isinstance(value, dict):
            return {k: cell(v) for k, v in value.items()}
        return value

    if "results" in out:
        with nested.in_cells(md):
            out["results"] = cell(out["results"])
    if isinstance(out.get("result_text"), str):
        out["result_text"] = render_inline(md, out["result_text"])
    return out


def in_language(state: PageState, kind: str, data: dict[str, Any]) -> dict[str, Any]:
    """The page language's words where the author left a default, and its dice letter.

    Defaults: the result column, the result sentence, the button. The language's dice
    letter is read as ``d`` in ``roll``; the roll column keeps the notation as written.
    """
    from rollbook.engine.tables.model import Table
    from rollbook.engine.tables.parts import Button

    text = state.text()
    out = dict(data)
    roll = out.get("roll")
    if isinstance(roll, str) and state.notation(roll) != roll:
        out.setdefault("roll_name", roll)
        out["roll"] = state.notation(roll)
    if kind == "table" and "headers" not in out and text("table.result") != Table.headers[0]:
        out["headers"] = [text("table.result")]
    sentence = text("table.sentence", roll="{{ roll }}", result="{{ result }}")
    if out.get("result_text", True) is True and sentence != Table.result_text:
        out["result_text"] = sentence
    button = out.get("button")
    label = text("table.roll")
    if label == Button.label:
        return out
    if button is None:
        out["button"] = {"label": label}
    elif isinstance(button, dict) and "label" not in button:
        out["button"] = {**button, "label": label}
    return out


def view_of(table: Any, kind: str, text: Catalogue) -> TableView:
    """Adapt the engine's table to what the renderer needs (default prompt values)."""
    payload = table.to_dict()
    labels = table.labels()
    try:
        chances: list[Any] = table.probabilities()
    except Exception:  # chances are an extra; a table whose odds fail still renders
        chances = [None] * len(table.rows)
    rows = tuple(
        RowView(row.index, labels[row.index], tuple(row.cells), chances[row.index])
        for row in table.rows
    )
    tab_rows = table.tab_rows() if table.tabs else {}
    tabs = tuple((tab.key, tab.name, tuple(tab_rows.get(tab.key, ()))) for tab in table.tabs)
    prompts = tuple(
        PromptView(p.name, p.label, p.help_text, p.type, p.min, p.max, p.default)
        for p in table.prompts
    )
    return TableView(
        kind=kind,
        roll=str(payload.get("roll", "")),
        roll_name=table.roll_name,
        headers=tuple(table.headers),
        rows=rows,
        payload=payload,
        tabs=tabs,
        prompts=prompts,
        prompt_title=table.prompt_title,
        button_label=table.button.label,
        button_placement=table.button.placement,
        classes=tuple((table.css_class or "").split()),
        column_count=getattr(table, "column_count", None),
        text=text,
    )
