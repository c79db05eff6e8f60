"""Step 1 of a use: selecting targets as the stratagem describes (STR-05, STR-12).

The units selected here are the ones "affected by" the stratagem (STR-24)
and the only ones its effect calls "your unit(s)" (STR-27, STR-28).
"""

from __future__ import annotations

import math
from functools import lru_cache

from domain.errors import RuleViolation
from domain.geometry import (
    EPS,
    Disc,
    Obstacles,
    disc_gap,
    distance,
    has_clear_line,
    is_within,
    polygon_from_points,
)
from domain.state import to_read
from domain.w40k.catalog import RerollEffect, Stratagem
from domain.w40k.state import ENGAGEMENT_RANGE, W40KState, W40KUnit, phase_key
from domain.w40k.timing import Moment
from events.core import TerrainPiece

#: A problem with a candidate target: (rule, message).
Problem = tuple[str, str]


def gap_between(a: W40KUnit, b: W40KUnit) -> float:
    """The distance between two units' bases (infinite if one is off the table)."""
    fa, fb = a.footprint(), b.footprint()
    return math.inf if fa is None or fb is None else distance(fa, fb)


def is_beyond(gap: float, reach: float) -> bool:
    """Is a distance more than `reach` (an exact `reach` is within it, CONTRACT)?"""
    return gap > reach + EPS


def nearest_enemy(
    state: W40KState, player: str, shape: Disc | None, reach: float
) -> tuple[W40KUnit, float] | None:
    """The nearest unit not of `player`'s army within `reach` of `shape`, with its distance."""
    if shape is None:
        return None
    near = [(u.id, gap) for u in to_read(state.units)
            if u.owner != player and u.status == "on_table" and u.x is not None
            and u.y is not None and not is_beyond(gap := base_gap(shape, u), reach)]
    if not near:
        return None
    unit_id, gap = min(near, key=lambda pair: (pair[1], pair[0]))
    return state.units[unit_id], gap


def base_gap(shape: Disc, unit: W40KUnit) -> float:
    """`distance(shape, unit.footprint())` for a unit on the table, from its numbers
    (its base is a `Disc` of `base` inches at x, y: the same floats)."""
    assert unit.x is not None and unit.y is not None
    return disc_gap(shape.x, shape.y, shape.radius, unit.x, unit.y, unit.base / 2.0)


@lru_cache(maxsize=64)
def _blocking(terrain: tuple[TerrainPiece, ...]) -> Obstacles:
    return Obstacles((piece.id, polygon_from_points(piece.polygon))
                     for piece in terrain if piece.kind == "blocking")


def is_visible_to(state: W40KState, unit: W40KUnit, other: W40KUnit) -> bool:
    """Can `unit` see `other`: a straight line from its base centre to some point of
    the other's base that crosses no `blocking` terrain (docs/script-format.md)?"""
    here, there = unit.footprint(), other.footprint()
    return (here is not None and there is not None
            and has_clear_line(here.centre, there, _blocking(tuple(state.terrain))))


def is_engaged(state: W40KState, unit: W40KUnit) -> bool:
    """Is the unit within Engagement Range (1") of any enemy unit on the table?"""
    return nearest_enemy(state, unit.owner, unit.footprint(), ENGAGEMENT_RANGE) is not None


def are_engaged(a: W40KUnit, b: W40KUnit) -> bool:
    """Are these two units within Engagement Range of each other?"""
    fa, fb = a.footprint(), b.footprint()
    return fa is not None and fb is not None and is_within(fa, fb, ENGAGEMENT_RANGE)


def is_battle_shock_barred(
    state: W40KState, player: str, stratagem: Stratagem, unit: W40KUnit
) -> bool:
    """CORE-BATTLE-SHOCKED (RULINGS 40k): a player cannot target their own
    battle-shocked unit with their stratagems, except Insane Bravery, and except
    a re-roll of the very test that failed this phase (CORE-REROLL-SHOCK)."""
    return (
        unit.owner == player
        and "battle_shocked" in unit.conditions
        and not stratagem.target.allows_battle_shocked
        and not is_rerolling_its_test(state, stratagem, unit)
    )


def is_rerolling_its_test(state: W40KState, stratagem: Stratagem, unit: W40KUnit) -> bool:
    """CORE-REROLL-SHOCK: a re-roll made just after a failed Battle-shock test may
    target the unit that test shocked (the re-roll is part of making the test)."""
    effect = stratagem.effect
    return isinstance(effect, RerollEffect) and "battle-shock" in effect.purposes and any(
        r.unit == unit.id and r.purpose == "battle-shock" and r.replaced_by is None
        and phase_key(r.round, r.turn, r.phase) == state.key()
        for r in state.rolls
    )


def target_problem(
    state: W40KState, player: str, stratagem: Stratagem, unit: W40KUnit, moment: Moment
) -> Problem | None:
    """STR-05: does `unit` fit the stratagem's TARGET section? None if it does."""
    spec = stratagem.target
    name = stratagem.name
    if is_battle_shock_barred(state, player, stratagem, unit):
        return ("CORE-BATTLE-SHOCKED",
                f"{unit.id} is battle-shocked; {player} cannot target it with {name}")
    if (spec.side == "friendly") != (unit.owner == player):
        side = "a unit from your army" if spec.side == "friendly" else "an enemy unit"
        return ("STR-12", f"{name} targets {side}; {unit.id} belongs to {unit.owner}")
    if unit.status != spec.status:
        return ("STR-12", f"{name} targets a unit that is {spec.status}; {unit.id} is "
                          f"{unit.status}")
    missing = [k for k in spec.keywords if not unit.has_keyword(k)]
    if missing:
        wanted = " ".join(k.upper() for k in spec.keywords)
        return ("STR-12", f"{name} targets only {wanted} units; {unit.id} lacks "
                          f"{', '.join(k.upper() for k in missing)}")
    return relation_problem(state, stratagem, unit, moment)


def relation_problem(
    state: W40KState, stratagem: Stratagem, unit: W40KUnit, moment: Moment
) -> Problem | None:
    """STR-05: the TARGET constraints that relate the unit to the moment."""
    spec = stratagem.target
    name = stratagem.name
    if spec.relation == "trigger_unit" and unit.id != moment.unit:
        return ("STR-12", f"{name} targets the unit that triggered it ({moment.unit}), "
                          f"not {unit.id}")
    if spec.relation == "trigger_target" and unit.id != moment.target:
        return ("STR-12", f"{name} targets the unit that was selected as the target "
                          f"({moment.target}), not {unit.id}")
    if spec.within is not None and moment.unit is not None:
        gap = gap_between(unit, state.unit(moment.unit))
        if is_beyond(gap, spec.within):
            return ("STR-12", f"{name} targets a unit within {spec.within:g}\" of "
                              f"{moment.unit}; {unit.id} is {gap:.2f}\" away")
    if spec.engaged is not None and is_engaged(state, unit) != spec.engaged:
        need = "within" if spec.engaged else "not within"
        return ("STR-12", f"{name} targets a unit {need} Engagement Range of enemy units; "
                          f"{unit.id} is {'not ' if spec.engaged else ''}within it")
    if spec.not_yet is not None and unit.acted.get(spec.not_yet) == moment.key:
        return ("STR-12", f"{name} targets a unit that has not {spec.not_yet} this phase; "
                          f"{unit.id} has already {spec.not_yet} this phase")
    if spec.battle_shock_test_due and unit.id not in state.battle_shock_due:
        return ("STR-12", f"{name} targets a unit that must take a Battle-shock test now; "
                          f"{unit.id} has none due")
    return None


def select_targets(
    state: W40KState, player: str, stratagem: Stratagem, target_ids: tuple[str, ...],
    moment: Moment,
) -> list[W40KUnit]:
    """STR-12: select targets as described in the stratagem (its count and TARGET)."""
    count = stratagem.target.count
    if len(set(target_ids)) != len(target_ids):
        raise RuleViolation("STR-12", f"{stratagem.name}: a unit is selected twice "
                                      f"({', '.join(target_ids)})")
    if len(target_ids) != count:
        raise RuleViolation(
            "STR-12",
            f"{stratagem.name} targets {count} unit{'s' if count > 1 else ''}; "
            f"{len(target_ids)} selected",
        )
    units = [state.unit(t) for t in target_ids]
    for unit in units:
        problem = target_problem(state, player, stratagem, unit, moment)
        if problem is not None:
            raise RuleViolation(*problem)
    return units
