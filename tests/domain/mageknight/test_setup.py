"""Set-up fields only positions play can reach (CORE-MK-SETUP, CORE-MK-ITEMS,
CORE-MK-MOVE): a script that breaks one is malformed (`ScriptError`, exit 2)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from domain.errors import ScriptError

from .builders import cavalry, click, strip, warrior
from .conftest import Run

FOUR = [click() for _ in range(4)]


@pytest.mark.parametrize(
    ("dial", "says"),
    [
        ({"click": -1}, "click: Input should be greater than or equal to 0"),
        ({"click": 4}, "click 4 is past the dial's last click (3)"),
        ({"start_click": 2, "click": 0}, "click 0 is before start_click 2"),
    ],
)
def test_core_mk_setup_the_dial_shows_a_click_from_start_click_to_its_last(
    run: Run, dial: dict[str, int], says: str
) -> None:
    """CORE-MK-SETUP, MNT-128: 0 <= start_click <= click < len(dial)."""
    with pytest.raises(ScriptError, match=re.escape(says)):
        run([warrior("w1", dial=FOUR, **dial)], [])


def test_core_mk_setup_a_dial_may_start_damaged_from_its_start_click(run: Run) -> None:
    """CORE-MK-SETUP: a click between start_click and the last click is a reachable dial."""
    _, state = run([warrior("w1", dial=FOUR, start_click=1, click=3)], [])

    assert (state.units["w1"].start_click, state.units["w1"].click) == (1, 3)


@pytest.mark.parametrize(("mount_status", "rider_status"),
                         [("removed", "on_table"), ("on_table", "reserve"),
                          ("reserve", "removed")])
def test_core_mk_setup_both_halves_of_a_cavalry_unit_have_one_status(
    run: Run, mount_status: str, rider_status: str
) -> None:
    """CORE-MK-SETUP, MNT-32: a mount and its rider are one figure."""
    units = cavalry(status=mount_status, rider_extra={"status": rider_status})

    with pytest.raises(ScriptError, match=f"CORE-MK-SETUP: mount m1 is {mount_status} but "
                                          f"its rider r1 is {rider_status}"):
        run(units, [])


def test_core_mk_setup_a_cavalry_unit_may_wait_in_reserve_whole(run: Run) -> None:
    """CORE-MK-SETUP: both halves in reserve is one figure in reserve."""
    _, state = run(cavalry(status="reserve", rider_extra={"status": "reserve"}), [])

    assert state.units["m1"].status == state.units["r1"].status == "reserve"
    assert state.units["r1"].mount == "m1"


@pytest.mark.parametrize(
    ("field", "value"),
    [("tokens", 1), ("acted", True), ("given_action", True), ("controller", "blue"),
     ("removed_in_turn_of", "blue"), ("saddle_figure", "r9")],
)
def test_core_mk_setup_play_kept_fields_are_not_a_scripts_to_set(
    run: Run, field: str, value: Any
) -> None:
    """CORE-MK-SETUP: tokens, actions, allegiance and eliminations come from play."""
    with pytest.raises(ScriptError, match=f"{field} is kept by the game"):
        run([warrior("w1", **{field: value})], [])


@pytest.mark.parametrize(
    "condition",
    ["mounted", "riderless", "dismounted_rider", "removed_from_game", "captured_by:b1"],
)
def test_core_mk_setup_derived_conditions_are_not_a_scripts_to_give(
    run: Run, condition: str
) -> None:
    """CORE-MK-SETUP: conditions the view derives or play records."""
    with pytest.raises(ScriptError, match=f"CORE-MK-SETUP: the condition\\(s\\) {condition} "
                                          "are kept by the game"):
        run([warrior("w1", conditions=[condition, "shaken"])], [])


def test_core_mk_setup_other_conditions_are_the_scripts(run: Run) -> None:
    """CORE-MK-SETUP: a condition the rules do not derive stays as given."""
    result, _ = run([warrior("w1", conditions=["shaken"])], [])

    assert result["state"]["units"]["w1"]["conditions"] == ["shaken"]


def test_core_mk_items_a_carried_item_names_its_carrier(run: Run) -> None:
    """CORE-MK-ITEMS, MNT-41: an item a figure carries from set-up shows who carries it."""
    units = cavalry(rider_extra={"items": ["axe"]})
    options = {"items": [{"id": "axe"}, {"id": "shield", "x": 13, "y": 10}]}

    result, state = run(units, [], options=options)

    assert state.items["axe"].carried_by == "r1"
    assert result["state"]["items"]["axe"]["carried_by"] == "r1"
    assert result["state"]["items"]["shield"]["carried_by"] is None


@pytest.mark.parametrize(
    ("units", "items", "says"),
    [
        (cavalry(items=["axe"]), [{"id": "axe"}], "mount m1 carries axe; mounts carry no items"),
        ([warrior("w1", items=["axe"]), warrior("w2", x=25, items=["axe"])], [{"id": "axe"}],
         r"axe is carried twice \(w1, w2\)"),
        ([warrior("w1", items=["ghost"])], [], "w1 carries 'ghost', which options.items"),
        ([warrior("w1", items=["axe"])], [{"id": "axe", "carried_by": "w2"}],
         "axe has carried_by 'w2', but w1 carries it"),
        ([warrior("w1", items=["axe"])], [{"id": "axe", "x": 5, "y": 5}],
         "axe is carried by w1 and also given x, y"),
        ([warrior("w1")], [{"id": "axe"}], "axe is carried by no figure and lacks x or y"),
        ([warrior("w1")], [{"id": "axe", "x": 40, "y": 5}], r"axe at \(40, 5\) is not wholly"),
        ([warrior("w1")], [{"id": "axe", "x": 5, "y": 5}, {"id": "axe", "x": 6, "y": 5}],
         "item id 'axe' is listed twice"),
    ],
)
def test_core_mk_items_set_up_items_are_where_play_could_put_them(
    run: Run, units: list[dict[str, Any]], items: list[dict[str, Any]], says: str
) -> None:
    """CORE-MK-ITEMS: mounts carry none; one carrier each; listed once in
    options.items; carried or lying wholly on the board."""
    with pytest.raises(ScriptError, match=f"CORE-MK-ITEMS: .*{says}"):
        run(units, [], options={"items": items})


@pytest.mark.parametrize(
    ("units", "says"),
    [
        ([warrior("w1", x=10, y=10), warrior("w2", x=10.5, y=10)], "w1's base overlaps w2's"),
        ([*cavalry(), warrior("b1", "blue", x=10, y=11.5)], "b1's base overlaps m1's"),
        ([*cavalry(), *cavalry("m2", "r2", "blue", x=11, y=10)], "m1's base overlaps m2's"),
    ],
)
def test_core_mk_move_bases_are_fielded_clear_of_each_other(
    run: Run, units: list[dict[str, Any]], says: str
) -> None:
    """CORE-MK-MOVE: no base is fielded on another."""
    with pytest.raises(ScriptError, match=f"CORE-MK-MOVE: {says}"):
        run(units, [])


def test_core_mk_move_bases_may_be_fielded_touching(run: Run) -> None:
    """CORE-MK-MOVE: touching is not overlapping (a rider stands in its mount's slot)."""
    units = [*cavalry(), warrior("b1", "blue", x=10, y=11.75), warrior("w1", x=20, y=20),
             warrior("w2", x=21, y=20)]

    _, state = run(units, [])

    assert all(f.status == "on_table" for f in state.units.values())


def test_core_mk_move_no_base_is_fielded_on_blocking_terrain(run: Run) -> None:
    """CORE-MK-MOVE: a base stands off blocking and impassable terrain."""
    wall = {"id": "wall", "kind": "blocking", "polygon": [[9, 12], [11, 12], [11, 13], [9, 13]]}

    with pytest.raises(ScriptError, match="CORE-MK-MOVE: w1's base stands on blocking "
                                          "terrain wall"):
        run([warrior("w1", x=10, y=12.2)], [], terrain=[wall])
    with pytest.raises(ScriptError, match="CORE-MK-MOVE: m1's base stands on impassable"):
        run(cavalry(), [], terrain=[strip(10.5, 10, 12, 11, "rock")])
