"""Facts every rule set shares: the game's start, its steps, dice, turns and windows."""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from events.base import Fact, fact, legacy, same_fields

Point = tuple[float, float]
TerrainKind = Literal["clear", "hindering", "blocking", "impassable", "elevated"]
#: The kinds of reaction window: AROs, stratagems, undo/redo requests, proposed results.
WindowKind = Literal["aro", "stratagem", "undo", "result"]


class Board(BaseModel):
    """The table, in inches; the origin is its bottom-left corner."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)
    width: float = Field(gt=0)
    height: float = Field(gt=0)


class TerrainPiece(BaseModel):
    """A terrain polygon. `kind` decides what it blocks (docs/script-format.md)."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)
    id: str = Field(min_length=1)
    kind: TerrainKind
    polygon: tuple[Point, ...] = Field(min_length=3)


@fact
class GameStarted(Fact):
    """A game began, committing to its dice seed by hash (the seed itself is sealed)."""

    type: Literal["GameStarted"] = "GameStarted"
    ruleset: str
    variant: str | None = None
    board: Board
    terrain: tuple[TerrainPiece, ...] = ()
    players: tuple[str, ...]
    seed_commitment: str
    options: dict[str, Any] = Field(default_factory=dict)
    #: The rules versions the game is decided under (`domain.rules_version`), e.g.
    #: {"engine": 1, "w40k": 2}; None in a log stored before stamping (version 1 of
    #: both), and then not serialised, so those logs hash and export as stored.
    rules: dict[str, int] | None = None

    optional_fields: ClassVar[tuple[str, ...]] = ("rules",)


@fact
class RulesVersionChanged(Fact):
    """Play continues under newer rules versions (`domain.rules_version`): the steps
    from this one on are decided under `versions`, those before under `was`."""

    type: Literal["RulesVersionChanged"] = "RulesVersionChanged"
    was: dict[str, int]
    versions: dict[str, int]


@fact
class SeedSealed(Fact):
    """The dice seed, kept for the server; hidden from players until revealed."""

    secret = True
    type: Literal["SeedSealed"] = "SeedSealed"
    seed: int


@fact
class StepTaken(Fact):
    """A command was accepted; the facts that follow in the same step are its outcome.

    Version 2 has the same fields. A v1 fact (`StepTakenV1`) also dropped the
    oldest undoable step beyond the undo depth and cleared the redo stack as it
    applied; since v2, `decide` says so with `StepsSettled` / `RedoStackCleared`.
    """

    class_version = 2
    type: Literal["StepTaken"] = "StepTaken"
    step: int
    by: str
    command: dict[str, Any]
    dice: tuple[int, ...] | None = None

    @staticmethod
    @same_fields
    def upcast_v1_v2(data: dict[str, Any]) -> None:
        """v1 → v2: the same fields (a stored v1 fact is read as `StepTakenV1`)."""

    def visible_to(self, player: str, hidden_units: frozenset[str]) -> bool:
        """Hidden when any argument of the command names a hidden unit; never from
        the player who took the step (they know what they sent, and a free text of
        theirs that happens to be a hidden id must not hide their own step)."""
        if self.by == player:
            return True
        values = {str(v) for v in self.command.values() if isinstance(v, str | int)}
        for value in self.command.values():
            if isinstance(value, list):
                values.update(str(v) for v in value)
        return not hidden_units.intersection(values)


@legacy
class StepTakenV1(StepTaken):
    """`StepTaken` as v1 logs (class_version 1) stored it (see `domain.apply`)."""

    class_version = 1


@fact
class DiceRolled(Fact):
    """Dice were rolled: digital ones are derived from the seed at `first_index`.

    Version 2 renamed v1's `index` to `first_index` and added `subject`.
    """

    class_version = 2
    type: Literal["DiceRolled"] = "DiceRolled"
    purpose: str
    sides: int = 6
    values: tuple[int, ...]
    source: Literal["digital", "physical", "reused"]
    first_index: int | None = None
    subject: str | None = None

    @staticmethod
    def upcast_v1_v2(data: dict[str, Any]) -> None:
        """v1 → v2: `index` became `first_index`; `subject` is new (None)."""
        data["first_index"] = data.pop("index", None)
        data.setdefault("subject", None)


@fact
class PhaseStarted(Fact):
    """Play moved to a phase of a player's turn (a new turn or round included)."""

    type: Literal["PhaseStarted"] = "PhaseStarted"
    round: int
    active_player: str
    phase: str


@fact
class GameEnded(Fact):
    """The game is over."""

    type: Literal["GameEnded"] = "GameEnded"
    reason: str


@fact
class ClauseApplied(Fact):
    """A clause decided something worth citing on an accepted step."""

    type: Literal["ClauseApplied"] = "ClauseApplied"
    rule: str
    message: str


@fact
class ReactionWindowOpened(Fact):
    """A reaction window opened: `eligible` may each react once or pass.

    Since version 2 (same fields) the new window holds any window open before it,
    which reopens when it closes (the window machine's `suspend`: `decide` closes
    a window first when the new one replaces it). A v1 fact
    (`ReactionWindowOpenedV1`) held the open window only for an undo window.
    """

    class_version = 2
    type: Literal["ReactionWindowOpened"] = "ReactionWindowOpened"
    kind: WindowKind
    eligible: tuple[str, ...]
    context: dict[str, Any] = Field(default_factory=dict)

    @staticmethod
    @same_fields
    def upcast_v1_v2(data: dict[str, Any]) -> None:
        """v1 → v2: the same fields (a stored v1 fact is read as its legacy class)."""


@legacy
class ReactionWindowOpenedV1(ReactionWindowOpened):
    """`ReactionWindowOpened` as v1 logs (class_version 1) stored it."""

    class_version = 1


@fact
class ReactionDeclared(Fact):
    """An eligible participant answered the open window (`answer` is e.g. "pass")."""

    type: Literal["ReactionDeclared"] = "ReactionDeclared"
    by: str
    answer: str
    detail: dict[str, Any] = Field(default_factory=dict)


@fact
class ReactionWindowClosed(Fact):
    """The open reaction window closed."""

    type: Literal["ReactionWindowClosed"] = "ReactionWindowClosed"
    kind: WindowKind


@fact
class UnitFielded(Fact):
    """A unit joined the game at set-up, as its rule set's unit model validated it."""

    type: Literal["UnitFielded"] = "UnitFielded"
    unit: dict[str, Any]

    def visible_to(self, player: str, hidden_units: frozenset[str]) -> bool:
        """An opponent's unit fielded in a hidden condition is not shown."""
        return str(self.unit.get("id")) not in hidden_units
