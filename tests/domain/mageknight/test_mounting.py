"""Mounting (MNT-79 … MNT-86)."""

from __future__ import annotations

from .builders import TO_ACTION, cavalry, message, refused, warrior
from .conftest import Run
from .test_dismounting import dismount


def mount_up(rider: str = "r1", mount: str = "m1") -> dict[str, object]:
    """Red's rider climbs onto a mount."""
    return {"by": "red", "do": "mount", "figure": rider, "mount": mount}


def test_mnt_79_a_dismounted_rider_may_mount_again(run: Run) -> None:
    """MNT-79."""
    result, state = run(cavalry(), [TO_ACTION, dismount(), mount_up()])

    assert result["steps"][-1]["events"] == ["StepTaken", "ActionAssigned", "RiderMounted"]
    assert state.units["r1"].mount == "m1" and state.units["m1"].rider == "r1"


def test_mnt_79_a_rider_already_on_a_mount_cannot_mount(run: Run) -> None:
    """MNT-79."""
    units = [*cavalry(), *cavalry("m2", "r2", x=11.25)]

    result, state = run(units, [TO_ACTION, mount_up("r1", "m2")])

    assert refused(result, "MNT-79")
    assert state.units["r1"].mount == "m1" and state.units["m2"].rider == "r2"


def test_mnt_80_the_mount_must_be_friendly_riderless_and_in_contact(run: Run) -> None:
    """MNT-80."""
    units = [*cavalry(), *cavalry("m2", "r2", "blue", x=14),
             warrior("r3", rides=["battle_horse"], x=13.125, y=12)]
    steps = [TO_ACTION, dismount(), mount_up("r3", "m2"), mount_up("r3", "m1"),
             {"by": "red", "do": "mount", "figure": "r1", "mount": "m1"}]

    result, _ = run(units, steps)

    assert refused(result, "MNT-80", 2), "m2 is blue's and has a rider"
    assert refused(result, "MNT-80", 3), "r3 is not in contact with m1"
    assert message(result, 3) == 'r3 is 2.11" from m1; mounting needs base contact'
    assert result["steps"][4]["accepted"]


def test_mnt_81_the_mount_symbols_must_match(run: Run) -> None:
    """MNT-81."""
    units = [*cavalry(), warrior("r3", rides=["pegasus"], x=10, y=8.25)]

    result, state = run(units, [TO_ACTION, dismount(), mount_up("r3", "m1")])

    assert refused(result, "MNT-81")
    assert message(result) == "r3 rides pegasus; m1 is a battle_horse"
    assert state.units["m1"].rider is None and state.units["r3"].mount is None


def test_mnt_82_mounting_is_a_special_action_of_the_rider(run: Run) -> None:
    """MNT-82."""
    steps = [TO_ACTION, dismount(),
             {"by": "red", "do": "move", "figure": "r1", "path": [[11.125, 10.5]]},
             mount_up()]

    result, state = run(cavalry(), steps)

    assert refused(result, "CORE-MK-ONE-ACTION")
    assert state.actions_used == 2


def test_mnt_83_mnt_84_the_rider_goes_into_the_saddle_and_the_slot(run: Run) -> None:
    """MNT-83, MNT-84."""
    _, state = run(cavalry(), [TO_ACTION, dismount(), mount_up()])

    r1, m1 = state.units["r1"], state.units["m1"]
    assert (r1.x, r1.y, r1.facing) == (m1.x, m1.y, m1.facing)


def test_mnt_85_mnt_86_the_new_unit_has_one_token_and_may_still_act(run: Run) -> None:
    """MNT-85, MNT-86."""
    steps = [TO_ACTION, dismount(), mount_up(),
             {"by": "red", "do": "move", "figure": "m1", "path": [[10, 14]]}]

    result, state = run(cavalry(), steps)

    assert result["steps"][2]["accepted"]
    assert result["steps"][3]["accepted"] and result["steps"][3]["rule"] == "MNT-37"
    assert state.units["m1"].tokens == 2


def test_mnt_85_a_rider_with_tokens_of_its_own_loses_them_as_it_mounts(run: Run) -> None:
    """MNT-85: the cavalry unit's token is the mount's; `decide` says that the
    rider's own tokens go (`RiderTokensRemoved`), the applier only assigns."""
    from domain.dice import DiceSource
    from domain.gate import settle
    from domain.ruleset import find_ruleset

    result, state = run(cavalry(), [TO_ACTION, dismount()])
    assert result["steps"][-1]["accepted"]
    state.units["r1"].tokens = 1  # as if it had acted on foot
    rules = find_ruleset("mageknight-2")

    decided = settle(rules, state, rules.parse_command(mount_up()), DiceSource(0, 0))

    assert [f.type for f in decided.facts] == [
        "StepTaken", "ActionAssigned", "RiderTokensRemoved", "RiderMounted"]
    assert decided.state.units["r1"].tokens == 0 and decided.state.units["m1"].tokens == 1
    assert state.units["r1"].tokens == 1  # the caller's state is as it was
