"""Applying T9A facts: one small function per fact type, assignment only."""

from __future__ import annotations

from domain.apply import ApplierTable
from domain.t9a.units import IN_AMBUSH, ArrivalRecord, T9AState
from events.t9a import (
    AmbushArrivalPostponed,
    AmbushDeclared,
    AmbushJoinChosen,
    AmbushRollResolved,
    AmbushRollsMade,
    ScoringLost,
    T9AMembersMoved,
    T9AMoveCounted,
    T9AMovesReset,
    T9ARemovedAsCasualty,
    T9AUnitDeployed,
    T9AUnitMoved,
    T9AUnitMovedV1,
    UnitArrivedFromAmbush,
    UnitArrivedFromAmbushV1,
)

#: The appliers of this rule set's facts (named by its wiring table in `rules.py`).
APPLIERS = ApplierTable()
applies = APPLIERS.on


@applies(T9AUnitDeployed)
def _unit_deployed(state: T9AState, fact: T9AUnitDeployed) -> None:
    unit = state.t9a_unit(fact.unit)
    unit.status = "on_table"
    unit.x, unit.y, unit.facing = fact.x, fact.y, fact.facing
    unit.files, unit.ranks = fact.files, fact.ranks


@applies(AmbushDeclared)
def _ambush_declared(state: T9AState, fact: AmbushDeclared) -> None:
    unit = state.t9a_unit(fact.unit)
    unit.status = "reserve"
    unit.x = unit.y = unit.facing = None
    if IN_AMBUSH not in unit.conditions:
        unit.conditions.append(IN_AMBUSH)
    unit.joined_to = fact.joined_to


@applies(AmbushJoinChosen)
def _ambush_join_chosen(state: T9AState, fact: AmbushJoinChosen) -> None:
    state.t9a_unit(fact.model).joined_to = fact.unit


@applies(AmbushRollsMade)
def _ambush_rolls_made(state: T9AState, fact: AmbushRollsMade) -> None:
    state.ambush_rolled[fact.player] = fact.game_turn


@applies(AmbushRollResolved)
def _ambush_roll_resolved(state: T9AState, fact: AmbushRollResolved) -> None:
    unit = state.t9a_unit(fact.unit)
    unit.arrival_ready = fact.arrives
    unit.arrival_roll = fact.roll


@applies(UnitArrivedFromAmbush)
def _unit_arrived(state: T9AState, fact: UnitArrivedFromAmbush) -> None:
    record = ArrivalRecord(
        game_turn=fact.game_turn, player=fact.player, phase=fact.phase, point=fact.point
    )
    for unit_id in (fact.unit, *fact.members):
        unit = state.t9a_unit(unit_id)
        unit.status = "on_table"
        unit.conditions = [c for c in unit.conditions if c != IN_AMBUSH]
        unit.x, unit.y, unit.facing = fact.x, fact.y, fact.facing
        unit.arrival_ready = False
        unit.arrived = record
    host = state.t9a_unit(fact.unit)
    host.files, host.ranks = fact.files, fact.ranks


@applies(T9AMoveCounted)
def _move_counted(state: T9AState, fact: T9AMoveCounted) -> None:
    for unit_id in fact.units:
        unit = state.t9a_unit(unit_id)
        unit.moved = fact.move
        unit.advance_moved = fact.move == "advance"


@applies(UnitArrivedFromAmbushV1)
def _unit_arrived_v1(state: T9AState, fact: UnitArrivedFromAmbushV1) -> None:
    """v1 logs (class_version 1): the applier also counted the arrival as an Advance
    Move (kept exactly; new logs say it with `T9AMoveCounted`)."""
    _unit_arrived(state, fact)
    _move_counted(state, T9AMoveCounted(units=(fact.unit, *fact.members), move="advance"))


@applies(AmbushArrivalPostponed)
def _arrival_postponed(state: T9AState, fact: AmbushArrivalPostponed) -> None:
    state.t9a_unit(fact.unit).arrival_ready = False


@applies(ScoringLost)
def _scoring_lost(state: T9AState, fact: ScoringLost) -> None:
    state.t9a_unit(fact.unit).scoring = False


@applies(T9AUnitMoved)
def _unit_moved(state: T9AState, fact: T9AUnitMoved) -> None:
    unit = state.t9a_unit(fact.unit)
    unit.x, unit.y, unit.facing = fact.x, fact.y, fact.facing
    unit.files, unit.ranks = fact.files, fact.ranks
    unit.moved = fact.move
    unit.advance_moved = fact.move == "advance"


@applies(T9AMembersMoved)
def _members_moved(state: T9AState, fact: T9AMembersMoved) -> None:
    for member in fact.members:
        joined = state.t9a_unit(member)
        joined.x, joined.y, joined.facing = fact.x, fact.y, fact.facing
        joined.moved = fact.move
        joined.advance_moved = fact.move == "advance"


@applies(T9AUnitMovedV1)
def _unit_moved_v1(state: T9AState, fact: T9AUnitMovedV1) -> None:
    """v1 logs (class_version 1): the applier also moved the joined models (kept exactly;
    new logs say it with `T9AMembersMoved`)."""
    _unit_moved(state, fact)
    _members_moved(state, T9AMembersMoved(
        unit=fact.unit, members=state.members_of(fact.unit), move=fact.move, x=fact.x,
        y=fact.y, facing=fact.facing))


@applies(T9AMovesReset)
def _moves_reset(state: T9AState, fact: T9AMovesReset) -> None:
    for unit_id in fact.units:
        unit = state.t9a_unit(unit_id)
        unit.moved = None
        unit.advance_moved = False


@applies(T9ARemovedAsCasualty)
def _removed_as_casualty(state: T9AState, fact: T9ARemovedAsCasualty) -> None:
    unit = state.t9a_unit(fact.unit)
    unit.status = "removed"
    unit.conditions = [c for c in unit.conditions if c != IN_AMBUSH]
    unit.arrival_ready = False
