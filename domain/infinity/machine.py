"""The Infinity N4 machines, as tables.

The turn machine: game rounds of Player Turns, each tactical → orders → states
(RULINGS.md, Infinity N4). Orders are declared, and AROs answered, in the
orders phase; the phase (and the turn) cannot end while an order is still
being spent.

The order machine: the order expenditure sequence (RULINGS "Order expenditure
sequence"): declaration → ARO window → second skill → ARO window → resolution.
Its triggers are the skill commands plus the automatic `close_window` and
`resolve`; its stage is recorded in the state (`order.stage`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.errors import RuleViolation
from domain.machine import Cursor, Row, TurnMachine, allow, destination, turn_rows

if TYPE_CHECKING:
    from domain.infinity.state import InfinityState
    from domain.state import GameState

PHASES = ("tactical", "orders", "states")
ORDER_COMMANDS = ("move", "cautious_move", "idle", "aro", "pass")


class InfinityCursor(Cursor):
    """The turn machine's view of the game."""

    def no_order_in_progress(self) -> bool:
        """An order being spent must be resolved before the phase or turn ends."""
        return getattr(self.game, "order", None) is None


def _guarded(rows: list[Row]) -> list[Row]:
    """Phase and turn changes out of the orders phase wait for the order in progress."""
    return [
        {**row, "conditions": "no_order_in_progress"}
        if row["source"] == "orders" and row["trigger"] in ("next_phase", "end_turn")
        else row
        for row in rows
    ]


ROWS: list[Row] = [
    *_guarded(turn_rows(PHASES)),
    *(row for command in ORDER_COMMANDS for row in allow(command, ["orders"])),
]

MACHINE = TurnMachine("infinity-n4", PHASES, ROWS, cursor_type=InfinityCursor)

# --------------------------------------------------------------------------- orders

STAGES = ("idle", "first_aro", "second_skill", "second_aro", "resolution")


class OrderCursor(Cursor):
    """The order machine's view of the order in progress."""

    def is_entire_order(self) -> bool:
        """An Entire Order has no second skill (CAU-05, A-CAU-05)."""
        order = getattr(self.game, "order", None)
        return bool(order is not None and order.entire_order)


ORDER_ROWS: list[Row] = [
    {"trigger": "move", "source": "idle", "dest": "first_aro"},
    {"trigger": "cautious_move", "source": "idle", "dest": "first_aro"},
    *allow("aro", ["first_aro", "second_aro"]),
    *allow("pass", ["first_aro", "second_aro"]),
    {"trigger": "close_window", "source": "first_aro", "dest": "resolution",
     "conditions": "is_entire_order"},
    {"trigger": "close_window", "source": "first_aro", "dest": "second_skill"},
    {"trigger": "move", "source": "second_skill", "dest": "second_aro"},
    {"trigger": "idle", "source": "second_skill", "dest": "second_aro"},
    {"trigger": "close_window", "source": "second_aro", "dest": "resolution"},
    {"trigger": "resolve", "source": "resolution", "dest": "idle"},
]


def order_stage(state: GameState) -> str:
    """The stage of the order expenditure sequence the state records."""
    order = getattr(state, "order", None)
    return "idle" if order is None else str(order.stage)


class OrderMachine(TurnMachine):
    """The order expenditure sequence, asked through cursors standing in `order.stage`."""

    def __init__(self) -> None:
        super().__init__("infinity-n4 order", STAGES, ORDER_ROWS, cursor_type=OrderCursor)
        # The order sequence has no game-over stage: drop it from the drawing.
        self.states = list(STAGES)

    def position(self, state: GameState) -> str:
        """The order machine stands in the order's stage, not the phase."""
        return order_stage(state)

    def check(self, state: InfinityState, trigger: str) -> None:
        """CORE-ORDER-SEQUENCE: the order expenditure sequence allows `trigger` now."""
        if not self.allows(state, trigger):
            raise RuleViolation("CORE-ORDER-SEQUENCE", sequence_message(state, trigger))

    def step(self, state: InfinityState, trigger: str) -> str:
        """Fire `trigger` from the recorded stage; the stage it leads to."""
        self.check(state, trigger)
        cursor = self.standing(state)
        row = self.row_taken(cursor, trigger)
        assert row is not None  # `check` passed
        return destination(row, cursor.phase)


def sequence_message(state: InfinityState, trigger: str) -> str:
    """Why the order sequence refuses `trigger` now, in words."""
    order = state.order
    if order is None:
        return f"{trigger!r} needs an order in progress; activate a trooper first (move)"
    if order.stage == "second_skill":
        return (f"{order.trooper}'s order waits for its second skill (move or idle), "
                f"not {trigger!r}")
    return f"{trigger!r} is not allowed while {order.trooper}'s order is at {order.stage}"


ORDER_MACHINE = OrderMachine()
