"""Arriving from Ambush (AMB-11…20, AMB-27). Source: seeds/ambush.es.txt lines 5–11;
A-AMB-05, A-AMB-07, A-AMB-08, A-AMB-10, A-AMB-15, A-AMB-16; RULINGS.md T9A."""

from __future__ import annotations

import pytest
from t9a_scene import Scene, ambusher, arrive, last, to_movement, unit

from domain.errors import ScriptError
from domain.t9a.placement import is_legal_formation
from domain.t9a.rules import T9A

AMBUSH = {"by": "red", "do": "ambush", "unit": "red-scouts"}
ROLLED = [AMBUSH, *to_movement(2), {"by": "red", "do": "roll_ambush", "dice": [5]}]


def test_amb_11_refuses_a_point_that_is_not_on_a_board_edge(t9a: Scene) -> None:
    result = t9a([ambusher()], [*ROLLED, arrive(point=(36, 1), y=3.5)])

    assert last(result)["rule"] == "AMB-11"
    assert "the chosen point (36, 1) is not on a board edge" in last(result)["message"]
    assert result["state"]["units"]["red-scouts"]["status"] == "reserve"


@pytest.mark.parametrize("x", ["Forest", "Vanguard Line"])
def test_amb_11_refuses_at_set_up_an_ambush_x_with_no_arrival_point_rule(
        t9a: Scene, x: str) -> None:
    """A-AMB-02: only Ambush (Board Edge) has an arrival-point rule, so no arrival could
    ever be accepted for another X (T9A rules version 2): the set-up is refused."""
    with pytest.raises(ScriptError, match=r"units: AMB-11: red-scouts has Ambush "
                       r"\((forest|vanguard_line)\), which has no arrival-point rule"):
        t9a([ambusher(ambush=x)], [AMBUSH])


def test_amb_11_refuses_the_arrival_of_a_game_decided_under_t9a_version_1(
        t9a: Scene, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game set up before version 2 keeps its verdicts: its arrival is refused."""
    monkeypatch.setattr(T9A, "rules_changes", ())
    steps = [*ROLLED, arrive()]

    result = t9a([ambusher(ambush="Vanguard Line")], steps)

    assert last(result)["rule"] == "AMB-11"
    assert last(result)["message"] == "Ambush (vanguard_line) has no arrival-point rule"


def test_amb_11_accepts_a_point_on_any_board_edge(t9a: Scene) -> None:
    result = t9a([ambusher()], [*ROLLED, arrive(point=(0, 24), x=2.5, y=24, facing=0)])

    assert last(result)["accepted"] and "UnitArrivedFromAmbush" in last(result)["events"]
    scouts = result["state"]["units"]["red-scouts"]
    assert (scouts["status"], scouts["x"], scouts["y"], scouts["facing"]) == (
        "on_table", 2.5, 24.0, 0.0)
    assert scouts["arrived"]["point"] == [0.0, 24.0]


def test_amb_13_rejects_arrival_with_two_corners_in_range(t9a: Scene) -> None:
    result = t9a([ambusher()], [*ROLLED, arrive(point=(60, 0), x=60, y=6)])

    assert last(result)["rule"] == "AMB-13"
    assert last(result)["message"].startswith("only 2 of the unit's 4 corners are within 6\"")


def test_amb_13_accepts_three_corners_in_range_and_one_out(t9a: Scene) -> None:
    # Facing 0: 2" deep along x, 4" wide along y. Centre (31, 2.5): corners (32, 4.5)
    # (32, 0.5) (30, 0.5) (30, 4.5); from the point (27, 0): 6.73, 5.02, 3.04, 5.41.
    result = t9a([ambusher()], [*ROLLED, arrive(point=(27, 0), x=31, y=2.5, facing=0)])

    assert last(result)["accepted"] and last(result)["rule"] == "AMB-18"
    scouts = result["state"]["units"]["red-scouts"]
    assert (scouts["status"], scouts["x"], scouts["facing"]) == ("on_table", 31.0, 0.0)


def test_amb_13_a_corner_exactly_6_inches_away_is_within(t9a: Scene) -> None:
    # 8 files x 1 rank facing 90 at (39.6, 4.3): corners (35.6, 4.8) (43.6, 4.8) (43.6, 3.8)
    # (35.6, 3.8); from the point (40, 0): 6.51, 6.00 (3-4-5), 5.24, 5.80. Counting the
    # exact 6.00" as within makes 3 of 4 (A-AMB-09: within means <= 6.0").
    exact = arrive(point=(40, 0), x=39.6, y=4.3, files=8, ranks=1)

    result = t9a([ambusher()], [*ROLLED, exact])

    assert last(result)["accepted"]


def test_amb_14_refuses_an_illegal_formation(t9a: Scene) -> None:
    result = t9a([ambusher()], [*ROLLED, arrive(files=3, ranks=2)])

    assert last(result)["rule"] == "AMB-14" and "8 models" in last(result)["message"]


def test_amb_14_the_last_rank_may_not_be_empty_but_may_be_full(t9a: Scene) -> None:
    # 8 models: 4 × 3 leaves the third rank empty (4·2 = 8, not < 8); 4 × 2 is full.
    empty = t9a([ambusher()], [*ROLLED, arrive(files=4, ranks=3, y=2.5)])
    full = t9a([ambusher()], [*ROLLED, arrive(files=4, ranks=2, y=2.5)])

    assert last(empty)["rule"] == "AMB-14"
    assert "needs more than 8 and at most 12" in last(empty)["message"]
    assert last(full)["accepted"], last(full)


@pytest.mark.parametrize(("files", "ranks", "models", "legal"), [
    (4, 2, 8, True), (4, 3, 8, False), (3, 3, 7, True), (3, 3, 6, False), (1, 1, 1, True),
    (1, 2, 1, False), (0, 1, 0, False), (2, 0, 0, False),
])
def test_core_formation_boundaries(files: int, ranks: int, models: int, legal: bool) -> None:
    assert is_legal_formation(files, ranks, models) is legal


def test_amb_14_accepts_any_legal_formation(t9a: Scene) -> None:
    result = t9a([ambusher()], [*ROLLED, arrive(files=3, ranks=3, y=2.5)])

    assert last(result)["accepted"]
    scouts = result["state"]["units"]["red-scouts"]
    assert (scouts["files"], scouts["ranks"]) == (3, 3)


def test_amb_15_refuses_a_placement_within_1_inch_of_another_unit(t9a: Scene) -> None:
    blue = unit("blue-guard", "blue", x=36, y=6.4, facing=270)   # its rear edge at y 5.4

    result = t9a([ambusher(), blue], [*ROLLED, arrive(y=3.5)])   # front edge at y 4.5

    assert last(result)["rule"] == "AMB-15"
    assert "unit blue-guard (0.90\")" in last(result)["message"]


def test_amb_15_refuses_a_placement_within_1_inch_of_impassable_terrain(t9a: Scene) -> None:
    result = t9a([ambusher()], [*ROLLED, arrive(point=(12, 0), x=12, y=4.2)])   # 0.9" from rock

    assert last(result)["rule"] == "AMB-15" and "impassable rock" in last(result)["message"]


def test_amb_15_unit_spacing_means_more_than_1_inch(t9a: Scene) -> None:
    blue = unit("blue-guard", "blue", x=36, y=6.5, facing=270)   # exactly 1.0" apart

    result = t9a([ambusher(), blue], [*ROLLED, arrive(y=3.5)])

    assert last(result)["rule"] == "AMB-15"
    assert "unit blue-guard (1.00\")" in last(result)["message"]
    assert "more than 1\" away" in last(result)["message"]


def test_amb_16_refuses_a_unit_directly_between_the_footprint_and_the_point(t9a: Scene) -> None:
    blue = unit("blue-pickets", "blue", files=1, ranks=1, x=36, y=1, facing=90)
    # footprint x 34..38, y 3.5..5.5 (2" from the pickets, corners 5.85" and 4.03")
    result = t9a([ambusher(), blue], [*ROLLED, arrive(x=36, y=4.5)])

    assert last(result)["rule"] == "AMB-16" and "unit blue-pickets" in last(result)["message"]


def test_amb_16_refuses_impassable_terrain_between_the_footprint_and_the_point(t9a: Scene) -> None:
    result = t9a([ambusher()], [*ROLLED, arrive(point=(12, 0), x=12, y=4.5)])

    assert last(result)["rule"] == "AMB-16" and "impassable rock" in last(result)["message"]


def test_core_board_edge_refuses_a_footprint_partly_off_the_board(t9a: Scene) -> None:
    result = t9a([ambusher()], [*ROLLED, arrive(point=(36, 0), x=36, y=0.5)])

    assert last(result)["rule"] == "CORE-BOARD-EDGE"
    assert "(x 34.00…38.00, y -0.50…1.50) is not wholly on the 72\" × 48\" board" in (
        last(result)["message"])


def test_amb_18_an_arriving_unit_counts_as_having_made_an_advance_move(t9a: Scene) -> None:
    result = t9a([ambusher()], [*ROLLED, arrive()])

    assert last(result)["rule"] == "AMB-18"
    scouts = result["state"]["units"]["red-scouts"]
    assert scouts["advance_moved"] is True and scouts["moved"] == "advance"


def test_amb_19_rejects_every_further_move_in_the_phase_of_arrival(t9a: Scene) -> None:
    moves = [{"by": "red", "do": "advance", "unit": "red-scouts", "distance": 1},
             {"by": "red", "do": "march", "unit": "red-scouts", "distance": 1},
             {"by": "red", "do": "reform", "unit": "red-scouts", "facing": 0}]

    result = t9a([ambusher()], [*ROLLED, arrive(), *moves])

    assert [s["rule"] for s in result["steps"][-3:]] == ["AMB-19"] * 3
    assert "arrived from Ambush in this movement phase" in last(result)["message"]
    assert result["state"]["units"]["red-scouts"]["y"] == 2.5


def test_amb_19_the_unit_moves_again_in_its_next_player_turn(t9a: Scene) -> None:
    steps = [*ROLLED, arrive(), {"by": "red", "do": "end_turn"}, {"by": "blue", "do": "end_turn"},
             {"by": "red", "do": "next_phase"},
             {"by": "red", "do": "advance", "unit": "red-scouts", "distance": 4}]

    result = t9a([ambusher()], steps)

    assert last(result)["accepted"]
    assert result["state"]["units"]["red-scouts"]["y"] == 6.5


def test_amb_12_a_unit_that_rolled_3_plus_but_was_not_placed_stays_and_rolls_again(
    t9a: Scene,
) -> None:
    steps = [*ROLLED, arrive(point=(12, 0), x=12, y=4.5), {"by": "red", "do": "end_turn"},
             {"by": "blue", "do": "end_turn"}, {"by": "red", "do": "next_phase"},
             {"by": "red", "do": "roll_ambush", "dice": [6]}, arrive()]

    result = t9a([ambusher()], steps)

    outcomes = result["steps"][-6:]
    assert outcomes[0]["rule"] == "AMB-16"
    assert outcomes[1]["accepted"] and outcomes[1]["rule"] == "AMB-12"
    assert "AmbushArrivalPostponed" in outcomes[1]["events"]
    assert outcomes[4]["accepted"] and outcomes[5]["accepted"]   # Player Turn 3
    assert result["state"]["units"]["red-scouts"]["status"] == "on_table"


def test_amb_27_a_unit_arriving_in_game_turn_6_loses_scoring(t9a: Scene) -> None:
    steps = [AMBUSH, *to_movement(6), {"by": "red", "do": "roll_ambush"}, arrive()]

    result = t9a([ambusher()], steps)

    assert last(result)["accepted"] and last(result)["rule"] == "AMB-27"
    assert "ScoringLost" in last(result)["events"]
    assert result["state"]["units"]["red-scouts"]["scoring"] is False


def test_amb_27_a_unit_arriving_in_game_turn_5_keeps_scoring(t9a: Scene) -> None:
    steps = [AMBUSH, *to_movement(5), {"by": "red", "do": "roll_ambush"}, arrive()]

    result = t9a([ambusher()], steps)

    assert last(result)["rule"] == "AMB-18"
    assert result["state"]["units"]["red-scouts"]["scoring"] is True


def test_amb_20_a_unit_still_in_ambush_at_the_end_of_the_game_is_removed_as_a_casualty(
    t9a: Scene,
) -> None:
    steps = [AMBUSH, *to_movement(2), {"by": "red", "do": "roll_ambush", "dice": [1]},
             {"by": "judge", "do": "end_game"}]

    result = t9a([ambusher()], steps)

    assert last(result)["accepted"] and last(result)["rule"] == "AMB-20"
    assert "T9ARemovedAsCasualty" in last(result)["events"]
    assert result["state"]["units"]["red-scouts"]["status"] == "removed"
    assert result["state"]["finished"] is True


def test_amb_20_applies_when_the_last_player_turn_of_game_turn_6_ends(t9a: Scene) -> None:
    steps = [AMBUSH, *to_movement(6), {"by": "red", "do": "roll_ambush"},
             {"by": "red", "do": "end_turn"}, {"by": "blue", "do": "end_turn"}]

    result = t9a([ambusher()], steps)

    assert result["steps"][-2]["rule"] == "AMB-12"
    assert last(result)["rule"] == "AMB-20"
    assert result["state"]["units"]["red-scouts"]["status"] == "removed"


def test_amb_06_no_unit_arrives_in_player_turn_1(t9a: Scene) -> None:
    result = t9a([ambusher()], [AMBUSH, *to_movement(1), arrive()])

    assert last(result)["rule"] == "AMB-06"
    assert last(result)["message"] == ("red-scouts cannot arrive in Player Turn 1: Ambush rolls "
                                       "start in Player Turn 2")


def test_amb_09_a_unit_cannot_arrive_before_the_rolls_are_made(t9a: Scene) -> None:
    result = t9a([ambusher()], [AMBUSH, *to_movement(2), arrive()])

    assert last(result)["rule"] == "AMB-09" and "(roll_ambush)" in last(result)["message"]
    assert result["state"]["units"]["red-scouts"]["status"] == "reserve"
