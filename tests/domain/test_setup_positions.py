"""A script fields only a position a game can start from (docs/script-format.md): in
every rule set, units fielded on top of each other, or on terrain that blocks
movement, make the script malformed with one clear line."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import ScriptError
from replay.service import GameService
from warledger.script import parse_script, run_script

WALL = {"id": "wall", "polygon": [[15, 15], [25, 15], [25, 25], [15, 25]]}


def field(ruleset: str, units: list[dict[str, Any]],
          terrain: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Run a script of no steps fielding `units`; its result."""
    script = parse_script({"ruleset": ruleset, "board": {"width": 48, "height": 48},
                           "players": ["red", "blue"], "units": units, "terrain": terrain or []})
    return run_script(GameService(":memory:"), script)


def unit(unit_id: str, owner: str, x: float, y: float) -> dict[str, Any]:
    return {"id": unit_id, "owner": owner, "x": x, "y": y, "facing": 90}


@pytest.mark.parametrize("ruleset, refusal", [
    ("t9a", "units: Unit Spacing: a would be within 1\" of unit b (0.00\"); it must be more "
            "than 1\" away (CORE-UNIT-SPACING)"),
    ("infinity-n4", "units: CORE-GENERAL-MOVEMENT: a's base would end on b's base"),
    ("mageknight-2", "units: CORE-MK-MOVE: a's base overlaps b's; bases stand clear of each other"),
    ("w40k-10", "units: CORE-W40K-SETUP: a's base overlaps b's (centres 0.50\" apart); bases "
                "stand clear of each other"),
])
def test_units_fielded_on_top_of_each_other_are_malformed(ruleset: str, refusal: str) -> None:
    with pytest.raises(ScriptError) as malformed:
        field(ruleset, [unit("a", "red", 20, 20), unit("b", "blue", 20.5, 20)])

    assert str(malformed.value).startswith(f"script: {refusal}")  # the script named


@pytest.mark.parametrize("ruleset, kinds, refusal", [
    ("t9a", ["impassable"], "units: Unit Spacing: a would be within 1\" of impassable wall"),
    ("infinity-n4", ["blocking", "impassable"],
     "units: CORE-GENERAL-MOVEMENT: a's base would cross {kind} terrain wall"),
    ("mageknight-2", ["blocking", "impassable"],
     "units: CORE-MK-MOVE: a's base stands on {kind} terrain wall"),
    ("w40k-10", ["blocking", "impassable"],
     "units: CORE-W40K-SETUP: a's base stands on {kind} terrain wall"),
])
def test_a_unit_fielded_on_terrain_that_blocks_movement_is_malformed(
    ruleset: str, kinds: list[str], refusal: str
) -> None:
    for kind in kinds:
        with pytest.raises(ScriptError) as malformed:
            field(ruleset, [unit("a", "red", 20, 20)], [{**WALL, "kind": kind}])

        assert str(malformed.value).startswith(f"script: {refusal.format(kind=kind)}")


def test_t9a_blocking_terrain_does_not_block_so_a_unit_may_stand_on_it() -> None:
    """docs/notes/t9a.md: the T9A core has no `blocking` kind (walls are `impassable`);
    it blocks neither a Move nor a set-up."""
    result = field("t9a", [unit("a", "red", 20, 20)], [{**WALL, "kind": "blocking"}])

    assert result["state"]["units"]["a"]["status"] == "on_table"


@pytest.mark.parametrize("ruleset", ["infinity-n4", "mageknight-2", "w40k-10"])
def test_bases_that_only_touch_and_clear_terrain_are_a_legal_start(ruleset: str) -> None:
    """The same checks let a legal position through: two 1″… bases touching (their
    centres one diameter apart), a third beside a wall it does not stand on."""
    base = 1.25 if ruleset == "w40k-10" else 1.0
    units = [{**unit("a", "red", 10, 10), "base": base}, {**unit("b", "blue", 10 + base, 10),
             "base": base}, {**unit("c", "red", 25 + base / 2, 20), "base": base}]

    result = field(ruleset, units, [{**WALL, "kind": "blocking"}])

    assert sorted(result["state"]["units"]) == ["a", "b", "c"]
