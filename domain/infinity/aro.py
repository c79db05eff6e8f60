"""AROs (RULINGS "ARO eligibility"): who may react to a declared skill, and the ARO
and pass answers that close the window."""

from __future__ import annotations

from collections.abc import Sequence

from domain.decision import Decision
from domain.errors import InputError, RuleViolation
from domain.infinity.commands import Aro, PassAro
from domain.infinity.machine import ORDER_MACHINE
from domain.infinity.orders import close_aro_window
from domain.infinity.sight import (
    blocking_terrain,
    can_react,
    closest_approach,
    enemies_of,
    has_lof_to_path,
    is_model_or_marker,
    is_out_of_action,
    path_enters_zoc,
    zone_of_control,
)
from domain.infinity.state import InfinityState, Trooper
from events.core import ReactionDeclared
from events.infinity import Point

SKILL_NAMES = {"move": "Move", "cautious_move": "Cautious Movement", "idle": "Idle"}


def sees_or_controls(state: InfinityState, enemy: Trooper, mover: Trooper,
                     path: Sequence[Point]) -> bool:
    """RULINGS ARO eligibility: LoF to the mover at any point of its movement, or the
    movement passes within the enemy's ZoC."""
    return path_enters_zoc(enemy, mover, path, zone_of_control(state)) or has_lof_to_path(
        enemy, mover, path, blocking_terrain(state)
    )


def aro_eligible(state: InfinityState, mover: Trooper, path: Sequence[Point]) -> list[str]:
    """The enemy troopers and markers that may react to this skill: they count
    (`can_react`), see or control its path, and have not had an ARO chance in this order."""
    had_aro = set(state.order.had_aro) if state.order is not None else set()
    return [
        enemy.id
        for enemy in enemies_of(state, mover.owner)
        if enemy.id not in had_aro and sees_or_controls(state, enemy, mover, path)
    ]


def is_cautious_order(state: InfinityState) -> bool:
    """Is the order in progress a Cautious Movement?"""
    order = state.order
    return order is not None and any(s.skill == "cautious_move" for s in order.skills)


def why_not_eligible(state: InfinityState, reactor: Trooper) -> RuleViolation:
    """The reason a trooper outside the window's eligible list may not react."""
    order = state.order
    assert order is not None
    cautious = is_cautious_order(state)
    if reactor.owner == order.player:
        return RuleViolation("CORE-ARO-ELIGIBLE", f"{reactor.id} is on the active side; "
                             "only enemy troopers declare AROs")
    if not is_model_or_marker(reactor):
        return hidden_cannot_react(reactor, order.trooper, cautious)
    if is_out_of_action(reactor):
        states = "/".join(c for c in ("unconscious", "disconnected", "embryo")
                          if reactor.has(c))
        return RuleViolation(
            "CAU-27" if cautious else "CORE-ARO-ELIGIBLE",
            f"{reactor.id} is {states}; it cannot react to {order.trooper}'s order"
            + (" nor cancel its Cautious Movement" if cautious else ""),
        )
    if not can_react(reactor):
        return RuleViolation("CORE-ARO-ELIGIBLE", f"{reactor.id} is not on the table")
    if reactor.id in order.had_aro:
        return RuleViolation("CORE-ARO-ONCE", f"{reactor.id} already had its ARO chance "
                             f"against {order.trooper}'s order")
    return RuleViolation("CORE-ARO-ELIGIBLE", no_sight_message(state, reactor))


def no_sight_message(state: InfinityState, reactor: Trooper) -> str:
    """Why an enemy neither sees nor controls the declared skill, with the numbers."""
    order = state.order
    assert order is not None
    path = order.skills[-1].path
    mover = state.trooper(order.trooper)
    gap = closest_approach(reactor, mover, path)
    return (
        f"{reactor.id} has no LoF to {mover.id} at any point of its "
        f"{SKILL_NAMES[order.skills[-1].skill]}, and it comes no closer than "
        f"{gap:.2f}\" to {reactor.id}'s base (ZoC {zone_of_control(state):g}\")"
    )


def hidden_cannot_react(reactor: Trooper, mover: str, cautious: bool) -> RuleViolation:
    """CAU-21: a Hidden Deployment trooper (not a Model or Marker, CAU-20) cannot react to a
    Cautious Movement, even with LoF; RULINGS "ARO eligibility" excludes it from any ARO."""
    if cautious:
        return RuleViolation("CAU-21", f"{reactor.id} is in Hidden Deployment: not a Model "
                             f"or Marker (CAU-20), so it cannot react to {mover}'s Cautious "
                             "Movement, even with LoF")
    return RuleViolation("CORE-ARO-ELIGIBLE", f"{reactor.id} is in Hidden Deployment; hidden "
                         f"troopers are never eligible for an ARO against {mover}'s order")


#: AROs that need LoF to the active trooper (N4 BS Attack and Discover). Other ARO
#: names (dodge, change_facing, alert, ...) are recorded as given.
AROS_NEEDING_LOF = frozenset({"shoot", "bs_attack", "discover"})


def check_aro_needs_lof(state: InfinityState, reactor: Trooper, skill: str) -> None:
    """CORE-ARO-LOF: a trooper reacting through its Zone of Control alone (no LoF to any
    point of the movement) cannot declare an ARO that needs LoF."""
    order = state.order
    assert order is not None
    mover = state.trooper(order.trooper)
    declared = order.skills[-1]
    if skill not in AROS_NEEDING_LOF or has_lof_to_path(
            reactor, mover, declared.path, blocking_terrain(state)):
        return
    raise RuleViolation(
        "CORE-ARO-LOF", f"{reactor.id} reacts through its Zone of Control only (no LoF to "
        f"{mover.id} at any point of its {SKILL_NAMES[declared.skill]}), so it cannot "
        f"declare {skill!r}, which needs LoF; it may declare an ARO without LoF (e.g. "
        "dodge) or pass")


def check_may_answer(state: InfinityState, reactor: Trooper) -> None:
    """The trooper is in the open window's eligible list and has not answered yet."""
    window = state.reaction_window
    assert window is not None
    if reactor.id in window.declared:
        raise RuleViolation("CORE-ARO-ONCE", f"{reactor.id} has already answered this window "
                            f"({window.declared[reactor.id]})")
    if reactor.id not in window.eligible:
        raise why_not_eligible(state, reactor)


def answer_window(d: Decision, reactor: Trooper, answer: str) -> None:
    """Record the answer; the window closes once every eligible trooper has answered."""
    state = d.state
    assert isinstance(state, InfinityState)
    check_may_answer(state, reactor)
    if answer != "pass":
        check_aro_needs_lof(state, reactor, answer)
    ORDER_MACHINE.check(state, "aro" if answer != "pass" else "pass")
    d.emit(ReactionDeclared(by=reactor.id, answer=answer))
    window = state.reaction_window
    assert window is not None
    if all(trooper_id in window.declared for trooper_id in window.eligible):
        close_aro_window(d)


def decide_aro(d: Decision, command: Aro) -> None:
    """An eligible enemy declares an ARO (RULINGS "ARO eligibility")."""
    state = d.state
    assert isinstance(state, InfinityState)
    if command.skill == "pass":
        raise InputError("to declare no ARO, use the `pass` command")
    answer_window(d, state.trooper(command.trooper), command.skill)


def decide_pass(d: Decision, command: PassAro) -> None:
    """An eligible enemy declares no ARO."""
    state = d.state
    assert isinstance(state, InfinityState)
    answer_window(d, state.trooper(command.trooper), "pass")
