"""Dark Riders (MNT-115 … MNT-124)."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import ScriptError

from .builders import TO_ACTION, cavalry, click, refused, warrior
from .conftest import Run

BLUE_TURN = [{"by": "red", "do": "end_turn"}, {"by": "blue", "do": "next_phase"}]


def dark_riders(mount_number: str = "121b", rider_number: str = "121a",
                **mount_extra: Any) -> list[dict[str, Any]]:
    """A Dark Riders cavalry unit dm/dr at (10, 10); the rider has no mount symbols."""
    rider_extra = {"sub_faction": "dark_riders", "collector": rider_number, "rides": [],
                   **mount_extra.pop("rider_extra", {})}
    return cavalry("dm", "dr", sub_faction="dark_riders", collector=mount_number,
                   rider_extra=rider_extra, **mount_extra)


def hit(target: str) -> dict[str, object]:
    """Blue's b1 hits `target` for 2 clicks."""
    return {"by": "blue", "do": "close_attack", "figure": "b1", "targets": [target],
            "dice": [6, 6]}


FOE = warrior("b1", "blue", x=10, y=11.75, facing=270)


def test_mnt_115_dark_riders_otherwise_follow_the_cavalry_rules(run: Run) -> None:
    """MNT-115."""
    units = dark_riders(dial=[click(speed=5)], rider_extra={"dial": [click(speed=10)]})
    steps = [TO_ACTION, {"by": "red", "do": "move", "figure": "dr", "path": [[10, 16]]}]

    result, _ = run(units, steps)

    assert refused(result, "CORE-MK-MOVE"), "the mount's speed 5, as MNT-38 says"


def test_mnt_116_mnt_117_rider_121a_rides_only_mount_121b(run: Run) -> None:
    """MNT-116, MNT-117."""
    _, state = run(dark_riders(), [])

    assert state.units["dr"].mount == "dm"
    with pytest.raises(ScriptError, match="MNT-116"):
        run(dark_riders(mount_number="122b"), [])


def test_mnt_118_a_dark_riders_rider_cannot_dismount(run: Run) -> None:
    """MNT-118."""
    result, state = run(dark_riders(), [TO_ACTION, {"by": "red", "do": "dismount", "figure": "dm"}])

    assert refused(result, "MNT-118")
    assert state.units["dr"].mount == "dm" and state.actions_used == 0


def test_mnt_119_a_dark_riders_rider_cannot_be_unhorsed(run: Run) -> None:
    """MNT-119."""
    units = [*cavalry("m2", "r2", "blue", y=4, benefits=["unhorse"]), *dark_riders(y=7.5)]
    units[2]["facing"] = 270
    steps = [*BLUE_TURN, {"by": "blue", "do": "unhorse", "figure": "m2", "path": [[10, 5]],
                          "target": "dr", "dice": [6]}]

    result, state = run(units, steps)

    assert result["steps"][-1]["rule"] == "MNT-119", result["steps"][-1]
    assert state.units["dr"].mount == "dm"


def test_mnt_120_mnt_121_a_dark_riders_mount_at_3_skulls_returns_to_its_start(
    run: Run,
) -> None:
    """MNT-120, MNT-121."""
    units = [*dark_riders(start_click=1, click=3), FOE]

    result, state = run(units, [*BLUE_TURN, hit("dm")])

    assert result["steps"][-1]["rule"] == "MNT-121"
    assert state.units["dm"].status == "on_table" and state.units["dm"].click == 1


def test_mnt_122_mnt_123_an_eliminated_dark_rider_stays_in_the_saddle(run: Run) -> None:
    """MNT-122, MNT-123."""
    units = [*dark_riders(rider_extra={"click": 3}, click=3), FOE,
             warrior("b2", "blue", x=11.125, y=10, facing=180)]
    steps = [*BLUE_TURN, hit("dr"),
             {"by": "blue", "do": "close_attack", "figure": "b2", "targets": ["dm"],
              "dice": [6, 6]}]

    result, state = run(units, steps)

    assert result["steps"][2]["rule"] == "MNT-123"
    assert state.units["dr"].status == "removed"
    assert state.units["dm"].saddle_figure == "dr" and state.units["dm"].rider is None
    assert state.units["dm"].status == "removed", "no longer protected (A-MNT-34)"


def test_mnt_124_dark_riders_may_use_their_sub_faction_ability_while_mounted(run: Run) -> None:
    """MNT-124."""
    units = [*dark_riders(click=1), *cavalry("m2", "r2", x=20, click=1,
                                            rider_extra={"sub_faction": "wylden"})]
    steps = [{"by": "red", "do": "dark_alliance", "figure": "dm"},
             {"by": "red", "do": "dark_alliance", "figure": "m2"}]

    result, state = run(units, steps)

    assert result["steps"][0]["accepted"]
    assert state.units["dm"].click == 0 and state.units["dr"].click == 1
    assert refused(result, "CORE-MK-NO-ABILITY", 1), "not a Dark Riders unit"
    assert state.units["m2"].click == 1
