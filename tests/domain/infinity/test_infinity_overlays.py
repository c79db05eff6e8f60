"""Board pictures of Cautious Movement: the enemies' LoF arcs and ZoC circles, the path."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from n4_scene import Scene, cautious, trooper
from shapely.geometry import LinearRing, LineString, Polygon

from domain.infinity.state import InfinityState
from projections.board_svg import board_svg
from projections.overlays import overlays_for
from replay.service import GameService

R1 = trooper("r1", "red", 10, 10)
B1 = trooper("b1", "blue", 10, 40, facing=90)
CAMO = trooper("c1", "blue", 40, 40, marker="camouflage")
HIDDEN = trooper("h1", "blue", 20, 20, conditions=["hidden_deployment"])


def state_of(service: GameService, result: dict[str, Any]) -> InfinityState:
    state = service.load(UUID(result["game_id"])).state
    assert isinstance(state, InfinityState)
    return state


def test_overlays_show_lof_arcs_zoc_circles_and_the_proposed_path(
        n4: Scene, service: GameService) -> None:
    state = state_of(service, n4([R1, B1, CAMO, HIDDEN], []))
    proposal = cautious("r1", (13, 10))

    items = {o.label: o for o in overlays_for(state, proposal)}

    arc = items["b1 LoF"].geometry
    assert isinstance(arc, Polygon)
    assert arc.bounds == (0.0, 40.0, 48.0, 48.0)  # the half-plane ahead of b1, on the table
    assert isinstance(items["c1 LoF"].geometry, Polygon)
    assert items["c1 LoF"].geometry.area == 48 * 48  # a Camouflage Marker sees all around
    zone = items["b1 ZoC"].geometry
    assert isinstance(zone, LinearRing)
    assert abs(zone.bounds[2] - 18.5) < 1e-9  # 8" beyond the 0.5" radius
    assert "h1 LoF" not in items and "h1 (hidden_deployment)" in items
    path = items["path"].geometry
    assert isinstance(path, LineString) and list(path.coords) == [(10, 10), (13, 10)]


def test_overlays_after_a_resolved_move_show_its_path_and_draw_as_svg(
        n4: Scene, service: GameService) -> None:
    result = n4([R1, B1], [cautious("r1", (13, 10))])
    state = state_of(service, result)

    items = overlays_for(state, cautious("r1", (13, 10)))
    svg = board_svg(state, items)

    paths = [o.geometry for o in items if o.label == "path"]
    assert [list(p.coords) for p in paths if isinstance(p, LineString)] == [
        [(10, 10), (13, 10)]]
    assert svg.startswith("<svg") and "b1 ZoC" in svg and "b1 LoF" in svg
