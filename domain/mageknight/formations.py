"""Formations (core), and cavalry units in them (MNT-52 … MNT-54)."""

from __future__ import annotations

from collections.abc import Sequence

from domain.decision import Decision
from domain.errors import RuleViolation
from domain.mageknight.actions import check_controls
from domain.mageknight.commands import DeclareFormation
from domain.mageknight.dial import mk_state
from domain.mageknight.figures import in_contact, is_cavalry, on_table, rider_of, unit_of
from domain.mageknight.state import Figure, MageKnightState
from events.mageknight import FormationDeclared


def check_cavalry_only_with_cavalry(units: Sequence[Figure]) -> None:
    """MNT-52: cavalry units form formations only with other cavalry units."""
    cavalry = [u.id for u in units if is_cavalry(u)]
    if cavalry and len(cavalry) < len(units):
        others = [u.id for u in units if not is_cavalry(u)]
        raise RuleViolation(
            "MNT-52", f"cavalry unit {cavalry[0]} cannot form a formation with {others[0]}"
        )


def formation_faction(state: MageKnightState, unit: Figure) -> str:
    """MNT-54: a cavalry unit's faction for formations is its rider's; the mount's
    faction has no effect."""
    rider = rider_of(state, unit)
    return rider.faction if rider is not None else unit.faction


def check_one_rider_faction(state: MageKnightState, units: Sequence[Figure]) -> None:
    """MNT-53: all riders in a cavalry formation have the same faction symbol
    (core: all figures of a formation share a faction)."""
    factions = sorted({formation_faction(state, u) for u in units})
    if len(factions) > 1:
        rule = "MNT-53" if all(is_cavalry(u) for u in units) else "CORE-MK-FORMATION"
        raise RuleViolation(rule, f"a formation needs one faction; these are {', '.join(factions)}")


def check_core_formation(state: MageKnightState, units: Sequence[Figure]) -> None:
    """CORE-MK-FORMATION: 2 or 3 figures, each in base contact with another of them."""
    if not 2 <= len(units) <= 3:
        raise RuleViolation(
            "CORE-MK-FORMATION", f"a formation has 2 or 3 figures, not {len(units)}"
        )
    joined = {units[0].id}
    grew = True
    while grew:
        grew = False
        for u in units:
            if u.id not in joined and any(in_contact(state, u, state.units[j]) for j in joined):
                joined.add(u.id)
                grew = True
    if len(joined) < len(units):
        loose = next(u.id for u in units if u.id not in joined)
        raise RuleViolation(
            "CORE-MK-FORMATION", f"{loose} is not in base contact with the formation"
        )


def decide_declare_formation(d: Decision, cmd: DeclareFormation) -> None:
    """Declare a formation: the player's own figures (an Evil mount only while it
    is friendly, A-MNT-14), with the cavalry checks."""
    state = mk_state(d)
    units: list[Figure] = []
    for figure_id in cmd.figures:
        unit = unit_of(state, on_table(state, figure_id))
        if unit.id not in {u.id for u in units}:
            units.append(unit)
    for unit in units:
        check_controls(unit, cmd.by)
    check_cavalry_only_with_cavalry(units)
    check_one_rider_faction(state, units)
    check_core_formation(state, units)
    d.emit(FormationDeclared(figures=tuple(u.id for u in units)))
