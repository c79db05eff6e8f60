"""Board pictures of Cautious Movement: the enemies' LoF arcs and ZoC circles, the path."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from n4_scene import Scene, cautious, move, trooper, wall
from shapely.geometry import LinearRing, LineString, Point, Polygon

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
    """With no movement judged, every enemy that counts is drawn; a proposed
    movement draws those its check asks about: here only the Camouflage Marker,
    which sees all around, may react to a path far from b1's front."""
    state = state_of(service, n4([R1, B1, CAMO, HIDDEN], []))
    proposal = cautious("r1", (13, 10))

    items = {o.label: o for o in overlays_for(state, None)}

    arc = items["b1's Line of Fire"].geometry
    assert isinstance(arc, Polygon)
    assert arc.bounds == (0.0, 40.0, 48.0, 48.0)  # the half-plane ahead of b1, on the table
    assert isinstance(items["c1's Line of Fire"].geometry, Polygon)
    # A Camouflage Marker sees all around.
    assert items["c1's Line of Fire"].geometry.area == 48 * 48
    zone = items["b1's Zone of Control"].geometry
    assert isinstance(zone, LinearRing)
    assert abs(zone.bounds[2] - 18.5) < 1e-9  # 8" beyond the 0.5" radius
    assert "h1's Line of Fire" not in items and "h1 cannot react (hidden_deployment)" in items

    asked = {o.label: o for o in overlays_for(state, proposal)}

    assert "c1's Line of Fire" in asked and "c1's Zone of Control" in asked
    assert "b1's Line of Fire" not in asked and "b1's Zone of Control" not in asked
    assert "h1 cannot react (hidden_deployment)" in asked
    inside = asked["the path in c1's LoF or ZoC"].geometry
    assert isinstance(inside, LineString) and inside.length == 3.0  # all of it: c1 sees it
    path = asked["movement path"].geometry
    assert isinstance(path, LineString) and list(path.coords) == [(10, 10), (13, 10)]


def test_overlays_after_a_resolved_move_show_its_path_and_draw_as_svg(
        n4: Scene, service: GameService) -> None:
    result = n4([R1, B1], [cautious("r1", (13, 10))])
    state = state_of(service, result)

    items = overlays_for(state, cautious("r1", (13, 10)))
    svg = board_svg(state, items)

    paths = [o.geometry for o in items if o.label == "movement path"]
    assert [list(p.coords) for p in paths if isinstance(p, LineString)] == [
        [(10, 10), (13, 10)]]
    assert svg.startswith("<svg") and "b1's Zone of Control" in svg and "b1's Line of Fire" in svg


def notes(items: Any) -> list[str]:
    return [o.label for o in items if o.note]


def test_overlays_lof_areas_leave_out_the_shadows_of_blocking_terrain(
        n4: Scene, service: GameService) -> None:
    watcher = trooper("b1", "blue", 10, 40, facing=270)
    state = state_of(service, n4([R1, watcher], [], terrain=[wall("house", 5, 20, 15, 25)]))

    area = {o.label: o for o in overlays_for(state, None)}["b1's Line of Fire"].geometry

    assert isinstance(area, Polygon)
    assert not area.intersects(Point(10, 10))  # behind the house, as has_lof says
    assert area.contains(Point(30, 10))        # past its side, in plain view
    assert not area.contains(Point(10, 45))    # behind b1: outside its front arc


def test_overlays_verdict_of_a_cautious_movement_goes_under_the_board(
        n4: Scene, service: GameService) -> None:
    """CAU-10 / CAU-13, as the step would cite them."""
    watching = trooper("b1", "blue", 10, 40, facing=270)
    hidden_state = state_of(service, n4([R1, B1], []))
    seen_state = state_of(service, n4([R1, watching], []))

    hidden = notes(overlays_for(hidden_state, cautious("r1", (13, 10))))
    seen = notes(overlays_for(seen_state, cautious("r1", (13, 10))))
    plain = notes(overlays_for(seen_state, move("r1", (13, 10))))

    assert hidden == ["CAU-10: no ARO generated: r1's Cautious Movement starts and ends "
                      "outside the LoF and ZoC of every enemy Model and Marker"]
    assert seen == ["CAU-13: r1's Cautious Movement generates AROs as usual: it starts "
                    "inside b1's LoF; it ends inside b1's LoF (eligible: b1)"]
    assert plain == ["Move: b1 may react (eligible: b1)"]
