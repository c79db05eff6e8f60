"""The facts of Pawns: a pawn stepped to a point."""

from __future__ import annotations

from typing import Literal

from events.base import Fact, fact


@fact
class PawnStepped(Fact):
    """A pawn stepped to (x, y) (PAWN-1)."""

    type: Literal["PawnStepped"] = "PawnStepped"
    unit: str
    x: float
    y: float
