"""Human output says commands, results and refusals in words, never as Python reprs."""

from __future__ import annotations

import re
from pathlib import Path
from uuid import UUID

import pytest

from projections.wording import refusal_label, say_command, say_result, say_step
from replay.audit import audit_entries, render, step_positions
from replay.service import GameService
from warledger.cli import render_run
from warledger.script import load_script, run_script

ROOT = Path(__file__).resolve().parents[2]
#: What a Python repr or a bare None looks like in a line of text.
REPR = re.compile(r"\{'|\['|=None|\bNone\b|\bTrue\b|\bFalse\b|\(\)")


@pytest.mark.parametrize(("command", "words"), [
    ({"by": "red", "do": "use_stratagem", "stratagem": "smokescreen", "targets": ["b1"],
      "sections": []}, "Smokescreen on b1"),
    ({"by": "red", "do": "arrive", "unit": "red-scouts", "point": [60, 0], "x": 60, "y": 6,
      "facing": 90}, "arrive red-scouts at (60, 6) facing 90°, point (60, 0)"),
    ({"by": "red", "do": "end_game", "reason": "time",
      "result": {"winner": "red", "draw": False, "points": {"red": 12, "blue": 8}}},
     "end game claiming red wins (red 12, blue 8), reason time"),
    ({"by": "judge", "do": "ruling", "text": "the wall blocks", "clause": None, "on_step": 3},
     'ruling "the wall blocks" on step 3'),
    ({"by": "blue", "do": "consent", "accept": False}, "refuse"),
    ({"by": "red", "do": "request_undo", "steps": 2}, "ask to undo the last 2 steps"),
    ({"by": "red", "do": "next_phase"}, "next phase"),
    ({"by": "red", "do": "trample", "figure": "t1", "to": [44, 28]}, "trample t1 to (44, 28)"),
    ({"by": "pano", "do": "move", "trooper": "t1", "path": [[1, 2], [3, 4.5]]},
     "move t1 along (1, 2) → (3, 4.5)"),
])
def test_a_command_is_said_as_a_player_would_say_it(command: dict[str, object],
                                                     words: str) -> None:
    assert say_command(command) == words


def test_results_steps_and_refusals_in_words() -> None:
    assert say_result({"winner": None, "draw": True, "points": {}}) == "a draw"
    assert say_step(6, "red", {"do": "roll_ambush"}) == "step 6: red roll for Ambush"
    assert refusal_label(5) == "refused after step 5"


def test_no_run_or_audit_line_of_any_example_holds_a_repr() -> None:
    service = GameService(":memory:")
    for path in sorted((ROOT / "examples").glob("*.yaml")):
        script = load_script(path)
        result = run_script(service, script)
        events = service.stored_events(UUID(result["game_id"]))
        text = "\n".join([
            render_run(script, result),
            render(audit_entries(events, positions=step_positions(events)),
                   attempts=service.attempts(UUID(result["game_id"]))),
        ])
        found = [line for line in text.splitlines() if REPR.search(line)]
        assert found == [], (path.name, found[:3])
