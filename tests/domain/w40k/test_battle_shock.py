"""Battle-shock (RULINGS 40k): below half strength → a 2D6 Leadership test in the
Command phase; a failed unit is battle-shocked until its next Command phase and
cannot be targeted by its owner's stratagems (CORE-BATTLE-SHOCKED), except
Insane Bravery, used before the test. Command Re-roll replaces a test's roll.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from domain.w40k.state import W40KState

from .conftest import Run
from .helpers import TO_RED_SHOOTING, refused, step, units

WEAK = units(r1={"models": 4, "starting_strength": 10, "leadership": 7}, b1={"y": 17})
TEST_R1 = {"by": "red", "do": "test_battle_shock", "unit": "r1"}
REROLL = {"by": "red", "do": "use_stratagem", "stratagem": "command-re-roll", "targets": ["r1"]}


def test_a_unit_below_half_strength_must_test_and_fails_below_its_leadership(
    run: Run,
) -> None:
    result = run([{**TEST_R1, "dice": [2, 3]}], units=WEAK)

    assert step(result, 0)["events"][-1] == "BattleShockTested"
    assert result["state"]["units"]["r1"]["conditions"] == ["battle_shocked"]
    assert result["state"]["battle_shock_due"] == []


def test_a_unit_at_or_above_half_strength_has_no_test_due(run: Run) -> None:
    result = run([{"by": "red", "do": "test_battle_shock", "unit": "r2"}], units=WEAK)

    assert refused(result, 0) == "CORE-BATTLE-SHOCK"
    assert step(result, 0)["message"] == (
        "r2 has no Battle-shock test due (1 of 1 model; tests are due at the start of the "
        "Command phase for units below half strength)")


def test_core_battle_shocked_its_owner_cannot_target_it_with_stratagems(run: Run) -> None:
    grenade = {"by": "red", "do": "use_stratagem", "stratagem": "grenade", "targets": ["r1"],
               "enemy": "b1", "dice": [1, 1, 1, 1, 1, 1]}

    result = run([{**TEST_R1, "dice": [1, 1]}, *TO_RED_SHOOTING, grenade], units=WEAK)

    assert refused(result, 4) == "CORE-BATTLE-SHOCKED"
    assert step(result, 4)["message"] == "r1 is battle-shocked; red cannot target it with Grenade"


def test_insane_bravery_passes_the_test_automatically_before_it_is_taken(run: Run) -> None:
    bravery = {"by": "red", "do": "use_stratagem", "stratagem": "insane-bravery",
               "targets": ["r1"]}

    result = run([bravery, TEST_R1], units=WEAK)

    assert step(result, 0)["events"][-1] == "BattleShockTested"
    assert result["state"]["units"]["r1"]["conditions"] == []
    assert refused(result, 1) == "CORE-BATTLE-SHOCK"  # no test left to take


def test_untaken_tests_are_rolled_when_the_command_phase_ends(run: Run) -> None:
    result = run([{"by": "red", "do": "next_phase", "dice": [1, 1]}], units=WEAK)

    assert "BattleShockTested" in step(result, 0)["events"]
    assert result["state"]["units"]["r1"]["conditions"] == ["battle_shocked"]


def test_a_battle_shocked_unit_recovers_at_its_owners_next_command_phase(run: Run) -> None:
    turns = [{"by": "red", "do": "end_turn"}, {"by": "blue", "do": "end_turn"}]

    result = run([{**TEST_R1, "dice": [1, 1]}, *turns], units=WEAK)

    assert "BattleShockRecovered" in step(result, 2)["events"]
    assert result["state"]["battle_shock_due"] == ["r1"]  # still below half: tests again


def test_command_re_roll_replaces_the_test_roll_and_keeps_the_old_one_marked(
    run: Run, state_of: Callable[[dict[str, Any]], W40KState]
) -> None:
    result = run([{**TEST_R1, "dice": [1, 2]}, {**REROLL, "dice": [5, 6]}], units=WEAK)

    assert step(result, 1)["events"][-3:] == ["DiceRolled", "RollReplaced", "BattleShockTested"]
    rolls = state_of(result).rolls
    assert [(r.ref, r.values, r.replaced_by) for r in rolls] == [
        ("R1", [1, 2], "R2"), ("R2", [5, 6], None)]
    assert result["state"]["units"]["r1"]["conditions"] == []


def test_core_reroll_shock_the_unit_a_failed_test_shocked_may_have_that_test_re_rolled(
    run: Run,
) -> None:
    result = run([{**TEST_R1, "dice": [1, 2]}, {**REROLL, "dice": [1, 1]}], units=WEAK)

    assert step(result, 1)["accepted"], step(result, 1)
    assert result["state"]["units"]["r1"]["conditions"] == ["battle_shocked"]


REROLL_AGAIN = [{"source": "Codex: Test", "stratagems": [{
    "id": "reroll-again", "name": "Reroll Again", "category": "battle_tactic",
    "cp": 0, "when": {"phases": ["command"], "turn": "yours"},
    "target": {}, "effect": {"kind": "reroll", "purposes": ["battle-shock"]},
    "restrictions": {"may_target_unit_already_targeted": True}}]}]


def test_core_reroll_once_a_replaced_roll_cannot_be_re_rolled_again(run: Run) -> None:
    result = run([{**TEST_R1, "dice": [1, 2]}, {**REROLL, "dice": [1, 1]},
                  {**REROLL, "by": "red", "replaces": "R1", "stratagem": "reroll-again",
                   "dice": [6, 6]}],
                 units=WEAK, catalogs=REROLL_AGAIN)
    assert refused(result, 2) == "CORE-REROLL-ONCE"
    assert step(result, 2)["message"] == (
        "roll R1 was already re-rolled (R2); a roll is re-rolled at most once")


@pytest.mark.parametrize("replaces", [{"replaces": "R2"}, {}])
def test_core_reroll_once_the_result_of_a_re_roll_cannot_be_re_rolled(
    run: Run, replaces: dict[str, str]
) -> None:
    """R2 is the re-roll of R1: re-rolling R2 would re-roll the same dice twice."""
    again = {**REROLL, "stratagem": "reroll-again", "dice": [6, 6], **replaces}

    result = run([{**TEST_R1, "dice": [1, 2]}, {**REROLL, "dice": [1, 1]}, again],
                 units=WEAK, catalogs=REROLL_AGAIN)

    assert refused(result, 2) == "CORE-REROLL-ONCE"
    assert step(result, 2)["message"] == (
        "roll R2 is itself the re-roll of R1; a dice is never re-rolled more than once")
    assert result["state"]["units"]["r1"]["conditions"] == ["battle_shocked"]


PSYCHIC_SCREAM = [{"source": "Codex: Test", "stratagems": [{
    "id": "psychic-scream", "name": "Psychic Scream", "category": "wargear", "cp": 1,
    "when": {"phases": ["command"], "turn": "either"}, "target": {},
    "effect": {"kind": "mortal_wounds", "dice": 6, "success": 2}}]}]


def test_core_battle_shock_a_unit_destroyed_before_its_test_takes_none(run: Run) -> None:
    """CORE-BATTLE-SHOCK tests units on the battlefield: r1 (due a test) is destroyed by
    blue's mortal wounds first, so it owes no test and is never battle-shocked."""
    scream = {"by": "blue", "do": "use_stratagem", "stratagem": "psychic-scream",
              "targets": ["b1"], "enemy": "r1", "dice": [6] * 6}
    weak = units(r1={"models": 2, "starting_strength": 10}, b1={"y": 12})

    result = run([scream, {**TEST_R1, "dice": [1, 1]}, {"by": "red", "do": "next_phase"}],
                 units=weak, catalogs=PSYCHIC_SCREAM)

    assert step(result, 0)["accepted"], step(result, 0)
    assert refused(result, 1) == "CORE-BATTLE-SHOCK"
    r1 = result["state"]["units"]["r1"]
    assert (r1["status"], r1["conditions"]) == ("removed", [])
    assert result["state"]["battle_shock_due"] == []


def test_core_battle_shock_after_insane_bravery_says_the_test_was_taken_and_passed(
    run: Run,
) -> None:
    """CORE-BATTLE-SHOCK: after Insane Bravery the test is not "not due": it was
    taken, and passed automatically; the refusal says so."""
    bravery = {"by": "red", "do": "use_stratagem", "stratagem": "insane-bravery",
               "targets": ["r1"]}

    result = run([bravery, TEST_R1], units=WEAK)

    assert step(result, 0)["accepted"]
    assert refused(result, 1) == "CORE-BATTLE-SHOCK"
    message = str(step(result, 1)["message"])
    assert "no Battle-shock test due" not in message
    assert message == ("r1 has already taken its Battle-shock test this phase: Insane Bravery "
                       "(U1) passed it automatically")


def test_core_battle_shock_a_second_test_says_the_first_was_taken(run: Run) -> None:
    """CORE-BATTLE-SHOCK: a unit tests once; a second test names the first and its result."""
    result = run([{**TEST_R1, "dice": [3, 4]}, TEST_R1], units=WEAK)

    assert step(result, 0)["accepted"]
    assert refused(result, 1) == "CORE-BATTLE-SHOCK"
    assert step(result, 1)["message"] == (
        "r1 has already taken its Battle-shock test this phase: R1 rolled 7 against "
        "Leadership 7 and passed")
