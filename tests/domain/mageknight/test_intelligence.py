"""Riderless mounts and their intelligence levels (MNT-60 … MNT-67), checked
in every player's phases."""

from __future__ import annotations

import pytest

from domain.mageknight.intelligence import intelligence_level

from .builders import TO_ACTION, cavalry, refused, warrior
from .conftest import Facts, Run

DISMOUNT_AHEAD = {"by": "red", "do": "dismount", "figure": "m1", "at": [10, 11.75]}


@pytest.mark.parametrize(("shape", "level"), [("circle", "timid"),
                                              ("pentagon", "independent"),
                                              ("square", "evil")])
def test_mnt_61_mnt_62_the_shape_around_the_mount_symbol_is_its_intelligence(
    run: Run, shape: str, level: str
) -> None:
    """MNT-61, MNT-62."""
    result, state = run(cavalry(intelligence=shape), [])

    assert intelligence_level(state.units["m1"]) == level
    assert result["state"]["units"]["m1"]["intelligence_level"] == level


def test_mnt_60_mnt_63_a_riderless_timid_mount_leaves_when_an_end_phase_begins(run: Run) -> None:
    """MNT-60, MNT-63."""
    steps = [TO_ACTION, DISMOUNT_AHEAD, {"by": "red", "do": "next_phase"}]

    result, state = run(cavalry(intelligence="circle"), steps)

    assert state.units["m1"].status == "removed"
    assert "removed_from_game" in state.units["m1"].conditions
    assert result["steps"][-1]["rule"] == "MNT-63"


def test_mnt_63_in_another_players_end_phase_too(run: Run) -> None:
    """MNT-63."""
    units = [*cavalry(intelligence="circle", rider_extra={"click": 3}),
             warrior("b1", "blue", x=10, y=11.75, facing=270)]
    steps = [{"by": "red", "do": "end_turn"}, {"by": "blue", "do": "next_phase"},
             {"by": "blue", "do": "close_attack", "figure": "b1", "targets": ["r1"],
              "dice": [6, 6]},
             {"by": "blue", "do": "next_phase"}]

    result, state = run(units, steps)

    assert state.units["m1"].status == "removed"
    assert result["steps"][-1]["events"][1] == "PhaseStarted"


def test_mnt_63_a_skipped_end_phase_still_removes_it(run: Run) -> None:
    """MNT-63."""
    steps = [TO_ACTION, DISMOUNT_AHEAD, {"by": "red", "do": "end_turn"}]

    _, state = run(cavalry(intelligence="circle"), steps)

    assert state.units["m1"].status == "removed"


def test_mnt_64_a_riderless_independent_mount_plays_on_as_a_warrior(run: Run) -> None:
    """MNT-64."""
    steps = [TO_ACTION, DISMOUNT_AHEAD, {"by": "red", "do": "end_turn"},
             {"by": "blue", "do": "end_turn"}, TO_ACTION,
             {"by": "red", "do": "move", "figure": "m1", "path": [[14, 10]]}]

    result, state = run(cavalry(intelligence="pentagon"), steps)

    assert result["steps"][-1]["accepted"]
    assert state.units["m1"].x == 14.0 and state.units["m1"].controlled_by == "red"


EVIL = [*cavalry(intelligence="square"), warrior("b9", "blue", x=30, y=30)]
TO_BLUE = [TO_ACTION, DISMOUNT_AHEAD, {"by": "red", "do": "end_turn"}]


def test_mnt_65_a_riderless_evil_mount_serves_the_player_whose_command_phase_begins(
    run: Run,
) -> None:
    """MNT-65."""
    steps = [*TO_BLUE, {"by": "blue", "do": "next_phase"},
             {"by": "blue", "do": "move", "figure": "m1", "path": [[10, 6]]}]

    result, state = run(EVIL, steps)

    assert result["steps"][2]["rule"] == "MNT-65"
    assert result["steps"][-1]["accepted"]
    assert state.units["m1"].y == 6.0


def test_mnt_66_it_is_an_enemy_of_every_other_player(run: Run) -> None:
    """MNT-66."""
    steps = [*TO_BLUE, {"by": "blue", "do": "next_phase"},
             {"by": "blue", "do": "close_attack", "figure": "m1", "targets": ["r1"],
              "dice": [6, 6]}]

    result, state = run(EVIL, steps)

    assert result["steps"][-1]["accepted"], result["steps"][-1]
    assert state.units["r1"].click == 2, "red's own mount attacked red's dismounted rider"


def test_mnt_67_the_evil_mounts_allegiance_lasts_for_that_turn(run: Run, facts: Facts) -> None:
    """MNT-67."""
    steps = [*TO_BLUE, {"by": "blue", "do": "end_turn"}]

    result, state = run(EVIL, steps)

    changes = [(f.figure, f.controller) for f in facts(result, "AllegianceChanged")]
    assert changes == [("m1", "blue"), ("m1", None)]
    assert state.units["m1"].controlled_by == "red"


def test_mnt_67_an_evil_mount_mounted_by_its_new_side_stays_with_that_rider(
    run: Run, facts: Facts
) -> None:
    """MNT-67, MNT-80 (A-MNT-18, CORE-MK-EVIL): blue's rider mounts red's Evil mount
    while it is blue's; the cavalry unit stays blue's after the turn ends."""
    units = [*EVIL, warrior("rb", "blue", x=8.875, y=10, rides=["battle_horse"])]
    steps = [*TO_BLUE, {"by": "blue", "do": "next_phase"},
             {"by": "blue", "do": "mount", "figure": "rb", "mount": "m1"},
             {"by": "blue", "do": "end_turn"}, TO_ACTION,
             {"by": "red", "do": "move", "figure": "m1", "path": [[10, 6]]}]

    result, state = run(units, steps)

    assert result["steps"][4]["accepted"], result["steps"][4]
    assert [(f.figure, f.controller) for f in facts(result, "AllegianceChanged")] == [
        ("m1", "blue")]
    assert refused(result, "CORE-OWNER")
    m1 = state.units["m1"]
    assert (m1.rider, m1.controlled_by, m1.owner, m1.y) == ("rb", "blue", "red", 10.0)


@pytest.mark.parametrize(("counts", "blue_scores"), [(True, 30 + 50), (False, 30)])
def test_a_mnt_12_a_timid_mount_removed_from_the_game_scores_as_eliminated(
    run: Run, counts: bool, blue_scores: int
) -> None:
    """MNT-63 (A-MNT-12, CORE-MK-SCORE): blue eliminates the rider in its turn; the
    Timid mount leaves as blue's end phase begins; both score for blue, unless
    `score_removed_from_game` is false."""
    units = [*cavalry(intelligence="circle", points=50, rider_extra={"click": 3, "points": 30}),
             warrior("b1", "blue", x=10, y=11.75, facing=270, points=20)]
    steps = [{"by": "red", "do": "end_turn"}, {"by": "blue", "do": "next_phase"},
             {"by": "blue", "do": "close_attack", "figure": "b1", "targets": ["r1"],
              "dice": [6, 6]},
             {"by": "blue", "do": "end_turn"}]

    result, state = run(units, steps, options={"score_removed_from_game": counts})

    assert state.units["m1"].status == "removed" and state.units["r1"].status == "removed"
    assert result["state"]["victory_points"] == {"red": 0, "blue": blue_scores}
    assert result["state"]["army_points"] == {"red": 80, "blue": 20}
