"""Benefit: Unhorse (MNT-101 … MNT-107)."""

from __future__ import annotations

from collections.abc import Sequence

from domain.decision import Decision
from domain.errors import RuleViolation
from domain.geometry import EPS, distance
from domain.mageknight.actions import (
    MOVEMENT_ABILITIES,
    assign_action,
    check_move_abilities,
    end_footprint,
    finish_action,
    move_unit,
)
from domain.mageknight.benefits import check_benefit_action
from domain.mageknight.combat import rider_attack_bonus
from domain.mageknight.commands import Unhorse
from domain.mageknight.dark_riders import can_be_unhorsed
from domain.mageknight.dial import eliminate, mk_state, put_rider_beside
from domain.mageknight.figures import (
    Point,
    body,
    find_room,
    is_cavalry,
    is_opposing,
    on_table,
    rider_of,
    unit_of,
)
from domain.mageknight.state import Figure, MageKnightState
from events.mageknight import TokensRemoved

UNHORSE_TARGET = 6


def check_no_movement_abilities(use: Sequence[str]) -> None:
    """MNT-102: during Unhorse the unit may not use any movement special ability."""
    moving = [a for a in use if a in MOVEMENT_ABILITIES]
    if moving:
        raise RuleViolation("MNT-102", f"Unhorse may not use the movement ability {moving[0]}")


def check_ends_in_contact(
    state: MageKnightState, unit: Figure, end: Point, facing: float, target: Figure
) -> Figure:
    """MNT-103: the move ends in contact with the opposing cavalry unit chosen (A-MNT-26)."""
    victim = unit_of(state, target)
    if not is_cavalry(victim) or not is_opposing(unit, victim):
        raise RuleViolation("MNT-103", f"{target.id} is not an opposing cavalry unit")
    apart = distance(end_footprint(unit, end, facing), body(state, victim))
    if apart > EPS:
        raise RuleViolation(
            "MNT-103", f'the move ends {apart:.2f}" from {victim.id}, not in base contact'
        )
    return victim


def unhorse_total(rider: Figure, die: int) -> int:
    """MNT-104: 1d6 plus the attack bonus of the unit's rider."""
    return die + rider_attack_bonus(rider)


def unseat(d: Decision, victim: Figure, rider: Figure) -> None:
    """MNT-106, MNT-107: the unhorsed rider becomes a dismounted rider placed in
    contact with its mount, or is eliminated if there is no room; the unit's
    tokens come off either way (A-MNT-27, MNT-59)."""
    spot = find_room(mk_state(d), rider, victim)
    if spot is None:
        eliminate(d, rider, "MNT-107: unhorsed with no room beside its mount")
        d.cite("MNT-107", f"no room for unhorsed {rider.id} beside {victim.id}: eliminated")
        return
    d.emit(TokensRemoved(figures=(victim.id, rider.id), reason="unhorsed (A-MNT-27)"))
    put_rider_beside(d, rider, victim, spot, "unhorsed")
    d.cite("MNT-106", f"{rider.id} is unhorsed and is now a dismounted rider")


def decide_unhorse(d: Decision, cmd: Unhorse) -> None:
    """MNT-101: a move action assigned while out of contact; then MNT-104 …
    MNT-105: 6 or more on 1d6 + rider bonus unhorses the opposing rider."""
    state = mk_state(d)
    check_no_movement_abilities(cmd.use)
    unit, move = check_benefit_action(state, cmd, "unhorse", "MNT-101", "move")
    check_move_abilities(state, unit, cmd.use)
    victim = check_ends_in_contact(state, unit, move.end, move.facing, on_table(state, cmd.target))
    started = assign_action(d, unit, "unhorse")
    move_unit(d, unit, move)
    own_rider, victim_rider = rider_of(state, unit), rider_of(state, victim)
    assert own_rider is not None and victim_rider is not None
    total = unhorse_total(own_rider, d.roll("unhorse", 1, 6, subject=unit.id)[0])
    if total < UNHORSE_TARGET:
        d.cite("MNT-105", f"unhorse total {total} is less than {UNHORSE_TARGET}: no effect")
    elif not can_be_unhorsed(victim_rider):
        d.cite("MNT-119", f"{victim_rider.id} is a Dark Riders rider and cannot be unhorsed")
    else:
        unseat(d, victim, victim_rider)
    finish_action(d, started)
