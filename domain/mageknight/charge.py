"""Benefit: Charge (MNT-97 … MNT-100)."""

from __future__ import annotations

from domain.decision import Decision
from domain.mageknight.actions import (
    assign_action,
    check_can_be_given_action,
    check_path,
    chosen_facing,
    finish_action,
    move_speed,
    move_unit,
)
from domain.mageknight.benefits import (
    check_abilities_for_action,
    check_has_benefit,
    check_not_in_contact,
)
from domain.mageknight.combat import check_close_combat, resolve_attack
from domain.mageknight.commands import Charge
from domain.mageknight.dial import mk_state
from domain.mageknight.figures import on_table
from domain.mageknight.rules import RULESET


@RULESET.handle(Charge)
def decide_charge(d: Decision, cmd: Charge) -> None:
    """MNT-97: a close combat action assigned while out of contact; MNT-98,
    MNT-99: move up to the mount's speed with its base; MNT-100: then attack
    with the base named (rider or mount)."""
    state = mk_state(d)
    base = on_table(state, cmd.figure)
    unit = check_can_be_given_action(state, base, cmd.by)
    check_has_benefit(unit, "charge")
    check_not_in_contact(state, unit, "MNT-97")
    check_abilities_for_action(cmd.use, "close combat")
    facing = chosen_facing(unit, cmd.facing)
    length = check_path(state, unit, cmd.path, facing, move_speed(state, unit))
    started = assign_action(d, unit, "charge")
    if cmd.path:
        move_unit(d, unit, cmd.path, facing, length)
    targets = check_close_combat(state, base, unit, cmd.targets, cmd.use)
    resolve_attack(d, base, unit, targets, "close")
    finish_action(d, started)
