"""Movement (RULINGS "Moves"): the plain Move short skill, the Idle short skill, and
the General Movement Rules and Moving and Measuring that Cautious Movement shares."""

from __future__ import annotations

import math
from collections.abc import Sequence

from domain.decision import Decision
from domain.errors import RuleViolation
from domain.geometry import (
    EPS,
    is_wholly_on_board,
    path_length,
    path_min_distances,
    polygon_from_points,
)
from domain.infinity.aro import aro_eligible
from domain.infinity.commands import Idle, Move, Movement
from domain.infinity.machine import ORDER_MACHINE
from domain.infinity.orders import (
    check_activation,
    check_acts_in_order,
    open_aro_window,
    planned_start,
    reach_stage,
    spend_order,
)
from domain.infinity.state import InfinityState, Trooper
from events.infinity import OrderSkillDeclared, Point

MOVEMENT_BLOCKERS = ("impassable", "blocking")


def movement_path(state: InfinityState, trooper: Trooper, command: Movement) -> list[Point]:
    """The whole path: from where the skill starts, through the command's points."""
    return [planned_start(state, trooper), *command.path]


def measured_length(path: Sequence[Point]) -> float:
    """CAU-15 (Moving and Measuring): a movement is measured along its path, corner to
    corner, as the distance the centre of the base travels."""
    return path_length(path)


def general_movement_problem(state: InfinityState, trooper: Trooper,
                             path: Sequence[Point]) -> str | None:
    """CAU-14 (General Movement Rules): the moving base stays wholly on the table, never
    overlaps `impassable` or `blocking` terrain (touching is allowed) and does not end on
    another trooper's base. The problem, or None."""
    return (off_table_problem(state, trooper, path)
            or terrain_problem(state, trooper, path)
            or ends_on_base_problem(state, trooper, path[-1]))


def off_table_problem(state: InfinityState, trooper: Trooper,
                      path: Sequence[Point]) -> str | None:
    """Where the moving base would leave the table (its corners are enough: the table is
    convex), or None."""
    for point in path:
        if not is_wholly_on_board(trooper.base_at(point), state.board.width,
                                  state.board.height):
            return f"at ({point[0]:g}, {point[1]:g}) {trooper.id}'s base would leave the table"
    return None


def terrain_problem(state: InfinityState, trooper: Trooper,
                    path: Sequence[Point]) -> str | None:
    """The `impassable` or `blocking` terrain the moving base would cross, or None."""
    radius = trooper.base / 2.0
    pieces = [piece for piece in state.terrain if piece.kind in MOVEMENT_BLOCKERS]
    if not pieces:
        return None
    gaps = path_min_distances(list(path), [polygon_from_points(p.polygon) for p in pieces])
    for piece, gap in zip(pieces, gaps, strict=True):
        if gap < radius - EPS:
            return (f"{trooper.id}'s base would cross {piece.kind} terrain {piece.id} "
                    f"(its centre passes {gap:.2f}\" from it; the base radius is {radius:g}\")")
    return None


def ends_on_base_problem(state: InfinityState, trooper: Trooper, end: Point) -> str | None:
    """The trooper or marker whose base the moving base would end on (touching is allowed),
    or None. Hidden Deployment troopers are not on the table for the opponent, so they
    never refuse a move (that would reveal them)."""
    here = trooper.base_at(end)
    for other in state.troopers_to_read():
        there = other.footprint()
        if other.id == trooper.id or there is None or other.has("hidden_deployment"):
            continue
        apart = math.dist(here.centre, there.centre)
        if apart < here.radius + there.radius - EPS:
            return (f"{trooper.id}'s base would end on {other.id}'s base (centres "
                    f"{apart:.2f}\" apart; the bases need {here.radius + there.radius:g}\")")
    return None


def check_general_movement(state: InfinityState, trooper: Trooper, path: Sequence[Point],
                           rule: str) -> None:
    """Refuse a path that breaks the General Movement Rules, citing `rule`."""
    problem = general_movement_problem(state, trooper, path)
    if problem is not None:
        raise RuleViolation(rule, problem)


def mov_value_used(state: InfinityState, trooper: Trooper) -> float:
    """CORE-MOV: a Move uses the first MOV value as the order's first skill, the second
    MOV value as its second skill."""
    return trooper.mov[0] if state.order is None else trooper.mov[1]


def check_move_distance(state: InfinityState, trooper: Trooper, path: Sequence[Point]) -> float:
    """CORE-MOV: a Move's path may not be longer than the MOV value used."""
    limit = mov_value_used(state, trooper)
    length = measured_length(path)
    if length > limit + 1e-6:
        which = "first" if state.order is None else "second"
        raise RuleViolation(
            "CORE-MOV",
            f"{trooper.id}'s path is {length:.2f}\" long; a Move as the {which} skill may be "
            f"at most its {which} MOV value, {limit:g}\"",
        )
    return limit


def declare_movement(d: Decision, trooper: Trooper, skill: OrderSkillDeclared) -> None:
    """Spend the order if this is its first skill, declare the skill, and reach the
    ARO window (the caller opens it or moves past it)."""
    state = d.state
    assert isinstance(state, InfinityState)
    if state.order is None:
        spend_order(d, trooper)
    d.emit(skill)
    reach_stage(d, skill.skill)


def decide_move(d: Decision, command: Move) -> None:
    """The Move short skill: first skill (activation) or second skill of an order.
    Any eligible enemy gets an ARO (RULINGS "ARO eligibility")."""
    state = d.state
    assert isinstance(state, InfinityState)
    trooper = state.trooper(command.trooper)
    ORDER_MACHINE.check(state, "move")
    check_acts_in_order(state, trooper)
    if state.order is None:
        check_activation(state, trooper)
    path = movement_path(state, trooper, command)
    limit = check_move_distance(state, trooper, path)
    check_general_movement(state, trooper, path, "CORE-GENERAL-MOVEMENT")
    declare_movement(d, trooper, OrderSkillDeclared(
        trooper=trooper.id, skill="move", path=tuple(path), length=measured_length(path),
        limit=limit, facing=command.facing,
    ))
    open_aro_window(d, aro_eligible(state, trooper, path), "move")


def decide_idle(d: Decision, command: Idle) -> None:
    """The Idle short skill as the second skill: the trooper stays where it is."""
    state = d.state
    assert isinstance(state, InfinityState)
    ORDER_MACHINE.check(state, "idle")
    assert state.order is not None
    trooper = state.trooper(state.order.trooper)
    here = planned_start(state, trooper)
    d.emit(OrderSkillDeclared(trooper=trooper.id, skill="idle", path=(here,)))
    reach_stage(d, "idle")
    open_aro_window(d, aro_eligible(state, trooper, [here]), "idle")
