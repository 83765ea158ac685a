"""The inline processor of a feature a page may turn off (``prose_dice``, ``obsidian``).

`FeatureInlineProcessor` holds what the plain inline readers share: the page's state, the
compiled pattern they match, and declining every match while the page has the feature off;
a subclass reads a match in `FeatureInlineProcessor.read`.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree
from typing import TYPE_CHECKING, ClassVar

from markdown.inlinepatterns import InlineProcessor

if TYPE_CHECKING:
    from rollbook.markup.page_state import PageState

__all__ = ["Claim", "FeatureInlineProcessor"]

#: What Python-Markdown takes from an inline processor: the element (or stashed HTML) and
#: where the match starts and ends; ``(None, None, None)`` declines it.
type Claim = tuple[etree.Element | str | None, int | None, int | None]


class FeatureInlineProcessor(InlineProcessor):
    """An inline processor that runs only where its page feature (``FEATURE``) is on.

    Subclasses set ``FEATURE`` (a key of `rollbook.markup.page_state.FEATURES`) and
    ``PATTERN``, and implement `read`.
    """

    FEATURE: ClassVar[str]
    PATTERN: ClassVar[re.Pattern[str]]

    def __init__(self, state: PageState) -> None:
        super().__init__(self.PATTERN.pattern, state.md)
        self.compiled_re = self.PATTERN
        self.state = state

    def handleMatch(self, m: re.Match[str], data: str) -> Claim:  # type: ignore[override]
        """Decline while the page has the feature off; else what `read` makes of the match."""
        if not self.state.feature(self.FEATURE):
            return None, None, None
        return self.read(m, data)

    def read(self, m: re.Match[str], data: str) -> Claim:
        """The roll ``m`` stands for in ``data``, or ``(None, None, None)`` to leave it be."""
        raise NotImplementedError
