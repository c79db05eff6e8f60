"""Impale (MNT-91, MNT-92)."""

from __future__ import annotations

import pytest

from .builders import TO_ACTION, cavalry, click, refused, warrior
from .conftest import Facts, Run

LANCER = cavalry(benefits=["impale"], rider_extra={"abilities": ["weapon_master", "sweep"]})
SIX_CLICKS = [click() for _ in range(6)]


def test_mnt_91_the_rider_may_not_use_weapon_master(run: Run) -> None:
    """MNT-91."""
    units = [*LANCER, warrior("b1", "blue", x=10, y=11.75)]
    steps = [TO_ACTION, {"by": "red", "do": "close_attack", "figure": "r1", "targets": ["b1"],
                         "use": ["weapon_master"]}]

    result, state = run(units, steps)

    assert refused(result, "MNT-91")
    assert state.units["b1"].click == 0 and state.actions_used == 0


@pytest.mark.parametrize(("named", "damage"), [("r1", 4), ("m1", 2)])
def test_mnt_92_a_riders_successful_close_attack_on_one_target_deals_2_more(
    run: Run, facts: Facts, named: str, damage: int
) -> None:
    """MNT-92."""
    units = [*LANCER, warrior("b1", "blue", x=10, y=11.75, dial=SIX_CLICKS)]
    steps = [TO_ACTION, {"by": "red", "do": "close_attack", "figure": named,
                         "targets": ["b1"], "dice": [6, 6]}]

    result, state = run(units, steps)

    assert facts(result, "AttackResolved")[0].damage == damage
    assert state.units["b1"].click == damage


def test_mnt_92_no_bonus_against_several_targets(run: Run, facts: Facts) -> None:
    """MNT-92."""
    units = [*LANCER, warrior("b1", "blue", x=9.5, y=11.75, dial=SIX_CLICKS),
             warrior("b2", "blue", x=10.5, y=11.75, dial=SIX_CLICKS)]
    steps = [TO_ACTION, {"by": "red", "do": "close_attack", "figure": "r1",
                         "targets": ["b1", "b2"], "use": ["sweep"], "dice": [6, 6]}]

    result, _ = run(units, steps)

    assert [a.damage for a in facts(result, "AttackResolved")] == [2, 2]
