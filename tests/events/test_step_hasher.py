"""`envelope.step_hasher` hashes every event as `chain_hash(hashed_body(...))` does,
to the byte (principle 7: the chain of a stored game never changes)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from hypothesis import given, settings
from hypothesis import strategies as st

from events.envelope import GENESIS_HASH, chain_hash, hashed_body, step_hasher

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-2**63, 2**63 - 1)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(st.uuids(), st.text(), st.integers(0, 2**31), st.integers(1, 2**31),
       st.text(), st.dictionaries(st.text(), JSON, max_size=5))
def test_each_event_hashes_as_its_body(game: UUID, stamp: str, step: int, version: int,
                                       prev: str, fact: dict[str, Any]) -> None:
    assert step_hasher(game, stamp, step)(version, prev, fact) == chain_hash(
        hashed_body(game, version, stamp, step, prev, fact))


def test_a_recorded_step() -> None:
    game = UUID("12345678-1234-5678-1234-567812345678")
    stamp = "2026-12-01T18:00:00.123456+00:00"
    fact = {"type": "StepTaken", "step": 3, "by": "red", "command": {"do": "next_phase"},
            "dice": None, "class_version": 1}
    assert step_hasher(game, stamp, 3)(7, GENESIS_HASH, fact) == chain_hash(
        hashed_body(game, 7, stamp, 3, GENESIS_HASH, fact))
