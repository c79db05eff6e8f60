"""The Mage Knight rule set: its state, commands and the hooks around each phase."""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from domain.decision import Decision
from domain.mageknight import (
    apply,
    charge,
    combat,
    commands,
    contact,
    dark_alliance,
    dismounting,
    formations,
    items,
    mounting,
    moving,
    pushing,
    restrictions,
    ride_by_shot,
    trample,
    unhorse,
)
from domain.mageknight.actions import end_player_turn
from domain.mageknight.building import army_points, link_cavalry_units, victory_points
from domain.mageknight.commands import MK_COMMANDS
from domain.mageknight.fielding import (
    check_bases_clear,
    check_script_conditions,
    equipment_facts,
    unique_item_ids,
)
from domain.mageknight.intelligence import (
    end_evil_allegiance,
    remove_timid_mounts,
    turn_evil_mounts,
)
from domain.mageknight.machine import MACHINE
from domain.mageknight.state import Figure, Item, MageKnightState
from domain.ruleset import Ruleset, Setup, Wiring, facts_of
from domain.state import GameState
from events import mageknight as mageknight_facts
from events.base import Fact
from events.core import GameStarted

__all__ = ["RULES", "RULESET", "Figure", "MageKnight", "MageKnightState"]


class MageKnightOptions(BaseModel):
    """The options a Mage Knight script may set."""

    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)

    actions_per_turn: int = Field(default=3, ge=1, le=100)
    items: list[Item] = Field(default_factory=list)
    dark_alliance_once_per: Literal["unit", "player"] = "unit"
    score_removed_from_game: bool = True

    @field_validator("items")
    @classmethod
    def _unique_item_ids(cls, items: list[Item]) -> list[Item]:
        """CORE-MK-ITEMS: no item id twice."""
        return unique_item_ids(items)


WIRING = Wiring(
    handlers={
        commands.Charge: charge.decide_charge,
        commands.CloseAttack: combat.decide_close_attack,
        commands.RangedAttack: combat.decide_ranged_attack,
        commands.Poison: contact.decide_poison,
        commands.DarkAlliance: dark_alliance.decide_dark_alliance,
        commands.Dismount: dismounting.decide_dismount,
        commands.DeclareFormation: formations.decide_declare_formation,
        commands.DropItem: items.decide_drop_item,
        commands.PickUpItem: items.decide_pick_up_item,
        commands.MountUp: mounting.decide_mount,
        commands.Move: moving.decide_move,
        commands.ChoosePushing: pushing.decide_choose_pushing,
        commands.FreeSpin: restrictions.decide_free_spin,
        commands.Capture: restrictions.decide_capture,
        commands.UseAbility: restrictions.decide_use_ability,
        commands.RideByShot: ride_by_shot.decide_ride_by_shot,
        commands.Trample: trample.decide_trample,
        commands.Unhorse: unhorse.decide_unhorse,
    },
    appliers=apply.APPLIERS,
    facts=facts_of(mageknight_facts),
    overlays="projections.mageknight:mageknight_overlays",
    #: Its rules versions after the first (`domain.rules_version`): none yet, so every
    #: Mage Knight game is decided under version 1.
    rules_changes=(),
    markers={mageknight_facts.FigureEliminated: "casualty",
             mageknight_facts.RiderLost: "casualty"},
)


class MageKnight(Ruleset):
    """Mage Knight 2.0, with mounts and cavalry."""

    name = "mageknight-2"
    title = "Mage Knight 2.0: Mounts"
    state_type = MageKnightState
    machine = MACHINE
    commands = MK_COMMANDS
    wiring = WIRING
    last_round = 10
    result_points_name = "points of the opposing figures eliminated (CORE-MK-SCORE)"
    options_model = MageKnightOptions
    default_options: ClassVar[dict[str, Any]] = {
        "actions_per_turn": 3,
        "items": [],
        "dark_alliance_once_per": "unit",
        "score_removed_from_game": True,
    }

    def initial_state(self, started: GameStarted) -> GameState:
        """The state, with the items the script puts on the table or in hands."""
        state = super().initial_state(started)
        assert isinstance(state, MageKnightState)
        for raw in state.options.get("items", []):
            item = Item.model_validate(raw)
            state.items[item.id] = item
        return state

    def setup_facts(self, setup: Setup) -> list[Fact]:
        """One `UnitFielded` per figure, riders already seated on their mounts, then
        one `ItemEquipped` per item a figure carries (CORE-MK-SETUP, CORE-MK-ITEMS)."""
        fielded = super().setup_facts(setup)
        check_script_conditions(fielded)
        linked = link_cavalry_units(fielded)
        return [*linked, *equipment_facts(setup, linked)]

    def check_setup(self, state: GameState) -> None:
        """Every figure on the board (core), its base clear of the others and of
        blocking terrain (CORE-MK-MOVE)."""
        super().check_setup(state)
        assert isinstance(state, MageKnightState)
        check_bases_clear(state)

    def on_phase_start(self, d: Decision) -> None:
        """Intelligence levels are checked at every player's phases (A-MNT-15)."""
        if d.state.phase == "command":
            turn_evil_mounts(d)
        elif d.state.phase == "end":
            remove_timid_mounts(d)

    def on_phase_end(self, d: Decision) -> None:
        """At the end of a player turn: a skipped end phase still starts (Timid
        mounts), idle figures lose their tokens, Evil mounts go back."""
        if d.dest != self.machine.phases[0]:
            return
        if d.state.phase != "end":
            remove_timid_mounts(d)
        end_player_turn(d)
        end_evil_allegiance(d)

    def view_extra(self, state: GameState, as_player: str | None) -> dict[str, Any]:
        """The build totals (MNT-24), the victory points, the items, and this
        turn's action count."""
        assert isinstance(state, MageKnightState)
        return {
            "army_points": army_points(state),
            "victory_points": victory_points(state),
            "items": {i: item.model_dump(mode="json") for i, item in sorted(state.items.items())},
            "actions_used": state.actions_used,
        }

    def result_points(self, state: GameState) -> dict[str, int] | None:
        """A result scores the victory points of CORE-MK-SCORE: the points of each
        opposing figure eliminated in the player's turn (docs/results.md)."""
        assert isinstance(state, MageKnightState)
        return victory_points(state)


RULES = MageKnight()
RULESET = RULES
