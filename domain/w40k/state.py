"""The 40k state: units with strength and Leadership, CP ledger, stratagem uses, rolls."""

from __future__ import annotations

import math
from typing import Any, ClassVar, Literal

from pydantic import ConfigDict, Field, field_validator, model_validator

from domain.decision import Decision
from domain.geometry import Disc
from domain.state import GameState, StateModel, UnitState
from domain.words import agrees, counted

#: A unit is within Engagement Range of another within 1" (10th edition core).
ENGAGEMENT_RANGE = 1.0


class W40KUnit(UnitState):
    """A unit: its models, starting strength, Leadership, Toughness and keywords.

    `wounds` is the Wounds characteristic of one model; `wounds_left` the
    unit's remaining wounds in total (mortal wounds spill from model to model).
    """

    name: str = ""
    models: int = Field(default=1, ge=0)
    starting_strength: int = Field(default=0, ge=0)
    wounds: int = Field(default=1, ge=1)
    wounds_left: int = Field(default=-1)
    leadership: int = Field(default=7, ge=2, le=12)
    toughness: int = Field(default=4, ge=1, le=30, description="no datasheet goes past 30")
    move: float = Field(default=6.0, ge=0)
    base: float = Field(default=1.25, gt=0)
    keywords: list[str] = Field(default_factory=list)
    #: The stratagems affecting this unit now (STR-24), by use reference.
    affected_by: list[str] = Field(default_factory=list)
    #: Actions taken ("moved", "shot", "charged", "fought") → the phase key (A-STR-02).
    acted: dict[str, str] = Field(default_factory=dict)

    @field_validator("wounds_left")
    @classmethod
    def _wounds_left_given(cls, wounds_left: int) -> int:
        """Left out, a unit has every wound of its models; given, it is not negative."""
        if wounds_left < 0:
            raise ValueError("wounds_left cannot be negative (leave it out for a unit "
                             "at full wounds)")
        return wounds_left

    @model_validator(mode="after")
    def _fill_starting_values(self) -> W40KUnit:
        if self.starting_strength == 0:
            self.starting_strength = self.models
        if self.wounds_left < 0:
            self.wounds_left = self.models * self.wounds
        if self.wounds_left > self.models * self.wounds:
            raise ValueError(f"wounds_left {self.wounds_left} is more than its "
                             f"{counted(self.models, 'model')} of "
                             f"{counted(self.wounds, 'wound')} "
                             f"{agrees(self.models, 'has', 'have')}")
        if self.status == "on_table" and self.models_for(self.wounds_left) != self.models:
            raise ValueError(
                f"wounds_left {self.wounds_left} leaves "
                f"{counted(self.models_for(self.wounds_left), 'model')} of "
                f"{counted(self.wounds, 'wound')} (wounds pass from model to model), not "
                f"{self.models}; a unit with none left is removed")
        self.keywords = [k.lower() for k in self.keywords]
        return self

    def footprint(self) -> Disc | None:
        """A round base of `base` inches."""
        if self.status != "on_table" or self.x is None or self.y is None:
            return None
        return Disc(self.x, self.y, self.base, self.facing or 0.0)

    def has_keyword(self, keyword: str) -> bool:
        """Does the unit carry this keyword (case-insensitive)?"""
        return keyword.lower() in self.keywords

    def is_below_half_strength(self) -> bool:
        """RULINGS 40k: fewer than half its starting models (one-model units: wounds)."""
        if self.starting_strength == 1:
            return 2 * self.wounds_left < self.wounds
        return 2 * self.models < self.starting_strength

    def models_for(self, wounds_left: int) -> int:
        """How many models remain with this many wounds left in the unit."""
        return math.ceil(max(0, wounds_left) / self.wounds)


class CpEntry(StateModel):
    """One line of the CP ledger. Never changed once written (frozen), so working
    copies share it."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    player: str
    round: int
    phase: str
    change: int
    source: str
    kind: Literal["start", "command_phase", "other", "spent"]
    balance: int
    lost: int = 0


class StratagemUse(StateModel):
    """One use of a stratagem, keyed as A-STR-02 says. Never changed in place
    (frozen): an applier replaces it with a changed copy (`domain.w40k.apply`), so
    working copies share it."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    use: str
    player: str
    stratagem: str
    name: str
    targets: list[str]
    cost: int
    round: int
    turn: str
    phase: str
    active: bool = True
    conditions: dict[str, list[str]] = Field(default_factory=dict)

    @property
    def phase_key(self) -> str:
        """(player-independent part of) the A-STR-02 key: round, turn, phase."""
        return phase_key(self.round, self.turn, self.phase)


class CostModifier(StateModel):
    """A CP cost modifier in force (STR-21…23). Never changed in place (frozen, as
    `StratagemUse`)."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    id: str
    player: str
    stratagem: str | None
    amount: int
    source: str
    duration: Literal["phase", "turn", "round", "battle"] | None
    round: int
    turn: str
    phase: str
    used: bool = False

    def lasts_into(self, round_: int, turn: str, phase: str) -> bool:
        """STR-23: does its duration reach this phase? One with no duration lasts
        until it is used (A-STR-08); others for the phase, turn, round or battle in
        which they were granted."""
        match self.duration:
            case None | "battle":
                return True
            case "phase":
                return (self.round, self.turn, self.phase) == (round_, turn, phase)
            case "turn":
                return (self.round, self.turn) == (round_, turn)
            case "round":
                return self.round == round_
        return False  # pragma: no cover - the Literal is exhausted


class RollRecord(StateModel):
    """A roll a stratagem may name (Command Re-roll): `R<n>`. Never changed in
    place (frozen, as `StratagemUse`)."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    ref: str
    purpose: str
    unit: str
    values: list[int]
    round: int
    turn: str
    phase: str
    replaced_by: str | None = None


class HeldCharge(StateModel):
    """A declared charge whose roll waits for the window its declaration opened,
    with the physical dice the declaring step carried for it (None: rolled then)."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    unit: str
    dice: list[int] | None = None


class W40KState(GameState):
    """40k game state."""

    unit_model: ClassVar[type[UnitState]] = W40KUnit

    units: dict[str, W40KUnit] = Field(default_factory=dict)  # type: ignore[assignment]
    cp_ledger: list[CpEntry] = Field(default_factory=list)
    uses: list[StratagemUse] = Field(default_factory=list)
    cost_modifiers: list[CostModifier] = Field(default_factory=list)
    rolls: list[RollRecord] = Field(default_factory=list)
    battle_shock_due: list[str] = Field(default_factory=list)
    charges: dict[str, list[str]] = Field(default_factory=dict)
    #: The charge roll waiting for its window to close (w40k rules version 2).
    held_charge: HeldCharge | None = None

    later_fields: ClassVar[tuple[str, ...]] = (*GameState.later_fields, "held_charge")

    def unit(self, unit_id: str) -> W40KUnit:
        """The unit with this id, or an INPUT error naming it."""
        unit = super().unit(unit_id)
        assert isinstance(unit, W40KUnit)
        return unit

    def key(self) -> str:
        """The A-STR-02 key of the phase being played now."""
        return phase_key(self.round, self.active_player, self.phase)

    def roll(self, ref: str) -> RollRecord | None:
        """The roll with this reference, if any."""
        return next((r for r in self.rolls if r.ref == ref), None)

    def next_roll_ref(self) -> str:
        """The reference the next recorded roll gets."""
        return f"R{len(self.rolls) + 1}"

    def view_extra(self) -> dict[str, Any]:
        """The CP ledger, stratagem uses, cost modifiers and rolls, for the state view."""
        return {
            "cp_ledger": [e.model_dump(mode="json") for e in self.cp_ledger],
            "stratagem_uses": [u.model_dump(mode="json") for u in self.uses],
            "cost_modifiers": [
                m.model_dump(mode="json") for m in self.cost_modifiers
                if not m.used and m.lasts_into(self.round, self.active_player, self.phase)
            ],
            "rolls": [r.model_dump(mode="json") for r in self.rolls],
            "battle_shock_due": list(self.battle_shock_due),
        }


def phase_key(round_: int, turn: str, phase: str) -> str:
    """A phase occurrence: battle round, whose turn, phase (A-STR-02)."""
    return f"{round_}:{turn}:{phase}"


def game(d: Decision) -> W40KState:
    """The decision's state, as the 40k state it is."""
    state = d.state
    assert isinstance(state, W40KState)
    return state
