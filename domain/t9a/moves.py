"""The plain Moves of the minimal T9A core (RULINGS "Moves"), and what AMB-19 forbids.

`advance` and `march` go straight forwards up to the Advance or March Rate;
`reform` changes formation and facing about the unit's centre. A unit makes at
most one Move per Movement Phase (CORE-ONE-MOVE).
"""

from __future__ import annotations

from domain.decision import Decision
from domain.errors import InputError, RuleViolation
from domain.geometry import Obstacles, Rect, heading_vector, swept_area
from domain.t9a.commands import Advance, March, Reform
from domain.t9a.footing import check_formation, check_unit_spacing, check_wholly_on_board
from domain.t9a.placement import obstacles
from domain.t9a.rolls import check_start_of_movement_phase
from domain.t9a.units import MoveKind, T9AState, T9AUnit, as_t9a
from domain.words import listed
from events.t9a import T9AMembersMoved, T9AUnitMoved


def check_no_move_after_arrival(state: T9AState, unit: T9AUnit) -> None:
    """AMB-19: an Ambushing unit cannot make any Move in the Phase in which it arrives
    (A-AMB-05: any kind of Move)."""
    arrived = unit.arrived
    if arrived is not None and (arrived.game_turn, arrived.player, arrived.phase) == (
        state.round, state.active_player, state.phase
    ):
        raise RuleViolation(
            "AMB-19",
            f"{unit.id} arrived from Ambush in this {state.phase} phase and cannot make "
            "any Move in it",
        )


def check_one_move(unit: T9AUnit) -> None:
    """CORE-ONE-MOVE: a unit makes at most one Move in a Movement Phase."""
    if unit.moved is not None:
        raise RuleViolation("CORE-ONE-MOVE", f"{unit.id} has already made a Move ({unit.moved}) "
                            "this Player Turn")


def check_move_rate(unit: T9AUnit, move: MoveKind, distance: float, rate: float) -> None:
    """CORE-MOVE-RATE: an Advance Move goes up to the Advance Rate, a March Move up to
    the March Rate."""
    if distance > rate + 1e-9:
        raise RuleViolation(
            "CORE-MOVE-RATE",
            f"{unit.id} can {move} at most {rate:g}\"; {distance:g}\" is too far",
        )


def check_path_clear(unit: T9AUnit, start: Rect, end: Rect, index: Obstacles) -> None:
    """CORE-MOVE-BLOCKED: the ground a unit sweeps moving straight forwards holds no
    other unit and no Impassable Terrain (`index`: the obstacles, the unit left out)."""
    blockers = index.blocking_ids(swept_area(start, end))
    if blockers:
        raise RuleViolation(
            "CORE-MOVE-BLOCKED", f"{listed(blockers, 'is', 'are')} in the way of {unit.id}'s Move"
        )


def movable(state: T9AState, unit_id: str) -> tuple[T9AUnit, Rect]:
    """The unit to move and where it stands; INPUT if it is not a unit on the table.

    AMB-19 is judged first: a model that arrived joined to a unit made no Move of its
    own either."""
    unit = state.t9a_unit(unit_id)
    check_no_move_after_arrival(state, unit)
    if unit.joined_to is not None:
        raise InputError(f"{unit.id} is joined to {unit.joined_to} and moves with it")
    shape = unit.footprint()
    if shape is None:
        raise InputError(f"{unit.id} is not on the table")
    return unit, shape


def check_may_move(state: T9AState, unit: T9AUnit) -> None:
    """The timing checks every Move passes besides AMB-19 (`movable`): rolls first
    (AMB-08), one Move per phase (CORE-ONE-MOVE)."""
    check_start_of_movement_phase(state, rolling=False)
    check_one_move(unit)


def move_forwards(d: Decision, unit_id: str, move: MoveKind, distance: float) -> None:
    """Move a unit straight forwards `distance` inches, as an Advance or March Move."""
    state = as_t9a(d.state)
    unit, start = movable(state, unit_id)
    check_may_move(state, unit)
    check_move_rate(unit, move, distance, unit.advance_rate if move == "advance"
                    else unit.march_rate)
    dx, dy = heading_vector(start.facing)
    end = unit.shape_at(start.x + dx * distance, start.y + dy * distance, start.facing)
    check_wholly_on_board(state, unit, end)
    others = obstacles(state, ignore=(unit.id, *state.members_of(unit.id)))
    check_path_clear(unit, start, end, others)
    check_unit_spacing(state, unit, end, clause="CORE-UNIT-SPACING", index=others)
    d.emit(T9AUnitMoved(unit=unit.id, move=move, x=end.x, y=end.y, facing=end.facing,
                     files=unit.files, ranks=unit.ranks, distance=distance))
    move_members(d, unit.id, move)


def decide_advance(d: Decision, cmd: Advance) -> None:
    """An Advance Move: straight forwards up to the Advance Rate."""
    move_forwards(d, cmd.unit, "advance", cmd.distance)


def decide_march(d: Decision, cmd: March) -> None:
    """A March Move: straight forwards up to the March Rate."""
    move_forwards(d, cmd.unit, "march", cmd.distance)


def decide_reform(d: Decision, cmd: Reform) -> None:
    """A Reform: a new legal formation and facing about the unit's centre."""
    state = as_t9a(d.state)
    unit, start = movable(state, cmd.unit)
    check_may_move(state, unit)
    files, ranks = cmd.files or unit.files, cmd.ranks or unit.ranks
    end = unit.shape_at(start.x, start.y, cmd.facing, files, ranks)
    check_formation(unit, files, ranks, clause="CORE-FORMATION")
    check_wholly_on_board(state, unit, end)
    check_unit_spacing(state, unit, end, clause="CORE-UNIT-SPACING")
    d.emit(T9AUnitMoved(unit=unit.id, move="reform", x=end.x, y=end.y, facing=end.facing,
                     files=files, ranks=ranks, distance=0.0))
    move_members(d, unit.id, "reform")


def move_members(d: Decision, unit_id: str, move: MoveKind) -> None:
    """A-AMB-14, AMB-22: the models joined to a unit move with it (one unit), and
    count as having made its Move."""
    state = as_t9a(d.state)
    members = state.members_of(unit_id)
    if members:
        unit = state.t9a_unit(unit_id)
        assert unit.x is not None and unit.y is not None and unit.facing is not None
        d.emit(T9AMembersMoved(unit=unit_id, members=members, move=move, x=unit.x,
                               y=unit.y, facing=unit.facing))
