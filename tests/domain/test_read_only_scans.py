"""Scans that only read units (`domain.state.to_read`) copy none of a working
copy's units, and ledgers of frozen entries (40k stratagem uses, cost modifiers,
rolls) are shared by a working copy: an applier replaces an entry, so the state
copied from keeps its own (a refusal leaves its caller as it was)."""

from __future__ import annotations

from pathlib import Path

from domain.apply import apply
from domain.state import to_read
from domain.w40k.state import W40KState
from events.w40k import RollReplaced, StratagemEffectsEnded
from replay.service import GameService
from tests.domain.test_working_copy import a_state
from warledger.script import load_script, run_script

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_a_scan_to_read_copies_no_unit_and_sees_the_units_as_they_stand() -> None:
    state = a_state()
    work = state.working_copy()
    owned = work.units["r1"]  # read the usual way: copied
    owned.x = 9.0
    seen = {unit.id: unit for unit in to_read(work.units)}
    assert seen["r1"] is owned and seen["r1"].x == 9.0  # as it stands in the copy
    assert seen["r2"] is state.units["r2"] and seen["b1"] is state.units["b1"]  # not copied
    assert state.units["r1"].x == 0.0


def a_40k_game_with_uses(tmp_path: Path) -> W40KState:
    service = GameService(str(tmp_path / "g.db"))
    try:
        for path in sorted(EXAMPLES.glob("w40k*.yaml")):
            game_id = run_script(service, load_script(path))["game_id"]
            state = service.load(game_id).state
            assert isinstance(state, W40KState)
            if state.uses and state.rolls:
                return state
    finally:
        service.close()
    raise AssertionError("no 40k example uses a stratagem and rolls")


def test_frozen_ledgers_are_shared_and_replaced_never_changed(tmp_path: Path) -> None:
    state = a_40k_game_with_uses(tmp_path)
    before = state.model_dump()
    work = state.working_copy()
    assert work.uses is not state.uses and all(
        a is b for a, b in zip(work.uses, state.uses, strict=True))  # entries shared
    use, roll = state.uses[0], state.rolls[0]
    apply(work, StratagemEffectsEnded(uses=(use.use,)))
    apply(work, RollReplaced(use=use.use, roll=roll.ref, by="R999"))
    assert not work.uses[0].active and work.rolls[0].replaced_by == "R999"
    assert state.model_dump() == before  # the state copied from is as it was
    assert work.uses[1:] == state.uses[1:] and work.rolls[1:] == state.rolls[1:]
