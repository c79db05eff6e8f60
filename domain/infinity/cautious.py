"""Cautious Movement (CAU-02 … CAU-28): an Entire Order that moves a trooper up to its
first MOV value without granting AROs, when it starts and ends unseen and uncontrolled."""

from __future__ import annotations

from collections.abc import Callable, Sequence
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
from domain.infinity.sight import Onlookers, blocking_terrain, gap_between, zone_of_control
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


@dataclass(frozen=True)
class Barred:
    """A kind of trooper that cannot declare Cautious Movement, and its clause."""

    clause: str
    kind: str
    applies: Callable[[Trooper], bool]


#: CAU-16 … CAU-19, by unit-type tag and the Motorcycle characteristic (A-CAU-08).
BARRED = (
    Barred("CAU-16", "a TAG; TAGs", lambda trooper: trooper.type == "TAG"),
    Barred("CAU-17", "a Remote (REM); Remotes", lambda trooper: trooper.type == "REM"),
    Barred("CAU-18", "mounted on a Motorcycle; Troopers mounted on a Motorcycle",
           lambda trooper: trooper.motorcycle),
    Barred("CAU-19", "a Vehicle (VH); Vehicles", lambda trooper: trooper.type == "VH"),
)


def check_may_declare(trooper: Trooper) -> None:
    """CAU-16 … CAU-19: TAGs, Remotes, Troopers mounted on a Motorcycle and Vehicles cannot
    declare Cautious Movement. Raises RuleViolation with the first clause that bars it."""
    for barred in BARRED:
        if barred.applies(trooper):
            raise RuleViolation(barred.clause, f"{trooper.id} is {barred.kind} cannot "
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


def watchers_at(state: InfinityState, mover: Trooper, point: Point,
                onlookers: Onlookers | None = None) -> list[str]:
    """The enemy Models and Markers whose LoF or ZoC holds the mover's base at `point`, in
    words ("zero's ZoC (7.00\" away)"). Hidden Deployment (CAU-20) and out-of-action
    (CAU-27) troopers don't count; Camouflage Markers do, with 360° LoF (CAU-22, CAU-24).
    `onlookers`: those enemies, when asked about both ends (`Onlookers.of`)."""
    base = mover.base_at(point)
    if onlookers is None:
        onlookers = Onlookers.of(state, mover.owner, blocking_terrain(state))
    reach = zone_of_control(state)
    found: list[str] = []
    for enemy, sees, controls in zip(onlookers.troopers, onlookers.lof(base),
                                     onlookers.zoc(base, reach), strict=True):
        if sees:
            found.append(f"{enemy.id}'s LoF")
        if controls:
            found.append(f"{enemy.id}'s ZoC ({gap_between(enemy, base):.2f}\" away)")
    return found


@dataclass(frozen=True)
class AroVerdict:
    """Whether a Cautious Movement grants AROs, the rule that decides it, and why."""

    grants_aro: bool
    rule: str
    message: str


#: A-CAU-11: rules outside the source that change CAU-10 (Stealth, Hacking Areas, ...)
#: register here. Each gets the state, the mover and its path, and returns its verdict, or
#: None when it does not apply; the first verdict wins over CAU-10 / CAU-13. None is
#: registered: the source defines none.
CAU_10_MODIFIERS: list[Callable[[InfinityState, Trooper, Sequence[Point]], AroVerdict | None]]
CAU_10_MODIFIERS = []


def aro_verdict(state: InfinityState, mover: Trooper, path: Sequence[Point]) -> AroVerdict:
    """CAU-10 / CAU-13 (after any A-CAU-11 modifier): does this Cautious Movement grant
    AROs? It grants none when it starts (CAU-11) and ends (CAU-12) outside the LoF and
    ZoC of every enemy (only the endpoints matter, A-CAU-01). The message names the
    enemies that see or control its start or end."""
    for modifier in CAU_10_MODIFIERS:
        verdict = modifier(state, mover, path)
        if verdict is not None:
            return verdict
    onlookers = Onlookers.of(state, mover.owner, blocking_terrain(state))
    inside = {"starts": watchers_at(state, mover, path[0], onlookers),
              "ends": watchers_at(state, mover, path[-1], onlookers)}
    if not any(inside.values()):
        return AroVerdict(False, "CAU-10", f"no ARO generated: {mover.id}'s Cautious Movement "
                          "starts and ends outside the LoF and ZoC of every enemy Model "
                          "and Marker")
    where = "; ".join(f"it {end} inside {', '.join(found)}"
                      for end, found in inside.items() if found)
    return AroVerdict(True, "CAU-13", f"{mover.id}'s Cautious Movement generates AROs as "
                      f"usual: {where}")


def decide_cautious_move(d: Decision, command: CautiousMove) -> None:
    """Cautious Movement, declared as an Entire Order (CAU-05). No roll is made (CAU-08)
    and no LoF is needed to declare it (CAU-07). It grants no ARO when it starts and ends
    unseen and uncontrolled (CAU-10); otherwise AROs are generated as for a Move over the
    whole path (CAU-13, A-CAU-04)."""
    state = d.state
    assert isinstance(state, InfinityState)
    trooper = state.trooper(command.trooper)
    check_not_codeone(state)
    check_acts_in_order(state, trooper)
    check_entire_order(state)
    ORDER_MACHINE.check(state, "cautious_move")
    check_may_declare(trooper)
    check_activation(state, trooper)
    path = movement_path(state, trooper, command)
    limit = check_first_mov_value(trooper, path)
    check_general_movement(state, trooper, path, "CAU-14")
    verdict = aro_verdict(state, trooper, path)
    declare_movement(d, trooper, OrderSkillDeclared(
        trooper=trooper.id, skill="cautious_move", entire_order=True, path=tuple(path),
        length=measured_length(path), limit=limit, facing=command.facing,
    ))
    d.cite(verdict.rule, verdict.message)
    if verdict.grants_aro:
        open_aro_window(d, aro_eligible(state, trooper, path), "cautious_move")
    else:
        move_past_window(d)
