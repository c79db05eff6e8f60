"""`domain.bounded.Bounded`: the eviction rule of the caches kept per process."""

from __future__ import annotations

from domain.bounded import Bounded


def test_the_oldest_entry_goes_first_and_a_recent_use_keeps_one() -> None:
    kept: Bounded[str, int] = Bounded(2)
    kept.keep("a", 1)
    kept.keep("b", 2)
    assert kept.recent("a") == 1  # "a" used now: "b" is the oldest
    assert kept.keep("c", 3) == 3
    assert list(kept.items()) == [("a", 1), ("c", 3)]
    assert kept.recent("b") is None and len(kept) == 2
