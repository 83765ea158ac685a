"""Walk operator chains without recursion: ``1+1+...+1`` is long, not deep.

The parser builds a chain of binary operators as nested ``BinOp`` nodes (left-nested for
``+ - * / %``, right-nested for ``**``), so a flat sum of 500 terms is a tree 500 levels
deep. Every walker (rolling, exact odds, averages, the rolled text) folds such chains with
:func:`fold`, an explicit stack, and recurses only where the notation really nests
(brackets, groups, calls), which the parser bounds by ``notation_depth``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["fold"]


def fold[N, V](
    root: N,
    split: Callable[[N], tuple[N, N] | None],
    leaf: Callable[[N], V],
    combine: Callable[[N, V, V], V],
) -> V:
    """Post-order fold of a binary tree, left operand before right, without recursion.

    Args:
        root: The tree.
        split: ``(left, right)`` of an inner node, None for a leaf.
        leaf: The value of a leaf (called in left-to-right order).
        combine: The value of an inner node from its operands' values.
    """
    values: list[V] = []
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        node, ready = stack.pop()
        if ready:
            right = values.pop()
            values.append(combine(node, values.pop(), right))
            continue
        parts = split(node)
        if parts is None:
            values.append(leaf(node))
            continue
        stack.extend(((node, True), (parts[1], False), (parts[0], False)))
    return values[0]
