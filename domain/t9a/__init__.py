"""The 9th Age (ruleset `t9a`): Ambush (AMB) on a minimal T9A core (RULINGS.md).

Importing the package registers the rule set, its appliers and the handlers of
every clause group.
"""

from domain.t9a import apply, arrival, deployment, joining, moves, rolls  # noqa: F401
from domain.t9a.rules import T9A

__all__ = ["T9A"]
