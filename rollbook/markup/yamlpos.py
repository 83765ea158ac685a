"""Load a fence's YAML body and remember the line of every key and item.

``positions`` maps a key path (a tuple of mapping keys and list indexes, ``()`` for the
root) to the 1-based line in the page, which is what ``rollbook.engine.tables`` takes. PyYAML keeps
the last of two equal keys silently; here a repeated key is reported instead.
"""

from __future__ import annotations

from typing import Any

import yaml

from rollbook.engine.located import LocatedError, Problem
from rollbook.markup.yamlsize import YamlSizeError, check_size

__all__ = ["YamlProblem", "load_mapping", "load_with_positions"]

Path = tuple[Any, ...]

# libyaml's loader builds the same nodes and data about ten times faster (most of a table's
# build time was YAML); it is absent where PyYAML was built without libyaml.
_FAST_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class YamlProblem(LocatedError):
    """The body is not the YAML we need; ``line`` is 1-based in the page."""


def load_with_positions(text: str, first_line: int = 1) -> tuple[Any, dict[Path, int]]:
    """Parse ``text`` (its first line is page line ``first_line``) safely.

    Returns:
        The data (as ``yaml.safe_load`` gives it) and the positions of every key path.

    Raises:
        YamlProblem: on a syntax error (at the YAML mark's line), a repeated key, or a body
            over a YAML limit (`rollbook.markup.yamlsize`), checked before any data is built.
    """
    try:
        check_size(text, first_line)
    except YamlSizeError as err:
        raise YamlProblem(err.line, err.message) from None
    if _FAST_LOADER is not yaml.SafeLoader:
        try:
            return _load(_FAST_LOADER, text, first_line)
        except YamlProblem:
            pass  # described again by the pure-Python loader, whose messages we quote
    return _load(yaml.SafeLoader, text, first_line)


def _load(
    loader_class: type[yaml.SafeLoader], text: str, first_line: int
) -> tuple[Any, dict[Path, int]]:
    loader = loader_class(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None, {}
        data = loader.construct_document(node)
        positions: dict[Path, int] = {}
        _walk(loader, node, (), positions, first_line)
        return data, positions
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        line = first_line + (mark.line if mark else 0)
        what = err.problem or err.context or "it is not valid YAML"
        raise YamlProblem(line, f"the YAML body does not parse: {what}.") from None
    except yaml.YAMLError as err:
        raise YamlProblem(first_line, f"the YAML body does not parse: {err}.") from None
    finally:
        loader.dispose()


def _walk(
    loader: yaml.SafeLoader, node: yaml.Node, path: Path, out: dict[Path, int], first: int
) -> None:
    out.setdefault(path, first + node.start_mark.line)
    if isinstance(node, yaml.MappingNode):
        seen: dict[Any, int] = {}
        for key_node, value_node in node.value:
            try:
                key = loader.construct_object(key_node, deep=True)
                hash(key)
            except (yaml.YAMLError, TypeError):
                continue
            line = first + key_node.start_mark.line
            if key in seen:
                where = ".".join(str(p) for p in (*path, key))
                raise YamlProblem(
                    line, f"the key {where!r} appears twice (lines {seen[key]} and {line})."
                )
            seen[key] = line
            out[(*path, key)] = line
            _walk(loader, value_node, (*path, key), out, first)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _walk(loader, item, (*path, index), out, first)


def load_mapping(
    body: str, line: int, needs: str, problems: list[Problem]
) -> tuple[dict[Any, Any], dict[tuple[Any, ...], int]] | None:
    """A fence body that must be a YAML mapping, with its positions; None after a problem.

    Args:
        body: The fence's body; its first line is page line ``line + 1``.
        line: The fence's opening line.
        needs: What the mapping holds, for the message (``'system' and 'sides'``).
        problems: Where the problem goes when the body is not such a mapping.
    """
    try:
        data, positions = load_with_positions(body, line + 1)
    except YamlProblem as err:
        problems.append(err.problem)
        return None
    if not isinstance(data, dict):
        what = "empty" if data is None else f"a {type(data).__name__}"
        problems.append(
            Problem(line, f"the body must be a YAML mapping with {needs}, but it is {what}.")
        )
        return None
    return data, positions
