"""Building table fields from a fence's YAML body, given as a plain dict.

The reader collects every problem it meets in one pass. Problems that leave nothing
sensible to build (no ``results``, a key that is not a key, ...) are *blocking*: the caller
raises `TableError` with all of them. The rest (an unknown key, a ``2-3`` key, a cell count
that does not match the headers) become the table's ``notes``, which `validate` reports
with its own findings. ``to_dict()`` output is read back by `rollbook.engine.tables.canonical`.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from typing import Any

from rollbook.engine.tables.keys import KeyError_, count_parts, parse_key
from rollbook.engine.tables.nested import parts_of
from rollbook.engine.tables.parts import PROMPT_TYPES, Button, Prompt, Row, Tab
from rollbook.engine.tables.problems import ERROR, WARNING, LineMap, Path, Problem, TableError
from rollbook.engine.tables.prompt_value import MAX_PROMPT_MAGNITUDE
from rollbook.engine.tables.template import DEFAULT_RESULT_TEXT, humanize, normalize

__all__ = ["CANONICAL_MARK", "LIST_KEYS", "TABLE_KEYS", "read_authored", "suggest"]

TABLE_KEYS = (
    "roll", "results", "roll_name", "headers", "result_text", "tabs", "prompts",
    "prompt_title", "id", "class", "button", "preset",
)  # fmt: skip
LIST_KEYS = (
    "roll", "results", "result_text", "column_count", "roll_name", "prompts",
    "prompt_title", "id", "class", "button", "preset",
)  # fmt: skip
PROMPT_KEYS = ("name", "label", "help-text", "help_text", "type", "min", "max")
#: ``to_dict()`` output carries this key (its format version), authored YAML never does.
CANONICAL_MARK = "rollbook"
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")


def suggest(word: str, known: Sequence[str]) -> str:
    """`` (did you mean 'results'?)`` or an empty string."""
    close = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _type_name(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, str):
        return "text"
    return "a number" if isinstance(value, int | float) else type(value).__name__


class _Reader:
    def __init__(self, positions: Mapping[Path, int] | None, kind: str) -> None:
        self.line = LineMap(positions)
        self.kind = kind
        self.fence = "roll-table" if kind == "table" else "roll-list"
        self.problems: list[Problem] = []
        self.blocked = False

    def error(self, path: Path, message: str, *, blocking: bool = False) -> None:
        self.problems.append(Problem(self.line(path), message, ERROR, path=path))
        self.blocked = self.blocked or blocking

    def warn(self, path: Path, message: str) -> None:
        self.problems.append(Problem(self.line(path), message, WARNING, path=path))

    def text(self, data: Mapping[str, Any], key: str) -> str | None:
        """An optional text key; numbers are accepted as their digits."""
        value = data.get(key)
        if value is None:
            return None
        if isinstance(value, str) or _is_int(value):
            return str(value)
        self.error((key,), f"{key} must be text, not {_type_name(value)}")
        return None

    # -- the whole body ------------------------------------------------------------------

    def read(self, data: Any) -> dict[str, Any]:
        if data is None:
            self.error((), f"the {self.fence} is empty: it needs at least results", blocking=True)
            raise TableError(self.problems)
        if not isinstance(data, Mapping):
            self.error(
                (),
                f"the {self.fence} body must be a mapping of keys (roll, results, ...), "
                f"not {_type_name(data)}",
                blocking=True,
            )
            raise TableError(self.problems)
        known = TABLE_KEYS if self.kind == "table" else LIST_KEYS
        for key in data:
            if key in known:
                continue
            if key in TABLE_KEYS:
                self.error((key,), f"{key} is not a roll-list key; it belongs to roll-table")
            else:
                self.error((key,), f"unknown key {str(key)!r}{suggest(str(key), known)}")

        results = data.get("results")
        roll = self.roll(data, results)
        parts = count_parts(roll)
        headers = self.headers(data) if self.kind == "table" else ("Result",)
        rows = self.rows(results, headers, parts)
        fields: dict[str, Any] = {
            "expr": roll,
            "rows": rows,
            "roll_name": self.text(data, "roll_name") or roll,
            "headers": headers,
            "result_text": self.result_text(data),
            "prompts": self.prompts(data.get("prompts")),
            "prompt_title": self.text(data, "prompt_title"),
            "id": self.text(data, "id"),
            "css_class": self.text(data, "class"),
            "button": self.button(data.get("button")),
            "preset": self.text(data, "preset"),
        }
        if self.kind == "table":
            fields["tabs"] = self.tabs(data.get("tabs"), parts)
        else:
            fields["column_count"] = self.column_count(data.get("column_count"))
        if self.blocked:
            raise TableError(self.problems)
        return fields

    def roll(self, data: Mapping[str, Any], results: Any) -> str:
        roll = data.get("roll")
        if roll is None:
            if self.kind == "list" and isinstance(results, list) and results:
                return f"1d{len(results)}"
            if self.kind == "table":
                self.error(
                    (), "roll is missing: say which dice to roll, e.g. roll: 2d6", blocking=True
                )
            return "1d1"
        if _is_int(roll):
            roll = str(roll)
        if not isinstance(roll, str):
            self.error(
                ("roll",), f"roll must be dice notation, not {_type_name(roll)}", blocking=True
            )
            return "1d1"
        if not roll.strip():
            self.error(
                ("roll",), "roll is empty: say which dice to roll, e.g. roll: 2d6", blocking=True
            )
        return roll.strip()

    def headers(self, data: Mapping[str, Any]) -> tuple[str, ...]:
        headers = data.get("headers")
        if headers is None:
            return ("Result",)
        if isinstance(headers, str) or _is_int(headers):
            return (str(headers),)
        if not isinstance(headers, list) or not headers:
            self.error(
                ("headers",),
                f"headers must be a list of column names, not {_type_name(headers)}",
                blocking=True,
            )
            return ("Result",)
        names: list[str] = []
        for i, name in enumerate(headers):
            if not (isinstance(name, str) or _is_int(name)):
                self.error(
                    ("headers", i),
                    f"headers: item {i + 1} must be a column name, not {_type_name(name)}",
                    blocking=True,
                )
                continue
            names.append(str(name))  # a name may repeat (published tables do): cells go by place
        return tuple(names) or ("Result",)

    # -- results -------------------------------------------------------------------------

    def rows(self, results: Any, headers: tuple[str, ...], parts: int) -> tuple[Row, ...]:
        if results is None:
            self.error((), f"results is missing: the {self.fence} needs its rows", blocking=True)
            return ()
        if self.kind == "list" and not isinstance(results, list):
            self.error(
                ("results",),
                f"results of a roll-list must be a list, not {_type_name(results)}",
                blocking=True,
            )
            return ()
        if not isinstance(results, Mapping | list):
            self.error(
                ("results",),
                f"results must be a mapping (key: text) or a list, not {_type_name(results)}",
                blocking=True,
            )
            return ()
        if not results:
            self.error(("results",), "results is empty: give at least one row", blocking=True)
            return ()
        rows: list[Row] = []
        if isinstance(results, list):
            for i, value in enumerate(results):
                path: Path = ("results", i)
                cells = self.cells(path, f"item {i + 1}", value, headers)
                rows.append(Row(i, None, cells, path, parts_of(cells)))
            return tuple(rows)
        for raw, value in results.items():
            path = ("results", raw)
            try:
                key, warning = parse_key(raw, parts)
            except KeyError_ as exc:
                self.error(path, f"results: {exc}", blocking=True)
                continue
            if warning:
                self.warn(path, f"results: {warning}")
            cells = self.cells(path, f"row {key.text}", value, headers)
            rows.append(Row(len(rows), key, cells, path, parts_of(cells)))
        return tuple(rows)

    def cells(self, path: Path, name: str, value: Any, headers: tuple[str, ...]) -> tuple[str, ...]:
        width = len(headers)
        if value is None:
            self.warn(path, f"results: {name} is empty")
            return ("",) * width
        if isinstance(value, str) or (
            isinstance(value, int | float) and not isinstance(value, bool)
        ):
            if width > 1:
                self.error(path, f"results: {name} has 1 cell but headers name {width} columns")
                return (str(value),) + ("",) * (width - 1)
            return (str(value),)
        if isinstance(value, list):
            cells = [self.cell(path, name, v) for v in value]
            if len(cells) != width:
                self.error(
                    path,
                    f"results: {name} has {len(cells)} cells but headers name {width} "
                    f"column{'s' if width > 1 else ''}",
                )
            return tuple((cells + [""] * width)[:width])
        if isinstance(value, Mapping):
            by_name: dict[str, int] = {}
            for i, h in enumerate(headers):  # a repeated name means its first column
                by_name.setdefault(normalize(h), i)
            cells = [""] * width
            given: set[int] = set()
            for column, cell in value.items():
                index = by_name.get(normalize(str(column)))
                if index is None:
                    self.error(
                        path,
                        f"results: {name} has a cell for {str(column)!r}, which is not a column "
                        f"in headers{suggest(str(column), headers)}",
                    )
                    continue
                cells[index] = self.cell(path, name, cell)
                given.add(index)
            missing = [headers[i] for i in range(width) if i not in given]
            if missing:
                self.error(path, f"results: {name} has no cell for {', '.join(map(repr, missing))}")
            return tuple(cells)
        self.error(path, f"results: {name} must be text, not {_type_name(value)}")
        return ("",) * width

    def cell(self, path: Path, name: str, value: Any) -> str:
        if value is None:
            return ""
        if isinstance(value, str) or (
            isinstance(value, int | float) and not isinstance(value, bool)
        ):
            return str(value)
        self.error(path, f"results: a cell of {name} must be text, not {_type_name(value)}")
        return ""

    # -- the other keys ------------------------------------------------------------------

    def result_text(self, data: Mapping[str, Any]) -> str | None:
        value = data.get("result_text", True)
        if value is True or value is None:
            return DEFAULT_RESULT_TEXT
        if value is False:
            return None
        if isinstance(value, str):
            return value
        self.error(
            ("result_text",), f"result_text must be text, true or false, not {_type_name(value)}"
        )
        return DEFAULT_RESULT_TEXT

    def prompts(self, value: Any) -> tuple[Prompt, ...]:
        if value is None:
            return ()
        if isinstance(value, str | Mapping):
            value = [value]
        if not isinstance(value, list):
            self.error(("prompts",), f"prompts must be a list, not {_type_name(value)}")
            return ()
        prompts: list[Prompt] = []
        seen: set[str] = set()
        for i, item in enumerate(value):
            prompt = self.prompt(i, item)
            if prompt is None:
                continue
            if prompt.name in seen:
                self.error(("prompts", i, "name"), f"prompts: {prompt.name!r} is defined twice")
                continue
            seen.add(prompt.name)
            prompts.append(prompt)
        return tuple(prompts)

    def prompt(self, i: int, item: Any) -> Prompt | None:
        where = f"prompts: item {i + 1}"
        if isinstance(item, str):
            item = {"name": item}
        if not isinstance(item, Mapping):
            self.error(
                ("prompts", i), f"{where} must be a name or a mapping, not {_type_name(item)}"
            )
            return None
        for key in item:
            if key not in PROMPT_KEYS:
                self.error(
                    ("prompts", i, key),
                    f"{where} has an unknown key {str(key)!r}{suggest(str(key), PROMPT_KEYS)}",
                )
        name = item.get("name")
        if not isinstance(name, str) or not name.strip():
            self.error(("prompts", i), f"{where} needs a name")
            return None
        name = name.strip()
        if not set(name) <= _NAME_CHARS:
            self.error(
                ("prompts", i, "name"),
                f"prompts: name {name!r} must be one word (letters, digits, _ or -)",
            )
            return None
        bounds: dict[str, int | None] = {}
        for side in ("min", "max"):
            bound = item.get(side)
            if bound is not None and not _is_int(bound):
                self.error(
                    ("prompts", i, side),
                    f"prompts: {side} of {name!r} must be a whole number, not {_type_name(bound)}",
                )
                bound = None
            elif bound is not None and abs(bound) > MAX_PROMPT_MAGNITUDE:
                self.error(
                    ("prompts", i, side),
                    f"prompts: {side} of {name!r} must be within ±{MAX_PROMPT_MAGNITUDE}, "
                    f"not {bound}",
                )
                bound = None
            bounds[side] = bound
        low, high = bounds["min"], bounds["max"]
        if low is not None and high is not None and low > high:
            self.error(("prompts", i, "min"), f"prompts: {name!r} has min {low} above max {high}")
            low = high = None
        kind = item.get("type", "number")
        if kind not in PROMPT_TYPES:
            self.error(
                ("prompts", i, "type"),
                f"prompts: type {kind!r} of {name!r} is not one of {', '.join(PROMPT_TYPES)}",
            )
            kind = "number"
        help_text = item.get("help-text", item.get("help_text"))
        label = item.get("label")
        return Prompt(
            name=name,
            label=str(label) if label is not None else humanize(name),
            help_text=None if help_text is None else str(help_text),
            type=kind,
            min=low,
            max=high,
        )

    def tabs(self, value: Any, parts: int) -> tuple[Tab, ...]:
        if value is None:
            return ()
        if not isinstance(value, Mapping):
            self.error(("tabs",), f"tabs must be a mapping (key: name), not {_type_name(value)}")
            return ()
        tabs: list[Tab] = []
        for raw, spec in value.items():
            path: Path = ("tabs", raw)
            results: tuple[str, ...] | None = None
            if isinstance(spec, Mapping):
                name = spec.get("name")
                for key in spec:
                    if key not in ("name", "results"):
                        self.error((*path, key), f"tabs: tab {raw} has an unknown key {str(key)!r}")
                listed = spec.get("results")
                if listed is not None:
                    if not isinstance(listed, list):
                        self.error(
                            (*path, "results"),
                            f"tabs: results of tab {raw} must be a list of result keys",
                        )
                        listed = []
                    results = tuple(self.canonical_key(k, parts) for k in listed)
            else:
                name = spec
            if not (isinstance(name, str) or _is_int(name)):
                self.error(path, f"tabs: tab {raw} needs a name")
                name = str(raw)
            tabs.append(Tab(str(raw), str(name), results))
        return tuple(tabs)

    @staticmethod
    def canonical_key(raw: Any, parts: int) -> str:
        try:
            return parse_key(raw, parts)[0].text
        except KeyError_:
            return str(raw)

    def button(self, value: Any) -> Button:
        if value is None:
            return Button()
        if isinstance(value, str):
            return Button(label=value)
        if not isinstance(value, Mapping):
            self.error(
                ("button",), f"button must be a mapping (label, placement), not {_type_name(value)}"
            )
            return Button()
        label = value.get("label", Button.label)
        if not isinstance(label, str):
            self.error(("button", "label"), "button: label must be text")
            label = Button.label
        placement = value.get("placement", Button.placement)
        if placement not in ("above", "below"):
            self.error(
                ("button", "placement"),
                f"button: placement must be above or below, not {placement!r}",
            )
            placement = Button.placement
        return Button(label, placement)

    def column_count(self, value: Any) -> int | None:
        if value is None:
            return None
        if not _is_int(value) or value < 1:
            self.error(
                ("column_count",),
                f"column_count must be a whole number of 1 or more, not {value!r}",
            )
            return None
        return int(value)


def read_authored(
    data: Any, positions: Mapping[Path, int] | None, kind: str
) -> tuple[dict[str, Any], list[Problem], LineMap]:
    """Read a fence body; return the model fields, the non-blocking problems, the line map.

    Raises:
        TableError: With every problem found, when something blocks building.
    """
    reader = _Reader(positions, kind)
    fields = reader.read(data)
    return fields, reader.problems, reader.line
