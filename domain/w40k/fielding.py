"""Where a script may field 40k units: a position a game can start from (CORE-W40K-SETUP)."""

from __future__ import annotations

from domain.errors import ScriptError
from domain.geometry import EPS, Disc, distance, polygon_from_points
from domain.w40k.state import W40KState, W40KUnit

#: Terrain kinds no base may stand on (docs/script-format.md: they block movement).
BLOCKS_BASES = frozenset({"blocking", "impassable"})


def check_bases_clear(state: W40KState) -> None:
    """CORE-W40K-SETUP: every base on the battlefield stands clear of the other bases
    (touching is allowed) and off `blocking` and `impassable` terrain; else the
    script is malformed (`ScriptError`)."""
    placed = [(unit, base) for unit in sorted(state.units.values(), key=lambda u: u.id)
              if isinstance(unit, W40KUnit) and (base := unit.footprint()) is not None]
    for index, (unit, base) in enumerate(placed):
        for other, other_base in placed[index + 1:]:
            if bases_overlap(base, other_base):
                raise ScriptError(
                    f"units: CORE-W40K-SETUP: {unit.id}'s base overlaps {other.id}'s "
                    f"(centres {distance(base.centre, other_base.centre):.2f}\" apart); "
                    "bases stand clear of each other")
        for piece in state.terrain:
            if piece.kind in BLOCKS_BASES and distance(
                base.centre, polygon_from_points(piece.polygon)
            ) < base.radius - EPS:
                raise ScriptError(
                    f"units: CORE-W40K-SETUP: {unit.id}'s base stands on {piece.kind} "
                    f"terrain {piece.id}")


def bases_overlap(a: Disc, b: Disc) -> bool:
    """Do two round bases overlap (more than touching)?"""
    return distance(a.centre, b.centre) < a.radius + b.radius - EPS
