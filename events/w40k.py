"""Facts of the Warhammer 40,000 10th edition rule set (Stratagems, STR).

Each fact records an outcome: CP as gained or spent (with the balance after),
a stratagem use with its targets and final cost, dice as rolled (with a roll
reference `R<n>` that Command Re-roll can name), a unit as moved.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from events.base import Fact, fact, legacy, same_fields

CpGainKind = Literal["command_phase", "other"]
ModifierDuration = Literal["phase", "turn", "round", "battle"]


# -- Command points -------------------------------------------------------------
@fact
class CommandPointsGained(Fact):
    """A player gained CP; `lost` is what the once-per-round cap threw away."""

    type: Literal["CommandPointsGained"] = "CommandPointsGained"
    player: str
    amount: int
    lost: int = 0
    source: str
    kind: CpGainKind
    balance: int


@fact
class CommandPointsSpent(Fact):
    """A player paid CP for a stratagem use (STR-13)."""

    type: Literal["CommandPointsSpent"] = "CommandPointsSpent"
    player: str
    amount: int
    source: str
    balance: int


@fact
class CostModifierGranted(Fact):
    """A rule changed the CP cost of a player's stratagem(s) (STR-21).

    `stratagem` None means every stratagem; `duration` None means the next
    use only (STR-23).
    """

    type: Literal["CostModifierGranted"] = "CostModifierGranted"
    id: str
    player: str
    stratagem: str | None
    amount: int
    source: str
    duration: ModifierDuration | None = None


# -- Stratagem uses ---------------------------------------------------------------
@fact
class StratagemUsed(Fact):
    """Step 1 of a use (STR-12): the stratagem, its targets, and its final cost.

    Version 2 has the same fields; the one-use modifiers it takes are spent by
    `CostModifiersUsed`, which follows it."""

    class_version = 2
    type: Literal["StratagemUsed"] = "StratagemUsed"
    use: str
    player: str
    stratagem: str
    name: str
    targets: tuple[str, ...]
    sections: tuple[str, ...] = ()
    base_cost: int
    section_cost: int = 0
    modifiers: tuple[str, ...] = ()
    modifier_total: int = 0
    cost: int
    round: int
    turn: str
    phase: str
    trigger: str | None = None

    @staticmethod
    @same_fields
    def upcast_v1_v2(data: dict[str, Any]) -> None:
        """v1 → v2: the same fields (a stored v1 fact is read as its legacy class)."""


@legacy
class StratagemUsedV1(StratagemUsed):
    """`StratagemUsed` as v1 logs (class_version 1) stored it: its applier also marked
    the one-use cost modifiers it took as used (since v2: `CostModifiersUsed`)."""

    class_version = 1


@fact
class CostModifiersUsed(Fact):
    """STR-23: these one-use cost modifiers were taken by a use and are spent."""

    implicit_in_legacy = True
    type: Literal["CostModifiersUsed"] = "CostModifiersUsed"
    use: str
    modifiers: tuple[str, ...]


@fact
class ConditionsGiven(Fact):
    """A stratagem's effect gave a unit conditions until the end of the phase."""

    type: Literal["ConditionsGiven"] = "ConditionsGiven"
    use: str
    unit: str
    conditions: tuple[str, ...]


@fact
class EffectRecorded(Fact):
    """An effect the engine does not resolve itself, recorded with its targets."""

    type: Literal["EffectRecorded"] = "EffectRecorded"
    use: str
    stratagem: str
    targets: tuple[str, ...]
    effect: str
    enemy: str | None = None


@fact
class StratagemEffectsEnded(Fact):
    """The phase ended: these uses no longer affect their targets (STR-24)."""

    type: Literal["StratagemEffectsEnded"] = "StratagemEffectsEnded"
    uses: tuple[str, ...]
    conditions_removed: dict[str, tuple[str, ...]] = Field(default_factory=dict)


@fact
class RollReplaced(Fact):
    """A roll was re-rolled: roll `roll` stays in the log, replaced by `by`."""

    type: Literal["RollReplaced"] = "RollReplaced"
    roll: str
    by: str
    use: str


@fact
class MortalWoundsRolled(Fact):
    """Dice were rolled for mortal wounds against an enemy unit, and it suffered them.

    Version 2 has the same fields; a destroyed unit's Battle-shock test due is
    cancelled by `BattleShockTestsCancelled`, which follows it."""

    class_version = 2
    type: Literal["MortalWoundsRolled"] = "MortalWoundsRolled"
    use: str
    unit: str
    enemy: str
    roll: str
    values: tuple[int, ...]
    success: int
    mortal_wounds: int
    wounds_left: int
    models_left: int
    destroyed: bool = False

    @staticmethod
    @same_fields
    def upcast_v1_v2(data: dict[str, Any]) -> None:
        """v1 → v2: the same fields (a stored v1 fact is read as its legacy class)."""


@legacy
class MortalWoundsRolledV1(MortalWoundsRolled):
    """`MortalWoundsRolled` as v1 logs (class_version 1) stored it: its applier also took
    a destroyed unit off the Battle-shock tests due (since v2: `BattleShockTestsCancelled`)."""

    class_version = 1


@fact
class BattleShockTestsCancelled(Fact):
    """CORE-BATTLE-SHOCK tests units on the battlefield: these destroyed units owe
    no test any more."""

    implicit_in_legacy = True
    type: Literal["BattleShockTestsCancelled"] = "BattleShockTestsCancelled"
    units: tuple[str, ...]


@fact
class UnitArrived(Fact):
    """A unit in reserves was set up on the battlefield."""

    type: Literal["UnitArrived"] = "UnitArrived"
    unit: str
    x: float
    y: float
    facing: float = 0.0
    use: str | None = None


# -- Battle-shock -------------------------------------------------------------------
@fact
class BattleShockTestsDue(Fact):
    """At the start of their Command phase these units below half strength must test."""

    type: Literal["BattleShockTestsDue"] = "BattleShockTestsDue"
    units: tuple[str, ...]


@fact
class BattleShockRecovered(Fact):
    """The owner's Command phase began: these units are no longer battle-shocked."""

    type: Literal["BattleShockRecovered"] = "BattleShockRecovered"
    units: tuple[str, ...]


@fact
class BattleShockTested(Fact):
    """A Battle-shock test was taken (2D6 ≥ Leadership passes) or passed automatically."""

    type: Literal["BattleShockTested"] = "BattleShockTested"
    unit: str
    roll: str | None
    values: tuple[int, ...] = ()
    leadership: int
    passed: bool
    automatic: bool = False
    use: str | None = None


# -- Unit actions (the triggers of reactive stratagems) ---------------------------------
@fact
class UnitMoved(Fact):
    """A unit made a Normal move."""

    type: Literal["UnitMoved"] = "UnitMoved"
    unit: str
    x: float
    y: float
    distance: float


@fact
class ShootingTargetSelected(Fact):
    """A unit selected to shoot and picked its target."""

    type: Literal["ShootingTargetSelected"] = "ShootingTargetSelected"
    unit: str
    target: str


@fact
class ChargeDeclared(Fact):
    """A unit declared a charge against enemy units."""

    type: Literal["ChargeDeclared"] = "ChargeDeclared"
    unit: str
    targets: tuple[str, ...]


@fact
class ChargeRollHeld(Fact):
    """The charge roll waits for the stratagem window its declaration opened (Fire
    Overwatch is chosen before the roll, CORE-CHARGE; w40k rules version 2). `dice`:
    physical dice the declaring step carried, kept for that roll."""

    type: Literal["ChargeRollHeld"] = "ChargeRollHeld"
    unit: str
    dice: tuple[int, ...] | None = None


@fact
class ChargeRolled(Fact):
    """A charge roll (2D6)."""

    type: Literal["ChargeRolled"] = "ChargeRolled"
    unit: str
    roll: str
    values: tuple[int, ...]
    use: str | None = None


@fact
class ChargeMoveEnded(Fact):
    """A unit ended its Charge move here."""

    type: Literal["ChargeMoveEnded"] = "ChargeMoveEnded"
    unit: str
    x: float
    y: float
    distance: float


@fact
class UnitFought(Fact):
    """A unit was selected to fight and fought an enemy unit."""

    type: Literal["UnitFought"] = "UnitFought"
    unit: str
    target: str
