"""Benefit: Impale (MNT-91, MNT-92)."""

from __future__ import annotations

from collections.abc import Sequence

from domain.errors import RuleViolation
from domain.mageknight.figures import unit_of
from domain.mageknight.state import Figure, MageKnightState


def has_impale(state: MageKnightState, base: Figure) -> bool:
    """Is this figure the rider of a cavalry unit with Impale?"""
    return base.mount is not None and "impale" in unit_of(state, base).benefits


def check_no_weapon_master(state: MageKnightState, base: Figure, use: Sequence[str]) -> None:
    """MNT-91: the rider of a unit with Impale may not use Weapon Master."""
    if "weapon_master" in use and has_impale(state, base):
        raise RuleViolation(
            "MNT-91", f"{base.id} rides a unit with Impale and may not use Weapon Master"
        )


def impale_bonus(state: MageKnightState, base: Figure, kind: str, targets: int) -> int:
    """MNT-92: +2 damage to the rider's successful close combat attack against a
    single target (A-MNT-22)."""
    return 2 if kind == "close" and targets == 1 and has_impale(state, base) else 0
