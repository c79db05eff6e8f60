"""Infinity N4 board overlays: the enemies' Lines of Fire and Zones of Control, and the
path of the movement being judged.

For the active player's enemies that count (not hidden, not out of action), each LoF is
drawn as the front half-plane clipped to the table (the whole table for a Camouflage
Marker; terrain shadows are not drawn) and each ZoC as the circle 8" beyond the base.
Troopers that do not count are ringed in grey. The path is the proposed command's (from
where its skill would start), else the order in progress, else the last resolved order.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from shapely.geometry import LineString, Point, Polygon
from shapely.geometry.base import BaseGeometry

from domain.geometry import board_polygon, front_arc_polygon
from domain.infinity.orders import planned_start
from domain.infinity.sight import can_react, enemies_of, is_camouflage_marker, zone_of_control
from domain.infinity.state import InfinityState, Trooper
from domain.state import GameState
from events.infinity import Point as Point2
from projections.board_svg import Overlay
from projections.overlays import overlay

ENEMY_COLOURS = ("#ef6c00", "#6a1b9a", "#00838f", "#ad1457", "#558b2f", "#4e342e")
PATH_COLOUR = "#000"
IGNORED_COLOUR = "#9e9e9e"
MOVEMENTS = ("move", "cautious_move")


def line_of_fire_area(state: InfinityState, enemy: Trooper) -> BaseGeometry | None:
    """The part of the table in the enemy's LoF arc (terrain ignored)."""
    base = enemy.footprint()
    if base is None:
        return None
    table = board_polygon(state.board.width, state.board.height)
    if is_camouflage_marker(enemy):
        return table
    reach = math.hypot(state.board.width, state.board.height)
    return front_arc_polygon(base, reach).intersection(table)


def zone_of_control_circle(state: InfinityState, enemy: Trooper) -> Polygon | None:
    """Everything within the ZoC reach of the enemy's base edge."""
    base = enemy.footprint()
    if base is None:
        return None
    circle: Polygon = Point(base.centre).buffer(base.radius + zone_of_control(state),
                                                quad_segs=32)
    return circle


def paths_to_draw(state: InfinityState, command: dict[str, Any] | None) -> list[list[Point2]]:
    """The paths of the order in progress (or of the last resolved order); for a proposed
    movement not yet declared, its path from where its skill would start."""
    declared = ([s.path for s in state.order.skills] if state.order is not None
                else state.last_paths)
    declared = [path for path in declared if len(path) > 1]
    if command and command.get("do") in MOVEMENTS:
        trooper = state.units.get(str(command.get("trooper")))
        points = [(float(x), float(y)) for x, y in command.get("path") or []]
        already = bool(declared) and [tuple(p) for p in declared[-1][1:]] == points
        if trooper is not None and points and not already:
            return [[planned_start(state, trooper), *points]]
    return declared


def mover_owner(state: InfinityState, command: dict[str, Any] | None) -> str:
    """The side whose movement is judged: the moving trooper's, else the active one."""
    if command and command.get("do") in MOVEMENTS:
        unit = state.units.get(str(command.get("trooper")))
        if unit is not None:
            return unit.owner
    return state.active_player


@overlay("infinity-n4")
def infinity_overlays(state: GameState, command: dict[str, Any] | None) -> Sequence[Overlay]:
    """LoF arcs and ZoC circles of the enemies that count, and the movement's path."""
    assert isinstance(state, InfinityState)
    owner = mover_owner(state, command)
    items: list[Overlay] = []
    for index, enemy in enumerate(enemies_of(state, owner)):
        colour = ENEMY_COLOURS[index % len(ENEMY_COLOURS)]
        arc = line_of_fire_area(state, enemy)
        zone = zone_of_control_circle(state, enemy)
        if arc is not None:
            items.append(Overlay(arc, stroke=colour, fill=colour, opacity=0.08,
                                 label=f"{enemy.id} LoF", dashed=True))
        if zone is not None:
            items.append(Overlay(zone.exterior, stroke=colour, label=f"{enemy.id} ZoC",
                                 dashed=True))
    for trooper in state.troopers():
        base = trooper.footprint()
        if trooper.owner != owner and base is not None and not can_react(trooper):
            ring = Point(base.centre).buffer(base.radius + 0.4, quad_segs=16)
            items.append(Overlay(ring, stroke=IGNORED_COLOUR, dashed=True,
                                 label=f"{trooper.id} ({', '.join(trooper.conditions)})"))
    for path in paths_to_draw(state, command):
        items.append(Overlay(LineString(path), stroke=PATH_COLOUR, label="path"))
        items.append(Overlay(path[-1], stroke=PATH_COLOUR))
    return items
