"""The plain Moves of the minimal T9A core (RULINGS.md "Moves"): CORE-ONE-MOVE,
CORE-MOVE-RATE, CORE-MOVE-BLOCKED, and the Advance Move record AMB-18 relies on."""

from __future__ import annotations

from t9a_scene import Scene, last, to_movement, unit

SPEARS = unit("red-spears", x=36, y=10, facing=90)


def move(kind: str, **args: object) -> dict[str, object]:
    return {"by": "red", "do": kind, "unit": "red-spears", **args}


def test_an_advance_move_goes_forwards_and_is_recorded_as_advance_moved(t9a: Scene) -> None:
    result = t9a([SPEARS], [*to_movement(1), move("advance", distance=4)])

    spears = result["state"]["units"]["red-spears"]
    assert last(result)["accepted"] and spears["y"] == 14.0 and spears["advance_moved"] is True


def test_core_move_rate_limits_advance_and_march_moves(t9a: Scene) -> None:
    result = t9a([SPEARS], [*to_movement(1), move("advance", distance=4.5)])
    marched = t9a([SPEARS], [*to_movement(1), move("march", distance=8)])

    assert last(result)["rule"] == "CORE-MOVE-RATE"
    assert last(marched)["accepted"]
    assert marched["state"]["units"]["red-spears"]["advance_moved"] is False


def test_core_one_move_a_unit_moves_once_per_movement_phase(t9a: Scene) -> None:
    result = t9a([SPEARS], [*to_movement(1), move("advance", distance=1),
                            move("reform", facing=0)])

    assert last(result)["rule"] == "CORE-ONE-MOVE"


def test_core_move_blocked_a_move_cannot_pass_through_another_unit(t9a: Scene) -> None:
    blue = unit("blue-guard", "blue", x=36, y=14, facing=270)

    result = t9a([SPEARS, blue], [*to_movement(1), move("march", distance=8)])

    assert last(result)["rule"] == "CORE-MOVE-BLOCKED"


def test_moves_are_made_only_in_the_movement_phase(t9a: Scene) -> None:
    result = t9a([SPEARS], [*to_movement(1)[:-1], move("advance", distance=1)])

    assert last(result)["rule"] == "CORE-PHASE"
