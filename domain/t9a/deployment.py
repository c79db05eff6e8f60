"""Deployment: placing units on the Battlefield, or in Ambush (AMB-02…04)."""

from __future__ import annotations

from domain.decision import Decision
from domain.errors import InputError, RuleViolation
from domain.t9a.ambushers import is_ambush_eligible
from domain.t9a.combining import check_join
from domain.t9a.commands import DeclareAmbush, Deploy
from domain.t9a.footing import check_formation, check_unit_spacing, check_wholly_on_board
from domain.t9a.units import T9AUnit, as_t9a
from domain.words import agrees, counted
from events.t9a import AmbushDeclared, T9AUnitDeployed


def check_ambush_eligible(unit: T9AUnit) -> None:
    """AMB-02: only a unit that as a whole has Ambush (every model) may be placed in
    Ambush."""
    if is_ambush_eligible(unit):
        return
    rules = unit.rules
    if rules.ambush is None:
        raise RuleViolation("AMB-02", f"{unit.id} does not have Ambush, so it cannot Ambush")
    raise RuleViolation(
        "AMB-02",
        f"only {rules.ambush_models or 0} of {unit.id}'s {counted(unit.models, 'model')} "
        f"{agrees(rules.ambush_models or 0, 'has', 'have')} Ambush; "
        "the unit as a whole must have it",
    )


def check_not_on_battlefield(unit: T9AUnit) -> None:
    """AMB-04: a unit is placed in Ambush by not placing it on the Battlefield, so a
    unit already deployed cannot be."""
    if unit.status != "reserve":
        raise RuleViolation(
            "AMB-04",
            f"{unit.id} is {unit.whereabouts}; only a unit not placed on the "
            "Battlefield can be placed in Ambush",
        )


def decide_ambush(d: Decision, cmd: DeclareAmbush) -> None:
    """AMB-03: the owner may choose not to Deploy an eligible unit and place it in
    Ambush instead (joined, if it is an Attachable Model, to an Ambushing unit: AMB-21)."""
    state = as_t9a(d.state)
    unit = state.t9a_unit(cmd.unit)
    if unit.in_ambush:
        raise InputError(f"{unit.id} is in Ambush already")
    check_not_on_battlefield(unit)
    check_ambush_eligible(unit)
    if cmd.join is not None:
        check_join(unit, state.t9a_unit(cmd.join))
    d.emit(AmbushDeclared(unit=unit.id, ambush=unit.rules.ambush or "", joined_to=cmd.join))
    joined = f", joined to {cmd.join}" if cmd.join else ""
    d.cite("AMB-03", f"{unit.id} is placed in Ambush ({unit.rules.ambush}){joined}")


def decide_deploy(d: Decision, cmd: Deploy) -> None:
    """Deploy a unit that is not yet on the table: a legal formation, wholly on the
    board, with Unit Spacing."""
    state = as_t9a(d.state)
    unit = state.t9a_unit(cmd.unit)
    if unit.status != "reserve" or unit.in_ambush:
        raise InputError(f"{unit.id} is {unit.whereabouts}; only a unit waiting to deploy "
                         "can deploy")
    files, ranks = cmd.files or unit.files, cmd.ranks or unit.ranks
    rect = unit.shape_at(cmd.x, cmd.y, cmd.facing, files, ranks)
    check_formation(unit, files, ranks, clause="CORE-FORMATION")
    check_wholly_on_board(state, unit, rect)
    check_unit_spacing(state, unit, rect, clause="CORE-UNIT-SPACING")
    d.emit(T9AUnitDeployed(unit=unit.id, x=cmd.x, y=cmd.y, facing=cmd.facing, files=files,
                        ranks=ranks))
