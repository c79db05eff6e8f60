"""A dict that keeps at most `size` entries, the oldest kept first to go: the one
eviction rule of the caches that must not grow with the games a process has seen."""

from __future__ import annotations

from collections import OrderedDict
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Bounded(OrderedDict[K, V]):
    """At most `size` entries; `keep` adds one (the newest) and drops the oldest.
    A cache that is least-recently-used rather than first-in-first-out marks a hit
    with `recent`."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def keep(self, key: K, value: V) -> V:
        """Keep `value` under `key` as the newest entry; the oldest go past `size`."""
        self[key] = value
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)
        return value

    def recent(self, key: K) -> V | None:
        """The value under `key`, marked as used now (None when not kept)."""
        if key not in self:
            return None
        self.move_to_end(key)
        return self[key]
