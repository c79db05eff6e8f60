"""A server keeps each seat's numbered events for its receipts, bounded: the
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


def test_a_remembered_token_holds_only_its_own_seat_in_its_own_game(
        client: TestClient) -> None:
    """Identity is real: a server remembers the seats its tokens were found
    to hold, and a remembered token still acts only for its seat, in its game; a token
    never issued is refused every time."""
    server = client.app.state.server  # type: ignore[attr-defined]
    one, two = create(client), create(client)
    red = one["seats"]["red"]
    first = client.post(f"/games/{one['game']}/commands", json={"do": "next_phase"},
                        headers=auth(red))
    assert first.status_code == 200, first.text
    assert len(server.seats._known) == 1  # red's seat is remembered

    as_blue = client.post(f"/games/{one['game']}/commands",
                          json={"do": "next_phase", "by": "blue"}, headers=auth(red))
    other_game = client.post(f"/games/{two['game']}/commands", json={"do": "next_phase"},
                             headers=auth(red))
    forged = client.post(f"/games/{one['game']}/commands", json={"do": "next_phase"},
                         headers=auth(red[:-1] + ("A" if red[-1] != "A" else "B")))

    assert (as_blue.status_code, as_blue.json()["error"]) == (403, "not_your_seat")
    assert (other_game.status_code, other_game.json()["error"]) == (404, "unknown_game")
    assert (forged.status_code, forged.json()["error"]) == (401, "bad_token")
    assert len(server.seats._known) == 1  # refused tokens are not remembered
    unknown = client.get("/games/00000000-0000-0000-0000-000000000000", headers=auth(red))
    assert (unknown.status_code, unknown.json()["error"]) == (404, "unknown_game")
