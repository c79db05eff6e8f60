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
from projections.overlays import overlay

ARC_REACH = 2.5
FRONT, REAR, CONTACT, ENEMY_CONTACT = "#f9a825", "#78909c", "#2e7d32", "#d32f2f"
ARCS = ((front_arc_polygon, FRONT, 0.12), (rear_arc_polygon, REAR, 0.08))
"""How each arc is drawn: the front arc (MNT-45) and the rear arc (MNT-50)."""
RIDER_LABEL = (0.4, -0.9)
"""The rider's name goes below the centre dot, clear of the figure's own label."""


@overlay("mageknight-2")
def mageknight_overlays(state: GameState, command: dict[str, Any] | None) -> Sequence[Overlay]:
    """Arcs and centre dots of every figure on the table, and lines for base contact."""
    if not isinstance(state, MageKnightState):
        return ()
    drawn: list[Overlay] = []
    figures = list(units_on_table(state))
    acting = str(command.get("figure", "")) if command else ""
    for fig in figures:
        base = body(state, fig)
        reach = ARC_REACH * (2 if acting in (fig.id, fig.rider) else 1)
        rider = f"cavalry {fig.id} + {fig.rider}" if fig.rider else ""
        for arc, colour, opacity in ARCS:
            drawn.append(
                Overlay(arc(base, reach), stroke=colour, fill=colour, opacity=opacity, dashed=True)
            )
        drawn.append(Overlay(base.centre, stroke="#000", label=rider, label_offset=RIDER_LABEL))
    for a, b in combinations(figures, 2):
        if in_contact(state, a, b):
            colour = ENEMY_CONTACT if is_opposing(a, b) else CONTACT
            line = LineString([body(state, a).centre, body(state, b).centre])
            drawn.append(Overlay(line, stroke=colour))
    return drawn
