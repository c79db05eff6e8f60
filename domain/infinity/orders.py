"""Orders (RULINGS "Orders", "Order expenditure sequence"): the order pool, activating
a trooper, and walking the order expenditure sequence to its resolution."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from domain.decision import Decision
from domain.errors import RuleViolation
from domain.infinity.machine import ORDER_MACHINE
from domain.infinity.sight import is_out_of_action
from domain.infinity.state import InfinityState, Trooper
from domain.state import to_read
from domain.windows import open_window
from events.base import Fact
from events.core import ReactionWindowClosed, UnitFielded
from events.infinity import (
    OrderCompleted,
    OrdersGenerated,
    OrdersLost,
    OrderSpent,
    OrderStage,
    OrderStageReached,
    Point,
    TrooperMoved,
)


def gives_order(trooper: Trooper) -> bool:
    """RULINGS "Orders": a trooper on the table that is neither Unconscious nor
    Disconnected adds an order; one in Hidden Deployment adds none."""
    return (
        trooper.status == "on_table"
        and not trooper.has("unconscious")
        and not trooper.has("disconnected")
        and not trooper.has("hidden_deployment")
    )


def order_pool(troopers: Sequence[Trooper], player: str) -> int:
    """The number of orders `player`'s troopers give (RULINGS "Orders")."""
    return sum(1 for t in troopers if t.owner == player and gives_order(t))


def generate_orders(d: Decision) -> None:
    """The active player's pool becomes the orders their troopers give."""
    state = d.state
    assert isinstance(state, InfinityState)
    player = state.active_player
    d.emit(OrdersGenerated(player=player, orders=order_pool(list(to_read(state.units)), player)))


def lose_unused_orders(d: Decision) -> None:
    """CORE-ORDER-POOL: the orders left in the active player's pool are lost as their
    Player Turn ends."""
    state = d.state
    assert isinstance(state, InfinityState)
    left = state.orders.get(state.active_player, 0)
    if left:
        d.emit(OrdersLost(player=state.active_player, orders=left))


def opening_orders(fielded: Sequence[Fact], player: str) -> OrdersGenerated:
    """The first player's pool for the first tactical phase, from the fielded troopers."""
    troopers = [
        Trooper.model_validate(f.unit) for f in fielded if isinstance(f, UnitFielded)
    ]
    return OrdersGenerated(player=player, orders=order_pool(troopers, player))


def check_can_be_activated(state: InfinityState, trooper: Trooper) -> None:
    """CORE-ACTIVATE: only a trooper on the table, not in Hidden Deployment, and not
    Unconscious, Disconnected or an Embryo can be activated by an order."""
    if trooper.status != "on_table":
        raise RuleViolation("CORE-ACTIVATE", f"{trooper.id} is not on the table")
    if trooper.has("hidden_deployment"):
        raise RuleViolation(
            "CORE-ACTIVATE",
            f"{trooper.id} is in Hidden Deployment; revealing it is not part of these rules",
        )
    if is_out_of_action(trooper):
        states = ", ".join(sorted(set(trooper.conditions) & {"unconscious", "disconnected",
                                                             "embryo"}))
        raise RuleViolation("CORE-ACTIVATE", f"{trooper.id} is {states} and cannot act")


def check_order_left(state: InfinityState, player: str) -> None:
    """CORE-ORDER-POOL: activating a trooper spends one order; the pool must have one."""
    if state.orders.get(player, 0) < 1:
        raise RuleViolation(
            "CORE-ORDER-POOL", f"{player} has no orders left in the pool this Player Turn"
        )


def check_activation(state: InfinityState, trooper: Trooper) -> None:
    """A new order: the trooper can act and its player has an order to spend."""
    check_can_be_activated(state, trooper)
    check_order_left(state, trooper.owner)


def check_acts_in_order(state: InfinityState, trooper: Trooper) -> None:
    """CORE-ORDER-SEQUENCE: the second skill belongs to the trooper the order activated."""
    order = state.order
    if order is not None and order.trooper != trooper.id:
        raise RuleViolation(
            "CORE-ORDER-SEQUENCE",
            f"the order in progress is {order.trooper}'s; {trooper.id} cannot act in it",
        )


def spend_order(d: Decision, trooper: Trooper) -> None:
    """Activation: one order leaves the pool."""
    state = d.state
    assert isinstance(state, InfinityState)
    left = state.orders.get(trooper.owner, 0) - 1
    d.emit(OrderSpent(player=trooper.owner, trooper=trooper.id, orders_left=left))


def planned_start(state: InfinityState, trooper: Trooper) -> Point:
    """Where the trooper's next skill starts: the end of its last declared movement."""
    order = state.order
    if order is not None and order.trooper == trooper.id:
        for skill in reversed(order.skills):
            if skill.path:
                return skill.path[-1]
    return trooper.position


def reach_stage(d: Decision, trigger: str, had_aro: Sequence[str] | None = None) -> str:
    """Fire the order machine and record the stage it reaches (and, when a window
    has closed, every trooper that has had its ARO chance in this order)."""
    state = d.state
    assert isinstance(state, InfinityState) and state.order is not None
    stage = ORDER_MACHINE.step(state, trigger)
    chances = tuple(state.order.had_aro if had_aro is None else had_aro)
    d.emit(OrderStageReached(stage=cast(OrderStage, stage), had_aro=chances))
    return stage


def open_aro_window(d: Decision, eligible: Sequence[str], skill: str) -> None:
    """Open the ARO window for the declared skill, or move on when nobody may react."""
    state = d.state
    assert isinstance(state, InfinityState) and state.order is not None
    if eligible:
        context = {"trooper": state.order.trooper, "skill": skill, "stage": state.order.stage}
        open_window(d, "aro", eligible, context)
    else:
        move_past_window(d)


def close_aro_window(d: Decision) -> None:
    """Every eligible trooper answered: the window closes and the sequence moves on.
    Each of them has now had its ARO chance in this order."""
    state = d.state
    assert isinstance(state, InfinityState) and state.order is not None
    window = state.reaction_window
    assert window is not None
    answered = list(dict.fromkeys([*state.order.had_aro, *window.eligible]))
    d.emit(ReactionWindowClosed(kind="aro"))
    move_past_window(d, answered)


def move_past_window(d: Decision, had_aro: Sequence[str] | None = None) -> None:
    """After an ARO window (or where none opened): the second skill, or resolution."""
    if reach_stage(d, "close_window", had_aro) == "resolution":
        resolve_order(d)


def resolve_order(d: Decision) -> None:
    """Resolution: each declared movement happens, in order; the order is spent."""
    state = d.state
    assert isinstance(state, InfinityState) and state.order is not None
    trooper = state.trooper(state.order.trooper)
    facing = trooper.facing or 0.0
    for skill in state.order.skills:
        if len(skill.path) < 2:
            continue
        facing = skill.facing if skill.facing is not None else facing
        x, y = skill.path[-1]
        d.emit(TrooperMoved(trooper=trooper.id, path=tuple(skill.path), x=x, y=y,
                            facing=facing))
    ORDER_MACHINE.step(state, "resolve")
    d.emit(OrderCompleted(trooper=trooper.id))
