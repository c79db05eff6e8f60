"""Where a footprint may stand: the measurements the placement clauses judge.

Pure geometry on the state, built on `domain.geometry`: no rule is decided
here (the clause functions in `arrival`, `deployment` and `moves` decide, and
the board overlay draws the same measurements). Obstacle keys are readable
labels: `unit <id>` and `impassable <id>`.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # annotations only: a replay needs no shapely
    from shapely.geometry import Polygon

from domain.geometry import (
    EPS,
    Obstacles,
    Point2,
    Rect,
    distance,
    is_anything_between_hull,
    is_gap_within,
    is_wholly_on_board,
    is_within,
    polygon_from_points,
    sweep_hull,
)
from domain.shadows import ListMemo
from domain.state import to_read
from domain.t9a.units import T9AState, T9AUnit
from events.core import TerrainPiece

#: AMB-13: corners must be within this many inches of the chosen point.
ARRIVAL_REACH = 6.0
#: Unit Spacing (AMB-15, RULINGS): more than this many inches from units and Impassable Terrain.
UNIT_SPACING = 1.0
MIN_CORNERS_IN_REACH = 3


def is_legal_formation(files: int, ranks: int, models: int) -> bool:
    """RULINGS: `files ≥ 1` and `files·(ranks−1) < models ≤ files·ranks`."""
    return files >= 1 and ranks >= 1 and files * (ranks - 1) < models <= files * ranks


def obstacles(state: T9AState, *, ignore: Iterable[str] = ()) -> Obstacles:
    """Other units on the table and Impassable Terrain, as a spatial index (the terrain's
    own index is kept per terrain set; the units' is kept per placement of the units,
    found by what their footprints are made of)."""
    skip = frozenset(ignore)
    terrain = _IMPASSABLE(state.terrain, None)
    key = (skip, id(terrain), tuple(
        (unit.id, unit.status, unit.x, unit.y, unit.facing, unit.base, unit.files,
         unit.ranks, unit.joined_to)
        for unit in to_read(state.units) if isinstance(unit, T9AUnit)))
    found = _UNITS.get(key)
    if found is not None and found[0] is terrain:
        return found[1]
    items: list[tuple[str, Rect | Polygon]] = [
        (f"unit {unit.id}", shape)
        for unit in state.t9a_units_to_read()
        if unit.id not in skip and (shape := unit.footprint()) is not None
    ]
    index = Obstacles(items, under=terrain)
    _UNITS[key] = (terrain, index)
    while len(_UNITS) > UNITS_KEPT:
        _UNITS.popitem(last=False)
    return index


#: How many placements of the units keep their obstacle index (the oldest go first).
UNITS_KEPT = 64
_UNITS: OrderedDict[tuple[object, ...], tuple[Obstacles, Obstacles]] = OrderedDict()


def _impassable(terrain: tuple[TerrainPiece, ...], _: None) -> Obstacles:
    return Obstacles((f"impassable {piece.id}", polygon_from_points(piece.polygon))
                     for piece in terrain if piece.kind == "impassable")


_IMPASSABLE: ListMemo[TerrainPiece, None, Obstacles] = ListMemo(_impassable)


def corner_distances(rect: Rect, point: Point2) -> tuple[float, ...]:
    """Distance from each corner (front-left, front-right, rear-right, rear-left) to `point`."""
    return tuple(distance(corner, point) for corner in rect.corners)


def corners_in_reach(rect: Rect, point: Point2, reach: float = ARRIVAL_REACH) -> tuple[bool, ...]:
    """For each corner: is it within `reach` of `point` (≤, with the shared tolerance)?"""
    return tuple(is_within(corner, point, reach) for corner in rect.corners)


Gap = tuple[str, float]


def too_close(
    state: T9AState, rect: Rect, *, ignore: Iterable[str] = (), index: Obstacles | None = None
) -> list[Gap]:
    """Units and Impassable Terrain within 1″ of `rect` (Unit Spacing), with distances:
    one `dwithin` query, then the exact distance of each obstacle it finds.

    `index`: the obstacles, if the caller has built them already (without `ignore`d ones).
    """
    index = index if index is not None else obstacles(state, ignore=ignore)
    gaps = [(key, distance(rect, geom)) for key, geom in index.near(rect, UNIT_SPACING + 2 * EPS)]
    return [(key, gap) for key, gap in gaps if is_gap_within(gap, UNIT_SPACING)]


def arrival_hull(rect: Rect, point: Point2) -> Polygon:
    """The convex hull of the footprint and the chosen point (A-AMB-10)."""
    return sweep_hull(rect, point)


def between(state: T9AState, rect: Rect, point: Point2, *, ignore: Iterable[str] = (),
            index: Obstacles | None = None) -> list[str]:
    """Units and Impassable Terrain directly between the footprint and the point.

    `index`: the obstacles, if the caller has built them already (without `ignore`d ones).
    """
    index = index if index is not None else obstacles(state, ignore=ignore)
    return is_anything_between_hull(rect, point, index)


def is_on_board(state: T9AState, rect: Rect) -> bool:
    """Does the footprint lie wholly on the board?"""
    return is_wholly_on_board(rect, state.board.width, state.board.height)
