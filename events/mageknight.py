"""Mage Knight 2.0 facts: actions and tokens, moves, attacks, dials, and cavalry.

Each fact records an outcome (the click a dial now shows, the spot a rider was
placed on), so applying it is assignment only.
"""

from __future__ import annotations

from typing import Any, Literal

from events.base import Fact, fact, legacy, same_fields

Point = tuple[float, float]
BaseChoice = Literal["rider", "mount"]


@fact
class ActionAssigned(Fact):
    """A player assigned an action to a figure (for a cavalry unit: its mount)."""

    type: Literal["ActionAssigned"] = "ActionAssigned"
    figure: str
    action: str
    token: bool = True


@fact
class TokensRemoved(Fact):
    """All action tokens were taken off these figures."""

    type: Literal["TokensRemoved"] = "TokensRemoved"
    figures: tuple[str, ...]
    reason: str


@fact
class PlayerTurnEnded(Fact):
    """A player's turn ended: action counts and "acted" marks start afresh."""

    type: Literal["PlayerTurnEnded"] = "PlayerTurnEnded"
    player: str


@fact
class FigureMoved(Fact):
    """A figure (for a cavalry unit, its mount) now stands here.

    Version 2 has the same fields; the rider a mount carries along is
    `RiderCarried`, which follows it."""

    class_version = 2
    type: Literal["FigureMoved"] = "FigureMoved"
    figure: str
    x: float
    y: float
    facing: float
    distance: float = 0.0

    @staticmethod
    @same_fields
    def upcast_v1_v2(data: dict[str, Any]) -> None:
        """v1 → v2: the same fields (a stored v1 fact is read as its legacy class)."""


@legacy
class FigureMovedV1(FigureMoved):
    """`FigureMoved` as v1 logs (class_version 1) stored it: its applier also moved a
    mount's rider with it (since v2: `RiderCarried`)."""

    class_version = 1


@fact
class RiderCarried(Fact):
    """MNT-16: a mount and its rider are one cavalry unit: the mount carried its rider
    with it, and the rider stands where it does."""

    implicit_in_legacy = True
    type: Literal["RiderCarried"] = "RiderCarried"
    rider: str
    mount: str
    x: float
    y: float
    facing: float


@fact
class FacingChanged(Fact):
    """A figure turned on the spot (a free spin)."""

    type: Literal["FacingChanged"] = "FacingChanged"
    figure: str
    facing: float


@fact
class AttackResolved(Fact):
    """An attack's numbers: the dice total plus attack and modifiers against defense."""

    type: Literal["AttackResolved"] = "AttackResolved"
    attacker: str
    target: str
    kind: Literal["close", "ranged", "area"]
    roll: int
    attack: int
    modifier: int
    defense: int
    hit: bool
    damage: int


@fact
class FigureDamaged(Fact):
    """A figure took damage; its dial now shows `click` (index into the dial)."""

    type: Literal["FigureDamaged"] = "FigureDamaged"
    figure: str
    clicks: int
    click: int
    pushing: bool = False


@fact
class FigureHealed(Fact):
    """A figure was healed; its dial now shows `click`."""

    type: Literal["FigureHealed"] = "FigureHealed"
    figure: str
    clicks: int
    click: int


@fact
class DialReset(Fact):
    """A figure's dial was turned back to `click` instead of it being eliminated."""

    type: Literal["DialReset"] = "DialReset"
    figure: str
    click: int


@fact
class FigureEliminated(Fact):
    """A figure was eliminated (its dial showed three skulls, or it had no room)."""

    type: Literal["FigureEliminated"] = "FigureEliminated"
    figure: str
    reason: str


@fact
class FigureRemovedFromGame(Fact):
    """A figure was removed from the game (a riderless Timid mount)."""

    type: Literal["FigureRemovedFromGame"] = "FigureRemovedFromGame"
    figure: str
    reason: str


@fact
class RiderDismounted(Fact):
    """A rider left its mount and stands on its own base at `x, y`.

    `fresh`: both figures may still be given an action this turn.
    """

    type: Literal["RiderDismounted"] = "RiderDismounted"
    rider: str
    mount: str
    x: float
    y: float
    facing: float
    cause: Literal["dismount", "unhorsed", "mount_eliminated"]
    fresh: bool = False


@fact
class RiderMounted(Fact):
    """A rider climbed into a mount's saddle; the new cavalry unit has `tokens` tokens.

    Version 2 has the same fields; the rider's own tokens going is
    `RiderTokensRemoved`, which comes before it."""

    class_version = 2
    type: Literal["RiderMounted"] = "RiderMounted"
    rider: str
    mount: str
    tokens: int = 1

    @staticmethod
    @same_fields
    def upcast_v1_v2(data: dict[str, Any]) -> None:
        """v1 → v2: the same fields (a stored v1 fact is read as its legacy class)."""


@legacy
class RiderMountedV1(RiderMounted):
    """`RiderMounted` as v1 logs (class_version 1) stored it: its applier also took the
    rider's own tokens off (since v2: `RiderTokensRemoved`)."""

    class_version = 1


@fact
class RiderTokensRemoved(Fact):
    """MNT-85: a rider's own action tokens went as it mounted (the cavalry unit's
    tokens are the mount's)."""

    implicit_in_legacy = True
    type: Literal["RiderTokensRemoved"] = "RiderTokensRemoved"
    rider: str


@fact
class RiderLost(Fact):
    """A mount lost its rider to elimination; `in_saddle`: the figure stays in the saddle."""

    type: Literal["RiderLost"] = "RiderLost"
    mount: str
    rider: str
    in_saddle: bool = False


@fact
class AllegianceChanged(Fact):
    """A figure is now controlled by `controller` (None: by its owner again)."""

    type: Literal["AllegianceChanged"] = "AllegianceChanged"
    figure: str
    controller: str | None


@fact
class PushingChoiceMade(Fact):
    """A cavalry unit's controller chose who takes the unit's pushing damage."""

    type: Literal["PushingChoiceMade"] = "PushingChoiceMade"
    mount: str
    takes: BaseChoice


@fact
class ItemDropped(Fact):
    """A figure put an item down at `x, y`."""

    type: Literal["ItemDropped"] = "ItemDropped"
    figure: str
    item: str
    x: float
    y: float


@fact
class ItemPickedUp(Fact):
    """A figure picked an item up."""

    type: Literal["ItemPickedUp"] = "ItemPickedUp"
    figure: str
    item: str


@fact
class FigureCaptured(Fact):
    """A figure was captured by another and taken off the table."""

    type: Literal["FigureCaptured"] = "FigureCaptured"
    figure: str
    by: str


@fact
class AbilityUsed(Fact):
    """A figure used a core special ability (on `target`, if it has one)."""

    type: Literal["AbilityUsed"] = "AbilityUsed"
    figure: str
    ability: str
    target: str | None = None


@fact
class FormationDeclared(Fact):
    """These figures (cavalry units by their mounts) act as one formation this turn."""

    type: Literal["FormationDeclared"] = "FormationDeclared"
    figures: tuple[str, ...]


@fact
class DarkAllianceUsed(Fact):
    """A Dark Riders unit used Dark Alliance in this player's command phase."""

    type: Literal["DarkAllianceUsed"] = "DarkAllianceUsed"
    mount: str
    player: str
    round: int


@fact
class PoisonUsed(Fact):
    """A figure used Poison in its player's command phase (once per figure, CORE-MK-POISON)."""

    type: Literal["PoisonUsed"] = "PoisonUsed"
    figure: str


@fact
class ItemEquipped(Fact):
    """At set-up, a figure carries an item (the script lists it in the figure's `items`)."""

    type: Literal["ItemEquipped"] = "ItemEquipped"
    figure: str
    item: str
