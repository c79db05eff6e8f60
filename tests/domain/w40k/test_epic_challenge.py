"""STR-04, CORE-SELECTED-TO-FIGHT (w40k rules version 3): Epic Challenge is used
"when a CHARACTER unit from your army is selected to fight": the use selects it, so
it fights next; another unit's fight before it, or a second selection while it
waits, is refused."""

from __future__ import annotations

from .conftest import Run
from .helpers import TO_RED_FIGHT, refused, step, units

#: r1 and b1 are engaged; so are red's CHARACTER r3 and blue's b3.
ARMY = units(b1={"y": 11.5}, b3={"x": 30, "y": 11.5})
CHALLENGE = {"by": "red", "do": "use_stratagem", "stratagem": "epic-challenge",
             "targets": ["r3"]}
R1_FIGHTS = {"by": "red", "do": "fight", "unit": "r1", "target": "b1"}
R3_FIGHTS = {"by": "red", "do": "fight", "unit": "r3", "target": "b3"}
PASS_BLUE = {"by": "blue", "do": "pass_stratagem"}


def test_the_challenged_character_fights_next(run: Run) -> None:
    result = run([*TO_RED_FIGHT, CHALLENGE, R1_FIGHTS, R3_FIGHTS], units=ARMY)

    assert step(result, 5)["accepted"], step(result, 5)
    assert step(result, 5)["events"][-1] == "EffectRecorded"
    assert refused(result, 6) == "CORE-SELECTED-TO-FIGHT"
    assert step(result, 6)["message"].startswith("r3 was selected to fight")
    assert step(result, 7)["accepted"], step(result, 7)


def test_after_it_fought_other_units_fight_again(run: Run) -> None:
    result = run([*TO_RED_FIGHT, CHALLENGE, R3_FIGHTS, PASS_BLUE, R1_FIGHTS], units=ARMY,
                 cp=4)

    assert [step(result, i)["accepted"] for i in (5, 6, 8)] == [True, True, True], result


def test_no_second_unit_is_selected_while_one_waits(run: Run) -> None:
    army = units(b1={"y": 11.5}, b3={"x": 30, "y": 11.5, "keywords": ["infantry", "character"]})
    blue = {"by": "blue", "do": "use_stratagem", "stratagem": "epic-challenge",
            "targets": ["b3"]}

    result = run([*TO_RED_FIGHT, CHALLENGE, blue, R3_FIGHTS], units=army)

    assert refused(result, 6) == "CORE-SELECTED-TO-FIGHT"
    assert step(result, 7)["accepted"], step(result, 7)
