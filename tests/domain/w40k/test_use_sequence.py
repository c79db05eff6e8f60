"""Using a stratagem: the STR-11 sequence (STR-12 → STR-13/14/15 → STR-16), all or nothing.

Source: seeds/stratagems.hu-en.txt, "Each time you use a stratagem, resolve the
following sequence"; A-STR-06 (check everything before committing).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.w40k.state import W40KState

from .conftest import Run
from .helpers import GROUND_B1, NEXT, SHOOT_B1, TO_RED_SHOOTING, refused, step, units

GRENADE = {"by": "red", "do": "use_stratagem", "stratagem": "grenade", "targets": ["r1"],
           "enemy": "b1", "dice": [4, 4, 4, 1, 2, 6]}
CLOSE = units(b1={"y": 17})


def test_str_11_emits_targets_then_payment_then_effect_in_order(run: Run) -> None:
    result = run([*TO_RED_SHOOTING, GRENADE], units=CLOSE)

    assert step(result, 3)["events"] == [
        "StepTaken", "StratagemUsed", "CommandPointsSpent", "DiceRolled", "MortalWoundsRolled",
    ]


def test_str_13_reduces_the_cp_total_by_the_cost_and_records_the_spend(run: Run) -> None:
    result = run([*TO_RED_SHOOTING, GRENADE], units=CLOSE)

    assert result["state"]["players"]["red"]["cp"] == 3  # 3 start + 1 Command phase - 1
    last = result["state"]["cp_ledger"][-1]
    assert (last["player"], last["change"], last["kind"], last["balance"]) == (
        "red", -1, "spent", 3)
    assert last["source"] == "Grenade (U1)"


def test_str_16_resolves_the_effect_grenade_rolls_six_dice_for_mortal_wounds(
    run: Run, state_of: Callable[[dict[str, Any]], W40KState]
) -> None:
    result = run([*TO_RED_SHOOTING, GRENADE], units=CLOSE)

    b1 = result["state"]["units"]["b1"]
    assert (b1["models"], b1["wounds_left"]) == (6, 6)  # four 4+ → 4 mortal wounds
    assert state_of(result).rolls[-1].purpose == "mortal-wounds"


def test_str_15_refuses_a_use_with_too_few_cp_and_writes_nothing(run: Run) -> None:
    dearer = {"by": "red", "do": "modify_stratagem_cost", "stratagem": "grenade",
              "amount": 1, "source": "Enemy jammer", "duration": "turn"}

    result = run([dearer, *TO_RED_SHOOTING, GRENADE], units=CLOSE, cp=0)

    assert refused(result, 4) == "STR-15"
    assert step(result, 4)["message"] == "Grenade costs 2CP (1 base +1 modifiers); red has 1CP"
    assert result["state"]["units"]["b1"]["models"] == 10
    assert result["state"]["stratagem_uses"] == []
    assert result["state"]["players"]["red"]["cp"] == 1
    assert [e["kind"] for e in result["state"]["cp_ledger"] if e["player"] == "red"] == [
        "start", "command_phase"]


def test_str_12_refuses_a_target_without_the_keyword_the_stratagem_names(run: Run) -> None:
    result = run([*TO_RED_SHOOTING, {**GRENADE, "targets": ["r3"]}], units=CLOSE)

    assert refused(result, 3) == "STR-12"
    assert "GRENADES" in str(step(result, 3)["message"])


def test_str_12_refuses_the_wrong_number_of_targets(run: Run) -> None:
    two = run([*TO_RED_SHOOTING, {**GRENADE, "targets": ["r1", "r2"]}], units=CLOSE)
    twice = run([*TO_RED_SHOOTING, {**GRENADE, "targets": ["r1", "r1"]}], units=CLOSE)

    assert refused(two, 3) == "STR-12"
    assert step(two, 3)["message"] == "Grenade targets 1 unit; 2 selected"
    assert refused(twice, 3) == "STR-12"
    assert step(twice, 3)["message"] == "Grenade: a unit is selected twice (r1, r1)"


def test_str_12_refuses_an_enemy_unit_as_target_of_a_stratagem_for_your_units(
    run: Run,
) -> None:
    result = run([*TO_RED_SHOOTING, {**GRENADE, "targets": ["b1"]}], units=CLOSE)

    assert refused(result, 3) == "STR-12"
    assert "belongs to blue" in str(step(result, 3)["message"])


def test_str_16_a_failing_effect_refuses_the_whole_use_and_no_cp_is_spent(run: Run) -> None:
    result = run([*TO_RED_SHOOTING, {**GRENADE, "enemy": "b3", "dice": []}], units=CLOSE)

    assert refused(result, 3) == "STR-16"
    assert step(result, 3)["message"] == (
        'Grenade selects an enemy unit within 8" of r1; b3 is 27.03" away')
    assert result["state"]["players"]["red"]["cp"] == 4


def test_str_16_grenade_selects_only_an_enemy_unit_visible_to_your_unit(run: Run) -> None:
    wall = {"id": "wall", "kind": "blocking",
            "polygon": [[4, 13], [16, 13], [16, 14], [4, 14]]}

    result = run([*TO_RED_SHOOTING, GRENADE], units=CLOSE, terrain=[wall])

    assert refused(result, 3) == "STR-16"
    assert step(result, 3)["message"] == (
        "Grenade selects an enemy unit visible to r1; blocking terrain hides b1")
    assert result["state"]["units"]["b1"]["wounds_left"] == 10


def test_str_02_and_str_18_both_players_can_use_core_stratagems(run: Run) -> None:
    result = run([*TO_RED_SHOOTING, GRENADE, SHOOT_B1, GROUND_B1], units=CLOSE)

    assert [u["player"] for u in result["state"]["stratagem_uses"]] == ["red", "blue"]


def test_str_24_targets_are_affected_by_the_stratagem_until_the_phase_ends(run: Run) -> None:
    during = run([*TO_RED_SHOOTING, SHOOT_B1, GROUND_B1])
    after = run([*TO_RED_SHOOTING, SHOOT_B1, GROUND_B1, NEXT])

    assert during["state"]["units"]["b1"]["affected_by"] == ["U1"]
    assert during["state"]["units"]["b3"]["affected_by"] == []
    assert after["state"]["units"]["b1"]["affected_by"] == []
    assert after["state"]["stratagem_uses"][0]["active"] is False
    assert "StratagemEffectsEnded" in step(after, 5)["events"]


def test_str_24_an_ended_effect_takes_away_only_the_conditions_it_gave(run: Run) -> None:
    """b1 is fielded in cover; Go to Ground's cover ends with the phase, b1's own stays."""
    covered = units(b1={"conditions": ["benefit_of_cover"]})

    during = run([*TO_RED_SHOOTING, SHOOT_B1, GROUND_B1], units=covered)
    after = run([*TO_RED_SHOOTING, SHOOT_B1, GROUND_B1, NEXT], units=covered)

    given = set(during["state"]["units"]["b1"]["conditions"])
    assert "benefit_of_cover" in given and len(given) > 1
    assert after["state"]["units"]["b1"]["conditions"] == ["benefit_of_cover"]


def test_str_27_and_str_28_your_unit_in_the_effect_is_only_the_selected_target(
    run: Run,
) -> None:
    """STR-27, STR-28: "your unit" is the target, never another unit of the army."""
    # b1 and b3 are both INFANTRY; Go to Ground on b1 gives b3 nothing.

    result = run([*TO_RED_SHOOTING, SHOOT_B1, GROUND_B1])

    assert result["state"]["units"]["b1"]["conditions"] == [
        "benefit_of_cover", "invulnerable_save_6"]
    assert result["state"]["units"]["b3"]["conditions"] == []


def test_str_27_command_re_roll_cannot_replace_a_roll_made_for_another_unit(run: Run) -> None:
    """STR-27: the roll re-rolled must be one made for the selected target."""
    to_charge = [NEXT, NEXT, {"by": "blue", "do": "pass_stratagem"}, NEXT]
    charge = {"by": "red", "do": "declare_charge", "unit": "r1", "targets": ["b1"],
              "dice": [1, 2]}
    reroll = {"by": "red", "do": "use_stratagem", "stratagem": "command-re-roll",
              "targets": ["r2"], "replaces": "R1", "dice": [6, 6]}

    overwatch_passed = {"by": "blue", "do": "pass_stratagem"}

    result = run([*to_charge, charge, overwatch_passed, reroll], cp=0)

    assert refused(result, 6) == "STR-27"
    assert step(result, 6)["message"] == "roll R1 was made for r1, not for your unit r2"
    assert result["state"]["rolls"][0]["replaced_by"] is None


def test_str_16_a_charge_roll_already_used_by_the_charge_move_cannot_be_re_rolled(
    run: Run,
) -> None:
    """Command Re-roll comes "just after you make a roll": once r1 has moved on its
    charge roll, the roll is spent and the re-roll is refused (the charge stands)."""
    to_charge = [NEXT, NEXT, {"by": "blue", "do": "pass_stratagem"}, NEXT]
    charge = {"by": "red", "do": "declare_charge", "unit": "r1", "targets": ["b1"],
              "dice": [6, 6]}
    moved = {"by": "red", "do": "charge_move", "unit": "r1", "x": 10, "y": 18.5}
    reroll = {"by": "red", "do": "use_stratagem", "stratagem": "command-re-roll",
              "targets": ["r1"], "dice": [1, 1]}

    result = run([*to_charge, charge, {"by": "blue", "do": "pass_stratagem"}, moved, reroll],
                 units=units(b1={"y": 20}))

    assert step(result, 6)["accepted"], step(result, 6)
    assert refused(result, 7) == "STR-16"
    assert step(result, 7)["message"].startswith("roll R1 was already used: r1 has made its "
                                                 "charge move")
    assert result["state"]["rolls"][0]["replaced_by"] is None


def test_unknown_stratagem_is_refused_as_input(run: Run) -> None:
    result = run([{"by": "red", "do": "use_stratagem", "stratagem": "orbital-strike",
                   "targets": ["r1"]}])

    assert refused(result, 0) == "INPUT"
    assert "there is no stratagem 'orbital-strike'; known: command-re-roll" in str(
        step(result, 0)["message"])
