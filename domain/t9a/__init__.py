"""The 9th Age (ruleset `t9a`): Ambush (AMB) on a minimal T9A core (RULINGS.md)."""

from domain.t9a.rules import T9A

__all__ = ["T9A"]
