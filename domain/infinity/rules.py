"""The Infinity N4 rule set: its state, troopers, commands and hooks."""

from __future__ import annotations

from typing import ClassVar

from domain.infinity.machine import MACHINE
from domain.ruleset import Ruleset, register
from domain.state import GameState, UnitState


class Trooper(UnitState):
    """A trooper (the CAU issue adds its fields)."""


class InfinityState(GameState):
    """Infinity N4 game state."""

    unit_model: ClassVar[type[UnitState]] = Trooper


class Infinity(Ruleset):
    """Infinity N4, with Cautious Movement."""

    name = "infinity-n4"
    title = "Infinity N4: Cautious Movement"
    state_type = InfinityState
    machine = MACHINE
    last_round = 3


register(Infinity(), "infinity")
