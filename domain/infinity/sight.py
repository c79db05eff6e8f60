"""Line of Fire and Zone of Control (RULINGS "Line of Fire", "Zone of Control"),
and which enemy troopers count as Models or Markers that can see or react.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from itertools import pairwise

from shapely.geometry import LineString

from domain.geometry import (
    EPS,
    Disc,
    Obstacles,
    distance,
    front_arc_polygon,
    has_clear_line,
    heading_vector,
    in_front_arc,
    path_min_distance,
    polygon_from_points,
    sees_part_of,
    wholly_in_front_arc,
)
from domain.infinity.state import InfinityState, Trooper
from events.core import TerrainPiece
from events.infinity import Point

ZONE_OF_CONTROL = 8.0
"""The Zone of Control reaches 8" from the base edge (A-CAU-03; option `zone_of_control`)."""

OUT_OF_ACTION = ("unconscious", "disconnected", "embryo")


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
    return trooper.status == "on_table" and is_model_or_marker(trooper) and not (
        is_out_of_action(trooper)
    )


def enemies_of(state: InfinityState, player: str) -> list[Trooper]:
    """The enemy troopers that count (see `can_react`), in id order."""
    return [t for t in state.troopers() if t.owner != player and can_react(t)]


@lru_cache(maxsize=64)
def _obstacles(terrain: tuple[TerrainPiece, ...]) -> Obstacles:
    return Obstacles(
        (piece.id, polygon_from_points(piece.polygon))
        for piece in terrain
        if piece.kind == "blocking"
    )


def blocking_terrain(state: InfinityState) -> Obstacles:
    """The terrain that blocks Line of Fire (`blocking`), as a spatial index."""
    return _obstacles(tuple(state.terrain))


def zone_of_control(state: InfinityState) -> float:
    """The ZoC reach in inches (option `zone_of_control`, default 8)."""
    return float(state.options.get("zone_of_control", ZONE_OF_CONTROL))


def has_lof(observer: Trooper, target: Disc, obstacles: Obstacles) -> bool:
    """RULINGS LoF: a segment from the observer's base centre to a point of the target's
    base that lies in the observer's 180° front arc (anywhere for a Camouflage Marker)
    crosses no `blocking` terrain."""
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
    (its base is checked at points at most a quarter of its diameter apart)."""
    return any(
        has_lof(observer, mover.base_at(p), obstacles)
        for p in positions_along(path, mover.base / 4.0)
    )


def closest_approach(enemy: Trooper, mover: Trooper, path: Sequence[Point]) -> float:
    """How close the moving base comes to the enemy's base along the path, edge to edge
    (exact: the closest approach of the base's centre line, less its radius)."""
    zone_of = enemy.footprint()
    if zone_of is None:
        return math.inf
    return max(0.0, path_min_distance(list(path), zone_of) - mover.base / 2.0)


def path_enters_zoc(enemy: Trooper, mover: Trooper, path: Sequence[Point], reach: float) -> bool:
    """RULINGS ARO eligibility: the movement passes within the enemy's ZoC."""
    return closest_approach(enemy, mover, path) <= reach + EPS
