"""Facts of contested moves: undo and redo by consent, and judges' rulings.

History is never rewritten: an undo is a fact that carries the state the game
returns to (the state before the first undone step), and the values of the
digital dice the undone steps used, which are served again to the next rolls.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from events.base import HIDDEN_CONDITIONS, Fact, fact


def restored_for(
    restored: dict[str, Any], player: str, hidden_units: frozenset[str]
) -> dict[str, Any]:
    """A recorded state without the units `player` may not know about."""
    units = {
        unit_id: unit
        for unit_id, unit in restored.get("units", {}).items()
        if unit_id not in hidden_units
        and (unit.get("owner") == player
             or not HIDDEN_CONDITIONS.intersection(unit.get("conditions", [])))
    }
    return {**restored, "units": units}


@fact
class StepsUndone(Fact):
    """Steps were undone by consent; the game is as if they were never taken."""

    type: Literal["StepsUndone"] = "StepsUndone"
    steps: tuple[int, ...]
    requested_by: str
    consented_by: str
    restored: dict[str, Any] = Field(description="the state before the first undone step")
    reused_dice: tuple[int, ...] = Field(
        default=(), description="dice of the undone steps, served first to the next rolls"
    )

    def redacted_for(self, player: str, hidden_units: frozenset[str]) -> Fact | None:
        """The restored state without units hidden from `player`."""
        return self.model_copy(
            update={"restored": restored_for(self.restored, player, hidden_units)}
        )


@fact
class StepsRedone(Fact):
    """Undone steps were brought back, with exactly their old results."""

    type: Literal["StepsRedone"] = "StepsRedone"
    steps: tuple[int, ...]
    requested_by: str
    consented_by: str
    restored: dict[str, Any] = Field(description="the state after the last redone step")
    reclaimed_dice: int = Field(
        default=0, description="how many queued dice the redone steps take back"
    )

    def redacted_for(self, player: str, hidden_units: frozenset[str]) -> Fact | None:
        """The restored state without units hidden from `player`."""
        return self.model_copy(
            update={"restored": restored_for(self.restored, player, hidden_units)}
        )


@fact
class RequestRefused(Fact):
    """An undo or redo request was refused; that refusal is final for those steps."""

    type: Literal["RequestRefused"] = "RequestRefused"
    action: Literal["undo", "redo"]
    steps: tuple[int, ...]
    requested_by: str
    refused_by: str


@fact
class RulingRecorded(Fact):
    """A judge recorded a ruling, optionally citing a clause and a step."""

    type: Literal["RulingRecorded"] = "RulingRecorded"
    judge: str
    text: str
    clause: str | None = None
    on_step: int | None = None
