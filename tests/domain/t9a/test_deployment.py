"""Deployment and placing units in Ambush (AMB-02…05, CORE-DEPLOY-ALL, CORE-FORMATION).

Source: seeds/ambush.es.txt line 2; A-AMB-17; RULINGS.md, T9A.
"""

from __future__ import annotations

import pytest
from t9a_scene import Play, Scene, ambusher, arrive, character, last, script, to_movement, unit

from domain.errors import ScriptError

AMBUSH = {"by": "red", "do": "ambush", "unit": "red-scouts"}


def test_amb_02_refuses_ambush_for_a_unit_without_ambush(t9a: Scene) -> None:
    result = t9a([unit("red-scouts", status="reserve")], [AMBUSH])

    assert last(result)["accepted"] is False and last(result)["rule"] == "AMB-02"
    assert last(result)["message"] == "red-scouts does not have Ambush, so it cannot Ambush"


def test_amb_02_refuses_ambush_when_only_some_models_have_it(t9a: Scene) -> None:
    partial = ambusher(rules={"ambush": "Board Edge", "ambush_models": 7})

    result = t9a([partial], [AMBUSH])

    assert last(result)["rule"] == "AMB-02"
    assert "only 7 of red-scouts's 8 models" in last(result)["message"]


def test_amb_02_a_combined_unit_needs_every_model_with_the_same_ambush(t9a: Scene) -> None:
    """A-AMB-17: a joined character without Ambush cannot be placed in Ambush at all."""
    result = t9a([ambusher(), character(ambush=None)],
                 [AMBUSH, {"by": "red", "do": "ambush", "unit": "red-hero", "join": "red-scouts"}])

    assert last(result)["rule"] == "AMB-02"


def test_amb_03_an_eligible_unit_may_be_placed_in_ambush_instead_of_deployed(t9a: Scene) -> None:
    result = t9a([ambusher()], [AMBUSH])

    assert last(result)["accepted"] and last(result)["rule"] == "AMB-03"
    scouts = result["state"]["units"]["red-scouts"]
    assert scouts["status"] == "reserve" and scouts["conditions"] == ["ambush"]


def test_amb_03_ambush_is_optional_an_eligible_unit_may_deploy_normally(t9a: Scene) -> None:
    deploy = {"by": "red", "do": "deploy", "unit": "red-scouts", "x": 36, "y": 5, "facing": 90}

    result = t9a([ambusher()], [deploy, {"by": "red", "do": "next_phase"}])

    assert all(s["accepted"] for s in result["steps"])
    assert result["state"]["units"]["red-scouts"]["status"] == "on_table"


def test_amb_04_an_eligible_unit_not_deployed_is_placed_in_ambush(t9a: Scene) -> None:
    result = t9a([ambusher()], [{"by": "red", "do": "next_phase"}])

    assert last(result)["accepted"] and last(result)["rule"] == "AMB-04"
    assert "AmbushDeclared" in last(result)["events"]
    assert result["state"]["units"]["red-scouts"]["conditions"] == ["ambush"]


def test_amb_04_the_step_message_names_every_unit_the_clause_placed(t9a: Scene) -> None:
    """CONTRACT section 3: the step cites AMB-04 once, with each unit's message."""
    units = [ambusher("red-a"), ambusher("red-b"), ambusher("red-c")]

    result = t9a(units, [{"by": "red", "do": "next_phase"}])

    message = last(result)["message"]
    assert last(result)["rule"] == "AMB-04"
    assert [message.find(u) >= 0 for u in ("red-a", "red-b", "red-c")] == [True] * 3
    assert message.count("; ") == 2


def test_amb_04_refuses_ambush_for_a_unit_already_on_the_battlefield(t9a: Scene) -> None:
    result = t9a([ambusher(status="on_table", x=36, y=5, facing=90)], [AMBUSH])

    assert last(result)["rule"] == "AMB-04"
    assert last(result)["message"].startswith("red-scouts is on the table; only a unit not")


def test_core_deploy_all_deployment_cannot_end_with_an_ineligible_unit_off_the_table(
    t9a: Scene,
) -> None:
    result = t9a([unit("red-spears", status="reserve")], [{"by": "red", "do": "next_phase"}])

    assert last(result)["rule"] == "CORE-DEPLOY-ALL"
    assert last(result)["message"].startswith("red-spears must be deployed")
    assert result["state"]["phase"] == "deployment"


def test_core_formation_and_unit_spacing_judge_a_deployment(t9a: Scene) -> None:
    blue = unit("blue-guard", "blue", x=36, y=10, facing=270)
    bad_formation = {"by": "red", "do": "deploy", "unit": "red-spears", "x": 20, "y": 5,
                     "facing": 90, "files": 3, "ranks": 2}
    too_close = {"by": "red", "do": "deploy", "unit": "red-spears", "x": 36, "y": 7.5,
                 "facing": 90}

    result = t9a([unit("red-spears", status="reserve"), blue], [bad_formation, too_close])

    assert [s["rule"] for s in result["steps"]] == ["CORE-FORMATION", "CORE-UNIT-SPACING"]
    assert "3 files × 2 ranks is not a legal formation" in result["steps"][0]["message"]
    assert "unit blue-guard (0.50\")" in result["steps"][1]["message"]
    assert result["state"]["units"]["red-spears"]["status"] == "reserve"


def test_amb_05_only_a_unit_placed_in_ambush_arrives_later(t9a: Scene) -> None:
    on_table = unit("red-spears", x=50, y=20, facing=90)
    steps = [AMBUSH, *to_movement(2), {"by": "red", "do": "roll_ambush", "dice": [6]},
             arrive("red-spears")]

    result = t9a([ambusher(), on_table], steps)

    assert last(result)["rule"] == "AMB-05"
    assert last(result)["message"] == "red-spears is on the table, not placed in Ambush"


def test_amb_21_a_script_cannot_field_a_model_joined_to_a_unit_with_another_x(play: Play) -> None:
    """AMB-21, AMB-22 also judge a model fielded already joined (`joined_to`) by a script."""
    hero = character(status="reserve", conditions=["ambush"], joined_to="red-scouts",
                     ambush="Vanguard Line")
    scouts = ambusher(conditions=["ambush"])

    with pytest.raises(ScriptError, match=r"they need the same X \(AMB-21\)"):
        play(script([scouts, hero], []))


def test_a_script_cannot_field_a_model_joined_to_a_unit_it_does_not_have(play: Play) -> None:
    hero = character(status="reserve", conditions=["ambush"], joined_to="red-ghosts")

    with pytest.raises(ScriptError, match="'red-ghosts', which is not a unit of the script"):
        play(script([ambusher(conditions=["ambush"]), hero], []))
