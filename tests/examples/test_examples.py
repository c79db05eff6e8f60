"""Every example script runs and gives the outcomes it states (its `expect`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from replay.service import GameService
from warledger.script import check_expectations, load_script, run_script

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.yaml"))


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_gives_its_stated_outcome(path: Path, service: GameService) -> None:
    script = load_script(path)

    result = run_script(service, script)

    assert script.expect or script.expect_state, f"{path.name} states no expected outcome"
    assert check_expectations(script, result) == []
