"""Room in contact with a mount, found exactly (MNT-56, MNT-58, MNT-76, MNT-78, MNT-107).

The cornered picture: a cavalry unit in the board's bottom-left corner, its
mount's base x 0…1.25, y 0…2.5 (facing +y). Its left side and rear lie on the
board edges; impassable terrain covers the ground in front of it and beside
its right side above y = 1.1. The only room for a 1" rider is a short stretch
of the right side: centres (1.75, y) for 0.5 ≤ y ≤ 0.6. A search over a few
fixed points of each side finds none of it.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.geometry import Disc, Rect, distance
from domain.mageknight.figures import find_room, is_free_spot, is_touching, overlaps

from .builders import TO_ACTION, cavalry, strip, warrior
from .conftest import Run

CORNER = {"x": 0.625, "y": 1.25}
HEMMED_IN = [strip(0, 2.5, 3, 4, "front"), strip(1.25, 1.1, 3, 2.5, "right")]
#: Where the engine puts the rider: the free point nearest the middle of the
#: mount's rear side, (0.625, -0.5); here the bottom end of the free stretch.
CHOSEN = (1.75, 0.5)


def near(spot: tuple[float | None, float | None], want: tuple[float, float]) -> bool:
    """The same point, to a millionth of an inch."""
    x, y = spot
    return x is not None and y is not None and math.dist((x, y), want) < 1e-6


def test_mnt_75_mnt_76_mnt_78_a_dismount_finds_the_short_stretch_in_a_corner(run: Run) -> None:
    """MNT-75, MNT-76, MNT-78: the dismount without `at` finds the room that
    `dismount … at` shows is there."""
    steps = [TO_ACTION, {"by": "red", "do": "dismount", "figure": "m1"}]
    at_spot = [TO_ACTION, {"by": "red", "do": "dismount", "figure": "m1", "at": [1.75, 0.55]}]

    result, state = run(cavalry(**CORNER), steps, terrain=HEMMED_IN)
    shown, _ = run(cavalry(**CORNER), at_spot, terrain=HEMMED_IN)

    assert shown["steps"][1]["accepted"], shown["steps"][1]
    assert result["steps"][0]["accepted"]
    assert result["steps"][1]["accepted"], result["steps"][1]
    r1 = state.units["r1"]
    assert r1.mount is None and near((r1.x, r1.y), CHOSEN)


def test_mnt_55_mnt_56_mnt_58_a_cornered_mount_eliminated_leaves_its_rider_beside_it(
    run: Run,
) -> None:
    """MNT-55, MNT-56 (not MNT-58): there is room, so only the mount is removed."""
    units = [*cavalry("m2", "r2", "blue", click=3, **CORNER),
             warrior("w1", x=8, y=0.75, facing=180, range=8)]
    steps = [TO_ACTION, {"by": "red", "do": "ranged_attack", "figure": "w1", "target": "m2",
                         "dice": [6, 6]}]

    result, state = run(units, steps, terrain=HEMMED_IN)

    assert result["steps"][1]["accepted"], result["steps"][1]
    assert result["steps"][1]["rule"] == "MNT-56", result["steps"][1]
    r2, m2 = state.units["r2"], state.units["m2"]
    assert m2.status == "removed"
    assert r2.status == "on_table" and near((r2.x, r2.y), CHOSEN)
    assert "(1.75, 0.5)" in result["steps"][1]["message"]


def test_mnt_106_mnt_107_an_unhorsed_cornered_rider_lands_in_the_short_stretch(
    run: Run,
) -> None:
    """MNT-106 (not MNT-107): the unhorsed rider has room beside its mount."""
    lancer = cavalry(benefits=["unhorse"], x=7, y=1.875, facing=180)
    foe = cavalry("m2", "r2", "blue", **CORNER)
    # Red's mount (2.5" deep, facing -x) rides in along y 1.25 to 2.5 and stops
    # against the right side of blue's mount; below it, terrain down to y = 1.1.
    steps = [TO_ACTION, {"by": "red", "do": "unhorse", "figure": "m1", "target": "m2",
                         "path": [[2.5, 1.875]], "dice": [6]}]
    terrain = [strip(0, 2.5, 3, 4, "front"), strip(1.25, 1.1, 3, 1.25, "right")]

    result, state = run([*lancer, *foe], steps, terrain=terrain)

    assert result["steps"][1]["accepted"], result["steps"][1]
    assert result["steps"][1]["rule"] == "MNT-106", result["steps"][1]
    r2 = state.units["r2"]
    assert r2.status == "on_table" and r2.mount is None and near((r2.x, r2.y), CHOSEN)


def test_mnt_58_mnt_107_no_room_when_the_stretch_is_filled(run: Run) -> None:
    """MNT-58: with the stretch taken by another figure, there is truly no room."""
    units = [*cavalry("m2", "r2", "blue", click=3, **CORNER),
             warrior("w1", x=8, y=0.75, facing=180, range=8),
             warrior("w2", x=1.75, y=0.55)]
    steps = [TO_ACTION, {"by": "red", "do": "ranged_attack", "figure": "w1", "target": "m2",
                         "dice": [6, 6]}]

    result, state = run(units, steps, terrain=HEMMED_IN)

    assert result["steps"][1]["accepted"], result["steps"][1]
    assert result["steps"][1]["rule"] == "MNT-58"
    assert state.units["r2"].status == "removed" and state.units["m2"].status == "removed"


@pytest.mark.parametrize("at", [(1.75, 0.5), (1.75, 0.6), (1.75, 0.55)])
def test_mnt_76_every_point_of_the_stretch_is_accepted_with_at(
    run: Run, at: tuple[float, float]
) -> None:
    """MNT-76: the stretch found is the stretch `at` accepts (its ends touch the
    board edge and the terrain)."""
    steps = [TO_ACTION, {"by": "red", "do": "dismount", "figure": "m1", "at": list(at)}]

    result, _ = run(cavalry(**CORNER), steps, terrain=HEMMED_IN)

    assert result["steps"][1]["accepted"], result["steps"][1]


@settings(max_examples=60, deadline=None)
@given(
    bx=st.floats(min_value=-1.5, max_value=3.0), by=st.floats(min_value=-1.5, max_value=4.0),
    mx=st.floats(min_value=0.625, max_value=3.0), my=st.floats(min_value=1.25, max_value=3.0),
)
def test_mnt_58_room_is_found_whenever_a_sampled_spot_is_free(
    bx: float, by: float, mx: float, my: float,
) -> None:
    """MNT-58, MNT-78: whenever some centre on the contact line (sampled every
    0.01") is free, the search finds a free spot touching the mount; the spot
    it finds always is one."""
    from domain.mageknight.state import MageKnightState

    state = MageKnightState.model_validate({
        "ruleset": "mageknight-2", "board": {"width": 6, "height": 6},
        "players": ["red", "blue"], "active_player": "red", "phase": "action",
        "units": {
            "m1": {"id": "m1", "owner": "red", "kind": "mount", "x": mx, "y": my,
                   "facing": 90, "mount_type": "battle_horse", "intelligence": "pentagon",
                   "rider": "r1", "status": "on_table"},
            "r1": {"id": "r1", "owner": "red", "mount": "m1", "status": "on_table",
                   "x": mx, "y": my, "facing": 90},
            "b1": {"id": "b1", "owner": "blue", "x": bx + mx, "y": by + my, "facing": 0,
                   "base": 1.5, "status": "on_table"},
        },
    })
    mount_base = state.units["m1"].footprint()
    assert isinstance(mount_base, Rect)
    blocker = state.units["b1"].footprint()
    assert blocker is not None
    rider = state.units["r1"]
    spot = find_room(state, rider, state.units["m1"])
    sampled = [p for p in contact_line(mount_base, 0.5, 0.01)
               if is_free_spot(state, Disc(p[0], p[1], 1.0), {"m1", "r1"})]
    if overlaps(blocker, mount_base):
        return
    if sampled:
        assert spot is not None
    if spot is not None:
        disc = Disc(spot[0], spot[1], 1.0)
        assert is_touching(disc, mount_base) and not overlaps(disc, mount_base)
        assert is_free_spot(state, disc, {"m1", "r1"})
        assert distance(disc, blocker) >= -1e-9


def contact_line(mount: Rect, r: float, step: float) -> list[tuple[float, float]]:
    """Centres every `step` inches along the line where a disc of radius r
    touches the axis-aligned mount (facing 90), corners included."""
    x0, x1 = mount.x - mount.width / 2, mount.x + mount.width / 2
    y0, y1 = mount.y - mount.depth / 2, mount.y + mount.depth / 2
    points: list[tuple[float, float]] = []
    n = int((x1 - x0) / step)
    points += [(x0 + i * step, y0 - r) for i in range(n + 1)]
    points += [(x0 + i * step, y1 + r) for i in range(n + 1)]
    m = int((y1 - y0) / step)
    points += [(x0 - r, y0 + i * step) for i in range(m + 1)]
    points += [(x1 + r, y0 + i * step) for i in range(m + 1)]
    for cx, cy, start in ((x1, y1, 0), (x0, y1, 90), (x0, y0, 180), (x1, y0, 270)):
        for k in range(0, 91, 2):
            a = math.radians(start + k)
            points.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return points


def test_mnt_76_a_spot_on_the_mount_says_it_overlaps(run: Run) -> None:
    """MNT-76: `at` on the mount's own base is refused as standing on it, not as
    being 0.00" away from it."""
    steps = [TO_ACTION, {"by": "red", "do": "dismount", "figure": "m1", "at": [10.5, 10]}]

    result, state = run(cavalry(), steps)

    assert result["steps"][0]["accepted"]
    refusal = result["steps"][1]
    assert refusal["rule"] == "MNT-76" and not refusal["accepted"]
    assert refusal["message"] == ("a base at (10.5, 10) would stand on m1's base; the rider "
                                  "must be placed in contact with its mount, beside it")
    assert state.units["r1"].mount == "m1"
