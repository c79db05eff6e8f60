"""Line of Fire and Zone of Control (RULINGS "Line of Fire", "Zone of Control"),
and which enemy troopers count as Models or Markers that can see or react.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from typing import TYPE_CHECKING

from domain.deferred import defer

if TYPE_CHECKING:
    from shapely.geometry import LineString
    from shapely.geometry.base import BaseGeometry
else:  # shapely loads on first use: a replay of a game's events needs none of it
    defer(globals(), LineString="shapely.geometry:LineString",
          BaseGeometry="shapely.geometry.base:BaseGeometry")

from domain.geometry import (
    EPS,
    Disc,
    Obstacles,
    distance,
    front_arc_polygon,
    has_clear_line,
    heading_vector,
    in_front_arc,
    polygon_from_points,
    sees_part_of,
    target_samples,
    wholly_in_front_arc,
)
from domain.infinity.state import InfinityState, Trooper
from domain.shadows import (
    HiddenRegion,
    ListMemo,
    Lookouts,
    Sightlines,
    disc_cover,
    front_cover,
    swept_cover,
)
from events.core import TerrainPiece
from events.infinity import Point

ZONE_OF_CONTROL = 8.0
"""The Zone of Control reaches 8" from the base edge (A-CAU-03; option `zone_of_control`)."""

OUT_OF_ACTION = ("unconscious", "disconnected", "embryo")
#: The conditions that keep an enemy on the table from counting (CAU-20, CAU-27).
NOT_COUNTING = frozenset({"hidden_deployment", *OUT_OF_ACTION})


def is_model_or_marker(trooper: Trooper) -> bool:
    """CAU-20: a trooper in Hidden Deployment is neither a Model nor a Marker."""
    return not trooper.has("hidden_deployment")


def is_out_of_action(trooper: Trooper) -> bool:
    """CAU-27 (FAQ CAU-26): a Disconnected, Unconscious or Embryo trooper cannot cancel
    an enemy's Cautious Movement; its LoF and ZoC count for nothing."""
    return any(trooper.has(state) for state in OUT_OF_ACTION)


def can_prevent_marker_state_reentry(trooper: Trooper) -> bool:
    """CAU-28 (FAQ CAU-26): a Disconnected, Unconscious or Embryo trooper cannot prevent an
    enemy from re-entering a Marker State. (The Marker State rules are not in the source:
    only this negative ruling is kept, as a flag for them, A-CAU-12.)"""
    return trooper.status == "on_table" and not is_out_of_action(trooper)


def is_camouflage_marker(trooper: Trooper) -> bool:
    """A Camouflage Marker: a Marker (CAU-22, CAU-24) that sees all around (360° LoF)."""
    return trooper.marker == "camouflage"


def can_react(trooper: Trooper) -> bool:
    """Does this enemy count at all: on the table, a Model or Marker (CAU-20), and not
    out of action (CAU-27)? RULINGS "ARO eligibility" uses the same exclusions."""
    return trooper.status == "on_table" and NOT_COUNTING.isdisjoint(trooper.conditions)


def enemies_of(state: InfinityState, player: str) -> list[Trooper]:
    """The enemy troopers that count (see `can_react`), in id order, to be looked at
    (`troopers_to_read`: what they see and control; none is changed through them)."""
    return [t for t in state.troopers_to_read() if t.owner != player and can_react(t)]


@dataclass(frozen=True)
class Onlookers:
    """The enemies that count (`enemies_of`), asked together about one base of the mover
    (they stand still during its order): Line of Fire by their `Lookouts` first, then
    `has_lof` for each one they leave open; Zone of Control by a vectorised distance
    filter, then `in_zoc`. The same verdicts as asking each enemy alone."""

    troopers: list[Trooper]
    obstacles: Obstacles
    lookouts: Lookouts

    @classmethod
    def of(cls, state: InfinityState, player: str, obstacles: Obstacles) -> Onlookers:
        """The enemies of `player`, seeing past `obstacles` (`blocking_terrain`)."""
        enemies = enemies_of(state, player)
        bases = tuple(enemy.footprint() for enemy in enemies)
        all_round = tuple(is_camouflage_marker(enemy) for enemy in enemies)
        if isinstance(obstacles, Sightlines):
            return cls(enemies, obstacles, obstacles.lookouts(bases, all_round))
        return cls(enemies, obstacles, Lookouts(None, bases, all_round))

    def lof(self, target: Disc) -> list[bool]:
        """RULINGS LoF: does each enemy see the base `target` (`has_lof`)?"""
        return [has_lof(enemy, target, self.obstacles) if sees is None else sees
                for enemy, sees in zip(self.troopers, self.lookouts.sees(target), strict=True)]

    def zoc(self, target: Disc, reach: float) -> list[bool]:
        """RULINGS ZoC: is the base `target` in each enemy's Zone of Control (`in_zoc`)?"""
        near = self.lookouts.may_reach(target, reach)
        return [close and in_zoc(enemy, target, reach)
                for enemy, close in zip(self.troopers, near, strict=True)]


def _sightlines(terrain: tuple[TerrainPiece, ...], table: tuple[float, float]) -> Sightlines:
    return Sightlines(((piece.id, polygon_from_points(piece.polygon))
                       for piece in terrain if piece.kind == "blocking"), (0.0, 0.0, *table))


_SIGHTLINES = ListMemo(_sightlines, size=64)


def blocking_terrain(state: InfinityState) -> Sightlines:
    """The terrain that blocks Line of Fire (`blocking`), as a spatial index that keeps
    each observer's hidden region (`domain.shadows`). Kept per terrain set: terrain
    never changes during a game."""
    return _SIGHTLINES(state.terrain, (state.board.width, state.board.height))


def zone_of_control(state: InfinityState) -> float:
    """The ZoC reach in inches (option `zone_of_control`, default 8)."""
    return float(state.options.get("zone_of_control", ZONE_OF_CONTROL))


def has_lof(observer: Trooper, target: Disc, obstacles: Obstacles) -> bool:
    """RULINGS LoF: a segment from the observer's base centre to a point of the target's
    base that lies in the observer's 180° front arc (anywhere for a Camouflage Marker)
    crosses no `blocking` terrain.

    The front arc is asked first; then, with `Sightlines`, the observer's hidden region
    answers at once unless the base lies on a shadow's edge, where the exact geometry
    (`exact_has_lof`) decides. Both always agree."""
    seen_from = observer.footprint()
    if seen_from is None:
        return False
    all_round = is_camouflage_marker(observer)
    if isinstance(obstacles, Sightlines):
        return obstacles.verdict(seen_from, all_round, target, lambda: lof_by_shadows(
            observer, seen_from, target, obstacles, all_round=all_round))
    if not all_round and not in_front_arc(seen_from, target):
        return False
    return exact_has_lof(observer, target, obstacles)


def lof_by_shadows(observer: Trooper, seen_from: Disc, target: Disc, sightlines: Sightlines,
                   *, all_round: bool) -> bool:
    """`has_lof` with the observer's hidden region: the front arc first, then `fast_lof`
    where it is certain, the exact geometry on a shadow's edge."""
    if not all_round and not in_front_arc(seen_from, target):
        return False
    verdict = fast_lof(seen_from, target, sightlines, all_round=all_round)
    return verdict if verdict is not None else exact_has_lof(observer, target, sightlines)


def fast_lof(seen_from: Disc, target: Disc, sightlines: Sightlines, *,
             all_round: bool) -> bool | None:
    """LoF from the observer's hidden region (`domain.shadows`): True or False where that
    is certain, None where the exact geometry must decide. The target is in the front
    arc, at least in part (or the observer sees all round)."""
    cover = disc_cover(target)
    hidden = sightlines.hidden_from(seen_from.centre)
    if hidden is None or not sightlines.covers_extent(target):
        return None
    whole = all_round or wholly_in_front_arc(seen_from, target)
    verdict = hidden.judge(cover, target)
    if whole:
        return verdict if verdict is not None else sample_in_sight(
            seen_from.centre, target, sightlines, hidden)
    if verdict is True and is_well_in_front(seen_from, target):
        return True
    if verdict is False or hidden.hides(front_cover(seen_from, cover,
                                                    arc_reach(seen_from, target))):
        return False
    return None


def sample_in_sight(origin: Point, target: Disc, obstacles: Obstacles,
                    hidden: HiddenRegion) -> bool | None:
    """True if a sample point of the target outside the hidden region has a clear line
    (the exact segment test confirms it); None otherwise."""
    samples = target_samples(origin, target)
    for sample, outside in zip(samples, hidden.outside(target, samples), strict=True):
        if outside and obstacles.is_clear(LineString([origin, sample])):
            return True
    return None


def arc_reach(seen_from: Disc, target: Disc) -> float:
    """A front-arc box reach that holds the whole target."""
    return distance(seen_from.centre, target.centre) + target.radius + 1.0


def is_well_in_front(seen_from: Disc, target: Disc) -> bool:
    """Does a good part of a base straddling the side line lie in the front arc (so its
    front part has area beyond doubt)?"""
    hx, hy = heading_vector(seen_from.facing)
    ahead = (target.x - seen_from.x) * hx + (target.y - seen_from.y) * hy + target.radius
    return ahead >= 0.05 * target.radius


def exact_has_lof(observer: Trooper, target: Disc, obstacles: Obstacles) -> bool:
    """`has_lof` by exact geometry alone (sample lines, then the shadows' exact area):
    the reference the fast path is tested against."""
    seen_from = observer.footprint()
    if seen_from is None:
        return False
    if is_camouflage_marker(observer) or wholly_in_front_arc(seen_from, target):
        return has_clear_line(seen_from.centre, target, obstacles)
    if not in_front_arc(seen_from, target):
        return False
    return has_clear_line_to_front_part(seen_from, target, obstacles)


def has_clear_line_to_front_part(seen_from: Disc, target: Disc, obstacles: Obstacles) -> bool:
    """For a base that straddles the observer's side line: does a clear segment reach
    some point of its part in the (closed) front arc? Exact up to the base's polygon
    (`sees_part_of`); a base that only touches the side line is seen, if at all, at
    the point where it touches (its point farthest ahead)."""
    reach = distance(seen_from.centre, target.centre) + target.radius + 1.0
    front_part = target.polygon.intersection(front_arc_polygon(seen_from, reach))
    if front_part.area <= 0.0:
        hx, hy = heading_vector(seen_from.facing)
        ahead = (target.x + target.radius * hx, target.y + target.radius * hy)
        return obstacles.is_clear(LineString([seen_from.centre, ahead]))
    return sees_part_of(seen_from.centre, front_part, obstacles)


def gap_between(enemy: Trooper, base: Disc) -> float:
    """How far `base` is from the enemy's base, edge to edge (exact for round bases)."""
    zone_of = enemy.footprint()
    return math.inf if zone_of is None else distance(zone_of, base)


def in_zoc(enemy: Trooper, target: Disc, reach: float) -> bool:
    """RULINGS ZoC: the target's base is within `reach` of the enemy's base, edge to edge,
    whatever the LoF (an exact 8" counts as within)."""
    return gap_between(enemy, target) <= reach + EPS


def positions_along(path: Sequence[Point], step: float) -> list[Point]:
    """Points at most `step` inches apart along the path, its corners included, in order."""
    points: list[Point] = list(path[:1])
    for (ax, ay), (bx, by) in pairwise(path):
        parts = max(1, math.ceil(math.hypot(bx - ax, by - ay) / step))
        points += [(ax + (bx - ax) * i / parts, ay + (by - ay) * i / parts)
                   for i in range(1, parts + 1)]
    return points


def has_lof_to_path(
    observer: Trooper, mover: Trooper, path: Sequence[Point], obstacles: Obstacles
) -> bool:
    """RULINGS ARO eligibility: LoF to the moving trooper at any point of its movement
    (its base is checked at points at most a quarter of its diameter apart).

    With `Sightlines`, the whole movement is asked first: if the ground the base sweeps
    (in the observer's front arc) lies wholly in its hidden region, no point of it is
    seen, and no base position need be tried. First of all: a movement wholly behind
    the observer (not a Camouflage Marker) is never seen."""
    if path_wholly_behind(observer, mover, path):
        return False
    if isinstance(obstacles, Sightlines) and path_wholly_hidden(observer, mover, path,
                                                                 obstacles):
        return False
    return any(
        has_lof(observer, mover.base_at(p), obstacles)
        for p in positions_along(path, mover.base / 4.0)
    )


def path_wholly_behind(observer: Trooper, mover: Trooper, path: Sequence[Point]) -> bool:
    """Does every base position of the movement lie beyond the observer's rear side line,
    with no part in its (closed) front arc? (A distance ahead is linear along each leg,
    so the path's corners are enough.) Never for a Camouflage Marker (360° LoF)."""
    seen_from = observer.footprint()
    if seen_from is None:
        return True
    if is_camouflage_marker(observer):
        return False
    hx, hy = heading_vector(seen_from.facing)
    ahead = max((x - seen_from.x) * hx + (y - seen_from.y) * hy for x, y in path)
    return ahead + mover.base / 2.0 < -EPS


def path_wholly_hidden(observer: Trooper, mover: Trooper, path: Sequence[Point],
                       sightlines: Sightlines) -> bool:
    """Is the swept base of the whole movement (its part in the front arc, all of it for
    a Camouflage Marker) inside the observer's hidden region, beyond doubt?"""
    seen_from = observer.footprint()
    if seen_from is None:
        return True
    hidden = sightlines.hidden_from(seen_from.centre)
    legs = tuple((float(x), float(y)) for x, y in path)
    swept = swept_cover(legs, mover.base / 2.0)
    if hidden is None or hidden.is_empty or not sightlines.covers_extent(swept):
        return False
    if not is_camouflage_marker(observer):
        swept = swept_front_cover(seen_from, legs, mover.base / 2.0)
        if swept.is_empty:
            return True
    return hidden.hides(swept)


@lru_cache(maxsize=256)
def swept_front_cover(seen_from: Disc, legs: tuple[Point, ...], radius: float) -> BaseGeometry:
    """The part of a movement's swept cover in the observer's front arc (kept: an ARO
    asks again about the movement its window was opened for)."""
    swept = swept_cover(legs, radius)
    x0, y0, x1, y1 = swept.bounds
    reach = max(distance(seen_from.centre, (x, y)) for x in (x0, x1) for y in (y0, y1))
    return front_cover(seen_from, swept, reach + 1.0)


def closest_approach(enemy: Trooper, mover: Trooper, path: Sequence[Point]) -> float:
    """How close the moving base comes to the enemy's base along the path, edge to edge
    (exact: the closest approach of the base's centre line, less its radius)."""
    zone_of = enemy.footprint()
    if zone_of is None:
        return math.inf
    centre_gap = distance_to_path(zone_of.centre, path)
    return max(0.0, max(0.0, centre_gap - zone_of.radius) - mover.base / 2.0)


def distance_to_path(point: Point, path: Sequence[Point]) -> float:
    """How close the polyline through `path` comes to `point` (each leg's closest
    point, by projection): the same as shapely's distance, without building a line."""
    px, py = point
    best = math.inf
    legs = list(pairwise(path)) or [(path[0], path[0])]
    for (ax, ay), (bx, by) in legs:
        dx, dy = bx - ax, by - ay
        length2 = dx * dx + dy * dy
        t = 0.0 if length2 == 0.0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy)
                                                      / length2))
        best = min(best, math.hypot(px - (ax + t * dx), py - (ay + t * dy)))
    return best


def path_enters_zoc(enemy: Trooper, mover: Trooper, path: Sequence[Point], reach: float) -> bool:
    """RULINGS ARO eligibility: the movement passes within the enemy's ZoC."""
    return closest_approach(enemy, mover, path) <= reach + EPS
