"""Refusals that say what is wrong and cite the clause that decides it (AMB-07,
AMB-10, AMB-21, AMB-24): the reason for each, not a neighbouring rule's."""

from __future__ import annotations

from typing import Any

from t9a_scene import Scene, ambusher, arrive, character, last, to_movement, unit

AMBUSH = {"by": "red", "do": "ambush", "unit": "red-scouts"}
HERO = {"by": "red", "do": "ambush", "unit": "red-hero"}
ROLL = {"by": "red", "do": "roll_ambush"}


def accepted_until_last(result: dict[str, Any]) -> bool:
    """Every set-up step before the last was accepted."""
    return all(s["accepted"] for s in result["steps"][:-1])


def test_amb_10_arriving_in_player_turn_5_before_roll_ambush_says_what_to_do(
    t9a: Scene,
) -> None:
    """AMB-10 (not AMB-09): no die is rolled in Player Turns 5 and 6, so the
    refusal does not speak of rolling; it says to take roll_ambush first."""
    for turn in (5, 6):
        result = t9a([ambusher()], [AMBUSH, *to_movement(turn), arrive()])

        assert accepted_until_last(result), result["steps"]
        assert last(result)["rule"] == "AMB-10"
        message = last(result)["message"]
        assert "has not rolled" not in message
        assert f"in Player Turn {turn} no die is rolled" in message
        assert "roll_ambush" in message and "with no dice" in message
        assert result["state"]["units"]["red-scouts"]["status"] == "reserve"


def test_amb_09_arriving_in_player_turn_2_before_roll_ambush_still_cites_amb_09(
    t9a: Scene,
) -> None:
    """AMB-09: before Player Turn 5 the roll is a real one."""
    result = t9a([ambusher()], [AMBUSH, *to_movement(2), arrive()])

    assert accepted_until_last(result)
    assert last(result)["rule"] == "AMB-09" and "(roll_ambush)" in last(result)["message"]


def test_amb_10_a_die_supplied_in_player_turn_6_says_why_none_is_due(t9a: Scene) -> None:
    """AMB-10 (INPUT, CONTRACT: dice that do not fit): "1 die", and why none is due."""
    result = t9a([ambusher()], [AMBUSH, *to_movement(6), {**ROLL, "dice": [4]}])

    assert accepted_until_last(result)
    assert last(result)["rule"] == "INPUT"
    message = last(result)["message"]
    assert "1 more dice" not in message
    assert message.startswith("the step supplied 1 die, but no die is due")
    assert "AMB-10" in message and "Player Turn 6" in message


def test_amb_24_a_second_die_for_a_combined_unit_says_one_is_due(t9a: Scene) -> None:
    """AMB-24 (INPUT): a Combined Unit makes a single roll, so 2 dice are 1 too many."""
    steps = [AMBUSH, {**HERO, "join": "red-scouts"}, *to_movement(2), {**ROLL, "dice": [6, 6]}]

    result = t9a([ambusher(), character()], steps)

    assert accepted_until_last(result)
    assert last(result)["rule"] == "INPUT"
    message = last(result)["message"]
    assert message.startswith("the step supplied 2 dice, but 1 die is due")
    assert "AMB-24" in message and "red-scouts + red-hero" in message


def test_dice_grammar_one_die_more_than_rolled(t9a: Scene) -> None:
    """CORE-DICE: any step with one die too many says "1 die", not "1 more dice"."""
    spears = unit("red-spears", x=36, y=20, facing=90)
    result = t9a([spears], [{"by": "red", "do": "next_phase", "dice": [3]}])

    assert last(result)["rule"] == "INPUT"
    assert last(result)["message"] == "the step supplied 1 die more than it rolled"


def test_amb_07_ending_the_turn_from_the_charge_phase_names_the_charge_phase(
    t9a: Scene,
) -> None:
    """AMB-07: end_turn from the charge phase with rolls owed names that phase (the
    Movement Phase, where the rolls are made, has not been reached)."""
    steps = [AMBUSH, {"by": "red", "do": "next_phase"}, {"by": "red", "do": "end_turn"},
             {"by": "blue", "do": "end_turn"}, {"by": "red", "do": "end_turn"}]

    result = t9a([ambusher()], steps)

    assert accepted_until_last(result), result["steps"]
    assert result["state"]["phase"] == "charge" and result["state"]["round"] == 2
    assert last(result)["rule"] == "AMB-07"
    message = last(result)["message"]
    assert "leaving the Movement Phase" not in message
    assert "ending Player Turn 2 from the charge phase" in message
    assert "start of the Movement Phase" in message


def test_amb_07_leaving_the_movement_phase_still_names_it(t9a: Scene) -> None:
    """AMB-07: from the Movement Phase itself, the message names it."""
    result = t9a([ambusher()], [AMBUSH, *to_movement(2), {"by": "red", "do": "next_phase"}])

    assert accepted_until_last(result)
    assert last(result)["rule"] == "AMB-07"
    assert "before leaving the Movement Phase of Player Turn 2" in last(result)["message"]


def test_amb_21_a_host_with_no_ambush_at_all_says_so(t9a: Scene) -> None:
    """AMB-21: the host has no Ambush rule, so it can never be in Ambush."""
    spears = unit("red-spears", status="reserve")

    result = t9a([spears, character()], [{**HERO, "join": "red-spears"}])

    assert last(result)["rule"] == "AMB-21"
    assert last(result)["message"] == (
        "red-spears has no Ambush, so it is never placed in Ambush; red-hero can join "
        "only a unit placed in Ambush")
    assert result["state"]["units"]["red-hero"]["status"] == "reserve"


def test_amb_07_leaving_the_movement_phase_of_player_turn_5_says_no_die_is_rolled(
    t9a: Scene,
) -> None:
    """AMB-07 with AMB-10: the rolls are still owed in Player Turn 5, but the
    refusal does not ask for dice: no die is rolled then."""
    result = t9a([ambusher()], [AMBUSH, *to_movement(5), {"by": "red", "do": "next_phase"}])

    assert accepted_until_last(result)
    assert last(result)["rule"] == "AMB-07"
    message = last(result)["message"]
    assert "must roll for" not in message
    assert message.startswith("red must take the Ambush rolls (roll_ambush, with no dice: in "
                              "Player Turn 5 no die is rolled")
    assert "before leaving the Movement Phase of Player Turn 5" in message


def test_amb_16_two_things_between_lie_between(t9a: Scene) -> None:
    """AMB-16: with two blockers the verb agrees ("… lie between")."""
    strips = [{"id": f"rock-{name}", "kind": "impassable",
               "polygon": [[35.8, y], [36.2, y], [36.2, y + 0.2], [35.8, y + 0.2]]}
              for name, y in (("a", 1.0), ("b", 2.0))]
    steps = [AMBUSH, *to_movement(2), {**ROLL, "dice": [5]}, arrive(x=36, y=4.5)]

    result = t9a([ambusher()], steps, terrain=strips)

    assert accepted_until_last(result), result["steps"]
    assert last(result)["rule"] == "AMB-16"
    assert last(result)["message"].startswith(
        "impassable rock-a, impassable rock-b lie between red-scouts's footprint")


def test_amb_07_a_second_roll_ambush_in_player_turn_5_does_not_speak_of_rolling(
    t9a: Scene,
) -> None:
    """AMB-07 with AMB-10: the second roll_ambush of Player Turn 5 is refused, and
    the message says the rolls were taken (no die is rolled then)."""
    result = t9a([ambusher()], [AMBUSH, *to_movement(5), ROLL, ROLL])

    assert accepted_until_last(result)
    assert last(result)["rule"] == "AMB-07"
    assert last(result)["message"] == (
        "red has already taken the Ambush rolls of Player Turn 5 (no die is rolled then: "
        "every roll counts as a 3+, AMB-10)")
