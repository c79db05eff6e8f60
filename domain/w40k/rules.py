"""The 40k rule set: its state, units, commands and hooks."""

from __future__ import annotations

from typing import Any, ClassVar

from domain.ruleset import Ruleset, register
from domain.state import GameState, UnitState
from domain.w40k.machine import MACHINE


class W40KUnit(UnitState):
    """A unit (the STR issue adds strength, Leadership and so on)."""


class W40KState(GameState):
    """40k game state."""

    unit_model: ClassVar[type[UnitState]] = W40KUnit


class W40K(Ruleset):
    """Warhammer 40,000 10th edition, with Stratagems."""

    name = "w40k-10"
    title = "Warhammer 40,000 10th edition: Stratagems"
    state_type = W40KState
    machine = MACHINE
    last_round = 5
    default_options: ClassVar[dict[str, Any]] = {"cp": 0}


register(W40K(), "w40k")
