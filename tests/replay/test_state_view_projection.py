"""The state-view projection follows the log with tracking and can be rebuilt."""

from __future__ import annotations

from pathlib import Path
from uuid import UUID

import orjson

from domain.ruleset import Setup
from projections.state_view import state_view
from replay.service import GameService
from replay.views import StateViewProjection
from tests.accepting import accept

SETUP = Setup(ruleset="infinity-n4", board={"width": 48, "height": 48}, players=("a", "b"))


def test_views_catch_up_and_match_the_live_state(tmp_path: Path) -> None:
    service = GameService(str(tmp_path / "g.db"))
    game_id = service.start(SETUP)
    accept(service, game_id, {"do": "next_phase", "by": "a"})
    projection = StateViewProjection(service, str(tmp_path / "g.db.views"))

    processed = projection.run()

    view = projection.view(game_id)
    assert view is not None and processed == view[0]
    assert orjson.loads(view[1]) == state_view(service.load(game_id).state)


def test_a_second_run_processes_only_new_events(tmp_path: Path) -> None:
    service = GameService(str(tmp_path / "g.db"))
    game_id = service.start(SETUP)
    projection = StateViewProjection(service, str(tmp_path / "g.db.views"))
    projection.run()

    outcome = service.handle(game_id, {"do": "end_turn", "by": "a"})

    assert projection.run() == len(outcome.events)
    assert projection.run() == 0
    view = projection.view(game_id)
    assert view is not None and orjson.loads(view[1])["active_player"] == "b"


def test_rebuilding_from_scratch_gives_the_same_views(tmp_path: Path) -> None:
    service = GameService(str(tmp_path / "g.db"))
    ids = [service.start(SETUP) for _ in range(3)]
    accept(service, ids[1], {"do": "end_turn", "by": "a"})
    first = StateViewProjection(service, str(tmp_path / "one.views"))
    first.run()

    rebuilt = StateViewProjection(service, str(tmp_path / "two.views"))
    rebuilt.run()

    for game_id in ids:
        assert first.view(UUID(str(game_id))) == rebuilt.view(UUID(str(game_id)))
