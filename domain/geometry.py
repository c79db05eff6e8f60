"""Board geometry: footprints, exact distances, arcs, paths and obstacle queries.

Conventions (fixed by the rules contract):

* Lengths are in inches. The origin is the board's bottom-left corner, x grows to the
  right and y grows upwards.
* Angles are in degrees, counter-clockwise from +x: ``facing=90`` points towards +y.
* A :class:`Rect` is centred on ``(x, y)``; ``width`` runs along its front edge and
  ``depth`` from front to back. A :class:`Disc` is a round base of ``diameter``.
* The distance between two objects is the distance between the closest points of
  their shapes. Round bases are true circles: every distance involving a disc is
  computed analytically (distance to the centre minus the radius, clamped at 0),
  never from the polygon approximation. Comparisons use the tolerance :data:`EPS`,
  so an exact 8.0" counts as "within 8"" and not as "more than 8"".
* The front arc is the closed half-plane in front of the line through the centre,
  perpendicular to the facing; the rear arc is the other closed half-plane. Points
  exactly on that line (within :data:`EPS`) are in *both* arcs.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, TypeAlias

from domain.deferred import defer

if TYPE_CHECKING:
    import numpy as np
    import shapely
    from shapely.geometry import Point, Polygon, box
    from shapely.geometry.base import BaseGeometry
else:  # imported on first use: a game's state and its replay need no shapely
    defer(globals(), np="numpy", shapely="shapely",
          Point="shapely.geometry:Point", Polygon="shapely.geometry:Polygon",
          box="shapely.geometry:box")

__all__ = [
    "DISC_QUAD_SEGS",
    "EPS",
    "Disc",
    "Footprint",
    "Obstacles",
    "Point2",
    "Rect",
    "Shape",
    "board_polygon",
    "disc_gap",
    "distance",
    "front_arc_polygon",
    "has_clear_line",
    "heading_vector",
    "in_front_arc",
    "in_rear_arc",
    "is_anything_between",
    "is_anything_between_hull",
    "is_gap_within",
    "is_more_than",
    "is_on_board_edge",
    "is_wholly_on_board",
    "is_within",
    "path_crosses",
    "path_length",
    "path_min_distance",
    "path_min_distances",
    "polygon_from_points",
    "rear_arc_polygon",
    "round_buffer",
    "segment",
    "sweep_hull",
    "target_samples",
    "to_geometry",
    "wholly_in_front_arc",
    "wholly_in_rear_arc",
]

EPS = 1e-6
"""Tolerance for every distance / side-of-line comparison, in inches."""

DISC_QUAD_SEGS = 32
"""Segments per quarter circle of a disc's polygon approximation (drawing/intersection only)."""

Point2: TypeAlias = tuple[float, float]

_EXACT_HEADINGS: dict[float, Point2] = {
    0.0: (1.0, 0.0),
    90.0: (0.0, 1.0),
    180.0: (-1.0, 0.0),
    270.0: (0.0, -1.0),
}


def heading_vector(facing: float) -> Point2:
    """Unit vector ``(dx, dy)`` for a facing in degrees (exact for multiples of 90)."""
    exact = _EXACT_HEADINGS.get(float(facing) % 360.0)
    if exact is not None:
        return exact
    rad = math.radians(facing)
    return (math.cos(rad), math.sin(rad))


_finite = math.isfinite


def _check_finite(**values: float) -> None:
    for name, value in values.items():
        if not math.isfinite(value):
            raise ValueError(f"{name} must be finite, got {value!r}")


@dataclass(frozen=True, slots=True)
class Rect:
    """Rectangular footprint centred on ``(x, y)``; ``width`` along the front edge."""

    x: float
    y: float
    width: float
    depth: float
    facing: float

    def __post_init__(self) -> None:
        if not (_finite(self.x) and _finite(self.y) and _finite(self.width)
                and _finite(self.depth) and _finite(self.facing)):
            _check_finite(x=self.x, y=self.y, width=self.width, depth=self.depth,
                          facing=self.facing)
        if self.width <= 0 or self.depth <= 0:
            raise ValueError(f"width and depth must be > 0, got {self.width}, {self.depth}")

    @property
    def centre(self) -> Point2:
        """Centre point."""
        return (self.x, self.y)

    @property
    def corners(self) -> tuple[Point2, Point2, Point2, Point2]:
        """Corners: front-left, front-right, rear-right, rear-left."""
        return _rect_corners(self)

    @property
    def front_edge(self) -> tuple[Point2, Point2]:
        """Front edge as (front-left, front-right)."""
        fl, fr, _, _ = self.corners
        return (fl, fr)

    @property
    def rear_edge(self) -> tuple[Point2, Point2]:
        """Rear edge as (rear-right, rear-left)."""
        _, _, rr, rl = self.corners
        return (rr, rl)

    @property
    def polygon(self) -> Polygon:
        """Exact shapely polygon of the footprint (cached)."""
        return _rect_polygon(self)


@dataclass(frozen=True, slots=True)
class Disc:
    """Round base centred on ``(x, y)`` with the given ``diameter``."""

    x: float
    y: float
    diameter: float
    facing: float = 0.0

    def __post_init__(self) -> None:
        if not (_finite(self.x) and _finite(self.y) and _finite(self.diameter)
                and _finite(self.facing)):
            _check_finite(x=self.x, y=self.y, diameter=self.diameter, facing=self.facing)
        if self.diameter <= 0:
            raise ValueError(f"diameter must be > 0, got {self.diameter}")

    @property
    def centre(self) -> Point2:
        """Centre point."""
        return (self.x, self.y)

    @property
    def radius(self) -> float:
        """Half the diameter."""
        return self.diameter / 2.0

    @property
    def polygon(self) -> Polygon:
        """Inscribed polygon approximation (drawing/intersection only; cached).

        Never used for distances, which are exact for discs.
        """
        return _disc_polygon(self)


Footprint: TypeAlias = Rect | Disc
Shape: TypeAlias = "Rect | Disc | Point2 | BaseGeometry"
"""Anything :func:`distance` accepts: a footprint, an ``(x, y)`` tuple or a shapely geometry."""


@lru_cache(maxsize=8192)
def _rect_corners(rect: Rect) -> tuple[Point2, Point2, Point2, Point2]:
    hx, hy = heading_vector(rect.facing)
    lx, ly = -hy, hx  # left of the heading
    fx, fy = hx * rect.depth / 2.0, hy * rect.depth / 2.0
    sx, sy = lx * rect.width / 2.0, ly * rect.width / 2.0
    x, y = rect.x, rect.y
    return (
        (x + fx + sx, y + fy + sy),
        (x + fx - sx, y + fy - sy),
        (x - fx - sx, y - fy - sy),
        (x - fx + sx, y - fy + sy),
    )


@lru_cache(maxsize=8192)
def _rect_polygon(rect: Rect) -> Polygon:
    return _quad(_rect_corners(rect))


def _quad(corners: tuple[Point2, Point2, Point2, Point2]) -> Polygon:
    """A four-cornered polygon (`shapely.polygons`: a third faster than `Polygon()`)."""
    quad: Polygon = shapely.polygons(corners)
    return quad


@lru_cache(maxsize=8192)
def _disc_polygon(disc: Disc) -> Polygon:
    return Point(disc.x, disc.y).buffer(disc.radius, quad_segs=DISC_QUAD_SEGS)


def _as_point(value: Point2) -> Point2:
    x, y = value
    return (float(x), float(y))


def _centre_of(value: Footprint | Point2) -> Point2:
    if isinstance(value, Rect | Disc):
        return value.centre
    return _as_point(value)


def round_buffer(geometry: BaseGeometry, by: float, quad_segs: int) -> Polygon:
    """`geometry.buffer(by, quad_segs=quad_segs)` (round caps and joins, shapely's
    defaults for the rest): the very GEOS call shapely's `buffer` makes, without
    its argument parsing (a tenth of a cold room search's buffers)."""
    grown: Polygon = shapely.lib.buffer(
        geometry, float(by), np.intc(quad_segs), np.intc(shapely.BufferCapStyle.round),
        np.intc(shapely.BufferJoinStyle.round), 5.0, np.bool_(False))
    return grown


def to_geometry(shape: Shape) -> BaseGeometry:
    """Shapely geometry for a shape (a disc becomes its polygon approximation)."""
    if isinstance(shape, Rect | Disc):
        return shape.polygon
    if isinstance(shape, tuple):
        point: BaseGeometry = shapely.points(_as_point(shape))  # what Point() makes, faster
        return point
    return shape


def _line(points: Sequence[Point2]) -> BaseGeometry:
    """LineString through the points; a single point (or repeated points) becomes a Point."""
    pts = [_as_point(p) for p in points]
    if not pts:
        raise ValueError("a path needs at least one point")
    if all(p == pts[0] for p in pts):
        point: BaseGeometry = shapely.points(pts[0])
        return point
    # `shapely.linestrings` is what `LineString` calls once it has made every
    # coordinate a float, as `_as_point` did: the same line, faster.
    line: BaseGeometry = shapely.linestrings(pts)
    return line


# --------------------------------------------------------------------------- distances


def distance(a: Shape, b: Shape) -> float:
    """Distance between the closest points of ``a`` and ``b`` (0 if they overlap).

    Exact for discs: ``max(0, distance(centre, other) - radius)``.
    """
    if isinstance(a, Disc) and isinstance(b, Disc):
        return disc_gap(a.x, a.y, a.radius, b.x, b.y, b.radius)
    if isinstance(a, Disc):
        return max(0.0, distance(a.centre, b) - a.radius)
    if isinstance(b, Disc):
        return max(0.0, distance(a, b.centre) - b.radius)
    if isinstance(a, tuple) and isinstance(b, tuple):
        (ax, ay), (bx, by) = _as_point(a), _as_point(b)
        return math.hypot(bx - ax, by - ay)
    return float(to_geometry(a).distance(to_geometry(b)))


def disc_gap(ax: float, ay: float, a_radius: float, bx: float, by: float,
             b_radius: float) -> float:
    """The distance between two round bases given by their numbers (`distance` of
    two discs, without building them): centres apart less both radii, at least 0."""
    gap = math.hypot(bx - ax, by - ay)
    return max(0.0, max(0.0, gap - b_radius) - a_radius)


def is_within(a: Shape, b: Shape, d: float) -> bool:
    """True if ``distance(a, b) <= d`` (with :data:`EPS` tolerance)."""
    return is_gap_within(distance(a, b), d)


def is_gap_within(gap: float, d: float) -> bool:
    """Is a distance already measured within ``d`` (with :data:`EPS` tolerance)?"""
    return gap <= d + EPS


def is_more_than(a: Shape, b: Shape, d: float) -> bool:
    """True if ``distance(a, b) > d`` beyond :data:`EPS`; always ``not is_within(a, b, d)``."""
    return not is_within(a, b, d)


# --------------------------------------------------------------------------- arcs


def _dot_range(observer: Footprint, target: Shape) -> tuple[float, float]:
    """Min and max of ``dot(p - centre, heading)`` over all points ``p`` of the target."""
    cx, cy = observer.centre
    hx, hy = heading_vector(observer.facing)
    if isinstance(target, Disc):
        d = (target.x - cx) * hx + (target.y - cy) * hy
        return (d - target.radius, d + target.radius)
    if isinstance(target, tuple):
        px, py = _as_point(target)
        d = (px - cx) * hx + (py - cy) * hy
        return (d, d)
    # A linear function over a polygon/line reaches its extremes at vertices.
    pts: Sequence[Point2]
    if isinstance(target, Rect):
        pts = target.corners
    else:
        coords = shapely.get_coordinates(target)
        if len(coords) == 0:
            raise ValueError("empty geometry has no arc position")
        dots = (coords[:, 0] - cx) * hx + (coords[:, 1] - cy) * hy
        return (float(dots.min()), float(dots.max()))
    dots_list = [(px - cx) * hx + (py - cy) * hy for px, py in pts]
    return (min(dots_list), max(dots_list))


def in_front_arc(observer: Footprint, target: Shape) -> bool:
    """True if any part of ``target`` lies in the observer's front half-plane.

    The half-plane is closed: a point exactly on the line through the centre
    (perpendicular to the facing) is in the front arc *and* in the rear arc.
    """
    return _dot_range(observer, target)[1] >= -EPS


def in_rear_arc(observer: Footprint, target: Shape) -> bool:
    """True if any part of ``target`` lies in the observer's (closed) rear half-plane."""
    return _dot_range(observer, target)[0] <= EPS


def wholly_in_front_arc(observer: Footprint, target: Shape) -> bool:
    """True if every part of ``target`` lies in the observer's (closed) front half-plane."""
    return _dot_range(observer, target)[0] >= -EPS


def wholly_in_rear_arc(observer: Footprint, target: Shape) -> bool:
    """True if every part of ``target`` lies in the observer's (closed) rear half-plane."""
    return _dot_range(observer, target)[1] <= EPS


def _half_plane_box(observer: Footprint, reach: float, sign: float) -> Polygon:
    if reach <= 0:
        raise ValueError(f"reach must be > 0, got {reach}")
    cx, cy = observer.centre
    hx, hy = heading_vector(observer.facing)
    hx, hy = hx * sign * reach, hy * sign * reach
    lx, ly = -hy, hx  # perpendicular, same length
    return Polygon(
        [
            (cx + lx, cy + ly),
            (cx + lx + hx, cy + ly + hy),
            (cx - lx + hx, cy - ly + hy),
            (cx - lx, cy - ly),
        ]
    )


def front_arc_polygon(observer: Footprint, reach: float) -> Polygon:
    """The front half-plane clipped to a box: ``reach`` ahead and ``reach`` to each side.

    Exact representation of the arc for anything within ``reach`` of the centre line
    (use a reach at least the board diagonal for intersection tests). For point/footprint
    membership prefer :func:`in_front_arc`.
    """
    return _half_plane_box(observer, reach, 1.0)


def rear_arc_polygon(observer: Footprint, reach: float) -> Polygon:
    """The rear half-plane clipped to a box; see :func:`front_arc_polygon`."""
    return _half_plane_box(observer, reach, -1.0)


# --------------------------------------------------------------------------- paths


def path_length(points: Sequence[Point2]) -> float:
    """Total length of the polyline through ``points`` (0 for fewer than two points)."""
    return math.fsum(
        math.hypot(bx - ax, by - ay) for (ax, ay), (bx, by) in itertools.pairwise(points)
    )


def path_crosses(points: Sequence[Point2], geom: Shape) -> bool:
    """True if the polyline enters the *interior* of ``geom``.

    Touching the boundary only (grazing, running along an edge, ending on it) is
    allowed: ``path.intersects(geom) and not path.touches(geom)``. For a :class:`Disc`
    this is exact: the path crosses iff it comes closer than ``radius - EPS`` to the
    centre.
    """
    path = _line(points)
    if isinstance(geom, Disc):
        return float(path.distance(shapely.points(geom.centre))) < geom.radius - EPS
    g = to_geometry(geom)
    return bool(path.intersects(g)) and not bool(path.touches(g))


def path_min_distance(points: Sequence[Point2], target: Shape) -> float:
    """Closest approach of the polyline to ``target`` (exact for discs)."""
    return distance(_line(points), target)


def path_min_distances(points: Sequence[Point2], targets: Sequence[BaseGeometry]) -> list[float]:
    """`path_min_distance` to each of some shapely geometries (terrain): the line
    built once and the distances asked in one array call (the same GEOS distance,
    so the same floats)."""
    found = shapely.distance(_line(points), np.array(targets, dtype=object))
    return [float(gap) for gap in found]


# --------------------------------------------------------------------------- obstacles


class Obstacles:
    """Immutable spatial index of obstacle geometries, keyed by string id.

    Query results are sorted and de-duplicated, so they never depend on the order
    the obstacles were given in. An id may appear more than once (several pieces).
    `under` is another index whose obstacles count too (terrain kept for a whole game
    under the units of one decision), so only the new layer's tree is built.
    """

    __slots__ = ("_array", "_geoms", "_ids", "_tree", "_under")

    #: Up to this many geometries a query asks the predicate of every one in one
    #: array call (no tree to build, and faster than a tree's query at this size);
    #: beyond it a tree (STRtree) picks the candidates first. Same answers either way
    #: (`test_geometry_obstacles`).
    SMALL = 48

    def __init__(self, items: Iterable[tuple[str, BaseGeometry | Rect | Disc]], *,
                 under: Obstacles | None = None) -> None:
        pairs = sorted(((oid, to_geometry(g)) for oid, g in items), key=lambda p: p[0])
        self._ids: tuple[str, ...] = tuple(oid for oid, _ in pairs)
        self._geoms: tuple[BaseGeometry, ...] = tuple(g for _, g in pairs)
        self._array = np.array(self._geoms, dtype=object)
        self._tree = shapely.STRtree(list(self._geoms)) if len(pairs) > self.SMALL else None
        self._under = under if under is not None and len(under) else None

    def __len__(self) -> int:
        return len(self._ids) + (len(self._under) if self._under is not None else 0)

    @property
    def ids(self) -> tuple[str, ...]:
        """Distinct obstacle ids, sorted."""
        under = self._under.ids if self._under is not None else ()
        return tuple(sorted({*self._ids, *under}))

    def geometries(self, oid: str) -> tuple[BaseGeometry, ...]:
        """All geometries registered under ``oid``."""
        own = tuple(g for i, g in zip(self._ids, self._geoms, strict=True) if i == oid)
        return own + (self._under.geometries(oid) if self._under is not None else ())

    def _hits(self, geom: Shape, predicate: str, **options: float) -> list[int]:
        """The indices (ascending) of the geometries for which `predicate`
        ("intersects", or "dwithin" with `distance`) holds."""
        if not self._ids:
            return []
        shape = to_geometry(geom)
        if self._tree is not None:
            return sorted(int(i) for i in self._tree.query(shape, predicate=predicate,
                                                            **options))
        if predicate == "dwithin":  # touching is within any reach, 0 included
            held = (shapely.dwithin(self._array, shape, options["distance"])
                    | shapely.intersects(self._array, shape))
        else:
            assert predicate == "intersects" and not options
            held = shapely.intersects(self._array, shape)
        return [int(i) for i in np.flatnonzero(held)]

    def blocking_ids(self, geom: Shape, *, ignore: Iterable[str] = ()) -> list[str]:
        """Sorted ids whose geometry intersects ``geom`` (touching counts), minus ``ignore``."""
        skip = frozenset(ignore)
        found = {self._ids[i] for i in self._hits(geom, "intersects")} - skip
        if self._under is not None:
            found.update(self._under.blocking_ids(geom, ignore=skip))
        return sorted(found)

    def hitting(self, geom: Shape, *, ignore: Iterable[str] = ()) -> list[BaseGeometry]:
        """The obstacle geometries that intersect ``geom`` (touching counts), minus ``ignore``."""
        skip = frozenset(ignore)
        found = [self._geoms[i] for i in self._hits(geom, "intersects")
                 if self._ids[i] not in skip]
        return found + (self._under.hitting(geom, ignore=skip) if self._under is not None
                        else [])

    def near(self, geom: Shape, reach: float) -> list[tuple[str, BaseGeometry]]:
        """The obstacles within ``reach`` of ``geom`` (one `dwithin` query per layer), by
        id, and in the order they were given within an id. One whose distance is
        ``reach`` to the last bits of a float may or may not be listed (the tree's
        prepared distance and the plain one can round apart): a caller asks a
        little farther than it needs and decides with the exact distance."""
        found = [(self._ids[i], self._geoms[i]) for i in self._hits(geom, "dwithin",
                                                                     distance=reach)]
        if self._under is not None:
            found += self._under.near(geom, reach)
        return sorted(found, key=lambda pair: pair[0])

    def is_clear(self, geom: Shape, *, ignore: Iterable[str] = ()) -> bool:
        """True if no obstacle (other than ``ignore``) intersects ``geom``."""
        return not self.blocking_ids(geom, ignore=ignore)


def segment(a: Footprint | Point2, b: Footprint | Point2) -> BaseGeometry:
    """Segment between two points or footprint centres (a Point if they coincide)."""
    return _line([_centre_of(a), _centre_of(b)])


def convex_hull(points: Sequence[Point2]) -> Polygon:
    """The convex hull of some points (vectorised: ~4x faster than MultiPoint).

    Asked of a line through the points, which shapely builds faster than a
    multipoint: GEOS's hull reads the same coordinates in the same order, so it
    is the same polygon, point for point (`test_geometry`). One point (or none
    distinct enough for a line) goes as a multipoint."""
    listed = list(points)
    if len(listed) < 2:
        single: Polygon = shapely.convex_hull(shapely.multipoints(listed))
        return single
    hull: Polygon = shapely.convex_hull(shapely.linestrings(listed))
    return hull


@lru_cache(maxsize=1024)
def swept_area(start: Footprint, end: Footprint) -> Polygon:
    """The ground a footprint covers moving in a straight line from `start` to `end`
    (kept per pair: a move's sweep is asked about every base near it, and a
    shapely polygon is immutable)."""
    straight = _straight_ahead_sweep(start, end)
    if straight is not None:
        return straight
    return convex_hull([*_outline(start), *_outline(end)])


def _straight_ahead_sweep(start: Footprint, end: Footprint) -> Polygon | None:
    """A rectangle moved along its own facing sweeps a longer rectangle (its exact
    hull, without building one); None for any other move."""
    if not (isinstance(start, Rect) and isinstance(end, Rect)) or (
        (start.width, start.depth, start.facing) != (end.width, end.depth, end.facing)
    ):
        return None
    hx, hy = heading_vector(start.facing)
    dx, dy = end.x - start.x, end.y - start.y
    if abs(dx * hy - dy * hx) > 1e-9:
        return None
    along = abs(dx * hx + dy * hy)
    midway = Rect((start.x + end.x) / 2, (start.y + end.y) / 2, start.width,
                  start.depth + along, start.facing)
    return _quad(_rect_corners(midway))


def _outline(shape: Footprint) -> list[Point2]:
    if isinstance(shape, Rect):
        return list(shape.corners)
    return [(float(x), float(y)) for x, y in shape.polygon.exterior.coords]


def sweep_hull(footprint: Footprint, point: Point2) -> Polygon:
    """Convex hull of the footprint's polygon plus ``point``.

    Covers every segment from any point of the footprint to ``point``.
    """
    return convex_hull([*_outline(footprint), _as_point(point)])


def is_anything_between(
    a: Footprint | Point2,
    b: Footprint | Point2,
    obstacles: Obstacles,
    *,
    ignore: Iterable[str] = (),
) -> list[str]:
    """Sorted ids of obstacles intersecting the segment between ``a`` and ``b``.

    ``a``/``b`` are points or footprints (their centres are used). Touching counts,
    including an obstacle that only touches an endpoint, so callers must pass the ids
    of the units/objects at the ends (e.g. the moving unit itself) in ``ignore``.
    """
    return obstacles.blocking_ids(segment(a, b), ignore=ignore)


def is_anything_between_hull(
    footprint: Footprint,
    point: Point2,
    obstacles: Obstacles,
    *,
    ignore: Iterable[str] = (),
) -> list[str]:
    """Sorted ids of obstacles between any point of ``footprint`` and ``point``.

    Uses :func:`sweep_hull`; touching counts, so pass the footprint's own id in ``ignore``.
    """
    return obstacles.blocking_ids(sweep_hull(footprint, point), ignore=ignore)


def target_samples(origin: Point2, target: Footprint, samples: int = 16) -> list[Point2]:
    """Sample points of a target's outline, most promising first (the ones
    :func:`has_clear_line` tries)."""
    pts: list[Point2] = [target.centre]
    if isinstance(target, Disc):
        cx, cy, r = target.x, target.y, target.radius
        ox, oy = origin
        d = math.hypot(ox - cx, oy - cy)
        if d > 0:
            base = math.atan2(oy - cy, ox - cx)
            pts.append((cx + r * math.cos(base), cy + r * math.sin(base)))  # nearest point
            if d > r:
                # Tangent points: the extreme lines of sight that still reach the disc.
                alpha = math.acos(r / d)
                for ang in (base + alpha, base - alpha):
                    pts.append((cx + r * math.cos(ang), cy + r * math.sin(ang)))
        for k in range(samples):
            ang = 2.0 * math.pi * k / samples
            pts.append((cx + r * math.cos(ang), cy + r * math.sin(ang)))
        return pts
    corners = target.corners
    per_edge = max(1, samples // 4)
    for i, (ax, ay) in enumerate(corners):
        bx, by = corners[(i + 1) % 4]
        for k in range(per_edge):
            t = k / per_edge
            pts.append((ax + (bx - ax) * t, ay + (by - ay) * t))
    return pts


def has_clear_line(
    a_point: Point2,
    target: Footprint,
    obstacles: Obstacles,
    *,
    ignore: Iterable[str] = (),
    samples: int = 16,
) -> bool:
    """Is there a straight segment from ``a_point`` to some point of ``target`` that no
    obstacle (other than ``ignore``) intersects? Touching an obstacle blocks it.

    First the cheap tries: the centre and ``samples`` points of the outline (for a
    :class:`Disc` also the nearest point and the two tangent points seen from
    ``a_point``). If none is clear, the exact answer: is any of the target left
    outside the obstacles' shadows (:func:`sees_part_of`)? So a sliver seen
    through a narrow gap counts. Pass the target's own id (and the shooter's) in
    ``ignore``.
    """
    if samples < 4:
        raise ValueError(f"samples must be >= 4, got {samples}")
    origin = _as_point(a_point)
    skip = frozenset(ignore)
    if any(
        obstacles.is_clear(_line([origin, p]), ignore=skip)
        for p in target_samples(origin, target, samples)
    ):
        return True
    return sees_part_of(origin, to_geometry(target), obstacles, ignore=skip)


def sees_part_of(
    origin: Point2, region: BaseGeometry, obstacles: Obstacles, *, ignore: Iterable[str] = ()
) -> bool:
    """Does a segment from ``origin`` reach some point of ``region`` without touching
    any obstacle? Exact for polygonal obstacles: a point is hidden exactly when it
    lies in an obstacle's shadow seen from ``origin`` (see :func:`shadow`), so the
    answer is whether ``region`` keeps any area outside the shadows. A region of no
    area (a point, a line) is tried point by point.
    """
    if region.is_empty:
        return False
    skip = frozenset(ignore)
    if region.area <= 0.0:
        return any(obstacles.is_clear(_line([origin, p]), ignore=skip)
                   for p in shapely.get_coordinates(region).tolist())
    cone = convex_hull([origin, *shapely.get_coordinates(region).tolist()])
    blockers = obstacles.hitting(cone, ignore=skip)
    if not blockers:
        return True
    reach = 2.0 * max(_farthest(origin, g) for g in (region, *blockers)) + 1.0
    hidden = shapely.union_all([shadow(origin, g, reach) for g in blockers])
    return bool(region.difference(hidden).area > AREA_EPS)


#: Visible area below this (square inches) is a numerical sliver, not a view.
AREA_EPS = 1e-12


def shadow(origin: Point2, obstacle: BaseGeometry, reach: float) -> BaseGeometry:
    """What ``obstacle`` hides from ``origin``, out to ``reach`` inches: the obstacle
    itself and, for each of its edges, the ground behind that edge (the edge and
    its two ends pushed out along the lines of sight)."""
    ox, oy = origin
    parts = [obstacle]
    for ring in _rings(obstacle):
        for (ax, ay), (bx, by) in itertools.pairwise(ring):
            if abs((ax - ox) * (by - oy) - (ay - oy) * (bx - ox)) <= 1e-15:
                continue  # an edge seen end-on hides nothing beyond itself
            far_side = far_arc(origin, (bx, by), (ax, ay), reach)
            parts.append(Polygon([(ax, ay), (bx, by), *far_side]))
    return shapely.union_all(parts)


#: The widest angle, seen from the origin, between two points of a shadow's far
#: side: a chord under 10° stays within 0.4 % of `reach`, so nothing nearer than
#: `reach` / 1.004 escapes the shadow however wide an edge looks (a wall 1" away).
SHADOW_ARC_STEP = math.radians(10.0)


def far_arc(origin: Point2, start: Point2, end: Point2, reach: float) -> list[Point2]:
    """The far side of a shadow: ``start`` and ``end`` pushed out to ``reach`` from
    ``origin``, with points on that circle between them every `SHADOW_ARC_STEP`
    (the shorter way round). A plain chord between the two pushed points would cut
    the shadow short behind an edge that spans a wide angle."""
    ox, oy = origin
    first = math.atan2(start[1] - oy, start[0] - ox)
    turn = (math.atan2(end[1] - oy, end[0] - ox) - first + math.pi) % (2 * math.pi) - math.pi
    parts = max(1, math.ceil(abs(turn) / SHADOW_ARC_STEP))
    between = [(ox + reach * math.cos(first + turn * i / parts),
                oy + reach * math.sin(first + turn * i / parts)) for i in range(1, parts)]
    return [_pushed(origin, start, reach), *between, _pushed(origin, end, reach)]


def _rings(geometry: BaseGeometry) -> list[list[Point2]]:
    """Every boundary line of a geometry as point lists (polygon rings, lines)."""
    lines = shapely.get_parts(shapely.boundary(geometry)) if geometry.area > 0 else [geometry]
    rings: list[list[Point2]] = []
    for line in lines:
        for part in shapely.get_parts(line):
            rings.append([(float(x), float(y)) for x, y in shapely.get_coordinates(part)])
    return rings


def _pushed(origin: Point2, point: Point2, reach: float) -> Point2:
    """``point`` moved away from ``origin`` along their line to ``reach`` from it."""
    ox, oy = origin
    dx, dy = point[0] - ox, point[1] - oy
    length = math.hypot(dx, dy)
    if length <= 0.0 or length >= reach:
        return point
    return (ox + dx * reach / length, oy + dy * reach / length)


def _farthest(origin: Point2, geometry: BaseGeometry) -> float:
    """How far the farthest corner of the geometry's bounding box is from ``origin``."""
    x0, y0, x1, y1 = geometry.bounds
    return max(math.hypot(x - origin[0], y - origin[1]) for x in (x0, x1) for y in (y0, y1))


# --------------------------------------------------------------------------- board


def polygon_from_points(points: Sequence[Point2]) -> Polygon:
    """Polygon from its outline points (at least three; closing point optional).

    Terrain outlines are asked for again and again, so equal outlines given as
    tuples share one (immutable) polygon.
    """
    if len(points) < 3:
        raise ValueError("a polygon needs at least three points")
    if isinstance(points, tuple):
        return _cached_polygon(points)
    return Polygon([_as_point(p) for p in points])


def polygon_problem(points: Sequence[Point2]) -> str | None:
    """Why an outline is not a usable terrain polygon (crossing itself, no area),
    or None. Geometry on such a polygon is undefined, so set-up refuses it."""
    if len(points) < 3:
        return "a polygon needs at least three points"
    polygon = Polygon([_as_point(p) for p in points])
    if not polygon.is_valid:
        return f"its outline is not a simple polygon ({shapely.is_valid_reason(polygon)})"
    if polygon.area <= 0.0:
        return "its points enclose no area"
    return None


@lru_cache(maxsize=4096)
def _cached_polygon(points: tuple[Point2, ...]) -> Polygon:
    return Polygon([_as_point(p) for p in points])


def board_polygon(width: float, height: float) -> Polygon:
    """The board rectangle ``[0, width] x [0, height]``."""
    return box(0.0, 0.0, width, height)


def is_wholly_on_board(shape: Footprint | Point2, width: float, height: float) -> bool:
    """True if every part of the shape lies on the board (edges allowed, :data:`EPS` slack).

    Exact for discs (centre ± radius against the edges).
    """
    if isinstance(shape, Disc):
        r = shape.radius
        xs: Sequence[float] = (shape.x - r, shape.x + r)
        ys: Sequence[float] = (shape.y - r, shape.y + r)
    elif isinstance(shape, Rect):
        xs = [px for px, _ in shape.corners]
        ys = [py for _, py in shape.corners]
    else:
        px, py = _as_point(shape)
        xs, ys = (px,), (py,)
    return (
        min(xs) >= -EPS and max(xs) <= width + EPS and min(ys) >= -EPS and max(ys) <= height + EPS
    )


def is_on_board_edge(point: Point2, width: float, height: float) -> bool:
    """True if the point is on the board and within :data:`EPS` of one of its edges."""
    x, y = _as_point(point)
    if not is_wholly_on_board((x, y), width, height):
        return False
    return min(abs(x), abs(width - x), abs(y), abs(height - y)) <= EPS
