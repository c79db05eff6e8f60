"""The limits: STR-07 (RESTRICTIONS), STR-08, STR-09, STR-10, keyed per A-STR-02.

Source: seeds/stratagems.hu-en.txt, "Each player can use the same stratagem
multiple times during the battle, but the following restrictions apply".
"""

from __future__ import annotations

from typing import Any

from .conftest import Run
from .helpers import (
    GROUND_B1,
    NEXT,
    PASS_BLUE,
    TO_RED_FIGHT,
    TO_RED_SHOOTING,
    codex,
    proactive,
    refused,
    step,
    units,
)

ARMY = units(b1={"y": 17}, r3={"keywords": ["infantry", "character", "grenades"], "x": 12,
                               "y": 10})


def grenade(unit: str, dice: list[int] | None = None) -> dict[str, Any]:
    return {"by": "red", "do": "use_stratagem", "stratagem": "grenade", "targets": [unit],
            "enemy": "b1", "dice": dice or [1, 1, 1, 1, 1, 1]}


def test_str_09_refuses_the_same_stratagem_twice_in_one_phase(run: Run) -> None:
    result = run([*TO_RED_SHOOTING, grenade("r1"), grenade("r3")], units=ARMY)

    assert step(result, 3)["accepted"]
    assert refused(result, 4) == "STR-09"
    assert "already used Grenade in this phase" in str(step(result, 4)["message"])


def test_str_08_the_same_stratagem_can_be_used_again_in_a_later_phase(run: Run) -> None:
    blues_turn = [{"by": "red", "do": "end_turn"}, {"by": "blue", "do": "end_turn"}]

    result = run([*TO_RED_SHOOTING, grenade("r1"), *blues_turn, *TO_RED_SHOOTING,
                  grenade("r1")], units=ARMY)

    assert step(result, 8)["accepted"], step(result, 8)
    assert [u["round"] for u in result["state"]["stratagem_uses"]] == [1, 2]


def test_a_str_02_each_phase_of_each_turn_is_a_separate_phase_for_the_limits(
    run: Run,
) -> None:
    # Epic Challenge in red's Fight phase, then again in blue's Fight phase (same round).
    army = units(r3={"x": 30, "y": 28}, b3={"keywords": ["infantry", "character"]})
    challenge = {"by": "red", "do": "use_stratagem", "stratagem": "epic-challenge",
                 "targets": ["r3"]}
    to_blue_fight = [{"by": "red", "do": "end_turn"}, {"by": "blue", "do": "next_phase"},
                     {"by": "blue", "do": "next_phase"}, {"by": "blue", "do": "next_phase"},
                     {"by": "blue", "do": "next_phase"}]

    result = run([*TO_RED_FIGHT, challenge, *to_blue_fight, challenge], units=army)

    assert step(result, 5)["accepted"]
    assert step(result, 11)["accepted"], step(result, 11)
    assert [(u["round"], u["turn"], u["phase"]) for u in result["state"]["stratagem_uses"]] == [
        (1, "red", "fight"), (1, "blue", "fight")]


def test_str_25_and_str_26_your_opponents_stratagems_do_not_count_against_your_limits(
    run: Run,
) -> None:
    """STR-25, STR-26: uses are the user's own; the STR-09 limit counts only yours."""
    army = units(r3={"x": 30, "y": 28}, b3={"keywords": ["infantry", "character"]})
    challenge = {"do": "use_stratagem", "stratagem": "epic-challenge"}

    fights = {"by": "red", "do": "fight", "unit": "r3", "target": "b3"}  # r3 fights first
    result = run([*TO_RED_FIGHT, {**challenge, "by": "red", "targets": ["r3"]}, fights,
                  PASS_BLUE, {**challenge, "by": "blue", "targets": ["b3"]}], units=army)

    assert step(result, 8)["accepted"], step(result, 8)
    assert [(u["player"], u["stratagem"]) for u in result["state"]["stratagem_uses"]] == [
        ("red", "epic-challenge"), ("blue", "epic-challenge")]


def test_str_10_refuses_a_second_stratagem_on_the_same_unit_in_one_phase(run: Run) -> None:
    drill = proactive("bolter-drill")
    use_drill = {"by": "red", "do": "use_stratagem", "stratagem": "bolter-drill",
                 "targets": ["r1"]}

    result = run([*TO_RED_SHOOTING, grenade("r1"), use_drill], units=ARMY,
                 catalogs=[codex(drill)])

    assert refused(result, 4) == "STR-10"
    assert "already targeted r1 with Grenade" in str(step(result, 4)["message"])


def test_a_str_04_a_stratagem_that_says_otherwise_may_target_an_already_targeted_unit(
    run: Run,
) -> None:
    drill = proactive("bolter-drill", may_target_unit_already_targeted=True)
    use_drill = {"by": "red", "do": "use_stratagem", "stratagem": "bolter-drill",
                 "targets": ["r1"]}

    result = run([*TO_RED_SHOOTING, grenade("r1"), use_drill], units=ARMY,
                 catalogs=[codex(drill)])

    assert step(result, 4)["accepted"], step(result, 4)
    assert [u["targets"] for u in result["state"]["stratagem_uses"]] == [["r1"], ["r1"]]
    assert result["state"]["units"]["r1"]["affected_by"] == ["U1", "U2"]


def test_a_str_04_a_use_that_says_otherwise_still_counts_for_a_later_stratagem(
    run: Run,
) -> None:
    """STR-10: the exempt stratagem may be the second on a unit, but a stratagem that
    does not say otherwise cannot follow it onto the same unit."""
    drill = proactive("bolter-drill", may_target_unit_already_targeted=True)
    use_drill = {"by": "red", "do": "use_stratagem", "stratagem": "bolter-drill",
                 "targets": ["r1"]}

    result = run([*TO_RED_SHOOTING, use_drill, grenade("r1")], units=ARMY,
                 catalogs=[codex(drill)])

    assert step(result, 3)["accepted"], step(result, 3)
    assert refused(result, 4) == "STR-10"
    assert step(result, 4)["message"] == (
        "red already targeted r1 with Bolter Drill in this phase (U1); one stratagem per "
        "unit per phase")


def test_a_str_03_str_10_counts_enemy_targets_per_player(run: Run) -> None:
    # red targets the enemy b1 twice: refused; blue targeting b1 too is its own limit.
    mark = proactive("mark-for-death", side="enemy")
    hex_ = proactive("hex", side="enemy")
    shot = {"by": "red", "do": "shoot", "unit": "r2", "target": "b1"}

    result = run([*TO_RED_SHOOTING,
                  {"by": "red", "do": "use_stratagem", "stratagem": "mark-for-death",
                   "targets": ["b1"]},
                  shot, GROUND_B1,
                  {"by": "red", "do": "use_stratagem", "stratagem": "hex", "targets": ["b1"]}],
                 catalogs=[codex(mark, hex_)])

    assert step(result, 3)["accepted"]
    assert step(result, 5)["accepted"], step(result, 5)
    assert refused(result, 6) == "STR-10"
    assert step(result, 6)["message"] == (
        "red already targeted b1 with Mark For Death in this phase (U1); one stratagem per "
        "unit per phase")


def test_str_07_insane_bravery_can_be_used_once_per_battle(run: Run) -> None:
    army = units(r1={"models": 4, "starting_strength": 10})
    bravery = {"by": "red", "do": "use_stratagem", "stratagem": "insane-bravery",
               "targets": ["r1"]}
    to_round_2 = [{"by": "red", "do": "end_turn"}, {"by": "blue", "do": "end_turn"}]

    result = run([bravery, *to_round_2, bravery], units=army)

    assert step(result, 0)["accepted"]
    assert refused(result, 3) == "STR-07"
    assert "once per battle" in str(step(result, 3)["message"])


def test_str_07_fire_overwatch_once_per_turn_so_no_second_window_opens(run: Run) -> None:
    move = {"by": "red", "do": "move", "unit": "r1", "x": 10, "y": 12}
    overwatch = {"by": "blue", "do": "use_stratagem", "stratagem": "fire-overwatch",
                 "targets": ["b1"]}
    move_again = {"by": "red", "do": "move", "unit": "r2", "x": 20, "y": 12}

    result = run([NEXT, move, overwatch, move_again, {**overwatch, "targets": ["b3"]}])

    assert step(result, 2)["accepted"], step(result, 2)
    assert step(result, 3)["events"] == ["StepTaken", "UnitMoved"]
    assert result["state"]["reaction_window"] is None
    # No window opened for it; the refusal names the bar (STR-09 is checked before
    # STR-07 for a second use in the same phase), not STR-04's missing window.
    assert refused(result, 4) == "STR-09"
    assert "no stratagem window opened for blue when r2 moved" in str(step(result, 4)["message"])


def twice_a_turn(sid: str, once: str) -> dict[str, Any]:
    """A 1CP stratagem usable in the Command and Movement phases of either turn."""
    entry = proactive(sid, phase="command", once_per=once)
    entry["when"] = {"phases": ["command", "movement"], "turn": "either"}
    return entry


END_RED = {"by": "red", "do": "end_turn"}


def use(sid: str, unit: str) -> dict[str, Any]:
    return {"by": "red", "do": "use_stratagem", "stratagem": sid, "targets": [unit]}


def test_str_07_once_per_turn_bars_another_phase_of_the_turn_not_the_next_turn(
    run: Run,
) -> None:
    # STR-09 cannot be what stops it: the second use is in another phase, on another unit.
    steps = [use("rally", "r1"), NEXT, use("rally", "r2"), END_RED, PASS_BLUE,
             use("rally", "r1")]

    result = run(steps, catalogs=[codex(twice_a_turn("rally", "turn"))])

    assert [step(result, i)["accepted"] for i in (0, 1, 3, 4)] == [True] * 4
    assert refused(result, 2) == "STR-07"
    assert "once per turn" in str(step(result, 2)["message"])
    assert step(result, 5)["accepted"], step(result, 5)  # blue's turn: a new turn


def test_str_07_once_per_round_bars_the_other_turn_until_the_next_round(run: Run) -> None:
    steps = [use("rally", "r1"), NEXT, use("rally", "r2"), END_RED, PASS_BLUE,
             use("rally", "r1"), {"by": "blue", "do": "end_turn"}, use("rally", "r1")]

    result = run(steps, catalogs=[codex(twice_a_turn("rally", "round"))])

    assert [step(result, i)["accepted"] for i in (0, 1, 3, 4, 6)] == [True] * 5
    assert refused(result, 2) == "STR-07" and refused(result, 5) == "STR-07"
    assert "once per round" in str(step(result, 5)["message"])
    assert step(result, 7)["accepted"], step(result, 7)  # battle round 2


def test_str_07_counts_only_the_players_own_uses_of_that_stratagem(run: Run) -> None:
    # red's Rally does not bar red's Hold, nor blue's Rally, in the same battle round.
    catalog = codex(twice_a_turn("rally", "round"), twice_a_turn("hold", "round"))
    steps = [use("rally", "r1"), NEXT, use("hold", "r2"), END_RED, PASS_BLUE,
             {"by": "blue", "do": "use_stratagem", "stratagem": "rally", "targets": ["b1"]}]

    result = run(steps, catalogs=[catalog])

    assert [step(result, i)["accepted"] for i in range(6)] == [True] * 6, result["steps"]
