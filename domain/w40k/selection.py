"""Selected to fight (CORE-SELECTED-TO-FIGHT, w40k rules version 3): a stratagem
used "when a CHARACTER unit from your army is selected to fight" (Epic Challenge,
`when.selects_to_fight`) selects its target to fight, so that unit fights next:
no other unit is selected to fight before it has, and no second such use is made
while it waits. The selection is read from the phase's stratagem uses (STR-24) and
the units' fights, so it needs no bookkeeping of its own: a log stored before
version 3 shows, decided again, exactly which fight it would now refuse."""

from __future__ import annotations

from domain.errors import RuleViolation
from domain.rules_version import at_least
from domain.w40k.catalog import Stratagem, stratagems_of
from domain.w40k.state import W40KState

#: The w40k rules version from which a use selects its target to fight.
SELECTED_AT_USE = 3


def waiting_to_fight(state: W40KState) -> str | None:
    """The unit a use of this phase selected to fight and that has not fought yet
    (still on the battlefield), if any, from w40k rules version 3."""
    if not at_least(state, w40k=SELECTED_AT_USE):
        return None
    catalog = stratagems_of(state.options)
    key = state.key()
    for use in reversed(state.uses):
        stratagem = catalog.get(use.stratagem)
        if (use.phase_key != key or stratagem is None or not stratagem.when.selects_to_fight
                or not use.targets):
            continue
        unit = dict.get(state.units, use.targets[0])  # read only
        if unit is not None and unit.status == "on_table" and unit.acted.get("fought") != key:
            return unit.id
    return None


def check_none_waiting(state: W40KState, stratagem: Stratagem) -> None:
    """CORE-SELECTED-TO-FIGHT: a use that selects a unit to fight is made only when no
    unit selected so waits to fight (one unit is selected to fight at a time)."""
    if not stratagem.when.selects_to_fight:
        return
    waiting = waiting_to_fight(state)
    if waiting is not None:
        raise RuleViolation("CORE-SELECTED-TO-FIGHT", f"{waiting} was selected to fight and "
                            f"has not fought yet; {stratagem.name} is used when a unit is "
                            "selected to fight (STR-04)")


def check_fights_next(state: W40KState, unit: str) -> None:
    """CORE-SELECTED-TO-FIGHT: while a unit selected to fight by a stratagem waits, it
    is the unit that fights next."""
    waiting = waiting_to_fight(state)
    if waiting is not None and waiting != unit:
        raise RuleViolation("CORE-SELECTED-TO-FIGHT", f"{waiting} was selected to fight (with "
                            f"a stratagem used as it was selected): it fights next, not {unit}")
