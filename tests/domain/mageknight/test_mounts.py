"""Mounts (MNT-03 … MNT-09): elongated bases with a slot and a saddle, a mount
type from a closed list, and no free spins."""

from __future__ import annotations

import pytest

from domain.errors import ScriptError
from domain.geometry import Disc, Rect

from .builders import TO_ACTION, cavalry, mount, refused, warrior
from .conftest import Run


def test_mnt_03_a_mount_has_an_elongated_base(run: Run) -> None:
    """MNT-03."""
    _, state = run(cavalry(), [])

    base = state.units["m1"].footprint()

    assert isinstance(base, Rect)
    assert base.depth > base.width
    assert isinstance(state.units["r1"].footprint(), Disc)


def test_mnt_04_mnt_21_the_riders_base_sits_in_the_mounts_slot(run: Run) -> None:
    """MNT-04, MNT-21."""
    _, state = run(cavalry(), [])

    rider_base, mount_base = state.units["r1"].footprint(), state.units["m1"].footprint()

    assert rider_base is not None and mount_base is not None
    assert mount_base.polygon.contains(rider_base.polygon)


def test_mnt_05_mnt_13_the_rider_figure_sits_in_the_saddle_and_is_a_rider(run: Run) -> None:
    """MNT-05, MNT-13."""
    result, state = run(cavalry(), [])

    rider = result["state"]["units"]["r1"]

    assert state.units["r1"].mount == "m1" and state.units["m1"].rider == "r1"
    assert "mounted" in rider["conditions"]
    assert (rider["x"], rider["y"]) == (10.0, 10.0)


def test_mnt_06_a_mount_without_a_mount_symbol_is_malformed(run: Run) -> None:
    """MNT-06."""
    units = [mount(mount_type=None), warrior("r1", rides=["battle_horse"])]

    with pytest.raises(ScriptError, match="MNT-06"):
        run(units, [])


def test_mnt_07_the_mount_symbol_is_shown_beside_the_speed_as_data_only(run: Run) -> None:
    """MNT-07."""
    result, _ = run(cavalry(), [])

    shown = result["state"]["units"]["m1"]

    assert shown["mount_type"] == "battle_horse"
    assert shown["speed"] == 8


@pytest.mark.parametrize("kind", ["battle_horse", "cloud_griffon", "desert_warbird",
                                  "horned_stag", "pegasus", "salamander", "sky_dragon",
                                  "technocat"])
def test_mnt_09_every_listed_mount_type_is_accepted(run: Run, kind: str) -> None:
    """MNT-09."""
    units = cavalry(mount_type=kind, rider_extra={"rides": [kind]})

    _, state = run(units, [])

    assert state.units["m1"].mount_type == kind


def test_mnt_09_a_mount_type_outside_the_closed_list_is_malformed(run: Run) -> None:
    """MNT-09."""
    units = cavalry(mount_type="war_elephant")

    with pytest.raises(ScriptError, match="MNT-09"):
        run(units, [])


def test_mnt_08_a_riderless_mount_cannot_free_spin(run: Run) -> None:
    """MNT-08."""
    units = [*cavalry(), warrior("w1", x=20, y=20)]
    steps = [TO_ACTION, {"by": "red", "do": "dismount", "figure": "m1"},
             {"by": "red", "do": "free_spin", "figure": "m1", "facing": 0},
             {"by": "red", "do": "free_spin", "figure": "w1", "facing": 0}]

    result, state = run(units, steps)

    assert refused(result, "MNT-08", 2)
    assert result["steps"][3]["accepted"]
    assert state.units["w1"].facing == 0.0 and state.units["m1"].facing == 90.0
