"""`warledger serve` with a server key: it signs every head it
writes, and refuses to decide on (or show) a game whose head fails its MAC."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from uuid import UUID

import pytest
from starlette.testclient import TestClient

from replay.service import GameService
from replay.verify import verify_game
from tests.replay.test_keyed import KEY, rewrite_events, rows
from tests.server.conftest import auth, create, setup_of
from warledger.server.app import create_app


@pytest.fixture
def keyed_client(db: str) -> Iterator[TestClient]:
    with TestClient(create_app(db, max_body=64 * 1024, key=KEY)) as test_client:
        yield test_client


def test_a_keyed_server_signs_what_it_writes_and_refuses_a_rewritten_log(
        keyed_client: TestClient, db: str) -> None:
    game = create(keyed_client)
    gid, red, judge = game["game"], game["seats"]["red"], game["seats"]["judge"]
    moved = keyed_client.post(f"/games/{gid}/commands", json={"do": "next_phase"},
                              headers=auth(red))
    assert moved.status_code == 200, moved.text
    assert verify_game(GameService(db, key=KEY), UUID(gid)).ok
    with sqlite3.connect(db) as conn:
        heads = conn.execute("SELECT version FROM warledger_heads").fetchall()
    assert len(heads) == 2  # the set-up's head and the step's

    def relabel(version: int, fact: dict[str, object]) -> None:
        if fact["type"] == "StepTaken":
            fact["command"] = {"do": "next_phase", "by": "red", "note": "forged"}
    rewrite_events(db, UUID(gid), relabel)
    keyed_client.app.state.server.service._cache.clear()  # as after a restart
    before = rows(db)

    refused = keyed_client.post(f"/games/{gid}/commands", json={"do": "next_phase"},
                                headers=auth(red))
    state = keyed_client.get(f"/games/{gid}/state", headers=auth(judge))
    shown = [keyed_client.get(f"/games/{gid}/{what}", headers=auth(seat))
             for what in ("export", "audit") for seat in (judge, red)]

    for response in (refused, state, *shown):
        assert response.status_code == 500, response.text
        body = response.json()
        assert body["error"] == "tampered" and "fails its WARLEDGER_KEY MAC" in body["message"]
        assert "Traceback" not in response.text
    assert rows(db) == before  # nothing was written
    attempts = keyed_client.get(f"/games/{gid}/attempts", headers=auth(judge)).json()
    assert attempts == []  # not an attempt either: it never reached the rules
    # The judge's list names the rewritten table, and lists the others as usual.
    other = keyed_client.post("/games", json=setup_of("t9a-turns.yaml"), headers=auth(judge))
    assert other.status_code == 201, other.text
    listed = keyed_client.get("/games", headers=auth(judge))
    assert listed.status_code == 200, listed.text
    first, second = listed.json()["games"]
    assert first["game"] == gid and "fails its WARLEDGER_KEY MAC" in first["tampered"]
    assert "head" not in first and "tampered" not in second and second["head"]["event"] > 0


def test_a_keyed_server_plays_an_undo_by_consent(keyed_client: TestClient, db: str) -> None:
    """Undo reads the game's history: with the key, every event of it is checked too."""
    game = create(keyed_client, "mageknight-turns.yaml")
    gid, seats = game["game"], game["seats"]
    for by, body in (("red", {"do": "next_phase"}),
                     ("red", {"do": "move", "figure": "r1", "path": [[10, 12]]}),
                     ("red", {"do": "request_undo", "steps": 1}),
                     ("blue", {"do": "consent", "accept": True})):
        response = keyed_client.post(f"/games/{gid}/commands", json=body,
                                     headers=auth(seats[by]))
        assert response.status_code == 200, (body, response.text)
    assert "StepsUndone" in response.json()["events"]
    assert verify_game(GameService(db, key=KEY), UUID(gid)).ok
