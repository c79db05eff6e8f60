"""STR-16 (Rapid Ingress): the quick answer to "is there room to arrive at all"
(`clear_spot`) never says yes where the exact room (`arrival_room`) is empty."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.w40k.effects import arrival_room, clear_spot
from domain.w40k.state import W40KUnit
from events.core import Board

coordinate = st.floats(min_value=0, max_value=24, allow_nan=False)


def table(width: float, height: float, enemies: list[tuple[float, float, float]]) -> Any:
    units = {f"b{i}": W40KUnit(id=f"b{i}", owner="blue", x=x, y=y, base=base)
             for i, (x, y, base) in enumerate(enemies)}
    return SimpleNamespace(board=Board(width=width, height=height), units=units)


@settings(max_examples=150, deadline=None)
@given(width=st.floats(min_value=1, max_value=24), height=st.floats(min_value=1, max_value=24),
       base=st.floats(min_value=0.5, max_value=6),
       more_than=st.floats(min_value=0, max_value=9),
       enemies=st.lists(st.tuples(coordinate, coordinate, st.floats(min_value=0.5, max_value=4)),
                        max_size=6))
def test_a_clear_spot_is_only_found_where_the_exact_room_is_not_empty(
        width: float, height: float, base: float, more_than: float,
        enemies: list[tuple[float, float, float]]) -> None:
    state = table(width, height, enemies)
    unit = W40KUnit(id="r1", owner="red", status="reserve", base=base)
    if clear_spot(state, "red", unit, more_than):
        assert not arrival_room(state, "red", unit, more_than).is_empty


def test_a_clear_spot_is_found_on_an_open_table_and_not_on_a_crowded_one() -> None:
    unit = W40KUnit(id="r1", owner="red", status="reserve", base=1.25)
    open_table = table(44, 60, [(22, 30, 1.25)])
    assert clear_spot(open_table, "red", unit, 9)
    crowded = table(20, 20, [(x, y, 1.25) for x in (0, 10, 20) for y in (0, 10, 20)])
    assert not clear_spot(crowded, "red", unit, 9)
    assert arrival_room(crowded, "red", unit, 9).is_empty
