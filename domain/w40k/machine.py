"""The 40k turn machine: battle rounds 1–5 of Player Turns, each
command → movement → shooting → charge → fight (RULINGS.md, 40k)."""

from __future__ import annotations

from domain.machine import Row, TurnMachine, turn_rows

PHASES = ("command", "movement", "shooting", "charge", "fight")

ROWS: list[Row] = [*turn_rows(PHASES)]

MACHINE = TurnMachine("w40k-10", PHASES, ROWS)
