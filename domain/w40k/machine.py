"""The 40k turn machine: battle rounds 1–5 of Player Turns, each
command → movement → shooting → charge → fight (RULINGS.md, 40k).

Stratagems are allowed in every phase here; WHEN each one can be used is
the stratagem-timing machine's question (`domain.w40k.timing`, STR-04).
"""

from __future__ import annotations

from domain.machine import Row, TurnMachine, allow, turn_rows

PHASES = ("command", "movement", "shooting", "charge", "fight")

ROWS: list[Row] = [
    *turn_rows(PHASES),
    *allow("use_stratagem", PHASES),
    *allow("pass_stratagem", PHASES),
    *allow("gain_cp", PHASES),
    *allow("modify_stratagem_cost", PHASES),
    *allow("test_battle_shock", ["command"]),
    *allow("move", ["movement"]),
    *allow("shoot", ["shooting"]),
    *allow("declare_charge", ["charge"]),
    *allow("charge_move", ["charge"]),
    *allow("fight", ["fight"]),
]

MACHINE = TurnMachine("w40k-10", PHASES, ROWS)
