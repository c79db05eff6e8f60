"""The nearest enemy (Engagement Range, CORE-CHARGE, CORE-MOVE) read from the units'
numbers, without copying the working copy's units or building their bases, is the one
the plain search over every footprint finds, at the same distance."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.geometry import Disc, distance
from domain.w40k.state import ENGAGEMENT_RANGE, W40KState, W40KUnit
from domain.w40k.targets import is_beyond, nearest_enemy

coordinate = st.floats(min_value=0.0, max_value=12.0, allow_nan=False)


def exact_nearest_enemy(state: W40KState, player: str, shape: Disc | None,
                        reach: float) -> tuple[W40KUnit, float] | None:
    """The search as it was: every unit's footprint, `distance` to each."""
    if shape is None:
        return None
    near = [(u, distance(shape, f)) for u in state.units.values()
            if u.owner != player and (f := u.footprint()) is not None]
    near = [(u, gap) for u, gap in near if not is_beyond(gap, reach)]
    return min(near, key=lambda pair: (pair[1], pair[0].id)) if near else None


@st.composite
def armies(draw: st.DrawFn) -> dict[str, dict[str, Any]]:
    """A few units of both sides, close together, some off the table."""
    found: dict[str, dict[str, Any]] = {}
    for i in range(draw(st.integers(0, 8))):
        unit: dict[str, Any] = {"id": f"u{i}", "owner": draw(st.sampled_from(["red", "blue"])),
                                "base": draw(st.sampled_from([1.0, 1.25, 1.6, 2.5, 4.0]))}
        if draw(st.booleans()) or i == 0:
            unit.update(x=draw(coordinate), y=draw(coordinate), status="on_table")
        else:
            unit.update(status=draw(st.sampled_from(["reserve", "removed"])))
        found[unit["id"]] = unit
    return found


@settings(max_examples=300, deadline=None)
@given(units=armies(), x=coordinate, y=coordinate,
       base=st.sampled_from([1.0, 1.25, 2.0]), player=st.sampled_from(["red", "blue"]),
       reach=st.sampled_from([0.0, ENGAGEMENT_RANGE, 3.0, 12.0]))
def test_the_nearest_enemy_is_the_plain_searchs(
    units: dict[str, dict[str, Any]], x: float, y: float, base: float, player: str,
    reach: float,
) -> None:
    """Engagement Range and the charge's reach: the same unit at the same distance,
    asked of a working copy as a decision asks (nothing else copied)."""
    state = W40KState.model_validate({
        "ruleset": "w40k-10", "board": {"width": 44, "height": 60},
        "players": ["red", "blue"], "active_player": "red", "phase": "movement",
        "units": units}).working_copy()
    shape = Disc(x, y, base)
    want = exact_nearest_enemy(state.working_copy(), player, shape, reach)
    got = nearest_enemy(state, player, shape, reach)
    assert (None if got is None else (got[0].id, got[1])) == (
        None if want is None else (want[0].id, want[1]))
    if got is not None:
        assert got[0] is state.units[got[0].id]  # the decision's own copy
    assert nearest_enemy(state, player, None, reach) is None


def test_a_base_exactly_one_inch_away_is_engaged_and_one_a_hair_farther_is_not() -> None:
    """Engagement Range: 1" exactly is within it (CONTRACT's tolerance)."""
    state = W40KState.model_validate({
        "ruleset": "w40k-10", "board": {"width": 44, "height": 60},
        "players": ["red", "blue"], "active_player": "red", "phase": "movement",
        "units": {"b": {"id": "b", "owner": "blue", "x": 3.0, "y": 0.0, "base": 1.0,
                        "status": "on_table"}}})
    found = nearest_enemy(state, "red", Disc(0.0, 0.0, 3.0), ENGAGEMENT_RANGE)
    assert found is not None and found[0].id == "b" and found[1] == 1.0
    assert nearest_enemy(state, "red", Disc(-0.001, 0.0, 3.0), ENGAGEMENT_RANGE) is None
