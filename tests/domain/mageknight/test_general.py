"""General (MNT-02): the normal rules apply to riders, mounts and cavalry units."""

from __future__ import annotations

import pytest

from .builders import TO_ACTION, cavalry, warrior
from .conftest import Facts, Run


@pytest.mark.parametrize(("dice", "hit"), [([3, 3], True), ([2, 3], False)])
def test_mnt_02_a_cavalry_attack_follows_the_core_2d6_rule(
    run: Run, facts: Facts, dice: list[int], hit: bool
) -> None:
    """MNT-02: 2d6 + attack (9, +1 rider bonus) against defense 16."""
    units = [*cavalry(), warrior("b1", "blue", x=10, y=11.75, facing=270)]
    steps = [TO_ACTION, {"by": "red", "do": "close_attack", "figure": "r1", "targets": ["b1"],
                         "dice": dice}]

    result, state = run(units, steps)

    resolved = facts(result, "AttackResolved")[0]
    assert resolved.hit is hit
    assert state.units["b1"].click == (2 if hit else 0)
