"""What happens by itself as T9A phases and the game start and end.

The rule set's hooks (`T9A.on_phase_start`, `on_phase_end`, `on_game_end`)
look up the rules for the phase in the tables at the bottom.
"""

from __future__ import annotations

from collections.abc import Callable

from domain.decision import Decision
from domain.errors import RuleViolation
from domain.t9a.ambushers import counts_as_three_plus, is_ambush_eligible, rolls_due
from domain.t9a.machine import CHARGE, DEPLOYMENT, MOVEMENT
from domain.t9a.units import T9AState
from events.t9a import AmbushArrivalPostponed, AmbushDeclared, T9AMovesReset, T9ARemovedAsCasualty

PhaseRule = Callable[[Decision, T9AState], None]


def reset_moves(d: Decision, state: T9AState) -> None:
    """A new Player Turn: the active player's units have made no Move in it yet."""
    moved = tuple(
        unit.id
        for unit in state.t9a_units_to_read()
        if unit.owner == state.active_player and (unit.moved or unit.advance_moved)
    )
    if moved:
        d.emit(T9AMovesReset(units=moved))


def check_every_unit_deployed(d: Decision, state: T9AState) -> None:
    """CORE-DEPLOY-ALL: Deployment ends only when every unit without Ambush is on the table."""
    left = [
        unit.id
        for unit in state.t9a_units_to_read()
        if unit.status == "reserve" and not unit.in_ambush and not is_ambush_eligible(unit)
    ]
    if left:
        raise RuleViolation(
            "CORE-DEPLOY-ALL",
            f"{', '.join(left)} must be deployed before Deployment ends (no Ambush)",
        )


def ambush_undeployed_units(d: Decision, state: T9AState) -> None:
    """AMB-04: an eligible unit not placed on the Battlefield during Deployment is
    thereby placed in Ambush."""
    for unit in state.t9a_units():
        if unit.status == "reserve" and not unit.in_ambush and is_ambush_eligible(unit):
            d.emit(AmbushDeclared(unit=unit.id, ambush=unit.rules.ambush or ""))
            d.cite("AMB-04", f"{unit.id} was not deployed, so it is placed in Ambush")


def check_ambush_rolls_made(d: Decision, state: T9AState) -> None:
    """AMB-07: in each Player Turn from your second, roll for every Ambushing unit; the
    rolls cannot be skipped by leaving the Movement Phase (or the turn) without them."""
    if d.dest == MOVEMENT or not rolls_due(state):
        return
    roll = (f"{state.active_player} must roll for their Ambushing units (roll_ambush)"
            if not counts_as_three_plus(state.round) else
            f"{state.active_player} must take the Ambush rolls (roll_ambush, with no dice: in "
            f"Player Turn {state.round} no die is rolled and every roll counts as a 3+, AMB-10)")
    if state.phase == MOVEMENT:
        raise RuleViolation(
            "AMB-07", f"{roll} before leaving the Movement Phase of Player Turn {state.round}"
        )
    raise RuleViolation(
        "AMB-07",
        f"{roll} at the start of the Movement Phase of Player Turn {state.round}; ending "
        f"Player Turn {state.round} from the {state.phase} phase would skip those rolls",
    )


def postpone_unplaced_arrivals(d: Decision, state: T9AState) -> None:
    """AMB-12: a unit that rolled 3+ but was not placed cannot enter this turn; it stays
    in Ambush and rolls again in its next Player Turn (A-AMB-07)."""
    for unit in state.t9a_units_to_read():
        if unit.arrival_ready and unit.in_ambush:
            d.emit(AmbushArrivalPostponed(unit=unit.id))
            d.cite("AMB-12", f"{unit.id} was not placed this turn; it stays in Ambush")


def remove_units_still_in_ambush(d: Decision, state: T9AState) -> None:
    """AMB-20: an Ambushing unit that has not arrived by the end of the game is removed
    as a casualty (A-AMB-16: destroyed for every end-of-game purpose)."""
    for unit in state.t9a_units():
        if unit.in_ambush:
            d.emit(T9ARemovedAsCasualty(unit=unit.id, reason="AMB-20: still in Ambush"))
            d.cite("AMB-20", f"{unit.id} never arrived and is removed as a casualty")


#: Rules run as a phase starts, by phase.
PHASE_START_RULES: dict[str, tuple[PhaseRule, ...]] = {CHARGE: (reset_moves,)}
#: Rules run as a phase ends, by phase (a rule may refuse the step).
PHASE_END_RULES: dict[str, tuple[PhaseRule, ...]] = {
    DEPLOYMENT: (check_every_unit_deployed, ambush_undeployed_units),
    CHARGE: (check_ambush_rolls_made,),
    MOVEMENT: (check_ambush_rolls_made, postpone_unplaced_arrivals),
}
#: Rules run as the game ends.
GAME_END_RULES: tuple[PhaseRule, ...] = (remove_units_still_in_ambush,)
