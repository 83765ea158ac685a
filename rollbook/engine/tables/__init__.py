"""Random tables: ``roll-table`` and ``roll-list`` models, lookup, odds, rolling, validation.

Input is the fence's YAML as a plain dict (the Markdown side parses it and renders cell
texts to inline HTML) plus the line of each key path; no yaml or markdown import here.

    table, problems = check(data, positions)          # build + validate, never raises
    table = Table.from_dict(data, positions)          # raises TableError
    table.roll(random.Random(seed), {"bonus": 2})     # -> TableRoll
    table.probabilities()                             # exact Fraction per row
    Table.from_dict(table.to_dict()) == table         # the browser's payload
"""

from rollbook.engine.tables.keys import Key, parse_key, value_text
from rollbook.engine.tables.model import RollList, Table
from rollbook.engine.tables.parts import Button, Prompt, Row, Tab, TableRoll
from rollbook.engine.tables.problems import ERROR, WARNING, Problem, TableError
from rollbook.engine.tables.prompt_value import (
    MAX_PROMPT_MAGNITUDE,
    PromptError,
    prompt_bounds,
    prompt_value,
)
from rollbook.engine.tables.template import DEFAULT_RESULT_TEXT, humanize
from rollbook.engine.tables.validate import MAX_COMBINATIONS, check, describe_values, validate

__all__ = [
    "DEFAULT_RESULT_TEXT",
    "ERROR",
    "MAX_COMBINATIONS",
    "MAX_PROMPT_MAGNITUDE",
    "WARNING",
    "Button",
    "Key",
    "Problem",
    "Prompt",
    "PromptError",
    "RollList",
    "Row",
    "Tab",
    "Table",
    "TableError",
    "TableRoll",
    "check",
    "describe_values",
    "humanize",
    "parse_key",
    "prompt_bounds",
    "prompt_value",
    "validate",
    "value_text",
]
