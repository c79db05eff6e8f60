"""Infinity N4 commands: the skills an order declares, and the AROs that answer them."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from domain.commands import Command, Who
from events.infinity import Point


class Movement(Command):
    """A movement skill: the trooper moves along `path` (the points after its current
    position, in order), ending with `facing` (default: unchanged)."""

    trooper: str
    path: tuple[Point, ...] = Field(min_length=1)
    facing: float | None = None

    def ordered_units(self) -> tuple[str, ...]:
        return (self.trooper,)


class Move(Movement):
    """The Move short skill: the first skill of an order (activating the trooper),
    or its second skill."""

    do: Literal["move"] = "move"


class CautiousMove(Movement):
    """Cautious Movement, an Entire Order (CAU-05)."""

    do: Literal["cautious_move"] = "cautious_move"


class Idle(Command):
    """The Idle short skill: declare no second skill, so the order resolves."""

    do: Literal["idle"] = "idle"


class Aro(Command):
    """An enemy trooper answers the open ARO window with an ARO (e.g. `shoot`, `dodge`)."""

    who: ClassVar[Who] = "reactor"
    answers: ClassVar[tuple[str, ...]] = ("aro",)
    do: Literal["aro"] = "aro"
    trooper: str
    skill: str = Field(min_length=1)

    def ordered_units(self) -> tuple[str, ...]:
        return (self.trooper,)


class PassAro(Command):
    """An enemy trooper declares no ARO in the open window."""

    who: ClassVar[Who] = "reactor"
    answers: ClassVar[tuple[str, ...]] = ("aro",)
    do: Literal["pass"] = "pass"
    trooper: str

    def ordered_units(self) -> tuple[str, ...]:
        return (self.trooper,)


COMMANDS: tuple[type[Command], ...] = (Move, CautiousMove, Idle, Aro, PassAro)
