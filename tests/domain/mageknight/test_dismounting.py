"""Dismounting (MNT-69 … MNT-78)."""

from __future__ import annotations

from .builders import TO_ACTION, cavalry, click, refused
from .conftest import Run
from .test_elimination import boxed_in

NEXT_RED_TURN = [{"by": "red", "do": "end_turn"}, {"by": "blue", "do": "end_turn"}, TO_ACTION]
MOVED = [TO_ACTION, {"by": "red", "do": "move", "figure": "m1", "path": [[10, 11]]},
         *NEXT_RED_TURN]


def dismount(at: tuple[float, float] | None = (11.125, 10)) -> dict[str, object]:
    """Red dismounts r1 from m1."""
    return {"by": "red", "do": "dismount", "figure": "m1", "at": list(at) if at else None}


def test_mnt_69_mnt_70_mnt_71_a_dismounted_rider_is_a_normal_warrior(run: Run) -> None:
    """MNT-69, MNT-70, MNT-71."""
    units = cavalry(dial=[click(speed=4)], rider_extra={"dial": [click(speed=7)]})
    steps = [TO_ACTION, dismount(),
             {"by": "red", "do": "move", "figure": "r1", "path": [[11.125, 16]]}]

    result, state = run(units, steps)

    assert result["steps"][2]["accepted"], "it moves 6\" with its own speed 7"
    assert state.units["r1"].mount is None and state.units["m1"].rider is None
    assert "dismounted_rider" in result["state"]["units"]["r1"]["conditions"]


def test_mnt_69_only_a_mount_with_a_rider_can_be_dismounted(run: Run) -> None:
    """MNT-69."""
    steps = [TO_ACTION, dismount(), {"by": "red", "do": "dismount", "figure": "m1"}]

    result, state = run(cavalry(), steps)

    assert refused(result, "MNT-69")
    assert state.actions_used == 1 and state.units["r1"].mount is None


def test_mnt_72_dismounting_is_a_special_action_of_the_unit(run: Run) -> None:
    """MNT-72."""
    steps = [TO_ACTION, {"by": "red", "do": "move", "figure": "m1", "path": [[10, 11]]},
             dismount((11.125, 11))]

    result, state = run(cavalry(), steps, options={"actions_per_turn": 3})

    assert refused(result, "MNT-36"), "the unit has had its action this turn"
    assert state.actions_used == 1


def test_mnt_73_mnt_74_no_token_is_given_and_all_tokens_come_off(run: Run) -> None:
    """MNT-73, MNT-74."""
    steps = [*MOVED, dismount((11.125, 11))]

    result, state = run(cavalry(), steps)

    assert result["steps"][-1]["accepted"]
    assert state.units["m1"].tokens == 0 and state.units["r1"].tokens == 0
    assert state.actions_used == 1


def test_mnt_75_mnt_76_the_rider_is_placed_in_contact_with_its_mount(run: Run) -> None:
    """MNT-75, MNT-76."""
    steps = [TO_ACTION, dismount((12, 10)), dismount((11.125, 10))]

    result, state = run(cavalry(), steps)

    assert refused(result, "MNT-76", 1)
    r1 = state.units["r1"]
    assert (r1.x, r1.y) == (11.125, 10.0)


def test_mnt_77_rider_and_mount_may_both_act_after_dismounting(run: Run) -> None:
    """MNT-77."""
    steps = [TO_ACTION, dismount(),
             {"by": "red", "do": "move", "figure": "r1", "path": [[12, 14]]},
             {"by": "red", "do": "move", "figure": "m1", "path": [[8, 6]]}]

    result, state = run(cavalry(), steps)

    assert all(s["accepted"] for s in result["steps"])
    assert state.units["r1"].tokens == 1 and state.units["m1"].tokens == 1


def test_mnt_78_with_no_room_beside_the_mount_there_is_no_dismount(run: Run) -> None:
    """MNT-78."""
    terrain = [*boxed_in(), {"id": "front", "kind": "impassable",
                             "polygon": [[9.375, 11.25], [10.625, 11.25], [10.625, 12],
                                         [9.375, 12]]}]
    steps = [TO_ACTION, dismount(None)]

    result, state = run(cavalry(), steps, terrain=terrain)

    assert refused(result, "MNT-78")
    assert state.units["r1"].mount == "m1"
