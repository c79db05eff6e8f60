"""Cavalry units (MNT-16 … MNT-35): building them, what they cannot do, and
how rider and mount are one figure for contact, terrain and arcs."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import ScriptError
from domain.mageknight.figures import in_contact, is_cavalry, terrain_of

from .builders import TO_ACTION, cavalry, message, mount, refused, warrior
from .conftest import Facts, Run

BLUE_TURN = [{"by": "red", "do": "end_turn"}, {"by": "blue", "do": "next_phase"}]
MARSH = {"id": "marsh", "kind": "hindering", "polygon": [[6, 6], [14, 6], [14, 14], [6, 14]]}


def test_mnt_16_a_mount_and_its_rider_form_a_cavalry_unit(run: Run) -> None:
    """MNT-16."""
    _, state = run([*cavalry(), warrior("w1")], [])

    assert is_cavalry(state.units["m1"]) and is_cavalry(state.units["r1"])
    assert not is_cavalry(state.units["w1"])


def test_mnt_17_mnt_18_fielding_a_cavalry_unit_moves_the_rider_onto_its_mount(run: Run) -> None:
    """MNT-17, MNT-18."""
    units = cavalry(rider_extra={"x": 30, "y": 30, "facing": 0})

    _, state = run(units, [])

    r1 = state.units["r1"]
    assert (r1.x, r1.y, r1.facing, r1.mount) == (10.0, 10.0, 90.0, "m1")


def test_mnt_20_only_a_warrior_that_can_become_a_rider_leaves_its_base(run: Run) -> None:
    """MNT-20."""
    units = [mount(), warrior("r1")]

    with pytest.raises(ScriptError, match="MNT-20"):
        run(units, [])


@pytest.mark.parametrize("rider", [warrior("r1", "blue", rides=["battle_horse"]),
                                   mount("r1", None)])
def test_mnt_22_a_mount_comes_into_play_only_as_part_of_a_cavalry_unit(
    run: Run, rider: dict[str, Any]
) -> None:
    """MNT-22."""
    with pytest.raises(ScriptError, match="MNT-22"):
        run([mount(), rider], [])


def test_mnt_23_a_mount_cannot_be_put_into_play_without_a_rider(run: Run) -> None:
    """MNT-23."""
    with pytest.raises(ScriptError, match="MNT-23"):
        run([mount(rider_id=None)], [])


def test_mnt_24_both_point_values_count_toward_the_build_total(run: Run) -> None:
    """MNT-24."""
    units = [*cavalry(points=40, rider_extra={"points": 30}),
             warrior("b1", "blue", points=25)]

    result, _ = run(units, [])

    assert result["state"]["army_points"] == {"red": 70, "blue": 25}


@pytest.mark.parametrize("named", ["m1", "r1"])
def test_mnt_25_a_cavalry_unit_cannot_free_spin(run: Run, named: str) -> None:
    """MNT-25."""
    steps = [TO_ACTION, {"by": "red", "do": "free_spin", "figure": named, "facing": 0}]

    result, state = run(cavalry(), steps)

    assert refused(result, "MNT-25")
    assert state.units["m1"].facing == 90.0


def test_mnt_26_a_cavalry_unit_cannot_capture(run: Run) -> None:
    """MNT-26."""
    units = [*cavalry(), warrior("b1", "blue", x=10, y=11.75),
             warrior("w1", x=20, y=20), warrior("b2", "blue", x=21, y=20)]
    steps = [TO_ACTION,
             {"by": "red", "do": "capture", "figure": "r1", "target": "b1"},
             {"by": "red", "do": "capture", "figure": "w1", "target": "b2"}]

    result, state = run(units, steps)

    assert refused(result, "MNT-26", 1)
    assert result["steps"][2]["accepted"]
    assert state.units["b1"].status == "on_table" and state.units["b2"].status == "removed"


def test_mnt_27_a_cavalry_unit_cannot_be_captured(run: Run) -> None:
    """MNT-27."""
    units = [*cavalry(owner="blue"), warrior("w1", x=10, y=11.75)]
    steps = [TO_ACTION, {"by": "red", "do": "capture", "figure": "w1", "target": "m1"}]

    result, state = run(units, steps)

    assert refused(result, "MNT-27")
    assert state.units["m1"].status == "on_table"


def test_mnt_28_a_cavalry_unit_cannot_use_surge(run: Run) -> None:
    """MNT-28."""
    units = [*cavalry(rider_extra={"abilities": ["surge"]}, abilities=["surge"]),
             warrior("w1", abilities=["surge"])]
    steps = [TO_ACTION,
             {"by": "red", "do": "use_ability", "figure": "r1", "ability": "surge"},
             {"by": "red", "do": "use_ability", "figure": "w1", "ability": "surge"}]

    result, _ = run(units, steps)

    assert refused(result, "MNT-28", 1)
    assert result["steps"][2]["events"] == ["StepTaken", "AbilityUsed"]


@pytest.mark.parametrize(("ability", "clause"),
                         [("strong_flyer", "MNT-29"), ("magic_levitation", "MNT-30")])
def test_mnt_29_mnt_30_a_cavalry_unit_cannot_be_carried_or_levitated(
    run: Run, ability: str, clause: str
) -> None:
    """MNT-29, MNT-30."""
    units = [*cavalry(), warrior("f1", x=10, y=11.75, abilities=[ability]),
             warrior("w1", x=11, y=11.75)]
    steps = [TO_ACTION,
             {"by": "red", "do": "use_ability", "figure": "f1", "ability": ability,
              "target": "m1"},
             {"by": "red", "do": "use_ability", "figure": "f1", "ability": ability,
              "target": "w1"}]

    result, _ = run(units, steps)

    assert refused(result, clause, 1)
    assert result["steps"][2]["accepted"]


def test_mnt_31_a_mounted_wylden_rider_loses_its_sub_faction_ability(
    run: Run, facts: Facts
) -> None:
    """MNT-31."""
    units = [*cavalry(rider_extra={"sub_faction": "wylden"}),
             warrior("w1", x=8, y=12.5, sub_faction="wylden"),
             warrior("b1", "blue", x=10, y=11.75, facing=270),
             warrior("b2", "blue", x=8, y=13.5, facing=270)]
    steps = [*BLUE_TURN,
             {"by": "blue", "do": "close_attack", "figure": "b1", "targets": ["r1"],
              "dice": [1, 1]},
             {"by": "blue", "do": "close_attack", "figure": "b2", "targets": ["w1"],
              "dice": [1, 1]}]

    result, _ = run(units, steps, terrain=[MARSH])

    rider_defense, warrior_defense = (a.defense for a in facts(result, "AttackResolved"))
    assert rider_defense == 16
    assert warrior_defense == 17


def test_mnt_32_rider_and_mount_touch_and_move_as_one_figure(run: Run) -> None:
    """MNT-32."""
    steps = [TO_ACTION, {"by": "red", "do": "move", "figure": "m1", "path": [[10, 15]]}]

    _, state = run(cavalry(), steps)

    r1, m1 = state.units["r1"], state.units["m1"]
    assert in_contact(state, r1, m1)
    assert (r1.x, r1.y) == (m1.x, m1.y) == (10.0, 15.0)


def test_mnt_33_a_figure_touching_the_mount_touches_the_rider(run: Run) -> None:
    """MNT-33."""
    units = [*cavalry(), warrior("b1", "blue", x=10, y=8.25, facing=90)]
    steps = [*BLUE_TURN,
             {"by": "blue", "do": "close_attack", "figure": "b1", "targets": ["r1"],
              "dice": [6, 6]}]

    result, state = run(units, steps)

    assert in_contact(state, state.units["b1"], state.units["r1"])
    assert result["steps"][-1]["accepted"]
    assert state.units["r1"].click == 2


def test_mnt_34_rider_and_mount_are_in_the_same_terrain(run: Run) -> None:
    """MNT-34."""
    _, state = run(cavalry(), [], terrain=[MARSH])

    assert terrain_of(state, state.units["r1"]) == terrain_of(state, state.units["m1"])
    assert terrain_of(state, state.units["r1"]) == {"hindering"}


def test_mnt_35_poison_uses_the_mounts_front_arc(run: Run) -> None:
    """MNT-35."""
    units = [*cavalry(rider_extra={"abilities": ["poison"]}),
             warrior("ahead", "blue", x=10, y=11.75), warrior("behind", "blue", x=10, y=8.25)]
    steps = [{"by": "red", "do": "poison", "figure": "r1"}]

    result, state = run(units, steps)

    assert result["steps"][0]["accepted"]
    assert state.units["ahead"].click == 1 and state.units["behind"].click == 0


def test_mnt_35_sweep_reaches_only_figures_in_the_mounts_front_arc(run: Run) -> None:
    """MNT-35."""
    units = [*cavalry(rider_extra={"abilities": ["sweep"]}),
             warrior("left", "blue", x=9.5, y=11.75), warrior("right", "blue", x=10.5, y=11.75),
             warrior("behind", "blue", x=10, y=8.25)]
    sweep = {"by": "red", "do": "close_attack", "figure": "r1", "use": ["sweep"]}
    steps = [TO_ACTION, {**sweep, "targets": ["left", "behind"]},
             {**sweep, "targets": ["left", "right"], "dice": [6, 6]}]

    result, state = run(units, steps)

    assert refused(result, "MNT-45", 1)
    assert result["steps"][2]["accepted"]
    assert state.units["left"].click == 2 and state.units["right"].click == 2


SURGING = [*cavalry(benefits=["charge", "ride_by_shot", "unhorse", "trample"],
                    abilities=["surge"], rider_extra={"abilities": ["surge"], "range": 8}),
           *cavalry("m2", "r2", "blue", x=10, y=20, facing=270),
           warrior("b1", "blue", x=16, y=14, facing=180)]
ACTIONS_USING = [
    {"do": "move", "path": [[10, 14]]},
    {"do": "charge", "path": [[10, 12]], "targets": ["b1"]},
    {"do": "ride_by_shot", "path": [[10, 12]], "target": "b1"},
    {"do": "unhorse", "path": [[10, 16.25]], "target": "m2"},
    {"do": "trample", "to": [10, 14]},
    {"do": "close_attack", "targets": ["b1"]},
    {"do": "ranged_attack", "target": "b1"},
]


@pytest.mark.parametrize("named", ["m1", "r1"])
@pytest.mark.parametrize("action", ACTIONS_USING, ids=lambda a: str(a["do"]))
def test_mnt_28_no_action_of_a_cavalry_unit_may_use_surge(
    run: Run, named: str, action: dict[str, Any]
) -> None:
    """MNT-28: listing Surge in an action's `use` is refused like `use_ability`."""
    step = {"by": "red", "figure": named, "use": ["surge"], **action}

    result, state = run(SURGING, [TO_ACTION, step])

    assert refused(result, "MNT-28")
    assert message(result) == f"{named} is part of a cavalry unit, which cannot use Surge"
    assert state.actions_used == 0 and state.units["m1"].y == 10.0


def test_mnt_28_a_warrior_that_is_no_cavalry_may_move_with_surge(run: Run) -> None:
    """MNT-28 binds cavalry units only."""
    steps = [TO_ACTION, {"by": "red", "do": "move", "figure": "w1", "path": [[20, 24]],
                         "use": ["surge"]}]

    result, state = run([warrior("w1", abilities=["surge"])], steps)

    assert result["steps"][1]["accepted"]
    assert state.units["w1"].y == 24.0


WYLDEN_RIDER = cavalry(rider_extra={"sub_faction": "wylden", "abilities": ["allies_of_nature"]},
                       abilities=["allies_of_nature", "dark_alliance"])


@pytest.mark.parametrize(
    ("step", "ability"),
    [
        ({"do": "close_attack", "figure": "r1", "targets": ["b1"]}, "allies_of_nature"),
        ({"do": "move", "figure": "r1", "path": [[10, 8]]}, "allies_of_nature"),
        ({"do": "move", "figure": "m1", "path": [[10, 8]]}, "dark_alliance"),
    ],
)
def test_mnt_31_a_cavalry_units_action_may_not_use_a_sub_faction_ability(
    run: Run, step: dict[str, Any], ability: str
) -> None:
    """MNT-31: the mounted Wylden rider's Allies of Nature (A-MNT-37), or Dark
    Alliance on a unit that is not Dark Riders, named in `use`."""
    units = [*WYLDEN_RIDER, warrior("b1", "blue", x=10, y=11.75, facing=270)]

    result, state = run(units, [TO_ACTION, {"by": "red", "use": [ability], **step}])

    assert refused(result, "MNT-31")
    assert message(result) == (f"{step['figure']} is part of a cavalry unit, which cannot use "
                               f"the sub-faction ability {ability}")
    assert state.actions_used == 0 and state.units["b1"].click == 0


def test_mnt_31_mnt_124_dismounted_wylden_and_mounted_dark_riders_may_use_theirs(
    run: Run,
) -> None:
    """MNT-31 binds cavalry units only; MNT-124 frees Dark Riders riders."""
    units = [warrior("w1", x=20, y=20, sub_faction="wylden", abilities=["allies_of_nature"]),
             warrior("b1", "blue", x=20, y=21, facing=270),
             *cavalry("dm", "dr", x=5, y=5, sub_faction="dark_riders", collector="121b",
                      rider_extra={"sub_faction": "dark_riders", "collector": "121a",
                                   "rides": [], "abilities": ["dark_alliance"]}),
             warrior("b2", "blue", x=5, y=6.75, facing=270)]
    steps = [TO_ACTION,
             {"by": "red", "do": "close_attack", "figure": "w1", "targets": ["b1"],
              "use": ["allies_of_nature"], "dice": [6, 6]},
             {"by": "red", "do": "close_attack", "figure": "dr", "targets": ["b2"],
              "use": ["dark_alliance"], "dice": [6, 6]}]

    result, state = run(units, steps)

    assert result["steps"][1]["accepted"] and result["steps"][2]["accepted"]
    assert state.units["b1"].click == 2 and state.units["b2"].click == 2
