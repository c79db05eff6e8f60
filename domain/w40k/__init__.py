"""Warhammer 40,000 10th edition (ruleset `w40k-10`): Stratagems (STR) on a minimal core."""

import domain.w40k.apply  # noqa: F401  (registers the appliers)
from domain.w40k.rules import W40K

__all__ = ["W40K"]
