"""Questions about figures: which unit a figure belongs to, where it stands,
what it touches, who controls it, and where a rider's base could be put down.

A cavalry unit answers as one figure on the mount's base (MNT-32 … MNT-34).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import TYPE_CHECKING, get_args

from domain.deferred import defer

if TYPE_CHECKING:
    import shapely
    from shapely.geometry import LineString, Polygon
    from shapely.geometry import Point as ShapelyPoint
    from shapely.geometry.base import BaseGeometry
else:  # shapely loads on first use: a replay of a game's events needs none of it
    defer(globals(), shapely="shapely", LineString="shapely.geometry:LineString",
          Polygon="shapely.geometry:Polygon", ShapelyPoint="shapely.geometry:Point",
          BaseGeometry="shapely.geometry.base:BaseGeometry")

from domain.errors import InputError, RuleViolation
from domain.geometry import (
    EPS,
    Disc,
    Footprint,
    Rect,
    distance,
    heading_vector,
    is_wholly_on_board,
    round_buffer,
    segment,
    swept_area,
)
from domain.geometry import polygon_from_points as polygon
from domain.mageknight.state import Figure, MageKnightState
from domain.state import to_read
from events.core import TerrainKind, TerrainPiece

Point = tuple[float, float]
BLOCKS_PLACEMENT = frozenset({"impassable", "blocking"})
TERRAIN_KINDS: frozenset[str] = frozenset(get_args(TerrainKind))


def figure(state: MageKnightState, figure_id: str) -> Figure:
    """The figure with this id (INPUT if there is none)."""
    found = state.units.get(figure_id)
    if found is None:
        raise InputError(f"there is no figure {figure_id!r} in this game")
    return found


def on_table(state: MageKnightState, figure_id: str) -> Figure:
    """The figure, which must be on the battlefield (INPUT otherwise)."""
    fig = figure(state, figure_id)
    if fig.status != "on_table":
        raise InputError(f"{figure_id} is not on the battlefield ({fig.status})")
    return fig


def is_cavalry(fig: Figure) -> bool:
    """MNT-16: a mount with a rider, or a rider on a mount, is a cavalry unit."""
    return (fig.is_mount and fig.rider is not None) or fig.mount is not None


def unit_of(state: MageKnightState, fig: Figure) -> Figure:
    """The figure that stands for the figure's unit: a rider's mount, else itself."""
    return state.units[fig.mount] if fig.mount is not None else fig


def rider_of(state: MageKnightState, unit: Figure) -> Figure | None:
    """The rider of a cavalry unit (given by its mount), if it has one."""
    return state.units[unit.rider] if unit.rider is not None else None


def members(state: MageKnightState, fig: Figure) -> tuple[str, ...]:
    """MNT-32: the figures that make up one figure on the table (mount and rider)."""
    unit = unit_of(state, fig)
    return (unit.id, unit.rider) if unit.rider is not None else (unit.id,)


def body(state: MageKnightState, fig: Figure) -> Footprint:
    """MNT-32: the base a figure occupies; a rider occupies its mount's base."""
    shape = unit_of(state, fig).footprint()
    if shape is None:
        raise InputError(f"{fig.id} is not on the battlefield")
    return shape


def stands_for_itself(fig: Figure) -> bool:
    """On the table and not a rider (a rider is in its mount's base)."""
    return fig.status == "on_table" and fig.mount is None


def units_on_table(state: MageKnightState) -> Iterator[Figure]:
    """Every figure on the table that stands for itself (riders are in their mounts)."""
    for fig_id in sorted(fig.id for fig in to_read(state.units) if stands_for_itself(fig)):
        yield state.units[fig_id]


Bounds = tuple[float, float, float, float]
#: How far (inches) the boxes of two shapes must be apart, beyond the reach asked
#: about, before the shapes are skipped: far above EPS and any rounding.
NEAR_SLACK = 1e-3


def bounds_of(shape: Footprint | BaseGeometry) -> Bounds:
    """The shape's bounding box (min x, min y, max x, max y), without shapely for a base."""
    if isinstance(shape, Disc):
        r = shape.radius
        return (shape.x - r, shape.y - r, shape.x + r, shape.y + r)
    if isinstance(shape, Rect):
        xs = [x for x, _ in shape.corners]
        ys = [y for _, y in shape.corners]
        return (min(xs), min(ys), max(xs), max(ys))
    x0, y0, x1, y1 = shape.bounds
    return (x0, y0, x1, y1)


def around(*shapes: Footprint | BaseGeometry) -> Bounds:
    """The box around all the shapes."""
    boxes = [bounds_of(s) for s in shapes]
    return (min(b[0] for b in boxes), min(b[1] for b in boxes),
            max(b[2] for b in boxes), max(b[3] for b in boxes))


def is_beyond(box: Bounds, area: Bounds, reach: float) -> bool:
    """Are the two boxes more than `reach` (plus NEAR_SLACK) apart along x or y?
    Then every shape in one is farther than `reach` from every shape in the other,
    so no exact question about them need be asked."""
    reach += NEAR_SLACK
    return (box[0] - area[2] > reach or area[0] - box[2] > reach
            or box[1] - area[3] > reach or area[1] - box[3] > reach)


def base_box(fig: Figure) -> Bounds:
    """The box around a figure's base on the table, from its numbers alone (as
    `bounds_of` its footprint, to rounding, which NEAR_SLACK covers)."""
    assert fig.x is not None and fig.y is not None
    if not fig.is_mount:
        r = fig.base / 2.0
        return (fig.x - r, fig.y - r, fig.x + r, fig.y + r)
    hx, hy = heading_vector(fig.facing or 0.0)
    half_x = (abs(hx) * fig.depth + abs(hy) * fig.width) / 2.0
    half_y = (abs(hy) * fig.depth + abs(hx) * fig.width) / 2.0
    return (fig.x - half_x, fig.y - half_y, fig.x + half_x, fig.y + half_y)


def bases_near(
    state: MageKnightState, area: Bounds, reach: float, ignore: Iterable[str] = ()
) -> list[tuple[Figure, Footprint]]:
    """The figures on the table (by id, as `units_on_table`) whose base may lie
    within `reach` of the box `area`, with their bases: every one that does, and
    perhaps a few that do not (the exact questions are still asked of them)."""
    skip = frozenset(ignore)
    near = sorted(fig.id for fig in to_read(state.units) if stands_for_itself(fig)
                  and fig.id not in skip and may_be_near(fig, area, reach))
    return [(fig, body(state, fig)) for fig in (state.units[fig_id] for fig_id in near)]


def may_be_near(fig: Figure, area: Bounds, reach: float) -> bool:
    """Not `is_beyond(base_box(fig), area, reach)` (and True for a figure with no
    place), computed inline: a round base's box as `base_box` makes it; a mount's
    first by the circle around its base (half its diagonal: no trigonometry), which
    holds its box, and only when that is near, by its box."""
    x, y = fig.x, fig.y
    if x is None or y is None:
        return True
    x0, y0, x1, y1 = area
    out = reach + NEAR_SLACK
    if fig.kind != "mount":
        r = fig.base / 2.0
        return not (x - r - x1 > out or x0 - (x + r) > out
                    or y - r - y1 > out or y0 - (y + r) > out)
    r = math.hypot(fig.width, fig.depth) / 2.0
    if x - r - x1 > out or x0 - (x + r) > out or y - r - y1 > out or y0 - (y + r) > out:
        return False
    return not is_beyond(base_box(fig), area, reach)


def terrain_near(
    state: MageKnightState, kinds: frozenset[str], area: Bounds, reach: float
) -> list[tuple[TerrainPiece, Polygon]]:
    """The terrain pieces of `kinds` (in the game's order) that may lie within
    `reach` of the box `area`, with their polygons (as `bases_near`)."""
    return [(piece, polygon(piece.polygon)) for piece in state.terrain
            if piece.kind in kinds and not is_beyond(outline_box(piece.polygon), area, reach)]


@lru_cache(maxsize=4096)
def outline_box(points: tuple[Point, ...]) -> Bounds:
    """The box around a terrain outline (kept per outline, as its polygon is)."""
    xs = [x for x, _ in points]
    ys = [y for _, y in points]
    return (min(xs), min(ys), max(xs), max(ys))


def is_opposing(a: Figure, b: Figure) -> bool:
    """Are the two figures on different sides right now (MNT-65, MNT-66)?"""
    return a.controlled_by != b.controlled_by


def is_touching(a: Footprint, b: Footprint) -> bool:
    """Base contact: the two bases touch (within EPS)."""
    return distance(a, b) <= EPS


def overlaps(a: Footprint, b: Footprint) -> bool:
    """Do the two bases overlap (more than touching)?"""
    if isinstance(a, Disc):
        return distance(a.centre, b) < a.radius - EPS
    if isinstance(b, Disc):
        return overlaps(b, a)
    return overlap_area_exceeds(a.polygon, b.polygon, EPS)


def overlap_area_exceeds(a: BaseGeometry, b: BaseGeometry, least: float) -> bool:
    """Is the area the two shapes share more than `least` (≥ 0)? Shapes that do not
    meet share none, which `intersects` tells without building the overlap."""
    return bool(a.intersects(b)) and bool(a.intersection(b).area > least)


def gap(state: MageKnightState, a: Figure, b: Figure) -> float:
    """The distance between two figures' bases (0 for the two figures of one unit)."""
    if unit_of(state, a).id == unit_of(state, b).id:
        return 0.0
    return distance(body(state, a), body(state, b))


def in_contact(state: MageKnightState, a: Figure, b: Figure) -> bool:
    """MNT-32, MNT-33: base contact, where a cavalry unit is one figure on its mount's base."""
    return gap(state, a, b) <= EPS


def check_in_contact(
    state: MageKnightState, figure: Figure, other: Figure, rule: str, purpose: str,
    *, named: str | None = None,
) -> None:
    """`other` is in base contact with `figure` (MNT-32, MNT-33), as `purpose` needs;
    otherwise refuse, citing `rule`, with the gap in inches."""
    if not in_contact(state, figure, other):
        raise RuleViolation(
            rule,
            f'{other.id} is {gap(state, figure, other):.2f}" from {named or figure.id}; '
            f"{purpose} needs base contact",
        )


def opposing_in_contact(state: MageKnightState, fig: Figure) -> list[Figure]:
    """The opposing figures (units) in base contact with the figure's unit."""
    unit = unit_of(state, fig)
    return [
        other
        for other, _ in bases_near(state, bounds_of(body(state, unit)), EPS, {unit.id})
        if is_opposing(unit, other) and in_contact(state, unit, other)
    ]


def point_at(spot: Point) -> ShapelyPoint:
    """A shapely point (`shapely.points`: the same point as `Point(spot)`, faster)."""
    made: ShapelyPoint = shapely.points(spot)
    return made


def terrain_at(state: MageKnightState, point: Point) -> set[str]:
    """The kinds of terrain whose polygon holds the point."""
    spot = point_at(point)
    return {piece.kind for piece, outline in terrain_near(state, TERRAIN_KINDS, (*point, *point),
                                                          0.0) if outline.covers(spot)}


def terrain_of(state: MageKnightState, fig: Figure) -> set[str]:
    """MNT-34: the terrain a figure is in, judged at its unit's centre dot."""
    return terrain_at(state, body(state, fig).centre)


def is_flying(state: MageKnightState, fig: Figure) -> bool:
    """A figure with the Flight ability (for a cavalry unit: its mount's) is flying."""
    return "flight" in unit_of(state, fig).abilities


def is_ground_level(state: MageKnightState, fig: Figure) -> bool:
    """A-MNT-28: at ground level unless flying or on elevated terrain."""
    return not is_flying(state, fig) and "elevated" not in terrain_of(state, fig)


def covers_more_than_touching(area: Polygon, base: Footprint | Polygon) -> bool:
    """Does the ground `area` cover part of `base` (more than touching it)?
    Exact for a round base: its centre is nearer the area than its radius."""
    if isinstance(base, Disc):
        return float(area.distance(point_at(base.centre))) < base.radius - EPS
    shape = base.polygon if isinstance(base, Rect) else base
    return overlap_area_exceeds(area, shape, EPS)


def sweeps_over(start: Footprint, end: Footprint, other: Footprint | Polygon) -> bool:
    """CORE-MK-MOVE: does a base moving straight from `start` to `end` (same shape,
    same facing) pass over `other`, more than touching it? A round base sweeps
    its centre's segment widened by its radius (exact); a rectangle sweeps the
    hull of its two places."""
    if isinstance(start, Disc):
        return distance(segment(start, end), other) < start.radius - EPS
    return covers_more_than_touching(swept_area(start, end), other)


def overlapped_base(state: MageKnightState, shape: Footprint, ignore: set[str]) -> Figure | None:
    """The first figure (by id) whose base `shape` overlaps, ignoring `ignore`."""
    for other, base in bases_near(state, bounds_of(shape), 0.0, ignore):
        if overlaps(shape, base):
            return other
    return None


def blocking_terrain_under(state: MageKnightState, shape: Footprint) -> TerrainPiece | None:
    """The first blocking or impassable terrain piece that `shape` stands on."""
    for piece, outline in terrain_near(state, BLOCKS_PLACEMENT, bounds_of(shape), 0.0):
        if covers_more_than_touching(outline, shape):
            return piece
    return None


def is_free_spot(state: MageKnightState, shape: Footprint, ignore: set[str]) -> bool:
    """Could a base stand here: on the board, off other bases, off blocking terrain?"""
    return (
        is_wholly_on_board(shape, state.board.width, state.board.height)
        and overlapped_base(state, shape, ignore) is None
        and blocking_terrain_under(state, shape) is None
    )


#: Segments per quarter circle of the buffers the room search builds.
ROOM_QUAD_SEGS = 64
#: Room narrower than this (inches) is not looked for: every forbidden region is
#: grown by it, so the point chosen stays clear of what it must not overlap.
ROOM_MARGIN = 1e-4


def growth(shape: Footprint | Polygon, by: float) -> float:
    """How far `grown` pushes out the shape's geometry (a round base's: its centre)."""
    if isinstance(shape, Disc):
        by += shape.radius
    return pushed_out(by)


def pushed_out(by: float) -> float:
    """How far a buffer by `by` at ROOM_QUAD_SEGS is asked for: enough that its
    polygon circumscribes the exact round parts, plus ROOM_MARGIN."""
    slack = by / math.cos(math.pi / (4 * ROOM_QUAD_SEGS)) - by + ROOM_MARGIN
    return by + slack


def grown_geometry(shape: Footprint | Polygon) -> BaseGeometry:
    """What `grown` buffers: a round base's centre, else the shape's polygon."""
    if isinstance(shape, Disc):
        return point_at(shape.centre)
    return shape.polygon if isinstance(shape, Rect) else shape


def grown(shape: Footprint | Polygon, by: float) -> Polygon:
    """`shape` grown by `by` inches, a little more than exactly: the buffer's
    polygon circumscribes its round parts, plus ROOM_MARGIN."""
    return round_buffer(grown_geometry(shape), growth(shape, by), ROOM_QUAD_SEGS)


@lru_cache(maxsize=4096)
def grown_base(shape: Footprint, by: float) -> Polygon:
    """`grown` for a base, kept per base and distance: a figure standing still is
    asked about again at every room search near it (shapely's geometries are
    immutable, so one can be shared)."""
    return grown(shape, by)


@lru_cache(maxsize=1024)
def grown_outline(points: tuple[Point, ...], by: float) -> Polygon:
    """`grown` for a terrain outline, kept per outline and distance (terrain never moves)."""
    return grown(polygon(points), by)


@lru_cache(maxsize=1024)
def contact_line(mount_base: Rect, radius: float) -> BaseGeometry:
    """MNT-56: the line of centres `radius` from the mount's base (ROOM_QUAD_SEGS
    segments a quarter circle at its corners), kept per base and radius: a line
    string of the buffer's ring, the points in the ring's order."""
    ring = round_buffer(mount_base.polygon, radius, ROOM_QUAD_SEGS).exterior
    line: BaseGeometry = shapely.linestrings(shapely.get_coordinates(ring))
    return line


def within_board(line: BaseGeometry, board: Bounds) -> BaseGeometry:
    """The part of the contact line inside the box `board` (the part of the board
    that keeps the base on it): the line itself when its box is strictly inside
    (GEOS's intersection then gives the very points, in the same order:
    `test_near`), else the intersection."""
    x0, y0, x1, y1 = line.bounds
    if board[0] < x0 and board[1] < y0 and x1 < board[2] and y1 < board[3]:
        return line
    return line.intersection(shapely.box(*board))


def base_may_reach(fig: Figure, by: float, area: Bounds) -> bool:
    """`may_reach` for the figure's base, from its numbers: a round base's centre
    is the figure's x and y, its radius half its base (the very floats `Disc`
    gives); a mount's base is built, as `body` builds it."""
    assert fig.x is not None and fig.y is not None
    if fig.is_mount:
        # Its box from the numbers is the built base's to rounding: a box beyond
        # by a micro-inch more is beyond the built one too; the rest are built.
        if is_beyond(base_box(fig), area, pushed_out(by) + 1e-6):
            return False
        base = fig.footprint()
        assert base is not None
        return may_reach(base, by, area)
    return not is_beyond((fig.x, fig.y, fig.x, fig.y), area, growth_of_round(fig.base / 2.0, by))


def growth_of_round(radius: float, by: float) -> float:
    """`growth` of a round base of `radius` (its centre is what is buffered)."""
    return pushed_out(by + radius)


def may_reach(shape: Footprint | Polygon, by: float, area: Bounds) -> bool:
    """Could `shape` grown by `by` (`grown`) touch anything in the box `area`?
    False only when it certainly cannot (its box, pushed out as far, misses it)."""
    own = (*shape.centre, *shape.centre) if isinstance(shape, Disc) else bounds_of(shape)
    return not is_beyond(own, area, growth(shape, by))


def widened(box: Bounds, by: float) -> Bounds:
    """The box pushed out by `by` on every side."""
    return (box[0] - by, box[1] - by, box[2] + by, box[3] + by)


def contact_room(
    state: MageKnightState, mount_base: Rect, radius: float, ignore: set[str]
) -> BaseGeometry:
    """MNT-56, MNT-78, MNT-107: every centre where a round base of `radius` touches
    the mount's base and overlaps nothing: the line at `radius` around the mount,
    less the ground near other bases and blocking or impassable terrain, within
    the part of the board that keeps the base wholly on it. Lines (possibly none)."""
    line = contact_line(mount_base, radius)
    width, height = state.board.width, state.board.height
    if width < 2 * radius or height < 2 * radius:
        return LineString()
    # Only the ground that could reach the contact line is cut from it: what lies
    # farther cannot change the room (the same lines, point for point).
    line_box = widened(bounds_of(mount_base), radius)
    standing = sorted((fig for fig in to_read(state.units) if stands_for_itself(fig)),
                      key=lambda fig: fig.id)  # the order `units_on_table` gives
    forbidden = [grown_base(body(state, other), radius) for other in standing
                 if other.id not in ignore and base_may_reach(other, radius, line_box)]
    forbidden += [grown_outline(piece.polygon, radius) for piece in state.terrain
                  if piece.kind in BLOCKS_PLACEMENT
                  and not is_beyond(outline_box(piece.polygon), line_box, pushed_out(radius))]
    room = within_board(line, (radius, radius, width - radius, height - radius))
    if forbidden:
        # One grown shape is its own union (GEOS gives the very points back: test_near).
        room = room.difference(shapely.union_all(forbidden) if len(forbidden) > 1
                               else forbidden[0])
    return room


def rear_middle(mount_base: Rect, radius: float) -> Point:
    """The spot behind the middle of the mount's rear side, touching it."""
    (ax, ay), (bx, by) = mount_base.rear_edge
    hx, hy = heading_vector(mount_base.facing)
    return ((ax + bx) / 2 - hx * radius, (ay + by) / 2 - hy * radius)


def onto_contact(mount_base: Rect, radius: float, spot: Point) -> Point:
    """The spot moved onto the exact contact line: `radius` from the mount's base
    (the buffer's round corners are polygons), rounded to 1e-9"."""
    return onto_contact_all(mount_base, radius, [spot])[0]


def onto_contact_all(mount_base: Rect, radius: float, spots: list[Point]) -> list[Point]:
    """`onto_contact` of every spot, the nearest points on the base found in one
    shapely call (`shortest_line`, what `nearest_points` asks, so the same floats)."""
    lines = shapely.shortest_line(mount_base.polygon, shapely.points(spots))
    nearest = shapely.get_coordinates(lines)[0::2]
    moved: list[Point] = []
    for (sx, sy), (nx, ny) in zip(spots, nearest.tolist(), strict=True):
        dx, dy = sx - nx, sy - ny
        length = math.hypot(dx, dy)
        if length == 0.0:
            moved.append((sx, sy))
            continue
        x, y = nx + dx * radius / length, ny + dy * radius / length
        moved.append((round(x, 9) + 0.0, round(y, 9) + 0.0))
    return moved


def room_candidates(room: BaseGeometry, mount_base: Rect, radius: float) -> list[Point]:
    """INTERPRETATIONS CORE-MK-ROOM: of each stretch of room, its point nearest the
    spot behind the middle of the rear side (then its middle, as a fallback); the
    nearest first, ties to the smaller x, then the smaller y. Every stretch is
    asked at once (shapely's array calls: the same GEOS questions, the same floats)."""
    wanted = rear_middle(mount_base, radius)
    pieces = shapely.get_parts(shapely.line_merge(room) if room.geom_type == "MultiLineString"
                               else room)
    pieces = pieces[~shapely.is_empty(pieces)]
    if len(pieces) == 0:
        return []
    nearest = shapely.get_coordinates(shapely.shortest_line(pieces, point_at(wanted)))[0::2]
    middles = shapely.get_coordinates(
        shapely.line_interpolate_point(pieces, 0.5, normalized=True))
    spots: list[Point] = []
    for near, middle in zip(nearest.tolist(), middles.tolist(), strict=True):
        spots += [(near[0], near[1]), (middle[0], middle[1])]
    ranked = [(round(math.dist(spot, wanted), 9), spot[0], spot[1], index % 2)
              for index, spot in enumerate(onto_contact_all(mount_base, radius, spots))]
    return [(x, y) for _, x, y, _ in sorted(ranked, key=lambda c: (c[3], c[0], c[1], c[2]))]


def place_rider(
    state: MageKnightState, rider: Figure, mount: Figure, at: Point | None, clause: str
) -> Point:
    """Where the rider's own base goes, in contact with its mount (MNT-56, MNT-76).

    With `at`, that spot must touch the mount and be free; without it, the room
    is found exactly (`contact_room`) and one point of it chosen (CORE-MK-ROOM).
    No spot at all raises `clause` (the "no room" rule).
    """
    mount_base = mount.footprint()
    assert isinstance(mount_base, Rect)
    ignore = {mount.id, rider.id}
    if at is not None:
        disc = Disc(at[0], at[1], rider.base)
        if overlaps(disc, mount_base):
            raise RuleViolation(
                "MNT-76",
                f"a base at ({at[0]:g}, {at[1]:g}) would stand on {mount.id}'s base; the rider "
                f"must be placed in contact with its mount, beside it",
            )
        if not is_touching(disc, mount_base):
            raise RuleViolation(
                "MNT-76",
                f'a base at ({at[0]:g}, {at[1]:g}) is {distance(disc, mount_base):.2f}" '
                f"from {mount.id}; the rider must be placed in contact with its mount",
            )
        if not is_free_spot(state, disc, ignore):
            raise RuleViolation(
                clause, f"there is no room for {rider.id}'s base at ({at[0]:g}, {at[1]:g})"
            )
        return at
    radius = rider.base / 2.0
    for spot in room_candidates(contact_room(state, mount_base, radius, ignore), mount_base,
                                radius):
        disc = Disc(spot[0], spot[1], rider.base)
        if is_touching(disc, mount_base) and is_free_spot(state, disc, ignore):
            return spot
    raise RuleViolation(
        clause, f"there is no room to place {rider.id}'s base in contact with {mount.id}"
    )


def find_room(state: MageKnightState, rider: Figure, mount: Figure) -> Point | None:
    """A free spot touching the mount for the rider's base, or None (MNT-58, MNT-107)."""
    try:
        return place_rider(state, rider, mount, None, "MNT-58")
    except RuleViolation:
        return None
