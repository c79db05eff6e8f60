"""Mage Knight 2.0 (ruleset `mageknight-2`): Mounts (MNT) on a minimal MK core."""

from domain.mageknight.rules import MageKnight

__all__ = ["MageKnight"]
