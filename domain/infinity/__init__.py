"""Infinity N4 (ruleset `infinity-n4`): Cautious Movement (CAU) on a minimal N4 core."""

from domain.infinity import apply, aro, cautious, movement  # noqa: F401  (register)
from domain.infinity.rules import Infinity

__all__ = ["Infinity"]
