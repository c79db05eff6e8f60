"""Applying the 40k facts: assignment only (no checks, no dice, no clock)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from domain.apply import ApplierTable
from domain.w40k.state import (
    CostModifier,
    CpEntry,
    HeldCharge,
    RollRecord,
    StratagemUse,
    W40KState,
)
from events.w40k import (
    BattleShockRecovered,
    BattleShockTested,
    BattleShockTestsCancelled,
    BattleShockTestsDue,
    ChargeDeclared,
    ChargeMoveEnded,
    ChargeRolled,
    ChargeRollHeld,
    CommandPointsGained,
    CommandPointsSpent,
    ConditionsGiven,
    CostModifierGranted,
    CostModifiersUsed,
    EffectRecorded,
    MortalWoundsRolled,
    MortalWoundsRolledV1,
    RollReplaced,
    ShootingTargetSelected,
    StratagemEffectsEnded,
    StratagemUsed,
    StratagemUsedV1,
    UnitArrived,
    UnitFought,
    UnitMoved,
)

#: The appliers of this rule set's facts (named by its wiring table in `rules.py`).
APPLIERS = ApplierTable()
applies = APPLIERS.on


E = TypeVar("E", StratagemUse, CostModifier, RollRecord)


def replaced(entries: list[E], which: Callable[[E], bool], **changes: Any) -> list[E]:
    """The entries, those `which` picks replaced by a copy with `changes` (they are
    frozen: a working copy shares them with the state it was copied from)."""
    return [entry.model_copy(update=changes) if which(entry) else entry for entry in entries]


def _ledger(state: W40KState, entry: CpEntry) -> None:
    state.player_state[entry.player].cp = entry.balance
    state.cp_ledger.append(entry)


def _record_roll(state: W40KState, ref: str, purpose: str, unit: str,
                 values: tuple[int, ...]) -> None:
    state.rolls.append(RollRecord(ref=ref, purpose=purpose, unit=unit, values=list(values),
                                  round=state.round, turn=state.active_player,
                                  phase=state.phase))


def _add_condition(state: W40KState, unit: str, condition: str) -> None:
    conditions = state.units[unit].conditions
    if condition not in conditions:
        conditions.append(condition)


# -- CP ------------------------------------------------------------------------------
@applies(CommandPointsGained)
def _cp_gained(state: W40KState, fact: CommandPointsGained) -> None:
    _ledger(state, CpEntry(player=fact.player, round=state.round, phase=state.phase,
                           change=fact.amount, source=fact.source, kind=fact.kind,
                           balance=fact.balance, lost=fact.lost))


@applies(CommandPointsSpent)
def _cp_spent(state: W40KState, fact: CommandPointsSpent) -> None:
    _ledger(state, CpEntry(player=fact.player, round=state.round, phase=state.phase,
                           change=-fact.amount, source=fact.source, kind="spent",
                           balance=fact.balance))


@applies(CostModifierGranted)
def _modifier_granted(state: W40KState, fact: CostModifierGranted) -> None:
    state.cost_modifiers.append(CostModifier(
        id=fact.id, player=fact.player, stratagem=fact.stratagem, amount=fact.amount,
        source=fact.source, duration=fact.duration, round=state.round,
        turn=state.active_player, phase=state.phase,
    ))


# -- stratagem uses ------------------------------------------------------------------
@applies(StratagemUsed)
def _stratagem_used(state: W40KState, fact: StratagemUsed) -> None:
    state.uses.append(StratagemUse(
        use=fact.use, player=fact.player, stratagem=fact.stratagem, name=fact.name,
        targets=list(fact.targets), cost=fact.cost, round=fact.round, turn=fact.turn,
        phase=fact.phase,
    ))
    for unit in fact.targets:
        state.units[unit].affected_by.append(fact.use)


@applies(CostModifiersUsed)
def _modifiers_used(state: W40KState, fact: CostModifiersUsed) -> None:
    state.cost_modifiers = replaced(state.cost_modifiers,
                                    lambda m: m.id in fact.modifiers, used=True)


@applies(StratagemUsedV1)
def _stratagem_used_v1(state: W40KState, fact: StratagemUsedV1) -> None:
    """v1 logs (class_version 1): the applier also decided which modifiers were one-use
    (kept exactly; new logs say it with `CostModifiersUsed`)."""
    _stratagem_used(state, fact)
    state.cost_modifiers = replaced(
        state.cost_modifiers, lambda m: m.id in fact.modifiers and m.duration is None,
        used=True)


@applies(ConditionsGiven)
def _conditions_given(state: W40KState, fact: ConditionsGiven) -> None:
    """The use keeps only the conditions it added: one the unit had already (from
    its datasheet or the script) stays when the effect ends."""
    had = set(state.units[fact.unit].conditions)
    for condition in fact.conditions:
        _add_condition(state, fact.unit, condition)
    use = next(u for u in state.uses if u.use == fact.use)
    kept = {**use.conditions, fact.unit: [c for c in fact.conditions if c not in had]}
    state.uses = replaced(state.uses, lambda u: u is use, conditions=kept)


@applies(EffectRecorded)
def _effect_recorded(state: W40KState, fact: EffectRecorded) -> None:
    """The effect is in the log; the use already lists its targets."""


@applies(StratagemEffectsEnded)
def _effects_ended(state: W40KState, fact: StratagemEffectsEnded) -> None:
    ended = [use for use in state.uses if use.use in fact.uses]
    state.uses = replaced(state.uses, lambda u: u.use in fact.uses, active=False)
    for use in ended:
        for unit in use.targets:
            affected = state.units[unit].affected_by
            state.units[unit].affected_by = [a for a in affected if a != use.use]
    for unit, conditions in fact.conditions_removed.items():
        state.units[unit].conditions = [
            c for c in state.units[unit].conditions if c not in conditions
        ]


@applies(RollReplaced)
def _roll_replaced(state: W40KState, fact: RollReplaced) -> None:
    state.rolls = replaced(state.rolls, lambda r: r.ref == fact.roll, replaced_by=fact.by)


@applies(MortalWoundsRolled)
def _mortal_wounds(state: W40KState, fact: MortalWoundsRolled) -> None:
    _record_roll(state, fact.roll, "mortal-wounds", fact.unit, fact.values)
    enemy = state.units[fact.enemy]
    enemy.wounds_left = fact.wounds_left
    enemy.models = fact.models_left
    if fact.destroyed:
        enemy.status = "removed"


@applies(BattleShockTestsCancelled)
def _tests_cancelled(state: W40KState, fact: BattleShockTestsCancelled) -> None:
    state.battle_shock_due = [u for u in state.battle_shock_due if u not in fact.units]


@applies(MortalWoundsRolledV1)
def _mortal_wounds_v1(state: W40KState, fact: MortalWoundsRolledV1) -> None:
    """v1 logs (class_version 1): the applier also cancelled a destroyed unit's test
    (kept exactly; new logs say it with `BattleShockTestsCancelled`)."""
    _mortal_wounds(state, fact)
    if fact.destroyed:
        state.battle_shock_due = [u for u in state.battle_shock_due if u != fact.enemy]


@applies(UnitArrived)
def _unit_arrived(state: W40KState, fact: UnitArrived) -> None:
    unit = state.units[fact.unit]
    unit.status = "on_table"
    unit.x, unit.y, unit.facing = fact.x, fact.y, fact.facing


# -- Battle-shock ----------------------------------------------------------------------
@applies(BattleShockTestsDue)
def _tests_due(state: W40KState, fact: BattleShockTestsDue) -> None:
    state.battle_shock_due = list(fact.units)


@applies(BattleShockRecovered)
def _recovered(state: W40KState, fact: BattleShockRecovered) -> None:
    for unit in fact.units:
        state.units[unit].conditions = [
            c for c in state.units[unit].conditions if c != "battle_shocked"
        ]


@applies(BattleShockTested)
def _tested(state: W40KState, fact: BattleShockTested) -> None:
    if fact.roll is not None:
        _record_roll(state, fact.roll, "battle-shock", fact.unit, fact.values)
    state.battle_shock_due = [u for u in state.battle_shock_due if u != fact.unit]
    unit = state.units[fact.unit]
    unit.conditions = [c for c in unit.conditions if c != "battle_shocked"]
    if not fact.passed:
        unit.conditions.append("battle_shocked")


# -- unit actions -------------------------------------------------------------------------
def _moved_to(state: W40KState, unit_id: str, x: float, y: float, action: str) -> None:
    unit = state.units[unit_id]
    unit.x, unit.y = x, y
    unit.acted[action] = state.key()


@applies(UnitMoved)
def _moved(state: W40KState, fact: UnitMoved) -> None:
    _moved_to(state, fact.unit, fact.x, fact.y, "moved")


@applies(ShootingTargetSelected)
def _target_selected(state: W40KState, fact: ShootingTargetSelected) -> None:
    state.units[fact.unit].acted["shot"] = state.key()


@applies(ChargeDeclared)
def _charge_declared(state: W40KState, fact: ChargeDeclared) -> None:
    state.units[fact.unit].acted["declared a charge"] = state.key()
    state.charges[fact.unit] = list(fact.targets)


@applies(ChargeRollHeld)
def _charge_roll_held(state: W40KState, fact: ChargeRollHeld) -> None:
    state.held_charge = HeldCharge(unit=fact.unit,
                                   dice=list(fact.dice) if fact.dice is not None else None)


@applies(ChargeRolled)
def _charge_rolled(state: W40KState, fact: ChargeRolled) -> None:
    _record_roll(state, fact.roll, "charge", fact.unit, fact.values)
    if state.held_charge is not None and state.held_charge.unit == fact.unit:
        state.held_charge = None


@applies(ChargeMoveEnded)
def _charge_move_ended(state: W40KState, fact: ChargeMoveEnded) -> None:
    _moved_to(state, fact.unit, fact.x, fact.y, "charged")


@applies(UnitFought)
def _fought(state: W40KState, fact: UnitFought) -> None:
    state.units[fact.unit].acted["fought"] = state.key()
