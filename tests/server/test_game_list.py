"""`GET /games`: the games a token holds a seat in, and nothing about any other game;
`GET /`: the page that lists them. A game that does not exist and a game the token
holds no seat in get byte-identical answers (principle 5: no probing for games)."""

from __future__ import annotations

from uuid import uuid4

import pytest
from starlette.testclient import TestClient

from tests.server.conftest import auth, create, setup_of


def test_a_token_lists_only_its_own_game_as_its_seat_sees_it(client: TestClient) -> None:
    one, two = create(client), create(client, "w40k-turns.yaml")
    client.post(f"/games/{one['game']}/commands", json={"do": "next_phase"},
                headers=auth(one["seats"]["red"]))
    for token, seat, role in ((one["seats"]["red"], "red", "player"),
                              (one["seats"]["judge"], "judge", "judge"),
                              (one["spectator"], "spectator", "spectator")):
        response = client.get("/games", headers=auth(token))
        assert response.status_code == 200, response.text
        [game] = response.json()["games"]
        head = client.get(f"/games/{one['game']}", headers=auth(token)).json()["head"]
        assert (game["game"], game["seat"], game["role"]) == (one["game"], seat, role)
        assert game["head"] == head
        assert game["ruleset"].startswith("t9a") and game["players"] == ["blue", "red"]
        assert game["links"]["viewer"] == f"/games/{one['game']}/viewer"
        assert two["game"] not in response.text
    [other] = client.get("/games", headers=auth(two["seats"]["blue"])).json()["games"]
    assert other["game"] == two["game"] and other["ruleset"].startswith("w40k")


def test_the_list_shows_the_games_metadata(client: TestClient) -> None:
    body = {**setup_of("t9a-turns.yaml"),
            "metadata": {"event": "Club night", "round": "2", "table": "7"}}
    created = client.post("/games", json=body)
    assert created.status_code == 201, created.text
    token = created.json()["seats"]["blue"]
    [game] = client.get("/games", headers=auth(token)).json()["games"]
    assert game["metadata"] == {"event": "Club night", "round": "2", "table": "7"}


def test_the_list_needs_a_token_that_holds_a_seat(client: TestClient) -> None:
    create(client)
    none = client.get("/games")
    assert (none.status_code, none.json()["error"]) == (401, "no_token")
    wrong = client.get("/games", headers=auth("x" * 43))
    assert (wrong.status_code, wrong.json()["error"]) == (401, "bad_token")


ROUTES = ["", "/state", "/export", "/audit", "/attempts", "/viewer", "/stream?follow=0"]


@pytest.mark.parametrize("route", ROUTES)
def test_a_missing_game_and_another_s_game_get_the_same_answer(
        client: TestClient, route: str) -> None:
    """Whoever holds a token, a bad token or none learns nothing of which games exist."""
    mine, theirs = create(client), create(client)
    token = mine["seats"]["red"]
    missing = str(uuid4())
    for headers in (auth(token), auth("y" * 43), {}):
        answers = []
        for game in (theirs["game"], missing):
            response = client.get(f"/games/{game}{route}", headers=headers)
            answers.append((response.status_code, response.headers.get("content-type"),
                            response.content.replace(game.encode(), b"GAME")))
        assert answers[0] == answers[1], headers
        assert answers[0][0] in (401, 404)
    posted = [client.post(f"/games/{game}/commands", json={"do": "next_phase"},
                          headers=auth(token)) for game in (theirs["game"], missing)]
    assert [p.status_code for p in posted] == [404, 404]
    assert posted[0].content.replace(theirs["game"].encode(), b"G") == \
        posted[1].content.replace(missing.encode(), b"G")


def test_the_front_page_is_a_static_page_of_the_package(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    policy = page.headers["content-security-policy"]
    assert "connect-src 'self'" in policy and "default-src 'none'" in policy
    assert 'fetch("/games"' in page.text
    assert "http://" not in page.text.replace("http://HOST", "")  # no CDN, nothing remote
    assert "https://" not in page.text


def test_a_judge_s_token_lists_every_table_it_judges(client: TestClient) -> None:
    """A game created with a judge's token is judged by that token (no new judge's
    token); the judge lists all its tables, each table's players their own game."""
    first = create(client)
    judge = first["seats"]["judge"]
    made = client.post("/games", json=setup_of("w40k-turns.yaml"), headers=auth(judge))
    assert made.status_code == 201, made.text
    second = made.json()
    assert second["seats"]["judge"] == judge
    listed = client.get("/games", headers=auth(judge)).json()["games"]
    assert [g["game"] for g in listed] == [first["game"], second["game"]]
    assert all(g["role"] == "judge" for g in listed)
    ruling = client.post(f"/games/{second['game']}/commands", headers=auth(judge),
                         json={"do": "ruling", "text": "table two is fine"})
    assert ruling.status_code == 200, ruling.text
    [own] = client.get("/games", headers=auth(second["seats"]["red"])).json()["games"]
    assert own["game"] == second["game"]


def test_only_a_judge_s_token_may_create_a_game_for_its_tables(client: TestClient) -> None:
    game = create(client)
    judge = game["seats"]["judge"]
    for token, status, code in ((game["seats"]["red"], 403, "not_a_judge"),
                                (game["spectator"], 403, "not_a_judge"),
                                ("z" * 43, 401, "bad_token")):
        response = client.post("/games", json=setup_of("t9a-turns.yaml"), headers=auth(token))
        assert (response.status_code, response.json()["error"]) == (status, code)
    twice = client.post("/games", json=setup_of("t9a-turns.yaml"), headers=[
        ("Authorization", f"Bearer {judge}"), ("Authorization", f"Bearer {judge}")])
    assert (twice.status_code, twice.json()["error"]) == (400, "two_tokens")
    assert len(client.get("/games", headers=auth(judge)).json()["games"]) == 1
