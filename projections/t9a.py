"""T9A board overlays: why an arrival from Ambush is legal or not.

For an `arrive` command (the step just taken, or one a judge proposes with
`warledger board … --command`), draw the chosen point, the 6″ circle around it,
each corner of the footprint marked in or out of reach with its distance, the
hull of the footprint and the point (AMB-16), what blocks it, what breaks Unit
Spacing (AMB-15), the proposed footprint with its front, and the verdict.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import ValidationError
from shapely.geometry import LineString, Point

from domain.datafile import read_as
from domain.errors import RuleViolation
from domain.state import GameState
from domain.t9a.arrival import PLACEMENT_CHECKS, Arrival, arrival_breaches, arrival_of
from domain.t9a.commands import Arrive
from domain.t9a.placement import (
    ARRIVAL_REACH,
    arrival_hull,
    between,
    corner_distances,
    corners_in_reach,
    obstacles,
    too_close,
)
from domain.t9a.units import T9AState, T9AUnit
from projections.board_svg import Overlay

IN_REACH = "#2e7d32"
OUT_OF_REACH = "#c62828"
CIRCLE = "#f9a825"
HULL = "#1565c0"
SPACING = "#ef6c00"
PROPOSED = "#6a1b9a"


def t9a_overlays(state: GameState, command: dict[str, Any] | None) -> Sequence[Overlay]:
    """The overlays explaining a T9A command (only `arrive` has any)."""
    if not isinstance(state, T9AState) or not command or command.get("do") != "arrive":
        return ()
    unit = state.units.get(str(command.get("unit")))
    if not isinstance(unit, T9AUnit):
        return (note(state, f"no unit {command.get('unit')!r} to draw", OUT_OF_REACH),)
    try:
        cmd = read_as(Arrive, {"by": unit.owner, **command})
        arrival = arrival_of(unit, cmd)
    except (ValidationError, ValueError) as error:
        return (note(state, f"cannot draw this arrive command: {error}", OUT_OF_REACH),)
    return arrival_overlays(state, unit, arrival)


def arrival_overlays(state: T9AState, unit: T9AUnit, arrival: Arrival) -> list[Overlay]:
    """Every check of one placement, drawn."""
    point, rect = arrival.point, arrival.rect
    ignore = (unit.id, *state.members_of(unit.id))
    index = obstacles(state, ignore=ignore)
    blockers = between(state, rect, point, ignore=ignore)
    parts = [
        Overlay(Point(point).buffer(ARRIVAL_REACH, quad_segs=32), stroke=CIRCLE, dashed=True,
                label=f'{ARRIVAL_REACH:g}" circle around the chosen point (AMB-13)',
                layer="ambush"),
        Overlay(arrival_hull(rect, point), stroke=OUT_OF_REACH if blockers else HULL,
                fill=OUT_OF_REACH if blockers else HULL, opacity=0.12, dashed=True,
                label="hull of footprint and point (AMB-16)", layer="ambush"),
        Overlay(rect.polygon, stroke=PROPOSED, fill=PROPOSED, opacity=0.2,
                label=f"{unit.id} as placed ({arrival.files}x{arrival.ranks})", layer="ambush"),
        Overlay(LineString(rect.front_edge), stroke=PROPOSED, label="its front", layer="ambush"),
    ]
    for key in blockers:
        parts += [Overlay(g, stroke=OUT_OF_REACH, fill=OUT_OF_REACH, opacity=0.5,
                          label=f"{key} blocks (AMB-16)", layer="ambush")
                  for g in index.geometries(key)]
    for key, gap in too_close(state, rect, ignore=ignore):
        parts += [Overlay(g, stroke=SPACING, dashed=True,
                          label=f'{key}: {gap:.2f}" (AMB-15 needs > 1")', layer="ambush")
                  for g in index.geometries(key)]
    reach = corners_in_reach(rect, point)
    for number, (corner, inside, gap) in enumerate(
        zip(rect.corners, reach, corner_distances(rect, point), strict=True), start=1
    ):
        parts.append(Overlay(corner, stroke=IN_REACH if inside else OUT_OF_REACH,
                             label=f'c{number} {gap:.2f}" {"in" if inside else "OUT"}',
                             label_offset=outward(rect.centre, corner), layer="ambush",
                             on_board=True))
    parts.append(Overlay(point, stroke="#000", label="chosen point", layer="ambush"))
    parts.append(verdict(state, unit, arrival, sum(reach)))
    return parts


def outward(centre: tuple[float, float], corner: tuple[float, float]) -> tuple[float, float]:
    """A label offset pointing away from the footprint's centre, past the corner."""
    dx, dy = corner[0] - centre[0], corner[1] - centre[1]
    return (0.4 if dx >= 0 else -0.4, 0.5 if dy >= 0 else -0.9)


def verdict(state: T9AState, unit: T9AUnit, arrival: Arrival, in_reach: int) -> Overlay:
    """The placement's verdict: legal, or the first clause it breaks."""
    breaches: list[RuleViolation] = arrival_breaches(state, unit, arrival, PLACEMENT_CHECKS)
    if not breaches:
        return note(state, f"legal placement: {in_reach} of 4 corners within 6\"", IN_REACH)
    first = breaches[0]
    more = f" (+{len(breaches) - 1} more)" if len(breaches) > 1 else ""
    return note(state, f"ILLEGAL {first.rule}: {first.message}{more}", OUT_OF_REACH)


def note(state: GameState, text: str, colour: str) -> Overlay:
    """A line of text in the board's top-left corner."""
    return Overlay((1.0, state.board.height - 1.5), stroke=colour, label=text, note=True)
