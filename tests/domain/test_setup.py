"""Set-up rules every game keeps (CORE-BOARD-EDGE), and the rule sets' own."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import ScriptError
from tests.conftest import Play

BOARD = {"width": 48, "height": 48}


def script(ruleset: str, *units: dict[str, Any], steps: list[Any] | None = None) -> dict[str, Any]:
    return {"ruleset": ruleset, "board": BOARD, "players": ["red", "blue"],
            "units": list(units), "steps": steps or []}


@pytest.mark.parametrize("ruleset", ["t9a", "infinity-n4", "mageknight-2", "w40k-10"])
def test_core_board_edge_a_unit_fielded_off_the_board_makes_the_script_malformed(
    ruleset: str, play: Play
) -> None:
    with pytest.raises(ScriptError, match=r"CORE-BOARD-EDGE: u .* not wholly on the 48"):
        play(script(ruleset, {"id": "u", "owner": "red", "x": 47.8, "y": 10, "facing": 90}))


@pytest.mark.parametrize("ruleset", ["t9a", "infinity-n4", "mageknight-2", "w40k-10"])
def test_a_unit_on_the_table_without_a_facing_faces_zero_degrees(
    ruleset: str, play: Play
) -> None:
    result = play(script(ruleset, {"id": "u", "owner": "red", "x": 20, "y": 20}))

    assert result["state"]["units"]["u"]["facing"] == 0.0


def test_a_unit_on_the_table_needs_a_position(play: Play) -> None:
    with pytest.raises(ScriptError, match="u is on the table but has no x and y"):
        play(script("w40k-10", {"id": "u", "owner": "red"}))


def test_core_formation_a_t9a_unit_fielded_in_an_illegal_formation_is_malformed(
    play: Play,
) -> None:
    unit = {"id": "u", "owner": "red", "x": 20, "y": 20, "facing": 90,
            "files": 5, "ranks": 3, "models": 9}

    with pytest.raises(ScriptError, match="CORE-FORMATION"):
        play(script("t9a", unit))


def test_core_general_movement_infinity_bases_may_not_be_fielded_on_each_other(
    play: Play,
) -> None:
    a = {"id": "a", "owner": "red", "x": 10, "y": 10, "facing": 90}
    b = {"id": "b", "owner": "blue", "x": 10.2, "y": 10, "facing": 90}

    with pytest.raises(ScriptError, match="CORE-GENERAL-MOVEMENT: a's base would end on b's base"):
        play(script("infinity-n4", a, b))


def test_core_judge_a_judge_cannot_take_a_turn(play: Play) -> None:
    result = play(script("w40k-10", steps=[{"by": "judge", "do": "next_phase"}]))

    step = result["steps"][0]
    assert (step["accepted"], step["rule"]) == (False, "CORE-JUDGE")
    assert result["state"]["phase"] == "command"


def test_dice_must_be_whole_numbers_not_booleans(play: Play) -> None:
    result = play(script("w40k-10", steps=[{"by": "red", "do": "end_turn", "dice": [True]}]))

    assert (result["steps"][0]["accepted"], result["steps"][0]["rule"]) == (False, "INPUT")
