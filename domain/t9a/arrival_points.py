"""Ambush (X): the arrival-point rule each value of X names (AMB-11, A-AMB-02).

Only *Ambush (Board Edge)* is needed (RULINGS.md); other values of X register
their own rule here with `@arrival_point_rule("name")`.
"""

from __future__ import annotations

from collections.abc import Callable

from domain.geometry import Point2, is_on_board_edge
from domain.t9a.units import T9AState

#: A rule for chosen points: None if the point is allowed, else why it is not.
ArrivalPointRule = Callable[[T9AState, Point2], str | None]

ARRIVAL_POINTS: dict[str, ArrivalPointRule] = {}


def arrival_point_rule(x: str) -> Callable[[ArrivalPointRule], ArrivalPointRule]:
    """Decorator: register the arrival-point rule of *Ambush (x)*."""

    def register(rule: ArrivalPointRule) -> ArrivalPointRule:
        ARRIVAL_POINTS[x] = rule
        return rule

    return register


@arrival_point_rule("board_edge")
def board_edge_point(state: T9AState, point: Point2) -> str | None:
    """Ambush (Board Edge): the chosen point lies on an edge of the board."""
    if is_on_board_edge(point, state.board.width, state.board.height):
        return None
    x, y = point
    return (
        f"the chosen point ({x:g}, {y:g}) is not on a board edge of the "
        f"{state.board.width:g}\" × {state.board.height:g}\" board"
    )
