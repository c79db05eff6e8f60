"""Infinity N4 (ruleset `infinity-n4`): Cautious Movement (CAU) on a minimal N4 core.

`rules.py` holds the rule set and its wiring table (handlers, appliers, facts,
overlays); nothing registers itself on import.
"""

from domain.infinity.rules import RULES, Infinity

__all__ = ["RULES", "Infinity"]
