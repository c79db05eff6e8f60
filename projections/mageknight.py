"""Mage Knight board overlays: every figure's base with its front and rear arcs,
the centre dots, base contact, and riders seated in their mounts' slots.

A cavalry unit is drawn once, on its mount's base: arcs and centre dot are the
mount's (MNT-45, MNT-47, MNT-50).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any

from shapely.geometry import LineString

from domain.geometry import front_arc_polygon, rear_arc_polygon
from domain.mageknight.figures import body, in_contact, is_opposing, units_on_table
from domain.mageknight.state import MageKnightState
from domain.state import GameState
from projections.board_svg import Overlay

ARC_REACH = 2.5
FRONT, REAR, CONTACT, ENEMY_CONTACT = "#f9a825", "#78909c", "#2e7d32", "#d32f2f"
ARCS = ((front_arc_polygon, FRONT, 0.12), (rear_arc_polygon, REAR, 0.08))
"""How each arc is drawn: the front arc (MNT-45) and the rear arc (MNT-50)."""
RIDER_LABEL = (0.4, -0.9)
"""The rider's name goes below the centre dot, clear of the figure's own label."""


def mageknight_overlays(state: GameState, command: dict[str, Any] | None) -> Sequence[Overlay]:
    """The acting figure's arcs and centre dot (and its target's), its path, and lines for
    base contact. Arcs of every figure at once hide the board: the viewer's arcs layer
    shows the figures a command names."""
    if not isinstance(state, MageKnightState):
        return ()
    drawn: list[Overlay] = []
    figures = list(units_on_table(state))
    named = named_figures(command)
    for fig in figures:
        if not named.intersection({fig.id, fig.rider}):
            continue
        base = body(state, fig)
        rider = f"cavalry {fig.id} + {fig.rider}" if fig.rider else ""
        for arc, colour, opacity in ARCS:
            drawn.append(Overlay(arc(base, 2 * ARC_REACH), stroke=colour, fill=colour,
                                 opacity=opacity, dashed=True, layer="arcs"))
        drawn.append(Overlay(base.centre, stroke="#000", label=rider, label_offset=RIDER_LABEL,
                             layer="arcs"))
        drawn += path_of(fig.id, base.centre, command)
    for a, b in combinations(figures, 2):
        if in_contact(state, a, b):
            colour = ENEMY_CONTACT if is_opposing(a, b) else CONTACT
            line = LineString([body(state, a).centre, body(state, b).centre])
            drawn.append(Overlay(line, stroke=colour, layer="contact",
                                 label="enemies in base contact" if colour == ENEMY_CONTACT
                                 else "friends in base contact"))
    return drawn


def named_figures(command: dict[str, Any] | None) -> set[str]:
    """The figures a command names (the actor and its targets)."""
    if not command:
        return set()
    names: set[str] = set()
    for key in ("figure", "target", "targets", "rider", "mount"):
        value = command.get(key)
        if isinstance(value, str):
            names.add(value)
        elif isinstance(value, list):
            names.update(str(v) for v in value)
    return names


def path_of(figure: str, start: tuple[float, float],
            command: dict[str, Any] | None) -> list[Overlay]:
    """The path a move command takes the figure along, from where it stands."""
    if not command or command.get("figure") != figure:
        return []
    waypoints = command.get("path") or ([command["to"]] if command.get("to") else [])
    points = [start, *((float(p[0]), float(p[1])) for p in waypoints
                       if isinstance(p, list | tuple) and len(p) == 2)]
    if len(points) < 2:
        return []
    return [Overlay(LineString(points), stroke="#000", label="movement path", layer="paths")]
