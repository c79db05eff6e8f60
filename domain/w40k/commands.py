"""The 40k commands: stratagems, CP, Battle-shock tests, and the unit actions
that open stratagem windows (move, shoot, declare_charge, charge_move, fight)."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from domain.commands import Command, EndTurn, NextPhase, Who
from domain.limits import Facing


class NextPhaseW40K(NextPhase):
    """Move on to the next phase; ending the Movement phase first opens the
    window for Rapid Ingress, and the phase ends when it closes
    (CORE-PHASE-END-WINDOW)."""


class EndTurnW40K(EndTurn):
    """End the turn; from the Movement phase, the window for Rapid Ingress is
    answered first (CORE-PHASE-END-WINDOW)."""


class UseStratagem(Command):
    """Use a stratagem (STR-11): its targets, any +CP sections, and effect choices.

    Used proactively in a phase its WHEN allows, or in an open stratagem
    window by a player the window names. `enemy` is the enemy unit an effect
    selects (Grenade, Tank Shock); `at` where Rapid Ingress sets the unit up,
    facing `facing` (default: as it was fielded, else 0°); `replaces` the roll
    Command Re-roll replaces (default: the target's last).
    """

    who: ClassVar[Who] = "any"
    ignores_windows: ClassVar[bool] = True
    do: Literal["use_stratagem"] = "use_stratagem"
    unit_fields: ClassVar[tuple[str, ...]] = ("targets", "enemy")
    stratagem: str = Field(min_length=1)
    targets: tuple[str, ...] = ()
    sections: tuple[str, ...] = ()
    enemy: str | None = None
    at: tuple[float, float] | None = None
    facing: Facing | None = None
    replaces: str | None = None


class PassStratagem(Command):
    """Decline to use a stratagem in the open stratagem window."""

    who: ClassVar[Who] = "any"
    answers: ClassVar[tuple[str, ...]] = ("stratagem",)
    do: Literal["pass_stratagem"] = "pass_stratagem"


class GainCp(Command):
    """Gain CP from a source other than the Command phase (capped, RULINGS 40k)."""

    who: ClassVar[Who] = "any"
    do: Literal["gain_cp"] = "gain_cp"
    amount: int = Field(default=1, ge=1)
    source: str = Field(min_length=1)


class ModifyStratagemCost(Command):
    """A rule changes the CP cost of the issuing player's stratagem(s) (STR-21).

    `stratagem` None: all of them. `duration` None: the next use only (STR-23).
    """

    who: ClassVar[Who] = "any"
    do: Literal["modify_stratagem_cost"] = "modify_stratagem_cost"
    stratagem: str | None = None
    amount: int
    source: str = Field(min_length=1)
    duration: Literal["phase", "turn", "round", "battle"] | None = None


class TestBattleShock(Command):
    """Take the Battle-shock test a unit has due (2D6 against its Leadership)."""

    __test__ = False  # not a pytest test class
    do: Literal["test_battle_shock"] = "test_battle_shock"
    unit: str

    def ordered_units(self) -> tuple[str, ...]:
        return (self.unit,)


class Move(Command):
    """A Normal move: the unit's centre moves in a straight line to (x, y)."""

    do: Literal["move"] = "move"
    unit: str
    x: float
    y: float

    def ordered_units(self) -> tuple[str, ...]:
        return (self.unit,)


class Shoot(Command):
    """Select a unit to shoot and select its target."""

    do: Literal["shoot"] = "shoot"
    unit_fields: ClassVar[tuple[str, ...]] = ("target",)
    unit: str
    target: str

    def ordered_units(self) -> tuple[str, ...]:
        return (self.unit,)


class DeclareCharge(Command):
    """Declare a charge against enemy units within 12"; the charge roll (2D6) follows."""

    do: Literal["declare_charge"] = "declare_charge"
    unit_fields: ClassVar[tuple[str, ...]] = ("targets",)
    unit: str
    targets: tuple[str, ...] = Field(min_length=1)

    def ordered_units(self) -> tuple[str, ...]:
        return (self.unit,)


class ChargeMove(Command):
    """Make the Charge move to (x, y): no longer than the charge roll, ending engaged."""

    do: Literal["charge_move"] = "charge_move"
    unit: str
    x: float
    y: float

    def ordered_units(self) -> tuple[str, ...]:
        return (self.unit,)


class Fight(Command):
    """Select a unit to fight an enemy unit within Engagement Range (either player)."""

    who: ClassVar[Who] = "any"
    do: Literal["fight"] = "fight"
    unit_fields: ClassVar[tuple[str, ...]] = ("target",)
    unit: str
    target: str

    def ordered_units(self) -> tuple[str, ...]:
        return (self.unit,)


#: The rule set's own `next_phase` and `end_turn` replace the core ones
#: (`Ruleset.command_types` takes the rule set's commands last).
COMMANDS: tuple[type[Command], ...] = (
    NextPhaseW40K,
    EndTurnW40K,
    UseStratagem,
    PassStratagem,
    GainCp,
    ModifyStratagemCost,
    TestBattleShock,
    Move,
    Shoot,
    DeclareCharge,
    ChargeMove,
    Fight,
)
