"""Benefits in general (MNT-87 … MNT-89): a benefit is printed on the mount
(A-MNT-02); some let a cavalry unit move and attack in one action, using only
the abilities that the assigned kind of action allows (A-MNT-20)."""

from __future__ import annotations

from collections.abc import Sequence

from domain.errors import RuleViolation
from domain.mageknight.actions import (
    MOVEMENT_ABILITIES,
    PlannedMove,
    check_can_be_given_action,
    plan_move,
)
from domain.mageknight.commands import MoveThenAct
from domain.mageknight.figures import is_cavalry, on_table, opposing_in_contact
from domain.mageknight.restrictions import check_cavalry_may_use
from domain.mageknight.state import Figure, MageKnightState


def check_has_benefit(unit: Figure, benefit: str) -> None:
    """MNT-89: a benefit applies to a cavalry unit whose mount has it (A-MNT-02)."""
    if not is_cavalry(unit) or benefit not in unit.benefits:
        raise RuleViolation(
            "CORE-MK-NO-BENEFIT", f"{unit.id} is not a cavalry unit with the {benefit} benefit"
        )


def check_not_in_contact(state: MageKnightState, unit: Figure, clause: str) -> None:
    """MNT-93, MNT-97, MNT-101: the unit must not be in contact with an opposing
    figure when the action is assigned (A-MNT-23)."""
    engaged = opposing_in_contact(state, unit)
    if engaged:
        raise RuleViolation(clause, f"{unit.id} is in base contact with opposing {engaged[0].id}")


def check_abilities_for_action(use: Sequence[str], action: str) -> None:
    """MNT-87, MNT-88: in a move-and-attack action, only abilities of the assigned
    kind of action may be used; move abilities do not help the move part."""
    moving = [a for a in use if a in MOVEMENT_ABILITIES]
    if moving and action != "move":
        raise RuleViolation("MNT-88", f"{moving[0]} is a move ability; this is a {action} action")


def check_benefit_action(
    state: MageKnightState, cmd: MoveThenAct, benefit: str, out_of_contact: str, action: str
) -> tuple[Figure, PlannedMove]:
    """Every check before a move-and-act benefit is assigned: the unit may be given
    an action, has the benefit, uses neither Surge nor a sub-faction ability
    (MNT-28, MNT-31), is out of contact (the `out_of_contact` clause, A-MNT-23),
    uses only abilities of the `action` (MNT-88), and its move is legal with the
    mount's speed (MNT-95, MNT-99). Returns the unit and its move."""
    fig = on_table(state, cmd.figure)
    unit = check_can_be_given_action(state, fig, cmd.by)
    check_has_benefit(unit, benefit)
    check_cavalry_may_use(fig, cmd.use)
    check_not_in_contact(state, unit, out_of_contact)
    check_abilities_for_action(cmd.use, action)
    return unit, plan_move(state, unit, cmd.path, cmd.facing)
