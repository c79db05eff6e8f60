"""The 40k example scripts run as stated, replay to the same state, and verify.

examples/w40k-battle-round.yaml: a full battle round (STR-02, STR-11, STR-13,
STR-16, STR-18, STR-24, CORE-CP-CAP); w40k-restrictions.yaml: each restriction
violated once (STR-04, STR-07, STR-09, STR-10, STR-12, STR-15,
CORE-BATTLE-SHOCKED); w40k-reactive.yaml: reactive stratagems in the
opponent's turn (STR-04); w40k-cost-floor.yaml: a modifier below 0CP (STR-21,
STR-22, STR-23).
"""

from __future__ import annotations

from pathlib import Path
from uuid import UUID

import pytest

from projections.state_view import state_hash
from replay.service import GameService
from replay.verify import fold, read_chain, verify_game
from warledger.script import check_expectations, load_script, run_script

EXAMPLES = sorted((Path(__file__).resolve().parents[3] / "examples").glob("w40k-*.yaml"))


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_str_examples_give_their_outcome_replay_identically_and_verify(
    path: Path, tmp_path: Path
) -> None:
    service = GameService(str(tmp_path / "games.db"))
    script = load_script(path)

    result = run_script(service, script)
    game_id = UUID(result["game_id"])

    assert check_expectations(script, result) == []
    live = service.load(game_id).state
    assert state_hash(fold(read_chain(service, game_id)).state) == state_hash(live)
    assert verify_game(service, game_id).ok
    service.close()


def test_str_15_and_str_22_the_cost_floor_example_spends_0cp_then_1cp(tmp_path: Path) -> None:
    service = GameService(str(tmp_path / "games.db"))
    path = next(p for p in EXAMPLES if p.stem == "w40k-cost-floor")

    result = run_script(service, load_script(path))

    spent = [e["change"] for e in result["state"]["cp_ledger"] if e["kind"] == "spent"]
    assert spent == [0, -1]
    service.close()
