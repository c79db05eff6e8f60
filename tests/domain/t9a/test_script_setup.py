"""What a T9A script may field: only positions a game can start from.

A script cannot set what play keeps (rolls, Moves, arrivals), cannot field a
unit in Ambush on the table, and fields units on the table with Unit Spacing
(CORE-UNIT-SPACING) as Deployment would. Ambush's X is read however it is
spelt (A-AMB-02 writes `BoardEdge`).
"""

from __future__ import annotations

import pytest
from t9a_scene import ROCK, Play, Scene, ambusher, arrive, last, script, to_movement, unit

from domain.errors import ScriptError


@pytest.mark.parametrize("field,value", [("arrival_ready", True), ("arrival_roll", 6),
                                         ("moved", "advance"), ("advance_moved", True)])
def test_a_script_cannot_set_what_play_keeps(play: Play, field: str, value: object) -> None:
    scouts = ambusher(conditions=["ambush"], **{field: value})

    with pytest.raises(ScriptError, match=f"units\\[0\\]: {field} is kept by the game"):
        play(script([scouts], []))


def test_amb_06_a_unit_fielded_in_ambush_still_needs_player_turn_2_and_a_roll(
    t9a: Scene,
) -> None:
    """With `arrival_ready` no longer settable, arriving in Player Turn 1 is AMB-06."""
    result = t9a([ambusher(conditions=["ambush"])], [*to_movement(1), arrive()])

    assert (last(result)["accepted"], last(result)["rule"]) == (False, "AMB-06")


def test_a_unit_on_the_table_cannot_be_fielded_in_ambush(play: Play) -> None:
    on_table = unit("red-scouts", x=36, y=20, facing=90, conditions=["ambush"],
                    rules={"ambush": "Board Edge"})

    with pytest.raises(ScriptError, match="condition 'ambush' but status 'on_table'"):
        play(script([on_table], []))


@pytest.mark.parametrize("spelling", ["BoardEdge", " Board  Edge ", "board-edge", "BOARD EDGE"])
def test_amb_11_any_spelling_of_board_edge_arrives_by_the_board_edge_rule(
    t9a: Scene, spelling: str
) -> None:
    steps = [*to_movement(2)[:-1], {"by": "red", "do": "next_phase"},
             {"by": "red", "do": "roll_ambush", "dice": [6]}, arrive()]

    result = t9a([ambusher(ambush=spelling, conditions=["ambush"])], steps)

    assert (last(result)["accepted"], last(result)["rule"]) == (True, "AMB-18")
    assert result["state"]["units"]["red-scouts"]["rules"]["ambush"] == "board_edge"


def test_ambush_with_no_x_is_a_malformed_script(play: Play) -> None:
    with pytest.raises(ScriptError, match="Ambush needs its X"):
        play(script([ambusher(ambush="  ")], []))


def test_a_unit_cannot_be_placed_in_ambush_twice(t9a: Scene) -> None:
    twice = [{"by": "red", "do": "ambush", "unit": "red-scouts"}] * 2

    result = t9a([ambusher()], twice)

    assert (last(result)["accepted"], last(result)["rule"]) == (False, "INPUT")
    assert last(result)["message"] == "red-scouts is in Ambush already"


def test_units_fielded_on_the_table_keep_unit_spacing(play: Play) -> None:
    overlapping = [unit("red-a", x=20, y=20, facing=90), unit("blue-b", "blue", x=21, y=20,
                                                            facing=90)]

    spacing = r"Unit Spacing: blue-b would be within 1\" of unit red-a .*\(CORE-UNIT-SPACING\)"
    with pytest.raises(ScriptError, match=spacing):
        play(script(overlapping, []))


def test_a_unit_cannot_be_fielded_on_impassable_terrain(play: Play) -> None:
    on_rock = unit("red-a", x=12, y=2, facing=90)

    with pytest.raises(ScriptError, match=f"impassable {ROCK['id']}"):
        play(script([on_rock], []))


def test_units_just_over_an_inch_apart_may_be_fielded(play: Play) -> None:
    apart = [unit("red-a", x=20, y=20, facing=90), unit("blue-b", "blue", x=25.01, y=20,
                                                      facing=90)]

    result = play(script(apart, []))

    assert set(result["state"]["units"]) == {"red-a", "blue-b"}


@pytest.mark.parametrize("fields,message", [
    ({"rules": {"ambush": "Board Edge", "ambush_models": 20}}, "only 8 models"),
    ({"base": [0, 1]}, "greater than 0"),
    ({"models": 0}, "models must be at least 1"),
])
def test_impossible_unit_values_are_a_malformed_script(
    play: Play, fields: dict[str, object], message: str
) -> None:
    with pytest.raises(ScriptError, match=message):
        play(script([ambusher(**fields)], []))
