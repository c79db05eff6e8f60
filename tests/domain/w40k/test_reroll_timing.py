"""STR-16 (w40k rules version 4): Command Re-roll is used "just after you make a
roll": the roll it replaces was made by the step just before the re-roll, so a
later step (another charge and its window) in between stretches it too far."""

from __future__ import annotations

from .conftest import Run
from .helpers import PASS_BLUE, TO_RED_CHARGE, refused, step, units

#: r1 and r2 may both charge b1 (blue may Fire Overwatch each time).
ARMY = units(r1={"y": 12}, r2={"x": 14, "y": 12})
R1_CHARGES = {"by": "red", "do": "declare_charge", "unit": "r1", "targets": ["b1"]}
R2_CHARGES = {"by": "red", "do": "declare_charge", "unit": "r2", "targets": ["b1"]}
REROLL_R1 = {"by": "red", "do": "use_stratagem", "stratagem": "command-re-roll",
             "targets": ["r1"], "replaces": "R1"}


def test_a_re_roll_just_after_the_roll_is_accepted(run: Run) -> None:
    result = run([*TO_RED_CHARGE, R1_CHARGES, PASS_BLUE, REROLL_R1], units=ARMY)

    assert step(result, 6)["accepted"], step(result, 6)
    assert "RollReplaced" in step(result, 6)["events"]


def test_a_re_roll_after_other_steps_came_between_is_refused(run: Run) -> None:
    result = run([*TO_RED_CHARGE, R1_CHARGES, PASS_BLUE, R2_CHARGES, PASS_BLUE, REROLL_R1],
                 units=ARMY)

    assert [step(result, i)["accepted"] for i in (4, 5, 6, 7)] == [True] * 4, result
    assert refused(result, 8) == "STR-16"
    assert "just after you make the roll" in str(step(result, 8)["message"])
