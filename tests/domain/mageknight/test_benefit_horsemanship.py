"""Horsemanship (MNT-90)."""

from __future__ import annotations

import pytest

from .builders import cavalry, warrior
from .conftest import Facts, Run


@pytest.mark.parametrize(("target", "modifier"), [("r2", -2), ("m2", 0)])
def test_mnt_90_ranged_attacks_at_the_riders_base_suffer_minus_2(
    run: Run, facts: Facts, target: str, modifier: int
) -> None:
    """MNT-90."""
    units = [*cavalry("m2", "r2", "blue", benefits=["horsemanship"]),
             warrior("w1", x=10, y=4, range=8)]
    steps = [{"by": "red", "do": "next_phase"},
             {"by": "red", "do": "ranged_attack", "figure": "w1", "target": target,
              "dice": [3, 3]}]

    result, _ = run(units, steps)

    assert facts(result, "AttackResolved")[0].modifier == modifier + 1, "+1: from the rear"


def test_mnt_90_close_attacks_at_the_rider_are_not_penalised(run: Run, facts: Facts) -> None:
    """MNT-90."""
    units = [*cavalry("m2", "r2", "blue", benefits=["horsemanship"]),
             warrior("w1", x=10, y=11.75, facing=270)]
    steps = [{"by": "red", "do": "next_phase"},
             {"by": "red", "do": "close_attack", "figure": "w1", "targets": ["r2"],
              "dice": [3, 3]}]

    result, _ = run(units, steps)

    assert facts(result, "AttackResolved")[0].modifier == 0
