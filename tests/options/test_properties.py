"""Options are sound and complete in every rule set, on the example scripts and on
simulated games (fixed seeds; the full corpus runs in `make slow`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from replay.service import GameService
from tests.options.checks import Watch
from warledger.script import load_script, run_script
from warledger.simulate import simulate_game

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.yaml"))
RULE_SETS = ("t9a", "infinity-n4", "mageknight-2", "w40k-10")


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_every_accepted_step_of_an_example_was_offered(path: Path) -> None:
    watch = Watch(GameService(":memory:"))
    run_script(watch.service, load_script(path))
    assert watch.accepted > 0
    assert watch.missing == []
    assert watch.unsound == []


@pytest.mark.parametrize("ruleset", RULE_SETS)
def test_simulated_games_are_offered_what_they_play(ruleset: str) -> None:
    watch = Watch(GameService(":memory:"))
    for index in range(2):
        simulate_game(watch.service, ruleset, seed=5, index=index, steps=60)
    assert watch.accepted >= 60
    assert watch.missing == []
    assert watch.unsound == []
