"""The T9A turn machine: deployment, then 6 Game Turns of two Player Turns.

A Player Turn's phases are charge → movement → magic → shooting → melee
(RULINGS.md, T9A). Rows for rule commands are added by the clause modules.
"""

from __future__ import annotations

from domain.machine import Row, TurnMachine, turn_rows

BEFORE = ("deployment",)
PHASES = ("charge", "movement", "magic", "shooting", "melee")

ROWS: list[Row] = [*turn_rows(PHASES, before=BEFORE)]

MACHINE = TurnMachine("t9a", PHASES, ROWS, before=BEFORE)
