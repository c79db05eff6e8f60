"""Input given twice is refused, never one copy picked (principle 6; docs/server.md).

A header that carries identity (`Authorization`), a precondition (`If-Match` and the
other `If-*`), a stream's resume point (`Last-Event-ID`) or how the body is read
(`Content-Type`), sent twice, is 400 whatever the values; so is a query parameter read
as one value, and a body with a key given twice. Nothing is read or written."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from tests.server.conftest import auth, create


def log_of(client: TestClient, game: dict[str, object]) -> str:
    seats = game["seats"]
    assert isinstance(seats, dict)
    return client.get(f"/games/{game['game']}/export", headers=auth(seats["judge"])).text


def test_two_authorization_headers_name_no_seat_and_write_nothing(client: TestClient) -> None:
    """The judge's token then red's was accepted as the judge's (2 events written)."""
    game = create(client)
    judge, red = game["seats"]["judge"], game["seats"]["red"]
    url = f"/games/{game['game']}/commands"
    before = log_of(client, game)
    for first, second in ((judge, red), (red, judge), (red, red)):
        headers = [("Authorization", f"Bearer {first}"), ("Authorization", f"Bearer {second}")]
        response = client.post(url, headers=headers, json={"do": "ruling", "text": "x"})
        assert response.status_code == 400, response.text
        assert response.json() == {"error": "two_tokens", "message": "send one seat's token: "
                                   "this request carries 2 Authorization headers"}
        read = client.get(f"/games/{game['game']}/state", headers=headers)
        assert read.status_code == 400 and read.json()["error"] == "two_tokens"
    assert log_of(client, game) == before


@pytest.mark.parametrize("name", ["If-Match", "If-None-Match", "If-Unmodified-Since"])
def test_a_precondition_sent_twice_is_refused(client: TestClient, name: str) -> None:
    game = create(client)
    red = game["seats"]["red"]
    url = f"/games/{game['game']}/commands"
    before = log_of(client, game)
    head = client.get(f"/games/{game['game']}", headers=auth(red)).json()["head"]["n"]
    for values in ((str(head + 5), str(head)), (str(head), str(head + 5)), ("0", "0")):
        headers = [("Authorization", f"Bearer {red}"), *((name, v) for v in values)]
        response = client.post(url, headers=headers, json={"do": "next_phase"})
        assert response.status_code == 400, response.text
        assert response.json() == {
            "error": "repeated", "message": f"send the {name.lower()} header once: this "
            "request carries it 2 times; nothing was read or written"}
    assert log_of(client, game) == before


def test_a_stream_s_resume_point_given_twice_is_refused(client: TestClient) -> None:
    game = create(client)
    red = game["seats"]["red"]
    base = f"/games/{game['game']}/stream"
    twice = client.get(f"{base}?follow=0", headers=[
        ("Authorization", f"Bearer {red}"), ("Last-Event-ID", "1"), ("Last-Event-ID", "0")])
    assert twice.status_code == 400 and twice.json()["error"] == "repeated"
    for query in ("last_event_id=1&last_event_id=0", "follow=0&follow=1"):
        response = client.get(f"{base}?{query}", headers=auth(red))
        assert response.status_code == 400, query
        name = query.split("=")[0]
        assert response.json() == {"error": "repeated", "message": f"give ?{name}= once: "
                                   "this request gives it 2 times; nothing was read or written"}
    once = client.get(f"{base}?follow=0&last_event_id=0", headers=auth(red))
    assert once.status_code == 200


def test_a_body_read_two_ways_or_with_a_key_twice_is_refused(client: TestClient) -> None:
    game = create(client)
    red = game["seats"]["red"]
    url = f"/games/{game['game']}/commands"
    before = log_of(client, game)
    two_types = client.post(url, content=b'{"do": "next_phase"}', headers=[
        ("Authorization", f"Bearer {red}"), ("Content-Type", "application/json"),
        ("Content-Type", "application/yaml")])
    assert two_types.status_code == 400 and two_types.json()["error"] == "repeated"
    for body, kind in ((b'{"do": "next_phase", "do": "end_turn"}', "application/json"),
                       (b"do: next_phase\ndo: end_turn\n", "application/yaml")):
        response = client.post(url, content=body, headers={
            **auth(red), "Content-Type": kind})
        assert response.status_code == 400, response.text
        assert response.json()["error"] == "malformed"
    created = client.post("/games", content=b'{"ruleset": "t9a", "ruleset": "infinity"}',
                          headers={"Content-Type": "application/json"})
    assert created.status_code == 400 and created.json()["error"] == "malformed"
    assert log_of(client, game) == before
