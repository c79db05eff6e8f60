"""The small Mage Knight core under the MNT clauses (RULINGS.md, Mage Knight 2.0):
each refusal names its CORE-MK rule (docs/notes/mageknight.md) and gives the numbers."""

from __future__ import annotations

from typing import Any

import pytest

from .builders import TO_ACTION, cavalry, click, message, refused, warrior
from .conftest import Run

UNITS = [warrior("w1", x=20, y=20, range=8), warrior("w2", x=21, y=20),
         warrior("a1", x=5, y=5, range=4),
         warrior("b1", "blue", x=20, y=21), warrior("b3", "blue", x=20, y=19),
         warrior("b2", "blue", x=20, y=30), *cavalry(x=5, y=30, rider_extra={"items": ["axe"]})]
OPTIONS = {"items": [{"id": "axe", "carried_by": "r1"}]}


def red(do: str, **args: Any) -> dict[str, Any]:
    """A red step."""
    return {"by": "red", "do": do, **args}


@pytest.mark.parametrize(
    ("command", "rule", "says"),
    [
        (red("close_attack", figure="w1", targets=["b2"]), "CORE-MK-CONTACT",
         'b2 is 9.00" from w1'),
        (red("close_attack", figure="w1", targets=["b3"]), "CORE-MK-FRONT-ARC",
         "not in w1's front arc"),
        (red("close_attack", figure="w1", targets=["w2"]), "CORE-MK-TARGET",
         "w2 is not an opposing figure"),
        (red("close_attack", figure="w1", targets=["b1", "b3"]), "CORE-MK-ONE-TARGET",
         "only Sweep"),
        (red("ranged_attack", figure="a1", target="b2"), "CORE-MK-RANGE",
         'b2 is 29.15" away; a1\'s range is 4'),
        (red("ranged_attack", figure="w2", target="b2"), "CORE-MK-RANGE", "no range value"),
        (red("ranged_attack", figure="w1", target="b2"), "CORE-MK-RANGED-CONTACT",
         "w1 is in base contact with b1"),
        (red("capture", figure="a1", target="b2"), "CORE-MK-CAPTURE",
         'b2 is 28.15" from a1'),
        (red("drop_item", figure="m1", item="axe", at=[5, 31.5]), "CORE-MK-ITEMS",
         "m1 is a mount"),
        (red("use_ability", figure="w1", ability="surge"), "CORE-MK-NO-ABILITY",
         "w1 has no 'surge'"),
    ],
)
def test_core_refusals_name_their_rule_and_give_the_numbers(
    run: Run, command: dict[str, Any], rule: str, says: str
) -> None:
    result, state = run(UNITS, [TO_ACTION, command], options=OPTIONS)

    assert refused(result, rule), result["steps"][-1]
    assert says in message(result)
    assert state.actions_used == 0
    assert all(f.click == 0 and f.status == "on_table" for f in state.units.values())


def move(figure: str, *path: tuple[float, float], **extra: Any) -> dict[str, Any]:
    """A red move along `path`."""
    return red("move", figure=figure, path=[list(p) for p in path], **extra)


WALL = {"id": "wall", "kind": "blocking", "polygon": [[8.5, 7], [9.6, 7], [9.6, 8], [8.5, 8]]}


@pytest.mark.parametrize(
    ("units", "terrain", "step", "says"),
    [
        ([*cavalry(y=4), warrior("b1", "blue", x=10.6, y=8)], [], move("m1", (10, 12)),
         "m1's base would pass through b1's base"),
        (cavalry(y=4), [WALL], move("m1", (10, 12)),
         "m1's base would pass through blocking terrain wall"),
        ([warrior("w1", x=4, y=4), warrior("b1", "blue", x=4.9, y=8)], [],
         move("w1", (4, 12)), "w1's base would pass through b1's base"),
        ([*cavalry(), warrior("b1", "blue", x=13, y=11.2)], [],
         move("m1", (16, 10), facing=0), "m1's base would pass through b1's base"),
    ],
    ids=["mount-past-a-base", "mount-past-a-wall", "warrior-past-a-base", "mount-sideways"],
)
def test_core_mk_move_the_whole_base_sweeps_clear_of_bases_and_blocking_terrain(
    run: Run, units: list[dict[str, Any]], terrain: list[dict[str, Any]],
    step: dict[str, Any], says: str
) -> None:
    """CORE-MK-MOVE: not only the centre dot's path; the base (a mount's at its
    starting facing) sweeps along each leg."""
    result, state = run(units, [TO_ACTION, step], terrain=terrain)

    assert refused(result, "CORE-MK-MOVE")
    assert message(result) == says
    mover = state.units[step["figure"]]
    assert (mover.x, mover.y) == (units[0]["x"], units[0]["y"])


@pytest.mark.parametrize(
    ("units", "step"),
    [
        ([*cavalry(y=4), warrior("b1", "blue", x=11.125, y=8)], move("m1", (10, 12))),
        ([warrior("w1", x=4, y=4), warrior("b1", "blue", x=5, y=8)], move("w1", (4, 12))),
        ([warrior("w1", x=4, y=4), warrior("b1", "blue", x=4, y=8)],
         move("w1", (6, 6), (6, 10))),
    ],
    ids=["mount-touching-a-base", "warrior-touching-a-base", "warrior-round-a-base"],
)
def test_core_mk_move_a_base_may_brush_past_and_go_round_others(
    run: Run, units: list[dict[str, Any]], step: dict[str, Any]
) -> None:
    """CORE-MK-MOVE: touching on the way is allowed, and each leg is checked on its own."""
    result, state = run(units, [TO_ACTION, step])

    assert result["steps"][1]["accepted"], result["steps"][1]
    mover = state.units[step["figure"]]
    assert [mover.x, mover.y] == step["path"][-1]


def test_core_mk_poison_once_per_figure_per_command_phase(run: Run) -> None:
    """CORE-MK-POISON: each figure uses Poison once in its player's command phase."""
    units = [warrior("p1", x=10, y=10, abilities=["poison"]),
             warrior("p2", x=11, y=11, facing=180, abilities=["poison"]),
             warrior("b1", "blue", x=10, y=11, facing=270, dial=[click()] * 6)]
    poison = [red("poison", figure="p1"), red("poison", figure="p1"),
              red("poison", figure="p2")]
    next_red_turn = [red("end_turn"), {"by": "blue", "do": "end_turn"}]

    result, state = run(units, [*poison, *next_red_turn, red("poison", figure="p1")])

    assert result["steps"][0]["events"] == ["StepTaken", "PoisonUsed", "FigureDamaged"]
    assert refused(result, "CORE-MK-POISON", 1)
    assert message(result, 1) == "p1 already used Poison in this command phase"
    assert result["steps"][2]["accepted"], "another figure has its own use"
    assert result["steps"][5]["accepted"], "the next command phase allows it again"
    assert state.units["b1"].click == 3


NEXT_RED_TURN = [{"by": "red", "do": "end_turn"}, {"by": "blue", "do": "end_turn"}, TO_ACTION]


@pytest.mark.parametrize("command", [
    red("free_spin", figure="b1", facing=0),
    red("use_ability", figure="b1", ability="surge"),
], ids=["free_spin", "use_ability"])
def test_core_owner_a_player_cannot_spin_or_use_a_figure_they_do_not_control(
    run: Run, command: dict[str, Any]
) -> None:
    """CORE-OWNER: red cannot free spin blue's figure nor use its ability."""
    units = [warrior("w1"), warrior("b1", "blue", x=30, y=30, abilities=["surge"])]

    result, state = run(units, [TO_ACTION, command])

    assert refused(result, "CORE-OWNER"), result["steps"][-1]
    assert message(result) == "b1 is controlled by blue; red cannot order it"
    assert state.units["b1"].facing == 90.0


@pytest.mark.parametrize(("facing", "stored"), [(359.5, 359.5), (450, 90.0), (-90, 270.0)])
def test_core_free_spin_turns_a_figure_on_the_spot_without_an_action(
    run: Run, facing: float, stored: float
) -> None:
    """A free spin sets the facing (0 ≤ a < 360) and assigns no action."""
    result, state = run([warrior("w1")], [TO_ACTION, red("free_spin", figure="w1",
                                                             facing=facing)])

    assert result["steps"][-1]["events"] == ["StepTaken", "FacingChanged"]
    w1 = state.units["w1"]
    assert (w1.facing, w1.x, w1.y, w1.tokens, state.actions_used) == (stored, 20, 20, 0, 0)


def test_core_mk_capture_only_an_opposing_figure(run: Run) -> None:
    """CORE-MK-CAPTURE: w2, red's own and in base contact, is not opposing."""
    result, state = run([warrior("w1"), warrior("w2", x=21, y=20)],
                        [TO_ACTION, red("capture", figure="w1", target="w2")])

    assert refused(result, "CORE-MK-CAPTURE")
    assert message(result) == "w2 is not an opposing figure"
    assert state.units["w2"].status == "on_table" and state.actions_used == 0


def test_core_a_capture_that_gives_the_second_token_pushes_the_figure(run: Run) -> None:
    """Pushing: a capture is an action like any other; the one that gives w1 its
    second token deals it 1 pushing damage after the capture."""
    units = [warrior("w1"), warrior("b2", "blue", x=21, y=22)]
    steps = [TO_ACTION, red("move", figure="w1", path=[[20, 22]]), *NEXT_RED_TURN,
             red("capture", figure="w1", target="b2")]

    result, state = run(units, steps)

    assert all(s["accepted"] for s in result["steps"]), result["steps"]
    assert state.units["b2"].status == "removed"
    assert (state.units["w1"].tokens, state.units["w1"].click) == (2, 1)


def test_input_strong_flyer_needs_a_target_figure(run: Run) -> None:
    result, _ = run([warrior("w1", abilities=["strong_flyer"])],
                        [TO_ACTION, red("use_ability", figure="w1", ability="strong_flyer")])

    assert refused(result, "INPUT")
    assert message(result) == "strong_flyer needs a target figure"


def test_core_mk_no_ability_a_figure_moves_with_its_own_abilities_only(run: Run) -> None:
    """CORE-MK-NO-ABILITY: a warrior (not cavalry, so not MNT-38) cannot use an
    ability it does not have in its move."""
    result, state = run([warrior("w1")], [TO_ACTION, move("w1", (20, 22), use=["strong_flyer"])])

    assert refused(result, "CORE-MK-NO-ABILITY")
    assert message(result) == "w1 has no 'strong_flyer'"
    assert state.units["w1"].y == 20.0


@pytest.mark.parametrize(("start", "facing", "stored"), [
    (90, 359.5, 359.5), (0, None, 0.0), (270, 90, 90.0)])
def test_core_mk_move_ends_facing_as_chosen_or_unchanged(
    run: Run, start: float, facing: float | None, stored: float
) -> None:
    """A move ends facing the chosen direction (0 ≤ a < 360), or as the figure faced."""
    extra = {} if facing is None else {"facing": facing}
    result, state = run([warrior("w1", facing=start)], [TO_ACTION, move("w1", (20, 22), **extra)])

    assert result["steps"][-1]["accepted"], result["steps"][-1]
    assert (state.units["w1"].y, state.units["w1"].facing) == (22.0, stored)


def test_core_mk_move_through_hindering_terrain_is_allowed(run: Run) -> None:
    """CORE-MK-MOVE: only blocking and impassable terrain stop a moving base;
    hindering terrain does not."""
    hindering = {"id": "brush", "kind": "hindering",
                 "polygon": [[18, 21], [22, 21], [22, 22], [18, 22]]}

    result, state = run([warrior("w1")], [TO_ACTION, move("w1", (20, 24))], terrain=[hindering])

    assert result["steps"][-1]["accepted"], result["steps"][-1]
    assert state.units["w1"].y == 24.0
