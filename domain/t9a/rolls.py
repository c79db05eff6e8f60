"""Ambush arrival rolls: when, how many dice, and what counts as arriving (AMB-06…10, AMB-24).

Physical dice given with a `roll_ambush` step are read one per Ambushing unit or
Combined Unit, in unit-id order.
"""

from __future__ import annotations

from domain.decision import Decision
from domain.dice import dice
from domain.errors import InputError, RuleViolation
from domain.t9a.ambushers import (
    FIRST_ROLL_TURN,
    counts_as_three_plus,
    has_movement_begun,
    roll_groups,
    rolls_due,
)
from domain.t9a.commands import RollAmbush
from domain.t9a.machine import MOVEMENT
from domain.t9a.units import T9AState, as_t9a
from events.t9a import AmbushRollResolved, AmbushRollsMade

#: AMB-09: the roll needed to arrive.
ARRIVAL_ROLL = 3


def check_roll_turn(state: T9AState) -> None:
    """AMB-06: arrival rolls are made from your Player Turn 2 onwards, never in Player
    Turn 1 (nor during Deployment)."""
    if state.round < FIRST_ROLL_TURN:
        when = "during Deployment" if state.round == 0 else f"in Player Turn {state.round}"
        raise RuleViolation(
            "AMB-06",
            f"no Ambush roll is made {when}; rolls start in your Player Turn {FIRST_ROLL_TURN}",
        )


def check_start_of_movement_phase(state: T9AState, *, rolling: bool) -> None:
    """AMB-08: the arrival rolls are made at the start of the Movement Phase: not in
    another phase, not after a unit has moved, and no Move comes before them (A-AMB-12)."""
    if rolling and state.phase != MOVEMENT:
        raise RuleViolation(
            "AMB-08",
            f"Ambush rolls are made at the start of the Movement Phase, not in the "
            f"{state.phase} phase",
        )
    if rolling and has_movement_begun(state):
        raise RuleViolation(
            "AMB-08",
            "Ambush rolls are made at the start of the Movement Phase; units have already moved",
        )
    if not rolling and rolls_due(state):
        raise RuleViolation(
            "AMB-08",
            "the Ambush rolls come first in the Movement Phase: roll_ambush before any Move",
        )


def check_rolls_owed(state: T9AState) -> None:
    """AMB-07: one D6 for each unit placed in Ambush, once in each of your Player Turns."""
    player = state.active_player
    if state.ambush_rolled.get(player) == state.round and counts_as_three_plus(state.round):
        raise RuleViolation(
            "AMB-07", f"{player} has already taken the Ambush rolls of Player Turn "
                      f"{state.round} (no die is rolled then: every roll counts as a 3+, AMB-10)"
        )
    if state.ambush_rolled.get(player) == state.round:
        raise RuleViolation(
            "AMB-07", f"{player} has already rolled for Ambush in Player Turn {state.round}"
        )
    if not roll_groups(state, player):
        raise RuleViolation("AMB-07", f"{player} has no units in Ambush to roll for")


def arrives_on(roll: int) -> bool:
    """AMB-09: a unit that rolls 3 or more arrives on the Battlefield if possible."""
    return roll >= ARRIVAL_ROLL


def check_dice_supplied(
    d: Decision, state: T9AState, groups: list[tuple[str, tuple[str, ...]]], automatic: bool
) -> None:
    """CORE-DICE (INPUT): physical dice given with `roll_ambush` must be the dice due:
    none in Player Turns 5 and 6 (AMB-10), else one per unit in Ambush and a single
    one per Combined Unit (AMB-07, AMB-24). Too many is refused here, saying why."""
    supplied = d.dice.physical
    due = 0 if automatic else len(groups)
    if supplied is None or len(supplied) <= due:
        return
    verb = "is" if due < 2 else "are"
    given = f"the step supplied {dice(len(supplied))}, but {dice(due)} {verb} due"
    if automatic:
        raise InputError(f"{given}: in Player Turn {state.round} no die is rolled, every "
                         f"Ambush roll counts as a 3+ (AMB-10)")
    combined = [" + ".join((unit, *members)) for unit, members in groups if members]
    single = (f"; a Combined Unit makes a single roll (AMB-24): {', '.join(combined)}"
              if combined else "")
    raise InputError(f"{given}: one D6 for each unit in Ambush (AMB-07){single}")


def decide_roll_ambush(d: Decision, cmd: RollAmbush) -> None:
    """AMB-07, AMB-24: roll one D6 per Ambushing unit, a single one per Combined Unit
    (A-AMB-14); in Player Turns 5 and 6 every roll counts as a 3+ unrolled (AMB-10)."""
    state = as_t9a(d.state)
    check_roll_turn(state)
    check_start_of_movement_phase(state, rolling=True)
    check_rolls_owed(state)
    automatic = counts_as_three_plus(state.round)
    groups = roll_groups(state, state.active_player)
    check_dice_supplied(d, state, groups, automatic)
    d.emit(AmbushRollsMade(player=state.active_player, game_turn=state.round))
    for unit, members in groups:
        roll = None if automatic else d.roll("Ambush arrival", 1, 6, unit)[0]
        arrives = automatic or arrives_on(roll or 0)
        d.emit(AmbushRollResolved(unit=unit, members=members, roll=roll, arrives=arrives,
                                  game_turn=state.round))
        if members:
            d.cite("AMB-24", f"one die for the Combined Unit {unit} + {', '.join(members)}")
    if automatic:
        d.cite("AMB-10", f"Player Turn {state.round}: every Ambush roll counts as a 3+")
    else:
        ready = [unit for unit, _ in groups if state.t9a_unit(unit).arrival_ready]
        d.cite("AMB-09", f"arriving on 3+: {', '.join(ready) or 'none'}")
