"""Properties over random command sequences: CP never goes negative (STR-15), the
ledger adds up to each player's CP (STR-13), a refused step writes nothing
(STR-11, A-STR-06), and only active uses list their targets as affected (STR-24).
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.w40k.state import W40KState
from projections.state_view import state_hash
from replay.service import GameService
from replay.verify import fold, read_chain
from warledger.script import parse_script, run_script

from .helpers import script, units

ARMY = units(b1={"y": 17}, r3={"x": 30, "y": 28}, b3={"keywords": ["infantry", "character"]})

STEP_POOL: list[dict[str, Any]] = [
    {"by": "red", "do": "next_phase"},
    {"by": "blue", "do": "next_phase"},
    {"by": "red", "do": "end_turn"},
    {"by": "blue", "do": "end_turn"},
    {"by": "red", "do": "pass_stratagem"},
    {"by": "blue", "do": "pass_stratagem"},
    {"by": "red", "do": "gain_cp", "amount": 2, "source": "objective"},
    {"by": "blue", "do": "modify_stratagem_cost", "amount": -1, "source": "rule"},
    {"by": "red", "do": "use_stratagem", "stratagem": "grenade", "targets": ["r1"],
     "enemy": "b1"},
    {"by": "red", "do": "shoot", "unit": "r1", "target": "b1"},
    {"by": "blue", "do": "shoot", "unit": "b3", "target": "r3"},
    {"by": "blue", "do": "use_stratagem", "stratagem": "go-to-ground", "targets": ["b1"]},
    {"by": "red", "do": "use_stratagem", "stratagem": "go-to-ground", "targets": ["r3"]},
    {"by": "blue", "do": "use_stratagem", "stratagem": "smokescreen", "targets": ["b1"]},
    {"by": "blue", "do": "use_stratagem", "stratagem": "rapid-ingress", "targets": ["b2"],
     "at": [40, 40]},
    {"by": "red", "do": "use_stratagem", "stratagem": "epic-challenge", "targets": ["r3"]},
    {"by": "blue", "do": "use_stratagem", "stratagem": "epic-challenge", "targets": ["b3"]},
    {"by": "red", "do": "fight", "unit": "r3", "target": "b3"},
    {"by": "blue", "do": "use_stratagem", "stratagem": "counter-offensive",
     "targets": ["b3"]},
]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(STEP_POOL), min_size=5, max_size=30), st.integers(0, 3))
def test_str_13_and_str_15_random_play_keeps_cp_and_ledger_consistent(
    steps: list[dict[str, Any]], cp: int
) -> None:
    service = GameService(":memory:")
    result = run_script(service, parse_script(script(steps, cp=cp, units=ARMY, seed=cp)))
    game = service.load(UUID(result["game_id"]))
    state = game.state
    assert isinstance(state, W40KState)

    for player, data in state.player_state.items():
        entries = [e for e in state.cp_ledger if e.player == player]
        assert data.cp >= 0
        assert entries[-1].balance == data.cp == sum(e.change for e in entries)
    active = {u.use for u in state.uses if u.active}
    for unit in state.units.values():
        assert set(unit.affected_by) <= active
    for s in result["steps"]:
        assert s["accepted"] or s["events"] == []
    assert state_hash(fold(read_chain(service, game.id)).state) == state_hash(state)
    assert W40KState.model_validate(state.model_dump(mode="json")) == state  # snapshots
    service.close()
