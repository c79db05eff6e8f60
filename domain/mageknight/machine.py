"""The Mage Knight turn machine: turns in which every player has a Player Turn
command → action → end (RULINGS.md, Mage Knight 2.0).

The table doubles as the list of what each phase allows: actions and the
cavalry benefits in the action phase; Dark Alliance and Poison at the start of
the turn, in the command phase; the pushing choice in any phase.
"""

from __future__ import annotations

from domain.machine import Row, TurnMachine, allow, turn_rows

PHASES = ("command", "action", "end")

ACTION_PHASE_COMMANDS = (
    "move",
    "close_attack",
    "ranged_attack",
    "capture",
    "dismount",
    "mount",
    "charge",
    "ride_by_shot",
    "unhorse",
    "trample",
    "free_spin",
    "use_ability",
    "drop_item",
    "pick_up_item",
    "declare_formation",
)
COMMAND_PHASE_COMMANDS = ("dark_alliance", "poison")

ROWS: list[Row] = [
    *turn_rows(PHASES),
    *(row for command in ACTION_PHASE_COMMANDS for row in allow(command, ["action"])),
    *(row for command in COMMAND_PHASE_COMMANDS for row in allow(command, ["command"])),
    *allow("choose_pushing", PHASES),
]

MACHINE = TurnMachine("mageknight-2", PHASES, ROWS)
