"""A least-recently-used cache bounded by the total size of what it holds, not by entries.

Supports and distributions range from a handful of values to ``odds_outcomes`` (200,000)
of them; a cache of a fixed number of entries could hold gigabytes of large ones. This one
keeps at most ``max_values`` values in all and never keeps a result larger than that.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sized

__all__ = ["SizedCache"]


class SizedCache[K, V: Sized]:
    """``cache(key, compute)``: the cached value of ``key``, else ``compute(key)`` (kept)."""

    def __init__(self, max_values: int) -> None:
        self.max_values = max_values
        self.held = 0
        self._items: OrderedDict[K, V] = OrderedDict()

    def __call__(self, key: K, compute: Callable[[K], V]) -> V:
        """The value of ``key``, computed by ``compute`` (and kept) on a miss."""
        if key in self._items:
            self._items.move_to_end(key)
            return self._items[key]
        result = compute(key)
        size = len(result)
        if size <= self.max_values:
            self._items[key] = result
            self.held += size
            while self.held > self.max_values:
                _, old = self._items.popitem(last=False)
                self.held -= len(old)
        return result

    def __len__(self) -> int:
        return len(self._items)
