"""The turn, order and window machines read their transitions tables directly
(`domain.machine.TurnMachine.row_taken`); over every example of every rule set,
each question asked gets the answer the transitions library itself gives."""

from __future__ import annotations

from pathlib import Path

import pytest

from domain.commands import Command
from domain.errors import RuleViolation
from domain.machine import TurnMachine
from domain.ruleset import find_ruleset
from domain.state import GameState
from domain.windows import WindowMachine
from replay.service import GameService
from warledger.script import load_script, run_script

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_the_tables_read_directly_answer_as_the_transitions_machines(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """CORE-PHASE, CORE-ORDER-SEQUENCE, the window machine: same phase, same refusals."""
    fired: list[tuple[str, str, str | None]] = []
    asked: list[tuple[str, str, bool]] = []
    direct_fire, direct_allows = TurnMachine.fire, TurnMachine.allows

    def fire_both(self: TurnMachine, state: GameState, command: str,
                  payload: object = None) -> str:
        expected = self.library_fire(state, command, payload)
        try:
            got: str | None = direct_fire(self, state, command, payload)
        except RuleViolation as refusal:
            assert refusal.rule == "CORE-PHASE"
            got = None
        assert got == expected, (self.name, command, state.phase)
        fired.append((self.name, command, got))
        if got is None:
            raise RuleViolation("CORE-PHASE", "refused by the table")
        return got

    def allows_both(self: TurnMachine, state: GameState, command: str,
                    payload: object = None) -> bool:
        got = direct_allows(self, state, command, payload)
        assert got == self.library_allows(state, command, payload), (self.name, command)
        asked.append((self.name, command, got))
        return got

    def issue_both(self: WindowMachine, state: GameState, command: Command) -> None:
        expected = self.library_allows(state, "issue", command)
        try:
            direct_issue(self, state, command)
        except RuleViolation:
            assert not expected, command.do
            issued.append(False)
            raise
        assert expected, command.do
        issued.append(True)

    issued: list[bool] = []
    direct_issue = WindowMachine.check_issue
    monkeypatch.setattr(TurnMachine, "fire", fire_both)
    monkeypatch.setattr(TurnMachine, "allows", allows_both)
    monkeypatch.setattr(WindowMachine, "check_issue", issue_both)
    service = GameService(str(tmp_path / "g.db"))
    try:
        for path in sorted(EXAMPLES.glob("*.yaml")):
            result = run_script(service, load_script(path))
            assert result["steps"], path.name
    finally:
        service.close()
    machines = {name for name, _, _ in fired}
    assert {"t9a", "w40k-10", "infinity-n4", "mageknight-2"} <= machines
    assert set(issued) == {True, False}  # windows refused some commands, let others by
    assert asked
    assert "infinity-n4 order" in {name for name, _, _ in asked}


@pytest.mark.parametrize("name", ["t9a", "w40k-10", "infinity-n4", "mageknight-2"])
def test_every_command_from_every_phase_is_fired_as_the_library_fires_it(
        name: str, tmp_path: Path) -> None:
    """CORE-PHASE: from each phase of each example's last state, every command of the
    table leads where the library leads, and is refused where the library refuses."""
    ruleset = find_ruleset(name)
    service = GameService(str(tmp_path / "g.db"))
    compared: list[str | None] = []
    try:
        for path in sorted(EXAMPLES.glob(f"{name.split('-')[0]}*.yaml")):
            script = load_script(path)
            game = service.load(service.start(script.setup()))
            machines = [ruleset.machine, *getattr(ruleset, "extra_machines", {}).values()]
            for machine in (m for m in machines if isinstance(m, TurnMachine)):
                for phase in machine.states:
                    state = game.state.model_copy(update={"phase": phase})
                    for command in machine.commands:
                        expected = machine.library_fire(state, command)
                        try:
                            got: str | None = machine.fire(state, command)
                        except RuleViolation as refusal:
                            assert refusal.rule == "CORE-PHASE"
                            got = None
                        assert got == expected, (machine.name, phase, command)
                        assert machine.allows(state, command) == machine.library_allows(
                            state, command) == (got is not None)
                        compared.append(got)
    finally:
        service.close()
    assert None in compared and len(set(compared)) > 2
