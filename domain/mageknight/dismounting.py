"""Dismounting (MNT-69 … MNT-78): a special action that places the rider in
contact with its mount, gives no token, clears the unit's tokens, and leaves
both figures free to act this turn."""

from __future__ import annotations

from domain.decision import Decision
from domain.errors import RuleViolation
from domain.mageknight.actions import assign_action, check_can_be_given_action
from domain.mageknight.commands import Dismount
from domain.mageknight.dark_riders import check_may_dismount
from domain.mageknight.dial import mk_state, put_rider_beside
from domain.mageknight.figures import on_table, place_rider, rider_of
from domain.mageknight.state import Figure
from events.mageknight import TokensRemoved


def check_has_rider(unit: Figure, rider: Figure | None) -> Figure:
    """MNT-69: only a rider on a mount may dismount."""
    if rider is None:
        raise RuleViolation("MNT-69", f"{unit.id} has no rider to dismount")
    return rider


def decide_dismount(d: Decision, cmd: Dismount) -> None:
    """MNT-72 … MNT-78: the dismount special action."""
    state = mk_state(d)
    unit = check_can_be_given_action(state, on_table(state, cmd.figure), cmd.by)
    rider = check_has_rider(unit, rider_of(state, unit))
    check_may_dismount(rider)
    # MNT-75, MNT-76, MNT-78: the rider's own base goes in contact with the mount, if there is room.
    spot = place_rider(state, rider, unit, cmd.at, "MNT-78")
    # MNT-72, MNT-73: a special action, but no token for either figure.
    assign_action(d, unit, "dismount", token=False)
    # MNT-74: all the unit's tokens come off.
    d.emit(TokensRemoved(figures=(unit.id, rider.id), reason="MNT-74: dismounted"))
    # MNT-70, MNT-71, MNT-77: a normal warrior now; both may still be given an action.
    put_rider_beside(d, rider, unit, spot, "dismount", fresh=True)
