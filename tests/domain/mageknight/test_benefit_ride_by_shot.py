"""Ride-by Shot (MNT-93 … MNT-96)."""

from __future__ import annotations

from .builders import TO_ACTION, cavalry, click, refused, warrior
from .conftest import Facts, Run

RIDER = cavalry(benefits=["ride_by_shot"], dial=[click(speed=7, attack=5)],
                rider_extra={"range": 8, "dial": [click(speed=2)]})
TARGET = warrior("b1", "blue", x=10, y=24)


def ride_by(path: list[list[float]], named: str = "m1") -> dict[str, object]:
    """Red's unit rides and shoots at b1."""
    return {"by": "red", "do": "ride_by_shot", "figure": named, "path": path, "target": "b1",
            "dice": [3, 3]}


def test_mnt_93_ride_by_shot_needs_the_unit_out_of_contact(run: Run) -> None:
    """MNT-93."""
    units = [*RIDER, TARGET, warrior("b2", "blue", x=10, y=8.25)]

    result, state = run(units, [TO_ACTION, ride_by([[10, 17]])])

    assert refused(result, "MNT-93")
    assert state.units["m1"].y == 10.0 and state.units["b1"].click == 0


def test_mnt_94_mnt_95_the_unit_moves_up_to_its_mounts_speed_then_shoots(
    run: Run, facts: Facts
) -> None:
    """MNT-94, MNT-95."""
    result, state = run([*RIDER, TARGET], [TO_ACTION, ride_by([[10, 17]])])

    assert state.units["m1"].y == 17.0 and state.units["r1"].y == 17.0
    assert facts(result, "AttackResolved")[0].target == "b1"


def test_mnt_95_the_move_is_limited_by_the_mounts_speed(run: Run) -> None:
    """MNT-95."""
    result, state = run([*RIDER, TARGET], [TO_ACTION, ride_by([[10, 18]])])

    assert refused(result, "CORE-MK-MOVE")
    assert result["steps"][-1]["message"] == 'the path is 8.00" long; speed is 7'
    assert state.units["m1"].y == 10.0


def test_mnt_96_the_shot_uses_the_riders_base(run: Run, facts: Facts) -> None:
    """MNT-96."""
    result, _ = run([*RIDER, TARGET], [TO_ACTION, ride_by([[10, 17]], named="m1")])

    resolved = facts(result, "AttackResolved")[0]
    assert (resolved.attacker, resolved.attack) == ("r1", 9 + 1)
