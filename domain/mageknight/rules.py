"""The Mage Knight rule set: its state, figures, commands and hooks."""

from __future__ import annotations

from typing import Any, ClassVar

from domain.mageknight.machine import MACHINE
from domain.ruleset import Ruleset, register
from domain.state import GameState, UnitState


class Figure(UnitState):
    """A figure (the MNT issue adds combat dials, bases and tokens)."""


class MageKnightState(GameState):
    """Mage Knight game state."""

    unit_model: ClassVar[type[UnitState]] = Figure


class MageKnight(Ruleset):
    """Mage Knight 2.0, with mounts and cavalry."""

    name = "mageknight-2"
    title = "Mage Knight 2.0: Mounts"
    state_type = MageKnightState
    machine = MACHINE
    last_round = 10
    default_options: ClassVar[dict[str, Any]] = {"actions_per_turn": 3}


register(MageKnight(), "mageknight")
