"""Cautious Movement (CAU-02 … CAU-28): an Entire Order that moves a trooper up to its
first MOV value without granting AROs, when it starts and ends unseen and uncontrolled."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from domain.decision import Decision
from domain.errors import RuleViolation
from domain.infinity.aro import aro_eligible
from domain.infinity.commands import CautiousMove
from domain.infinity.machine import ORDER_MACHINE
from domain.infinity.movement import (
    check_general_movement,
    declare_movement,
    measured_length,
    movement_path,
)
from domain.infinity.orders import (
    check_activation,
    check_acts_in_order,
    move_past_window,
    open_aro_window,
)
from domain.infinity.rules import RULESET
from domain.infinity.sight import (
    blocking_terrain,
    enemies_of,
    has_lof,
    in_zoc,
    zone_of_control,
)
from domain.infinity.state import InfinityState, Trooper
from events.infinity import OrderSkillDeclared, Point


@dataclass(frozen=True)
class SkillProfile:
    """A skill's box in the rules: its name, the order it costs, its labels."""

    name: str
    common: bool
    order: str
    labels: tuple[str, ...]


CAUTIOUS_MOVEMENT = SkillProfile(
    name="Cautious Movement",
    common=True,  # CAU-03: a Common Skill, so any trooper may declare it (bar CAU-16…19).
    order="Entire Order",  # CAU-05
    labels=("Movement", "No LoF", "No Roll"),  # CAU-06, CAU-07, CAU-08
)


def check_not_codeone(state: InfinityState) -> None:
    """CAU-02: this N4 rule is not used in CodeOne; Cautious Movement cannot be declared."""
    if state.variant == "codeone":
        raise RuleViolation("CAU-02", "Cautious Movement is an N4 rule that is not used in "
                            "CodeOne; it cannot be declared in a CodeOne game")


def check_not_tag(trooper: Trooper) -> None:
    """CAU-16: TAGs cannot declare Cautious Movement."""
    if trooper.type == "TAG":
        raise RuleViolation("CAU-16", f"{trooper.id} is a TAG; TAGs cannot declare "
                            "Cautious Movement")


def check_not_remote(trooper: Trooper) -> None:
    """CAU-17: Remotes cannot declare Cautious Movement."""
    if trooper.type == "REM":
        raise RuleViolation("CAU-17", f"{trooper.id} is a Remote (REM); Remotes cannot "
                            "declare Cautious Movement")


def check_not_motorcycle(trooper: Trooper) -> None:
    """CAU-18: troopers mounted on a Motorcycle cannot declare Cautious Movement."""
    if trooper.motorcycle:
        raise RuleViolation("CAU-18", f"{trooper.id} is mounted on a Motorcycle; it cannot "
                            "declare Cautious Movement")


def check_not_vehicle(trooper: Trooper) -> None:
    """CAU-19: Vehicles cannot declare Cautious Movement."""
    if trooper.type == "VH":
        raise RuleViolation("CAU-19", f"{trooper.id} is a Vehicle (VH); Vehicles cannot "
                            "declare Cautious Movement")


def check_entire_order(state: InfinityState) -> None:
    """CAU-05: Cautious Movement costs an Entire Order, so it cannot be the second skill
    of an order already spent on another skill (A-CAU-05)."""
    order = state.order
    if order is not None:
        raise RuleViolation(
            "CAU-05", f"Cautious Movement is an Entire Order; it cannot be declared as the "
            f"second skill of {order.trooper}'s order")


def check_first_mov_value(trooper: Trooper, path: Sequence[Point]) -> float:
    """CAU-09: the trooper moves at most the first value of its MOV (A-CAU-07), measured
    along the path (CAU-15)."""
    limit = trooper.mov[0]
    length = measured_length(path)
    if length > limit + 1e-6:
        raise RuleViolation(
            "CAU-09", f"{trooper.id}'s Cautious Movement path is {length:.2f}\" long, more "
            f"than its first MOV value {limit:g}\"")
    return limit


def is_unseen_and_uncontrolled(state: InfinityState, mover: Trooper, point: Point) -> bool:
    """Outside the LoF and the ZoC of every enemy Model and Marker, with the mover's base
    at `point`. Hidden Deployment (CAU-20) and out-of-action (CAU-27) troopers don't count;
    Camouflage Markers do, with 360° LoF (CAU-22, CAU-24)."""
    base = mover.base_at(point)
    obstacles = blocking_terrain(state)
    reach = zone_of_control(state)
    return not any(
        has_lof(enemy, base, obstacles) or in_zoc(enemy, base, reach)
        for enemy in enemies_of(state, mover.owner)
    )


def starts_unseen(state: InfinityState, mover: Trooper, path: Sequence[Point]) -> bool:
    """CAU-11: the Cautious Movement starts outside the LoF and ZoC of every enemy Model
    and Marker."""
    return is_unseen_and_uncontrolled(state, mover, path[0])


def ends_unseen(state: InfinityState, mover: Trooper, path: Sequence[Point]) -> bool:
    """CAU-12: the Cautious Movement ends outside the LoF and ZoC of every enemy Model and
    Marker."""
    return is_unseen_and_uncontrolled(state, mover, path[-1])


def grants_no_aro(state: InfinityState, mover: Trooper, path: Sequence[Point]) -> bool:
    """CAU-10: the movement grants no ARO to any enemy when CAU-11 and CAU-12 are both met
    (only the endpoints matter, A-CAU-01)."""
    return starts_unseen(state, mover, path) and ends_unseen(state, mover, path)


def generate_aros_as_usual(d: Decision, mover: Trooper, path: Sequence[Point]) -> None:
    """CAU-13: a Cautious Movement that starts or ends inside an enemy's LoF or ZoC
    generates AROs as a Move would, along the whole path (A-CAU-04)."""
    state = d.state
    assert isinstance(state, InfinityState)
    d.cite("CAU-13", f"{mover.id}'s Cautious Movement starts or ends inside enemy LoF or "
           "ZoC: AROs are generated as usual")
    open_aro_window(d, aro_eligible(state, mover, path), "cautious_move")


@RULESET.handle(CautiousMove)
def decide_cautious_move(d: Decision, command: CautiousMove) -> None:
    """Cautious Movement, declared as an Entire Order (CAU-05). No roll is made (CAU-08)
    and no LoF is needed to declare it (CAU-07)."""
    state = d.state
    assert isinstance(state, InfinityState)
    trooper = state.trooper(command.trooper)
    check_not_codeone(state)
    check_acts_in_order(state, trooper)
    check_entire_order(state)
    ORDER_MACHINE.check(state, "cautious_move")
    for check in (check_not_tag, check_not_remote, check_not_motorcycle, check_not_vehicle):
        check(trooper)
    check_activation(state, trooper)
    path = movement_path(state, trooper, command)
    limit = check_first_mov_value(trooper, path)
    check_general_movement(state, trooper, path, "CAU-14")
    declare_movement(d, trooper, OrderSkillDeclared(
        trooper=trooper.id, skill="cautious_move", entire_order=True, path=tuple(path),
        length=measured_length(path), limit=limit, facing=command.facing,
    ))
    if grants_no_aro(state, trooper, path):
        d.cite("CAU-10", f"no ARO generated: {trooper.id}'s Cautious Movement starts and "
               "ends outside the LoF and ZoC of every enemy Model and Marker")
        move_past_window(d)
    else:
        generate_aros_as_usual(d, trooper, path)
