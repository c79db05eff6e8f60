"""The charge roll (CORE-CHARGE): 2D6, made when the charge is declared, or, from
w40k rules version 2, after the stratagem window the declaration opens (Fire
Overwatch is chosen before the roll, as its trigger is the declaration)."""

from __future__ import annotations

from domain.decision import Decision
from domain.w40k.state import game
from events.core import DiceRolled
from events.w40k import ChargeRolled

#: A charge roll is 2D6.
CHARGE_DICE, CHARGE_SIDES = 2, 6


def roll_charge(d: Decision, unit: str) -> None:
    """CORE-CHARGE: roll 2D6 for the unit's charge (roll `R<n>`)."""
    values = d.roll("charge", CHARGE_DICE, CHARGE_SIDES, unit)
    d.emit(ChargeRolled(unit=unit, roll=game(d).next_roll_ref(), values=values))


def roll_held_charge(d: Decision) -> None:
    """CORE-CHARGE: once no window is open, the charge roll held for the window its
    declaration opened is made: with the dice the declaring step carried, if it
    carried some (CONTRACT "Rules versions": a step's dice may be held for the roll
    after its window), else as any roll of this step."""
    state = game(d)
    held = state.held_charge
    if held is None or state.reaction_window is not None:
        return
    if held.dice is None:
        roll_charge(d, held.unit)
        return
    values = tuple(held.dice)
    d.emit(DiceRolled(purpose="charge", sides=CHARGE_SIDES, values=values, source="physical",
                      subject=held.unit))
    d.emit(ChargeRolled(unit=held.unit, roll=state.next_roll_ref(), values=values))
