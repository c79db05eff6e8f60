"""Mage Knight 2.0 (ruleset `mageknight-2`): Mounts (MNT) on a minimal MK core.

Importing the package registers the appliers and every command handler.
"""

from domain.mageknight import (  # noqa: F401  (each module registers what it decides)
    apply,
    charge,
    combat,
    contact,
    dark_alliance,
    dismounting,
    formations,
    items,
    mounting,
    moving,
    pushing,
    restrictions,
    ride_by_shot,
    trample,
    unhorse,
)
from domain.mageknight.rules import MageKnight

__all__ = ["MageKnight"]
