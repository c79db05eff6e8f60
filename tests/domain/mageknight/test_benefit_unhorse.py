"""Unhorse (MNT-101 … MNT-107)."""

from __future__ import annotations

from typing import Any

from .builders import TO_ACTION, cavalry, refused, strip, warrior
from .conftest import Run

LANCER = cavalry(benefits=["unhorse"], abilities=["flight"])
FOE = cavalry("m2", "r2", "blue", x=10, y=17.5, facing=270)
INTO_CONTACT = [[10, 15]]


def unhorse(die: int | None = None, path: Any = INTO_CONTACT, target: str = "m2",
            **extra: object) -> dict[str, object]:
    """Red's m1/r1 tries to unhorse blue's unit."""
    step = {"by": "red", "do": "unhorse", "figure": "m1", "path": path, "target": target,
            **extra}
    return {**step, "dice": [die]} if die is not None else step


def boxed_in_foe() -> list[dict[str, object]]:
    """Impassable strips on blue's mount's sides and rear."""
    return [strip(8.5, 16.25, 9.375, 20, "left"), strip(10.625, 16.25, 11.5, 20, "right"),
            strip(9.375, 18.75, 10.625, 19.6, "rear")]


def test_mnt_101_unhorse_needs_the_unit_out_of_contact(run: Run) -> None:
    """MNT-101."""
    units = [*LANCER, *FOE, warrior("b1", "blue", x=10, y=8.25)]

    result, state = run(units, [TO_ACTION, unhorse(6)])

    assert refused(result, "MNT-101")
    assert state.units["m1"].y == 10.0 and state.units["r2"].mount == "m2"


def test_mnt_102_unhorse_may_not_use_movement_abilities(run: Run) -> None:
    """MNT-102."""
    result, state = run([*LANCER, *FOE], [TO_ACTION, unhorse(6, use=["flight"])])

    assert refused(result, "MNT-102")
    assert state.units["m1"].y == 10.0 and state.units["r2"].mount == "m2"


def test_mnt_103_the_move_must_end_in_contact_with_an_opposing_cavalry_unit(run: Run) -> None:
    """MNT-103."""
    units = [*LANCER, *FOE, warrior("b1", "blue", x=14, y=16.75)]
    steps = [TO_ACTION, unhorse(6, path=[[10, 14]]),
             unhorse(6, path=[[14, 15]], target="b1")]

    result, state = run(units, steps)

    assert refused(result, "MNT-103", 1) and refused(result, "MNT-103", 2)
    assert result["steps"][1]["message"] == 'the move ends 1.00" from m2, not in base contact'
    assert result["steps"][2]["message"] == "b1 is not an opposing cavalry unit"
    assert state.units["m1"].y == 10.0


def test_mnt_104_mnt_105_mnt_106_d6_plus_the_rider_bonus_of_6_unhorses(run: Run) -> None:
    """MNT-104, MNT-105, MNT-106."""
    result, state = run([*LANCER, *FOE], [TO_ACTION, unhorse(5)])

    assert result["steps"][-1]["rule"] == "MNT-106", "5 + rider bonus 1 = 6"
    assert state.units["r2"].mount is None and state.units["m2"].rider is None
    assert "dismounted_rider" in result["state"]["units"]["r2"]["conditions"]
    assert state.units["r2"].status == "on_table"


def test_mnt_105_a_total_below_6_has_no_effect(run: Run) -> None:
    """MNT-105."""
    result, state = run([*LANCER, *FOE], [TO_ACTION, unhorse(4)])

    assert result["steps"][-1]["rule"] == "MNT-105"
    assert state.units["r2"].mount == "m2"
    assert state.units["m1"].y == 15.0, "the move still happened"


def test_mnt_104_a_bigger_rider_bonus_helps(run: Run) -> None:
    """MNT-104."""
    units = [*cavalry(benefits=["unhorse"], rider_extra={"rider_bonus": 3}), *FOE]

    _, state = run(units, [TO_ACTION, unhorse(3)])

    assert state.units["r2"].mount is None


def test_mnt_107_an_unhorsed_rider_with_no_room_is_eliminated(run: Run) -> None:
    """MNT-107."""
    result, state = run([*LANCER, *FOE], [TO_ACTION, unhorse(6)], terrain=boxed_in_foe())

    assert result["steps"][-1]["rule"] == "MNT-107"
    assert state.units["r2"].status == "removed"
    assert state.units["m2"].status == "on_table" and state.units["m2"].rider is None
