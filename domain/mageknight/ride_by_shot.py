"""Benefit: Ride-by Shot (MNT-93 … MNT-96)."""

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
from domain.mageknight.combat import check_base_abilities, ranged_targets, resolve_attack
from domain.mageknight.commands import RideByShot
from domain.mageknight.dial import mk_state
from domain.mageknight.figures import on_table, rider_of, unit_of
from domain.mageknight.rules import RULESET


@RULESET.handle(RideByShot)
def decide_ride_by_shot(d: Decision, cmd: RideByShot) -> None:
    """MNT-93: a ranged combat action assigned while out of contact; MNT-94,
    MNT-95: move up to the mount's speed with its base; MNT-96: the rider's base
    then makes the ranged attack (from the mount's centre and arc, A-MNT-25)."""
    state = mk_state(d)
    unit = check_can_be_given_action(state, on_table(state, cmd.figure), cmd.by)
    check_has_benefit(unit, "ride_by_shot")
    check_not_in_contact(state, unit, "MNT-93")
    check_abilities_for_action(cmd.use, "ranged combat")
    rider = rider_of(state, unit)
    assert rider is not None
    check_base_abilities(state, rider, cmd.use)
    facing = chosen_facing(unit, cmd.facing)
    length = check_path(state, unit, cmd.path, facing, move_speed(state, unit))
    started = assign_action(d, unit, "ride_by_shot")
    if cmd.path:
        move_unit(d, unit, cmd.path, facing, length)
    target = on_table(state, cmd.target)
    targets = ranged_targets(state, rider, unit_of(state, rider), target, area=False)
    resolve_attack(d, rider, unit, targets, "ranged")
    finish_action(d, started)
