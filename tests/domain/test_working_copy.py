"""The gate's working copy (`StateModel.working_copy`): units and
per-player records are copied when first read (`CopiedOnRead`), and neither the
copy nor the state it was made from ever changes the other."""

from __future__ import annotations

import copy
import pickle

from domain.state import CopiedOnRead, GameState, PlayerState, UnitState
from events.core import Board


def a_state() -> GameState:
    units = {uid: UnitState(id=uid, owner=owner, x=float(i), y=1.0, conditions=["c"])
             for i, (uid, owner) in enumerate([("r1", "red"), ("r2", "red"), ("b1", "blue")])}
    return GameState(ruleset="t9a", board=Board(width=48, height=48), players=["red", "blue"],
                     active_player="red", phase="movement", units=units,
                     player_state={"red": PlayerState(cp=1), "blue": PlayerState(cp=2)})


def test_a_copy_reads_as_its_original_and_copies_only_what_it_reads() -> None:
    state = a_state()
    work = state.working_copy()
    assert isinstance(work.units, CopiedOnRead) and isinstance(work.player_state, CopiedOnRead)
    assert work.model_dump() == state.model_dump()
    assert all(dict.__getitem__(work.units, k) is state.units[k] for k in state.units)
    unit = work.units["r1"]
    assert unit is not state.units["r1"] and unit == state.units["r1"]
    assert work.units["r1"] is unit  # copied once
    assert dict.__getitem__(work.units, "r2") is state.units["r2"]  # not read: shared


def test_changing_a_copy_through_any_way_of_reading_it_leaves_the_original_as_it_was() -> None:
    state = a_state()
    before = state.model_dump()
    work = state.working_copy()
    work.units["r1"].x = 30.0
    work.units.get("r2").conditions.append("shaken")  # type: ignore[union-attr]
    for unit in work.units.values():
        unit.y = 9.0
    for _, unit in work.units.items():
        unit.conditions.clear()
    work.player_state.setdefault("red", PlayerState()).cp = 7
    work.player_state.pop("blue").cp = 0
    assert state.model_dump() == before
    assert work.units["r1"].x == 30.0 and work.player_state["red"].cp == 7
    assert "blue" not in work.player_state


def test_a_copy_of_a_copy_and_the_copy_it_came_from_stay_apart() -> None:
    state = a_state()
    first = state.working_copy()
    first.units["r1"].x = 5.0  # `first` owns its r1 now
    second = first.working_copy()
    first.units["r1"].x = 6.0  # changes first's own r1, which second shares no more
    second.units["r1"].y = 7.0
    assert (state.units["r1"].x, state.units["r1"].y) == (0.0, 1.0)
    assert (first.units["r1"].x, first.units["r1"].y) == (6.0, 1.0)
    assert (second.units["r1"].x, second.units["r1"].y) == (5.0, 7.0)


def test_a_copy_reads_as_a_plain_dict_when_copied_pickled_or_validated() -> None:
    state = a_state()
    work = state.working_copy()
    for plain in (work.units.copy(), copy.copy(work.units), copy.deepcopy(work.units),
                  pickle.loads(pickle.dumps(work.units))):
        assert type(plain) is dict and plain == state.units
    again = GameState.model_validate(work.model_dump())
    assert again == state and type(again.units) is dict
    shallow = copy.copy(work.units)
    shallow["r1"].x = 40.0
    assert state.units["r1"].x == 0.0
