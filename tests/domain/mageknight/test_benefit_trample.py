"""Trample (MNT-108 … MNT-114)."""

from __future__ import annotations

from .builders import TO_ACTION, cavalry, refused, warrior
from .conftest import Facts, Run

TRAMPLER = cavalry(y=4, benefits=["trample"], abilities=["double_move"])
CROWD = [warrior("b1", "blue", x=10, y=8), warrior("w1", x=10.9, y=10),
         warrior("bird", "blue", x=9.2, y=6, abilities=["flight"]),
         warrior("aside", "blue", x=13, y=8)]


def trample(to: tuple[float, float], **extra: object) -> dict[str, object]:
    """Red's m1 tramples to `to`."""
    return {"by": "red", "do": "trample", "figure": "m1", "to": list(to), **extra}


def test_mnt_108_a_flying_unit_cannot_trample(run: Run) -> None:
    """MNT-108."""
    units = cavalry(y=4, benefits=["trample"], abilities=["flight"])

    result, state = run(units, [TO_ACTION, trample((10, 12))])

    assert refused(result, "MNT-108")
    assert state.units["m1"].y == 4.0


def test_mnt_108_a_unit_on_elevated_terrain_cannot_trample(run: Run) -> None:
    """MNT-108."""
    hill = {"id": "hill", "kind": "elevated", "polygon": [[5, 0], [15, 0], [15, 6], [5, 6]]}

    result, state = run(TRAMPLER, [TO_ACTION, trample((10, 12))], terrain=[hill])

    assert refused(result, "MNT-108")
    assert state.units["m1"].y == 4.0


def test_mnt_109_trample_may_not_use_double_move(run: Run) -> None:
    """MNT-109."""
    result, state = run([*TRAMPLER, *CROWD], [TO_ACTION, trample((10, 12), use=["double_move"])])

    assert refused(result, "MNT-109")
    assert state.units["m1"].y == 4.0 and state.units["b1"].click == 0


def test_mnt_110_mnt_111_trample_goes_straight_through_the_front_arc(run: Run) -> None:
    """MNT-110, MNT-111."""
    result, state = run(TRAMPLER, [TO_ACTION, trample((10, 1))])

    assert refused(result, "MNT-111")
    assert state.units["m1"].y == 4.0


def test_mnt_112_mnt_113_trample_passes_over_bases_a_move_may_not(run: Run) -> None:
    """MNT-112, MNT-113."""
    steps = [TO_ACTION, {"by": "red", "do": "move", "figure": "m1", "path": [[10, 12]]},
             trample((10, 12))]

    result, state = run([*TRAMPLER, *CROWD], steps)

    assert refused(result, "CORE-MK-MOVE", 1)
    assert result["steps"][2]["accepted"]
    m1 = state.units["m1"]
    assert (m1.x, m1.y, m1.facing) == (10.0, 12.0, 90.0)


def test_mnt_114_each_ground_figure_passed_over_takes_1_pushing_damage(
    run: Run, facts: Facts
) -> None:
    """MNT-114."""
    result, state = run([*TRAMPLER, *CROWD], [TO_ACTION, trample((10, 12))])

    damaged = {f.figure: f for f in facts(result, "FigureDamaged")}
    assert sorted(damaged) == ["b1", "w1"], "friend and foe alike; not the flyer nor aside"
    assert all(f.pushing and f.clicks == 1 for f in damaged.values())
    assert state.units["bird"].click == 0 and state.units["aside"].click == 0


def test_a_mnt_30_trample_must_end_clear_of_other_bases(run: Run) -> None:
    result, state = run([*TRAMPLER, *CROWD], [TO_ACTION, trample((10, 9))])

    assert refused(result, "CORE-MK-MOVE")
    assert state.units["m1"].y == 4.0 and state.units["b1"].click == 0
