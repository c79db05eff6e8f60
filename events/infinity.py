"""Infinity N4 facts: order pools, orders spent, skills declared, troopers moved.

The ARO windows themselves use the core facts (`ReactionWindowOpened`,
`ReactionDeclared`, `ReactionWindowClosed`); `ReactionDeclared.by` is the
reacting trooper's id and `answer` the ARO's name or "pass".
"""

from __future__ import annotations

from typing import Literal

from events.base import Fact, fact

Point = tuple[float, float]
OrderStage = Literal["idle", "first_aro", "second_skill", "second_aro", "resolution"]


@fact
class OrdersGenerated(Fact):
    """A player's order pool was set for their Player Turn (tactical phase)."""

    type: Literal["OrdersGenerated"] = "OrdersGenerated"
    player: str
    orders: int


@fact
class OrdersLost(Fact):
    """A Player Turn ended: the orders left in the player's pool were lost."""

    type: Literal["OrdersLost"] = "OrdersLost"
    player: str
    orders: int


@fact
class OrderSpent(Fact):
    """A trooper was activated: one order left its player's pool."""

    type: Literal["OrderSpent"] = "OrderSpent"
    player: str
    trooper: str
    orders_left: int


@fact
class OrderSkillDeclared(Fact):
    """The active trooper declared a skill of its order, with the path as measured.

    `path` starts at the point the skill starts from; `length` is its measured
    length and `limit` the MOV value it was measured against.
    """

    type: Literal["OrderSkillDeclared"] = "OrderSkillDeclared"
    trooper: str
    skill: Literal["move", "cautious_move", "idle"]
    entire_order: bool = False
    path: tuple[Point, ...] = ()
    length: float = 0.0
    limit: float = 0.0
    facing: float | None = None


@fact
class OrderStageReached(Fact):
    """The order expenditure sequence reached a stage (declaration, window, ...)."""

    type: Literal["OrderStageReached"] = "OrderStageReached"
    stage: OrderStage
    #: Enemy troopers that have had their ARO chance in this order so far.
    had_aro: tuple[str, ...] = ()


@fact
class TrooperMoved(Fact):
    """A declared movement was resolved: the trooper now stands at the path's end."""

    type: Literal["TrooperMoved"] = "TrooperMoved"
    trooper: str
    path: tuple[Point, ...]
    x: float
    y: float
    facing: float


@fact
class OrderCompleted(Fact):
    """The order was resolved; no order is in progress any more."""

    type: Literal["OrderCompleted"] = "OrderCompleted"
    trooper: str
