"""`warledger step` answers a player naming a unit hidden from them exactly as it
answers an id no unit has: the same output, byte for byte, and the same exit code,
for every command type of every rule set, in every position probed
(`tests/hidden_probes.py`; principle 5, INTERPRETATIONS CORE-OWNER)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from uuid import UUID

import pytest

from replay.service import GameService
from tests.cli_helpers import run_cli
from tests.hidden_probes import (
    RULE_SETS,
    SPY,
    Probe,
    comparable,
    games_of_engine_version_1,
    positions,
    probes,
    setup,
)
from warledger.script import parse_script

GAME_ID = UUID("00000000-0000-4000-8000-0000000000a1")


@pytest.fixture(autouse=True)
def engine_version_1(monkeypatch: pytest.MonkeyPatch) -> None:
    games_of_engine_version_1(monkeypatch)


def stored(db: Path, ruleset: str, hidden_id: str, steps: list[dict[str, object]]) -> None:
    """Game A (`spy` hidden) or B (the hidden unit under another id), at a position."""
    service = GameService(str(db))
    service.start(parse_script({**setup(ruleset, hidden_id=hidden_id), "steps": []}).setup(),
                  game_id=GAME_ID)
    for step in steps:
        outcome = service.handle(GAME_ID, step)
        assert outcome.accepted, (step, outcome.rule, outcome.message)
    service.close()


def answer(capsys: pytest.CaptureFixture[str], pristine: Path, db: Path, probe: Probe) -> str:
    """What `step` tells red, on a fresh copy of the position (an accepted probe
    changes nothing for the next)."""
    shutil.copyfile(pristine, db)
    code, out, err = run_cli(capsys, "step", str(db), str(GAME_ID), json.dumps(probe.data))
    return f"exit {code}\n{out}\n{err}"


@pytest.mark.parametrize("ruleset", RULE_SETS)
def test_step_answers_a_hidden_unit_as_no_unit(
    ruleset: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    no_unit = f"there is no unit '{SPY}' in this game"
    told_no_unit = 0
    for number, (position, steps) in enumerate(positions(ruleset).items()):
        pristine = []
        for variant, hidden_id in (("a", SPY), ("b", f"{SPY}-b")):
            db = tmp_path / f"{number}{variant}.db"
            stored(db, ruleset, hidden_id, steps)
            pristine.append(db)
        for probe in probes(ruleset):
            hidden, absent = (comparable(ruleset, answer(capsys, db, tmp_path / "work.db", probe))
                              for db in pristine)
            assert hidden == absent, f"{ruleset}, {position}: {probe.name} tells them apart"
            told_no_unit += no_unit in hidden
    assert told_no_unit >= len(positions(ruleset)), "no probe named the hidden unit"


def test_the_two_games_differ_for_the_judge(tmp_path: Path) -> None:
    """The variation is real: the hidden unit is there in game A, for the judge."""
    for ruleset in RULE_SETS:
        units = []
        for variant, hidden_id in (("a", SPY), ("b", f"{SPY}-b")):
            db = tmp_path / f"{ruleset}-{variant}.db"
            stored(db, ruleset, hidden_id, [])
            units.append(set(GameService(str(db)).load(GAME_ID).state.units))
        assert SPY in units[0] and SPY not in units[1]
