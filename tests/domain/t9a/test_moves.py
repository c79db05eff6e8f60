"""The plain Moves of the minimal T9A core (RULINGS.md "Moves"): CORE-ONE-MOVE,
CORE-MOVE-RATE, CORE-MOVE-BLOCKED, and the Advance Move record AMB-18 relies on."""

from __future__ import annotations

from t9a_scene import Scene, last, to_movement, unit

SPEARS = unit("red-spears", x=36, y=10, facing=90)


def move(kind: str, **args: object) -> dict[str, object]:
    return {"by": "red", "do": kind, "unit": "red-spears", **args}


def test_an_advance_move_goes_forwards_and_is_recorded_as_advance_moved(t9a: Scene) -> None:
    result = t9a([SPEARS], [*to_movement(1), move("advance", distance=4)])

    spears = result["state"]["units"]["red-spears"]
    assert last(result)["accepted"] and spears["y"] == 14.0 and spears["advance_moved"] is True


def test_core_move_rate_limits_advance_and_march_moves(t9a: Scene) -> None:
    result = t9a([SPEARS], [*to_movement(1), move("advance", distance=4.5)])
    marched = t9a([SPEARS], [*to_movement(1), move("march", distance=8)])

    assert last(result)["rule"] == "CORE-MOVE-RATE"
    assert last(marched)["accepted"]
    assert marched["state"]["units"]["red-spears"]["advance_moved"] is False


def test_core_one_move_a_unit_moves_once_per_movement_phase(t9a: Scene) -> None:
    result = t9a([SPEARS], [*to_movement(1), move("advance", distance=1),
                            move("reform", facing=0)])

    assert last(result)["rule"] == "CORE-ONE-MOVE"


def test_core_move_blocked_a_move_cannot_pass_through_another_unit(t9a: Scene) -> None:
    blue = unit("blue-guard", "blue", x=36, y=14, facing=270)

    result = t9a([SPEARS, blue], [*to_movement(1), move("march", distance=8)])

    assert last(result)["rule"] == "CORE-MOVE-BLOCKED"


def test_moves_are_made_only_in_the_movement_phase(t9a: Scene) -> None:
    result = t9a([SPEARS], [*to_movement(1)[:-1], move("advance", distance=1)])

    assert last(result)["rule"] == "CORE-PHASE"


def test_an_advance_goes_forwards_along_the_units_facing(t9a: Scene) -> None:
    """Facing 0° is towards +x: the unit's centre moves 4" along x only."""
    east = unit("red-spears", x=36, y=10, facing=0)

    result = t9a([east], [*to_movement(1), move("advance", distance=4)])

    spears = result["state"]["units"]["red-spears"]
    assert last(result)["accepted"], last(result)
    assert (spears["x"], spears["y"], spears["facing"]) == (40.0, 10.0, 0.0)


def test_a_reform_turns_and_reforms_the_unit_about_its_centre(t9a: Scene) -> None:
    """A Reform: a new formation and facing about the unit's centre; CORE-ONE-MOVE
    counts it as the unit's Move."""
    result = t9a([SPEARS], [*to_movement(1), move("reform", facing=0, files=2, ranks=4),
                            move("advance", distance=1)])

    assert result["steps"][-2]["accepted"], result["steps"][-2]
    assert "T9AUnitMoved" in result["steps"][-2]["events"]
    spears = result["state"]["units"]["red-spears"]
    assert (spears["x"], spears["y"], spears["facing"], spears["files"], spears["ranks"]) == (
        36.0, 10.0, 0.0, 2, 4)
    assert last(result)["rule"] == "CORE-ONE-MOVE"


def test_a_reform_without_a_formation_keeps_the_units_files_and_ranks(t9a: Scene) -> None:
    result = t9a([SPEARS], [*to_movement(1), move("reform", facing=180)])

    spears = result["state"]["units"]["red-spears"]
    assert last(result)["accepted"], last(result)
    assert (spears["facing"], spears["files"], spears["ranks"]) == (180.0, 4, 2)


def test_a_move_cannot_leave_the_board(t9a: Scene) -> None:
    near_edge = unit("red-spears", x=36, y=3, facing=270)

    result = t9a([near_edge], [*to_movement(1), move("advance", distance=4)])

    assert not last(result)["accepted"] and last(result)["rule"] == "CORE-BOARD-EDGE", last(
        result)
    assert result["state"]["units"]["red-spears"]["y"] == 3.0


def test_core_unit_spacing_a_move_cannot_end_within_an_inch_of_another_unit(
        t9a: Scene) -> None:
    """The path is clear (blue stands beside the end, not across the path), but the
    unit would end 0.5" from blue."""
    blue = unit("blue-guard", "blue", x=40.5, y=14, facing=90)

    result = t9a([SPEARS, blue], [*to_movement(1), move("advance", distance=4)])

    assert last(result)["rule"] == "CORE-UNIT-SPACING", last(result)
    assert result["state"]["units"]["red-spears"]["y"] == 10.0


def test_input_a_unit_not_on_the_table_cannot_move(t9a: Scene) -> None:
    scouts = {"id": "red-scouts", "owner": "red", "files": 4, "ranks": 2, "base": [1, 1],
              "status": "reserve", "rules": {"ambush": "Board Edge"}}

    result = t9a([SPEARS, scouts], [*to_movement(1), {"by": "red", "do": "advance",
                                                      "unit": "red-scouts", "distance": 1}])

    assert (last(result)["rule"], last(result)["message"]) == (
        "INPUT", "red-scouts is not on the table")


def test_core_formation_a_reform_into_too_few_places_is_refused(t9a: Scene) -> None:
    """CORE-FORMATION: 8 models do not fit 2 files × 3 ranks (they need more than 4
    and at most 6)."""
    result = t9a([SPEARS], [*to_movement(1), move("reform", facing=90, files=2, ranks=3)])

    assert last(result)["rule"] == "CORE-FORMATION", last(result)
    assert result["state"]["units"]["red-spears"]["files"] == 4


def test_a_reform_cannot_leave_the_board(t9a: Scene) -> None:
    """8 files wide about a centre 2" from the side edge: CORE-BOARD-EDGE."""
    near_side = unit("red-spears", x=2, y=10, facing=90)

    result = t9a([near_side], [*to_movement(1), move("reform", facing=90, files=8, ranks=1)])

    assert last(result)["rule"] == "CORE-BOARD-EDGE", last(result)


def test_core_unit_spacing_a_reform_cannot_end_within_an_inch_of_another_unit(
        t9a: Scene) -> None:
    """8 files wide, the spears would end 0.5" from blue (2.5" away before)."""
    blue = unit("blue-guard", "blue", x=42.5, y=10, facing=90)

    result = t9a([SPEARS, blue], [*to_movement(1), move("reform", facing=90, files=8,
                                                        ranks=1)])

    assert last(result)["rule"] == "CORE-UNIT-SPACING", last(result)
    assert result["state"]["units"]["red-spears"]["files"] == 4
