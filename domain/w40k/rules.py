"""The 40k rule set: its state, commands, handlers and hooks, wired in one place."""

from __future__ import annotations

from typing import Any, ClassVar

from domain.commands import Command
from domain.decision import Decision
from domain.errors import ScriptError
from domain.rules_version import RulesChange
from domain.ruleset import Handler, Ruleset, Setup, Wiring, facts_of
from domain.state import GameState
from domain.w40k import apply
from domain.w40k.actions import (
    decide_charge_move,
    decide_declare_charge,
    decide_fight,
    decide_move,
    decide_shoot,
)
from domain.w40k.battle_shock import (
    decide_test_battle_shock,
    start_battle_shock_step,
    take_remaining_tests,
)
from domain.w40k.catalog import validate_catalogs
from domain.w40k.command_points import decide_gain_cp, gain_command_phase_cp
from domain.w40k.commands import (
    COMMANDS,
    ChargeMove,
    DeclareCharge,
    EndTurnW40K,
    Fight,
    GainCp,
    ModifyStratagemCost,
    Move,
    NextPhaseW40K,
    PassStratagem,
    Shoot,
    TestBattleShock,
    UseStratagem,
)
from domain.w40k.cost import decide_modify_stratagem_cost
from domain.w40k.fielding import check_bases_clear
from domain.w40k.machine import MACHINE
from domain.w40k.phases import end_stratagem_effects
from domain.w40k.state import CpEntry, W40KState, W40KUnit, game
from domain.w40k.timing import TIMING, TimingMachine
from domain.w40k.use import decide_pass_stratagem, decide_use_stratagem
from domain.w40k.windows import decide_end_turn, decide_next_phase
from events import w40k as w40k_facts
from events.base import Fact
from events.core import GameStarted, UnitFielded
from events.w40k import BattleShockTestsDue, CommandPointsGained

__all__ = ["RULES", "W40K", "W40KState", "W40KUnit"]

HANDLERS: dict[type[Command], Handler] = {
    NextPhaseW40K: decide_next_phase,
    EndTurnW40K: decide_end_turn,
    UseStratagem: decide_use_stratagem,
    PassStratagem: decide_pass_stratagem,
    GainCp: decide_gain_cp,
    ModifyStratagemCost: decide_modify_stratagem_cost,
    TestBattleShock: decide_test_battle_shock,
    Move: decide_move,
    Shoot: decide_shoot,
    DeclareCharge: decide_declare_charge,
    ChargeMove: decide_charge_move,
    Fight: decide_fight,
}

#: The 40k rules versions after the first (`domain.rules_version`): each gates the
#: rule it changes, so a game keeps the verdicts of the version that decided it.
RULES_CHANGES = (
    RulesChange(2, ("CORE-CHARGE", "STR-04"), "a charge is rolled after the stratagem "
                "window its declaration opens (Fire Overwatch is chosen before the roll)"),
    RulesChange(3, ("STR-04", "CORE-SELECTED-TO-FIGHT"), "Epic Challenge is used as its "
                "CHARACTER unit is selected to fight: that unit fights next"),
    RulesChange(4, ("STR-16",), "Command Re-roll is used just after the roll it replaces: "
                "the roll was made by the step just before the re-roll"),
)

WIRING = Wiring(
    handlers=HANDLERS,
    appliers=apply.APPLIERS,
    facts=facts_of(w40k_facts),
    overlays="projections.w40k:w40k_overlays",
    rules_changes=RULES_CHANGES,
    markers={w40k_facts.StratagemUsed: "stratagem"},
)


class W40K(Ruleset):
    """Warhammer 40,000 10th edition, with Stratagems."""

    name = "w40k-10"
    title = "Warhammer 40,000 10th edition: Stratagems"
    state_type = W40KState
    machine = MACHINE
    commands = COMMANDS
    wiring = WIRING
    last_round = 5
    result_points_max = 100
    result_points_name = "victory points (at most 100)"
    default_options: ClassVar[dict[str, Any]] = {"cp": 0, "catalogs": []}
    file_options: ClassVar[tuple[str, ...]] = ("catalogs",)
    extra_machines: ClassVar[dict[str, TimingMachine]] = {"stratagem_timing": TIMING}

    def validate_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """Also validate and inline the codex catalogs (STR-20)."""
        checked = super().validate_options(options)
        cp = checked["cp"]
        if not isinstance(cp, int) or isinstance(cp, bool) or cp < 0:
            raise ScriptError(f"options.cp: starting CP must be a whole number of 0 or more, "
                              f"not {cp!r} (A-STR-12)")
        checked["catalogs"] = validate_catalogs(checked["catalogs"])
        return checked

    def initial_state(self, started: GameStarted) -> GameState:
        """The new state, its CP ledger opening with each player's starting CP."""
        state = super().initial_state(started)
        assert isinstance(state, W40KState)
        for player, ps in state.player_state.items():
            state.cp_ledger.append(CpEntry(
                player=player, round=state.round, phase=state.phase, change=ps.cp,
                source="starting CP (option cp)", kind="start", balance=ps.cp,
            ))
        return state

    def setup_facts(self, setup: Setup) -> list[Fact]:
        """The units, then the start of the first Command phase: the game starts
        in it, so no phase-start hook runs for it (RULINGS 40k: every Command
        phase gives CP and has a Battle-shock step)."""
        fielded = super().setup_facts(setup)
        start = int(setup.options.get("cp", 0))
        first = setup.players[0]
        facts: list[Fact] = [*fielded, *(
            CommandPointsGained(player=p, amount=1, source=f"Command phase ({first}'s turn)",
                                kind="command_phase", balance=start + 1)
            for p in setup.players
        )]
        army = [W40KUnit.model_validate(f.unit) for f in fielded if isinstance(f, UnitFielded)]
        due = tuple(u.id for u in army if u.owner == first and u.status == "on_table"
                    and u.is_below_half_strength())
        if due:
            facts.append(BattleShockTestsDue(units=due))
        return facts

    def check_setup(self, state: GameState) -> None:
        """Every base on the battlefield (core), clear of the others and off blocking
        and impassable terrain (CORE-W40K-SETUP)."""
        super().check_setup(state)
        assert isinstance(state, W40KState)
        check_bases_clear(state)

    def on_phase_start(self, d: Decision) -> None:
        """Command phase: both players gain 1 CP; Battle-shock step."""
        if d.state.phase == "command":
            gain_command_phase_cp(d)
            start_battle_shock_step(d)

    def on_phase_end(self, d: Decision) -> None:
        """Tests still due are taken; stratagem effects end. (The window for the
        end of the Movement phase opened before: `windows.hold_phase_end`.)"""
        if game(d).phase == "command":
            take_remaining_tests(d)
        end_stratagem_effects(d)

    def view_extra(self, state: GameState, as_player: str | None) -> dict[str, Any]:
        """The CP ledger, stratagem uses, cost modifiers, rolls and tests due."""
        assert isinstance(state, W40KState)
        return state.view_extra()


RULES = W40K()
W40K_RULES = RULES
