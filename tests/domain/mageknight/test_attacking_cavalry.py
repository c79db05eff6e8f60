"""Attacking a cavalry unit, and its damage (MNT-46 … MNT-51)."""

from __future__ import annotations

import pytest

from .builders import cavalry, refused, warrior
from .conftest import Facts, Run

BLUE_TURN = [{"by": "red", "do": "end_turn"}, {"by": "blue", "do": "next_phase"}]


@pytest.mark.parametrize(("named", "other"), [("r1", "m1"), ("m1", "r1")])
def test_mnt_46_the_attacker_chooses_the_riders_or_the_mounts_base(
    run: Run, named: str, other: str
) -> None:
    """MNT-46."""
    units = [*cavalry(), warrior("b1", "blue", x=10, y=11.75, facing=270)]
    steps = [*BLUE_TURN, {"by": "blue", "do": "close_attack", "figure": "b1",
                          "targets": [named], "dice": [6, 6]}]

    _, state = run(units, steps)

    assert state.units[named].click == 2
    assert state.units[other].click == 0


@pytest.mark.parametrize(("pillar", "blocked"), [((12, 12), True), ((12.6, 11.4), False)])
def test_mnt_47_line_of_fire_to_a_cavalry_unit_runs_to_its_mounts_centre(
    run: Run, pillar: tuple[float, float], blocked: bool
) -> None:
    """MNT-47: a pillar on the line to the mount's centre blocks, though the mount's
    front corner is in sight; a pillar beside that line does not."""
    x, y = pillar
    wall = {"id": "pillar", "kind": "blocking",
            "polygon": [[x - 0.2, y - 0.2], [x + 0.2, y - 0.2], [x + 0.2, y + 0.2],
                        [x - 0.2, y + 0.2]]}
    units = [*cavalry(), warrior("b1", "blue", x=14, y=14, facing=225, range=8)]
    steps = [*BLUE_TURN, {"by": "blue", "do": "ranged_attack", "figure": "b1", "target": "r1",
                          "dice": [6, 6]}]

    result, state = run(units, steps, terrain=[wall])

    assert refused(result, "CORE-MK-LOF") is blocked
    assert state.units["r1"].click == (0 if blocked else 2)


def test_mnt_48_mnt_49_bombard_damages_both_rider_and_mount_by_the_mounts_centre(
    run: Run, facts: Facts
) -> None:
    """MNT-48, MNT-49."""
    units = [*cavalry(), warrior("w1", x=11.5, y=10), warrior("far", x=14, y=10),
             warrior("b1", "blue", x=10, y=20, facing=270, range=12, abilities=["bombard"])]
    steps = [*BLUE_TURN, {"by": "blue", "do": "ranged_attack", "figure": "b1", "target": "w1",
                          "area": True, "dice": [6, 6]}]

    result, state = run(units, steps)

    assert sorted(a.target for a in facts(result, "AttackResolved")) == ["m1", "r1", "w1"]
    assert state.units["m1"].click == state.units["r1"].click == state.units["w1"].click == 2
    assert state.units["far"].click == 0


@pytest.mark.parametrize(("at", "facing", "bonus"), [((10, 8.25), 90, 1), ((10, 11.75), 270, 0)])
def test_mnt_50_the_rear_arc_bonus_uses_the_mounts_rear_arc(
    run: Run, facts: Facts, at: tuple[float, float], facing: float, bonus: int
) -> None:
    """MNT-50."""
    units = [*cavalry(), warrior("b1", "blue", x=at[0], y=at[1], facing=facing)]
    steps = [*BLUE_TURN, {"by": "blue", "do": "close_attack", "figure": "b1",
                          "targets": ["r1"], "dice": [1, 1]}]

    result, _ = run(units, steps)

    assert facts(result, "AttackResolved")[0].modifier == bonus


TRAMPLER = cavalry("m2", "r2", "blue", x=20, y=4, benefits=["trample"])
VICTIM = cavalry(x=20, y=9, facing=0)
TRAMPLE = {"by": "blue", "do": "trample", "figure": "m2", "to": [20, 12]}


@pytest.mark.parametrize(("takes", "hurt", "spared"), [("rider", "r1", "m1"),
                                                        ("mount", "m1", "r1")])
def test_mnt_51_the_units_controller_chooses_who_takes_pushing_damage(
    run: Run, takes: str, hurt: str, spared: str
) -> None:
    """MNT-51."""
    steps = [{"by": "red", "do": "choose_pushing", "figure": "r1", "takes": takes},
             *BLUE_TURN, TRAMPLE]

    result, state = run([*TRAMPLER, *VICTIM], steps)

    assert result["steps"][-1]["accepted"], result["steps"][-1]
    assert state.units[hurt].click == 1 and state.units[spared].click == 0


def test_mnt_51_only_the_controller_of_a_cavalry_unit_makes_the_choice(run: Run) -> None:
    """MNT-51."""
    units = [*VICTIM, warrior("w1")]
    steps = [{"by": "blue", "do": "choose_pushing", "figure": "m1", "takes": "rider"},
             {"by": "red", "do": "choose_pushing", "figure": "w1", "takes": "rider"}]

    result, _ = run(units, steps)

    assert refused(result, "CORE-OWNER", 0)
    assert refused(result, "MNT-51", 1)
