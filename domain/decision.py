"""A decision in progress: the working state, the dice, and the facts so far.

Rule code reads `d.state` and calls `d.emit(fact)`; each fact is applied to
the working state at once, so later checks in the same decision see it. The
working state is the gate's own copy (`domain.gate.settle`): a refusal leaves
the caller's state as it was.
"""

from __future__ import annotations

from typing import Protocol

from domain.apply import apply
from domain.dice import DiceSource
from domain.history import History, NoHistory
from domain.machine import TurnMachine
from domain.state import GameState
from events.base import Fact
from events.core import ClauseApplied, DiceRolled


class Rules(Protocol):
    """What a decision asks of its rule set (`domain.ruleset.Ruleset` is one): the
    turn machine, the last round, and the hooks around phases, turns and the game's end.
    (A protocol, so that this module needs no import of the rule-set module.)"""

    @property
    def name(self) -> str: ...

    @property
    def machine(self) -> TurnMachine: ...

    @property
    def last_round(self) -> int: ...

    @property
    def reveals_at_game_end(self) -> bool: ...

    @property
    def secrets_final_from(self) -> int | None: ...

    def on_phase_start(self, d: Decision) -> None: ...

    def on_phase_end(self, d: Decision) -> None: ...

    def on_turn_end(self, d: Decision) -> None: ...

    def on_game_end(self, d: Decision) -> None: ...

    @property
    def result_points_max(self) -> int: ...

    @property
    def result_points_name(self) -> str: ...

    def result_points(self, state: GameState) -> dict[str, int] | None: ...


class Decision:
    """Collects the facts of one command as it is decided."""

    def __init__(
        self,
        ruleset: Rules,
        state: GameState,
        dice: DiceSource,
        history: History | None = None,
    ) -> None:
        self.ruleset = ruleset
        self.state = state
        self.dice = dice
        self.history: History = history or NoHistory()
        self.facts: list[Fact] = []
        #: The phase the machine moved to for this command (set by the gate).
        self.dest: str = state.phase

    def emit(self, *facts: Fact) -> None:
        """Record facts and apply them to the working state."""
        for fact in facts:
            apply(self.state, fact)
            self.facts.append(fact)

    def roll(
        self, purpose: str, count: int = 1, sides: int = 6, subject: str | None = None
    ) -> tuple[int, ...]:
        """Roll dice as facts (one per source) and return their values."""
        rolled: tuple[int, ...] = ()
        for values, source, first in self.dice.draw(count, sides):
            self.emit(
                DiceRolled(
                    purpose=purpose,
                    sides=sides,
                    values=values,
                    source=source,
                    first_index=first,
                    subject=subject,
                )
            )
            rolled += values
        return rolled

    def cite(self, rule: str, message: str) -> None:
        """Note that a clause decided something on this (accepted) step."""
        self.emit(ClauseApplied(rule=rule, message=message))
