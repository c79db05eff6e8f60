"""`datafile.is_plain`: the INPUT checks' one-pass fast path answers as they do.

`is_plain(data)` is True only when `shape_problem`, `first_out_of_range` and
`first_unreadable` all find nothing (so skipping them changes no verdict and no
message), and it is True for every ordinary step's data (else it saves nothing).
"""

from __future__ import annotations

import math
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.datafile import (
    JSON_TYPES,
    MAX_DEPTH,
    MAX_TEXT,
    first_unreadable,
    is_plain,
    shape_problem,
)
from domain.limits import MAX_MAGNITUDE, first_out_of_range

LEAVES = (st.none() | st.booleans() | st.integers(min_value=-2**70, max_value=2**70)
          | st.floats(allow_nan=True, allow_infinity=True)
          | st.sampled_from([MAX_MAGNITUDE, -MAX_MAGNITUDE, MAX_MAGNITUDE + 1, 1e6 + 0.5])
          | st.text(max_size=8)
          | st.sampled_from(["\ud800", "é", "x" * MAX_TEXT, "x" * (MAX_TEXT + 1)]))
DATA = st.recursive(
    LEAVES,
    lambda inner: (st.lists(inner, max_size=4) | st.tuples(inner, inner)
                   | st.dictionaries(st.text(max_size=4) | st.sampled_from(["\udfff"]), inner,
                                     max_size=4)),
    max_leaves=20,
)


def checks_pass(data: Any, tuples: bool) -> bool:
    kinds = (*JSON_TYPES, tuple) if tuples else JSON_TYPES
    return (shape_problem(data, kinds=kinds) is None and first_out_of_range(data) is None
            and first_unreadable(data, "") is None)


@settings(max_examples=400, deadline=None)
@given(DATA, st.booleans())
def test_plain_is_exactly_the_checks_passing(data: Any, tuples: bool) -> None:
    """On data of exact JSON types (and tuples), `is_plain` is the three checks."""
    assert is_plain(data, tuples) == checks_pass(data, tuples)


def test_every_bound_is_the_checks_bound() -> None:
    deep: Any = "leaf"
    for _ in range(MAX_DEPTH):
        deep = [deep]
    assert is_plain(deep) and shape_problem(deep) is None
    assert not is_plain([deep]) and shape_problem([deep]) is not None
    assert is_plain({"a": MAX_MAGNITUDE, "b": -MAX_MAGNITUDE, "c": 1_000_000})
    assert not is_plain({"a": math.nextafter(MAX_MAGNITUDE, math.inf)})
    assert not is_plain({"a": 2**64})
    assert not is_plain({"a": math.nan})


def test_what_is_not_plain_is_left_to_the_checks() -> None:
    """Cycles, keys that are not text, other types: not plain (the checks say why)."""
    looped: list[Any] = []
    looped.append(looped)
    assert not is_plain(looped) and shape_problem(looped) is not None
    assert not is_plain({1: "x"}) and shape_problem({1: "x"}) is not None
    assert not is_plain({"a": b"bytes"})
    assert not is_plain({"a": (1, 2)}) and is_plain({"a": (1, 2)}, tuples=True)
    shared = [1, 2]
    assert is_plain({"a": shared, "b": shared})  # the same list twice is no cycle


def test_a_step_is_plain() -> None:
    step = {"do": "move", "by": "red", "unit": "u1", "path": [[1.5, 2.0], [3, 4]],
            "facing": 90, "note": "é", "flags": [True, None]}
    assert is_plain(step, tuples=True)
