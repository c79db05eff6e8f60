"""Attachable Models in Ambush (AMB-21…26). Source: seeds/ambush.es.txt lines 11–14;
A-AMB-13, A-AMB-14, A-AMB-17."""

from __future__ import annotations

import pytest
from t9a_scene import Scene, ambusher, arrive, character, last, to_movement

from domain.t9a.arrival_points import ARRIVAL_POINTS, board_edge_point

AMBUSH = {"by": "red", "do": "ambush", "unit": "red-scouts"}
HERO = {"by": "red", "do": "ambush", "unit": "red-hero"}
ROLL = {"by": "red", "do": "roll_ambush"}


def attach(to: str | None, model: str = "red-hero") -> dict[str, object]:
    return {"by": "red", "do": "attach", "model": model, "to": to}


def test_amb_21_an_attachable_model_may_be_deployed_in_ambush_joined_to_a_same_x_unit(
    t9a: Scene,
) -> None:
    result = t9a([ambusher(), character()], [AMBUSH, {**HERO, "join": "red-scouts"}])

    assert last(result)["accepted"]
    assert result["state"]["units"]["red-hero"]["joined_to"] == "red-scouts"


def test_amb_21_refuses_joining_a_unit_with_another_ambush_x(
        t9a: Scene, monkeypatch: pytest.MonkeyPatch) -> None:
    """A-AMB-17: every model of the Combined Unit has Ambush with the same X (another
    X with an arrival-point rule of its own, AMB-11)."""
    monkeypatch.setitem(ARRIVAL_POINTS, "vanguard_line", board_edge_point)
    other = ambusher(ambush="Vanguard Line")

    result = t9a([other, character()], [{"by": "red", "do": "ambush", "unit": "red-scouts"},
                                         {**HERO, "join": "red-scouts"}])

    assert last(result)["rule"] == "AMB-21" and "same X" in last(result)["message"]


def test_amb_21_refuses_joining_a_unit_not_in_ambush(t9a: Scene) -> None:
    result = t9a([ambusher(), character()], [{**HERO, "join": "red-scouts"}])

    assert last(result)["rule"] == "AMB-21"
    assert last(result)["message"] == ("red-scouts is not placed in Ambush; red-hero cannot "
                                       "join it from Ambush")
    assert result["state"]["units"]["red-hero"]["status"] == "reserve"


def test_amb_21_only_an_attachable_model_joins_a_unit(t9a: Scene) -> None:
    units = [ambusher(), ambusher("red-rangers")]
    steps = [AMBUSH, {"by": "red", "do": "ambush", "unit": "red-rangers", "join": "red-scouts"}]

    result = t9a(units, steps)

    assert last(result)["rule"] == "AMB-21" and "not an Attachable Model" in last(result)["message"]


def test_amb_22_joining_follows_the_usual_restrictions_no_joining_a_character(t9a: Scene) -> None:
    units = [character(), character("red-mage")]
    steps = [{"by": "red", "do": "ambush", "unit": "red-mage"}, {**HERO, "join": "red-mage"}]

    result = t9a(units, steps)

    assert last(result)["rule"] == "AMB-22"
    assert last(result)["message"] == ("red-mage is an Attachable Model; red-hero can only "
                                       "join a unit")


def test_amb_23_the_unit_to_join_is_chosen_before_the_roll(t9a: Scene) -> None:
    steps = [AMBUSH, HERO, *to_movement(2, 2), {**ROLL, "dice": [1, 1]}, attach("red-scouts")]

    result = t9a([ambusher(), character()], steps)

    assert last(result)["rule"] == "AMB-23"
    assert "rolls of Player Turn 2 are made" in last(result)["message"]
    assert result["state"]["units"]["red-hero"]["joined_to"] is None


def test_amb_23_and_amb_24_a_model_joined_before_the_roll_shares_one_die(t9a: Scene) -> None:
    steps = [AMBUSH, HERO, *to_movement(2, 2)[:-1], attach("red-scouts"),
             {"by": "red", "do": "next_phase"}, {**ROLL, "dice": [4]}]

    result = t9a([ambusher(), character()], steps)

    assert result["steps"][-3]["accepted"] and result["steps"][-3]["rule"] == "AMB-26"
    assert last(result)["accepted"] and last(result)["events"].count("DiceRolled") == 1
    assert last(result)["rule"] == "AMB-09"
    assert result["state"]["units"]["red-scouts"]["arrival_ready"] is True


def test_amb_24_the_combined_unit_arrives_together_and_the_model_not_alone(t9a: Scene) -> None:
    steps = [AMBUSH, {**HERO, "join": "red-scouts"}, *to_movement(2), {**ROLL, "dice": [6]},
             arrive("red-hero"), arrive()]

    result = t9a([ambusher(), character()], steps)

    assert result["steps"][-2]["rule"] == "AMB-24"
    assert last(result)["accepted"]
    hero = result["state"]["units"]["red-hero"]
    assert hero["status"] == "on_table" and hero["joined_to"] == "red-scouts"
    assert (hero["x"], hero["y"], hero["advance_moved"]) == (36.0, 2.5, True)


def test_amb_25_being_attachable_locks_no_choice_a_model_may_leave_and_roll_alone(
    t9a: Scene,
) -> None:
    """AMB-25 (A-AMB-13): "Attachable" has no effect on the choice; joining none rolls alone."""
    steps = [AMBUSH, {**HERO, "join": "red-scouts"}, *to_movement(2)[:-1], attach(None),
             {"by": "red", "do": "next_phase"}, {**ROLL, "dice": [2, 5]}]

    result = t9a([ambusher(), character()], steps)

    assert last(result)["accepted"] and last(result)["events"].count("DiceRolled") == 2
    units = result["state"]["units"]
    assert units["red-hero"]["joined_to"] is None
    assert (units["red-hero"]["arrival_ready"], units["red-scouts"]["arrival_ready"]) == (
        False, True)


def test_amb_26_the_unit_joined_may_change_every_turn(t9a: Scene) -> None:
    units = [ambusher(), ambusher("red-rangers"), character()]
    setup = [AMBUSH, {"by": "red", "do": "ambush", "unit": "red-rangers"},
             {**HERO, "join": "red-scouts"}]
    turn_3 = [*to_movement(3, 2)[:-1], attach("red-rangers")]

    result = t9a(units, [*setup, *turn_3])

    assert last(result)["accepted"] and last(result)["rule"] == "AMB-26"
    assert "(was red-scouts)" in last(result)["message"]
    assert result["state"]["units"]["red-hero"]["joined_to"] == "red-rangers"


def test_amb_23_a_model_chooses_its_unit_once_each_player_turn(t9a: Scene) -> None:
    """AMB-23 (T9A rules version 3): "may choose a unit to join during each of your
    Player Turns": a second choice in the same Player Turn, before the roll, is refused;
    the next Player Turn it chooses again (AMB-26)."""
    units = [ambusher(), ambusher("red-rangers"), character()]
    setup = [AMBUSH, {"by": "red", "do": "ambush", "unit": "red-rangers"}, HERO]
    turn_2 = [*to_movement(2, 2)[:-1], attach("red-scouts"), attach("red-rangers")]
    turn_3 = [{"by": "red", "do": "next_phase"}, {**ROLL, "dice": [1, 1]},
              {"by": "red", "do": "end_turn"}, {"by": "blue", "do": "end_turn"},
              attach("red-rangers")]

    result = t9a(units, [*setup, *turn_2, *turn_3])

    second = result["steps"][len(setup) + len(turn_2) - 1]
    assert (second["accepted"], second["rule"]) == (False, "AMB-23"), second
    assert "has chosen its unit this Player Turn already (step 7: red-scouts)" in second[
        "message"]
    assert last(result)["accepted"] and "(was red-scouts)" in last(result)["message"]
    assert result["state"]["units"]["red-hero"]["joined_to"] == "red-rangers"


def test_amb_23_an_undone_choice_does_not_count(t9a: Scene) -> None:
    units = [ambusher(), ambusher("red-rangers"), character()]
    setup = [AMBUSH, {"by": "red", "do": "ambush", "unit": "red-rangers"}, HERO]
    undo = [{"by": "red", "do": "request_undo"}, {"by": "blue", "do": "consent", "accept": True}]
    steps = [*setup, *to_movement(2, 2)[:-1], attach("red-scouts"), *undo, attach("red-rangers")]

    result = t9a(units, steps)

    assert last(result)["accepted"], last(result)
    assert result["state"]["units"]["red-hero"]["joined_to"] == "red-rangers"


COMBINED_ARRIVES = [AMBUSH, {**HERO, "join": "red-scouts"}, *to_movement(2), {**ROLL, "dice": [6]},
                    arrive()]


def test_amb_19_the_joined_model_makes_no_move_in_the_phase_it_arrived(t9a: Scene) -> None:
    hero_moves = {"by": "red", "do": "advance", "unit": "red-hero", "distance": 1}

    result = t9a([ambusher(), character()], [*COMBINED_ARRIVES, hero_moves])

    assert last(result)["rule"] == "AMB-19" and last(result)["message"].startswith("red-hero")


def test_amb_21_a_model_on_the_table_chooses_no_unit_to_join_from_ambush(t9a: Scene) -> None:
    result = t9a([ambusher(), character()], [*COMBINED_ARRIVES, attach(None)])

    assert last(result)["rule"] == "AMB-21"
    assert last(result)["message"].startswith("red-hero is on the table, not placed in Ambush")


def test_amb_27_every_model_of_a_combined_unit_arriving_in_game_turn_6_loses_scoring(
    t9a: Scene,
) -> None:
    steps = [AMBUSH, {**HERO, "join": "red-scouts"}, *to_movement(6), ROLL, arrive()]

    result = t9a([ambusher(), character()], steps)

    assert last(result)["rule"] == "AMB-27"
    assert last(result)["events"].count("ScoringLost") == 2
    units = result["state"]["units"]
    assert (units["red-scouts"]["scoring"], units["red-hero"]["scoring"]) == (False, False)


def test_amb_20_a_joined_model_still_in_ambush_is_removed_with_its_unit(t9a: Scene) -> None:
    steps = [AMBUSH, {**HERO, "join": "red-scouts"}, {"by": "judge", "do": "end_game"}]

    result = t9a([ambusher(), character()], steps)

    assert last(result)["rule"] == "AMB-20"
    assert last(result)["events"].count("T9ARemovedAsCasualty") == 2
    units = result["state"]["units"]
    assert (units["red-scouts"]["status"], units["red-hero"]["status"]) == ("removed", "removed")


def test_a_joined_model_moves_with_its_unit_by_a_fact_decide_emits(t9a: Scene) -> None:
    """A-AMB-14: a joined model moves only with its unit; `decide` says so
    (`T9AMembersMoved`), the applier of the unit's move only assigns the unit."""
    next_turn = [{"by": "red", "do": "end_turn"}, {"by": "blue", "do": "end_turn"},
                 {"by": "red", "do": "next_phase"}]
    advance = {"by": "red", "do": "advance", "unit": "red-scouts", "distance": 1}

    result = t9a([ambusher(), character()], [*COMBINED_ARRIVES, *next_turn, advance])

    assert all(step["accepted"] for step in result["steps"]), [
        (s["index"], s["rule"], s["message"]) for s in result["steps"] if not s["accepted"]]
    assert last(result)["events"] == ["StepTaken", "T9AUnitMoved", "T9AMembersMoved"]
    units = result["state"]["units"]
    scouts, hero = units["red-scouts"], units["red-hero"]
    assert (hero["x"], hero["y"], hero["facing"]) == (scouts["x"], scouts["y"], scouts["facing"])
    assert hero["advance_moved"] and hero["moved"] == "advance"


ARRIVED_TOGETHER = [AMBUSH, {**HERO, "join": "red-scouts"}, *to_movement(2),
                    {**ROLL, "dice": [6]}, arrive(),
                    {"by": "red", "do": "end_turn"}, {"by": "blue", "do": "end_turn"},
                    {"by": "red", "do": "next_phase"}]
"""The hero arrives joined to the scouts (AMB-24); then red's next Movement Phase."""


def test_a_amb_14_a_joined_model_makes_no_move_of_its_own(t9a: Scene) -> None:
    """A-AMB-14: the hero is one unit with the scouts; ordering it alone is INPUT."""
    result = t9a([ambusher(), character()],
                 [*ARRIVED_TOGETHER, {"by": "red", "do": "advance", "unit": "red-hero",
                                      "distance": 1}])

    assert all(s["accepted"] for s in result["steps"][:-1]), result["steps"]
    assert (last(result)["rule"], last(result)["message"]) == (
        "INPUT", "red-hero is joined to red-scouts and moves with it")


def test_a_amb_14_a_joined_model_moves_with_its_unit_when_it_reforms(t9a: Scene) -> None:
    """A-AMB-14, AMB-22: the scouts reform; the hero moves with them and counts as
    having made the Move."""
    result = t9a([ambusher(), character()],
                 [*ARRIVED_TOGETHER, {"by": "red", "do": "reform", "unit": "red-scouts",
                                      "facing": 0}])

    assert all(s["accepted"] for s in result["steps"]), result["steps"]
    assert "T9AMembersMoved" in last(result)["events"]
    assert result["state"]["units"]["red-hero"]["moved"] == "reform"
