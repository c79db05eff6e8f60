"""A reactive stratagem refused just after its trigger names the clause that
barred it (STR-07, STR-15), whether or not another stratagem holds a window
open; STR-04 ("no stratagem window is open") only when the timing is wrong."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .conftest import Run
from .helpers import NEXT, PASS_BLUE, SHOOT_B1, TO_RED_SHOOTING, codex, refused, step

MOVE_R1 = {"by": "red", "do": "move", "unit": "r1", "x": 10, "y": 12}
MOVE_R2 = {"by": "red", "do": "move", "unit": "r2", "x": 20, "y": 12}
OVERWATCH = {"by": "blue", "do": "use_stratagem", "stratagem": "fire-overwatch",
             "targets": ["b1"]}
Play = Callable[[dict[str, Any]], dict[str, Any]]
CHARGE_R1 = {"by": "red", "do": "declare_charge", "unit": "r1", "targets": ["b1"]}
INGRESS = {"by": "blue", "do": "use_stratagem", "stratagem": "rapid-ingress",
           "targets": ["b2"], "at": [40, 40]}


def dearer(stratagem: str) -> dict[str, object]:
    """Blue's `stratagem` costs 1CP more this turn."""
    return {"by": "blue", "do": "modify_stratagem_cost", "stratagem": stratagem,
            "amount": 1, "source": "Enemy jammer", "duration": "turn"}


#: Red moves r1 (blue uses Fire Overwatch, U1), on to the Charge phase, declares
#: a charge with r1: Fire Overwatch is barred only by its once-per-turn RESTRICTION.
OVERWATCHED_THEN_CHARGE = [NEXT, MOVE_R1, OVERWATCH, NEXT, PASS_BLUE, NEXT, CHARGE_R1]


def test_str_07_once_per_turn_barred_with_no_window_cites_str_07(run: Run) -> None:
    """STR-07: Fire Overwatch is once per turn; after its use in the Movement
    phase, red's charge opens no window, and blue's use just after is refused
    for STR-07, not STR-04."""
    result = run([*OVERWATCHED_THEN_CHARGE, {**OVERWATCH, "targets": ["b3"]}])

    assert all(step(result, i)["accepted"] for i in range(7)), result["steps"]
    assert "ReactionWindowOpened" not in step(result, 6)["events"], "no window opened"
    assert refused(result, 7) == "STR-07"
    message = str(step(result, 7)["message"])
    assert message.startswith("Fire Overwatch can be used once per turn; blue used it in "
                              "battle round 1 (U1)")
    assert "no stratagem window opened for blue when r1 declared a charge" in message
    assert "no stratagem window is open" not in message


def test_str_09_the_same_phase_bar_with_no_window_cites_str_09(run: Run) -> None:
    """STR-09 (before STR-07, as in a use while a window is open): a second Fire
    Overwatch in the same Movement phase, after a move that opened no window."""
    result = run([NEXT, MOVE_R1, OVERWATCH, MOVE_R2, {**OVERWATCH, "targets": ["b3"]}])

    assert step(result, 2)["accepted"] and step(result, 3)["accepted"]
    assert step(result, 3)["events"] == ["StepTaken", "UnitMoved"], "no window opened"
    assert refused(result, 4) == "STR-09"
    message = str(step(result, 4)["message"])
    assert message.startswith("blue already used Fire Overwatch in this phase (U1")
    assert "no stratagem window opened for blue when r2 moved" in message


def test_str_15_too_few_cp_with_no_window_cites_str_15(run: Run) -> None:
    """STR-15: blue has 1CP and Fire Overwatch costs 2CP now, so red's move opens
    no window; the use is refused for STR-15 with the cost and the CP."""
    result = run([dearer("fire-overwatch"), NEXT, MOVE_R1, OVERWATCH], cp=0)

    assert step(result, 0)["accepted"] and step(result, 1)["accepted"]
    assert step(result, 2)["events"] == ["StepTaken", "UnitMoved"], "no window opened"
    assert refused(result, 3) == "STR-15"
    message = str(step(result, 3)["message"])
    assert message.startswith("Fire Overwatch costs 2CP (1 base +1 modifiers); blue has 1CP")
    assert "no stratagem window opened for blue when r1 moved" in message


def test_str_15_the_end_of_the_movement_phase_with_too_few_cp_cites_str_15(run: Run) -> None:
    """STR-15: Rapid Ingress at the end of red's Movement phase, barred by CP: the
    phase ended with no window; the use just after is refused for STR-15."""
    result = run([dearer("rapid-ingress"), NEXT, NEXT, INGRESS], cp=0)

    assert step(result, 2)["events"] == ["StepTaken", "PhaseStarted"], "no window opened"
    assert refused(result, 3) == "STR-15"
    message = str(step(result, 3)["message"])
    assert message.startswith("Rapid Ingress costs 2CP (1 base +1 modifiers); blue has 1CP")
    assert "when red's Movement phase ended" in message


def test_str_07_the_same_reason_while_another_stratagem_holds_the_window(run: Run) -> None:
    """STR-07: with a window open for another stratagem (a codex one answering a
    charge), the barred Fire Overwatch is refused for STR-07 with the same reason."""
    watch = {"id": "keep-watch", "name": "Keep Watch", "category": "battle_tactic", "cp": 1,
             "when": {"phases": ["charge"], "turn": "opponents",
                      "triggers": ["charge_declared"], "text": "Just after an enemy charges."},
             "target": {"side": "friendly"}, "effect": {"kind": "record", "text": "recorded"}}
    result = run([*OVERWATCHED_THEN_CHARGE, {**OVERWATCH, "targets": ["b3"]}],
                 catalogs=[codex(watch)])

    assert all(step(result, i)["accepted"] for i in range(7)), result["steps"]
    assert result["state"]["reaction_window"]["eligible"] == ["blue"], "Keep Watch holds it"
    assert refused(result, 7) == "STR-07"
    assert str(step(result, 7)["message"]) == (
        "Fire Overwatch can be used once per turn; blue used it in battle round 1 (U1)")


def test_str_04_still_cited_when_the_timing_is_wrong(run: Run) -> None:
    """STR-04: with no trigger just before, a reactive use is refused for its timing."""
    result = run([NEXT, OVERWATCH])

    assert step(result, 0)["accepted"]
    assert refused(result, 1) == "STR-04"
    assert "no stratagem window is open" in str(step(result, 1)["message"])


def test_str_15_a_window_that_does_not_name_the_player_cites_the_bar(run: Run) -> None:
    """STR-15: red's shot opens a window for blue only; red's own reactive
    stratagem for that trigger costs more CP than red has, so the window does not
    name red; its use is refused for STR-15, not STR-04 ("may not use it now")."""
    cover = {"id": "covering-fire", "name": "Covering Fire", "category": "battle_tactic",
             "cp": 9, "when": {"phases": ["shooting"], "turn": "yours",
                               "triggers": ["shooting_target_selected"],
                               "triggered_by": "friendly", "text": "Just after you shoot."},
             "target": {"side": "friendly"}, "effect": {"kind": "record", "text": "recorded"}}
    use = {"by": "red", "do": "use_stratagem", "stratagem": "covering-fire", "targets": ["r2"]}

    result = run([*TO_RED_SHOOTING, SHOOT_B1, use], catalogs=[codex(cover)])

    assert all(step(result, i)["accepted"] for i in range(4)), result["steps"]
    assert result["state"]["reaction_window"]["eligible"] == ["blue"]
    assert refused(result, 4) == "STR-15"
    message = str(step(result, 4)["message"])
    assert message.startswith("Covering Fire costs 9CP (9 base); red has ")
    assert message.endswith("; so the stratagem window for r1 selected b1 as its target does "
                            "not name red")


def test_str_16_no_room_anywhere_opens_no_rapid_ingress_window(play: Play) -> None:
    """STR-16 (find room exactly): on a 12" board with red's unit in the middle,
    no spot is more than 9" from it, so the end of red's Movement phase opens no
    window for Rapid Ingress, and a use is refused for that, not STR-04."""
    script = {"ruleset": "w40k-10", "seed": 1, "board": {"width": 12, "height": 12},
              "terrain": [], "players": ["red", "blue"], "options": {"cp": 3},
              "units": [{"id": "r1", "owner": "red", "x": 6, "y": 6},
                        {"id": "b2", "owner": "blue", "status": "reserve"}],
              "steps": [NEXT, NEXT, {**INGRESS, "at": [11, 11]}]}

    result = play(script)

    assert step(result, 0)["accepted"]
    assert step(result, 1)["events"] == ["StepTaken", "PhaseStarted"], "no window opened"
    assert refused(result, 2) == "STR-16"
    assert str(step(result, 2)["message"]).startswith(
        "Rapid Ingress sets b2 up more than 9\" from enemy units; there is no such spot on the "
        "battlefield")


def test_str_16_a_corner_far_enough_still_opens_the_window(play: Play) -> None:
    """STR-16: on a 24" board a corner is more than 9" away, so the window opens."""
    script = {"ruleset": "w40k-10", "seed": 1, "board": {"width": 24, "height": 24},
              "terrain": [], "players": ["red", "blue"], "options": {"cp": 3},
              "units": [{"id": "r1", "owner": "red", "x": 12, "y": 12},
                        {"id": "b2", "owner": "blue", "status": "reserve"}],
              "steps": [NEXT, NEXT, {**INGRESS, "at": [22, 22]}]}

    result = play(script)

    assert "ReactionWindowOpened" in step(result, 1)["events"]
    assert step(result, 2)["accepted"], step(result, 2)
