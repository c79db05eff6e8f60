"""`windows.can_react` asks only the stratagems answering the moment's trigger
(`windows.answering`); over every 40k example, at every window question and at
every trigger any stratagem names, it answers as asking every stratagem does
(CORE-STRATAGEM-WINDOW, STR-04)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from domain.w40k import windows
from domain.w40k.catalog import stratagems_of
from domain.w40k.state import W40KState
from domain.w40k.timing import Moment
from replay.service import GameService
from warledger.script import load_script, run_script

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def every_stratagem_asked(state: W40KState, player: str, moment: Moment) -> bool:
    return any(windows.can_use(state, player, s, moment)
               for s in stratagems_of(state.options).values())


def test_the_index_answers_as_every_stratagem_asked(monkeypatch: pytest.MonkeyPatch,
                                                    tmp_path: Path) -> None:
    asked = windows.can_react
    answers: list[bool] = []

    def both(state: W40KState, player: str, moment: Moment) -> bool:
        triggers = {t for s in stratagems_of(state.options).values() for t in s.when.triggers}
        for trigger in [*sorted(triggers), None]:
            other = replace(moment, trigger=trigger)
            assert asked(state, player, other) == every_stratagem_asked(state, player, other)
        got = asked(state, player, moment)
        assert got == every_stratagem_asked(state, player, moment), moment
        answers.append(got)
        return got

    monkeypatch.setattr(windows, "can_react", both)
    service = GameService(str(tmp_path / "g.db"))
    try:
        for path in sorted(EXAMPLES.glob("w40k*.yaml")):
            assert run_script(service, load_script(path))["steps"], path.name
    finally:
        service.close()
    assert set(answers) == {True, False}  # some windows opened, some did not


def test_no_trigger_no_stratagem() -> None:
    assert windows.answering(stratagems_of({}), None) == ()
    assert windows.answering(stratagems_of({}), "no such trigger") == ()
    found = windows.answering(stratagems_of({}), "movement_phase_ended")
    assert found and all("movement_phase_ended" in s.when.triggers for s in found)
