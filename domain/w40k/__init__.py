"""Warhammer 40,000 10th edition (ruleset `w40k-10`): Stratagems (STR) on a minimal core.

`rules.py` holds the rule set and its wiring table (handlers, appliers, facts,
overlays); nothing registers itself on import.
"""

from domain.w40k.rules import RULES, W40K

__all__ = ["RULES", "W40K"]
