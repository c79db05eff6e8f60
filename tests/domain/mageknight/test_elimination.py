"""Eliminating a cavalry unit (MNT-55 … MNT-59, with A-MNT-11)."""

from __future__ import annotations

from .builders import TO_ACTION, cavalry, strip, warrior
from .conftest import Run

BLUE_TURN = [{"by": "red", "do": "end_turn"}, {"by": "blue", "do": "next_phase"}]
BLUE_FRONT = warrior("b1", "blue", x=10, y=11.75, facing=270)


def hit(target: str) -> dict[str, object]:
    """Blue's b1 hits `target` in close combat for 2 clicks."""
    return {"by": "blue", "do": "close_attack", "figure": "b1", "targets": [target],
            "dice": [6, 6]}


def boxed_in() -> list[dict[str, object]]:
    """Impassable strips around the mount's base at (10, 10), with a gap in front."""
    return [strip(8.5, 7, 9.375, 11.25, "left"), strip(10.625, 7, 11.5, 11.25, "right"),
            strip(9.375, 7.9, 10.625, 8.75, "rear")]


def test_mnt_55_mnt_56_mnt_57_a_mount_eliminated_first_leaves_its_rider_beside_it(
    run: Run,
) -> None:
    """MNT-55, MNT-56, MNT-57."""
    units = [*cavalry(click=3), BLUE_FRONT]

    result, state = run(units, [*BLUE_TURN, hit("m1")])

    r1, m1 = state.units["r1"], state.units["m1"]
    assert m1.status == "removed"
    assert r1.status == "on_table" and r1.mount is None
    assert result["steps"][-1]["rule"] == "MNT-56"
    assert "dismounted_rider" in result["state"]["units"]["r1"]["conditions"]


def test_mnt_58_with_no_room_for_the_rider_both_are_removed(run: Run) -> None:
    """MNT-58."""
    units = [*cavalry(click=3), BLUE_FRONT]

    result, state = run(units, [*BLUE_TURN, hit("m1")], terrain=boxed_in())

    assert state.units["r1"].status == "removed" and state.units["m1"].status == "removed"
    assert result["steps"][-1]["rule"] == "MNT-58"


def test_mnt_59_eliminating_the_rider_removes_the_units_action_tokens(run: Run) -> None:
    """MNT-59."""
    units = [*cavalry(rider_extra={"click": 3}), BLUE_FRONT]
    units[0]["y"] = 9.5
    steps = [TO_ACTION, {"by": "red", "do": "move", "figure": "m1", "path": [[10, 10]]},
             *BLUE_TURN, hit("r1")]

    result, state = run(units, steps)

    assert result["steps"][1]["accepted"] and result["steps"][-1]["accepted"]
    assert state.units["r1"].status == "removed"
    assert state.units["m1"].tokens == 0


def test_a_mnt_11_a_mount_whose_rider_is_eliminated_stays_riderless(run: Run) -> None:
    units = [*cavalry(rider_extra={"click": 3}), BLUE_FRONT]

    result, state = run(units, [*BLUE_TURN, hit("r1")])

    assert state.units["m1"].status == "on_table" and state.units["m1"].rider is None
    assert "riderless" in result["state"]["units"]["m1"]["conditions"]
