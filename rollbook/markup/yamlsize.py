"""Bound the size of a YAML body before anything builds or walks its data.

PyYAML keeps an alias (``*name``) as a second reference to the anchored value, so a few
hundred bytes can stand for billions of values once anything walks the data (the billion
laughs). Its composers also recurse once per nesting level: libyaml's crashes the process
and the pure-Python one raises ``RecursionError`` on deep enough input.

:func:`check_size` reads only the parser's event stream (no data is built) and counts, for
every anchor, how many values it stands for, so an alias costs one addition however much it
names. It stops at the first event past a limit of `rollbook.engine.limits` (``yaml_nodes``,
``yaml_depth``), which also keeps libyaml's per-level bookkeeping small. Whole numbers too
long for ``int()`` (``yaml_number_digits``) are refused here as well.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from rollbook.engine.limits import value
from rollbook.engine.located import LocatedError

__all__ = ["YamlSizeError", "check_size", "read_mapping"]

_FAST_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class YamlSizeError(LocatedError):
    """The body is over a limit; ``line`` is 1-based in the file or page."""


def check_size(text: str, first_line: int = 1) -> None:
    """Raise `YamlSizeError` if ``text`` (first line = ``first_line``) is over a YAML limit.

    Syntax errors are left to the loader that runs next: it describes them better.
    """
    max_nodes, max_depth = value("yaml_nodes"), value("yaml_depth")
    max_digits = value("yaml_number_digits")
    sizes: dict[str, int] = {}  # anchor -> values it stands for
    open_: list[tuple[str | None, int]] = []  # (anchor, count when the collection opened)
    count = 0
    try:
        for event in yaml.parse(text, Loader=_FAST_LOADER):
            if isinstance(event, yaml.AliasEvent):
                if any(anchor == event.anchor for anchor, _ in open_):
                    raise YamlSizeError(
                        _line(event, first_line),
                        f"the alias *{event.anchor} stands for the list or mapping it is "
                        "part of, so the value would never end.",
                    )
                count += sizes.get(event.anchor or "", 1)
            elif isinstance(event, yaml.ScalarEvent):
                count += 1
                if event.anchor:
                    sizes[event.anchor] = 1
                if not event.style and len(event.value) > max_digits:
                    _check_number(event, first_line, max_digits)
            elif isinstance(event, yaml.CollectionStartEvent):
                count += 1
                open_.append((event.anchor, count))
                if len(open_) > max_depth:
                    raise YamlSizeError(
                        _line(event, first_line),
                        f"the YAML nests lists and mappings more than {max_depth} levels deep "
                        "(the yaml_depth limit).",
                    )
            elif isinstance(event, yaml.CollectionEndEvent) and open_:
                anchor, start = open_.pop()
                if anchor:
                    sizes[anchor] = count - start + 1
            if count > max_nodes:
                raise YamlSizeError(
                    _line(event, first_line),
                    f"the YAML stands for more than {max_nodes} values once every alias "
                    "(*name) is counted as a copy of what it names (the yaml_nodes limit).",
                )
    except yaml.YAMLError:
        return


# A plain scalar PyYAML reads as a whole number (YAML 1.1: signs, underscores, base 60). Its
# int() refuses more than a few thousand digits with a ValueError, not a YAML error.
_WHOLE = re.compile(r"[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])*")


def _check_number(event: yaml.ScalarEvent, first_line: int, max_digits: int) -> None:
    if _WHOLE.fullmatch(event.value):
        raise YamlSizeError(
            _line(event, first_line),
            f"a number here has more than {max_digits} digits (the yaml_number_digits limit).",
        )


def _line(event: yaml.Event, first_line: int) -> int:
    mark = event.start_mark
    return first_line + (mark.line if mark is not None else 0)


def read_mapping(
    path: Path, loader: type[yaml.SafeLoader], refused: type[ValueError]
) -> dict[str, Any]:
    """The mapping of settings in the YAML file ``path`` ({} when empty), under the YAML limits.

    Both readers of a config (`rollbook.mkdocs_plugin.safe_config` and
    `rollbook.hosts.derived_config`) read a file this way; each brings the loader that
    decides what its tags become.

    Raises:
        ValueError: as ``refused``, in one sentence naming the file (and line): the file
            cannot be read, is over a YAML limit, is not YAML, or holds no mapping.
    """
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as err:
        raise refused(f"{path}: cannot be read ({type(err).__name__}).") from None
    try:
        check_size(text)
        data = yaml.load(text, Loader=loader)  # a SafeLoader subclass: nothing runs
    except YamlSizeError as err:
        raise refused(f"{path}:{err.line}: {err.message}") from None
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        line = f":{mark.line + 1}" if mark is not None else ""
        raise refused(f"{path}{line}: not valid YAML ({err.problem or err.context}).") from None
    except yaml.YAMLError as err:
        raise refused(f"{path}: not valid YAML ({err}).") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise refused(f"{path}: the config must be a mapping of settings.")
    return data
