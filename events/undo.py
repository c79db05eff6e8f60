"""Facts of contested moves: undo and redo by consent, and judges' rulings.

History is never rewritten: an undo is a fact that carries the state the game
returns to (the state before the first undone step), and the values of the
digital dice the undone steps used, which are served again to the next rolls.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from events.base import Fact, fact


@fact
class StepsUndone(Fact):
    """Steps were undone by consent; the game is as if they were never taken."""

    type: Literal["StepsUndone"] = "StepsUndone"
    steps: tuple[int, ...]
    requested_by: str
    consented_by: str
    restored: dict[str, Any] = Field(description="the state before the first undone step")
    reused_dice: tuple[int, ...] = Field(
        default=(), description="digital dice of the undone steps, served first to next rolls"
    )


@fact
class StepsRedone(Fact):
    """Undone steps were brought back, with exactly their old results."""

    type: Literal["StepsRedone"] = "StepsRedone"
    steps: tuple[int, ...]
    requested_by: str
    consented_by: str
    restored: dict[str, Any] = Field(description="the state after the last redone step")


@fact
class RulingRecorded(Fact):
    """A judge recorded a ruling, optionally citing a clause and a step."""

    type: Literal["RulingRecorded"] = "RulingRecorded"
    judge: str
    text: str
    clause: str | None = None
    on_step: int | None = None
