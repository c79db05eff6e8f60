"""Infinity N4 board overlays: the enemies' Lines of Fire and Zones of Control, and the
path of the movement being judged.

For the moving side's enemies that count (not hidden, not out of action), a LoF is
drawn as the part of the table its base centre sees: the front half-plane (the whole
table for a Camouflage Marker), less the shadows of `blocking` terrain. A base is in LoF
when any part of it is in that area. Each ZoC is drawn as the circle 8" beyond the base.
Only the enemies the step's check asked about are drawn (`observers_to_draw`), each in
its own colour: its LoF outlined, its ZoC dashed, and the part of the path inside either
drawn thick. Troopers that do not count are ringed in grey. The path is the proposed command's (from
where its skill would start), else the order in progress, else the last resolved order;
its start and end bases are drawn dashed. For a movement command, the verdict goes under
the board: CAU-10 or CAU-13 (and why) for a Cautious Movement, who may react to a Move.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from shapely.geometry import LineString, Point, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

from domain.geometry import board_polygon, front_arc_polygon, polygon_from_points, shadow
from domain.infinity.aro import aro_eligible
from domain.infinity.cautious import aro_verdict
from domain.infinity.orders import planned_start
from domain.infinity.sight import can_react, enemies_of, is_camouflage_marker, zone_of_control
from domain.infinity.state import InfinityState, Trooper
from domain.state import GameState
from events.infinity import Point as Point2
from projections.board_svg import Overlay

ENEMY_COLOURS = ("#ef6c00", "#6a1b9a", "#00838f", "#ad1457", "#558b2f", "#4e342e")
PATH_COLOUR = "#000"
IGNORED_COLOUR = "#9e9e9e"
VERDICT_COLOURS = {True: "#c62828", False: "#2e7d32"}  # AROs generated / none
MOVEMENTS = ("move", "cautious_move")
#: The answers to an ARO window: the check asked is the named trooper's LoF and ZoC
#: against the order's path (CORE-ARO-ELIGIBLE).
ANSWERS = ("aro", "pass")


def line_of_fire_area(state: InfinityState, enemy: Trooper) -> BaseGeometry | None:
    """The part of the table the enemy's base centre sees: its front arc (all around for a
    Camouflage Marker), less the shadows of `blocking` terrain (`domain.geometry.shadow`,
    the ones Line of Fire is judged by)."""
    base = enemy.footprint()
    if base is None:
        return None
    table = board_polygon(state.board.width, state.board.height)
    reach = 2.0 * math.hypot(state.board.width, state.board.height)
    arc = table if is_camouflage_marker(enemy) else front_arc_polygon(base, reach)
    shadows = [shadow(base.centre, polygon_from_points(piece.polygon), reach)
               for piece in state.terrain if piece.kind == "blocking"]
    return arc.intersection(table).difference(unary_union(shadows))


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


def verdict(state: InfinityState, command: dict[str, Any] | None,
            path: Sequence[Point2]) -> Overlay | None:
    """Under the board: whether the movement command grants AROs, and to whom."""
    if not command or command.get("do") not in MOVEMENTS or len(path) < 2:
        return None
    mover = state.units.get(str(command.get("trooper")))
    if mover is None:
        return None
    eligible = aro_eligible(state, mover, path)
    if command.get("do") == "cautious_move":
        found = aro_verdict(state, mover, path)
        grants, text = found.grants_aro, f"{found.rule}: {found.message}"
    else:
        grants = bool(eligible)
        text = f"Move: {', '.join(eligible) or 'no enemy'} may react"
    if grants:
        text += f" (eligible: {', '.join(eligible) or 'none'})"
    return Overlay((1.0, state.board.height - 1.5), stroke=VERDICT_COLOURS[grants],
                   label=text, note=True)


def path_overlays(state: InfinityState, path: Sequence[Point2],
                  mover: Trooper | None) -> list[Overlay]:
    """The path, with the moving base at its start and its end (dashed)."""
    items = [Overlay(LineString(path), stroke=PATH_COLOUR, label="movement path",
                     layer="paths")]
    radius = mover.base / 2.0 if mover is not None else 0.5
    for name, point in (("start", path[0]), ("end", path[-1])):
        items.append(Overlay(Point(point).buffer(radius, quad_segs=16), stroke=PATH_COLOUR,
                             dashed=True, label=f"base at the path's {name}", layer="paths"))
    return items


def observers_to_draw(state: InfinityState, owner: str, paths: list[list[Point2]],
                      reacting: set[str]) -> list[tuple[int, Trooper]]:
    """The enemies whose Line of Fire and Zone of Control the step's check asked about
    (with each one's index among all the enemies, for a colour that stays theirs;
    an ARO or a pass asks about the trooper it names, `infinity_overlays`):
    for a movement, those who may react to it (CAU-13), or, when none may, the one
    whose zone comes nearest to the path (CAU-10: it stays out of every zone); with
    no movement judged, every enemy that counts."""
    enemies = list(enumerate(enemies_of(state, owner)))
    if not paths:
        return enemies
    asked = [(i, e) for i, e in enemies if e.id in reacting]
    if asked:
        return asked
    line = LineString(paths[-1])
    near = [(zone.distance(line), i, e) for i, e in enemies
            if (zone := zone_of_control_circle(state, e)) is not None]
    return [(i, e) for _, i, e in sorted(near, key=lambda n: (n[0], n[1]))[:1]]


def observer_overlays(state: InfinityState, enemy: Trooper, colour: str,
                      path: Sequence[Point2] | None) -> list[Overlay]:
    """One enemy's Line of Fire (solid outline) and Zone of Control (dashed), in its
    own colour, and the part of the path inside either, drawn thick."""
    items: list[Overlay] = []
    arc = line_of_fire_area(state, enemy)
    zone = zone_of_control_circle(state, enemy)
    if arc is not None:
        items.append(Overlay(arc, stroke=colour, layer="lof", group=enemy.id,
                             label=f"{enemy.id}'s Line of Fire"))
    if zone is not None:
        items.append(Overlay(zone.exterior, stroke=colour, dashed=True, layer="zoc",
                             group=enemy.id, label=f"{enemy.id}'s Zone of Control"))
    areas = [a for a in (arc, zone) if a is not None]
    if path is not None and len(path) > 1 and areas:
        inside = LineString(path).intersection(unary_union(areas))
        if not inside.is_empty and inside.length > 0:
            items.append(Overlay(inside, stroke=colour, width=5.0, layer="lof",
                                 group=enemy.id,
                                 label=f"the path in {enemy.id}'s LoF or ZoC"))
    return items


def infinity_overlays(state: GameState, command: dict[str, Any] | None) -> Sequence[Overlay]:
    """The Lines of Fire and Zones of Control the step's check asked about, and the
    movement's path."""
    assert isinstance(state, InfinityState)
    owner = mover_owner(state, command)
    paths = paths_to_draw(state, command)
    named = str((command or {}).get("trooper"))
    answering = (command or {}).get("do") in ANSWERS
    # An ARO or a pass names the reacting trooper; the path is the order's trooper's.
    mover = state.units.get(state.order.trooper if answering and state.order else named)
    reacting = set(aro_eligible(state, mover, paths[-1])) if paths and isinstance(
        mover, Trooper) else set()
    observers = [(i, e) for i, e in enumerate(enemies_of(state, owner)) if e.id == named] \
        if answering else observers_to_draw(state, owner, paths, reacting)
    items: list[Overlay] = []
    for index, enemy in observers:
        colour = ENEMY_COLOURS[index % len(ENEMY_COLOURS)]
        items += observer_overlays(state, enemy, colour, paths[-1] if paths else None)
    for trooper in state.troopers():
        base = trooper.footprint()
        if trooper.owner != owner and base is not None and not can_react(trooper):
            ring = Point(base.centre).buffer(base.radius + 0.4, quad_segs=16)
            items.append(Overlay(ring, stroke=IGNORED_COLOUR, dashed=True, layer="status",
                                 label=f"{trooper.id} cannot react "
                                       f"({', '.join(trooper.conditions)})"))
    for path in paths:
        items += path_overlays(state, path, mover)
    note = verdict(state, command, paths[-1]) if paths else None
    return items if note is None else [*items, note]
