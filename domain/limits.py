"""What a game can hold: the range of numbers a script or command may give.

A finite but absurd value is not a position on any table nor a count of
anything: a coordinate of 1e308 inches overflows geometry, a cost modifier of
-2**63 overflows storage, a Toughness of 10**8 asks for as many dice. Scripts
and commands holding one are refused as malformed (`INPUT`) before any rule
is asked.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, Field

from domain.datafile import MAX_MAGNITUDE, leaf_values, leaves

__all__ = ["MAX_MAGNITUDE", "Facing", "first_out_of_range", "normalise_facing",
           "out_of_range_message"]


def normalise_facing(degrees: float) -> float:
    """An angle as 0 ≤ a < 360 degrees, counter-clockwise from +x (CONTRACT §2)."""
    angle = degrees % 360.0
    return 0.0 if angle >= 360.0 else angle + 0.0  # + 0.0 turns -0.0 into 0.0


#: A facing in degrees, stored as 0 ≤ a < 360 (`facing: 450` is `90.0`).
Facing = Annotated[
    float, Field(ge=-MAX_MAGNITUDE, le=MAX_MAGNITUDE), AfterValidator(normalise_facing)
]


def first_out_of_range(value: Any, where: str = "value") -> str | None:
    """Where in `value` (nested dicts and lists) a number lies beyond
    ±`MAX_MAGNITUDE`, as `where.key[0] = 1e+308`; None if nowhere."""
    if not any(_beyond(number) for number in leaf_values(value)):
        return None  # the common case, found without naming paths
    for path, number in leaves(value):
        if isinstance(number, int | float) and not isinstance(number, bool) and (
            abs(number) > MAX_MAGNITUDE
        ):
            place = "".join(f"[{part}]" if isinstance(part, int) else f".{part}"
                            for part in path)
            return f"{where}{place} = {number!r}"
    return None


def _beyond(number: Any) -> bool:
    """Is this one value a number beyond ±`MAX_MAGNITUDE` (`first_out_of_range`)?"""
    kind = type(number)
    if kind is str or kind is bool or number is None:
        return False
    return isinstance(number, int | float) and not isinstance(number, bool) and (
        abs(number) > MAX_MAGNITUDE)


def out_of_range_message(found: str) -> str:
    """The one-line reason for a value `first_out_of_range` found."""
    return f"{found} is out of range: numbers in a game go up to ±{MAX_MAGNITUDE:,.0f}"
