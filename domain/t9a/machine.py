"""The T9A turn machine: deployment, then 6 Game Turns of two Player Turns.

A Player Turn's phases are charge → movement → magic → shooting → melee
(RULINGS.md, T9A). Each rule command is an internal row in the phases that
allow it. `roll_ambush` is listed in every phase so that its timing is judged
by the clauses that set it (AMB-06, AMB-08) rather than by CORE-PHASE.
"""

from __future__ import annotations

from domain.machine import Row, TurnMachine, allow, turn_rows

DEPLOYMENT = "deployment"
CHARGE = "charge"
MOVEMENT = "movement"
BEFORE = (DEPLOYMENT,)
PHASES = (CHARGE, MOVEMENT, "magic", "shooting", "melee")

ROWS: list[Row] = [
    *turn_rows(PHASES, before=BEFORE),
    *allow("deploy", [DEPLOYMENT]),
    *allow("ambush", [DEPLOYMENT]),
    *allow("attach", [CHARGE, MOVEMENT]),
    *allow("roll_ambush", [*BEFORE, *PHASES]),
    *allow("arrive", [MOVEMENT]),
    *allow("advance", [MOVEMENT]),
    *allow("march", [MOVEMENT]),
    *allow("reform", [MOVEMENT]),
]

MACHINE = TurnMachine("t9a", PHASES, ROWS, before=BEFORE)
