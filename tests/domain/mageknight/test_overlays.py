"""Board pictures: bases, front and rear arcs from the mount (MNT-45, MNT-50), contact."""

from __future__ import annotations

from domain.geometry import in_front_arc
from projections.board_svg import board_svg
from projections.overlays import overlays_for

from .builders import cavalry, warrior
from .conftest import Run


def test_mnt_45_mnt_50_a_cavalry_unit_is_drawn_with_its_mounts_arcs_and_contact(
    run: Run,
) -> None:
    """MNT-45, MNT-50, MNT-33."""
    _, state = run([*cavalry(), warrior("b1", "blue", x=10, y=11.75)], [])

    drawn = overlays_for(state, {"do": "move", "figure": "r1"})
    svg = board_svg(state, drawn)

    arcs = [o for o in drawn if o.dashed]
    assert len(arcs) == 2, "a front and a rear arc for the acting unit only, not for the rider"
    mount_base = state.units["m1"].footprint()
    assert mount_base is not None
    front, rear = arcs[0].geometry, arcs[1].geometry
    assert not isinstance(front, tuple) and not isinstance(rear, tuple)
    assert in_front_arc(mount_base, front.centroid.coords[0])
    assert not in_front_arc(mount_base, rear.centroid.coords[0])
    assert front.bounds[3] == 15.0, "the acting unit's arcs reach twice as far (5\")"
    assert any(o.stroke == "#d32f2f" for o in drawn), "an enemy contact line"
    assert "cavalry m1 + r1" in svg and svg.startswith("<svg")
