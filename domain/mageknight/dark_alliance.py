"""Sub-faction ability of the Dark Riders: Dark Alliance (MNT-124 … MNT-129)."""

from __future__ import annotations

from domain.decision import Decision
from domain.errors import RuleViolation
from domain.mageknight.actions import check_controls
from domain.mageknight.commands import DarkAlliance
from domain.mageknight.dark_riders import is_dark_rider
from domain.mageknight.dial import deal_damage, heal, mk_state
from domain.mageknight.figures import on_table, rider_of, unit_of
from domain.mageknight.restrictions import may_use_sub_faction_abilities
from domain.mageknight.state import Figure, MageKnightState
from events.mageknight import DarkAllianceUsed


def dark_alliance_rider(state: MageKnightState, unit: Figure) -> Figure:
    """MNT-124: a Dark Riders rider may use its sub-faction ability while mounted
    (the exception to MNT-31)."""
    rider = rider_of(state, unit)
    if rider is None or not is_dark_rider(rider):
        raise RuleViolation(
            "CORE-MK-NO-ABILITY", f"{unit.id} is not a Dark Riders cavalry unit with a rider"
        )
    if not may_use_sub_faction_abilities(rider):
        raise RuleViolation("MNT-31", f"{rider.id} cannot use sub-faction abilities")
    return rider


def check_once_per_command_phase(state: MageKnightState, unit: Figure) -> None:
    """MNT-129: once in each of your command phases, per unit (or per player, by
    the option `dark_alliance_once_per`; A-MNT-36)."""
    now = f"{state.round}:{state.active_player}"
    if state.options.get("dark_alliance_once_per") == "player":
        used = [
            m
            for m, when in state.dark_alliance.items()
            if when == now and state.units[m].owner == unit.owner
        ]
    else:
        used = [unit.id] if state.dark_alliance.get(unit.id) == now else []
    if used:
        raise RuleViolation(
            "MNT-129", f"Dark Alliance was already used by {used[0]} in this command phase"
        )


def decide_dark_alliance(d: Decision, cmd: DarkAlliance) -> None:
    """MNT-126: optional, at the start of your turn (your command phase);
    MNT-127: 1 pushing damage to the rider (always the rider, A-MNT-35);
    MNT-128: 1 click healed on its mount, never past its starting click."""
    state = mk_state(d)
    unit = unit_of(state, on_table(state, cmd.figure))
    check_controls(unit, cmd.by)
    rider = dark_alliance_rider(state, unit)
    check_once_per_command_phase(state, unit)
    d.emit(DarkAllianceUsed(mount=unit.id, player=cmd.by, round=state.round))
    heal(d, unit, 1)
    deal_damage(d, rider, 1, pushing=True)
