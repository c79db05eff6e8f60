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


def horsemanship_note(
    base: Figure, target: Figure, kind: str, roll: int, attack: int,
    modifiers: dict[str, int], defense: int,
) -> str:
    """MNT-90, as the step and the audit show it: the attack total, its modifier
    (Horsemanship's −2 and the others), the defense and the verdict."""
    modifier = sum(modifiers.values())
    total = roll + attack + modifier
    parts = ", ".join(f"{name} {value:+d}" for name, value in modifiers.items() if value)
    verdict = "a hit" if total >= defense else "a miss"
    if total < defense <= total - modifiers.get("Horsemanship", 0):
        verdict += " (it would have hit without Horsemanship)"
    return (f"{base.id}'s {kind} attack at {target.id}'s base: roll {roll} + attack {attack} "
            f"+ modifier {modifier:+d} ({parts}) = {total} against defense {defense}: {verdict}")
