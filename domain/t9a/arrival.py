"""Arriving from Ambush: the chosen point and the footprint (AMB-05, AMB-09, AMB-11…18, AMB-27).

Every check takes the state and the `arrive` command and raises a
`RuleViolation` naming its clause. `arrival_breaches` runs them all (the
board overlay shows every one); the handler refuses with the first.
"""

from __future__ import annotations

from collections.abc import Callable

from domain.decision import Decision
from domain.errors import RuleViolation
from domain.geometry import Obstacles, Rect
from domain.t9a.ambushers import FIRST_ROLL_TURN, counts_as_three_plus
from domain.t9a.arrival_points import ARRIVAL_POINTS
from domain.t9a.commands import Arrive
from domain.t9a.footing import check_formation, check_unit_spacing, check_wholly_on_board
from domain.t9a.placement import (
    ARRIVAL_REACH,
    MIN_CORNERS_IN_REACH,
    between,
    corner_distances,
    corners_in_reach,
    obstacles,
)
from domain.t9a.units import T9AState, T9AUnit, as_t9a
from domain.words import agrees, listed
from events.t9a import ScoringLost, T9AMoveCounted, UnitArrivedFromAmbush

#: AMB-27: arriving in this Game Turn loses Scoring.
LAST_GAME_TURN = 6

ArrivalCheck = Callable[[T9AState, T9AUnit, "Arrival"], None]


class Arrival:
    """An `arrive` command read against the unit: its point and its footprint."""

    def __init__(self, unit: T9AUnit, point: tuple[float, float], x: float, y: float,
                 facing: float, files: int | None, ranks: int | None) -> None:
        self.point = (float(point[0]), float(point[1]))
        self.files = files or unit.files
        self.ranks = ranks or unit.ranks
        self.rect: Rect = unit.shape_at(x, y, facing, self.files, self.ranks)
        self._others: Obstacles | None = None

    def others(self, state: T9AState, unit: T9AUnit) -> Obstacles:
        """The other units and Impassable Terrain (built once for all the checks of
        this arrival)."""
        if self._others is None:
            self._others = obstacles(state, ignore=(unit.id, *state.members_of(unit.id)))
        return self._others


def check_placed_in_ambush(state: T9AState, unit: T9AUnit, arrival: Arrival) -> None:
    """AMB-05: only a unit placed in Ambush arrives this way (later in the game)."""
    if not unit.in_ambush:
        raise RuleViolation(
            "AMB-05", f"{unit.id} is {unit.whereabouts}, not placed in Ambush"
        )


def check_arrives_with_combined_unit(state: T9AState, unit: T9AUnit, arrival: Arrival) -> None:
    """AMB-24: a joined Attachable Model shares its Combined Unit's roll, so it arrives
    with that unit (A-AMB-14), not on its own."""
    if unit.joined_to is not None and unit.in_ambush:
        raise RuleViolation(
            "AMB-24",
            f"{unit.id} is joined to {unit.joined_to}; it arrives with that Combined Unit "
            f"(arrive {unit.joined_to})",
        )


def check_rolled_three_plus(state: T9AState, unit: T9AUnit, arrival: Arrival) -> None:
    """AMB-09: only a unit that rolled 3+ this Player Turn (or counts as having done
    so, AMB-10) arrives; before Player Turn 2 no unit has rolled at all (AMB-06). In
    Player Turns 5 and 6 no die is rolled, but `roll_ambush` still comes first (AMB-10)."""
    if not unit.in_ambush or unit.joined_to is not None or unit.arrival_ready:
        return
    if state.round < FIRST_ROLL_TURN:
        raise RuleViolation(
            "AMB-06",
            f"{unit.id} cannot arrive in Player Turn {state.round}: Ambush rolls start in "
            f"Player Turn {FIRST_ROLL_TURN}",
        )
    if state.ambush_rolled.get(unit.owner) != state.round and counts_as_three_plus(state.round):
        raise RuleViolation(
            "AMB-10",
            f"in Player Turn {state.round} no die is rolled: {unit.id}'s Ambush roll counts as "
            f"a 3+, but the rolls are still taken at the start of the Movement Phase: "
            f"roll_ambush first (with no dice), then arrive",
        )
    if state.ambush_rolled.get(unit.owner) != state.round:
        raise RuleViolation(
            "AMB-09",
            f"{unit.id} has not rolled to arrive yet: make the Ambush rolls of Player Turn "
            f"{state.round} first (roll_ambush)",
        )
    rolled = f"rolled a {unit.arrival_roll}" if unit.arrival_roll else "did not roll a 3+"
    raise RuleViolation(
        "AMB-09",
        f"{unit.id} {rolled} in Player Turn {state.round}; it needs a 3+ to arrive",
    )


def check_chosen_point(state: T9AState, unit: T9AUnit, arrival: Arrival) -> None:
    """AMB-11: the owner chooses the point as X of Ambush (X) specifies (A-AMB-02)."""
    x = unit.rules.ambush or ""
    rule = ARRIVAL_POINTS.get(x)
    if rule is None:
        raise RuleViolation("AMB-11", f"Ambush ({x}) has no arrival-point rule")
    problem = rule(state, arrival.point)
    if problem:
        raise RuleViolation("AMB-11", f"Ambush ({x}): {problem}")


def check_corners_within_reach(state: T9AState, unit: T9AUnit, arrival: Arrival) -> None:
    """AMB-13: at least three of the unit's four corners are within 6″ of the chosen
    point (A-AMB-08, A-AMB-09)."""
    inside = corners_in_reach(arrival.rect, arrival.point)
    if sum(inside) < MIN_CORNERS_IN_REACH:
        gaps = ", ".join(f"{gap:.2f}\"" for gap in corner_distances(arrival.rect, arrival.point))
        raise RuleViolation(
            "AMB-13",
            f"only {sum(inside)} of the unit's 4 corners {agrees(sum(inside), 'is', 'are')} "
            f"within {ARRIVAL_REACH:g}\" of the "
            f"chosen point (corner distances: {gaps}); at least {MIN_CORNERS_IN_REACH} must be",
        )


def check_arrival_formation(state: T9AState, unit: T9AUnit, arrival: Arrival) -> None:
    """AMB-14: the arriving unit may be Deployed in any legal formation, and only in one."""
    check_formation(unit, arrival.files, arrival.ranks, clause="AMB-14")


def check_arrival_on_board(state: T9AState, unit: T9AUnit, arrival: Arrival) -> None:
    """CORE-BOARD-EDGE: the arriving footprint lies wholly on the board."""
    check_wholly_on_board(state, unit, arrival.rect)


def check_arrival_spacing(state: T9AState, unit: T9AUnit, arrival: Arrival) -> None:
    """AMB-15: the arriving unit's placement follows the Unit Spacing rule."""
    check_unit_spacing(state, unit, arrival.rect, clause="AMB-15",
                       index=arrival.others(state, unit))


def check_nothing_between(state: T9AState, unit: T9AUnit, arrival: Arrival) -> None:
    """AMB-16: no other unit and no Impassable Terrain lies directly between any point
    of the Unit Footprint and the chosen point (the hull of both, A-AMB-10)."""
    blockers = between(state, arrival.rect, arrival.point, index=arrival.others(state, unit))
    if blockers:
        raise RuleViolation(
            "AMB-16",
            f"{listed(blockers, 'lies', 'lie')} between {unit.id}'s footprint and the chosen point "
            f"({arrival.point[0]:g}, {arrival.point[1]:g})",
        )


#: Whether the unit may arrive now at all.
STATUS_CHECKS: tuple[ArrivalCheck, ...] = (
    check_placed_in_ambush,
    check_arrives_with_combined_unit,
    check_rolled_three_plus,
)
#: Whether the point and the footprint are a legal placement.
PLACEMENT_CHECKS: tuple[ArrivalCheck, ...] = (
    check_chosen_point,
    check_arrival_formation,
    check_arrival_on_board,
    check_corners_within_reach,
    check_arrival_spacing,
    check_nothing_between,
)
#: In the order the handler checks them (the first breach refuses the step).
ARRIVAL_CHECKS: tuple[ArrivalCheck, ...] = (*STATUS_CHECKS, *PLACEMENT_CHECKS)


def arrival_breaches(
    state: T9AState,
    unit: T9AUnit,
    arrival: Arrival,
    checks: tuple[ArrivalCheck, ...] = ARRIVAL_CHECKS,
) -> list[RuleViolation]:
    """Every arrival rule the placement breaks, in check order (empty: legal)."""
    breaches: list[RuleViolation] = []
    for check in checks:
        try:
            check(state, unit, arrival)
        except RuleViolation as breach:
            breaches.append(breach)
    return breaches


def loses_scoring(game_turn: int) -> bool:
    """AMB-27: a unit entering the Battlefield in Game Turn 6 loses Scoring (for the
    rest of the game; only units arriving from Ambush, A-AMB-15)."""
    return game_turn == LAST_GAME_TURN


def arrival_of(unit: T9AUnit, cmd: Arrive) -> Arrival:
    """The placement an `arrive` command proposes for the unit."""
    return Arrival(unit, cmd.point, cmd.x, cmd.y, cmd.facing, cmd.files, cmd.ranks)


def decide_arrive(d: Decision, cmd: Arrive) -> None:
    """AMB-18: an arriving unit (and any joined model) is placed and counts as having
    made an Advance Move; in Game Turn 6 it also loses Scoring (AMB-27)."""
    state = as_t9a(d.state)
    unit = state.t9a_unit(cmd.unit)
    arrival = arrival_of(unit, cmd)
    breaches = arrival_breaches(state, unit, arrival)
    if breaches:
        raise breaches[0]
    members = state.members_of(unit.id)
    d.emit(UnitArrivedFromAmbush(
        unit=unit.id, members=members, point=arrival.point, x=cmd.x, y=cmd.y,
        facing=cmd.facing, files=arrival.files, ranks=arrival.ranks, game_turn=state.round,
        player=state.active_player, phase=state.phase,
    ))
    d.emit(T9AMoveCounted(units=(unit.id, *members), move="advance"))
    d.cite("AMB-18", f"{unit.id} arrived and counts as having made an Advance Move")
    if loses_scoring(state.round):
        for arrived in (unit.id, *members):
            d.emit(ScoringLost(unit=arrived))
        d.cite("AMB-27", f"{unit.id} entered the Battlefield in Game Turn 6 and loses Scoring")
