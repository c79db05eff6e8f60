"""Mage Knight 2.0 (ruleset `mageknight-2`): Mounts (MNT) on a minimal MK core.

`rules.py` holds the rule set and its wiring table (handlers, appliers, facts,
overlays); nothing registers itself on import.
"""

from domain.mageknight.rules import RULES, MageKnight

__all__ = ["RULES", "MageKnight"]
