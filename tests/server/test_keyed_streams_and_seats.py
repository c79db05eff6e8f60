"""A keyed server (`WARLEDGER_KEY`) speaks for no seat a database writer added, and
its streams never send an event a database writer appended: on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from uuid import UUID, uuid4

import orjson
import pytest
from starlette.testclient import TestClient

from replay.keyed import TamperedGameError
from replay.service import GameService
from tests.conftest import POSTGRES_URL, backend_params
from tests.server.conftest import auth, create, stream_lines
from warledger.server.app import create_app
from warledger.server.seats import SeatStore, token_hash

KEY = b"a server key nobody else holds"


@pytest.fixture(params=backend_params("sqlite", "postgres"))
def store(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    db = str(tmp_path / "games.db") if request.param == "sqlite" else POSTGRES_URL
    assert db is not None
    return db


@pytest.fixture
def keyed(store: str) -> Iterator[TestClient]:
    with TestClient(create_app(store, max_body=64 * 1024, key=KEY)) as client:
        yield client


def event_count(db: str, game: str) -> int:
    service = GameService(db)
    try:
        return len(service.stored_events(UUID(game)))
    finally:
        service.close()


def test_a_judge_s_seat_a_database_writer_added_is_refused_as_an_unknown_token(
        keyed: TestClient, store: str) -> None:
    game = create(keyed)
    gid, forger = game["game"], f"the forger's own {uuid4()}"
    writer = SeatStore(store)  # the database, written without the key
    try:
        writer._run("INSERT INTO warledger_seats (token_hash, game_id, role, seat) "
                    "VALUES (?, ?, 'judge', 'judge')", (token_hash(forger), gid))
    finally:
        writer.close()
    before = event_count(store, gid)
    answers = {token: [keyed.post(f"/games/{gid}/commands", json={"do": "next_phase"},
                                  headers=auth(token)),
                       keyed.get(f"/games/{gid}/state", headers=auth(token)),
                       keyed.get("/games", headers=auth(token))]
               for token in (forger, f"a token nobody issued {uuid4()}")}
    forged, unknown = answers.values()
    for mine, theirs in zip(forged, unknown, strict=True):
        assert mine.status_code == 401 and mine.json()["error"] == "bad_token"
        assert mine.content == theirs.content  # byte for byte: nothing to probe
    assert event_count(store, gid) == before  # nothing written
    moved = keyed.post(f"/games/{gid}/commands", json={"do": "next_phase"},
                       headers=auth(game["seats"]["red"]))
    assert moved.status_code == 200, moved.text


def tampered_events(text: str) -> list[dict[str, str]]:
    return [orjson.loads(block.split("data: ", 1)[1]) for block in text.split("\n\n")
            if block.startswith("event: tampered")]


def test_an_event_appended_after_the_signed_head_is_never_streamed(
        keyed: TestClient, store: str) -> None:
    game = create(keyed)
    gid, seats = game["game"], game["seats"]
    moved = keyed.post(f"/games/{gid}/commands", json={"do": "next_phase"},
                       headers=auth(seats["red"]))
    assert moved.status_code == 200, moved.text
    signed = event_count(store, gid)
    judge_lines = stream_lines(keyed, gid, seats["judge"])
    assert [n for n, _ in judge_lines] == list(range(1, signed + 1))
    red_lines = stream_lines(keyed, gid, seats["red"])
    server = keyed.app.state.server  # type: ignore[attr-defined]
    counted = len(server.numbered(UUID(gid), "red"))  # what a player's head counts
    # A database writer appends a step as a service without the key writes it: a sound
    # hash and link, and no signed head.
    writer = GameService(store)
    try:
        assert writer.handle(UUID(gid), {"do": "next_phase", "by": "red"}).accepted
    finally:
        writer.close()
    assert event_count(store, gid) > signed
    with pytest.raises(TamperedGameError, match="events after its last signed head"):
        server.numbered(UUID(gid), "red")  # read on from where it was: checked too
    assert len(server.seers[(UUID(gid), "red")][1]) == counted
    for token, seen in ((seats["judge"], len(judge_lines)), (seats["red"], len(red_lines)),
                        (game["spectator"], 0)):
        for last in (None, seen):
            response = keyed.get(f"/games/{gid}/stream?follow=0", headers=auth(token) | (
                {} if last is None else {"Last-Event-ID": str(last)}))
            assert response.status_code == 200
            assert "event: fact" not in response.text  # not the forged one, nor any
            [refusal] = tampered_events(response.text)
            assert refusal["error"] == "tampered"
            assert "events after its last signed head" in refusal["message"]
