"""The hidden-region fast path of Line of Fire (`domain.shadows`) against the exact one.

RULINGS LoF: `has_lof` with `Sightlines` must give exactly the verdict of the exact
geometry (`exact_has_lof`: sample lines, then the shadows' exact area) on any scene,
and `has_lof_to_path` exactly the verdict of trying every quarter-base position with
the exact geometry (RULINGS ARO eligibility).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import box
from shapely.ops import unary_union

from domain import shadows
from domain.geometry import Disc, Obstacles, shadow
from domain.infinity.sight import (
    exact_has_lof,
    has_lof,
    has_lof_to_path,
    in_zoc,
    positions_along,
)
from domain.infinity.state import Trooper
from domain.shadows import ListMemo, Sightlines

TABLE = (0.0, 0.0, 48.0, 48.0)
coordinate = st.floats(min_value=1.0, max_value=47.0, allow_nan=False) | st.integers(
    1, 47).map(float)
facing = st.sampled_from([0.0, 90.0, 180.0, 270.0]) | st.floats(0.0, 359.9)
base = st.sampled_from([1.0, 1.25, 2.0])


@st.composite
def walls(draw: st.DrawFn) -> list[tuple[str, object]]:
    """Up to 12 rectangles: thin walls, blocks and long walls (wide angles up close)."""
    found = []
    for i in range(draw(st.integers(0, 12))):
        x, y = draw(coordinate), draw(coordinate)
        w = draw(st.sampled_from([0.1, 0.5, 2.0, 6.0, 20.0]) | st.floats(0.05, 10.0))
        h = draw(st.sampled_from([0.1, 0.5, 2.0, 6.0]) | st.floats(0.05, 10.0))
        found.append((f"w{i}", box(x, y, min(48.0, x + w), min(48.0, y + h))))
    return found


def trooper(x: float, y: float, facing: float, size: float, camo: bool) -> Trooper:
    return Trooper(id="t", owner="blue", x=x, y=y, facing=facing, base=size,
                   marker="camouflage" if camo else None)


def both(pieces: list[tuple[str, object]]) -> tuple[Sightlines, Obstacles]:
    return Sightlines(pieces, TABLE), Obstacles(pieces)  # type: ignore[arg-type]


@contextmanager
def fast_path(by_direction: bool, merged: bool) -> Iterator[None]:
    """Shadows sorted out by direction (as on a crowded table) or all tried; and merged
    into one polygon from the first question, or never."""
    saved = shadows.FEW_PIECES, shadows.UNION_AFTER
    shadows.FEW_PIECES = 0 if by_direction else saved[0]
    shadows.UNION_AFTER = 0 if merged else 10**9
    try:
        yield
    finally:
        shadows.FEW_PIECES, shadows.UNION_AFTER = saved


@settings(max_examples=120, deadline=None)
@given(walls(), coordinate, coordinate, facing, st.booleans(), coordinate, coordinate, base,
       st.booleans(), st.booleans())
def test_the_fast_lof_agrees_with_the_exact_lof_on_any_scene(
    pieces: list[tuple[str, object]], ox: float, oy: float, face: float, camo: bool,
    tx: float, ty: float, size: float, by_direction: bool, merged: bool,
) -> None:
    """RULINGS LoF: same verdict, fast or exact, wherever the bases and walls stand
    (shadows tried all, sorted out by direction, or merged into one polygon)."""
    fast, exact = both(pieces)
    observer = trooper(ox, oy, face, 1.0, camo)
    target = Disc(tx, ty, size, 0.0)
    with fast_path(by_direction, merged):
        assert has_lof(observer, target, fast) == exact_has_lof(observer, target, exact)
        # Asked again: the remembered verdict.
        assert has_lof(observer, target, fast) == exact_has_lof(observer, target, exact)


@settings(max_examples=60, deadline=None)
@given(walls(), coordinate, coordinate, facing, st.booleans(),
       st.lists(st.tuples(coordinate, coordinate), min_size=1, max_size=3), st.booleans(),
       st.booleans())
def test_the_swept_path_check_agrees_with_every_quarter_base_position(
    pieces: list[tuple[str, object]], ox: float, oy: float, face: float, camo: bool,
    path: list[tuple[float, float]], by_direction: bool, merged: bool,
) -> None:
    """RULINGS ARO eligibility: the swept-base shortcut never changes whether the
    observer sees the mover at some point of its movement."""
    fast, exact = both(pieces)
    observer = trooper(ox, oy, face, 1.0, camo)
    mover = trooper(path[0][0], path[0][1], 0.0, 1.0, False)
    expected = any(exact_has_lof(observer, mover.base_at(p), exact)
                   for p in positions_along(path, mover.base / 4.0))
    with fast_path(by_direction, merged):
        assert has_lof_to_path(observer, mover, path, fast) == expected


@pytest.mark.parametrize("merged", [False, True])
def test_a_sliver_through_a_0_1_inch_slot_is_seen_by_the_fast_path_too(merged: bool) -> None:
    """The exact-sight case of CAU-11: a 0.1" slot between two walls shows a sliver
    (also once the observer's shadows are merged into one polygon)."""
    slot = [("west", box(0, 20, 14.95, 20.1)), ("east", box(15.05, 20, 48, 20.1))]
    watcher = trooper(10, 40, 270, 1.0, False)
    seen = Disc(17.32, 10, 1.0)

    with fast_path(False, merged):
        assert has_lof(watcher, seen, Sightlines(slot, TABLE))
        assert not has_lof(watcher, seen, Sightlines([("whole", box(0, 20, 48, 20.1))], TABLE))


def test_merged_shadows_leave_out_only_shadows_inside_nearer_ones() -> None:
    """The merged hidden region equals the union of every shadow on the table, though
    the shadow of a block behind a wall is left out of the union."""
    pieces = [("wall", box(20, 20, 28, 21)), ("behind", box(23, 30, 24, 31)),
              ("aside", box(5, 30, 6, 31))]
    region = Sightlines(pieces, TABLE).hidden_from((24.0, 10.0))
    assert region is not None
    every = unary_union([shadow((24.0, 10.0), g, 200.0) for _, g in pieces]).intersection(
        box(-2, -2, 50, 50))

    assert region.merged().symmetric_difference(every).area < 1e-6
    assert region.merged().contains(Disc(23.5, 40, 1.0).polygon)
    assert not region.merged().intersects(Disc(10, 40, 1.0).polygon)


def test_a_base_touching_the_side_line_is_seen_by_the_fast_path_too() -> None:
    """CORE-LOF-GEOMETRY: the closed front arc; the base touches the side line."""
    watcher = trooper(30, 30, 90, 1.0, False)
    grazing = Disc(40, 29.5, 1.0)

    assert has_lof(watcher, grazing, Sightlines([("far", box(1, 1, 2, 2))], TABLE))
    assert not has_lof(watcher, Disc(40, 29.4, 1.0), Sightlines([], TABLE))


def test_a_wide_wall_close_by_hides_what_is_far_behind_it() -> None:
    """A wall 1" away spans ~170°: its shadow reaches the far table edge (the far side
    of a shadow follows the arc, not one chord)."""
    wall = box(4, 10, 44, 11)
    watcher = trooper(24, 9, 90, 1.0, False)
    far_behind = Disc(24, 46, 1.0)

    assert not has_lof(watcher, far_behind, Sightlines([("wall", wall)], TABLE))
    assert not exact_has_lof(watcher, far_behind, Obstacles([("wall", wall)]))
    assert shadow((24, 9), wall, 100.0).contains(far_behind.polygon)


def test_the_observer_inside_or_on_a_piece_takes_the_exact_path() -> None:
    """No robust hidden region from a point on a piece: the exact geometry decides."""
    lines = Sightlines([("wall", box(10, 10, 20, 20))], TABLE)

    assert lines.hidden_from((10.0, 15.0)) is None
    assert lines.hidden_from((5.0, 5.0)) is not None


def test_terrain_lists_are_remembered_by_identity_and_then_by_value() -> None:
    built: list[tuple[int, ...]] = []

    def build(items: tuple[int, ...], key: str) -> int:
        built.append(items)
        return sum(items)

    memo: ListMemo[int, str, int] = ListMemo(build)
    first, equal = [1, 2, 3], [1, 2, 3]

    assert memo(first, "a") == memo(first, "a") == memo(equal, "a") == 6
    first.append(4)
    assert memo(first, "a") == 10 and memo(first, "b") == 10
    assert built == [(1, 2, 3), (1, 2, 3, 4), (1, 2, 3, 4)]


def test_far_arc_keeps_the_far_side_beyond_reach() -> None:
    """Every point of a shadow's far side is on the reach circle or its chords, which
    stay within 0.4 % of it."""
    from domain.geometry import far_arc

    side = far_arc((0.0, 0.0), (1.0, 0.01), (-1.0, 0.01), 100.0)

    assert len(side) >= 18
    assert all(math.isclose(math.hypot(x, y), 100.0) for x, y in side)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(coordinate, coordinate), min_size=1, max_size=4),
       st.tuples(coordinate, coordinate))
def test_the_distance_to_a_path_is_shapelys(path: list[tuple[float, float]],
                                            point: tuple[float, float]) -> None:
    """RULINGS ARO eligibility (ZoC along the path): the leg-by-leg distance equals
    the exact polyline distance."""
    from domain.geometry import path_min_distance
    from domain.infinity.sight import distance_to_path

    assert math.isclose(distance_to_path(point, path), path_min_distance(path, point),
                        rel_tol=1e-12, abs_tol=1e-12)


def lookouts_of(fast: Sightlines, observers: list[Trooper]) -> shadows.Lookouts:
    """The observers' `Lookouts`, with every observer's shadows merged first (the fast
    path answers only from merged shadows)."""
    for observer in observers:
        region = fast.hidden_from((observer.x or 0.0, observer.y or 0.0))
        if region is not None:
            region.merged()
    return fast.lookouts(tuple(o.footprint() for o in observers),
                         tuple(o.marker == "camouflage" for o in observers))


@settings(max_examples=120, deadline=None)
@given(walls(), st.lists(st.tuples(coordinate, coordinate, facing, st.booleans()), min_size=1,
                         max_size=4), coordinate, coordinate, base)
def test_the_lookouts_agree_with_the_exact_lof_on_any_scene(
    pieces: list[tuple[str, object]], seats: list[tuple[float, float, float, bool]],
    tx: float, ty: float, size: float,
) -> None:
    """RULINGS LoF, RULINGS ZoC: every answer the observers' `Lookouts` give together
    (front arcs at once, merged shadows, a sample point well clear of them) is the exact
    verdict of each observer alone; a base they rule out of reach is beyond it."""
    fast, exact = both(pieces)
    observers = [trooper(x, y, face, 1.0, camo) for x, y, face, camo in seats]
    target = Disc(tx, ty, size, 0.0)
    lookouts = lookouts_of(fast, observers)

    for observer, answer, near in zip(observers, lookouts.sees(target),
                                      lookouts.may_reach(target, 8.0), strict=True):
        if answer is not None:
            assert answer == exact_has_lof(observer, target, exact)
        if not near:
            assert not in_zoc(observer, target, 8.0)


def test_the_lookouts_answer_in_plain_sight_behind_a_wall_and_on_its_edge() -> None:
    """RULINGS LoF: the fast path answers for every observer here (none is left to the
    question one by one): a base in the open is seen, one behind the observer's side
    line or wholly behind a wall is not, and one straddling the edge of a wall's shadow
    is seen (a sample point well clear of the shadow), also by a Camouflage Marker."""
    fast, exact = both([("wall", box(20, 20, 28, 21))])
    observers = [trooper(24, 10, 90, 1.0, False), trooper(24, 10.5, 270, 1.0, False),
                 trooper(24, 11, 90, 1.0, True), trooper(14, 10, 90, 1.0, False)]
    lookouts = lookouts_of(fast, observers)

    for target, seen in [(Disc(24, 30, 1.0), [False, False, False, True]),
                         (Disc(24, 16, 1.0), [True, False, True, True]),
                         (Disc(32.2, 30, 1.0), [True, False, True, False])]:
        assert lookouts.sees(target) == seen
        assert [exact_has_lof(o, target, exact) for o in observers] == seen
