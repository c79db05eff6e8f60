"""The Infinity N4 rule set: its state, commands, machines and hooks."""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field

from domain.decision import Decision
from domain.errors import ScriptError
from domain.infinity import apply, aro, cautious, commands, movement
from domain.infinity.commands import COMMANDS
from domain.infinity.machine import MACHINE, ORDER_MACHINE
from domain.infinity.movement import ends_on_base_problem, terrain_problem
from domain.infinity.orders import generate_orders, lose_unused_orders, opening_orders
from domain.infinity.sight import ZONE_OF_CONTROL
from domain.infinity.state import InfinityState, Trooper
from domain.limits import MAX_MAGNITUDE
from domain.machine import TurnMachine
from domain.rules_version import RulesChange
from domain.ruleset import Ruleset, Setup, Wiring, facts_of
from domain.state import GameState
from events import infinity as infinity_facts
from events.base import Fact

__all__ = ["RULES", "RULESET", "Infinity", "InfinityState", "Trooper"]


class InfinityOptions(BaseModel):
    """The options an Infinity script may set."""

    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)

    zone_of_control: float = Field(default=ZONE_OF_CONTROL, gt=0, le=MAX_MAGNITUDE,
                                   description="the ZoC reach in inches (A-CAU-03)")


#: The rules version from which an end that opened Private Information is final.
SECRETS_FINAL = 2

WIRING = Wiring(
    handlers={
        commands.Aro: aro.decide_aro,
        commands.PassAro: aro.decide_pass,
        commands.CautiousMove: cautious.decide_cautious_move,
        commands.Move: movement.decide_move,
        commands.Idle: movement.decide_idle,
    },
    appliers=apply.APPLIERS,
    facts=facts_of(infinity_facts),
    overlays="projections.infinity:infinity_overlays",
    rules_changes=(
        RulesChange(SECRETS_FINAL, ("CORE-PRIVATE-AT-END",), "an end that opened Private "
                    "Information to every player is final: no step is undone any more"),
    ),
)


class Infinity(Ruleset):
    """Infinity N4, with Cautious Movement."""

    name = "infinity-n4"
    title = "Infinity N4: Cautious Movement"
    state_type = InfinityState
    machine = MACHINE
    commands = COMMANDS
    wiring = WIRING
    last_round = 3
    result_points_max = 10
    result_points_name = "objective points (OP, at most 10)"
    default_options: ClassVar[dict[str, Any]] = {"zone_of_control": ZONE_OF_CONTROL}
    options_model = InfinityOptions
    variants = frozenset({"codeone"})
    #: Private Information (Hidden Deployment included) opens at the end of the game.
    reveals_at_game_end = True
    #: Hidden Deployment is Infinity's own: its troopers hide, and are revealed, by it.
    hiding_rules = frozenset({"hidden_deployment"})
    secrets_final_from = SECRETS_FINAL
    #: The order expenditure sequence, drawn by `warledger diagram infinity-n4`.
    extra_machines: ClassVar[dict[str, TurnMachine]] = {"order": ORDER_MACHINE}

    def setup_facts(self, setup: Setup) -> list[Fact]:
        """The fielded troopers, then the first player's order pool (the game starts
        in their tactical phase, which no phase change opens)."""
        facts = super().setup_facts(setup)
        return [*facts, opening_orders(facts, setup.players[0])]

    def check_setup(self, state: GameState) -> None:
        """No trooper is fielded on another's base, nor on `impassable` or `blocking`
        terrain (CORE-GENERAL-MOVEMENT)."""
        super().check_setup(state)
        assert isinstance(state, InfinityState)
        for trooper in state.troopers():
            if trooper.status != "on_table" or trooper.x is None or trooper.y is None:
                continue
            spot = (trooper.x, trooper.y)
            problem = ends_on_base_problem(state, trooper, spot) or terrain_problem(
                state, trooper, [spot])
            if problem is not None:
                raise ScriptError(f"units: CORE-GENERAL-MOVEMENT: {problem}")

    def on_phase_start(self, d: Decision) -> None:
        """The tactical phase sets the active player's order pool (RULINGS "Orders")."""
        if d.state.phase == "tactical":
            generate_orders(d)

    def on_turn_end(self, d: Decision) -> None:
        """CORE-ORDER-POOL: unused orders are lost at the end of the Player Turn."""
        lose_unused_orders(d)

    def view_extra(self, state: GameState, as_player: str | None) -> dict[str, Any]:
        """Order pools, and the order being spent (its stage and declared skills)."""
        assert isinstance(state, InfinityState)
        order = state.order
        return {
            "orders": dict(sorted(state.orders.items())),
            "order": order.model_dump(mode="json") if order is not None else None,
        }


RULES = Infinity()
RULESET = RULES
