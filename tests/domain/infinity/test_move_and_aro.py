"""The plain Move short skill and ARO eligibility (RULINGS "Moves", "Line of Fire",
"Zone of Control", "ARO eligibility"); the ARO window and its answers."""

from __future__ import annotations

from typing import Any

import pytest
from n4_scene import Scene, aro, cautious, move, pass_, trooper, wall

from domain.geometry import Obstacles, polygon_from_points
from domain.infinity.sight import has_lof
from domain.infinity.state import Trooper

R1 = trooper("r1", "red", 10, 10)


def eligible(result: dict[str, Any]) -> list[str] | None:
    window = result["state"]["reaction_window"]
    return None if window is None else list(window["eligible"])


def test_move_enemy_with_lof_to_a_point_of_the_path_gets_an_aro(n4: Scene) -> None:
    watcher = trooper("b1", "blue", 10, 40, facing=270)

    result = n4([R1, watcher], [move("r1", (12, 10))])

    assert "ReactionWindowOpened" in result["steps"][-1]["events"]
    assert eligible(result) == ["b1"]
    assert result["state"]["reaction_window"]["kind"] == "aro"


def test_move_lof_is_a_180_degree_front_arc(n4: Scene) -> None:
    behind = trooper("b1", "blue", 10, 40, facing=90)
    side_on = trooper("b2", "blue", 30, 10, facing=90)  # r1's base straddles its side line

    result = n4([R1, behind, side_on], [move("r1", (10, 12))])

    assert eligible(result) == ["b2"]


def test_move_blocking_terrain_blocks_lof(n4: Scene) -> None:
    watcher = trooper("b1", "blue", 10, 40, facing=270)

    result = n4([R1, watcher], [move("r1", (12, 10))],
                terrain=[wall("building", 5, 20, 20, 25)])

    assert eligible(result) is None
    assert result["state"]["order"]["stage"] == "second_skill"


def test_move_hindering_terrain_does_not_block_lof(n4: Scene) -> None:
    watcher = trooper("b1", "blue", 10, 40, facing=270)

    result = n4([R1, watcher], [move("r1", (12, 10))],
                terrain=[wall("woods", 5, 20, 20, 25, kind="hindering")])

    assert eligible(result) == ["b1"]


def test_move_lof_to_any_point_of_the_path_counts(n4: Scene) -> None:
    # A wall hides the start from b1; the path's end is seen past the wall's east end.
    watcher = trooper("b1", "blue", 10, 40, facing=270)

    hidden_start = n4([R1, watcher], [move("r1", (11, 10))],
                      terrain=[wall("wall", 5, 12, 12, 13)])
    result = n4([R1, watcher], [move("r1", (13.5, 10))],
                terrain=[wall("wall", 5, 12, 12, 13)])

    assert eligible(hidden_start) is None

    assert eligible(result) == ["b1"]


def test_move_path_entering_zoc_gets_an_aro_without_lof(n4: Scene) -> None:
    # b1 faces away, 12" from r1's base; a path to (10, 14) comes to exactly 8".
    zone = trooper("b1", "blue", 10, 23, facing=90)

    short = n4([R1, zone], [move("r1", (10, 13.9))])
    closer = n4([R1, zone], [move("r1", (10, 14))])

    assert eligible(short) is None
    assert eligible(closer) == ["b1"]


def test_move_camouflage_marker_sees_all_around(n4: Scene) -> None:
    marker = trooper("c1", "blue", 10, 40, facing=90, marker="camouflage")

    assert eligible(n4([R1, marker], [move("r1", (12, 10))])) == ["c1"]


@pytest.mark.parametrize(
    "condition", ["hidden_deployment", "unconscious", "disconnected", "embryo"])
def test_move_hidden_and_out_of_action_enemies_never_react(n4: Scene, condition: str) -> None:
    watcher = trooper("b1", "blue", 10, 16, facing=270, conditions=[condition])
    zone = trooper("b2", "blue", 20, 10, facing=0)

    result = n4([R1, watcher, zone], [move("r1", (12, 10)), aro("b1")])

    # RULINGS "ARO eligibility"; CAU-21 is for a Cautious Movement only.
    assert eligible(result) == ["b2"]
    step = result["steps"][-1]
    assert step["rule"] == "CORE-ARO-ELIGIBLE"
    assert step["message"].startswith("b1 is ")
    assert condition.replace("_", " ").title().split()[-1].lower() in step["message"].lower()
    assert result["state"]["reaction_window"]["declared"] == {}


def test_move_path_longer_than_the_first_mov_value_is_refused(n4: Scene) -> None:
    result = n4([R1], [move("r1", (10, 14.01))])

    assert result["steps"][-1]["rule"] == "CORE-MOV"
    assert result["steps"][-1]["message"] == ("r1's path is 4.01\" long; a Move as the first "
                                              "skill may be at most its first MOV value, 4\"")
    assert result["state"]["orders"]["red"] == 1


@pytest.mark.parametrize("kind", ["impassable", "blocking"])
def test_move_path_may_not_cross_impassable_or_blocking_terrain(n4: Scene, kind: str) -> None:
    result = n4([R1], [move("r1", (14, 10))], terrain=[wall("obstacle", 12, 5, 13, 15, kind)])

    assert result["steps"][-1]["rule"] == "CORE-GENERAL-MOVEMENT"
    assert "obstacle" in result["steps"][-1]["message"]


def test_move_hindering_terrain_may_be_crossed(n4: Scene) -> None:
    result = n4([R1], [move("r1", (14, 10))],
                terrain=[wall("woods", 12, 5, 13, 15, "hindering")])

    assert result["steps"][-1]["accepted"]


def test_aro_window_records_aros_and_passes_and_closes_when_all_answered(n4: Scene) -> None:
    b1 = trooper("b1", "blue", 10, 40, facing=270)
    b2 = trooper("b2", "blue", 20, 40, facing=270)

    half = n4([R1, b1, b2], [move("r1", (12, 10)), aro("b1", "shoot")])
    full = n4([R1, b1, b2], [move("r1", (12, 10)), aro("b1", "shoot"), pass_("b2")])

    assert half["state"]["reaction_window"]["declared"] == {"b1": "shoot"}
    assert full["steps"][-1]["events"][-2:] == ["ReactionWindowClosed", "OrderStageReached"]
    assert full["state"]["reaction_window"] is None
    assert full["state"]["order"]["stage"] == "second_skill"


def test_aro_out_of_lof_and_zoc_is_refused_with_the_distance(n4: Scene) -> None:
    b1 = trooper("b1", "blue", 10, 40, facing=270)
    b2 = trooper("b2", "blue", 40, 10, facing=0)

    result = n4([R1, b1, b2], [move("r1", (12, 10)), aro("b2")])

    step = result["steps"][-1]
    assert step["rule"] == "CORE-ARO-ELIGIBLE"
    assert "no LoF to r1" in step["message"] and "27.00\"" in step["message"]


def test_aro_is_answered_once_per_window_and_once_per_order(n4: Scene) -> None:
    b1 = trooper("b1", "blue", 10, 40, facing=270)
    b2 = trooper("b2", "blue", 20, 40, facing=270)

    twice = n4([R1, b1, b2], [move("r1", (12, 10)), aro("b1"), aro("b1", "dodge")])
    again = n4([R1, b1, b2], [move("r1", (12, 10)), pass_("b1"), pass_("b2"),
                              move("r1", (12, 12)), aro("b1")])

    assert twice["steps"][-1]["rule"] == "CORE-ARO-ONCE"
    assert twice["steps"][-1]["message"] == "b1 has already answered this window (shoot)"
    assert again["steps"][-2]["accepted"] and eligible(again) is None
    assert again["steps"][-1]["rule"] == "CORE-NO-WINDOW"


def test_aro_an_enemy_newly_in_sight_reacts_to_the_second_skill(n4: Scene) -> None:
    first = trooper("b1", "blue", 10, 40, facing=270)
    late = trooper("b2", "blue", 14, 22, facing=0)  # its front arc starts at x = 14

    result = n4([R1, first, late], [move("r1", (10, 12)), pass_("b1"),
                                    move("r1", (14, 12))])

    assert result["steps"][1]["accepted"] and result["steps"][2]["accepted"]
    assert eligible(result) == ["b2"]
    assert result["state"]["order"]["stage"] == "second_aro"


def test_aro_the_active_side_cannot_react(n4: Scene) -> None:
    b1 = trooper("b1", "blue", 10, 40, facing=270)
    r2 = trooper("r2", "red", 20, 20)

    result = n4([R1, r2, b1], [move("r1", (12, 10)), aro("r2", by="red")])

    assert result["steps"][-1]["rule"] == "CORE-ARO-ELIGIBLE"
    assert "active side" in result["steps"][-1]["message"]


def test_aro_only_the_owner_declares_a_troopers_aro(n4: Scene) -> None:
    b1 = trooper("b1", "blue", 10, 40, facing=270)

    result = n4([R1, b1], [move("r1", (12, 10)), aro("b1", by="red")])

    assert result["steps"][-1]["rule"] == "CORE-OWNER"


def test_aro_the_window_must_be_answered_before_the_order_goes_on(n4: Scene) -> None:
    b1 = trooper("b1", "blue", 10, 40, facing=270)

    result = n4([R1, b1], [move("r1", (12, 10)), {"by": "red", "do": "idle"},
                           cautious("r1", (13, 10))])

    assert [s["rule"] for s in result["steps"][2:]] == ["CORE-WINDOW-OPEN"] * 2


def test_aro_pass_is_its_own_command(n4: Scene) -> None:
    b1 = trooper("b1", "blue", 10, 40, facing=270)

    result = n4([R1, b1], [move("r1", (12, 10)), aro("b1", "pass")])

    assert result["steps"][-1]["rule"] == "INPUT"


def test_core_aro_lof_a_zoc_only_reactor_cannot_shoot_but_may_dodge(n4: Scene) -> None:
    """CORE-ARO-LOF: b1 faces away (no LoF) but the path enters its ZoC."""
    zone = trooper("b1", "blue", 10, 20, facing=90)

    shoot = n4([R1, zone], [move("r1", (10, 12)), aro("b1", "shoot")])
    dodge = n4([R1, zone], [move("r1", (10, 12)), aro("b1", "dodge")])

    assert shoot["steps"][-1]["rule"] == "CORE-ARO-LOF"
    assert shoot["steps"][-1]["message"].startswith(
        "b1 reacts through its Zone of Control only (no LoF to r1 at any point of its Move)")
    assert shoot["state"]["reaction_window"]["declared"] == {}
    assert dodge["steps"][-1]["events"] == [
        "StepTaken", "ReactionDeclared", "ReactionWindowClosed", "OrderStageReached"]
    assert dodge["state"]["order"]["stage"] == "second_skill"


@pytest.mark.parametrize("spelling", ["SHOOT", "Shoot ", " shoot"])
def test_core_aro_lof_an_aro_is_read_in_any_case(n4: Scene, spelling: str) -> None:
    """`SHOOT` is `shoot`: spelling cannot slip a ZoC-only shot past CORE-ARO-LOF."""
    zone = trooper("b1", "blue", 10, 20, facing=90)

    result = n4([R1, zone], [move("r1", (10, 12)), aro("b1", spelling)])

    assert result["steps"][-1]["rule"] == "CORE-ARO-LOF"


def test_core_aro_lof_a_reactor_with_lof_may_shoot(n4: Scene) -> None:
    watcher = trooper("b1", "blue", 10, 20, facing=270)

    result = n4([R1, watcher], [move("r1", (10, 12)), aro("b1", "shoot")])

    assert result["steps"][-1]["accepted"]
    assert result["state"]["order"]["stage"] == "second_skill"
    assert result["state"]["order"]["had_aro"] == ["b1"]


def test_lof_to_a_base_across_the_side_line_needs_a_clear_line_to_its_front_part() -> None:
    """RULINGS "Line of Fire": only the part of a base inside the 180° front arc can be
    seen. b1 looks towards +y from (20, 10); r1's base straddles the line y = 10, and a
    wall hides its front part while its rear part is in plain (but unseeable) view."""
    b1 = Trooper.model_validate(trooper("b1", "blue", 20, 10, facing=90))
    r1 = Trooper.model_validate(trooper("r1", "red", 10, 10.2))
    target = r1.base_at(r1.position)
    wall_ = polygon_from_points([(14.9, 10), (15.1, 10), (15.1, 12), (14.9, 12)])

    assert not has_lof(b1, target, Obstacles([("wall", wall_)]))
    assert has_lof(b1, target, Obstacles([]))
    assert not has_lof(b1, r1.base_at((10, 11)), Obstacles([("wall", wall_)]))
