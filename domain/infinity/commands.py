"""Infinity N4 commands: the skills an order declares, and the AROs that answer them."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field, StringConstraints

from domain.commands import Command, Who
from domain.limits import Facing
from events.infinity import Point


class TrooperCommand(Command):
    """A command given to one trooper, which its player must own."""

    trooper: str

    def ordered_units(self) -> tuple[str, ...]:
        return (self.trooper,)


class Movement(TrooperCommand):
    """A movement skill: the trooper moves along `path` (the points after its current
    position, in order), ending with `facing` (default: unchanged)."""

    path: tuple[Point, ...] = Field(min_length=1)
    facing: Facing | None = None


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


class AroAnswer(TrooperCommand):
    """An enemy trooper's answer to the open ARO window."""

    who: ClassVar[Who] = "reactor"
    answers: ClassVar[tuple[str, ...]] = ("aro",)


class Aro(AroAnswer):
    """An enemy trooper answers the open ARO window with an ARO (e.g. `shoot`, `dodge`)."""

    do: Literal["aro"] = "aro"
    skill: Annotated[str, StringConstraints(strip_whitespace=True, to_lower=True,
                                            min_length=1)] = Field(
        description="the skill, read in lower case (`Shoot ` is `shoot`)")


class PassAro(AroAnswer):
    """An enemy trooper declares no ARO in the open window."""

    do: Literal["pass"] = "pass"


COMMANDS: tuple[type[Command], ...] = (Move, CautiousMove, Idle, Aro, PassAro)
