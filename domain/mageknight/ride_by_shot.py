"""Benefit: Ride-by Shot (MNT-93 … MNT-96)."""

from __future__ import annotations

from domain.decision import Decision
from domain.mageknight.actions import assign_action, finish_action, move_unit
from domain.mageknight.benefits import check_benefit_action
from domain.mageknight.combat import check_base_abilities, ranged_targets, resolve_attack
from domain.mageknight.commands import RideByShot
from domain.mageknight.dial import mk_state
from domain.mageknight.figures import on_table, rider_of


def decide_ride_by_shot(d: Decision, cmd: RideByShot) -> None:
    """MNT-93: a ranged combat action assigned while out of contact; MNT-94,
    MNT-95: move up to the mount's speed with its base; MNT-96: the rider's base
    then makes the ranged attack (from the mount's centre and arc, A-MNT-25)."""
    state = mk_state(d)
    unit, move = check_benefit_action(state, cmd, "ride_by_shot", "MNT-93", "ranged combat")
    rider = rider_of(state, unit)
    assert rider is not None
    check_base_abilities(state, rider, cmd.use)
    started = assign_action(d, unit, "ride_by_shot")
    move_unit(d, unit, move)
    targets = ranged_targets(state, rider, unit, on_table(state, cmd.target), area=False)
    resolve_attack(d, rider, unit, targets, "ranged", cmd.target)
    finish_action(d, started)
