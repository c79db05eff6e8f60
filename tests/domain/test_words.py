"""Numbers in refusals agree with their nouns and verbs ("1 model", "1 corner is",
"a, b lie"): the hunt for singular/plural defects (CORE-FORMATION,
AMB-13, AMB-16, CORE-MK-ACTIONS-PER-TURN, CORE-BATTLE-SHOCK)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.words import agrees, counted, listed

Play = Callable[[dict[str, Any]], dict[str, Any]]


def test_counted_agrees_listed() -> None:
    assert (counted(0, "model"), counted(1, "model"), counted(2, "model")) == (
        "0 models", "1 model", "2 models")
    assert counted(1, "die", "dice") == "1 die" and counted(3, "die", "dice") == "3 dice"
    assert (agrees(1, "is", "are"), agrees(2, "is", "are")) == ("is", "are")
    assert listed(["a"], "lies", "lie") == "a lies" and listed(["a", "b"], "lies", "lie") == (
        "a, b lie")


def t9a(units: list[dict[str, Any]], steps: list[dict[str, Any]]) -> dict[str, Any]:
    return {"ruleset": "t9a", "seed": 0, "board": {"width": 72, "height": 48}, "terrain": [],
            "players": ["red", "blue"], "units": units, "steps": steps}


def test_core_formation_one_model_one_file(play: Play) -> None:
    """CORE-FORMATION: "has 1 model; 1 file × 2 ranks", not "1 models; 1 files"."""
    hero = {"id": "hero", "owner": "red", "status": "reserve", "files": 1, "ranks": 1,
            "base": [1, 1]}
    step = {"by": "red", "do": "deploy", "unit": "hero", "x": 10, "y": 10, "facing": 90,
            "files": 1, "ranks": 2}

    result = play(t9a([hero], [step]))

    refusal = result["steps"][0]
    assert not refusal["accepted"] and refusal["rule"] == "CORE-FORMATION"
    assert refusal["message"].startswith("hero has 1 model; 1 file × 2 ranks is not a legal")


def test_amb_13_one_corner_is_within(play: Play) -> None:
    """AMB-13: "only 1 of the unit's 4 corners is within 6\"" (the verb agrees)."""
    scouts = {"id": "red-scouts", "owner": "red", "files": 4, "ranks": 2, "base": [1, 1],
              "status": "reserve", "rules": {"ambush": "Board Edge"}}
    steps: list[dict[str, Any]] = [
        {"by": "red", "do": "ambush", "unit": "red-scouts"}, {"by": "red", "do": "next_phase"},
        {"by": "red", "do": "end_turn"}, {"by": "blue", "do": "end_turn"},
        {"by": "red", "do": "next_phase"}, {"by": "red", "do": "roll_ambush", "dice": [5]},
        {"by": "red", "do": "arrive", "unit": "red-scouts", "point": [60, 0], "x": 64,
         "y": 5, "facing": 90}]

    result = play(t9a([scouts], steps))

    assert all(s["accepted"] for s in result["steps"][:-1]), result["steps"]
    refusal = result["steps"][-1]
    assert refusal["rule"] == "AMB-13"
    assert refusal["message"].startswith("only 1 of the unit's 4 corners is within 6\"")


def test_core_mk_actions_per_turn_one_action_has_been_assigned(play: Play) -> None:
    """CORE-MK-ACTIONS-PER-TURN: "1 of 1 action has been assigned"."""
    units = [{"id": f"w{i}", "owner": "red", "x": 5 + 3 * i, "y": 20, "facing": 90,
              "faction": "atlantis"} for i in range(2)]
    steps = [{"by": "red", "do": "next_phase"},
             {"by": "red", "do": "move", "figure": "w0", "path": [[5, 21]]},
             {"by": "red", "do": "move", "figure": "w1", "path": [[8, 21]]}]
    script = {"ruleset": "mageknight-2", "seed": 3, "board": {"width": 36, "height": 36},
              "players": ["red", "blue"], "terrain": [], "options": {"actions_per_turn": 1},
              "units": units, "steps": steps}

    result = play(script)

    assert result["steps"][1]["accepted"]
    assert result["steps"][2]["rule"] == "CORE-MK-ACTIONS-PER-TURN"
    assert result["steps"][2]["message"] == "1 of 1 action has been assigned this turn"
