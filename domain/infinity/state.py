"""Infinity N4 state: troopers (RULINGS "Troopers"), order pools and the order in progress."""

from __future__ import annotations

from functools import lru_cache
from typing import ClassVar, Literal

from pydantic import Field, field_validator, model_validator

from domain.geometry import Disc
from domain.state import GameState, StateModel, UnitState
from events.infinity import OrderStage, Point

TrooperType = Literal["LI", "MI", "HI", "TAG", "REM", "SK", "WB", "VH"]
CONDITIONS = frozenset(
    {"hidden_deployment", "camouflaged", "unconscious", "disconnected", "embryo", "prone"}
)


class Trooper(UnitState):
    """A trooper or a marker on the table: a round base with MOV values.

    A Camouflage Marker is a trooper with `marker: camouflage`; it always has
    the `camouflaged` condition, and a `camouflaged` trooper is such a marker.
    """

    mov: tuple[float, float] = (4.0, 4.0)
    base: float = Field(default=1.0, gt=0, description="base diameter in inches")
    type: TrooperType = "LI"
    motorcycle: bool = False
    marker: Literal["camouflage"] | None = None

    @field_validator("mov")
    @classmethod
    def _mov_not_negative(cls, value: tuple[float, float]) -> tuple[float, float]:
        if min(value) < 0:
            raise ValueError(f"MOV values must not be negative, got {list(value)}")
        return value

    @field_validator("conditions")
    @classmethod
    def _known_conditions(cls, value: list[str]) -> list[str]:
        unknown = sorted(set(value) - CONDITIONS)
        if unknown:
            raise ValueError(f"unknown condition(s) {unknown}; known: {sorted(CONDITIONS)}")
        return value

    @model_validator(mode="after")
    def _marker_is_camouflaged(self) -> Trooper:
        if self.marker == "camouflage" and "camouflaged" not in self.conditions:
            self.conditions.append("camouflaged")
        if "camouflaged" in self.conditions:
            self.marker = "camouflage"
        return self

    def footprint(self) -> Disc | None:
        """The trooper's round base (None when it is not on the table)."""
        if self.status != "on_table" or self.x is None or self.y is None:
            return None
        return base_disc(self.x, self.y, self.base, self.facing or 0.0)

    def base_at(self, point: Point) -> Disc:
        """The trooper's base as it would stand at `point` (same facing)."""
        return base_disc(point[0], point[1], self.base, self.facing or 0.0)

    @property
    def position(self) -> Point:
        """The centre of the base (a trooper on the table always has one)."""
        return (self.x or 0.0, self.y or 0.0)

    def has(self, condition: str) -> bool:
        """Is the trooper in this condition (state)?"""
        return condition in self.conditions


class DeclaredSkill(StateModel):
    """A skill declared in the order in progress, waiting for resolution."""

    skill: Literal["move", "cautious_move", "idle"]
    path: list[Point] = Field(default_factory=list)
    facing: float | None = None


class OrderInProgress(StateModel):
    """The order being spent: its trooper, its stage and its declared skills."""

    player: str
    trooper: str
    stage: OrderStage = "idle"
    entire_order: bool = False
    skills: list[DeclaredSkill] = Field(default_factory=list)
    #: Enemy troopers that already had an ARO window in this order.
    had_aro: list[str] = Field(default_factory=list)


class InfinityState(GameState):
    """Infinity N4 game state: troopers, order pools and the order in progress."""

    unit_model: ClassVar[type[UnitState]] = Trooper

    units: dict[str, Trooper] = Field(default_factory=dict)  # type: ignore[assignment]
    orders: dict[str, int] = Field(default_factory=dict)
    order: OrderInProgress | None = None
    #: The paths of the last resolved order (for board pictures).
    last_paths: list[list[Point]] = Field(default_factory=list)

    def trooper(self, trooper_id: str) -> Trooper:
        """The trooper with this id (INPUT error when unknown)."""
        self.unit(trooper_id)
        return self.units[trooper_id]

    def troopers(self) -> list[Trooper]:
        """Every trooper, in id order."""
        return [unit for _, unit in sorted(self.units.items())]

    def troopers_to_read(self) -> list[Trooper]:
        """Every trooper, in id order, to read only (as `domain.state.to_read`: a
        decision's working copy copies none of them for it)."""
        return [unit for _, unit in sorted(dict.items(self.units))]


@lru_cache(maxsize=4096)
def base_disc(x: float, y: float, diameter: float, facing: float) -> Disc:
    """A round base (kept: LoF and ZoC ask for the same bases again and again; a `Disc`
    is immutable)."""
    return Disc(x, y, diameter, facing)
