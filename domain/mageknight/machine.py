"""The Mage Knight turn machine: turns in which every player has a Player Turn
command → action → end (RULINGS.md, Mage Knight 2.0)."""

from __future__ import annotations

from domain.machine import Row, TurnMachine, turn_rows

PHASES = ("command", "action", "end")

ROWS: list[Row] = [*turn_rows(PHASES)]

MACHINE = TurnMachine("mageknight-2", PHASES, ROWS)
