"""A server keeps each seat's numbered events for its receipts, bounded (issue 15): the
seats used least recently are dropped, and numbering them again from the log gives the
same numbers."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

import warledger.server.app as app_module
from tests.server.conftest import auth, create


def test_the_seat_cache_is_bounded_and_its_numbers_survive_eviction(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app_module, "MAX_SEERS", 2)
    server = client.app.state.server  # type: ignore[attr-defined]
    games = [create(client) for _ in range(3)]
    receipts = []
    for game in games:
        response = client.post(f"/games/{game['game']}/commands", json={"do": "next_phase"},
                               headers=auth(game["seats"]["red"]))
        assert response.status_code == 200, response.text
        receipts.append(response.json()["receipt"])
    assert len(server.seers) == 2  # the first game's red seat was dropped

    first = games[0]
    again = client.post(f"/games/{first['game']}/commands", json={"do": "next_phase"},
                        headers=auth(first["seats"]["red"]) | {"If-Match": str(receipts[0]["n"])})
    assert again.status_code == 200, again.text
    export = client.get(f"/games/{first['game']}/export", headers=auth(first["seats"]["red"]))
    assert again.json()["receipt"]["n"] == len(export.text.splitlines())
    assert len(server.seers) == 2
