"""The move action (core), with the mount's speed and abilities for a cavalry unit (MNT-38)."""

from __future__ import annotations

from domain.decision import Decision
from domain.mageknight.actions import (
    assign_action,
    check_can_be_given_action,
    check_move_abilities,
    finish_action,
    move_unit,
    plan_move,
)
from domain.mageknight.commands import Move
from domain.mageknight.dial import mk_state
from domain.mageknight.figures import on_table
from domain.mageknight.restrictions import check_cavalry_may_use


def decide_move(d: Decision, cmd: Move) -> None:
    """Move up to the speed value along the path, then face any way (MNT-38);
    no Surge or sub-faction ability for a cavalry unit (MNT-28, MNT-31)."""
    state = mk_state(d)
    fig = on_table(state, cmd.figure)
    unit = check_can_be_given_action(state, fig, cmd.by)
    check_cavalry_may_use(fig, cmd.use)
    check_move_abilities(state, unit, cmd.use)
    move = plan_move(state, unit, cmd.path, cmd.facing)
    started = assign_action(d, unit, "move")
    move_unit(d, unit, move)
    finish_action(d, started)
