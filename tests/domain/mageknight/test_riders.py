"""Riders (MNT-10 … MNT-15): who may ride what, and the rider attack bonus."""

from __future__ import annotations

import pytest

from domain.errors import ScriptError

from .builders import TO_ACTION, cavalry, refused, warrior
from .conftest import Facts, Run


def test_mnt_10_mnt_14_the_rider_bonus_adds_to_a_mounted_riders_close_attack(
    run: Run, facts: Facts
) -> None:
    """MNT-10, MNT-14."""
    units = [*cavalry(), warrior("b1", "blue", x=10, y=11.75, facing=270)]
    steps = [TO_ACTION,
             {"by": "red", "do": "close_attack", "figure": "r1", "targets": ["b1"], "dice": [4, 4]}]

    result, state = run(units, steps)

    attack = facts(result, "AttackResolved")[0]
    assert attack.attack == 9 + 1
    assert attack.hit and state.units["b1"].click == 2


def test_mnt_15_the_rider_bonus_applies_to_ranged_attacks_too(run: Run, facts: Facts) -> None:
    """MNT-15."""
    units = [*cavalry(rider_extra={"range": 8}), warrior("b2", "blue", x=10, y=16)]
    steps = [TO_ACTION,
             {"by": "red", "do": "ranged_attack", "figure": "r1", "target": "b2", "dice": [1, 1]}]

    result, _ = run(units, steps)

    assert facts(result, "AttackResolved")[0].attack == 10


def test_mnt_14_a_dismounted_rider_attacks_without_its_bonus(run: Run, facts: Facts) -> None:
    """MNT-14."""
    units = [*cavalry(), warrior("b1", "blue", x=12.125, y=10, facing=180)]
    steps = [TO_ACTION,
             {"by": "red", "do": "dismount", "figure": "m1", "at": [11.125, 10]},
             {"by": "red", "do": "close_attack", "figure": "r1", "targets": ["b1"], "dice": [4, 4]}]

    result, _ = run(units, steps)

    assert result["steps"][2]["accepted"], result["steps"][2]
    assert facts(result, "AttackResolved")[0].attack == 9


def test_mnt_11_a_warrior_without_mount_symbols_cannot_mount(run: Run) -> None:
    """MNT-11."""
    units = [*cavalry(), warrior("w1", x=10, y=8.25)]
    steps = [TO_ACTION,
             {"by": "red", "do": "dismount", "figure": "m1", "at": [11.125, 10]},
             {"by": "red", "do": "mount", "figure": "w1", "mount": "m1"}]

    result, state = run(units, steps)

    assert refused(result, "MNT-11")
    assert state.units["m1"].rider is None


def test_mnt_12_a_rider_must_carry_the_symbol_of_its_mounts_type(run: Run) -> None:
    """MNT-12."""
    units = cavalry(rider_extra={"rides": ["pegasus"]})

    with pytest.raises(ScriptError, match="MNT-12"):
        run(units, [])


def test_mnt_12_a_rider_may_carry_several_symbols(run: Run) -> None:
    """MNT-12."""
    units = cavalry(rider_extra={"rides": ["pegasus", "battle_horse"]})

    _, state = run(units, [])

    assert state.units["r1"].mount == "m1"
