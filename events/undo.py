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


class Restoring(Fact):
    """A fact that carries a recorded state the game returns to."""

    steps: tuple[int, ...]
    requested_by: str
    consented_by: str
    restored: dict[str, Any]

    def redacted_for(self, player: str, hidden_units: frozenset[str]) -> Fact | None:
        """The restored state without units hidden from `player`."""
        return self.model_copy(
            update={"restored": restored_for(self.restored, player, hidden_units)}
        )


@fact
class StepsUndone(Restoring):
    """Steps were undone by consent; the game is as if they were never taken.

    `restored` is the state before the first undone step.
    """

    type: Literal["StepsUndone"] = "StepsUndone"
    reused_dice: tuple[int, ...] = Field(
        default=(), description="dice of the undone steps, served first to the next rolls"
    )


@fact
class StepsRedone(Restoring):
    """Undone steps were brought back, with exactly their old results.

    `restored` is the state after the last redone step.
    """

    type: Literal["StepsRedone"] = "StepsRedone"
    reclaimed_dice: int = Field(
        default=0, description="how many queued dice the redone steps take back"
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


@fact
class StepsSettled(Fact):
    """These steps can no longer be undone: the undo depth (`UNDO_DEPTH` steps) has
    passed them (CORE-UNDO-DEPTH)."""

    implicit_in_legacy = True
    type: Literal["StepsSettled"] = "StepsSettled"
    steps: tuple[int, ...]


@fact
class RedoStackCleared(Fact):
    """A new step of play was taken: the undone steps can no longer be redone
    (CORE-REDO-NOTHING)."""

    implicit_in_legacy = True
    type: Literal["RedoStackCleared"] = "RedoStackCleared"
