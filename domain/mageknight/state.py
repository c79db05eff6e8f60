"""Mage Knight state: figures with combat dials, mounts and riders, items on the table.

A cavalry unit is a mount whose `rider` names a warrior whose `mount` names it
back (MNT-16). Both stay addressable figures (an attacker may target either,
MNT-46), while the unit acts as one figure standing on the mount's base
(MNT-32): the rider's own base sits in the mount's slot, at the mount's centre.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, ClassVar, Literal

from pydantic import Field, field_validator, model_validator

from domain.geometry import Disc, Footprint, Rect
from domain.state import GameState, StateModel, UnitState

MOUNT_TYPES = (
    "battle_horse",
    "cloud_griffon",
    "desert_warbird",
    "horned_stag",
    "pegasus",
    "salamander",
    "sky_dragon",
    "technocat",
)
"""MNT-09: the closed list of mount types."""

MOUNTED, RIDERLESS, DISMOUNTED_RIDER = "mounted", "riderless", "dismounted_rider"
"""Conditions the state view derives from a figure's cavalry role."""
REMOVED_FROM_GAME, CAPTURED_BY = "removed_from_game", "captured_by:"
"""Conditions play records as a figure leaves the table (MNT-63; a capture, by whom)."""
PLAY_CONDITIONS = frozenset({MOUNTED, RIDERLESS, DISMOUNTED_RIDER, REMOVED_FROM_GAME})
"""Conditions a script may not give (nor any `captured_by:`): play derives or records them."""

IntelligenceShape = Literal["circle", "pentagon", "square"]
IntelligenceLevel = Literal["timid", "independent", "evil"]
BaseChoice = Literal["rider", "mount"]


class Click(StateModel):
    """One click of a combat dial."""

    speed: int = Field(ge=0)
    attack: int
    defense: int
    damage: int = Field(ge=0)


def default_dial() -> list[Click]:
    """A plain four-click dial for figures a script does not describe."""
    return [Click(speed=8, attack=9, defense=16, damage=2) for _ in range(4)]


def check_dial(dial: list[Click], start_click: int, click: int | None) -> int:
    """0 <= start_click <= click < len(dial); the click shown (`start_click` unless given)."""
    last = len(dial) - 1
    if start_click > last:
        raise ValueError(f"start_click {start_click} is past the dial's last click ({last})")
    shown = start_click if click is None else click
    if shown > last:
        raise ValueError(f"click {shown} is past the dial's last click ({last})")
    if shown < start_click:
        raise ValueError(
            f"click {shown} is before start_click {start_click}; a dial only turns back "
            "to its starting click, never past it (MNT-128)"
        )
    return shown


class Figure(UnitState):
    """A Mage Knight figure: a warrior (round base) or a mount (elongated base)."""

    #: The combat dial is printed on the figure: damage and healing move `click`.
    shared_fields: ClassVar[frozenset[str]] = frozenset({"dial"})

    kind: Literal["warrior", "mount"] = "warrior"
    name: str = ""
    faction: str = ""
    sub_faction: str | None = None
    collector: str | None = None
    points: int = Field(default=0, ge=0)
    dial: list[Click] = Field(default_factory=default_dial, min_length=1)
    start_click: int = Field(default=0, ge=0)
    click: int | None = Field(default=None, ge=0)
    range: float = Field(default=0.0, ge=0)
    base: float = Field(default=1.0, gt=0)
    width: float = Field(default=1.25, gt=0)
    depth: float = Field(default=2.5, gt=0)
    abilities: list[str] = Field(default_factory=list)
    items: list[str] = Field(default_factory=list)
    # A mount's printed data, and its rider.
    mount_type: str | None = None
    intelligence: IntelligenceShape | None = None
    benefits: list[str] = Field(default_factory=list)
    rider: str | None = None
    pushing_to: BaseChoice = "mount"
    saddle_figure: str | None = None
    # A warrior's rider data, and the mount it sits on.
    rides: list[str] = Field(default_factory=list)
    rider_bonus: int = 0
    mount: str | None = None
    # Play.
    tokens: int = Field(default=0, ge=0)
    acted: bool = False
    given_action: bool = False
    controller: str | None = None
    removed_in_turn_of: str | None = None

    #: Kept by play, never set by a script: a game starts before any action,
    #: allegiance change, elimination or lost rider (CORE-MK-SETUP).
    kept_by_play: ClassVar[frozenset[str]] = frozenset(
        {"tokens", "acted", "given_action", "controller", "removed_in_turn_of", "saddle_figure"}
    )
    #: The script seats a rider with `rider:` on its mount (MNT-17 ... MNT-23).
    set_by_fielding: ClassVar[frozenset[str]] = frozenset({"mount"})

    @field_validator("mount_type")
    @classmethod
    def _known_mount_type(cls, value: str | None) -> str | None:
        """MNT-09: a mount type is one of the closed list."""
        if value is not None and value not in MOUNT_TYPES:
            raise ValueError(f"MNT-09: {value!r} is not a mount type ({', '.join(MOUNT_TYPES)})")
        return value

    @field_validator("rides")
    @classmethod
    def _known_symbols(cls, value: list[str]) -> list[str]:
        """MNT-12: the symbols on a rider's base are mount types."""
        unknown = [v for v in value if v not in MOUNT_TYPES]
        if unknown:
            raise ValueError(f"MNT-12: {', '.join(unknown)} is not a mount type")
        return value

    @model_validator(mode="after")
    def _dial_and_mount_data(self) -> Figure:
        """The dial shows a click from `start_click` on (healing never passes it,
        MNT-128); a mount shows its type and shape (MNT-06, MNT-61)."""
        self.click = check_dial(self.dial, self.start_click, self.click)
        if self.kind == "mount" and self.mount_type is None:
            raise ValueError("MNT-06: a mount needs a mount_type (its mount symbol)")
        if self.kind == "mount" and self.intelligence is None:
            raise ValueError("MNT-61: a mount needs the shape its symbol is printed in")
        return self

    @property
    def now(self) -> Click:
        """The click the dial shows now."""
        return self.dial[self.click if self.click is not None else self.start_click]

    @property
    def is_mount(self) -> bool:
        """A mount (MNT-03): a figure with an elongated base."""
        return self.kind == "mount"

    @property
    def can_become_rider(self) -> bool:
        """MNT-11: a warrior with at least one mount-type symbol on its base."""
        return self.kind == "warrior" and bool(self.rides)

    @property
    def controlled_by(self) -> str:
        """The player whose figure this is now (an Evil mount may change sides)."""
        return self.controller or self.owner

    def footprint(self) -> Footprint | None:
        """MNT-03: a mount's elongated base; a warrior's round one."""
        if self.status != "on_table" or self.x is None or self.y is None:
            return None
        if self.is_mount:
            return mount_base(self.x, self.y, self.width, self.depth, self.facing or 0.0)
        return round_base(self.x, self.y, self.base, self.facing or 0.0)

    def view(self) -> dict[str, Any]:
        """The figure with its dial's current values and its cavalry role."""
        data = super().view()
        data.update(self.now.model_dump())
        derived = set(self.conditions)
        if self.mount is not None:
            derived.add(MOUNTED)
        if self.is_mount and self.rider is None and self.status == "on_table":
            derived.add(RIDERLESS)
        if self.can_become_rider and self.mount is None:
            derived.add(DISMOUNTED_RIDER)
        data["conditions"] = sorted(derived)
        if self.intelligence is not None:
            data["intelligence_level"] = INTELLIGENCE[self.intelligence]
        return data


@lru_cache(maxsize=4096)
def mount_base(x: float, y: float, width: float, depth: float, facing: float) -> Rect:
    """A mount's base (kept: every question about the table asks for the bases of
    the figures near it again and again; a `Rect` is immutable, and equal numbers
    make an equal one)."""
    return Rect(x, y, width, depth, facing)


@lru_cache(maxsize=4096)
def round_base(x: float, y: float, diameter: float, facing: float) -> Disc:
    """A warrior's round base (kept, as `mount_base`)."""
    return Disc(x, y, diameter, facing)


INTELLIGENCE: dict[IntelligenceShape, IntelligenceLevel] = {
    "circle": "timid",
    "pentagon": "independent",
    "square": "evil",
}
"""MNT-62: the shape around the mount symbol gives the intelligence level."""


class Item(StateModel):
    """An item: on the table at `x, y`, or carried by a figure."""

    id: str
    x: float | None = None
    y: float | None = None
    carried_by: str | None = None
    ability: str | None = None
    size: float = 0.75


class MageKnightState(GameState):
    """Mage Knight game state: figures, items, and this player turn's bookkeeping."""

    unit_model: ClassVar[type[UnitState]] = Figure

    units: dict[str, Figure] = Field(default_factory=dict)  # type: ignore[assignment]
    items: dict[str, Item] = Field(default_factory=dict)
    actions_used: int = 0
    formations: list[list[str]] = Field(default_factory=list)
    dark_alliance: dict[str, str] = Field(default_factory=dict)
    #: The figures that used Poison in this player turn's command phase (CORE-MK-POISON).
    poisoned: list[str] = Field(default_factory=list)
