"""Benefit: Trample (MNT-108 … MNT-114)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from domain.deferred import defer

if TYPE_CHECKING:
    from shapely.geometry import Polygon
else:  # shapely loads on first use: a replay of a game's events needs none of it
    defer(globals(), Polygon="shapely.geometry:Polygon")

from domain.decision import Decision
from domain.errors import RuleViolation
from domain.geometry import in_front_arc, swept_area
from domain.mageknight.actions import (
    DOUBLE_MOVE_ABILITIES,
    assign_action,
    check_can_be_given_action,
    check_move_abilities,
    end_footprint,
    finish_action,
    move_unit,
    plan_move,
)
from domain.mageknight.benefits import check_has_benefit
from domain.mageknight.commands import Trample
from domain.mageknight.dial import deal_pushing_damage, mk_state
from domain.mageknight.figures import (
    Point,
    bases_near,
    body,
    bounds_of,
    covers_more_than_touching,
    is_ground_level,
    on_table,
)
from domain.mageknight.restrictions import check_cavalry_may_use
from domain.mageknight.state import Figure, MageKnightState


def check_on_the_ground(state: MageKnightState, unit: Figure) -> None:
    """MNT-108: Trample is a move action of a unit on the ground (A-MNT-28)."""
    if not is_ground_level(state, unit):
        raise RuleViolation("MNT-108", f"{unit.id} is not on the ground and cannot trample")


def check_no_double_move(use: Sequence[str]) -> None:
    """MNT-109: no double-move benefits during a Trample (A-MNT-29)."""
    doubled = [a for a in use if a in DOUBLE_MOVE_ABILITIES]
    if doubled:
        raise RuleViolation("MNT-109", f"Trample may not use the double-move ability {doubled[0]}")


def check_through_front_arc(state: MageKnightState, unit: Figure, to: Point) -> None:
    """MNT-110, MNT-111: one straight line, from the centre dot into the front arc."""
    if not in_front_arc(body(state, unit), to):
        raise RuleViolation("MNT-111", f"({to[0]:g}, {to[1]:g}) is not in {unit.id}'s front arc")


def trampled(state: MageKnightState, unit: Figure, area: Polygon) -> list[Figure]:
    """MNT-114: every ground-level figure, friend or foe, whose base the move
    passed over, each once (A-MNT-30)."""
    return [
        other
        for other, base in bases_near(state, bounds_of(area), 0.0, {unit.id})
        if covers_more_than_touching(area, base) and is_ground_level(state, other)
    ]


def decide_trample(d: Decision, cmd: Trample) -> None:
    """MNT-113: move straight ahead over other bases; each figure passed over
    takes 1 pushing damage (MNT-114), a cavalry unit's to the part its
    controller chose (MNT-51)."""
    state = mk_state(d)
    fig = on_table(state, cmd.figure)
    unit = check_can_be_given_action(state, fig, cmd.by)
    check_has_benefit(unit, "trample")
    check_cavalry_may_use(fig, cmd.use)
    check_on_the_ground(state, unit)
    check_no_double_move(cmd.use)
    check_move_abilities(state, unit, cmd.use)
    check_through_front_arc(state, unit, cmd.to)
    move = plan_move(state, unit, [cmd.to], None, over_bases=True)
    area = swept_area(body(state, unit), end_footprint(unit, move.end, move.facing))
    victims = trampled(state, unit, area)
    started = assign_action(d, unit, "trample")
    move_unit(d, unit, move)
    for victim in victims:
        deal_pushing_damage(d, state.units[victim.id])
    finish_action(d, started)
