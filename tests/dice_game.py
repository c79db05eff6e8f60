"""A tiny rule set for core tests: two phases and a `roll` command."""

from __future__ import annotations

from typing import ClassVar, Literal

from domain.commands import Command
from domain.decision import Decision
from domain.machine import TurnMachine, allow, turn_rows
from domain.ruleset import Ruleset, register
from domain.w40k import W40K
from events.core import ClauseApplied


class Roll(Command):
    """Roll a d6 for the record."""

    do: Literal["roll"] = "roll"
    purpose: str = "test"


class DiceGame(Ruleset):
    """Two phases and a `roll` command: enough to test undo and dice."""

    name = "test-dice"
    title = "test dice game"
    state_type = W40K.state_type
    commands: ClassVar[tuple[type[Command], ...]] = (Roll,)
    machine = TurnMachine("test-dice", ("play", "rest"),
                          [*turn_rows(("play", "rest")), *allow("roll", ["play"])])
    last_round = 99


DICE = register(DiceGame())


@DICE.handle(Roll)
def decide_roll(d: Decision, command: Roll) -> None:
    (value,) = d.roll(command.purpose)
    d.emit(ClauseApplied(rule="TEST", message=f"rolled {value}"))
