"""Tests for domain.geometry."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from shapely.geometry import LineString, MultiPoint, Point, box
from shapely.geometry.base import BaseGeometry

from domain.geometry import (
    EPS,
    Disc,
    Obstacles,
    Rect,
    board_polygon,
    distance,
    front_arc_polygon,
    has_clear_line,
    heading_vector,
    in_front_arc,
    in_rear_arc,
    is_anything_between,
    is_anything_between_hull,
    is_more_than,
    is_on_board_edge,
    is_wholly_on_board,
    is_within,
    path_crosses,
    path_length,
    path_min_distance,
    path_min_distances,
    polygon_from_points,
    rear_arc_polygon,
    sees_part_of,
    segment,
    sweep_hull,
    swept_area,
    wholly_in_front_arc,
    wholly_in_rear_arc,
)

coord = st.floats(min_value=-50, max_value=50, allow_nan=False, allow_infinity=False)
size = st.floats(min_value=0.1, max_value=10, allow_nan=False, allow_infinity=False)
angle = st.floats(min_value=-720, max_value=720, allow_nan=False, allow_infinity=False)
discs = st.builds(Disc, coord, coord, size, angle)
rects = st.builds(Rect, coord, coord, size, size, angle)
footprints = st.one_of(discs, rects)
points = st.tuples(coord, coord)


def assert_points_close(actual: object, expected: object) -> None:
    assert isinstance(actual, tuple) and isinstance(expected, tuple)
    assert len(actual) == len(expected)
    for (ax, ay), (ex, ey) in zip(actual, expected, strict=True):
        assert ax == pytest.approx(ex, abs=1e-9)
        assert ay == pytest.approx(ey, abs=1e-9)


# ----------------------------------------------------------------- headings and footprints


def test_heading_vectors_are_exact_for_the_four_compass_facings() -> None:
    assert heading_vector(0) == (1.0, 0.0)
    assert heading_vector(90) == (0.0, 1.0)
    assert heading_vector(180) == (-1.0, 0.0)
    assert heading_vector(270) == (0.0, -1.0)
    assert heading_vector(-90) == (0.0, -1.0)
    assert heading_vector(450) == (0.0, 1.0)


def test_heading_vector_for_45_degrees_points_up_and_right() -> None:
    dx, dy = heading_vector(45)
    assert dx == pytest.approx(math.sqrt(0.5))
    assert dy == pytest.approx(math.sqrt(0.5))


def test_a_unit_facing_90_with_width_10_depth_2_spans_x_plus_minus_5_and_y_plus_minus_1() -> None:
    r = Rect(x=20, y=30, width=10, depth=2, facing=90)
    assert r.polygon.bounds == (15.0, 29.0, 25.0, 31.0)
    assert r.corners == ((15.0, 31.0), (25.0, 31.0), (25.0, 29.0), (15.0, 29.0))
    assert r.front_edge == ((15.0, 31.0), (25.0, 31.0))
    assert r.rear_edge == ((25.0, 29.0), (15.0, 29.0))


def test_corners_of_a_unit_facing_0_are_front_left_front_right_rear_right_rear_left() -> None:
    r = Rect(x=0, y=0, width=10, depth=2, facing=0)
    assert r.corners == ((1.0, 5.0), (1.0, -5.0), (-1.0, -5.0), (-1.0, 5.0))


def test_corners_of_a_square_facing_45_sit_on_the_axes() -> None:
    r = Rect(x=0, y=0, width=2, depth=2, facing=45)
    s = math.sqrt(2)
    assert_points_close(r.corners, ((0.0, s), (s, 0.0), (0.0, -s), (-s, 0.0)))


@given(rects)
def test_a_rect_polygon_has_area_width_times_depth_and_is_valid(r: Rect) -> None:
    assert r.polygon.is_valid
    assert r.polygon.area == pytest.approx(r.width * r.depth, rel=1e-9)
    assert r.polygon.centroid.distance(Point(r.centre)) < 1e-6


def test_a_disc_polygon_approximates_the_circle_closely() -> None:
    d = Disc(x=5, y=5, diameter=2)
    assert d.radius == 1.0
    assert d.polygon.area == pytest.approx(math.pi, rel=1e-3)


def test_footprints_reject_degenerate_sizes() -> None:
    with pytest.raises(ValueError):
        Rect(0, 0, 0, 2, 0)
    with pytest.raises(ValueError):
        Disc(0, 0, -1)
    with pytest.raises(ValueError):
        Disc(0, 0, math.nan)


# ----------------------------------------------------------------- distances


def test_two_one_inch_discs_nine_inches_apart_are_exactly_within_8_and_not_more_than_8() -> None:
    a, b = Disc(0, 0, 1), Disc(9, 0, 1)
    assert distance(a, b) == 8.0
    assert is_within(a, b, 8)
    assert not is_more_than(a, b, 8)
    assert is_more_than(a, b, 7.99)


def test_diagonal_discs_at_an_exact_8_inches_count_as_within_8_despite_rounding() -> None:
    off = 9 / math.sqrt(2)
    a, b = Disc(0, 0, 1), Disc(off, off, 1)
    assert distance(a, b) == pytest.approx(8.0, abs=1e-12)
    assert is_within(a, b, 8)
    assert not is_more_than(a, b, 8)


def test_disc_distances_are_exact_not_from_the_polygon_approximation() -> None:
    a, b = Disc(0, 0, 2), Disc(3.5, 0, 3)
    # The inscribed polygons would be slightly further apart at other angles; exact is 1.0.
    rot = math.radians(1.7)
    b_rot = Disc(3.5 * math.cos(rot), 3.5 * math.sin(rot), 3)
    assert distance(a, b) == 1.0
    assert distance(a, b_rot) == pytest.approx(1.0, abs=1e-12)


def test_disc_to_point_segment_and_rectangle_distances_use_the_centre_minus_radius() -> None:
    d = Disc(0, 0, 2)
    assert distance(d, (4.0, 0.0)) == 3.0
    assert distance((0.0, 4.0), d) == 3.0
    assert distance(d, LineString([(3, -5), (3, 5)])) == 2.0
    assert distance(d, Rect(5, 0, 2, 2, 0)) == 3.0
    assert distance(Rect(5, 0, 2, 2, 0), d) == 3.0


def test_overlapping_or_touching_shapes_are_zero_apart() -> None:
    assert distance(Disc(0, 0, 2), Disc(1, 0, 2)) == 0.0
    assert distance(Disc(0, 0, 2), Disc(2, 0, 2)) == 0.0
    assert distance(Disc(0, 0, 2), (0.5, 0.0)) == 0.0
    assert distance(Rect(0, 0, 4, 4, 0), Rect(3, 0, 4, 4, 0)) == 0.0


def test_point_to_point_and_rect_to_rect_distances() -> None:
    assert distance((0.0, 0.0), (3.0, 4.0)) == 5.0
    assert distance(Rect(0, 0, 2, 2, 0), Rect(10, 0, 2, 2, 90)) == 8.0
    assert is_within(Rect(0, 0, 2, 2, 0), Rect(10, 0, 2, 2, 90), 8)


@given(footprints, st.one_of(footprints, points))
def test_distance_is_symmetric_and_non_negative(
    a: Rect | Disc, b: Rect | Disc | tuple[float, float]
) -> None:
    d = distance(a, b)
    assert d >= 0.0
    assert d == pytest.approx(distance(b, a), abs=1e-9)


@given(footprints, st.one_of(footprints, points), st.floats(min_value=0, max_value=100))
def test_more_than_is_always_the_negation_of_within(
    a: Rect | Disc, b: Rect | Disc | tuple[float, float], d: float
) -> None:
    assert is_more_than(a, b, d) is (not is_within(a, b, d))


@given(discs, discs)
def test_disc_to_disc_distance_matches_centres_minus_radii(a: Disc, b: Disc) -> None:
    expected = max(0.0, math.hypot(a.x - b.x, a.y - b.y) - a.radius - b.radius)
    assert distance(a, b) == pytest.approx(expected, abs=1e-9)


# ----------------------------------------------------------------- arcs


def test_points_ahead_are_in_the_front_arc_and_points_behind_in_the_rear_arc() -> None:
    obs = Rect(10, 10, 4, 2, 90)
    assert in_front_arc(obs, (10.0, 15.0))
    assert not in_rear_arc(obs, (10.0, 15.0))
    assert in_rear_arc(obs, (10.0, 5.0))
    assert not in_front_arc(obs, (10.0, 5.0))


def test_a_point_exactly_on_the_centre_line_is_in_both_arcs() -> None:
    obs = Disc(10, 10, 1, facing=90)
    assert in_front_arc(obs, (15.0, 10.0))
    assert in_rear_arc(obs, (15.0, 10.0))
    assert in_front_arc(obs, (15.0, 10.0 - EPS / 2))


def test_a_disc_straddling_the_line_is_in_both_arcs_but_wholly_in_neither() -> None:
    obs = Rect(10, 10, 4, 2, 90)
    target = Disc(10, 9, 4)  # centre 1" behind, radius 2
    assert in_front_arc(obs, target)
    assert in_rear_arc(obs, target)
    assert not wholly_in_front_arc(obs, target)
    assert not wholly_in_rear_arc(obs, target)


def test_a_rect_wholly_behind_is_only_in_the_rear_arc() -> None:
    obs = Rect(0, 0, 4, 2, 0)  # facing +x
    target = Rect(-10, 3, 2, 2, 45)
    assert wholly_in_rear_arc(obs, target)
    assert not in_front_arc(obs, target)
    assert in_front_arc(obs, box(-10, -1, 0.5, 1))


def test_facing_45_front_arc_is_the_half_plane_up_and_right() -> None:
    obs = Disc(0, 0, 1, facing=45)
    assert in_front_arc(obs, (1.0, 0.0))
    assert in_front_arc(obs, (1.0, -1.0))  # on the line
    assert not in_front_arc(obs, (1.0, -1.1))
    assert in_rear_arc(obs, (-1.0, 0.0))


def test_arc_polygons_cover_their_half_plane_within_reach() -> None:
    obs = Rect(10, 10, 4, 2, 90)
    front, rear = front_arc_polygon(obs, 30), rear_arc_polygon(obs, 30)
    assert front.contains(Point(10, 20)) and not front.contains(Point(10, 5))
    assert rear.contains(Point(10, 5)) and not rear.contains(Point(10, 20))
    assert front.area == pytest.approx(30 * 60)
    assert front.intersection(rear).area == pytest.approx(0.0, abs=1e-9)


# ----------------------------------------------------------------- paths


def test_path_length_sums_the_legs_of_the_polyline() -> None:
    assert path_length([(0.0, 0.0), (3.0, 4.0), (3.0, 10.0)]) == 11.0
    assert path_length([(1.0, 1.0)]) == 0.0
    assert path_length([]) == 0.0


def test_a_path_through_a_polygon_crosses_it_but_one_along_its_edge_does_not() -> None:
    square = box(0, 0, 2, 2)
    assert path_crosses([(-1.0, 1.0), (3.0, 1.0)], square)
    assert not path_crosses([(-1.0, 0.0), (3.0, 0.0)], square)
    assert not path_crosses([(-1.0, 1.0), (0.0, 1.0)], square)
    assert not path_crosses([(-1.0, 5.0), (3.0, 5.0)], square)


def test_a_path_crosses_a_disc_only_if_it_cuts_inside_the_true_circle() -> None:
    d = Disc(0, 0, 2)
    assert path_crosses([(-5.0, 0.5), (5.0, 0.5)], d)
    assert not path_crosses([(-5.0, 1.0), (5.0, 1.0)], d)  # tangent
    assert not path_crosses([(-5.0, 1.5), (5.0, 1.5)], d)


def test_path_min_distance_is_exact_for_a_disc() -> None:
    path = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0)]
    assert path_min_distance(path, Disc(5, 5, 2)) == 4.0
    assert path_min_distance(path, (5.0, 9.0)) == 5.0
    assert path_min_distance([(0.0, 0.0), (0.0, 0.0)], Disc(0, 9, 2)) == 8.0
    assert is_within(LineString(path), Disc(2, 9, 2), 8)


# ----------------------------------------------------------------- obstacles

named_boxes = st.lists(
    st.tuples(
        st.sampled_from(["alpha", "bravo", "charlie", "delta", "echo", "foxtrot"]),
        st.tuples(coord, coord, size, size).map(
            lambda t: box(t[0], t[1], t[0] + t[2], t[1] + t[3])
        ),
    ),
    max_size=15,
)


@given(named_boxes, st.randoms(use_true_random=False), footprints, points)
def test_obstacle_queries_do_not_depend_on_the_listing_order(
    items: list[tuple[str, BaseGeometry]],
    rnd: random.Random,
    unit: Rect | Disc,
    point: tuple[float, float],
) -> None:
    shuffled = list(items)
    rnd.shuffle(shuffled)
    first, second = Obstacles(items), Obstacles(shuffled)
    for query in (segment(unit, point), sweep_hull(unit, point), unit.polygon):
        brute = sorted({oid for oid, g in items if g.intersects(query)})
        assert first.blocking_ids(query) == second.blocking_ids(query) == brute
    assert is_anything_between_hull(unit, point, first) == is_anything_between_hull(
        unit, point, second
    )
    assert has_clear_line(point, unit, first) == has_clear_line(point, unit, second)


def at_reach(hit: tuple[str, BaseGeometry], query: BaseGeometry | Rect | Disc,
             reach: float) -> bool:
    """Is the obstacle `reach` from the query, to the last bits of a float?"""
    shape = query.polygon if isinstance(query, Rect | Disc) else query
    return bool(abs(hit[1].distance(shape) - reach) <= 1e-9)


class TreeObstacles(Obstacles):
    """The index as it was: every query through an STRtree, whatever its size
    (the oracle of the array path below SMALL)."""

    SMALL = -1


@given(st.lists(st.tuples(st.sampled_from(["alpha", "bravo", "charlie", "delta"]),
                          st.one_of(footprints, named_boxes.map(lambda b: b[0][1] if b else
                                                                box(0, 0, 1, 1)))),
                max_size=20),
       footprints, points, st.floats(min_value=0, max_value=3))
def test_small_obstacle_indexes_answer_as_the_tree(
    items: list[tuple[str, BaseGeometry | Rect | Disc]],
    unit: Rect | Disc,
    point: tuple[float, float],
    reach: float,
) -> None:
    """CORE-LOS, Unit Spacing: an index of up to SMALL obstacles asks each one
    its predicate (one array call) and finds what the tree's query finds: the
    same ids, geometries and near obstacles, in the same order."""
    small, tree = Obstacles(items), TreeObstacles(items)
    assert len(items) <= Obstacles.SMALL and small._tree is None and tree._tree is not None
    for query in (segment(unit, point), sweep_hull(unit, point), unit.polygon, unit):
        assert small.blocking_ids(query) == tree.blocking_ids(query)
        assert small.hitting(query) == tree.hitting(query)
        for far in (reach, 1.0 + 2 * EPS):  # one at `far` to rounding may go either way
            assert ([hit for hit in small.near(query, far) if not at_reach(hit, query, far)]
                    == [hit for hit in tree.near(query, far) if not at_reach(hit, query, far)])
    assert has_clear_line(point, unit, small) == has_clear_line(point, unit, tree)


def test_obstacles_report_sorted_ids_and_honour_ignore() -> None:
    obs = Obstacles([("wall", box(4, -1, 5, 1)), ("b-rock", Point(6, 0).buffer(0.5))])
    line = LineString([(0, 0), (10, 0)])
    assert obs.blocking_ids(line) == ["b-rock", "wall"]
    assert obs.blocking_ids(line, ignore=["wall"]) == ["b-rock"]
    assert not obs.is_clear(line)
    assert obs.is_clear(LineString([(0, 5), (10, 5)]))
    assert obs.ids == ("b-rock", "wall")
    assert len(obs) == 2


def test_an_empty_obstacle_index_is_always_clear() -> None:
    obs = Obstacles([])
    assert obs.blocking_ids(box(0, 0, 100, 100)) == []
    assert obs.is_clear(Rect(0, 0, 2, 2, 0))


def test_obstacles_accept_footprints_and_multi_piece_ids() -> None:
    obs = Obstacles(
        [("unit", Rect(5, 0, 2, 2, 0)), ("ruin", box(0, 5, 1, 6)), ("ruin", box(9, 5, 10, 6))]
    )
    assert obs.blocking_ids(LineString([(9.5, 0), (9.5, 10)])) == ["ruin"]
    assert obs.blocking_ids(Disc(5, 0, 1)) == ["unit"]
    assert len(obs.geometries("ruin")) == 2


def test_a_wall_between_two_units_is_found_between_their_centres() -> None:
    obs = Obstacles([("wall", box(4, -1, 5, 1)), ("mover", Disc(0, 0, 1).polygon)])
    a, b = Disc(0, 0, 1), (10.0, 0.0)
    assert is_anything_between(a, b, obs) == ["mover", "wall"]
    assert is_anything_between(a, b, obs, ignore={"mover"}) == ["wall"]
    assert is_anything_between((0.0, 5.0), (10.0, 5.0), obs) == []


def test_an_obstacle_touching_only_the_end_point_still_counts() -> None:
    obs = Obstacles([("post", box(10, -1, 11, 1))])
    assert is_anything_between((0.0, 0.0), (10.0, 0.0), obs) == ["post"]


def test_the_hull_check_finds_obstacles_off_the_centre_line() -> None:
    unit = Rect(0, 0, 10, 2, 0)  # facing +x: spans x±1, y±5
    target = (20.0, 0.0)
    rock = box(8, 2.5, 9, 3.5)  # beside the centre line but inside the sweep
    obs = Obstacles([("rock", rock), ("far", box(8, 20, 9, 21))])
    assert is_anything_between(unit, target, obs) == []
    assert is_anything_between_hull(unit, target, obs) == ["rock"]
    hull = sweep_hull(unit, target)
    assert hull.contains(unit.polygon) and hull.covers(Point(target))


def test_a_target_partly_hidden_behind_a_wall_still_has_a_clear_line() -> None:
    obs = Obstacles([("wall", box(9, -1, 10, 1))])
    assert has_clear_line((0.0, 0.0), Disc(20, 0, 6), obs)
    assert has_clear_line((0.0, 0.0), Rect(20, 0, 6, 2, 180), obs)


def test_a_target_fully_hidden_behind_a_wide_wall_has_no_clear_line() -> None:
    obs = Obstacles([("wall", box(9, -10, 10, 10)), ("target", box(19, -1, 21, 1))])
    assert not has_clear_line((0.0, 0.0), Disc(20, 0, 2), obs, ignore={"target"})
    assert not has_clear_line((0.0, 0.0), Rect(20, 0, 2, 2, 0), obs, ignore={"target"})


def test_a_disc_visible_only_at_its_tangent_edge_is_found_by_the_tangent_samples() -> None:
    # A thin wall at x = 10 up to y = 1.002 hides the disc's top point (seen at y = 1.0 there)
    # and every evenly spaced sample; only the exact tangent line (y = 1.005 there) clears it.
    obs = Obstacles([("wall", LineString([(10, -10), (10, 1.002)]))])
    assert has_clear_line((0.0, 0.0), Disc(20, 0, 4), obs)
    assert not has_clear_line((0.0, 0.0), Disc(20, 0, 4), Obstacles([("w", box(9, -10, 10, 1.1))]))


# ----------------------------------------------------------------- board


def test_board_and_point_polygons_have_the_expected_area() -> None:
    assert board_polygon(60, 44).area == 60 * 44
    assert polygon_from_points([(0.0, 0.0), (4.0, 0.0), (0.0, 3.0)]).area == 6.0
    with pytest.raises(ValueError):
        polygon_from_points([(0.0, 0.0), (1.0, 1.0)])


def test_a_disc_touching_the_board_edge_exactly_is_wholly_on_board() -> None:
    assert is_wholly_on_board(Disc(0.5, 0.5, 1), 60, 44)
    assert is_wholly_on_board(Disc(59.5, 43.5, 1), 60, 44)
    assert not is_wholly_on_board(Disc(0.49, 10, 1), 60, 44)
    assert not is_wholly_on_board(Disc(30, 43.6, 1), 60, 44)


def test_a_rotated_rect_near_a_corner_is_checked_by_its_corners() -> None:
    s = math.sqrt(2)
    assert is_wholly_on_board(Rect(s, s, 2, 2, 45), 60, 44)
    assert not is_wholly_on_board(Rect(1.2, 1.2, 2, 2, 45), 60, 44)
    assert is_wholly_on_board(Rect(5, 1, 10, 2, 0), 60, 44) is False  # facing 0: y spans ±5
    assert is_wholly_on_board(Rect(5, 1, 10, 2, 90), 60, 44)


def test_points_on_the_board_edge_are_recognised() -> None:
    assert is_on_board_edge((0.0, 10.0), 60, 44)
    assert is_on_board_edge((60.0, 44.0), 60, 44)
    assert is_on_board_edge((30.0, 44.0 + EPS / 2), 60, 44)
    assert not is_on_board_edge((30.0, 22.0), 60, 44)
    assert not is_on_board_edge((-1.0, 10.0), 60, 44)
    assert not is_on_board_edge((30.0, 45.0), 60, 44)


@given(rects, st.floats(min_value=0, max_value=30))
@example(Rect(4.0, -15.089002064390353, 5.0, 1.0, 224.77883515948633), 4.094231438408741)
def test_a_straight_ahead_sweep_is_exactly_the_hull_of_start_and_end(r: Rect, d: float) -> None:
    """The rectangle shortcut for a straight-ahead move (CORE-MOVE-BLOCKED) covers
    the same ground as the convex hull of the two footprints."""
    hx, hy = heading_vector(r.facing)
    end = Rect(r.x + hx * d, r.y + hy * d, r.width, r.depth, r.facing)
    hull = MultiPoint([*r.corners, *end.corners]).convex_hull

    sweep = swept_area(r, end)

    assert sweep.is_valid
    # Distances, not an overlay: shapely's symmetric_difference of two near-equal
    # polygons with nearly collinear vertices can return twice their area.
    assert sweep.hausdorff_distance(hull) <= 1e-6 * max(1.0, d)
    assert sweep.area == pytest.approx(hull.area, rel=1e-9, abs=1e-9)


def test_a_sideways_sweep_falls_back_to_the_hull() -> None:
    start = Rect(10, 10, 4, 2, 90)
    end = Rect(13, 10, 4, 2, 90)

    assert swept_area(start, end).area == pytest.approx(4 * 2 + 3 * 2)


def _clear_points_inside(origin: tuple[float, float], target: BaseGeometry,
                         obstacles: Obstacles) -> list[tuple[float, float]]:
    """Points of a fine grid inside `target` that a clear segment from `origin` reaches."""
    x0, y0, x1, y1 = target.bounds
    grid = [(x0 + (x1 - x0) * i / 24, y0 + (y1 - y0) * j / 24)
            for i in range(25) for j in range(25)]
    return [p for p in grid if target.contains(Point(p))
            and obstacles.is_clear(LineString([origin, p]))]


@given(named_boxes, footprints, points)
def test_has_clear_line_finds_every_view_a_fine_grid_finds(
    boxes: list[tuple[str, BaseGeometry]], target: Rect | Disc, origin: tuple[float, float]
) -> None:
    """Soundness of "hidden": if any grid point of the target is reached by a clear
    segment, `has_clear_line` says the target is seen."""
    obstacles = Obstacles(boxes)

    if _clear_points_inside(origin, target.polygon, obstacles):
        assert has_clear_line(origin, target, obstacles)


def test_a_sliver_seen_through_a_narrow_gap_counts_as_a_clear_line() -> None:
    walls = Obstacles([("west", box(0, 20, 14.95, 20.1)), ("east", box(15.05, 20, 48, 20.1))])
    target = Disc(17.32, 10, 1.0)

    assert has_clear_line((10, 40), target, walls)
    assert not has_clear_line((10, 40), target, Obstacles([("wall", box(0, 20, 48, 20.1))]))


def test_sees_part_of_a_point_region_tries_the_point_itself() -> None:
    wall = Obstacles([("wall", box(4, -1, 5, 1))])

    assert not sees_part_of((0, 0), Point(10, 0), wall)
    assert sees_part_of((0, 0), Point(10, 5), wall)


@given(st.lists(points, min_size=1, max_size=4),
       st.lists(st.one_of(rects.map(lambda r: r.polygon),
                          st.tuples(coord, coord, size, size).map(
                              lambda t: box(t[0], t[1], t[0] + t[2], t[1] + t[3]))),
                min_size=1, max_size=6))
def test_path_distances_in_one_call_are_each_path_min_distance(
    path: list[tuple[float, float]], targets: list[BaseGeometry]
) -> None:
    """CAU-14 (terrain a moving base crosses): the distances asked in one array
    call are the ones asked one target at a time, to the last bit."""
    assert path_min_distances(path, targets) == [path_min_distance(path, t) for t in targets]


@given(st.lists(st.one_of(points, st.tuples(st.integers(-50, 50), st.integers(-50, 50))),
                min_size=1, max_size=5))
def test_a_path_line_is_the_one_the_shapely_constructors_build(
    path: list[tuple[float, float]],
) -> None:
    """Paths and segments (CORE-LOS, moves): the line built by `shapely.linestrings`
    is the `LineString` (or, for one repeated point, the `Point`) the code built
    before, coordinate for coordinate and of the same type."""
    from domain.geometry import _line

    pts = [(float(x), float(y)) for x, y in path]
    want = Point(pts[0]) if all(p == pts[0] for p in pts) else LineString(pts)
    got = _line(path)
    assert type(got) is type(want) and got.equals_exact(want, 0.0)
    assert list(got.coords) == list(want.coords)


@given(st.lists(st.one_of(points, st.sampled_from([(0.0, 0.0), (1.0, 1.0), (2.0, 2.0)])),
                min_size=1, max_size=12))
def test_the_hull_of_a_line_through_the_points_is_the_hull_of_the_points(
    pts: list[tuple[float, float]],
) -> None:
    """Sweeps and Ambush hulls (CORE-MK-MOVE, AMB-16): `convex_hull` asks GEOS for the
    hull of a line through the points; it is the hull of the multipoint the code
    asked of before (repeated and collinear points included), vertex for vertex."""
    import shapely

    from domain.geometry import convex_hull

    want = shapely.convex_hull(shapely.multipoints(pts))
    got = convex_hull(pts)
    assert got.geom_type == want.geom_type
    assert shapely.get_coordinates(got).tolist() == shapely.get_coordinates(want).tolist()


@given(st.one_of(points, st.tuples(st.integers(-50, 50), st.integers(-50, 50))))
def test_a_point_as_a_geometry_is_the_point_the_constructor_builds(
    point: tuple[float, float],
) -> None:
    """Distances to a point (every rule set): `to_geometry` builds with
    `shapely.points` the very `Point` the constructor built."""
    from domain.geometry import to_geometry

    got, want = to_geometry(point), Point(point)
    assert type(got) is type(want) and list(got.coords) == list(want.coords)


@given(st.one_of(points.map(Point), rects.map(lambda r: r.polygon),
                 discs.map(lambda d: d.polygon)),
       st.floats(min_value=0.0, max_value=5.0), st.sampled_from([8, 32, 64]))
def test_a_round_buffer_is_shapelys_buffer(
    shape: BaseGeometry, by: float, quad_segs: int,
) -> None:
    """The room search's buffers (MNT-56, CORE-MK-ROOM): `round_buffer` is
    `buffer` with round caps and joins, vertex for vertex."""
    import shapely

    from domain.geometry import round_buffer

    want = shape.buffer(by, quad_segs=quad_segs)
    got = round_buffer(shape, by, quad_segs)
    assert got.geom_type == want.geom_type
    assert shapely.get_coordinates(got).tolist() == shapely.get_coordinates(want).tolist()
