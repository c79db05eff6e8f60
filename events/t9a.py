"""Facts of The 9th Age rule set (Ambush, AMB): what happened, as measured and rolled.

Each fact records an outcome, never an intention: the unit as placed, the die
as read, the Scoring as lost. Applying them (`domain.t9a.apply`) only assigns.
"""

from __future__ import annotations

from typing import Any, Literal

from events.base import Fact, fact, legacy, same_fields

Point = tuple[float, float]
MoveKind = Literal["advance", "march", "reform"]


@fact
class T9AUnitDeployed(Fact):
    """A unit was placed on the Battlefield during Deployment."""

    type: Literal["T9AUnitDeployed"] = "T9AUnitDeployed"
    unit: str
    x: float
    y: float
    facing: float
    files: int
    ranks: int


@fact
class AmbushDeclared(Fact):
    """A unit was placed in Ambush (X) instead of being Deployed (AMB-03, AMB-04)."""

    type: Literal["AmbushDeclared"] = "AmbushDeclared"
    unit: str
    ambush: str
    #: The Ambushing unit an Attachable Model was Deployed joined to (AMB-21).
    joined_to: str | None = None


@fact
class AmbushJoinChosen(Fact):
    """An Attachable Model in Ambush chose the unit it is joined to, or none (AMB-23)."""

    type: Literal["AmbushJoinChosen"] = "AmbushJoinChosen"
    model: str
    unit: str | None


@fact
class AmbushRollResolved(Fact):
    """The arrival roll of one Ambushing unit or Combined Unit was read (AMB-07…10).

    `roll` is the die as rolled (None when AMB-10 made it count as a 3+ unrolled).
    """

    type: Literal["AmbushRollResolved"] = "AmbushRollResolved"
    unit: str
    members: tuple[str, ...] = ()
    roll: int | None
    arrives: bool
    game_turn: int


@fact
class AmbushRollsMade(Fact):
    """A player made their Ambush arrival rolls for this Player Turn."""

    type: Literal["AmbushRollsMade"] = "AmbushRollsMade"
    player: str
    game_turn: int


@fact
class UnitArrivedFromAmbush(Fact):
    """An Ambushing unit (with any joined models) was placed on the Battlefield.

    Version 2 has the same fields; that the arrival counts as an Advance Move
    (AMB-18) is `T9AMoveCounted`, which follows it."""

    class_version = 2
    type: Literal["UnitArrivedFromAmbush"] = "UnitArrivedFromAmbush"
    unit: str
    members: tuple[str, ...] = ()
    point: Point
    x: float
    y: float
    facing: float
    files: int
    ranks: int
    game_turn: int
    player: str
    phase: str

    @staticmethod
    @same_fields
    def upcast_v1_v2(data: dict[str, Any]) -> None:
        """v1 → v2: the same fields (a stored v1 fact is read as its legacy class)."""


@legacy
class UnitArrivedFromAmbushV1(UnitArrivedFromAmbush):
    """`UnitArrivedFromAmbush` as v1 logs (class_version 1) stored it: its applier also
    counted the arrival as an Advance Move (since v2: `T9AMoveCounted`)."""

    class_version = 1


@fact
class T9AMoveCounted(Fact):
    """These units count as having made this Move (AMB-18: an arrival counts as an
    Advance Move), though they were placed, not moved."""

    implicit_in_legacy = True
    type: Literal["T9AMoveCounted"] = "T9AMoveCounted"
    units: tuple[str, ...]
    move: MoveKind


@fact
class AmbushArrivalPostponed(Fact):
    """A unit that rolled 3+ was not placed this turn; it stays in Ambush (AMB-12)."""

    type: Literal["AmbushArrivalPostponed"] = "AmbushArrivalPostponed"
    unit: str


@fact
class ScoringLost(Fact):
    """A unit lost Scoring for the rest of the game (AMB-27)."""

    type: Literal["ScoringLost"] = "ScoringLost"
    unit: str


@fact
class T9AUnitMoved(Fact):
    """A unit made a Move: where it ended, in what formation, how far it went.

    Version 2 has the same fields; the models joined to it moving with it is
    `T9AMembersMoved`, which follows it."""

    class_version = 2
    type: Literal["T9AUnitMoved"] = "T9AUnitMoved"
    unit: str
    move: MoveKind
    x: float
    y: float
    facing: float
    files: int
    ranks: int
    distance: float

    @staticmethod
    @same_fields
    def upcast_v1_v2(data: dict[str, Any]) -> None:
        """v1 → v2: the same fields (a stored v1 fact is read as its legacy class)."""


@legacy
class T9AUnitMovedV1(T9AUnitMoved):
    """`T9AUnitMoved` as v1 logs (class_version 1) stored it: its applier also moved the
    models joined to the unit (since v2: `T9AMembersMoved`)."""

    class_version = 1


@fact
class T9AMembersMoved(Fact):
    """A-AMB-14, AMB-22: the models joined to a unit moved with it (a joined model
    moves only with its unit); they stand where it does and count as having made
    its Move."""

    implicit_in_legacy = True
    type: Literal["T9AMembersMoved"] = "T9AMembersMoved"
    unit: str
    members: tuple[str, ...]
    move: MoveKind
    x: float
    y: float
    facing: float


@fact
class T9AMovesReset(Fact):
    """A new Player Turn began: these units' Move records of the last one are cleared."""

    type: Literal["T9AMovesReset"] = "T9AMovesReset"
    units: tuple[str, ...]


@fact
class T9ARemovedAsCasualty(Fact):
    """A unit was removed as a casualty (AMB-20: still in Ambush at the game's end)."""

    type: Literal["T9ARemovedAsCasualty"] = "T9ARemovedAsCasualty"
    unit: str
    reason: str
