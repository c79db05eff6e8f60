"""Allies of Nature, the Wylden army ability (MNT-131 … MNT-133)."""

from __future__ import annotations

import pytest

from .builders import warrior
from .conftest import Facts, Run

THICKET = {"id": "thicket", "kind": "hindering",
           "polygon": [[8, 14], [12, 14], [12, 16], [8, 16]]}
WOOD = {"id": "wood", "kind": "hindering", "polygon": [[7, 18], [13, 18], [13, 22], [7, 22]]}
TO_ACTION = {"by": "red", "do": "next_phase"}


def shoot(shooter: str, target: str = "b1") -> dict[str, object]:
    """A red ranged attack."""
    return {"by": "red", "do": "ranged_attack", "figure": shooter, "target": target,
            "dice": [1, 1]}


@pytest.mark.parametrize(("sub_faction", "defense"), [("wylden", 16), (None, 17)])
def test_mnt_131_its_line_of_fire_ignores_difficult_terrain(
    run: Run, facts: Facts, sub_faction: str | None, defense: int
) -> None:
    """MNT-131."""
    units = [warrior("a1", x=10, y=10, range=12, sub_faction=sub_faction),
             warrior("b1", "blue", x=10, y=20.5)]

    result, _ = run(units, [TO_ACTION, shoot("a1")], terrain=[THICKET])

    assert facts(result, "AttackResolved")[0].defense == defense


@pytest.mark.parametrize(("attack", "defense"), [("ranged", 16), ("close", 17)])
def test_mnt_132_its_ranged_targets_treat_difficult_terrain_as_clear(
    run: Run, facts: Facts, attack: str, defense: int
) -> None:
    """MNT-132."""
    units = [warrior("a1", x=10, y=10, range=12, sub_faction="wylden"),
             warrior("a2", x=10, y=19, facing=90, sub_faction="wylden"),
             warrior("b1", "blue", x=10, y=20, facing=270, sub_faction="wylden")]
    step = (shoot("a1") if attack == "ranged" else
            {"by": "red", "do": "close_attack", "figure": "a2", "targets": ["b1"],
             "dice": [1, 1]})

    result, _ = run(units, [TO_ACTION, step], terrain=[WOOD])

    assert facts(result, "AttackResolved")[0].defense == defense


@pytest.mark.parametrize(("y", "defense"), [(20, 17), (24.5, 16)])
def test_mnt_133_plus_1_defense_in_difficult_terrain(
    run: Run, facts: Facts, y: float, defense: int
) -> None:
    """MNT-133."""
    units = [warrior("a2", x=10, y=y - 1, facing=90),
             warrior("b1", "blue", x=10, y=y, facing=270, sub_faction="wylden")]
    step = {"by": "red", "do": "close_attack", "figure": "a2", "targets": ["b1"], "dice": [1, 1]}

    result, _ = run(units, [TO_ACTION, step], terrain=[WOOD])

    assert facts(result, "AttackResolved")[0].defense == defense
