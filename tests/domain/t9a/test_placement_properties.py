"""Property tests over random arrivals from Ambush (AMB-11, AMB-13…16, AMB-14).

Each accepted placement is re-checked here with plain shapely and arithmetic,
independently of `domain.t9a.placement`; and the verdict never depends on the
order in which the terrain is listed.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any
from uuid import UUID

from hypothesis import example, given, settings
from hypothesis import strategies as st
from shapely.geometry import MultiPoint, Polygon
from t9a_scene import ROCK, ambusher, script, to_movement, unit

from domain.geometry import Rect
from domain.t9a.arrival import Arrival, arrival_breaches
from domain.t9a.units import T9AState, T9AUnit
from replay.service import GameService
from warledger.script import parse_script, run_script

TERRAIN = [
    ROCK,
    {"id": "bog", "kind": "hindering", "polygon": [[20, 1], [24, 1], [24, 4], [20, 4]]},
    {"id": "cliff", "kind": "impassable", "polygon": [[44, 0], [46, 0], [45, 3]]},
    {"id": "wall", "kind": "impassable", "polygon": [[54, 4], [60, 4], [60, 5], [54, 5]]},
]
BLUE = unit("blue-guard", "blue", x=30, y=6, facing=270)


@cache
def ready_state() -> T9AState:
    """Red's Movement Phase of Player Turn 2: red-scouts (8 models) rolled a 6."""
    steps = [{"by": "red", "do": "ambush", "unit": "red-scouts"}, *to_movement(2),
             {"by": "red", "do": "roll_ambush", "dice": [6]}]
    service = GameService(":memory:")
    result = run_script(service, parse_script(script([ambusher(), BLUE], steps, TERRAIN)))
    assert all(step["accepted"] for step in result["steps"])
    state = service.load(UUID(result["game_id"])).state
    assert isinstance(state, T9AState)
    return state


placements = st.fixed_dictionaries({
    "point": st.tuples(st.floats(6, 66), st.just(0.0)),
    "dx": st.floats(-6, 6),
    "dy": st.floats(1.5, 8),
    "facing": st.one_of(st.sampled_from([0.0, 90.0, 180.0, 270.0]), st.floats(0, 360)),
    # (files, ranks) for 8 models: mostly legal, (3, 2) and (9, 1) are not (AMB-14).
    "formation": st.sampled_from([(4, 2), (3, 3), (5, 2), (8, 1), (2, 4), (3, 2), (9, 1)]),
})


def arrival(state: T9AState, p: dict[str, Any]) -> tuple[T9AUnit, Arrival]:
    scouts = state.units["red-scouts"]
    assert isinstance(scouts, T9AUnit)
    (px, py) = p["point"]
    files, ranks = p["formation"]
    return scouts, Arrival(scouts, (px, py), px + p["dx"], py + p["dy"], p["facing"],
                           files, ranks)


def rules_broken(state: T9AState, p: dict[str, Any]) -> list[str]:
    scouts, proposed = arrival(state, p)
    return [breach.rule for breach in arrival_breaches(state, scouts, proposed)]


def independently_legal(state: T9AState, p: dict[str, Any]) -> bool:
    """AMB-11, AMB-13…16 and the board edge, checked with plain shapely and arithmetic."""
    scouts, proposed = arrival(state, p)
    corners = proposed.rect.corners
    px, py = proposed.point
    footprint = Polygon(corners)
    hull = MultiPoint([*corners, (px, py)]).convex_hull
    others = [Polygon(t["polygon"]) for t in TERRAIN if t["kind"] == "impassable"]
    blue = state.units["blue-guard"].footprint()
    assert isinstance(blue, Rect)
    others.append(Polygon(blue.corners))
    files, ranks = p["formation"]
    return (
        py == 0.0 and 0 <= px <= 72                                              # AMB-11
        and sum(math.hypot(cx - px, cy - py) <= 6 + 1e-6 for cx, cy in corners) >= 3  # AMB-13
        and files * (ranks - 1) < scouts.models <= files * ranks                  # AMB-14
        and all(footprint.distance(o) > 1 + 1e-6 for o in others)                 # AMB-15
        and not any(hull.intersects(o) for o in others)                           # AMB-16
        and all(-1e-6 <= cx <= 72 + 1e-6 and -1e-6 <= cy <= 48 + 1e-6 for cx, cy in corners)
    )


@settings(max_examples=80, deadline=None)
@given(placements, st.permutations(TERRAIN))
def test_amb_13_to_amb_16_the_verdict_never_depends_on_the_order_terrain_is_listed(
    p: dict[str, Any], terrain: list[dict[str, Any]]
) -> None:
    state = ready_state()
    shuffled = state.model_copy(update={"terrain": [type(state.terrain[0])(**t) for t in terrain]})

    assert rules_broken(shuffled, p) == rules_broken(state, p)


ROCK_IN_BETWEEN = {"point": (12.0, 0.0), "dx": 0.0, "dy": 4.5, "facing": 90.0, "formation": (4, 2)}


@settings(max_examples=100, deadline=None)
@given(placements)
@example(ROCK_IN_BETWEEN)
def test_amb_13_to_amb_16_a_placement_is_accepted_exactly_when_every_constraint_holds(
    p: dict[str, Any],
) -> None:
    """AMB-11, AMB-13, AMB-14, AMB-15, AMB-16: accepted iff each holds, checked apart."""
    state = ready_state()

    assert (rules_broken(state, p) == []) == independently_legal(state, p)


def test_amb_16_the_rock_example_is_refused_by_both_checks() -> None:
    assert rules_broken(ready_state(), ROCK_IN_BETWEEN) == ["AMB-16"]
    assert not independently_legal(ready_state(), ROCK_IN_BETWEEN)


def test_the_property_strategy_does_produce_legal_placements() -> None:
    p = {"point": (36.0, 0.0), "dx": 0.0, "dy": 2.5, "facing": 90.0, "formation": (4, 2)}

    assert rules_broken(ready_state(), p) == [] and independently_legal(ready_state(), p)
