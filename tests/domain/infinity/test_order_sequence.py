"""Orders and the order expenditure sequence (RULINGS "Orders", "Order expenditure
sequence"): pools, activation, declaration → ARO window → second skill → ARO window →
resolution, as the `order` machine."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from n4_scene import Scene, cautious, move, pass_, trooper

from domain.game import Game
from domain.infinity.machine import ORDER_MACHINE, STAGES
from domain.infinity.rules import RULESET, Infinity, InfinityState
from domain.ruleset import find_ruleset
from replay.service import GameService
from replay.verify import verify_game

R1 = trooper("r1", "red", 10, 10)
R2 = trooper("r2", "red", 30, 10)
AWAY = trooper("b1", "blue", 10, 40, facing=90)
WATCHING = trooper("b1", "blue", 10, 40, facing=270)


def stage(result: dict[str, Any]) -> str | None:
    order = result["state"]["order"]
    return None if order is None else str(order["stage"])


def test_orders_pool_counts_troopers_on_table_not_unconscious_disconnected_or_hidden(
        n4: Scene) -> None:
    troopers = [R1, R2,
                trooper("r3", "red", 5, 5, conditions=["unconscious"]),
                trooper("r4", "red", 6, 5, conditions=["disconnected"]),
                trooper("r5", "red", 7, 5, conditions=["hidden_deployment"]),
                trooper("r6", "red", 8, 5, marker="camouflage"),
                trooper("b1", "blue", 40, 40), trooper("b2", "blue", 42, 40)]

    red_turn = n4(troopers, [])
    blue_turn = n4(troopers, [{"by": "red", "do": "end_turn"}])

    assert red_turn["state"]["orders"] == {"red": 3}
    assert blue_turn["steps"][1]["events"][-1] == "OrdersGenerated"
    assert blue_turn["state"]["orders"]["blue"] == 2


def test_core_order_pool_unused_orders_are_lost_when_the_player_turn_ends(n4: Scene) -> None:
    result = n4([R1, R2, trooper("b1", "blue", 40, 40)], [{"by": "red", "do": "end_turn"}])

    events = result["steps"][1]["events"]
    assert events.index("OrdersLost") < events.index("PhaseStarted")
    assert result["state"]["orders"] == {"red": 0, "blue": 1}


def test_orders_activation_spends_one_order_from_the_pool(n4: Scene) -> None:
    result = n4([R1, R2, AWAY], [move("r1", (12, 10)), {"by": "red", "do": "idle"}])

    assert result["steps"][1]["events"][:2] == ["StepTaken", "OrderSpent"]
    assert result["state"]["orders"]["red"] == 1


def test_orders_an_empty_pool_refuses_activation(n4: Scene) -> None:
    result = n4([R1, AWAY], [cautious("r1", (12, 10)), move("r1", (13, 10))])

    assert last_rule(result) == "CORE-ORDER-POOL"
    assert result["steps"][-1]["message"] == "red has no orders left in the pool this Player Turn"
    assert result["state"]["orders"]["red"] == 0


def test_orders_unconscious_or_hidden_troopers_cannot_be_activated(n4: Scene) -> None:
    down = trooper("r2", "red", 30, 10, conditions=["unconscious"])
    hidden = trooper("r3", "red", 34, 10, conditions=["hidden_deployment"])

    result = n4([R1, down, hidden, AWAY], [move("r2", (31, 10)), move("r3", (35, 10))])

    assert [s["rule"] for s in result["steps"][1:]] == ["CORE-ACTIVATE", "CORE-ACTIVATE"]
    assert [s["message"] for s in result["steps"][1:]] == [
        "r2 is unconscious and cannot act",
        "r3 is in Hidden Deployment; revealing it is not part of these rules"]
    assert result["state"]["orders"]["red"] == 1


def test_core_activate_a_trooper_not_on_the_table_cannot_be_activated(n4: Scene) -> None:
    """CORE-ACTIVATE: a trooper held in reserve gives no order and cannot act; no
    order is spent."""
    reserve = {**trooper("r2", "red", 30, 10), "status": "reserve"}

    result = n4([R1, reserve, AWAY], [move("r2", (31, 10))])

    assert (last_rule(result), result["steps"][-1]["message"]) == (
        "CORE-ACTIVATE", "r2 is not on the table")
    assert result["state"]["orders"]["red"] == 1
    assert result["state"]["order"] is None


def test_orders_a_move_then_idle_resolves_one_movement_and_keeps_the_facing(
        n4: Scene) -> None:
    """Resolution: the Idle second skill moves nobody (one `TrooperMoved`, the
    move's); a movement declared without a facing leaves the facing as it was."""
    result = n4([R1, AWAY], [move("r1", (12, 10)), {"by": "red", "do": "idle"}])

    assert [s["events"].count("TrooperMoved") for s in result["steps"][1:]] == [0, 1]
    r1 = result["state"]["units"]["r1"]
    assert (r1["x"], r1["y"], r1["facing"]) == (12.0, 10.0, 90.0)
    assert stage(result) is None


def test_orders_a_trooper_facing_zero_degrees_keeps_facing_zero_when_it_moves(
        n4: Scene) -> None:
    """0° (towards +x) is a facing like any other, not a missing one."""
    east = trooper("r1", "red", 10, 10, facing=0)

    result = n4([east, AWAY], [move("r1", (12, 10)), {"by": "red", "do": "idle"}])

    r1 = result["state"]["units"]["r1"]
    assert (r1["x"], r1["facing"]) == (12.0, 0.0)


def test_orders_a_move_then_a_second_move_resolves_both_in_order(n4: Scene) -> None:
    runner = trooper("r1", "red", 10, 10, mov=[4, 2])

    result = n4([runner, AWAY], [move("r1", (14, 10)), move("r1", (14, 12))])

    assert result["steps"][1]["events"][-1] == "OrderStageReached"
    assert [s["events"].count("TrooperMoved") for s in result["steps"][1:]] == [0, 2]
    assert (result["state"]["units"]["r1"]["x"], result["state"]["units"]["r1"]["y"]) == (
        14.0, 12.0)
    assert stage(result) is None


def test_core_mov_the_second_move_uses_the_second_mov_value(n4: Scene) -> None:
    runner = trooper("r1", "red", 10, 10, mov=[4, 2])

    result = n4([runner, AWAY], [move("r1", (14, 10)), move("r1", (14, 12.5))])

    assert last_rule(result) == "CORE-MOV"
    assert "second MOV value, 2\"" in result["steps"][-1]["message"]
    assert stage(result) == "second_skill"


def test_orders_the_sequence_walks_through_both_aro_windows(n4: Scene) -> None:
    steps = [move("r1", (10, 12))]
    first = n4([R1, WATCHING], steps)
    answered = n4([R1, WATCHING], [*steps, pass_("b1")])
    second = n4([R1, WATCHING], [*steps, pass_("b1"), {"by": "red", "do": "idle"}])

    assert stage(first) == "first_aro"
    assert first["state"]["reaction_window"]["eligible"] == ["b1"]
    assert stage(answered) == "second_skill"
    assert answered["state"]["order"]["had_aro"] == ["b1"]
    # b1 has had its ARO chance: no second window, the order resolves.
    assert stage(second) is None
    assert second["state"]["units"]["r1"]["y"] == 12.0


def test_orders_the_turn_cannot_end_while_an_order_waits_for_its_second_skill(
        n4: Scene) -> None:
    result = n4([R1, AWAY], [move("r1", (12, 10)), {"by": "red", "do": "end_turn"},
                             {"by": "red", "do": "next_phase"}])

    assert [s["rule"] for s in result["steps"][2:]] == ["CORE-PHASE", "CORE-PHASE"]
    assert result["state"]["phase"] == "orders"


def test_core_order_sequence_idle_needs_an_order_in_progress(n4: Scene) -> None:
    result = n4([R1, AWAY], [{"by": "red", "do": "idle"}])

    assert last_rule(result) == "CORE-ORDER-SEQUENCE"
    assert "activate a trooper first" in result["steps"][-1]["message"]


def test_core_order_sequence_the_second_skill_belongs_to_the_activated_trooper(
        n4: Scene) -> None:
    result = n4([R1, R2, AWAY], [move("r1", (12, 10)), move("r2", (32, 10))])

    assert last_rule(result) == "CORE-ORDER-SEQUENCE"
    assert result["steps"][-1]["message"] == "the order in progress is r1's; r2 cannot act in it"
    assert result["state"]["orders"]["red"] == 1


def test_orders_only_the_orders_phase_allows_skills(n4: Scene) -> None:
    result = n4([R1, AWAY], [{"by": "red", "do": "next_phase"}, move("r1", (12, 10))])

    assert last_rule(result) == "CORE-PHASE"


def test_orders_the_order_machine_is_a_table_shown_by_diagram() -> None:
    ruleset = find_ruleset("infinity-n4")

    assert ruleset is RULESET and Infinity.extra_machines["order"] is ORDER_MACHINE
    assert ORDER_MACHINE.states == list(STAGES)
    drawing = ORDER_MACHINE.mermaid()
    assert "first_aro --> resolution: close_window [is_entire_order]" in drawing
    assert "second_skill --> second_aro: move | idle" in drawing


def test_orders_state_restored_from_events_matches_and_verifies(
        n4: Scene, service: GameService, game_of: Any) -> None:
    result = n4([R1, WATCHING], [move("r1", (10, 12)), pass_("b1")])
    game = game_of(result)

    replayed = service.game_at(game.id)

    assert replayed.state == game.state
    assert isinstance(replayed.state, InfinityState)
    assert replayed.state.order is not None and replayed.state.order.stage == "second_skill"
    assert verify_game(service, game.id, None).ok
    snapshot = game.snapshot(datetime(2024, 1, 1, tzinfo=UTC))
    assert Game.from_snapshot(snapshot).state == game.state


def last_rule(result: dict[str, Any]) -> str | None:
    return result["steps"][-1]["rule"]  # type: ignore[no-any-return]
