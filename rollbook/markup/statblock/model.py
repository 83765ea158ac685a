"""A statblock fence as read and checked: what the card and ``combat`` blocks use."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rollbook.engine.located import Problem

__all__ = ["Problems", "StatBlock"]

Problems = list[Problem]


@dataclass
class StatBlock:
    """One statblock fence of a page, read and checked.

    Attributes:
        key: What ``combat`` blocks call it: its ``id``, else the slug of its name.
        line: The fence's opening line in the page.
        name: The name shown.
        system: The engine's `System` (``None`` if the system is unknown).
        fields: The stat-block fields as the author gave them (types checked).
        stats: The fields bound to the system's schema, defaults filled in (``None`` on errors).
        problems: What is wrong; the card is not built when there are any.
        notes: The ``notes`` text (inline Markdown), if any.
    """

    key: str
    line: int
    name: str
    system: Any = None
    fields: dict[str, Any] = field(default_factory=dict)
    stats: dict[str, Any] | None = None
    problems: Problems = field(default_factory=list)
    notes: str | None = None
    explicit_id: str | None = None
