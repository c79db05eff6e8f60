"""Assigning actions to cavalry units (MNT-36 … MNT-45), on the core action
rules: actions per turn, one action per figure, tokens and pushing damage."""

from __future__ import annotations

import pytest

from .builders import TO_ACTION, cavalry, click, message, refused, warrior
from .conftest import Facts, Run

NEXT_RED_TURN = [{"by": "red", "do": "end_turn"}, {"by": "blue", "do": "end_turn"}, TO_ACTION]


def move(fid: str, to: tuple[float, float], **extra: object) -> dict[str, object]:
    """A red move action."""
    return {"by": "red", "do": "move", "figure": fid, "path": [list(to)], **extra}


def test_mnt_36_a_cavalry_unit_gets_one_action_per_turn(run: Run) -> None:
    """MNT-36."""
    units = [*cavalry(), warrior("w1")]
    steps = [TO_ACTION, move("m1", (10, 12)), move("r1", (10, 14)),
             move("w1", (20, 22)), move("w1", (20, 24))]

    result, state = run(units, steps)

    assert refused(result, "MNT-36", 2)
    assert refused(result, "CORE-MK-ONE-ACTION", 4)
    assert state.units["m1"].y == 12.0


def test_core_actions_per_turn_are_limited(run: Run) -> None:
    units = [warrior(f"w{i}", x=5 + 3 * i, y=20) for i in range(3)]
    steps = [TO_ACTION, *(move(f"w{i}", (5 + 3 * i, 21)) for i in range(2)),
             move("w2", (11, 21))]

    result, state = run(units, steps, options={"actions_per_turn": 2})

    assert refused(result, "CORE-MK-ACTIONS-PER-TURN")
    assert message(result) == "2 of 2 actions have been assigned this turn"
    assert state.units["w2"].y == 20.0 and state.actions_used == 2


def test_mnt_37_a_cavalry_unit_takes_no_pushing_damage_for_its_second_token(
    run: Run,
) -> None:
    """MNT-37."""
    units = [*cavalry(), warrior("w1")]
    steps = [TO_ACTION, move("m1", (10, 12)), move("w1", (20, 22)), *NEXT_RED_TURN,
             move("m1", (10, 14)), move("w1", (20, 24))]

    result, state = run(units, steps)

    assert result["steps"][-2]["rule"] == "MNT-37"
    assert state.units["m1"].tokens == 2
    assert state.units["m1"].click == 0 and state.units["r1"].click == 0
    assert state.units["w1"].click == 1, "a warrior's second token pushes it one click"


def test_core_a_figure_with_two_tokens_cannot_act(run: Run) -> None:
    steps = [TO_ACTION, move("m1", (10, 12)), *NEXT_RED_TURN, move("m1", (10, 14)),
             *NEXT_RED_TURN, move("m1", (10, 16))]

    result, state = run(cavalry(), steps)

    assert refused(result, "CORE-MK-TWO-TOKENS")
    assert message(result) == "m1 has 2 action tokens"
    assert state.units["m1"].y == 14.0


def test_core_tokens_come_off_figures_not_given_an_action(run: Run) -> None:
    steps = [TO_ACTION, move("m1", (10, 12)), *NEXT_RED_TURN, {"by": "red", "do": "end_turn"}]

    _, state = run(cavalry(), steps)

    assert state.units["m1"].tokens == 0


def test_mnt_38_a_cavalry_unit_moves_with_its_mounts_speed_only(run: Run) -> None:
    """MNT-38."""
    units = cavalry(dial=[click(speed=4)], rider_extra={"dial": [click(speed=10)]})
    steps = [TO_ACTION, move("r1", (10, 16)), move("r1", (10, 14))]

    result, state = run(units, steps)

    assert refused(result, "CORE-MK-MOVE", 1)
    assert state.units["m1"].y == 14.0


def test_mnt_38_a_cavalry_unit_moves_with_its_mounts_abilities_only(run: Run) -> None:
    """MNT-38."""
    units = [*cavalry(rider_extra={"abilities": ["flight"]}),
             *cavalry("m2", "r2", x=20, abilities=["flight"])]
    steps = [TO_ACTION, move("m1", (10, 12), use=["flight"]),
             move("m2", (20, 12), use=["flight"])]

    result, _ = run(units, steps)

    assert refused(result, "MNT-38", 1)
    assert result["steps"][2]["accepted"]


@pytest.mark.parametrize(("named", "attack"), [("m1", 7), ("r1", 9 + 1)])
def test_mnt_39_the_player_chooses_the_rider_or_the_mount_base_to_attack_with(
    run: Run, facts: Facts, named: str, attack: int
) -> None:
    """MNT-39."""
    units = [*cavalry(dial=[click(attack=7)]), warrior("b1", "blue", x=10, y=11.75)]
    steps = [TO_ACTION, {"by": "red", "do": "close_attack", "figure": named,
                         "targets": ["b1"], "dice": [3, 3]}]

    result, _ = run(units, steps)

    resolved = facts(result, "AttackResolved")[0]
    assert (resolved.attacker, resolved.attack) == (named, attack)


def test_mnt_40_the_mount_base_uses_only_the_mounts_abilities(run: Run) -> None:
    """MNT-40."""
    units = [*cavalry(rider_extra={"abilities": ["weapon_master"]}),
             warrior("b1", "blue", x=10, y=11.75)]
    attack = {"by": "red", "do": "close_attack", "targets": ["b1"], "use": ["weapon_master"]}
    steps = [TO_ACTION, {**attack, "figure": "m1"}, {**attack, "figure": "r1", "dice": [1, 1]}]

    result, _ = run(units, steps)

    assert refused(result, "MNT-40", 1)
    assert result["steps"][2]["accepted"]


def test_mnt_41_the_rider_base_uses_the_riders_items_abilities(run: Run) -> None:
    """MNT-41."""
    units = [*cavalry(rider_extra={"items": ["axe"]}), *cavalry("m2", "r2", x=20),
             warrior("b1", "blue", x=10, y=11.75), warrior("b2", "blue", x=20, y=11.75)]
    options = {"items": [{"id": "axe", "ability": "weapon_master", "carried_by": "r1"}]}
    attack = {"by": "red", "do": "close_attack", "use": ["weapon_master"], "dice": [1, 1]}
    steps = [TO_ACTION, {**attack, "figure": "r1", "targets": ["b1"]},
             {**attack, "figure": "r2", "targets": ["b2"]}]

    result, _ = run(units, steps, options=options)

    assert result["steps"][1]["accepted"]
    assert refused(result, "MNT-41", 2)


def test_mnt_42_mnt_43_a_rider_drops_and_picks_up_items_while_mounted(run: Run) -> None:
    """MNT-42, MNT-43."""
    units = cavalry(rider_extra={"items": ["axe"]})
    options = {"items": [{"id": "axe", "ability": "weapon_master", "carried_by": "r1"}]}
    steps = [TO_ACTION,
             {"by": "red", "do": "drop_item", "figure": "r1", "item": "axe", "at": [11, 10]},
             {"by": "red", "do": "pick_up_item", "figure": "r1", "item": "axe"}]

    result, state = run(units, steps, options=options)

    assert [s["events"][-1] for s in result["steps"][1:]] == ["ItemDropped", "ItemPickedUp"]
    assert state.units["r1"].items == ["axe"]


def test_mnt_44_the_item_must_touch_the_mounts_base(run: Run) -> None:
    """MNT-44."""
    units = cavalry(rider_extra={"items": ["axe"]})
    options = {"items": [{"id": "axe", "carried_by": "r1"},
                         {"id": "shield", "x": 13, "y": 10}]}
    steps = [TO_ACTION,
             {"by": "red", "do": "drop_item", "figure": "r1", "item": "axe", "at": [13, 13]},
             {"by": "red", "do": "pick_up_item", "figure": "r1", "item": "shield"}]

    result, state = run(units, steps, options=options)

    assert refused(result, "MNT-44", 1) and refused(result, "MNT-44", 2)
    assert state.units["r1"].items == ["axe"]


def test_mnt_45_a_cavalry_unit_attacks_from_its_mounts_front_arc_and_centre(run: Run) -> None:
    """MNT-45."""
    units = [*cavalry(rider_extra={"range": 6}),
             warrior("behind", "blue", x=10, y=5), warrior("ahead", "blue", x=10, y=15.5)]
    shoot = {"by": "red", "do": "ranged_attack", "figure": "r1", "dice": [1, 1]}
    steps = [TO_ACTION, {**shoot, "target": "behind"}, {**shoot, "target": "ahead"}]

    result, _ = run(units, steps)

    assert refused(result, "MNT-45", 1)
    assert result["steps"][2]["accepted"], "5.5\" from the mount's centre dot, within range 6"
