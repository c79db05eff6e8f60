"""The T9A rule set: its state, units, commands and hooks."""

from __future__ import annotations

from typing import ClassVar

from domain.ruleset import Ruleset, register
from domain.state import GameState, UnitState
from domain.t9a.machine import MACHINE


class T9AUnit(UnitState):
    """A ranked unit (the Ambush rules add their fields in the AMB issue)."""


class T9AState(GameState):
    """T9A game state."""

    unit_model: ClassVar[type[UnitState]] = T9AUnit


class T9A(Ruleset):
    """The 9th Age, with Ambush."""

    name = "t9a"
    title = "The 9th Age: Ambush"
    state_type = T9AState
    machine = MACHINE
    last_round = 6


register(T9A())
