"""T9A units and game state (RULINGS.md, T9A "Units").

A unit is a rectangle of `files × ranks` bases of `base = [w, d]` inches. Its
`rules` are the special rules every one of its models has; the Ambush rules
read `ambush: <X>` and `attachable: true` there. A unit in Ambush has status
`reserve` and the condition `ambush`.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar, Literal

from pydantic import Field, PositiveFloat, field_validator, model_validator

from domain.geometry import Rect
from domain.state import GameState, StateModel, UnitState
from domain.words import counted

IN_AMBUSH = "ambush"
MoveKind = Literal["advance", "march", "reform"]


def normalise_ambush_x(value: str) -> str:
    """`Board Edge`, `BoardEdge`, `board-edge` and `board_edge` all name the same X."""
    words = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", value)
    x = "_".join(re.split(r"[\s_\-]+", words.strip().lower()))
    if not x:
        raise ValueError("Ambush needs its X, e.g. 'Board Edge'")
    return x


class UnitRules(StateModel):
    """The special rules of a unit's models.

    A script may give them as a mapping (`{ambush: Board Edge, attachable: true}`)
    or as a list (`[{ambush: Board Edge}, attachable, stubborn]`).
    """

    #: X of *Ambush (X)*, normalised (`board_edge`); None: no Ambush.
    ambush: str | None = None
    #: How many of the unit's models have Ambush; None: all of them (AMB-02).
    ambush_models: int | None = Field(default=None, ge=0)
    attachable: bool = False
    other: list[str] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _from_script(cls, data: Any) -> Any:
        if isinstance(data, list):
            merged: dict[str, Any] = {"other": []}
            for item in data:
                if isinstance(item, str):
                    if item == "attachable":
                        merged["attachable"] = True
                    else:
                        merged["other"].append(item)
                elif isinstance(item, dict):
                    merged.update(item)
                else:
                    raise ValueError(f"a rule must be a name or a mapping, not {item!r}")
            data = merged
        if isinstance(data, dict) and isinstance(data.get("ambush"), str):
            data = {**data, "ambush": normalise_ambush_x(data["ambush"])}
        return data


class ArrivalRecord(StateModel):
    """When and where a unit arrived from Ambush (AMB-18, AMB-19)."""

    game_turn: int
    player: str
    phase: str
    point: tuple[float, float]


class T9AUnit(UnitState):
    """A T9A unit: a block of bases, or a single Attachable Model (a character)."""

    files: int = Field(default=5, ge=1)
    ranks: int = Field(default=2, ge=1)
    base: tuple[PositiveFloat, PositiveFloat] = (1.0, 1.0)
    models: int = Field(default=0, ge=0, description="left out in a script: files × ranks")
    advance_rate: float = Field(default=4.0, ge=0)
    march_rate: float = Field(default=8.0, ge=0)
    rules: UnitRules = Field(default_factory=UnitRules)
    scoring: bool = True
    #: Made an Advance Move this Player Turn (arriving from Ambush counts, AMB-18).
    advance_moved: bool = False
    #: The Move made this Player Turn, if any.
    moved: MoveKind | None = None
    #: The Ambushing unit this Attachable Model is joined to (AMB-21…26).
    joined_to: str | None = None
    #: Rolled 3+ (or counted as 3+) this Player Turn and may arrive (AMB-09).
    arrival_ready: bool = False
    #: The die of its last Ambush roll (None: never rolled, or counted as 3+ unrolled).
    arrival_roll: int | None = None
    arrived: ArrivalRecord | None = None

    #: Kept by play, never set by a script: a game starts before any roll or Move.
    kept_by_play: ClassVar[frozenset[str]] = frozenset(
        {"advance_moved", "moved", "arrival_ready", "arrival_roll", "arrived"}
    )

    @field_validator("models")
    @classmethod
    def _models_given(cls, models: int) -> int:
        """`models` left out means files × ranks; given, it counts at least one."""
        if models == 0:
            raise ValueError("models must be at least 1 (leave it out for files × ranks)")
        return models

    @model_validator(mode="after")
    def _default_models(self) -> T9AUnit:
        if self.models == 0:
            self.models = self.files * self.ranks
        if self.rules.ambush_models is not None and self.rules.ambush_models > self.models:
            raise ValueError(f"ambush_models is {self.rules.ambush_models}, but the unit has "
                             f"only {counted(self.models, 'model')}")
        return self

    @property
    def in_ambush(self) -> bool:
        """Is the unit placed in Ambush (off the table, waiting to arrive)?"""
        return self.status == "reserve" and IN_AMBUSH in self.conditions

    @property
    def whereabouts(self) -> str:
        """Where the unit is, in words: `in Ambush`, `on the table`, `removed` or
        `waiting to deploy`."""
        if self.in_ambush:
            return "in Ambush"
        return {"on_table": "on the table", "reserve": "waiting to deploy"}.get(
            self.status, self.status)

    def shape_at(
        self, x: float, y: float, facing: float, files: int | None = None, ranks: int | None = None
    ) -> Rect:
        """The unit's footprint if it stood at (x, y) facing `facing`, in a formation."""
        w, d = self.base
        return Rect(x, y, (files or self.files) * w, (ranks or self.ranks) * d, facing)

    def footprint(self) -> Rect | None:
        """The unit's rectangle; None off the table or when joined to a unit (its
        host's footprint stands for it: a joined model does not change it)."""
        if self.status != "on_table" or self.x is None or self.y is None or self.joined_to:
            return None
        return self.shape_at(self.x, self.y, self.facing or 0.0)


class T9AState(GameState):
    """T9A game state: units plus each player's last Ambush-roll Game Turn."""

    unit_model: ClassVar[type[UnitState]] = T9AUnit

    #: player -> the Game Turn in which they last made their Ambush rolls.
    ambush_rolled: dict[str, int] = Field(default_factory=dict)

    def t9a_unit(self, unit_id: str) -> T9AUnit:
        """The T9A unit with this id (an INPUT error if there is none)."""
        unit = self.unit(unit_id)
        assert isinstance(unit, T9AUnit)
        return unit

    def t9a_units(self) -> list[T9AUnit]:
        """Every unit, in id order."""
        return [u for _, u in sorted(self.units.items()) if isinstance(u, T9AUnit)]

    def t9a_units_to_read(self) -> list[T9AUnit]:
        """Every unit, in id order, to read only (`domain.state.to_read`: a
        decision's working copy copies none of them for it)."""
        return [u for _, u in sorted(dict.items(self.units)) if isinstance(u, T9AUnit)]

    def members_of(self, host: str) -> tuple[str, ...]:
        """The Attachable Models joined to `host`, in id order."""
        return tuple(u.id for u in self.t9a_units_to_read() if u.joined_to == host)


def as_t9a(state: GameState) -> T9AState:
    """The state as T9A state."""
    assert isinstance(state, T9AState)
    return state
