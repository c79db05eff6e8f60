"""Properties of Cautious Movement (CAU-09 … CAU-13), over random paths.

Scene: one blue trooper b1 at (24, 30) facing +y, on an open table; red's r1 starts at
(10, 5), in b1's rear arc and 24" from its base. Any point with y ≤ 20 that is more than
8" from b1's base (edge to edge) is outside both its LoF and its ZoC.
"""

from __future__ import annotations

import math
from itertools import pairwise
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from n4_scene import cautious, script, trooper

from replay.service import GameService
from warledger.script import parse_script, run_script

B1 = trooper("b1", "blue", 24, 30, facing=90)
SETTINGS = settings(max_examples=50, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])

anywhere = st.tuples(st.floats(1, 47), st.floats(1, 47))
waypoints = st.lists(anywhere, min_size=0, max_size=3)


def is_hidden_spot(point: tuple[float, float]) -> bool:
    """Rear of b1 and outside its ZoC (with 0.1" to spare)."""
    x, y = point
    return y <= 20 and math.hypot(x - 24, y - 30) - 1 > 8.1


hidden_spots = anywhere.filter(is_hidden_spot)


def run(units: list[dict[str, Any]], steps: list[dict[str, Any]]) -> dict[str, Any]:
    service = GameService(":memory:")
    try:
        return run_script(service, parse_script(script(units, steps)))
    finally:
        service.close()


@SETTINGS
@given(middle=waypoints, end=hidden_spots)
def test_cau_10_endpoints_outside_lof_and_zoc_never_open_a_window_whatever_the_path(
        middle: list[tuple[float, float]], end: tuple[float, float]) -> None:
    runner = trooper("r1", "red", 10, 5, mov=[250, 4])

    result = run([runner, B1], [cautious("r1", *middle, end)])

    step = result["steps"][-1]
    assert step["accepted"] and step["rule"] == "CAU-10"
    assert "ReactionWindowOpened" not in step["events"]
    assert result["state"]["reaction_window"] is None
    assert (result["state"]["units"]["r1"]["x"], result["state"]["units"]["r1"]["y"]) == end


@SETTINGS
@given(middle=waypoints, end=anywhere)
def test_cau_11_13_a_start_inside_the_zoc_always_opens_a_window_for_that_enemy(
        middle: list[tuple[float, float]], end: tuple[float, float]) -> None:
    assume(math.dist(end, (24, 30)) >= 1)  # not ending on b1's base (CORE-GENERAL-MOVEMENT)
    runner = trooper("r1", "red", 24, 21.5, mov=[250, 4])  # 7.5" from b1, in its rear

    result = run([runner, B1], [cautious("r1", *middle, end)])

    step = result["steps"][-1]
    assert step["accepted"] and step["rule"] == "CAU-13"
    assert result["state"]["reaction_window"]["eligible"] == ["b1"]


@SETTINGS
@given(points=st.lists(anywhere, min_size=1, max_size=4))
def test_cau_09_a_path_longer_than_the_first_mov_is_refused_and_writes_nothing(
        points: list[tuple[float, float]]) -> None:
    runner = trooper("r1", "red", 10, 5, mov=[4, 4])
    corners = [(10.0, 5.0), *points]
    length = sum(math.dist(a, b) for a, b in pairwise(corners))

    result = run([runner, B1], [cautious("r1", *points)])

    step = result["steps"][-1]
    if length > 4 + 1e-6:
        assert not step["accepted"] and step["rule"] == "CAU-09" and step["events"] == []
        assert result["state"]["units"]["r1"]["x"] == 10.0
        assert result["state"]["orders"]["red"] == 1
    else:
        assert step["accepted"]


@SETTINGS
@given(start=anywhere, end=anywhere, spot=anywhere, facing=st.floats(0, 359))
def test_cau_20_21_a_hidden_trooper_anywhere_never_changes_the_outcome(
        start: tuple[float, float], end: tuple[float, float], spot: tuple[float, float],
        facing: float) -> None:
    """CAU-20, CAU-21: a Hidden Deployment trooper, wherever it stands and looks, changes
    neither the verdict (CAU-10 / CAU-13) nor who may react: it is not a Model or Marker.
    (It is fielded off the other bases: set-up refuses overlapping bases.)"""
    b1 = (24, 30)
    assume(math.dist(spot, start) >= 1 and math.dist(spot, b1) >= 1)
    assume(math.dist(start, b1) >= 1)
    runner = trooper("r1", "red", *start, mov=[250, 4])
    hidden = trooper("h1", "blue", *spot, facing=facing, conditions=["hidden_deployment"])

    without = run([runner, B1], [cautious("r1", end)])
    with_hidden = run([runner, B1, hidden], [cautious("r1", end)])

    def outcome(result: dict[str, Any]) -> tuple[Any, ...]:
        step = result["steps"][-1]
        return step["rule"], step["message"], step["events"], result["state"]["reaction_window"]

    assert outcome(with_hidden) == outcome(without)
