"""The Infinity N4 turn machine: game rounds of Player Turns, each
tactical → orders → states (RULINGS.md, Infinity N4)."""

from __future__ import annotations

from domain.machine import Row, TurnMachine, turn_rows

PHASES = ("tactical", "orders", "states")

ROWS: list[Row] = [*turn_rows(PHASES)]

MACHINE = TurnMachine("infinity-n4", PHASES, ROWS)
