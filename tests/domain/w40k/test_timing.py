"""WHEN a stratagem can be used (STR-04): proactive phases, and stratagem windows
that triggers open for the players who could react (RULINGS 40k, "Timing windows").
"""

from __future__ import annotations

from pathlib import Path

import pytest

from domain.w40k.rules import W40K
from domain.w40k.timing import NO_WINDOW, TIMING, WINDOW, TimingCursor
from replay.service import GameService
from warledger.script import load_script, run_script

from .conftest import Run
from .helpers import (
    NEXT,
    PASS_BLUE,
    SHOOT_B1,
    TO_RED_CHARGE,
    TO_RED_FIGHT,
    TO_RED_SHOOTING,
    refused,
    step,
    units,
)

PASS_RED = {"by": "red", "do": "pass_stratagem"}

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def test_str_04_refuses_a_proactive_stratagem_outside_the_phases_it_lists(run: Run) -> None:
    result = run([{"by": "red", "do": "use_stratagem", "stratagem": "grenade",
                   "targets": ["r1"], "enemy": "b1"}])

    assert refused(result, 0) == "STR-04"
    assert "Your Shooting phase" in str(step(result, 0)["message"])


def test_str_04_refuses_a_stratagem_for_your_turn_in_your_opponents_turn(run: Run) -> None:
    to_blue_shooting = [{"by": "red", "do": "end_turn"}, {"by": "blue", "do": "next_phase"},
                        {"by": "blue", "do": "next_phase"}]

    result = run([*to_blue_shooting, {"by": "red", "do": "use_stratagem",
                                      "stratagem": "grenade", "targets": ["r1"],
                                      "enemy": "b1"}])

    assert refused(result, 3) == "STR-04"
    assert step(result, 3)["message"] == (
        "Grenade is used in: Your Shooting phase; it is blue's shooting phase of battle round 1")


def test_str_04_refuses_a_reactive_stratagem_when_no_window_is_open(run: Run) -> None:
    result = run([*TO_RED_SHOOTING, {"by": "blue", "do": "use_stratagem",
                                     "stratagem": "go-to-ground", "targets": ["b1"]}])

    assert refused(result, 3) == "STR-04"
    assert "no stratagem window is open" in str(step(result, 3)["message"])


def test_str_04_refuses_a_stratagem_that_does_not_answer_the_open_windows_trigger(
    run: Run,
) -> None:
    wrong = {"by": "blue", "do": "use_stratagem", "stratagem": "heroic-intervention",
             "targets": ["b1"]}

    result = run([*TO_RED_SHOOTING, SHOOT_B1, wrong])

    assert refused(result, 4) == "STR-04"
    assert "shooting_target_selected" in str(step(result, 4)["message"])


def test_str_04_the_window_opens_only_for_players_who_could_react(run: Run) -> None:
    result = run([*TO_RED_SHOOTING, SHOOT_B1])

    assert result["state"]["reaction_window"]["kind"] == "stratagem"
    assert result["state"]["reaction_window"]["eligible"] == ["blue"]
    assert result["state"]["reaction_window"]["context"]["target"] == "b1"


def test_str_04_no_window_when_the_reactor_cannot_pay(run: Run) -> None:
    dearer = {"by": "blue", "do": "modify_stratagem_cost", "stratagem": "rapid-ingress",
              "amount": 1, "source": "Enemy jammer", "duration": "turn"}

    result = run([dearer, NEXT, NEXT, SHOOT_B1], cp=0)  # blue: 1CP; Rapid Ingress costs 2CP

    assert step(result, 2)["events"] == ["StepTaken", "PhaseStarted"]  # no window
    assert result["state"]["phase"] == "shooting"
    assert result["state"]["reaction_window"]["eligible"] == ["blue"]  # Go to Ground: 1CP


def test_str_04_a_player_not_named_by_the_window_cannot_answer_it(run: Run) -> None:
    result = run([*TO_RED_SHOOTING, SHOOT_B1, PASS_RED])

    assert refused(result, 4) == "CORE-NOT-ELIGIBLE"
    assert step(result, 4)["message"] == (
        "a stratagem window is open for blue; red may not answer it now")
    assert result["state"]["reaction_window"]["declared"] == {}


def test_other_commands_wait_until_the_stratagem_window_is_answered(run: Run) -> None:
    result = run([*TO_RED_SHOOTING, SHOOT_B1, NEXT, PASS_BLUE, NEXT])

    assert refused(result, 4) == "CORE-WINDOW-OPEN"
    assert "ReactionWindowClosed" in step(result, 5)["events"]
    assert step(result, 6)["accepted"]


def test_str_04_rapid_ingress_at_the_end_of_the_opponents_movement_phase(run: Run) -> None:
    ingress = {"by": "blue", "do": "use_stratagem", "stratagem": "rapid-ingress",
               "targets": ["b2"], "at": [40, 40]}

    result = run([NEXT, NEXT, ingress])

    assert step(result, 1)["events"][:2] == ["StepTaken", "ReactionWindowOpened"]
    assert result["state"]["units"]["b2"]["status"] == "on_table"
    use = result["state"]["stratagem_uses"][0]
    assert (use["turn"], use["phase"]) == ("red", "movement")


def test_core_phase_end_window_the_movement_phase_lasts_until_its_window_is_answered(
    run: Run,
) -> None:
    """CORE-PHASE-END-WINDOW: the window for "the end of your opponent's Movement
    phase" is open in the Movement phase; the phase ends when it closes."""
    held = run([NEXT, NEXT])
    passed = run([NEXT, NEXT, PASS_BLUE])

    assert step(held, 1)["events"] == ["StepTaken", "ReactionWindowOpened"]
    assert held["state"]["phase"] == "movement"
    assert held["state"]["reaction_window"]["context"]["held"] == "next_phase"
    assert step(passed, 2)["events"] == [
        "StepTaken", "ReactionDeclared", "ReactionWindowClosed", "PhaseStarted"]
    assert (passed["state"]["phase"], passed["state"]["reaction_window"]) == ("shooting", None)


def test_core_phase_end_window_end_turn_from_movement_waits_for_the_window_too(
    run: Run,
) -> None:
    end_turn = {"by": "red", "do": "end_turn"}

    result = run([NEXT, end_turn, PASS_BLUE])

    assert step(result, 1)["events"] == ["StepTaken", "ReactionWindowOpened"]
    assert step(result, 2)["events"][-3:] == [
        "PhaseStarted", "CommandPointsGained", "CommandPointsGained"]
    assert (result["state"]["active_player"], result["state"]["phase"]) == ("blue", "command")


def test_core_phase_end_window_a_use_in_it_ends_with_the_movement_phase(run: Run) -> None:
    """CORE-STRATAGEM-EFFECTS: Rapid Ingress, used at the end of the Movement
    phase, stops affecting its target as that phase ends."""
    ingress = {"by": "blue", "do": "use_stratagem", "stratagem": "rapid-ingress",
               "targets": ["b2"], "at": [40, 40]}

    result = run([NEXT, NEXT, ingress])

    assert step(result, 2)["events"][-2:] == ["StratagemEffectsEnded", "PhaseStarted"]
    assert result["state"]["phase"] == "shooting"
    assert result["state"]["units"]["b2"]["affected_by"] == []
    assert result["state"]["stratagem_uses"][0]["active"] is False


def test_core_phase_end_window_no_window_no_wait(run: Run) -> None:
    """With nobody able to react (blue has no unit in reserves) the phase just ends."""
    army = units(b2={"status": "on_table", "x": 40, "y": 40})

    result = run([NEXT, NEXT], units=army)

    assert step(result, 1)["events"] == ["StepTaken", "PhaseStarted"]
    assert result["state"]["phase"] == "shooting"


def test_str_16_rapid_ingress_refuses_a_set_up_within_9_inches_of_an_enemy(run: Run) -> None:
    ingress = {"by": "blue", "do": "use_stratagem", "stratagem": "rapid-ingress",
               "targets": ["b2"], "at": [12, 14]}

    result = run([NEXT, NEXT, ingress])

    assert refused(result, 2) == "STR-16"
    assert step(result, 2)["message"] == (
        'Rapid Ingress sets b2 up more than 9" from enemy units; at 12, 14 it would be '
        '3.22" from r1')
    assert result["state"]["units"]["b2"]["status"] == "reserve"
    assert result["state"]["reaction_window"]["eligible"] == ["blue"]  # still open


def test_str_04_fire_overwatch_when_an_enemy_unit_declares_a_charge(run: Run) -> None:
    army = units(r1={"y": 12})
    charge = {"by": "red", "do": "declare_charge", "unit": "r1", "targets": ["b1"],
              "dice": [3, 4]}
    overwatch = {"by": "blue", "do": "use_stratagem", "stratagem": "fire-overwatch",
                 "targets": ["b1"]}

    result = run([*TO_RED_CHARGE, charge, overwatch], units=army)

    assert step(result, 5)["accepted"], step(result, 5)
    assert step(result, 5)["events"][-5:] == [  # the charge is rolled after the window
        "EffectRecorded", "ReactionDeclared", "ReactionWindowClosed", "DiceRolled",
        "ChargeRolled"]


def test_str_04_heroic_intervention_and_tank_shock_after_a_charge_move(run: Run) -> None:
    army = units(r2={"y": 14}, b1={"x": 20, "y": 20}, r1={"x": 4, "y": 4},
                 b3={"x": 16, "y": 21})
    charge = {"by": "red", "do": "declare_charge", "unit": "r2", "targets": ["b1"],
              "dice": [4, 4]}
    move = {"by": "red", "do": "charge_move", "unit": "r2", "x": 20, "y": 17.8}
    tank = {"by": "red", "do": "use_stratagem", "stratagem": "tank-shock", "targets": ["r2"],
            "enemy": "b1", "dice": [5, 6, 1, 2, 5, 5, 5, 5, 5]}
    heroic = {"by": "blue", "do": "use_stratagem", "stratagem": "heroic-intervention",
              "targets": ["b3"]}

    result = run([*TO_RED_CHARGE, charge, PASS_BLUE, move, tank, heroic], units=army, cp=4)

    assert result["state"]["reaction_window"] is None
    assert step(result, 6)["events"][-1] == "ReactionWindowOpened"
    assert step(result, 7)["accepted"], step(result, 7)
    assert result["state"]["units"]["b1"]["wounds_left"] == 4  # capped at 6 mortal wounds
    assert step(result, 8)["accepted"], step(result, 8)


def test_str_04_counter_offensive_just_after_an_enemy_unit_has_fought(run: Run) -> None:
    army = units(r3={"x": 30, "y": 28}, b1={"x": 31.5, "y": 29.5})
    fight = {"by": "red", "do": "fight", "unit": "r3", "target": "b3"}
    counter = {"by": "blue", "do": "use_stratagem", "stratagem": "counter-offensive",
               "targets": ["b1"]}

    result = run([*TO_RED_FIGHT, fight, counter], units=army)

    assert step(result, 5)["events"][-1] == "ReactionWindowOpened"
    assert step(result, 6)["accepted"], step(result, 6)
    assert result["state"]["players"]["blue"]["cp"] == 2


def test_str_04_counter_offensive_answers_an_enemy_unit_not_your_own(run: Run) -> None:
    """STR-04: "just after an ENEMY unit has fought": red's own fight opens the
    window for blue only, and red cannot answer it."""
    army = units(r3={"x": 30, "y": 28}, r1={"x": 28.5, "y": 30}, b1={"x": 31.5, "y": 29.5})
    fight = {"by": "red", "do": "fight", "unit": "r3", "target": "b3"}
    counter = {"by": "red", "do": "use_stratagem", "stratagem": "counter-offensive",
               "targets": ["r1"]}

    result = run([*TO_RED_FIGHT, fight, counter], units=army)

    assert result["state"]["reaction_window"]["eligible"] == ["blue"]
    assert refused(result, 6) == "STR-04"
    assert "window is open for blue; red may not use Counter-offensive" in str(
        step(result, 6)["message"])


def test_str_04_tank_shock_answers_only_a_charge_move_of_your_own_unit(run: Run) -> None:
    """STR-04: a player named by the window for another stratagem still cannot use
    Tank Shock after an enemy unit's Charge move."""
    army = units(r2={"y": 14}, b1={"x": 20, "y": 20, "keywords": ["vehicle"]},
                 r1={"x": 4, "y": 4}, b3={"x": 16, "y": 21})
    charge = {"by": "red", "do": "declare_charge", "unit": "r2", "targets": ["b1"],
              "dice": [4, 4]}
    move = {"by": "red", "do": "charge_move", "unit": "r2", "x": 20, "y": 17.8}
    blue_tank = {"by": "blue", "do": "use_stratagem", "stratagem": "tank-shock",
                 "targets": ["b1"], "enemy": "r2"}

    result = run([*TO_RED_CHARGE, charge, PASS_BLUE, move, blue_tank], units=army, cp=4)

    assert "blue" in result["state"]["reaction_window"]["eligible"]  # Heroic Intervention
    assert refused(result, 7) == "STR-04"
    assert step(result, 7)["message"] == (
        "Tank Shock answers an action of a unit from your army; r2 belongs to red")


def test_core_not_eligible_a_player_answers_a_window_once(run: Run) -> None:
    army = units(r2={"y": 14}, b1={"x": 20, "y": 20}, r1={"x": 4, "y": 4},
                 b3={"x": 16, "y": 21})
    charge = {"by": "red", "do": "declare_charge", "unit": "r2", "targets": ["b1"],
              "dice": [4, 4]}
    move = {"by": "red", "do": "charge_move", "unit": "r2", "x": 20, "y": 17.8}

    result = run([*TO_RED_CHARGE, charge, PASS_BLUE, move, PASS_BLUE, PASS_BLUE],
                 units=army, cp=4)

    assert step(result, 7)["events"] == ["StepTaken", "ReactionDeclared"]  # red still due
    assert refused(result, 8) == "CORE-NOT-ELIGIBLE"
    assert step(result, 8)["message"] == "blue has already answered this stratagem window"
    assert result["state"]["reaction_window"]["declared"] == {"blue": "pass"}


def test_the_timing_machine_is_a_transitions_table_exposed_for_diagrams() -> None:
    assert W40K.extra_machines["stratagem_timing"] is TIMING
    triggers = {row["trigger"] for row in TIMING.rows}
    assert triggers == {"use_stratagem", "pass_stratagem", "open_window", "close_window"}
    assert "is_in_the_stated_turn" in TIMING.mermaid()


def test_the_timing_table_read_directly_answers_as_the_transitions_machine(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """STR-04: `TIMING.allows` reads the table itself; over every 40k example,
    each question it answers gets the same answer from the library's machine."""
    answers: list[tuple[str, bool]] = []
    direct = TIMING.allows

    def both(cursor: TimingCursor, trigger: str) -> bool:
        got = direct(cursor, trigger)
        assert got == TIMING.library_allows(cursor, trigger), (trigger, cursor.window)
        answers.append((cursor.window, got))
        return got

    monkeypatch.setattr(TIMING, "allows", both)
    service = GameService(str(tmp_path / "g.db"))
    for path in sorted(EXAMPLES.glob("w40k-*.yaml")):
        result = run_script(service, load_script(path))
        assert result["steps"], path.name
    assert {got for _, got in answers} == {True, False}
    assert {window for window, _ in answers} == {NO_WINDOW, WINDOW}
