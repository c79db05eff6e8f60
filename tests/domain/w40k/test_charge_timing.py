"""CORE-CHARGE, STR-04 (w40k rules version 2): a charge's 2D6 is rolled after the
stratagem window its declaration opens, so the defender chooses Fire Overwatch not
knowing the roll; dice the declaring step carried are held for that roll; with no
window the roll is made at once. A game decided under version 1 keeps its verdicts."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest

from domain.rules_version import at_least
from domain.ruleset import Setup
from domain.w40k.rules import W40K
from domain.w40k.state import W40KState
from replay.service import GameService
from replay.verify import verify_game
from warledger.script import load_script, run_script

from .conftest import Run
from .helpers import (
    GROUND_B1,
    NEXT,
    PASS_BLUE,
    SHOOT_B1,
    TO_RED_CHARGE,
    TO_RED_SHOOTING,
    script,
    step,
    units,
)

ARMY = units(r1={"y": 12})  # b1, 8" away, may Fire Overwatch
CHARGE = {"by": "red", "do": "declare_charge", "unit": "r1", "targets": ["b1"]}
OVERWATCH = {"by": "blue", "do": "use_stratagem", "stratagem": "fire-overwatch",
             "targets": ["b1"]}


def rolls(result: dict[str, Any]) -> list[dict[str, Any]]:
    return list(result["state"]["rolls"])


def test_the_charge_is_rolled_after_the_fire_overwatch_window(run: Run) -> None:
    result = run([*TO_RED_CHARGE, CHARGE, PASS_BLUE], units=ARMY)

    declared, passed = step(result, 4), step(result, 5)
    assert declared["events"] == ["StepTaken", "ChargeDeclared", "ReactionWindowOpened",
                                  "ChargeRollHeld"]
    assert passed["events"] == ["StepTaken", "ReactionDeclared", "ReactionWindowClosed",
                                "DiceRolled", "ChargeRolled"]
    assert [r["purpose"] for r in rolls(result)] == ["charge"]


def test_the_dice_a_declaring_step_carries_are_held_for_the_roll(run: Run) -> None:
    result = run([*TO_RED_CHARGE, {**CHARGE, "dice": [3, 4]}, OVERWATCH], units=ARMY)

    assert step(result, 4)["accepted"] and step(result, 5)["accepted"], step(result, 5)
    assert step(result, 5)["events"][-5:] == [
        "EffectRecorded", "ReactionDeclared", "ReactionWindowClosed", "DiceRolled",
        "ChargeRolled"]
    assert rolls(result)[-1]["values"] == [3, 4]
    assert result["state"]["reaction_window"] is None


def test_with_no_window_the_charge_is_rolled_at_once(run: Run) -> None:
    """Blue spends its only CP on Go to Ground: no one may react to the charge."""
    steps = [*TO_RED_SHOOTING, SHOOT_B1, GROUND_B1, NEXT, {**CHARGE, "dice": [2, 5]}]
    result = run(steps, units=ARMY, cp=0)

    assert step(result, 6)["events"] == ["StepTaken", "ChargeDeclared", "DiceRolled",
                                         "ChargeRolled"]
    assert rolls(result)[-1]["values"] == [2, 5]


def test_the_reactive_example_runs_as_written_and_verifies() -> None:
    """CONTRACT: a script written before version 2 (its charge carries its dice)
    keeps running, and its charge move uses those dice."""
    service = GameService(":memory:")
    result = run_script(service, load_script("examples/w40k-reactive.yaml"))
    game_id = UUID(result["game_id"])
    assert [s["accepted"] for s in result["steps"][:5]] == [True] * 5
    assert at_least(service.load(game_id).state, w40k=2)
    assert verify_game(service, game_id).ok


def test_a_game_decided_under_version_1_keeps_its_charge_and_moves_on_after_its_window(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Its charge was rolled at the declaration (version 1): the window it opened
    closes under version 1, with no second roll; the next step moves the game to
    version 2 (`RulesVersionChanged`), and the whole log verifies."""
    data = script([], units=ARMY)
    service = GameService(":memory:")
    monkeypatch.setattr(W40K, "rules_changes", ())
    game_id = service.start(Setup(**{k: v for k, v in data.items() if k != "steps"}))
    for command in TO_RED_CHARGE:
        assert service.handle(game_id, command).accepted, command
    assert service.handle(game_id, CHARGE, dice=[3, 4]).accepted
    monkeypatch.undo()

    closing = service.handle(game_id, PASS_BLUE)
    moving = service.handle(game_id, {"by": "red", "do": "charge_move", "unit": "r1",
                                      "x": 10, "y": 18.5})

    assert closing.accepted and moving.accepted, moving
    state = service.load(game_id).state
    assert isinstance(state, W40KState)
    assert [r.values for r in state.rolls] == [[3, 4]]
    kinds = [e.fact.type for e in service.stored_events(game_id)]  # type: ignore[attr-defined]
    assert kinds.count("RulesVersionChanged") == 1
    assert kinds.index("RulesVersionChanged") > kinds.index("ReactionWindowClosed")
    assert at_least(state, w40k=2) and verify_game(service, game_id).ok
