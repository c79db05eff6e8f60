"""The 9th Age (ruleset `t9a`): Ambush (AMB) on a minimal T9A core (RULINGS.md).

`rules.py` holds the rule set and its wiring table (handlers, appliers, facts,
overlays); nothing registers itself on import.
"""

from domain.t9a.rules import RULES, T9A

__all__ = ["RULES", "T9A"]
