"""Battle-shock (RULINGS 40k): in their Command phase, each of the active player's
units below half strength takes a 2D6 Leadership test; one that fails is
battle-shocked until its owner's next Command phase (CORE-BATTLE-SHOCK)."""

from __future__ import annotations

from domain.decision import Decision
from domain.errors import RuleViolation
from domain.w40k.catalog import AutoPassBattleShockEffect, stratagems_of
from domain.w40k.commands import TestBattleShock
from domain.w40k.state import W40KState, W40KUnit, game, phase_key
from domain.words import counted
from events.w40k import BattleShockRecovered, BattleShockTested, BattleShockTestsDue


def start_battle_shock_step(d: Decision) -> None:
    """The active player's units recover from Battle-shock; those below half
    strength must now test (CORE-BATTLE-SHOCK)."""
    state = game(d)
    mine = [u for _, u in sorted(dict.items(state.units)) if u.owner == state.active_player]
    # read only (`domain.state.to_read`), so both lists are made before any fact
    recovered = tuple(u.id for u in mine if "battle_shocked" in u.conditions)
    due = tuple(u.id for u in mine if u.status == "on_table" and u.is_below_half_strength())
    if recovered:
        d.emit(BattleShockRecovered(units=recovered))
    if due:
        d.emit(BattleShockTestsDue(units=due))


def decide_test_battle_shock(d: Decision, cmd: TestBattleShock) -> None:
    """CORE-BATTLE-SHOCK: a unit tests only when a test is due (below half strength
    at the start of its Command phase, not tested yet)."""
    state = game(d)
    unit = state.unit(cmd.unit)
    taken = test_taken(state, unit)
    if unit.id not in state.battle_shock_due and taken is not None:
        raise RuleViolation(
            "CORE-BATTLE-SHOCK",
            f"{unit.id} has already taken its Battle-shock test this phase: {taken}",
        )
    if unit.id not in state.battle_shock_due:
        raise RuleViolation(
            "CORE-BATTLE-SHOCK",
            f"{unit.id} has no Battle-shock test due ({unit.models} of "
            f"{counted(unit.starting_strength, 'model')}; tests are due at the start of the "
            f"Command phase for units below half strength)",
        )
    take_battle_shock_test(d, unit)


def test_taken(state: W40KState, unit: W40KUnit) -> str | None:
    """How the unit's Battle-shock test of this phase was taken, if it was: passed
    by a stratagem (Insane Bravery), or its roll (the re-rolled one, if re-rolled)."""
    catalog = stratagems_of(state.options)
    for use in reversed(state.uses):
        stratagem = catalog.get(use.stratagem)
        if (use.phase_key == state.key() and unit.id in use.targets and stratagem is not None
                and isinstance(stratagem.effect, AutoPassBattleShockEffect)):
            return f"{use.name} ({use.use}) passed it automatically"
    for roll in reversed(state.rolls):
        if (roll.unit == unit.id and roll.purpose == "battle-shock" and roll.replaced_by is None
                and phase_key(roll.round, roll.turn, roll.phase) == state.key()):
            total = sum(roll.values)
            verdict = "passed" if total >= unit.leadership else "failed"
            return (f"{roll.ref} rolled {total} against Leadership {unit.leadership} and "
                    f"{verdict}")
    return None


def take_battle_shock_test(d: Decision, unit: W40KUnit) -> None:
    """Roll 2D6: at or above the unit's Leadership it passes; otherwise it is battle-shocked."""
    state = game(d)
    values = d.roll("battle-shock", 2, 6, unit.id)
    d.emit(BattleShockTested(unit=unit.id, roll=state.next_roll_ref(), values=values,
                             leadership=unit.leadership,
                             passed=sum(values) >= unit.leadership))


def take_remaining_tests(d: Decision) -> None:
    """Leaving the Command phase, the tests not yet taken are taken now."""
    state = game(d)
    for unit_id in list(state.battle_shock_due):
        take_battle_shock_test(d, state.unit(unit_id))
