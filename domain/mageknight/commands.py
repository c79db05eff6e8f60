"""Mage Knight commands: actions, the six cavalry benefits, and the free-standing orders.

A figure is named by id. For a cavalry unit either id names the unit; where a
base is chosen (the attacker's base, MNT-39, or the target's, MNT-46), the id
named is the choice: the rider's id for the rider's base, the mount's for the mount's.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from domain.commands import Command, Who
from domain.limits import Facing

Point = tuple[float, float]


class Move(Command):
    """Move action: along `path` (waypoints after the start), then face `facing`."""

    do: Literal["move"] = "move"
    unit_fields: ClassVar[tuple[str, ...]] = ("figure",)
    figure: str
    path: list[Point] = Field(min_length=1)
    facing: Facing | None = None
    use: list[str] = Field(default_factory=list)


class CloseAttack(Command):
    """Close combat action against one target (several with Sweep)."""

    do: Literal["close_attack"] = "close_attack"
    unit_fields: ClassVar[tuple[str, ...]] = ("figure", "targets")
    figure: str
    targets: list[str] = Field(min_length=1)
    use: list[str] = Field(default_factory=list)


class RangedAttack(Command):
    """Ranged combat action; with `area` (Bombard) every figure around the target is hit."""

    do: Literal["ranged_attack"] = "ranged_attack"
    unit_fields: ClassVar[tuple[str, ...]] = ("figure", "target")
    figure: str
    target: str
    area: bool = False
    use: list[str] = Field(default_factory=list)


class FreeSpin(Command):
    """Turn a figure on the spot without an action (core free spin)."""

    do: Literal["free_spin"] = "free_spin"
    unit_fields: ClassVar[tuple[str, ...]] = ("figure",)
    figure: str
    facing: Facing


class Capture(Command):
    """Action: capture an opposing warrior in base contact (core capture)."""

    do: Literal["capture"] = "capture"
    unit_fields: ClassVar[tuple[str, ...]] = ("figure", "target")
    figure: str
    target: str


class UseAbility(Command):
    """Use a core special ability that these rules restrict (Surge, Strong Flyer,
    Magic Levitation), optionally on a target figure."""

    do: Literal["use_ability"] = "use_ability"
    unit_fields: ClassVar[tuple[str, ...]] = ("figure", "target")
    figure: str
    ability: Literal["surge", "strong_flyer", "magic_levitation"]
    target: str | None = None


class DropItem(Command):
    """Put a carried item down at `at`."""

    do: Literal["drop_item"] = "drop_item"
    unit_fields: ClassVar[tuple[str, ...]] = ("figure",)
    figure: str
    item: str
    at: Point


class PickUpItem(Command):
    """Pick an item up from the table."""

    do: Literal["pick_up_item"] = "pick_up_item"
    unit_fields: ClassVar[tuple[str, ...]] = ("figure",)
    figure: str
    item: str


class Dismount(Command):
    """Special action: the rider leaves its mount, its base placed at `at` (or anywhere free)."""

    do: Literal["dismount"] = "dismount"
    unit_fields: ClassVar[tuple[str, ...]] = ("figure",)
    figure: str
    at: Point | None = None


class MountUp(Command):
    """Special action: a dismounted rider climbs onto a friendly riderless mount."""

    do: Literal["mount"] = "mount"
    unit_fields: ClassVar[tuple[str, ...]] = ("figure", "mount")
    figure: str
    mount: str


class MoveThenAct(Command):
    """A benefit's single action: move the cavalry unit along `path` (waypoints
    after the start; none: stay), face `facing`, then act (MNT-87)."""

    figure: str
    path: list[Point] = Field(default_factory=list)
    facing: Facing | None = None
    use: list[str] = Field(default_factory=list)


class Charge(MoveThenAct):
    """Charge: move up to the mount's speed, then attack in close combat."""

    do: Literal["charge"] = "charge"
    unit_fields: ClassVar[tuple[str, ...]] = ("figure", "targets")
    targets: list[str] = Field(min_length=1)


class RideByShot(MoveThenAct):
    """Ride-by Shot: move up to the mount's speed, then the rider shoots."""

    do: Literal["ride_by_shot"] = "ride_by_shot"
    unit_fields: ClassVar[tuple[str, ...]] = ("figure", "target")
    target: str


class Unhorse(MoveThenAct):
    """Unhorse: move into contact with an opposing cavalry unit and try to unseat its rider."""

    do: Literal["unhorse"] = "unhorse"
    unit_fields: ClassVar[tuple[str, ...]] = ("figure", "target")
    target: str


class Trample(Command):
    """Trample: a straight move ahead, over other figures' bases."""

    do: Literal["trample"] = "trample"
    unit_fields: ClassVar[tuple[str, ...]] = ("figure",)
    figure: str
    to: Point
    use: list[str] = Field(default_factory=list)


class DeclareFormation(Command):
    """Declare that two or three figures in base contact form a formation."""

    do: Literal["declare_formation"] = "declare_formation"
    unit_fields: ClassVar[tuple[str, ...]] = ("figures",)
    figures: list[str] = Field(min_length=1)


class ChoosePushing(Command):
    """The controller says whether the rider or the mount takes the unit's pushing damage."""

    who: ClassVar[Who] = "any"
    do: Literal["choose_pushing"] = "choose_pushing"
    unit_fields: ClassVar[tuple[str, ...]] = ("figure",)
    figure: str
    takes: Literal["rider", "mount"]


class DarkAlliance(Command):
    """Dark Alliance: 1 pushing damage to a Dark Riders rider, 1 click healed on its mount."""

    do: Literal["dark_alliance"] = "dark_alliance"
    unit_fields: ClassVar[tuple[str, ...]] = ("figure",)
    figure: str


class Poison(Command):
    """Poison: 1 damage to every opposing figure in contact with the figure's front arc."""

    do: Literal["poison"] = "poison"
    unit_fields: ClassVar[tuple[str, ...]] = ("figure",)
    figure: str


MK_COMMANDS: tuple[type[Command], ...] = (
    Move,
    CloseAttack,
    RangedAttack,
    FreeSpin,
    Capture,
    UseAbility,
    DropItem,
    PickUpItem,
    Dismount,
    MountUp,
    Charge,
    RideByShot,
    Unhorse,
    Trample,
    DeclareFormation,
    ChoosePushing,
    DarkAlliance,
    Poison,
)
