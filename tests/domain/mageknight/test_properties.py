"""Properties over many positions and dice (hypothesis, few examples each)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .builders import TO_ACTION, cavalry, click, warrior
from .conftest import Facts, Run

FEW = settings(max_examples=30, deadline=None,
               suppress_health_check=[HealthCheck.function_scoped_fixture])


@FEW
@given(a=st.integers(1, 6), b=st.integers(1, 6), defense=st.integers(12, 20))
def test_mnt_02_a_hit_is_exactly_2d6_plus_attack_at_least_defense(
    run: Run, facts: Facts, a: int, b: int, defense: int
) -> None:
    """MNT-02, MNT-14: core hit rule, with the rider bonus while mounted."""
    units = [*cavalry(), warrior("b1", "blue", x=10, y=11.75, facing=270,
                                 dial=[click(defense=defense)] * 4)]
    steps = [TO_ACTION, {"by": "red", "do": "close_attack", "figure": "r1", "targets": ["b1"],
                         "dice": [a, b]}]

    result, _ = run(units, steps)

    assert facts(result, "AttackResolved")[0].hit is (a + b + 10 >= defense)


@FEW
@given(start=st.integers(0, 3), extra=st.integers(0, 3))
def test_mnt_128_dark_alliance_heals_toward_the_start_click_never_past_it(
    run: Run, start: int, extra: int
) -> None:
    """MNT-128: healing stops at the starting click."""
    now = min(start + extra, 4)
    dial = [click() for _ in range(6)]
    units = cavalry("dm", "dr", sub_faction="dark_riders", collector="7b", dial=dial,
                    start_click=start, click=now,
                    rider_extra={"sub_faction": "dark_riders", "collector": "7a", "rides": []})

    _, state = run(units, [{"by": "red", "do": "dark_alliance", "figure": "dm"}])

    assert state.units["dm"].click == max(start, now - 1)


@FEW
@given(x=st.floats(2, 34), y=st.floats(2, 34), facing=st.sampled_from([0, 45, 90, 200, 270]))
def test_mnt_32_after_any_move_the_rider_stands_in_its_mounts_slot(
    run: Run, x: float, y: float, facing: float
) -> None:
    """MNT-32: wherever the unit goes, the rider goes (or the move is refused whole)."""
    units = cavalry(x=18, y=18, dial=[click(speed=30)])
    steps = [TO_ACTION, {"by": "red", "do": "move", "figure": "m1", "path": [[x, y]],
                         "facing": facing}]

    result, state = run(units, steps)

    r1, m1 = state.units["r1"], state.units["m1"]
    assert (r1.x, r1.y, r1.facing) == (m1.x, m1.y, m1.facing)
    if result["steps"][1]["accepted"]:
        assert (m1.x, m1.y) == (x, y)
