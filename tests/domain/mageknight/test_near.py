"""The fast paths give the exact answers: on random crowded scenes, every
question that now looks only at the bases and terrain near it (`bases_near`,
`terrain_near`, the room search's `may_reach`) answers as the plain search over
every figure and every piece does (CORE-MK-MOVE, CORE-MK-CONTACT, MNT-33,
MNT-56, MNT-58, MNT-78, MNT-107, MNT-114, CORE-MK-ROOM).

The `exact_*` functions below are the searches as they were before the fast
paths: every figure on the table, every terrain piece, in order.
"""

from __future__ import annotations

import math
from typing import Any

import shapely
import shapely.ops
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shapely.geometry import LineString, Polygon, box
from shapely.geometry.base import BaseGeometry

from domain.errors import RuleViolation
from domain.geometry import Disc, Footprint, Rect, in_front_arc, swept_area
from domain.geometry import polygon_from_points as polygon
from domain.mageknight.actions import check_path, end_footprint, legs
from domain.mageknight.contact import front_arc_of, in_contact_ahead
from domain.mageknight.figures import (
    BLOCKS_PLACEMENT,
    base_box,
    blocking_terrain_under,
    body,
    contact_line,
    contact_room,
    covers_more_than_touching,
    find_room,
    grown,
    in_contact,
    is_beyond,
    is_ground_level,
    is_opposing,
    may_be_near,
    opposing_in_contact,
    overlap_area_exceeds,
    overlapped_base,
    overlaps,
    rear_middle,
    room_candidates,
    sweeps_over,
    terrain_at,
    unit_of,
    units_on_table,
    within_board,
)
from domain.mageknight.state import Figure, MageKnightState
from domain.mageknight.trample import trampled
from events.core import TerrainPiece

SCENES = settings(max_examples=80, deadline=None,
                  suppress_health_check=[HealthCheck.too_slow])
BOARD = 10.0

coordinate = st.floats(min_value=0.0, max_value=BOARD, allow_nan=False)
facing = st.one_of(st.sampled_from([0.0, 90.0, 180.0, 270.0]),
                   st.floats(min_value=0.0, max_value=359.0, allow_nan=False))


@st.composite
def figures(draw: st.DrawFn) -> list[dict[str, Any]]:
    """Warriors and cavalry units, close together (overlaps allowed: the
    questions must agree on any state)."""
    found: list[dict[str, Any]] = []
    for i in range(draw(st.integers(1, 9))):
        x, y, turn = draw(coordinate), draw(coordinate), draw(facing)
        owner = draw(st.sampled_from(["red", "blue"]))
        if draw(st.booleans()):
            found.append({"id": f"w{i}", "owner": owner, "x": x, "y": y, "facing": turn,
                          "base": draw(st.sampled_from([0.75, 1.0, 1.5, 2.0])),
                          "status": "on_table"})
            continue
        found.append({"id": f"m{i}", "owner": owner, "kind": "mount", "x": x, "y": y,
                      "facing": turn, "mount_type": "battle_horse", "intelligence": "pentagon",
                      "width": draw(st.sampled_from([1.25, 1.5])),
                      "depth": draw(st.sampled_from([2.0, 2.5])),
                      "rider": f"r{i}", "status": "on_table"})
        found.append({"id": f"r{i}", "owner": owner, "mount": f"m{i}", "x": x, "y": y,
                      "facing": turn, "base": draw(st.sampled_from([0.75, 1.0, 1.5])),
                      "status": "on_table"})
    return found


@st.composite
def terrain(draw: st.DrawFn) -> list[dict[str, Any]]:
    """A few triangles and rectangles of every kind that matters here."""
    pieces: list[dict[str, Any]] = []
    for i in range(draw(st.integers(0, 4))):
        x, y = draw(coordinate), draw(coordinate)
        w = draw(st.floats(min_value=0.2, max_value=4.0))
        h = draw(st.floats(min_value=0.2, max_value=4.0))
        points = ([(x, y), (x + w, y), (x + w, y + h), (x, y + h)] if draw(st.booleans())
                  else [(x, y), (x + w, y), (x, y + h)])
        kind = draw(st.sampled_from(["blocking", "impassable", "hindering", "elevated"]))
        pieces.append({"id": f"t{i}", "kind": kind, "polygon": points})
    return pieces


def scene(units: list[dict[str, Any]], pieces: list[dict[str, Any]]) -> MageKnightState:
    """A Mage Knight state with these figures and terrain, in red's action phase."""
    return MageKnightState.model_validate({
        "ruleset": "mageknight-2", "board": {"width": BOARD, "height": BOARD},
        "players": ["red", "blue"], "active_player": "red", "phase": "action",
        "units": {u["id"]: u for u in units}, "terrain": pieces,
    })


# --------------------------------------------------------------- the plain searches


def exact_opposing_in_contact(state: MageKnightState, fig: Figure) -> list[str]:
    unit = unit_of(state, fig)
    return [o.id for o in units_on_table(state)
            if o.id != unit.id and is_opposing(unit, o) and in_contact(state, unit, o)]


def exact_in_contact_ahead(state: MageKnightState, fig: Figure) -> list[str]:
    unit = unit_of(state, fig)
    arc = front_arc_of(state, fig)
    return [o.id for o in units_on_table(state)
            if o.id != unit.id and is_opposing(unit, o) and in_contact(state, unit, o)
            and in_front_arc(arc, body(state, o))]


def exact_overlapped_base(state: MageKnightState, shape: Footprint,
                          ignore: set[str]) -> str | None:
    for other in units_on_table(state):
        if other.id not in ignore and overlaps(shape, body(state, other)):
            return other.id
    return None


def exact_blocking_terrain_under(state: MageKnightState, shape: Footprint) -> str | None:
    for piece in state.terrain:
        if piece.kind in BLOCKS_PLACEMENT and covers_more_than_touching(
                polygon(list(piece.polygon)), shape):
            return piece.id
    return None


def exact_terrain_at(state: MageKnightState, point: tuple[float, float]) -> set[str]:
    spot = shapely.Point(point)
    return {t.kind for t in state.terrain if polygon(list(t.polygon)).covers(spot)}


def exact_sweep_blocker(state: MageKnightState, unit: Figure, path: list[tuple[float, float]],
                        over_bases: bool) -> str | None:
    """The first thing check_path's sweeps refuse (terrain first, then bases)."""
    assert unit.x is not None and unit.y is not None
    steps = legs(unit, [(unit.x, unit.y), *path])
    for piece in state.terrain:
        if piece.kind in BLOCKS_PLACEMENT and any(
                sweeps_over(a, b, polygon(list(piece.polygon))) for a, b in steps):
            return f"{unit.id}'s base would pass through {piece.kind} terrain {piece.id}"
    if over_bases:
        return None
    own = {unit.id, *([unit.rider] if unit.rider else [])}
    for other in units_on_table(state):
        shape = other.footprint()
        if other.id in own or shape is None:
            continue
        if any(sweeps_over(a, b, shape) for a, b in steps):
            return f"{unit.id}'s base would pass through {other.id}'s base"
    return None


def exact_trampled(state: MageKnightState, unit: Figure, area: Polygon) -> list[str]:
    return [o.id for o in units_on_table(state)
            if o.id != unit.id and is_ground_level(state, o)
            and covers_more_than_touching(area, body(state, o))]


def exact_contact_room(state: MageKnightState, mount_base: Rect, radius: float,
                       ignore: set[str]) -> BaseGeometry:
    line = mount_base.polygon.buffer(radius, quad_segs=64).exterior
    width, height = state.board.width, state.board.height
    if width < 2 * radius or height < 2 * radius:
        return LineString()
    forbidden = [grown(body(state, o), radius) for o in units_on_table(state)
                 if o.id not in ignore]
    forbidden += [grown(polygon(list(p.polygon)), radius) for p in state.terrain
                  if p.kind in BLOCKS_PLACEMENT]
    room = line.intersection(box(radius, radius, width - radius, height - radius))
    if forbidden:
        room = room.difference(shapely.union_all(forbidden))
    return room


def exact_onto_contact(mount_base: Rect, radius: float,
                       spot: tuple[float, float]) -> tuple[float, float]:
    near = shapely.ops.nearest_points(mount_base.polygon, shapely.Point(spot))[0]
    dx, dy = spot[0] - near.x, spot[1] - near.y
    length = math.hypot(dx, dy)
    if length == 0.0:
        return spot
    x, y = near.x + dx * radius / length, near.y + dy * radius / length
    return (round(x, 9) + 0.0, round(y, 9) + 0.0)


def exact_room_candidates(room: BaseGeometry, mount_base: Rect,
                          radius: float) -> list[tuple[float, float]]:
    """The candidates asked one stretch and one point at a time (the code before
    the array calls)."""
    wanted = rear_middle(mount_base, radius)
    aim = shapely.Point(wanted)
    ranked: list[tuple[float, float, float, int]] = []
    for piece in shapely.get_parts(shapely.line_merge(room) if room.geom_type == "MultiLineString"
                                   else room):
        if piece.is_empty:
            continue
        for rank, point in enumerate((shapely.ops.nearest_points(piece, aim)[0],
                                      piece.interpolate(0.5, normalized=True))):
            x, y = exact_onto_contact(mount_base, radius, (point.x, point.y))
            ranked.append((round(math.dist((x, y), wanted), 9), x, y, rank))
    return [(x, y) for _, x, y, _ in sorted(ranked, key=lambda c: (c[3], c[0], c[1], c[2]))]


# --------------------------------------------------------------- the properties


def sweep_refusal(state: MageKnightState, unit: Figure, path: list[tuple[float, float]],
                  over_bases: bool) -> str | None:
    """What check_path refuses, if it is one of the sweeps (its message)."""
    try:
        check_path(state, unit, path, unit.facing or 0.0, 100, over_bases=over_bases)
    except RuleViolation as refusal:
        assert refusal.rule == "CORE-MK-MOVE"
        return refusal.message if "would pass through" in refusal.message else None
    return None


@SCENES
@given(units=figures(), pieces=terrain())
def test_contact_and_overlap_questions_answer_as_the_plain_search(
    units: list[dict[str, Any]], pieces: list[dict[str, Any]]
) -> None:
    """CORE-MK-CONTACT, MNT-33, CORE-MK-MOVE: who touches, who overlaps, what
    terrain a base stands on or a centre is in: the same as over every figure."""
    state = scene(units, pieces)
    for fig in units_on_table(state):
        shape = body(state, fig)
        assert [o.id for o in opposing_in_contact(state, fig)] == exact_opposing_in_contact(
            state, fig)
        assert [o.id for o in in_contact_ahead(state, fig)] == exact_in_contact_ahead(state, fig)
        found = overlapped_base(state, shape, {fig.id})
        assert (found.id if found else None) == exact_overlapped_base(state, shape, {fig.id})
        piece = blocking_terrain_under(state, shape)
        assert (piece.id if piece else None) == exact_blocking_terrain_under(state, shape)
        assert terrain_at(state, shape.centre) == exact_terrain_at(state, shape.centre)


@SCENES
@given(units=figures(), pieces=terrain(),
       path=st.lists(st.tuples(coordinate, coordinate), min_size=1, max_size=3))
def test_move_sweeps_and_trample_answer_as_the_plain_search(
    units: list[dict[str, Any]], pieces: list[dict[str, Any]],
    path: list[tuple[float, float]],
) -> None:
    """CORE-MK-MOVE, MNT-112, MNT-114: the base swept along a path passes through
    the same terrain and bases, and a straight move tramples the same figures."""
    state = scene(units, pieces)
    for unit in units_on_table(state):
        for over_bases in (False, True):
            want = exact_sweep_blocker(state, unit, path, over_bases)
            got = sweep_refusal(state, unit, path, over_bases)
            assert got == want
        end = end_footprint(unit, path[0], unit.facing or 0.0)
        area = swept_area(body(state, unit), end)
        assert [o.id for o in trampled(state, unit, area)] == exact_trampled(state, unit, area)


@SCENES
@given(units=figures(), pieces=terrain())
def test_room_search_finds_what_the_plain_search_finds(
    units: list[dict[str, Any]], pieces: list[dict[str, Any]]
) -> None:
    """MNT-56, MNT-58, MNT-78, MNT-107, CORE-MK-ROOM: the room cut only by the
    ground that can reach the contact line is the room cut by all of it (its
    nodes may differ in the last bits of a float), and the candidates and the
    spot chosen are the same points. Asked of a working copy, as a decision asks
    (its units copied on read: the room search reads those it skips without
    copying them, `to_read`)."""
    state = scene(units, pieces).working_copy()
    for mount in units_on_table(state):
        if mount.rider is None:
            continue
        rider = state.units[mount.rider]
        mount_base = mount.footprint()
        assert isinstance(mount_base, Rect)
        radius, ignore = rider.base / 2.0, {mount.id, rider.id}
        room = contact_room(state, mount_base, radius, ignore)
        want = exact_contact_room(state, mount_base, radius, ignore)
        assert room.is_empty == want.is_empty
        if not room.is_empty:  # the same lines, to the last bits of the overlay's nodes
            assert room.hausdorff_distance(want) <= 1e-9
        assert (room_candidates(room, mount_base, radius)
                == exact_room_candidates(want, mount_base, radius)
                == exact_room_candidates(room, mount_base, radius))
        spot = find_room(state, rider, mount)
        assert spot == exact_find_room(state, rider, mount, want)


def exact_find_room(state: MageKnightState, rider: Figure, mount: Figure,
                    room: BaseGeometry) -> tuple[float, float] | None:
    """place_rider's choice over the plain room, with the plain free-spot checks."""
    from domain.geometry import is_wholly_on_board
    from domain.mageknight.figures import is_touching

    mount_base = mount.footprint()
    assert isinstance(mount_base, Rect)
    radius, ignore = rider.base / 2.0, {mount.id, rider.id}
    for spot in exact_room_candidates(room, mount_base, radius):
        disc = Disc(spot[0], spot[1], rider.base)
        if (is_touching(disc, mount_base)
                and is_wholly_on_board(disc, state.board.width, state.board.height)
                and exact_overlapped_base(state, disc, ignore) is None
                and exact_blocking_terrain_under(state, disc) is None):
            return spot
    return None


def test_the_plain_searches_see_the_pieces_the_scenes_make() -> None:
    """The scenes' terrain is read as terrain pieces (so the properties above
    are about real terrain, not an empty list)."""
    state = scene([], [{"id": "t0", "kind": "blocking",
                        "polygon": [(1, 1), (3, 1), (3, 3)]}])
    assert state.terrain == [TerrainPiece(id="t0", kind="blocking",
                                          polygon=((1, 1), (3, 1), (3, 3)))]
    assert exact_blocking_terrain_under(state, Disc(2.5, 1.5, 1.0)) == "t0"


@SCENES
@given(x=st.floats(2.0, 8.0), y=st.floats(2.0, 8.0), turn=facing,
       width=st.sampled_from([1.25, 1.5]), depth=st.sampled_from([2.0, 2.5]),
       radius=st.sampled_from([0.375, 0.5, 0.75]),
       inset=st.floats(0.0, 3.0))
def test_a_contact_line_inside_the_board_is_its_own_intersection(
    x: float, y: float, turn: float, width: float, depth: float, radius: float, inset: float
) -> None:
    """MNT-56: the contact line the room search starts from is the line GEOS's
    intersection with the board's inner box gives, point for point and in the same
    order, whether or not the intersection is skipped (the line strictly inside)."""
    mount_base = Rect(x, y, width, depth, turn)
    board = (radius + inset, radius + inset, BOARD - radius - inset, BOARD - radius - inset)
    line = contact_line(mount_base, radius)
    ring = mount_base.polygon.buffer(radius, quad_segs=64).exterior
    want = ring.intersection(box(*board))
    got = within_board(line, board)
    assert got.geom_type == want.geom_type
    assert shapely.get_coordinates(got).tolist() == shapely.get_coordinates(want).tolist()


@SCENES
@given(units=figures(), corner=st.tuples(coordinate, coordinate),
       size=st.tuples(st.floats(0.0, 3.0), st.floats(0.0, 3.0)),
       reach=st.sampled_from([0.0, 1e-6, 0.5, 2.0]))
def test_the_inline_nearness_test_is_the_box_test(
    units: list[dict[str, Any]], corner: tuple[float, float], size: tuple[float, float],
    reach: float,
) -> None:
    """CORE-MK-CONTACT, CORE-MK-MOVE: `may_be_near` (inline, a mount's circle
    first) answers as the box test it replaces, for every figure."""
    state = scene(units, [])
    area = (corner[0], corner[1], corner[0] + size[0], corner[1] + size[1])
    for fig in state.units.values():
        if fig.x is None or fig.y is None:
            continue
        assert may_be_near(fig, area, reach) == (not is_beyond(base_box(fig), area, reach))


@SCENES
@given(a=st.tuples(coordinate, coordinate, facing), b=st.tuples(coordinate, coordinate, facing),
       size=st.sampled_from([(1.25, 2.0), (1.5, 2.5), (0.5, 0.5)]))
def test_the_shared_area_test_is_the_area_of_the_overlap(
    a: tuple[float, float, float], b: tuple[float, float, float], size: tuple[float, float],
) -> None:
    """CORE-MK-MOVE (bases and terrain overlapped, more than touching): asking
    `intersects` first answers as the area of the overlap does."""
    first = Rect(a[0], a[1], size[0], size[1], a[2]).polygon
    second = Rect(b[0], b[0] / 2 + b[1] / 2, size[1], size[0], b[2]).polygon
    for one, other in ((first, second), (first, first), (first, second.exterior)):
        assert overlap_area_exceeds(one, other, 1e-6) == (one.intersection(other).area > 1e-6)


@SCENES
@given(pieces=terrain(), origin=st.tuples(coordinate, coordinate),
       aim=st.tuples(coordinate, coordinate))
def test_the_terrain_a_line_of_fire_crosses_is_the_plain_searchs(
    pieces: list[dict[str, Any]], origin: tuple[float, float], aim: tuple[float, float],
) -> None:
    """CORE-MK-LOF, CORE-MK-HINDERED: the pieces near the line of fire that it
    crosses are every piece it crosses, in the game's order."""
    from domain.geometry import segment
    from domain.mageknight.combat import terrain_crossed

    state = scene([], pieces)
    line = segment(origin, aim)
    for kind in ("blocking", "hindering", "impassable"):
        want = [p.id for p in state.terrain
                if p.kind == kind and line.intersects(polygon(list(p.polygon)))]
        assert terrain_crossed(state, origin, aim, kind) == want
    if pieces:  # and along an edge of the first piece (touching counts)
        (x0, y0), (x1, y1) = pieces[0]["polygon"][:2]
        assert terrain_crossed(state, (x0, y0), (x1, y1), pieces[0]["kind"])[:1] == ["t0"]


@SCENES
@given(units=figures(), pieces=terrain(), radius=st.sampled_from([0.375, 0.5, 0.75]))
def test_one_grown_shape_is_its_own_union(
    units: list[dict[str, Any]], pieces: list[dict[str, Any]], radius: float,
) -> None:
    """CORE-MK-ROOM: the room search cuts a single grown shape from the contact line
    without a union: GEOS's union of it alone is the same polygon, point for point."""
    state = scene(units, pieces)
    shapes: list[Footprint | Polygon] = [body(state, o) for o in units_on_table(state)]
    shapes += [polygon(list(p.polygon)) for p in state.terrain]
    for shape in shapes:
        alone = grown(shape, radius)
        union = shapely.union_all([alone])
        assert union.geom_type == alone.geom_type
        assert shapely.get_coordinates(union).tolist() == shapely.get_coordinates(alone).tolist()
