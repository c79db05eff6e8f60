"""The T9A rule set: its state, units, commands and hooks.

Its wiring table (`WIRING`) names the handler of each command, from the
clause-group modules (`deployment`, `joining`, `rolls`, `arrival`, `moves`),
its appliers, facts and board overlays.
"""

from __future__ import annotations

from typing import Any

from domain.decision import Decision
from domain.errors import RuleViolation, ScriptError
from domain.rules_version import RulesChange, at_least
from domain.ruleset import Ruleset, Setup, Wiring, facts_of
from domain.state import GameState
from domain.t9a import apply, arrival, deployment, joining, moves, rolls
from domain.t9a.ambushers import is_ambush_eligible
from domain.t9a.arrival_points import ARRIVAL_POINTS
from domain.t9a.combining import check_join, check_model_in_ambush
from domain.t9a.commands import (
    T9A_COMMANDS,
    Advance,
    Arrive,
    Attach,
    DeclareAmbush,
    Deploy,
    March,
    Reform,
    RollAmbush,
)
from domain.t9a.flow import GAME_END_RULES, PHASE_END_RULES, PHASE_START_RULES
from domain.t9a.footing import check_formation, check_unit_spacing
from domain.t9a.machine import MACHINE
from domain.t9a.units import IN_AMBUSH, T9AState, T9AUnit, as_t9a
from events import t9a as t9a_facts
from events.base import Fact
from events.core import UnitFielded

__all__ = ["RULES", "T9A", "T9AState", "T9AUnit", "as_t9a"]

#: The T9A rules versions after the first (`domain.rules_version`): each gates the
#: rule it changes, so a game keeps the verdicts of the version that decided it.
RULES_CHANGES = (
    RulesChange(2, ("AMB-11",), "a unit whose Ambush (X) has no arrival-point rule is "
                "refused at set-up: no arrival could ever be accepted for it"),
    RulesChange(3, ("AMB-23",), "an Attachable Model in Ambush chooses its unit once each "
                "Player Turn, not one host after another"),
)
#: The T9A rules version from which an Ambush (X) with no arrival rule is refused
#: at set-up.
NO_ARRIVAL_REFUSED_AT_SETUP = 2

WIRING = Wiring(
    handlers={
        Deploy: deployment.decide_deploy,
        DeclareAmbush: deployment.decide_ambush,
        Attach: joining.decide_attach,
        RollAmbush: rolls.decide_roll_ambush,
        Arrive: arrival.decide_arrive,
        Advance: moves.decide_advance,
        March: moves.decide_march,
        Reform: moves.decide_reform,
    },
    appliers=apply.APPLIERS,
    facts=facts_of(t9a_facts),
    overlays="projections.t9a:t9a_overlays",
    rules_changes=RULES_CHANGES,
    # A moving unit may not enter Impassable Terrain (RULINGS, Unit Spacing: AMB-15).
    movement_blockers=frozenset({"impassable"}),
    markers={t9a_facts.T9ARemovedAsCasualty: "casualty"},
)


class T9A(Ruleset):
    """The 9th Age, with Ambush."""

    name = "t9a"
    title = "The 9th Age: Ambush"
    state_type = T9AState
    machine = MACHINE
    commands = T9A_COMMANDS
    last_round = 6
    result_points_max = 20
    result_points_name = "battle points (the 20-0 score)"
    wiring = WIRING

    def setup_facts(self, setup: Setup) -> list[Fact]:
        """Field the script's units; a unit fielded already in Ambush must be eligible
        (AMB-02), and one fielded joined to a unit must be allowed to join it (AMB-21,
        AMB-22)."""
        facts = super().setup_facts(setup)
        fielded = (T9AUnit.model_validate(f.unit) for f in facts if isinstance(f, UnitFielded))
        units = {unit.id: unit for unit in fielded}
        for unit in units.values():
            check_fielded_ambusher(unit)
            if unit.joined_to is not None:
                check_fielded_join(unit, units)
        return facts

    def check_setup(self, state: GameState) -> None:
        """Units fielded on the table stand in a legal formation (CORE-FORMATION), and
        each unit with Ambush (X) could arrive (AMB-11)."""
        super().check_setup(state)
        t9a = as_t9a(state)
        for unit in t9a.t9a_units():
            check_can_arrive(t9a, unit)
            shape = unit.footprint()
            if shape is None:
                continue
            try:
                check_formation(unit, unit.files, unit.ranks, clause="CORE-FORMATION")
                check_unit_spacing(t9a, unit, shape, clause="CORE-UNIT-SPACING")
            except RuleViolation as problem:
                raise ScriptError(f"units: {problem.message} ({problem.rule})") from None

    def on_phase_start(self, d: Decision) -> None:
        state = as_t9a(d.state)
        for rule in PHASE_START_RULES.get(state.phase, ()):
            rule(d, state)

    def on_phase_end(self, d: Decision) -> None:
        state = as_t9a(d.state)
        for rule in PHASE_END_RULES.get(state.phase, ()):
            rule(d, state)

    def on_game_end(self, d: Decision) -> None:
        state = as_t9a(d.state)
        for rule in GAME_END_RULES:
            rule(d, state)

    def view_extra(self, state: GameState, as_player: str | None) -> dict[str, Any]:
        """`ambush_rolled`: player -> the Game Turn of their last Ambush rolls."""
        return {"ambush_rolled": dict(sorted(as_t9a(state).ambush_rolled.items()))}


def check_can_arrive(state: T9AState, unit: T9AUnit) -> None:
    """AMB-11 (T9A rules version 2): a unit with Ambush (X) arrives at a point X
    specifies; an X with no arrival-point rule (A-AMB-02) could never arrive, so the
    set-up is refused rather than the unit waiting in Ambush for ever."""
    x = unit.rules.ambush
    if x is None or x in ARRIVAL_POINTS or not at_least(state, t9a=NO_ARRIVAL_REFUSED_AT_SETUP):
        return
    known = ", ".join(sorted(ARRIVAL_POINTS))
    raise ScriptError(f"units: AMB-11: {unit.id} has Ambush ({x}), which has no arrival-point "
                      f"rule (known: {known}), so it could never arrive (A-AMB-02)")


def check_fielded_ambusher(unit: T9AUnit) -> None:
    """A script unit fielded in Ambush is off the table (status `reserve`) and
    eligible (AMB-02)."""
    if IN_AMBUSH in unit.conditions and unit.status != "reserve":
        raise ScriptError(f"unit {unit.id!r} has the condition {IN_AMBUSH!r} but status "
                          f"{unit.status!r}; a unit in Ambush has status 'reserve'")
    if unit.in_ambush and not is_ambush_eligible(unit):
        raise ScriptError(f"unit {unit.id!r} is in Ambush but not all its models "
                          "have Ambush (AMB-02)")


def check_fielded_join(model: T9AUnit, units: dict[str, T9AUnit]) -> None:
    """A script unit fielded with `joined_to` is an Attachable Model in Ambush joined to
    a unit it may join (AMB-21, AMB-22); else the script is malformed."""
    host = units.get(model.joined_to or "")
    if host is None:
        raise ScriptError(f"unit {model.id!r} is joined to {model.joined_to!r}, which is not "
                          "a unit of the script")
    try:
        check_model_in_ambush(model)
        check_join(model, host)
    except RuleViolation as breach:
        raise ScriptError(f"unit {model.id!r} cannot be joined to {host.id!r}: "
                          f"{breach.message} ({breach.rule})") from None


RULES = T9A()
RULESET = RULES
