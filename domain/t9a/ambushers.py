"""Questions about Ambushing units: who may Ambush, who rolls, whether rolls are due."""

from __future__ import annotations

from domain.t9a.units import T9AState, T9AUnit

#: AMB-06: arrival rolls start in your Player Turn 2.
FIRST_ROLL_TURN = 2


def is_ambush_eligible(unit: T9AUnit) -> bool:
    """AMB-02: the unit as a whole has Ambush (every one of its models)."""
    rules = unit.rules
    return rules.ambush is not None and (
        rules.ambush_models is None or rules.ambush_models >= unit.models
    )


def roll_groups(state: T9AState, player: str) -> list[tuple[str, tuple[str, ...]]]:
    """Each of the player's Ambushing units or Combined Units that rolls one die
    (AMB-07, AMB-24): (unit, the Attachable Models joined to it), in unit-id order."""
    return [
        (unit.id, state.members_of(unit.id))
        for unit in state.t9a_units_to_read()
        if unit.owner == player and unit.in_ambush and unit.joined_to is None
    ]


def rolls_due(state: T9AState) -> bool:
    """Does the active player still owe their Ambush rolls this Player Turn (AMB-06, AMB-07)?"""
    player = state.active_player
    return (
        state.round >= FIRST_ROLL_TURN
        and state.ambush_rolled.get(player) != state.round
        and bool(roll_groups(state, player))
    )


def has_movement_begun(state: T9AState) -> bool:
    """Has any of the active player's units moved or arrived this Player Turn?"""
    return any(
        unit.owner == state.active_player and unit.moved is not None
        for unit in state.t9a_units_to_read()
    )


#: AMB-10: in these Player Turns the roll always counts as a 3+.
AUTOMATIC_ARRIVAL_TURNS = (5, 6)


def counts_as_three_plus(game_turn: int) -> bool:
    """AMB-10: during your Player Turns 5 and 6 the roll always counts as a 3+ (no die
    is rolled: A-AMB-18)."""
    return game_turn in AUTOMATIC_ARRIVAL_TURNS
