"""Ambush arrival rolls (AMB-06…10, AMB-24). Source: seeds/ambush.es.txt lines 3–4;
A-AMB-12, A-AMB-18; RULINGS.md "Roll timing"."""

from __future__ import annotations

from t9a_scene import Scene, ambusher, arrive, last, to_movement

AMBUSH = {"by": "red", "do": "ambush", "unit": "red-scouts"}
ROLL = {"by": "red", "do": "roll_ambush"}


def test_amb_06_refuses_an_ambush_roll_in_player_turn_1(t9a: Scene) -> None:
    result = t9a([ambusher()], [AMBUSH, *to_movement(1), {**ROLL, "dice": [6]}])

    assert last(result)["rule"] == "AMB-06" and "Player Turn 1" in last(result)["message"]


def test_amb_06_refuses_an_ambush_roll_during_deployment(t9a: Scene) -> None:
    result = t9a([ambusher()], [AMBUSH, ROLL])

    assert last(result)["rule"] == "AMB-06" and "during Deployment" in last(result)["message"]
    assert last(result)["events"] == []


def test_amb_07_rolls_one_d6_for_each_ambushing_unit(t9a: Scene) -> None:
    units = [ambusher(), ambusher("red-rangers")]
    steps = [AMBUSH, {"by": "red", "do": "ambush", "unit": "red-rangers"}, *to_movement(2, 2),
             {**ROLL, "dice": [2, 5]}]

    result = t9a(units, steps)

    assert last(result)["accepted"]
    assert last(result)["events"].count("DiceRolled") == 2
    assert last(result)["events"].count("AmbushRollResolved") == 2
    state = result["state"]["units"]
    assert state["red-rangers"]["arrival_ready"] is False   # 2 (red-rangers sorts first)
    assert state["red-scouts"]["arrival_ready"] is True     # 5


def test_amb_07_refuses_a_second_roll_in_the_same_player_turn(t9a: Scene) -> None:
    steps = [AMBUSH, *to_movement(2), {**ROLL, "dice": [1]}, {**ROLL, "dice": [6]}]

    result = t9a([ambusher()], steps)

    assert last(result)["rule"] == "AMB-07" and "already rolled" in last(result)["message"]


def test_amb_07_the_rolls_cannot_be_skipped_by_leaving_the_movement_phase(t9a: Scene) -> None:
    steps = [AMBUSH, *to_movement(2)]

    result = t9a([ambusher()], [*steps, {"by": "red", "do": "next_phase"}])
    ended = t9a([ambusher()], [*steps[:-1], {"by": "red", "do": "end_turn"}])

    assert last(result)["rule"] == "AMB-07" and result["state"]["phase"] == "movement"
    assert last(ended)["rule"] == "AMB-07"


def test_amb_08_refuses_the_roll_outside_the_movement_phase(t9a: Scene) -> None:
    steps = [AMBUSH, *to_movement(2)[:-1], {**ROLL, "dice": [4]}]

    result = t9a([ambusher()], steps)

    assert result["state"]["phase"] == "charge"
    assert last(result)["rule"] == "AMB-08" and "charge phase" in last(result)["message"]


def test_amb_08_the_rolls_come_before_any_move_in_the_movement_phase(t9a: Scene) -> None:
    spears = {"id": "red-spears", "owner": "red", "x": 50, "y": 10, "facing": 90}
    steps = [AMBUSH, *to_movement(2), {"by": "red", "do": "advance", "unit": "red-spears",
                                       "distance": 2}]

    result = t9a([ambusher(), spears], steps)

    assert last(result)["rule"] == "AMB-08" and "before any Move" in last(result)["message"]
    assert result["state"]["units"]["red-spears"]["y"] == 10


def test_amb_09_a_unit_that_rolls_under_3_does_not_arrive(t9a: Scene) -> None:
    steps = [AMBUSH, *to_movement(2), {**ROLL, "dice": [2]}, arrive()]

    result = t9a([ambusher()], steps)

    assert result["steps"][-2]["accepted"] and result["steps"][-2]["rule"] == "AMB-09"
    assert result["steps"][-2]["message"] == "arriving on 3+: none"
    assert last(result)["rule"] == "AMB-09"
    assert last(result)["message"] == ("red-scouts rolled a 2 in Player Turn 2; it needs a 3+ "
                                       "to arrive")
    assert result["state"]["units"]["red-scouts"]["arrival_roll"] == 2
    assert result["state"]["units"]["red-scouts"]["status"] == "reserve"


def test_amb_09_a_unit_that_rolls_exactly_3_arrives(t9a: Scene) -> None:
    steps = [AMBUSH, *to_movement(2), {**ROLL, "dice": [3]}, arrive()]

    result = t9a([ambusher()], steps)

    assert last(result)["accepted"]
    assert result["state"]["units"]["red-scouts"]["status"] == "on_table"


def test_amb_10_in_player_turns_5_and_6_no_die_is_rolled_and_the_unit_counts_as_3_plus(
    t9a: Scene,
) -> None:
    steps = [AMBUSH, *to_movement(5), ROLL]

    result = t9a([ambusher()], steps)

    assert last(result)["accepted"] and last(result)["rule"] == "AMB-10"
    assert "DiceRolled" not in last(result)["events"]
    assert result["state"]["units"]["red-scouts"]["arrival_ready"] is True


def test_amb_10_physical_dice_given_in_player_turn_6_do_not_fit(t9a: Scene) -> None:
    """A-AMB-18: no die is rolled, so a step that supplies one is malformed (INPUT)."""
    steps = [AMBUSH, *to_movement(6), {**ROLL, "dice": [1]}]

    result = t9a([ambusher()], steps)

    assert last(result)["rule"] == "INPUT"


def test_amb_07_refuses_a_roll_with_no_unit_in_ambush(t9a: Scene) -> None:
    spears = {"id": "red-spears", "owner": "red", "x": 50, "y": 10, "facing": 90}

    result = t9a([spears], [*to_movement(2), ROLL])

    assert last(result)["rule"] == "AMB-07"
    assert last(result)["message"] == "red has no units in Ambush to roll for"


def test_amb_08_refuses_the_roll_in_a_later_phase_of_the_player_turn(t9a: Scene) -> None:
    steps = [AMBUSH, *to_movement(2), {**ROLL, "dice": [1]}, {"by": "red", "do": "next_phase"},
             ROLL]

    result = t9a([ambusher()], steps)

    assert result["state"]["phase"] == "magic"
    assert last(result)["rule"] == "AMB-08" and "not in the magic phase" in last(result)["message"]
