"""Benefit: Horsemanship (MNT-90)."""

from __future__ import annotations

from domain.mageknight.figures import unit_of
from domain.mageknight.state import Figure, MageKnightState


def horsemanship_penalty(state: MageKnightState, target: Figure, kind: str, aimed: str) -> int:
    """MNT-90: a ranged attack aimed at the rider's base of a unit with
    Horsemanship is made at −2 attack (A-MNT-21); a rider caught in an area
    aimed at another figure is not its target."""
    if kind == "close" or target.mount is None or target.id != aimed:
        return 0
    return -2 if "horsemanship" in unit_of(state, target).benefits else 0
