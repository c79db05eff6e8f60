"""CP costs: additional sections (STR-14), modifiers (STR-21…23), never below 0.

Source: seeds/stratagems.hu-en.txt, "Modifying CP Cost 15.01.01"; A-STR-07
(cost = max(0, base + sections + modifiers)), A-STR-08.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.w40k.cost import final_cost, is_in_force
from domain.w40k.state import CostModifier
from domain.w40k.timing import Moment

from .conftest import Run
from .helpers import NEXT, TO_RED_SHOOTING, codex, proactive, refused, step, units

ARMY = units(b1={"y": 17})
GRENADE = {"by": "red", "do": "use_stratagem", "stratagem": "grenade", "targets": ["r1"],
           "enemy": "b1", "dice": [1, 1, 1, 1, 1, 1]}


def modifier(amount: int, stratagem: str | None = "grenade",
             duration: str | None = None) -> dict[str, object]:
    return {"by": "red", "do": "modify_stratagem_cost", "stratagem": stratagem,
            "amount": amount, "source": "Detachment rule", "duration": duration}


def spends(result: dict[str, object]) -> list[int]:
    state = result["state"]
    assert isinstance(state, dict)
    return [-e["change"] for e in state["cp_ledger"] if e["kind"] == "spent"]


def test_str_22_a_modifier_cannot_take_the_cost_below_0cp(run: Run) -> None:
    result = run([*TO_RED_SHOOTING, modifier(-2), GRENADE], units=ARMY)

    assert step(result, 4)["accepted"]
    assert spends(result) == [0]
    assert result["state"]["players"]["red"]["cp"] == 4


def test_str_23_a_modifier_with_no_duration_applies_to_one_use_only(run: Run) -> None:
    later_turn = [{"by": "red", "do": "end_turn"}, {"by": "blue", "do": "end_turn"}]

    result = run([*TO_RED_SHOOTING, modifier(-1), GRENADE, *later_turn, *TO_RED_SHOOTING,
                  GRENADE], units=ARMY)

    assert spends(result) == [0, 1]
    assert result["state"]["cost_modifiers"] == []


def test_str_21_a_modifier_for_the_phase_applies_to_every_use_in_that_phase(
    run: Run,
) -> None:
    drill = proactive("bolter-drill")
    use_drill = {"by": "red", "do": "use_stratagem", "stratagem": "bolter-drill",
                 "targets": ["r2"]}

    result = run([*TO_RED_SHOOTING, modifier(-1, None, "phase"), GRENADE, use_drill],
                 units=ARMY, catalogs=[codex(drill)])

    assert spends(result) == [0, 0]
    assert step(result, 3)["rule"] == "STR-21"


def test_str_21_a_modifier_for_the_phase_ends_with_the_phase(run: Run) -> None:
    charge_drill = proactive("charge-drill", phase="charge")
    use_drill = {"by": "red", "do": "use_stratagem", "stratagem": "charge-drill",
                 "targets": ["r2"]}

    result = run([*TO_RED_SHOOTING, modifier(-1, None, "phase"), NEXT, use_drill],
                 units=ARMY, catalogs=[codex(charge_drill)])

    assert spends(result) == [1]


def test_str_23_the_state_view_lists_only_modifiers_still_in_force(run: Run) -> None:
    """`cost_modifiers` holds what is in force or waiting for a use: a phase modifier
    leaves it when its phase ends, one with no duration stays until used."""
    granted = run([*TO_RED_SHOOTING, modifier(-1, None, "phase"), modifier(-1)], units=ARMY)
    next_phase = run([*TO_RED_SHOOTING, modifier(-1, None, "phase"), modifier(-1), NEXT],
                     units=ARMY)

    assert [m["duration"] for m in granted["state"]["cost_modifiers"]] == ["phase", None]
    assert [m["duration"] for m in next_phase["state"]["cost_modifiers"]] == [None]


def test_str_14_an_additional_section_adds_its_cp_to_the_cost(run: Run) -> None:
    drill = {**proactive("bolter-drill"),
             "sections": [{"id": "sustained", "cp": 1, "text": "+1CP: also [SUSTAINED HITS 1]"}]}
    use = {"by": "red", "do": "use_stratagem", "stratagem": "bolter-drill", "targets": ["r1"],
           "sections": ["sustained"]}

    result = run([*TO_RED_SHOOTING, use], catalogs=[codex(drill)])

    assert spends(result) == [2]
    assert result["state"]["players"]["red"]["cp"] == 2


def test_str_14_a_section_can_be_used_only_if_the_increased_cost_is_paid(run: Run) -> None:
    drill = {**proactive("bolter-drill"), "sections": [{"id": "sustained", "cp": 1}]}
    use = {"by": "red", "do": "use_stratagem", "stratagem": "bolter-drill", "targets": ["r1"],
           "sections": ["sustained"]}

    result = run([*TO_RED_SHOOTING, use], cp=0, catalogs=[codex(drill)])

    assert refused(result, 3) == "STR-15"
    assert "costs 2CP (1 base + 1 for sections); red has 1CP" in str(step(result, 3)["message"])


def test_str_14_refuses_a_section_the_stratagem_does_not_have(run: Run) -> None:
    use = {**GRENADE, "sections": ["cluster"]}

    result = run([*TO_RED_SHOOTING, use], units=ARMY)

    assert refused(result, 3) == "STR-14"
    assert step(result, 3)["message"] == "Grenade has no section 'cluster' (its sections: none)"


@settings(max_examples=80)
@given(st.integers(0, 3), st.integers(0, 3), st.integers(-6, 3))
def test_a_str_07_final_cost_is_base_plus_sections_plus_modifiers_floored_at_0(
    base: int, sections: int, modifiers: int
) -> None:
    cost = final_cost(base, sections, modifiers)

    assert cost >= 0
    assert cost == max(0, base + sections + modifiers)


def test_str_14_refuses_a_section_chosen_twice(run: Run) -> None:
    drill = {**proactive("bolter-drill"), "sections": [{"id": "sustained", "cp": 1}]}
    use = {"by": "red", "do": "use_stratagem", "stratagem": "bolter-drill", "targets": ["r1"],
           "sections": ["sustained", "sustained"]}

    result = run([*TO_RED_SHOOTING, use], cp=5, catalogs=[codex(drill)])

    assert refused(result, 3) == "STR-14"
    assert step(result, 3)["message"] == "a section of Bolter Drill is chosen twice"
    assert result["state"]["players"]["red"]["cp"] == 6  # 5 + 1 (Command phase): none paid


def test_str_15_exactly_enough_cp_pays(run: Run) -> None:
    result = run([*TO_RED_SHOOTING, GRENADE], cp=0, units=ARMY)  # red: 1CP, Grenade: 1CP

    assert step(result, 3)["accepted"], step(result, 3)
    assert result["state"]["players"]["red"]["cp"] == 0


def test_str_15_the_refusal_shows_the_modifiers_in_the_cost(run: Run) -> None:
    result = run([*TO_RED_SHOOTING, modifier(1), GRENADE], cp=0, units=ARMY)

    assert refused(result, 4) == "STR-15"
    assert step(result, 4)["message"] == "Grenade costs 2CP (1 base +1 modifiers); red has 1CP"


def test_str_21_a_modifier_for_one_stratagem_leaves_the_others_alone(run: Run) -> None:
    drill = proactive("bolter-drill")
    use_drill = {"by": "red", "do": "use_stratagem", "stratagem": "bolter-drill",
                 "targets": ["r2"]}

    result = run([*TO_RED_SHOOTING, modifier(-1, "grenade"), use_drill, GRENADE],
                 units=ARMY, catalogs=[codex(drill)])

    assert spends(result) == [1, 0]


def test_str_21_a_modifier_of_another_player_does_not_apply() -> None:
    moment = Moment(round=1, turn="red", phase="shooting")
    mine = CostModifier(id="M1", player="red", stratagem=None, amount=-1, source="x",
                        duration="phase", round=1, turn="red", phase="shooting")

    assert is_in_force(mine, "red", "grenade", moment) is True
    assert is_in_force(mine, "blue", "grenade", moment) is False
    assert is_in_force(mine.model_copy(update={"used": True}), "red", "grenade",
                       moment) is False
    assert is_in_force(mine.model_copy(update={"stratagem": "hex"}), "red", "grenade",
                       moment) is False


def test_str_21_the_citation_says_what_the_modifier_changes_and_for_how_long(
    run: Run,
) -> None:
    result = run([*TO_RED_SHOOTING, modifier(-1), modifier(1, None, "phase")], units=ARMY)

    assert step(result, 3)["message"] == (
        "red's grenade cost -1CP for the next use only (STR-23)")
    assert step(result, 4)["message"] == "red's stratagems cost +1CP for phase"


@pytest.mark.parametrize(("change", "message"), [
    ({"amount": 0}, "a cost modifier of 0CP changes nothing"),
    ({"stratagem": "nope"}, "there is no stratagem 'nope' in the catalog"),
])
def test_a_modifier_that_changes_nothing_or_names_no_stratagem_is_input(
    run: Run, change: dict[str, object], message: str,
) -> None:
    result = run([*TO_RED_SHOOTING, {**modifier(1), **change}], units=ARMY)

    assert refused(result, 3) == "INPUT"
    assert message in str(step(result, 3)["message"])
