"""Applying Infinity N4 facts: assignment only."""

from __future__ import annotations

from domain.apply import ApplierTable
from domain.infinity.state import DeclaredSkill, InfinityState, OrderInProgress
from events.infinity import (
    OrderCompleted,
    OrdersGenerated,
    OrderSkillDeclared,
    OrdersLost,
    OrderSpent,
    OrderStageReached,
    TrooperMoved,
)

#: The appliers of this rule set's facts (named by its wiring table in `rules.py`).
APPLIERS = ApplierTable()
applies = APPLIERS.on


@applies(OrdersGenerated)
def _orders_generated(state: InfinityState, fact: OrdersGenerated) -> None:
    state.orders[fact.player] = fact.orders


@applies(OrdersLost)
def _orders_lost(state: InfinityState, fact: OrdersLost) -> None:
    state.orders[fact.player] = 0


@applies(OrderSpent)
def _order_spent(state: InfinityState, fact: OrderSpent) -> None:
    state.orders[fact.player] = fact.orders_left
    state.order = OrderInProgress(player=fact.player, trooper=fact.trooper)
    state.last_paths = []


@applies(OrderSkillDeclared)
def _skill_declared(state: InfinityState, fact: OrderSkillDeclared) -> None:
    if state.order is not None:
        state.order.entire_order = state.order.entire_order or fact.entire_order
        state.order.skills.append(
            DeclaredSkill(skill=fact.skill, path=list(fact.path), facing=fact.facing)
        )


@applies(OrderStageReached)
def _order_stage_reached(state: InfinityState, fact: OrderStageReached) -> None:
    if state.order is not None:
        state.order.stage = fact.stage
        state.order.had_aro = list(fact.had_aro)


@applies(TrooperMoved)
def _trooper_moved(state: InfinityState, fact: TrooperMoved) -> None:
    trooper = state.units[fact.trooper]
    trooper.x, trooper.y, trooper.facing = fact.x, fact.y, fact.facing
    state.last_paths.append(list(fact.path))


@applies(OrderCompleted)
def _order_completed(state: InfinityState, fact: OrderCompleted) -> None:
    state.order = None
