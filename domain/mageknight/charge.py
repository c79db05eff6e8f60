"""Benefit: Charge (MNT-97 … MNT-100)."""

from __future__ import annotations

from domain.decision import Decision
from domain.mageknight.actions import assign_action, finish_action, move_unit
from domain.mageknight.benefits import check_benefit_action
from domain.mageknight.combat import check_close_combat, resolve_attack
from domain.mageknight.commands import Charge
from domain.mageknight.dial import mk_state
from domain.mageknight.figures import on_table


def decide_charge(d: Decision, cmd: Charge) -> None:
    """MNT-97: a close combat action assigned while out of contact; MNT-98,
    MNT-99: move up to the mount's speed with its base; MNT-100: then attack
    with the base named (rider or mount)."""
    state = mk_state(d)
    base = on_table(state, cmd.figure)
    unit, move = check_benefit_action(state, cmd, "charge", "MNT-97", "close combat")
    started = assign_action(d, unit, "charge")
    move_unit(d, unit, move)
    targets = check_close_combat(state, base, unit, cmd.targets, cmd.use)
    resolve_attack(d, base, unit, targets, "close")
    finish_action(d, started)
