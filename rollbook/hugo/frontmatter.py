"""Hugo front matter: YAML (``---``), TOML (``+++``) or JSON (``{``), read and rewritten.

MkDocs reads YAML front matter only. A YAML block is kept byte for byte; TOML and JSON
become YAML holding the same values, padded to the same number of lines, so every line of
the page's body keeps its line number (the build's ``page:line`` then matches the source).
"""

from __future__ import annotations

import datetime
import json
import math
import re
import tomllib
from dataclasses import dataclass, field
from typing import Any

import yaml

from rollbook.engine.located import LocatedError
from rollbook.markup.yamlsize import YamlSizeError, check_size

__all__ = ["FrontMatter", "FrontMatterError", "read", "to_yaml_lines"]


class FrontMatterError(LocatedError):
    """Front matter that cannot be read: ``line`` in the page, ``message`` one clause."""


@dataclass
class FrontMatter:
    """A page's front matter: its format, its values and how many lines it takes."""

    kind: str  # "yaml", "toml", "json" or "" (none)
    meta: dict[str, Any] = field(default_factory=dict)
    lines: int = 0  # lines from the top of the page to the closing delimiter, included
    text: str = ""  # those lines, as written


def _close(lines: list[str], delimiter: str, ends: tuple[str, ...]) -> int:
    for index in range(1, len(lines)):
        if lines[index].rstrip() in ends:
            return index
    raise FrontMatterError(1, f"front matter opened with {delimiter} is never closed")


def _mapping(value: object, kind: str) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise FrontMatterError(1, f"{kind} front matter must be a set of key: value pairs")
    return value


def read(text: str) -> FrontMatter:
    r"""Split the front matter off ``text`` (a page with ``\\n`` line ends)."""
    lines = text.split("\n")
    first = lines[0].rstrip() if lines else ""
    if first == "---":
        end = _close(lines, "---", ("---", "..."))
        body = "\n".join(lines[1:end])
        try:
            check_size(body, first_line=2)
        except YamlSizeError as err:
            raise FrontMatterError(err.line, f"front matter: {err.message}") from None
        try:
            meta = yaml.safe_load(body)
        except yaml.YAMLError as err:
            mark = getattr(err, "problem_mark", None)
            line = mark.line + 2 if mark is not None else 1
            problem = getattr(err, "problem", None) or "it does not parse"
            raise FrontMatterError(line, f"the YAML front matter is broken ({problem})") from None
        meta = _mapping(meta, "YAML")
        _check_numbers(meta)
        return FrontMatter("yaml", meta, end + 1, "\n".join(lines[: end + 1]))
    if first == "+++":
        end = _close(lines, "+++", ("+++",))
        try:
            meta = tomllib.loads("\n".join(lines[1:end]))
        except (ValueError, RecursionError) as err:  # ValueError: a number too long to read
            if not isinstance(err, tomllib.TOMLDecodeError):
                raise FrontMatterError(1, _too_large(err)) from None
            found = re.search(r"\(at line (\d+), column \d+\)", str(err))
            line = int(found.group(1)) + 1 if found else max(1, end)  # else: at its end
            reason = re.sub(r"\s*\(at line.*\)$", "", str(err)) or "it does not parse"
            raise FrontMatterError(line, f"the TOML front matter is broken ({reason})") from None
        _check_numbers(meta)
        return FrontMatter("toml", meta, end + 1, "\n".join(lines[: end + 1]))
    if first.startswith("{"):
        try:
            value, end_index = json.JSONDecoder().raw_decode(text)
        except json.JSONDecodeError as err:
            raise FrontMatterError(
                err.lineno, f"the JSON front matter is broken ({err.msg})"
            ) from None
        except (ValueError, RecursionError) as err:
            raise FrontMatterError(1, _too_large(err)) from None
        meta = _mapping(value, "JSON")
        _check_numbers(meta)
        taken = text[:end_index]
        rest = text[end_index:]
        newline = rest.find("\n")
        if rest[: newline if newline >= 0 else len(rest)].strip():
            raise FrontMatterError(
                taken.count("\n") + 1, "text follows the JSON front matter on its line"
            )
        count = taken.count("\n") + 1
        return FrontMatter("json", meta, count, "\n".join(lines[:count]))
    return FrontMatter("")


def _too_large(err: Exception) -> str:
    if isinstance(err, RecursionError):
        return "the front matter nests lists and mappings too deeply to be read"
    return "the front matter holds a number too long to be read"


def _check_numbers(meta: dict[str, Any]) -> None:
    """Refuse whole numbers over ``yaml_number_digits`` digits anywhere in ``meta``."""
    from rollbook.engine.limits import value

    digits = value("yaml_number_digits")
    stack: list[object] = [meta]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, int) and item.bit_length() > digits * 3.33:
            raise FrontMatterError(
                1,
                f"the front matter holds a number of more than {digits} digits "
                "(the yaml_number_digits limit)",
            )


_BARE_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*\Z")
_YAML_WORDS = {"true", "false", "yes", "no", "on", "off", "null", "y", "n", "~"}


def _flow(value: object) -> str:
    """One-line YAML for a TOML/JSON value (reads back as the same value)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return ".nan"
        if math.isinf(value):
            return ".inf" if value > 0 else "-.inf"
        return repr(value)
    if isinstance(value, datetime.datetime | datetime.date):
        return value.isoformat()
    if isinstance(value, datetime.time):
        return json.dumps(value.isoformat())
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_key(k)}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    return json.dumps(str(value), ensure_ascii=False)


def _key(key: object) -> str:
    text = str(key)
    if _BARE_KEY.match(text) and text.lower() not in _YAML_WORDS:
        return text
    return json.dumps(text, ensure_ascii=False)


def to_yaml_lines(meta: dict[str, Any], lines: int) -> list[str]:
    """YAML front matter for ``meta``, padded with blank lines to ``lines`` lines if shorter."""
    body = [f"{_key(key)}: {_flow(value)}" for key, value in meta.items()]
    padding = max(0, lines - 2 - len(body))
    return ["---", *body, *([""] * padding), "---"]
