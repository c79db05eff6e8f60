"""The end-of-game peek (INTERPRETATIONS CORE-PRIVATE-AT-END): once an Infinity game is
over, every output a player gets shows the trooper that was hidden from them, from the
end on (`replay --as`, the viewer, the server's state and receipts), their numbered
record (`export --as`, `audit --as`, the stream) stays as it was numbered for them, and
the end cannot be undone, so what they were shown is never hidden again."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from starlette.testclient import TestClient

from replay.service import GameService
from tests.cli_helpers import run_cli
from tests.server.conftest import auth, stream_lines
from warledger.server.app import create_app

SPY = "sniper-hd"
SETUP: dict[str, Any] = {
    "ruleset": "infinity-n4", "board": {"width": 48, "height": 48},
    "players": ["pano", "nomads"],
    "units": [
        {"id": "fusilier", "owner": "pano", "x": 10, "y": 10, "facing": 90},
        {"id": SPY, "owner": "nomads", "x": 31.25, "y": 37.75, "facing": 270,
         "conditions": ["hidden_deployment"]},
        {"id": "zero", "owner": "nomads", "x": 40, "y": 40, "facing": 270},
    ],
}


def post(client: TestClient, game: str, token: str, step: dict[str, Any]) -> dict[str, Any]:
    response = client.post(f"/games/{game}/commands", json=step, headers=auth(token))
    assert response.status_code in (200, 422), response.text
    return dict(response.json())


def replay_as(capsys: pytest.CaptureFixture[str], db: str, *extra: str) -> dict[str, Any]:
    code, out, _ = run_cli(capsys, "replay", db, "last", "--json", "--as", "pano", *extra)
    assert code == 0
    return dict(json.loads(out))


def outputs(capsys: pytest.CaptureFixture[str], db: str) -> dict[str, str]:
    """Pano's numbered record: export and audit."""
    found = {}
    for name in ("export", "audit"):
        code, out, _ = run_cli(capsys, name, db, "last", "--as", "pano")
        assert code == 0
        found[name] = out
    return found


def viewer_frames(capsys: pytest.CaptureFixture[str], db: str, game: str,
                  tmp_path: Path) -> list[str]:
    """Pano's viewer file (written by `viewer --as`), as the units each frame draws."""
    from projections.viewer import viewer_game

    assert run_cli(capsys, "viewer", db, "last", "--as", "pano",
                   "-o", str(tmp_path / "v.html"))[0] == 0
    service = GameService(db)
    events = service.stored_events(UUID(game))
    service.close()
    return [json.dumps(frame["units"]) for frame in viewer_game(events, "pano").frames]


def test_after_the_end_every_output_shows_the_trooper_and_the_end_stands(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "g.db")
    with TestClient(create_app(db)) as client:
        created = client.post("/games", json=SETUP).json()
        game, pano = created["game"], created["seats"]["pano"]
        assert post(client, game, pano, {"do": "next_phase"})["accepted"]
        assert SPY not in replay_as(capsys, db)["units"]
        before_end = outputs(capsys, db)
        ended = post(client, game, pano, {"do": "end_game"})
        assert ended["accepted"]

        # From the end on, pano is shown the trooper, by every front door alike.
        view = replay_as(capsys, db)
        assert SPY in view["units"] and view["finished"]
        state = client.get(f"/games/{game}/state", headers=auth(pano)).json()
        assert state == view
        code, text, _ = run_cli(capsys, "replay", db, "last", "--as", "pano")
        assert ended["receipt"]["view_hash"] in text
        frames = viewer_frames(capsys, db, game, tmp_path)
        assert SPY in frames[-1] and not any(SPY in f for f in frames[:-1])
        # Before the end it stays hidden from them, in their replay as in their receipts.
        assert SPY not in replay_as(capsys, db, "--step", "1")["units"]

        # Their numbered record grows by the end's facts and is otherwise as it was.
        after_end = outputs(capsys, db)
        exported = after_end["export"].splitlines()
        assert exported[:len(before_end["export"].splitlines())] == \
            before_end["export"].splitlines()
        assert json.loads(exported[-1])["fact"]["type"] == "GameEnded"
        stream = stream_lines(client, game, pano)
        assert [n for n, _ in stream] == [json.loads(line)["n"] for line in exported]

        # The end cannot be undone: what pano saw is never hidden from them again.
        undo = post(client, game, pano, {"do": "request_undo", "steps": 1})
        assert (undo["accepted"], undo["rule"]) == (False, "CORE-PRIVATE-AT-END")
        code, out, _ = run_cli(capsys, "step", db, "last",
                               '{"by": "nomads", "do": "request_undo", "steps": 1}')
        assert code == 1 and "CORE-PRIVATE-AT-END" in out
        assert SPY in replay_as(capsys, db)["units"]


def test_an_end_that_hid_nothing_may_still_be_undone(tmp_path: Path) -> None:
    """With no trooper hidden at the end, the end opened nothing: undo by consent
    reopens the game as before (CORE-GAME-OVER)."""
    service = GameService(":memory:")
    setup = {**SETUP, "units": [{**u, "conditions": []} for u in SETUP["units"]]}
    from domain.ruleset import Setup

    game_id = service.start(Setup.model_validate(setup))
    assert service.handle(game_id, {"by": "pano", "do": "end_game"}).accepted
    assert service.handle(game_id, {"by": "pano", "do": "request_undo", "steps": 1}).accepted
    assert service.handle(game_id, {"by": "nomads", "do": "consent", "accept": True}).accepted
    assert not service.load(game_id).state.finished
