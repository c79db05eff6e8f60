"""Cautious Movement, CAU-02 … CAU-21 and CAU-26 … CAU-28 (source: cautious-movement.es.txt).

Scene: red's trooper r1 at (10, 10); blue's troopers placed per test. A trooper facing
90 looks towards +y; one facing 270 looks towards -y.
"""

from __future__ import annotations

from typing import Any

import pytest
from n4_scene import Scene, cautious, last, move, trooper, wall

from domain.infinity import cautious as cautious_module
from domain.infinity.cautious import CAU_10_MODIFIERS, CAUTIOUS_MOVEMENT, AroVerdict
from domain.infinity.sight import can_prevent_marker_state_reentry, can_react
from domain.infinity.state import Trooper

R1 = trooper("r1", "red", 10, 10)
AWAY = trooper("b1", "blue", 10, 40, facing=90)       # r1 is in its rear arc, 29" away
WATCHING = trooper("b1", "blue", 10, 40, facing=270)  # r1 is in its front arc, no cover


def window(result: dict[str, Any]) -> Any:
    return result["state"]["reaction_window"]


def test_cau_10_11_12_no_aro_when_start_and_end_are_outside_every_lof_and_zoc(
        n4: Scene) -> None:
    """CAU-10, CAU-11, CAU-12: both endpoints unseen and uncontrolled, so no ARO."""
    result = n4([R1, AWAY], [cautious("r1", (13, 10))])

    step = last(result)
    assert step["accepted"] and step["rule"] == "CAU-10"
    assert "ReactionWindowOpened" not in step["events"]
    assert window(result) is None
    assert result["state"]["units"]["r1"]["x"] == 13.0
    assert result["state"]["order"] is None


def test_cau_11_13_start_inside_lof_generates_aros_as_usual(n4: Scene) -> None:
    """CAU-11 unmet (the start is in b1's LoF), so CAU-13: AROs as usual."""
    # The end (14, 10) is behind a wall from b1; the start (10, 10) is in plain view.
    result = n4([R1, WATCHING], [cautious("r1", (14, 10))],
                terrain=[wall("crate", 12, 12, 17, 13)])

    step = last(result)
    assert step["accepted"] and step["rule"] == "CAU-13"
    assert step["message"] == ("r1's Cautious Movement generates AROs as usual: it starts "
                               "inside b1's LoF")
    assert window(result) == {"kind": "aro", "eligible": ["b1"], "declared": {},
                              "context": {"trooper": "r1", "skill": "cautious_move",
                                          "stage": "first_aro"}, "suspended": None}
    assert result["state"]["units"]["r1"]["x"] == 10.0  # resolved after the window


def test_cau_12_13_end_inside_zoc_generates_aros_as_usual(n4: Scene) -> None:
    """CAU-12 unmet (the end is in b1's ZoC), so CAU-13: AROs as usual."""
    # b1 faces away; r1 ends 7" from its base (ZoC 8"), after starting 9" away.
    zone = trooper("b1", "blue", 20, 10, facing=0)

    result = n4([R1, zone], [cautious("r1", (12, 10))])

    assert last(result)["rule"] == "CAU-13"
    assert last(result)["message"].endswith("it ends inside b1's ZoC (7.00\" away)")
    assert window(result)["eligible"] == ["b1"]
    assert result["state"]["order"]["stage"] == "first_aro"


def test_cau_12_an_exact_8_inch_gap_is_inside_the_zone_of_control(n4: Scene) -> None:
    """CAU-12 with A-CAU-03: "within 8 inches" includes exactly 8 inches."""
    zone = trooper("b1", "blue", 21, 10, facing=0)  # centre 9" from the end: 8" edge to edge

    result = n4([R1, zone], [cautious("r1", (12, 10))])

    assert last(result)["rule"] == "CAU-13"


def test_cau_10_only_endpoints_matter_when_the_path_crosses_lof_in_between(
        n4: Scene) -> None:
    # A-CAU-01: b1 sees the gap between two walls; the start and end are each behind one.
    runner = trooper("r1", "red", 5, 10, mov=[12, 4])
    b1 = trooper("b1", "blue", 10, 30, facing=270)
    walls = [wall("west", 2, 12, 8, 13), wall("east", 12, 12, 18, 13)]

    careful = n4([runner, b1], [cautious("r1", (15, 10))], terrain=walls)
    plain = n4([runner, b1], [move("r1", (15, 10))], terrain=walls)

    assert last(careful)["rule"] == "CAU-10" and window(careful) is None
    assert window(plain)["eligible"] == ["b1"]


def test_cau_02_cautious_movement_cannot_be_declared_in_codeone(n4: Scene) -> None:
    result = n4([R1, AWAY], [cautious("r1", (13, 10))], variant="codeone")

    assert last(result)["rule"] == "CAU-02"
    assert "not used in CodeOne" in last(result)["message"]
    assert result["state"]["units"]["r1"]["x"] == 10.0
    assert result["state"]["orders"]["red"] == 1


def test_cau_02_cautious_movement_is_declared_in_n4(n4: Scene) -> None:
    result = n4([R1, AWAY], [cautious("r1", (13, 10))])

    assert last(result)["accepted"] and last(result)["rule"] == "CAU-10"
    assert result["state"]["variant"] is None
    assert result["state"]["units"]["r1"]["x"] == 13.0


@pytest.mark.parametrize("kind", ["LI", "MI", "HI", "SK", "WB"])
def test_cau_03_any_trooper_may_declare_the_common_skill(n4: Scene, kind: str) -> None:
    """CAU-03: a Common Skill, declared without being in the trooper's profile."""
    trooper_of_kind = trooper("r1", "red", 10, 10, type=kind)

    result = n4([trooper_of_kind, AWAY], [cautious("r1", (13, 10))])

    assert last(result)["accepted"] and last(result)["rule"] == "CAU-10"
    assert result["state"]["units"]["r1"]["x"] == 13.0
    assert CAUTIOUS_MOVEMENT.common


def test_cau_05_cautious_movement_is_an_entire_order_with_no_second_skill(n4: Scene) -> None:
    result = n4([R1, AWAY], [cautious("r1", (13, 10))])

    assert CAUTIOUS_MOVEMENT.order == "Entire Order"
    assert result["state"]["orders"]["red"] == 0
    assert "OrderSpent" in last(result)["events"]
    assert result["state"]["order"] is None  # resolved at once: no second skill stage


def test_cau_05_cautious_movement_cannot_be_the_second_skill(n4: Scene) -> None:
    result = n4([R1, AWAY], [move("r1", (11, 10)), cautious("r1", (12, 10))])

    assert result["steps"][1]["accepted"]
    assert last(result)["rule"] == "CAU-05"
    assert last(result)["message"] == ("Cautious Movement is an Entire Order; it cannot be "
                                       "declared as the second skill of r1's order")
    assert result["state"]["order"]["stage"] == "second_skill"


def test_core_order_sequence_another_trooper_cannot_move_cautiously_in_an_order(
        n4: Scene) -> None:
    """CORE-ORDER-SEQUENCE before CAU-05: while r1's order waits for its second skill,
    r2 cannot act in it at all (its Cautious Movement is refused as r2 acting in r1's
    order, not as a second skill)."""
    r2 = trooper("r2", "red", 30, 10)

    result = n4([R1, r2, AWAY], [move("r1", (11, 10)), cautious("r2", (31, 10))])

    assert result["steps"][1]["accepted"]
    assert (last(result)["rule"], last(result)["message"]) == (
        "CORE-ORDER-SEQUENCE", "the order in progress is r1's; r2 cannot act in it")
    assert result["state"]["order"]["trooper"] == "r1"
    assert result["state"]["units"]["r2"]["x"] == 30.0


def test_cau_06_the_movement_label_moves_the_trooper_along_its_path(n4: Scene) -> None:
    """CAU-06: the Movement label: the trooper moves along its path."""
    result = n4([R1, AWAY], [{**cautious("r1", (12, 10), (12, 12)), "facing": 180}])

    assert "Movement" in CAUTIOUS_MOVEMENT.labels
    assert "TrooperMoved" in last(result)["events"]
    r1 = result["state"]["units"]["r1"]
    assert (r1["x"], r1["y"], r1["facing"]) == (12.0, 12.0, 180.0)


def test_cau_07_no_lof_is_needed_to_declare_it(n4: Scene) -> None:
    """CAU-07: No LoF: declaring it needs no target and no LoF (A-CAU-13)."""
    # No enemy in sight at all, and the command names no target.
    result = n4([R1, AWAY], [cautious("r1", (13, 10))])

    assert "No LoF" in CAUTIOUS_MOVEMENT.labels
    assert last(result)["accepted"] and last(result)["rule"] == "CAU-10"
    assert result["state"]["units"]["r1"]["x"] == 13.0


def test_cau_08_no_roll_is_made_so_dice_given_with_the_step_do_not_fit(n4: Scene) -> None:
    """CAU-08: No Roll: no dice are rolled, so physical dice given are not used (INPUT)."""
    rolled = n4([R1, AWAY], [cautious("r1", (13, 10))])
    with_dice = n4([R1, AWAY], [{**cautious("r1", (13, 10)), "dice": [4]}])

    assert "No Roll" in CAUTIOUS_MOVEMENT.labels
    assert "DiceRolled" not in last(rolled)["events"]
    assert last(with_dice)["rule"] == "INPUT"


def test_cau_09_moves_up_to_the_first_mov_value(n4: Scene) -> None:
    fusilier = trooper("r1", "red", 10, 10, mov=[4, 2])

    exact = n4([fusilier, AWAY], [cautious("r1", (14, 10))])
    too_far = n4([fusilier, AWAY], [cautious("r1", (14.5, 10))])

    assert last(exact)["accepted"]
    assert last(too_far)["rule"] == "CAU-09"
    assert "4.50\" long" in last(too_far)["message"]
    assert too_far["state"]["units"]["r1"]["x"] == 10.0


def test_cau_15_the_movement_is_measured_along_the_path_corners_included(n4: Scene) -> None:
    """CAU-15: Moving and Measuring: the length is measured along the path (CAU-09)."""
    # The end is 3" from the start in a straight line, but 2 + 2.24 + 2 = 6.24" along the path.
    fusilier = trooper("r1", "red", 10, 10, mov=[4, 2])

    result = n4([fusilier, AWAY], [cautious("r1", (10, 12), (11, 10), (13, 10))])

    assert last(result)["rule"] == "CAU-09"
    assert "6.24\" long" in last(result)["message"]


def test_cau_14_general_movement_rules_forbid_crossing_impassable_terrain(n4: Scene) -> None:
    result = n4([R1, AWAY], [cautious("r1", (14, 10))],
                terrain=[wall("chasm", 12, 8, 13, 12, kind="impassable")])

    assert last(result)["rule"] == "CAU-14"
    assert "chasm" in last(result)["message"]


def test_cau_14_general_movement_rules_keep_the_base_on_the_table(n4: Scene) -> None:
    edge = trooper("r1", "red", 2, 10)

    result = n4([edge, AWAY], [cautious("r1", (0.2, 10))])

    assert last(result)["rule"] == "CAU-14"
    assert last(result)["message"] == "at (0.2, 10) r1's base would leave the table"
    assert result["state"]["units"]["r1"]["x"] == 2.0


def test_cau_14_a_base_may_not_end_on_another_troopers_base(n4: Scene) -> None:
    """CAU-14: General Movement Rules: bases do not overlap at the end of a move."""
    friend = trooper("r2", "red", 13, 10.5)

    onto = n4([R1, friend, AWAY], [cautious("r1", (13, 10))])
    beside = n4([R1, friend, AWAY], [cautious("r1", (13, 9.5))])

    assert last(onto)["rule"] == "CAU-14"
    assert last(onto)["message"] == ("r1's base would end on r2's base (centres 0.50\" "
                                     "apart; the bases need 1\")")
    assert last(beside)["accepted"]  # touching is allowed


def test_cau_14_20_a_hidden_trooper_never_refuses_a_move_onto_its_spot(n4: Scene) -> None:
    """CAU-20: a Hidden Deployment trooper is not on the table for its enemy, so ending
    on its spot is not refused (refusing would reveal it)."""
    hidden = trooper("b2", "blue", 13, 10, conditions=["hidden_deployment"])

    result = n4([R1, hidden, AWAY], [cautious("r1", (13, 10))])

    assert last(result)["accepted"] and last(result)["rule"] == "CAU-10"


def test_cau_14_a_base_may_touch_terrain_without_crossing_it(n4: Scene) -> None:
    result = n4([R1, AWAY], [cautious("r1", (11.5, 10))],
                terrain=[wall("rock", 12, 8, 13, 12, kind="impassable")])

    assert last(result)["accepted"]


@pytest.mark.parametrize(
    ("fields", "clause"),
    [({"type": "TAG"}, "CAU-16"), ({"type": "REM"}, "CAU-17"),
     ({"motorcycle": True}, "CAU-18"), ({"type": "VH"}, "CAU-19")],
)
def test_cau_16_to_19_tags_remotes_motorcycles_and_vehicles_are_refused(
        n4: Scene, fields: dict[str, Any], clause: str) -> None:
    banned = trooper("r1", "red", 10, 10, **fields)

    result = n4([banned, AWAY], [cautious("r1", (12, 10))])

    assert last(result)["accepted"] is False and last(result)["rule"] == clause
    assert last(result)["message"].startswith("r1 is ")
    assert last(result)["message"].endswith(" cannot declare Cautious Movement")
    assert result["state"]["orders"]["red"] == 1
    assert last(n4([banned, AWAY], [move("r1", (12, 10))]))["accepted"]  # a Move is fine


def test_cau_20_hidden_deployment_troopers_are_not_models_or_markers(n4: Scene) -> None:
    """CAU-20: a Hidden Deployment trooper with LoF does not stop CAU-10."""
    hidden = {**WATCHING, "conditions": ["hidden_deployment"]}

    result = n4([R1, hidden], [cautious("r1", (13, 10))])

    assert not can_react(Trooper.model_validate(hidden))
    assert last(result)["rule"] == "CAU-10"


def test_cau_21_hidden_deployment_cannot_react_even_with_lof(n4: Scene) -> None:
    # The move ends in b2's ZoC, so a window opens; hidden b1 sees the whole path.
    hidden = {**WATCHING, "conditions": ["hidden_deployment"]}
    zone = trooper("b2", "blue", 20, 10, facing=0)

    result = n4([R1, hidden, zone], [cautious("r1", (12, 10)),
                                     {"by": "blue", "do": "aro", "trooper": "b1",
                                      "skill": "shoot"}])

    assert result["steps"][1]["rule"] == "CAU-13"
    assert "b1" not in result["steps"][1]["message"]  # it is not a Model or Marker
    assert last(result)["rule"] == "CAU-21"
    assert last(result)["message"].endswith("cannot react to r1's Cautious Movement, even "
                                            "with LoF")
    assert window(result)["eligible"] == ["b2"] and window(result)["declared"] == {}


@pytest.mark.parametrize("condition", ["unconscious", "disconnected", "embryo"])
def test_cau_26_27_out_of_action_troopers_cannot_cancel_cautious_movement(
        n4: Scene, condition: str) -> None:
    # b1 sees r1 and has it in its ZoC, but it is Unconscious / Disconnected / an Embryo.
    downed = trooper("b1", "blue", 10, 16, facing=270, conditions=[condition])

    result = n4([R1, downed], [cautious("r1", (13, 10))])

    assert last(result)["rule"] == "CAU-10"
    assert window(result) is None and result["state"]["units"]["r1"]["x"] == 13.0


@pytest.mark.parametrize("condition", ["unconscious", "disconnected", "embryo"])
def test_cau_26_27_out_of_action_troopers_cannot_react_to_cautious_movement(
        n4: Scene, condition: str) -> None:
    downed = trooper("b1", "blue", 10, 16, facing=270, conditions=[condition])
    zone = trooper("b2", "blue", 20, 10, facing=0)

    result = n4([R1, downed, zone], [cautious("r1", (12, 10)),
                                     {"by": "blue", "do": "pass", "trooper": "b1"}])

    assert last(result)["rule"] == "CAU-27"
    assert condition in last(result)["message"]


@pytest.mark.parametrize("condition", ["unconscious", "disconnected", "embryo"])
def test_cau_26_28_out_of_action_troopers_cannot_prevent_marker_state_reentry(
        condition: str) -> None:
    downed = Trooper.model_validate(trooper("b1", "blue", 10, 16, conditions=[condition]))
    awake = Trooper.model_validate(trooper("b2", "blue", 10, 16))

    assert not can_prevent_marker_state_reentry(downed)
    assert can_prevent_marker_state_reentry(awake)


def test_cau_22_24_camouflage_markers_count_with_360_degree_lof(n4: Scene) -> None:
    # The marker faces away from r1, but a Marker's LoF is all around.
    marker = trooper("c1", "blue", 10, 30, facing=90, marker="camouflage")

    result = n4([R1, marker], [cautious("r1", (13, 10))])

    assert last(result)["rule"] == "CAU-13"
    assert window(result)["eligible"] == ["c1"]
    assert result["state"]["units"]["c1"]["conditions"] == ["camouflaged"]


def test_cau_10_modifiers_hook_a_cau_11_can_change_the_verdict(
        n4: Scene, monkeypatch: pytest.MonkeyPatch) -> None:
    """A-CAU-11: a rule outside the source (e.g. Stealth) registered as a CAU-10 modifier
    decides instead of CAU-10 / CAU-13; none is registered by default."""
    def cloak(state: object, mover: Trooper, path: object) -> AroVerdict:
        return AroVerdict(False, "CORE-TEST-CLOAK", f"{mover.id} is cloaked: no ARO")

    default = n4([R1, WATCHING], [cautious("r1", (13, 10))])
    monkeypatch.setattr(cautious_module, "CAU_10_MODIFIERS", [lambda *_: None, cloak])
    cloaked = n4([R1, WATCHING], [cautious("r1", (13, 10))])

    assert CAU_10_MODIFIERS == []
    assert last(default)["rule"] == "CAU-13" and window(default)["eligible"] == ["b1"]
    assert last(cloaked)["rule"] == "CORE-TEST-CLOAK"
    assert last(cloaked)["message"] == "r1 is cloaked: no ARO"
    assert window(cloaked) is None and cloaked["state"]["units"]["r1"]["x"] == 13.0


def test_cau_11_13_a_base_touching_the_side_line_is_in_the_front_arc(n4: Scene) -> None:
    """CORE-LOF-GEOMETRY: the front arc is the closed half-plane. r1's base touches b1's
    side line (y = 30) at one point and nothing hides it, so the move does not start
    outside b1's LoF (CAU-11 unmet) and AROs come as usual (CAU-13)."""
    grazing = trooper("r1", "red", 40, 29.5, facing=0)
    side_on = trooper("b1", "blue", 30, 30, facing=90)

    result = n4([grazing, side_on], [cautious("r1", (41, 29.5))])

    assert (last(result)["accepted"], last(result)["rule"]) == (True, "CAU-13")
    assert window(result)["eligible"] == ["b1"]


def test_cau_11_13_a_base_seen_through_a_narrow_slot_is_in_lof(n4: Scene) -> None:
    """RULINGS LoF reaches any point of the base: a 0.1" slot between two walls shows
    b1 a sliver of r1's base, which no sampled outline point finds. CAU-11 is unmet at
    the start, so CAU-13."""
    walls = [wall("west", 0, 20, 14.95, 20.1), wall("east", 15.05, 20, 48, 20.1)]
    seen = trooper("r1", "red", 17.32, 10, facing=0)
    watcher = trooper("b1", "blue", 10, 40, facing=270)

    result = n4([seen, watcher], [cautious("r1", (13.82, 10))], terrain=walls)

    assert (last(result)["accepted"], last(result)["rule"]) == (True, "CAU-13")


def test_cau_10_a_base_wholly_behind_a_wall_with_no_slot_is_out_of_lof(n4: Scene) -> None:
    """The same scene with the slot closed: no LoF, no ZoC at either end (CAU-10)."""
    seen = trooper("r1", "red", 17.32, 10, facing=0)
    watcher = trooper("b1", "blue", 10, 40, facing=270)

    result = n4([seen, watcher], [cautious("r1", (13.82, 10))],
                terrain=[wall("whole", 0, 20, 48, 20.1)])

    assert (last(result)["accepted"], last(result)["rule"]) == (True, "CAU-10")


@pytest.mark.parametrize("condition", ["unconscious", "disconnected", "embryo"])
def test_core_activate_an_out_of_action_trooper_cannot_declare_cautious_movement(
        n4: Scene, condition: str) -> None:
    downed = trooper("r1", "red", 10, 10, conditions=[condition])

    result = n4([downed, AWAY], [cautious("r1", (13, 10))])

    assert result["steps"][0]["accepted"], result["steps"][0]
    assert last(result)["rule"] == "CORE-ACTIVATE"
    assert f"r1 is {condition} and cannot act" in str(last(result)["message"])
    assert result["state"]["units"]["r1"]["x"] == 10.0  # it did not move


def test_core_order_pool_cautious_movement_needs_an_order_left_in_the_pool(
        n4: Scene) -> None:
    # One trooper, one order: the second Cautious Movement has none left to spend.
    result = n4([R1, AWAY], [cautious("r1", (12, 10)), cautious("r1", (14, 10))])

    assert result["steps"][1]["accepted"], result["steps"][1]
    assert last(result)["rule"] == "CORE-ORDER-POOL"
    assert result["state"]["orders"] == {"red": 0}  # never -1
    assert result["state"]["units"]["r1"]["x"] == 12.0
