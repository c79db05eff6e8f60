"""Benefits in general (MNT-87, MNT-88) and Charge (MNT-97 … MNT-100)."""

from __future__ import annotations

import pytest

from .builders import TO_ACTION, cavalry, click, refused, warrior
from .conftest import Facts, Run

CHARGER = cavalry(benefits=["charge"], dial=[click(speed=6, attack=7)],
                  rider_extra={"dial": [click(speed=10)]})
FOE = warrior("b1", "blue", x=10, y=16.75, facing=270)


def charge(path: list[list[float]], named: str = "r1", **extra: object) -> dict[str, object]:
    """Red's m1/r1 charges b1."""
    return {"by": "red", "do": "charge", "figure": named, "path": path, "targets": ["b1"],
            "dice": [3, 3], **extra}


def test_mnt_87_charge_moves_and_attacks_in_one_action(run: Run) -> None:
    """MNT-87."""
    result, state = run([*CHARGER, FOE], [TO_ACTION, charge([[10, 15]])])

    assert result["steps"][-1]["events"][:5] == [
        "StepTaken", "ActionAssigned", "FigureMoved", "RiderCarried", "DiceRolled"]
    assert state.actions_used == 1 and state.units["m1"].y == 15.0
    assert state.units["r1"].y == 15.0  # MNT-16: the mount carried its rider


def test_mnt_88_only_abilities_of_the_assigned_action_may_be_used(run: Run) -> None:
    """MNT-88."""
    units = [*cavalry(benefits=["charge"], abilities=["flight"]), FOE]

    result, state = run(units, [TO_ACTION, charge([[10, 15]], use=["flight"])])

    assert refused(result, "MNT-88")
    assert state.units["m1"].y == 10.0 and state.units["b1"].click == 0


def test_mnt_97_charge_needs_the_unit_out_of_contact_when_assigned(run: Run) -> None:
    """MNT-97."""
    units = [*CHARGER, FOE, warrior("b2", "blue", x=10, y=8.25)]

    result, state = run(units, [TO_ACTION, charge([[10, 15]])])

    assert refused(result, "MNT-97")
    assert "in base contact with opposing b2" in result["steps"][-1]["message"]
    assert state.units["m1"].y == 10.0 and state.actions_used == 0


def test_mnt_97_a_unit_without_the_benefit_cannot_charge(run: Run) -> None:
    """MNT-97."""
    result, state = run([*cavalry(), FOE], [TO_ACTION, charge([[10, 15]])])

    assert refused(result, "CORE-MK-NO-BENEFIT")
    assert state.units["m1"].y == 10.0


def test_mnt_98_mnt_99_the_charge_move_uses_the_mounts_speed(run: Run) -> None:
    """MNT-98, MNT-99."""
    units = [*CHARGER, warrior("b1", "blue", x=10, y=18.75, facing=270)]

    result, state = run(units, [TO_ACTION, charge([[10, 17]])])

    assert refused(result, "CORE-MK-MOVE"), "7\" is beyond the mount's speed 6"
    assert state.units["m1"].y == 10.0


@pytest.mark.parametrize(("named", "attack"), [("r1", 9 + 1), ("m1", 7)])
def test_mnt_100_the_charge_attack_uses_the_base_chosen(
    run: Run, facts: Facts, named: str, attack: int
) -> None:
    """MNT-100."""
    result, _ = run([*CHARGER, FOE], [TO_ACTION, charge([[10, 15]], named)])

    resolved = facts(result, "AttackResolved")[0]
    assert (resolved.attacker, resolved.attack) == (named, attack)
