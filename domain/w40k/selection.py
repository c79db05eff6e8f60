"""Selected to fight (CORE-SELECTED-TO-FIGHT, w40k rules version 3): a stratagem
used "when a CHARACTER unit from your army is selected to fight" (Epic Challenge,
`when.selects_to_fight`) selects its target to fight, so that unit fights next:
no other unit is selected to fight before it has, and no second such use is made
while it waits. The selection ends when it fights, or with the phase."""

from __future__ import annotations

from domain.decision import Decision
from domain.errors import RuleViolation
from domain.rules_version import at_least
from domain.w40k.catalog import Stratagem
from domain.w40k.state import W40KState
from events.w40k import UnitSelectedToFight

#: The w40k rules version from which a use selects its target to fight.
SELECTED_AT_USE = 3


def selects_to_fight(state: W40KState, stratagem: Stratagem) -> bool:
    """Does a use of this stratagem select its target to fight, in this game?"""
    return stratagem.when.selects_to_fight and at_least(state, w40k=SELECTED_AT_USE)


def check_none_waiting(state: W40KState, stratagem: Stratagem) -> None:
    """CORE-SELECTED-TO-FIGHT: a use that selects a unit to fight is made only when no
    unit selected so waits to fight (one unit is selected to fight at a time)."""
    waiting = state.selected_to_fight
    if waiting is not None and selects_to_fight(state, stratagem):
        raise RuleViolation("CORE-SELECTED-TO-FIGHT", f"{waiting} was selected to fight and "
                            f"has not fought yet; {stratagem.name} is used when a unit is "
                            "selected to fight (STR-04)")


def select_to_fight(d: Decision, state: W40KState, stratagem: Stratagem, unit: str,
                    use: str) -> None:
    """The use selected its target to fight (`UnitSelectedToFight`), if it does."""
    if selects_to_fight(state, stratagem):
        d.emit(UnitSelectedToFight(unit=unit, use=use))


def check_fights_next(state: W40KState, unit: str) -> None:
    """CORE-SELECTED-TO-FIGHT: while a unit selected to fight by a stratagem waits, it
    is the unit that fights next."""
    waiting = state.selected_to_fight
    if waiting is not None and waiting != unit and at_least(state, w40k=SELECTED_AT_USE):
        raise RuleViolation("CORE-SELECTED-TO-FIGHT", f"{waiting} was selected to fight (with "
                            f"a stratagem used as it was selected): it fights next, not {unit}")
