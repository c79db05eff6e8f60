"""A cavalry unit is one figure for contact, terrain and arcs (MNT-32 … MNT-35);
Poison shows the arc rule: it uses the mount's front arc."""

from __future__ import annotations

from domain.decision import Decision
from domain.errors import RuleViolation
from domain.geometry import EPS, Footprint, in_front_arc
from domain.mageknight.actions import check_controls
from domain.mageknight.combat import item_abilities
from domain.mageknight.commands import Poison
from domain.mageknight.dial import deal_damage, mk_state
from domain.mageknight.figures import (
    bases_near,
    body,
    bounds_of,
    in_contact,
    is_opposing,
    on_table,
    unit_of,
)
from domain.mageknight.state import Figure, MageKnightState
from events.mageknight import PoisonUsed


def front_arc_of(state: MageKnightState, fig: Figure) -> Footprint:
    """MNT-35: a rider's front-arc abilities (Poison, Sweep) use its mount's front arc."""
    return body(state, fig)


def in_contact_ahead(state: MageKnightState, fig: Figure) -> list[Figure]:
    """The opposing figures in base contact and in the front arc (MNT-33, MNT-35)."""
    unit = unit_of(state, fig)
    arc = front_arc_of(state, fig)
    return [
        other
        for other, _ in bases_near(state, bounds_of(body(state, unit)), EPS, {unit.id})
        if is_opposing(unit, other)
        and in_contact(state, unit, other)
        and in_front_arc(arc, body(state, other))
    ]


def check_poison_once(state: MageKnightState, fig: Figure) -> None:
    """CORE-MK-POISON: a figure uses Poison once per command phase."""
    if fig.id in state.poisoned:
        raise RuleViolation(
            "CORE-MK-POISON", f"{fig.id} already used Poison in this command phase"
        )


def decide_poison(d: Decision, cmd: Poison) -> None:
    """Core Poison (command phase, once per figure): 1 damage to each opposing
    figure in base contact with the figure's front arc; a rider's is its mount's
    (MNT-35)."""
    state = mk_state(d)
    fig = on_table(state, cmd.figure)
    check_controls(unit_of(state, fig), cmd.by)
    if "poison" not in fig.abilities and "poison" not in item_abilities(state, fig):
        raise RuleViolation("CORE-MK-NO-ABILITY", f"{fig.id} has no Poison")
    check_poison_once(state, fig)
    d.emit(PoisonUsed(figure=fig.id))
    for victim in in_contact_ahead(state, fig):
        deal_damage(d, state.units[victim.id], 1)
