"""Property, for every rule set's example games: undoing steps leaves the game
exactly as if they had never been taken, and `verify` still passes."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from projections.state_view import state_view
from replay.service import GameService
from replay.verify import verify_game
from warledger.script import Script, load_script, split_step

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.yaml"))


def play_until(script: Script, count: int) -> tuple[GameService, UUID, list[bool]]:
    """A game of the script's first `count` steps; which were accepted."""
    service = GameService(":memory:")
    game_id = service.start(script.setup())
    accepted = []
    for step in script.steps[:count]:
        data, dice, problem = split_step(step)
        accepted.append(
            problem is None and data is not None
            and service.handle(game_id, data, dice).accepted
        )
    return service, game_id, accepted


def opponent_of(script: Script, player: str) -> str:
    return next((p for p in script.players if p != player), "judge")


def view(service: GameService, game_id: UUID) -> dict[str, Any]:
    return state_view(service.load(game_id).state)


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_undoing_any_step_is_as_if_it_was_never_taken(path: Path) -> None:
    script = load_script(path)
    _, _, accepted = play_until(script, len(script.steps))
    checked = 0
    for index, ok in enumerate(accepted):
        by = script.steps[index].get("by")
        if not ok or by not in script.players or script.steps[index].get("do") in (
            "request_undo", "request_redo", "consent", "ruling",
        ):
            continue
        service, game_id, _ = play_until(script, index)
        never_taken = view(service, game_id)
        data, dice, _ = split_step(script.steps[index])
        assert data is not None and service.handle(game_id, data, dice).accepted

        asked = service.handle(game_id, {"do": "request_undo", "by": by})
        answered = service.handle(
            game_id, {"do": "consent", "by": opponent_of(script, by), "accept": True})

        assert asked.accepted and answered.accepted, (asked, answered)
        assert view(service, game_id) == never_taken, f"step {index} of {path.name}"
        assert verify_game(service, game_id).ok
        checked += 1
    assert checked > 0 or not any(accepted)
