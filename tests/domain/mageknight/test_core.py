"""The small Mage Knight core under the MNT clauses (RULINGS.md, Mage Knight 2.0):
each refusal names its CORE-MK rule (docs/notes/mageknight.md) and gives the numbers."""

from __future__ import annotations

from typing import Any

import pytest

from .builders import TO_ACTION, cavalry, message, refused, warrior
from .conftest import Run

UNITS = [warrior("w1", x=20, y=20, range=8), warrior("w2", x=21, y=20),
         warrior("a1", x=5, y=5, range=4),
         warrior("b1", "blue", x=20, y=21), warrior("b3", "blue", x=20, y=19),
         warrior("b2", "blue", x=20, y=30), *cavalry(x=5, y=30, rider_extra={"items": ["axe"]})]
OPTIONS = {"items": [{"id": "axe", "carried_by": "r1"}]}


def red(do: str, **args: Any) -> dict[str, Any]:
    """A red step."""
    return {"by": "red", "do": do, **args}


@pytest.mark.parametrize(
    ("command", "rule", "says"),
    [
        (red("close_attack", figure="w1", targets=["b2"]), "CORE-MK-CONTACT",
         'b2 is 9.00" from w1'),
        (red("close_attack", figure="w1", targets=["b3"]), "CORE-MK-FRONT-ARC",
         "not in w1's front arc"),
        (red("close_attack", figure="w1", targets=["w2"]), "CORE-MK-TARGET",
         "w2 is not an opposing figure"),
        (red("close_attack", figure="w1", targets=["b1", "b3"]), "CORE-MK-ONE-TARGET",
         "only Sweep"),
        (red("ranged_attack", figure="a1", target="b2"), "CORE-MK-RANGE",
         'b2 is 29.15" away; a1\'s range is 4'),
        (red("ranged_attack", figure="w2", target="b2"), "CORE-MK-RANGE", "no range value"),
        (red("ranged_attack", figure="w1", target="b2"), "CORE-MK-RANGED-CONTACT",
         "w1 is in base contact with b1"),
        (red("capture", figure="a1", target="b2"), "CORE-MK-CAPTURE",
         'b2 is 28.15" from a1'),
        (red("drop_item", figure="m1", item="axe", at=[5, 31.5]), "CORE-MK-ITEMS",
         "m1 is a mount"),
        (red("use_ability", figure="w1", ability="surge"), "CORE-MK-NO-ABILITY",
         "w1 has no 'surge'"),
    ],
)
def test_core_refusals_name_their_rule_and_give_the_numbers(
    run: Run, command: dict[str, Any], rule: str, says: str
) -> None:
    result, state = run(UNITS, [TO_ACTION, command], options=OPTIONS)

    assert refused(result, rule), result["steps"][-1]
    assert says in message(result)
    assert state.actions_used == 0
    assert all(f.click == 0 and f.status == "on_table" for f in state.units.values())
