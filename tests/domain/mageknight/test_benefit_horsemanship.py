"""Horsemanship (MNT-90)."""

from __future__ import annotations

from uuid import UUID

import pytest

from replay.audit import audit_entries, render
from replay.service import GameService

from .builders import cavalry, warrior
from .conftest import Facts, Run


@pytest.mark.parametrize(("target", "modifier"), [("r2", -2), ("m2", 0)])
def test_mnt_90_ranged_attacks_at_the_riders_base_suffer_minus_2(
    run: Run, facts: Facts, target: str, modifier: int
) -> None:
    """MNT-90."""
    units = [*cavalry("m2", "r2", "blue", benefits=["horsemanship"]),
             warrior("w1", x=10, y=4, range=8)]
    steps = [{"by": "red", "do": "next_phase"},
             {"by": "red", "do": "ranged_attack", "figure": "w1", "target": target,
              "dice": [3, 3]}]

    result, _ = run(units, steps)

    assert facts(result, "AttackResolved")[0].modifier == modifier + 1, "+1: from the rear"


def test_mnt_90_close_attacks_at_the_rider_are_not_penalised(run: Run, facts: Facts) -> None:
    """MNT-90."""
    units = [*cavalry("m2", "r2", "blue", benefits=["horsemanship"]),
             warrior("w1", x=10, y=11.75, facing=270)]
    steps = [{"by": "red", "do": "next_phase"},
             {"by": "red", "do": "close_attack", "figure": "w1", "targets": ["r2"],
              "dice": [3, 3]}]

    result, _ = run(units, steps)

    assert facts(result, "AttackResolved")[0].modifier == 0


@pytest.mark.parametrize(("aimed", "rider_modifier"), [("r2", -2), ("w9", 0)])
def test_mnt_90_in_an_area_attack_only_a_rider_aimed_at_gives_minus_2(
    run: Run, facts: Facts, aimed: str, rider_modifier: int
) -> None:
    """MNT-90, MNT-49 (A-MNT-21): a rider caught by a Bombard aimed elsewhere is
    not the target of a ranged attack "made against the rider's base"."""
    units = [*cavalry("m2", "r2", "blue", benefits=["horsemanship"]),
             warrior("w9", "blue", x=11.5, y=10),
             warrior("w1", x=10, y=20, facing=270, range=12, abilities=["bombard"])]
    steps = [{"by": "red", "do": "next_phase"},
             {"by": "red", "do": "ranged_attack", "figure": "w1", "target": aimed,
              "area": True, "dice": [3, 3]}]

    result, _ = run(units, steps)

    modifiers = {a.target: a.modifier for a in facts(result, "AttackResolved")}
    assert modifiers == {"m2": 0, "r2": rider_modifier, "w9": 0}


def test_mnt_90_a_horsemanship_miss_cites_mnt_90_with_the_numbers(
    run: Run, service: GameService,
) -> None:
    """MNT-90: the step and the audit say the attack total, the modifier (with
    Horsemanship's −2), the defense and the verdict."""
    units = [*cavalry("m2", "r2", "blue", benefits=["horsemanship"]),
             warrior("w1", x=10, y=4, range=8)]
    steps = [{"by": "red", "do": "next_phase"},
             {"by": "red", "do": "ranged_attack", "figure": "w1", "target": "r2",
              "dice": [4, 3]}]

    result, _ = run(units, steps)

    shot = result["steps"][1]
    assert result["steps"][0]["accepted"] and shot["accepted"]
    assert shot["rule"] == "MNT-90"
    expected = ("w1's ranged attack at r2's base: roll 7 + attack 9 + modifier -1 "
                "(Horsemanship -2, rear arc +1) = 15 against defense 16: a miss "
                "(it would have hit without Horsemanship)")
    assert shot["message"] == expected
    audit = render(audit_entries(service.stored_events(UUID(result["game_id"]))))
    assert "MNT-90" in audit and expected in audit


def test_mnt_90_a_horsemanship_hit_is_cited_too(run: Run) -> None:
    """MNT-90: the −2 is shown on a hit as well."""
    units = [*cavalry("m2", "r2", "blue", benefits=["horsemanship"]),
             warrior("w1", x=10, y=4, range=8)]
    steps = [{"by": "red", "do": "next_phase"},
             {"by": "red", "do": "ranged_attack", "figure": "w1", "target": "r2",
              "dice": [6, 6]}]

    result, _ = run(units, steps)

    assert result["steps"][1]["rule"] == "MNT-90"
    assert result["steps"][1]["message"].endswith("= 20 against defense 16: a hit")
