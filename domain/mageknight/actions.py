"""Assigning actions (core, with MNT-36 and MNT-37), action tokens and pushing
damage, the end-of-turn token rule, and the core move (with MNT-38).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from domain.decision import Decision
from domain.errors import RuleViolation
from domain.geometry import EPS, Disc, Footprint, Rect, path_length
from domain.mageknight.dial import deal_pushing_damage, mk_state
from domain.mageknight.figures import (
    BLOCKS_PLACEMENT,
    Point,
    around,
    bases_near,
    is_cavalry,
    is_free_spot,
    rider_of,
    sweeps_over,
    terrain_near,
    unit_of,
)
from domain.mageknight.state import Figure, MageKnightState
from domain.state import to_read
from domain.words import agrees, counted
from events.mageknight import (
    ActionAssigned,
    FigureMoved,
    PlayerTurnEnded,
    RiderCarried,
    TokensRemoved,
)

MOVEMENT_ABILITIES = frozenset({"flight", "aquatic", "quickness", "double_move", "stealth"})
DOUBLE_MOVE_ABILITIES = frozenset({"quickness", "double_move"})


@dataclass(frozen=True)
class Assigned:
    """An action just assigned: the unit, and what it was when the action began."""

    unit: Figure
    tokens_before: int
    was_cavalry: bool


def check_controls(fig: Figure, player: str) -> None:
    """CORE-OWNER: a player orders only the figures they control now (an Evil
    mount may be theirs for a turn, MNT-65)."""
    if fig.controlled_by != player:
        raise RuleViolation(
            "CORE-OWNER", f"{fig.id} is controlled by {fig.controlled_by}; {player} cannot order it"
        )


def check_actions_left(state: MageKnightState) -> None:
    """CORE-MK-ACTIONS-PER-TURN: at most `actions_per_turn` actions in a player's action phase."""
    allowed = int(state.options.get("actions_per_turn", 3))
    if state.actions_used >= allowed:
        raise RuleViolation(
            "CORE-MK-ACTIONS-PER-TURN",
            f"{state.actions_used} of {counted(allowed, 'action')} "
            f"{agrees(state.actions_used, 'has', 'have')} been assigned this turn",
        )


def check_one_action_per_cavalry_unit(state: MageKnightState, unit: Figure) -> None:
    """MNT-36: a cavalry unit may be assigned only one action per turn."""
    rider = rider_of(state, unit)
    if unit.acted or (rider is not None and rider.acted):
        raise RuleViolation(
            "MNT-36", f"cavalry unit {unit.id} was already given an action this turn"
        )


def check_one_action_per_figure(unit: Figure) -> None:
    """CORE-MK-ONE-ACTION: no figure gets more than one action in a turn."""
    if unit.acted:
        raise RuleViolation(
            "CORE-MK-ONE-ACTION", f"{unit.id} was already given an action this turn"
        )


def check_tokens(unit: Figure) -> None:
    """CORE-MK-TWO-TOKENS: a figure with 2 action tokens cannot be given an action."""
    if unit.tokens >= 2:
        raise RuleViolation("CORE-MK-TWO-TOKENS", f"{unit.id} has {unit.tokens} action tokens")


def check_can_be_given_action(state: MageKnightState, fig: Figure, player: str) -> Figure:
    """Every check before an action is assigned; returns the unit that acts."""
    unit = unit_of(state, fig)
    check_controls(unit, player)
    check_actions_left(state)
    if is_cavalry(unit):
        check_one_action_per_cavalry_unit(state, unit)
    else:
        check_one_action_per_figure(unit)
    check_tokens(unit)
    return unit


def assign_action(d: Decision, unit: Figure, action: str, *, token: bool = True) -> Assigned:
    """Assign the action: it counts for the turn, and the unit gets a token."""
    started = Assigned(unit, unit.tokens, is_cavalry(unit))
    d.emit(ActionAssigned(figure=unit.id, action=action, token=token))
    return started


def finish_action(d: Decision, started: Assigned) -> None:
    """Core: a figure that got its second token takes 1 pushing damage after the
    action; a cavalry unit does not (MNT-37)."""
    unit = started.unit
    if started.tokens_before != 1 or unit.tokens != 2 or unit.status != "on_table":
        return
    if started.was_cavalry:
        skip_pushing_for_cavalry(d, unit)
    else:
        deal_pushing_damage(d, unit)


def skip_pushing_for_cavalry(d: Decision, unit: Figure) -> None:
    """MNT-37: a cavalry unit given its second token takes no pushing damage (A-MNT-07)."""
    d.cite("MNT-37", f"cavalry unit {unit.id} got its second action token: no pushing damage")


def end_player_turn(d: Decision) -> None:
    """Core: at the end of your turn, tokens come off your figures that were not
    given an action this turn; then the turn's counts start afresh."""
    state = mk_state(d)
    idle = tuple(
        fig.id
        for fig in sorted(to_read(state.units), key=lambda f: f.id)
        if fig.controlled_by == state.active_player and fig.tokens and not fig.given_action
    )
    if idle:
        d.emit(TokensRemoved(figures=idle, reason="not given an action this turn"))
    d.emit(PlayerTurnEnded(player=state.active_player))


def move_speed(state: MageKnightState, unit: Figure) -> int:
    """MNT-38: a cavalry unit moves with its mount's speed (the unit is the mount)."""
    return unit.now.speed


def check_move_abilities(state: MageKnightState, unit: Figure, use: Sequence[str]) -> None:
    """MNT-38: in a move, a cavalry unit uses only its mount's abilities and benefits,
    never the rider's abilities or items."""
    for ability in use:
        if is_cavalry(unit):
            if ability not in unit.abilities and ability not in unit.benefits:
                raise RuleViolation(
                    "MNT-38",
                    f"a cavalry unit moves with its mount's abilities only; {unit.id} "
                    f"has no {ability!r}",
                )
        elif ability not in unit.abilities:
            raise RuleViolation("CORE-MK-NO-ABILITY", f"{unit.id} has no {ability!r}")


def chosen_facing(unit: Figure, facing: float | None) -> float:
    """The facing at the end of a move: as chosen, or unchanged."""
    return (unit.facing or 0.0) if facing is None else facing % 360.0


def end_footprint(unit: Figure, at: Point, facing: float) -> Rect | Disc:
    """The unit's base if it stood at `at` facing `facing`."""
    if unit.is_mount:
        return Rect(at[0], at[1], unit.width, unit.depth, facing)
    return Disc(at[0], at[1], unit.base, facing)


def legs(unit: Figure, points: Sequence[Point]) -> list[tuple[Footprint, Footprint]]:
    """The unit's base at each end of each leg of the path, at its present facing
    (it turns only at the end of the move)."""
    facing = unit.facing or 0.0
    return [
        (end_footprint(unit, a, facing), end_footprint(unit, b, facing))
        for a, b in pairwise(points)
    ]


def check_length(points: Sequence[Point], speed: int) -> float:
    """CORE-MK-MOVE: the path is no longer than the speed value; its length."""
    length = path_length(points)
    if length > speed + EPS:
        raise RuleViolation("CORE-MK-MOVE", f'the path is {length:.2f}" long; speed is {speed}')
    return length


def check_sweep_clear_of_terrain(
    state: MageKnightState, unit: Figure, steps: Sequence[tuple[Footprint, Footprint]]
) -> None:
    """CORE-MK-MOVE: no part of the moving base passes through blocking or
    impassable terrain (touching it is allowed)."""
    if not steps:
        return
    swept = around(*(shape for leg in steps for shape in leg))
    for piece, area in terrain_near(state, BLOCKS_PLACEMENT, swept, 0.0):
        if any(sweeps_over(a, b, area) for a, b in steps):
            raise RuleViolation(
                "CORE-MK-MOVE",
                f"{unit.id}'s base would pass through {piece.kind} terrain {piece.id}",
            )


def check_sweep_clear_of_bases(
    state: MageKnightState, unit: Figure, steps: Sequence[tuple[Footprint, Footprint]],
    own: set[str],
) -> None:
    """CORE-MK-MOVE: no part of the moving base passes through another figure's
    base (touching it is allowed; Trample is the exception, MNT-112)."""
    if not steps:
        return
    swept = around(*(shape for leg in steps for shape in leg))
    for other, shape in bases_near(state, swept, 0.0, own):
        if any(sweeps_over(a, b, shape) for a, b in steps):
            raise RuleViolation(
                "CORE-MK-MOVE", f"{unit.id}'s base would pass through {other.id}'s base"
            )


def check_path(
    state: MageKnightState,
    unit: Figure,
    path: Sequence[Point],
    facing: float,
    speed: int,
    *,
    over_bases: bool = False,
) -> float:
    """CORE-MK-MOVE: a move is a path from the centre dot no longer than the speed;
    the whole base, swept along each leg, goes through no blocking or impassable
    terrain, nor (unless `over_bases`) through other figures' bases, and ends on
    the board clear of every base. Returns its length."""
    assert unit.x is not None and unit.y is not None
    points = [(unit.x, unit.y), *path]
    length = check_length(points, speed)
    steps = legs(unit, points)
    check_sweep_clear_of_terrain(state, unit, steps)
    own = {unit.id, *(r.id for r in [rider_of(state, unit)] if r is not None)}
    if not over_bases:
        check_sweep_clear_of_bases(state, unit, steps, own)
    if not is_free_spot(state, end_footprint(unit, points[-1], facing), own):
        raise RuleViolation(
            "CORE-MK-MOVE", f"{unit.id} cannot end its move at {points[-1]}: no room there"
        )
    return length


@dataclass(frozen=True)
class PlannedMove:
    """A move checked against CORE-MK-MOVE, not yet made."""

    path: tuple[Point, ...]
    facing: float
    length: float
    end: Point


def plan_move(
    state: MageKnightState,
    unit: Figure,
    path: Sequence[Point],
    facing: float | None,
    *,
    over_bases: bool = False,
) -> PlannedMove:
    """Check a move of the unit with its (mount's, MNT-38) speed; where it ends."""
    chosen = chosen_facing(unit, facing)
    length = check_path(state, unit, path, chosen, move_speed(state, unit), over_bases=over_bases)
    end = path[-1] if path else (unit.x or 0.0, unit.y or 0.0)
    return PlannedMove(tuple(path), chosen, length, end)


def move_unit(d: Decision, unit: Figure, move: PlannedMove) -> None:
    """Move the unit's base (and with it, a cavalry unit's rider); no path, no move."""
    if move.path:
        d.emit(
            FigureMoved(
                figure=unit.id, x=move.end[0], y=move.end[1], facing=move.facing,
                distance=move.length,
            )
        )
        if unit.rider is not None:
            d.emit(RiderCarried(rider=unit.rider, mount=unit.id, x=move.end[0], y=move.end[1],
                                facing=move.facing))
