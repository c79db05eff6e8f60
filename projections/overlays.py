"""Rule-set overlays for board pictures, found through the rule set's wiring table.

A rule set's wiring table names a function of its projection module that, given
the state and optionally a command (the step just taken, or a proposed one a judge wants to
see checked), returns the overlays explaining it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Any

from shapely.geometry import LineString, MultiLineString, Point, Polygon

from domain.geometry import Disc
from domain.state import GameState
from projections.board_svg import Overlay

OverlayFunc = Callable[[GameState, dict[str, Any] | None], Sequence[Overlay]]


def overlays_for(state: GameState, command: dict[str, Any] | None) -> Sequence[Overlay]:
    """The overlays the state's rule set draws for this state and command (the
    function its wiring table names, `Wiring.overlays`, "module:function"), and
    where a move's path first meets terrain that stops it."""
    from domain.ruleset import find_ruleset

    wiring = find_ruleset(state.ruleset).wiring
    drawn: list[Overlay] = []
    if wiring is not None and wiring.overlays is not None:
        module, _, name = wiring.overlays.partition(":")
        func: OverlayFunc = getattr(importlib.import_module(module), name)
        drawn = list(func(state, command))
    return [*drawn, *path_blocked(state, command)]


BLOCKED = "#c62828"


def movement_blockers(ruleset: str) -> frozenset[str]:
    """The terrain kinds a moving base may not enter in `ruleset` (its wiring table's
    `movement_blockers`)."""
    from domain.ruleset import find_ruleset

    wiring = find_ruleset(ruleset).wiring
    return wiring.movement_blockers if wiring is not None else frozenset(
        {"impassable", "blocking"})


def path_blocked(state: GameState, command: dict[str, Any] | None) -> list[Overlay]:
    """Where a move's base, swept along its path, first touches terrain it may not
    enter: marked on the board with the terrain named, and said under it."""
    if not command or not isinstance(command.get("path"), list):
        return []
    mover = state.units.get(str(command.get("trooper") or command.get("figure")
                                or command.get("unit")))
    shape = mover.footprint() if mover is not None else None
    if shape is None or not isinstance(shape, Disc):
        return []
    try:
        points = [shape.centre, *((float(p[0]), float(p[1])) for p in command["path"])]
    except (TypeError, ValueError, IndexError):
        return []
    if len(points) < 2:
        return []
    line = LineString(points)
    kinds = movement_blockers(state.ruleset)
    hits: list[tuple[float, str]] = []
    for piece in state.terrain:
        if piece.kind not in kinds:
            continue
        reach = Polygon(piece.polygon).buffer(shape.radius - 1e-6, quad_segs=16)
        touched = line.intersection(reach)
        if not touched.is_empty:
            first = min(line.project(Point(c)) for c in coords_of(touched))
            hits.append((first, f"{piece.id} ({piece.kind})"))
    if not hits:
        return []
    along, what = min(hits)
    x, y = line.interpolate(along).coords[0]
    size = 0.5
    cross = MultiLineString([[(x - size, y - size), (x + size, y + size)],
                             [(x - size, y + size), (x + size, y - size)]])
    return [Overlay(cross, stroke=BLOCKED, layer="paths", label=f"the base meets {what} here"),
            Overlay((x, y), stroke=BLOCKED, note=True,
                    label=f"the path meets {what} {along:.2f}\" along, at ({x:.2f}, {y:.2f})")]


def coords_of(geometry: Any) -> list[tuple[float, float]]:
    """Every vertex of a geometry (of each part of a collection)."""
    if hasattr(geometry, "geoms"):
        return [c for part in geometry.geoms for c in coords_of(part)]
    return [(float(x), float(y)) for x, y, *_ in geometry.coords]
