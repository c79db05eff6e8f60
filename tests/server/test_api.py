"""The HTTP API: identity from tokens, seat views, receipts, If-Match."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import orjson
import pytest
from starlette.testclient import TestClient

from tests.server.conftest import auth, create, setup_of, stream_lines


def test_creating_a_game_gives_each_seat_a_token_stored_only_as_its_hash(
        client: TestClient, db: str) -> None:
    from domain.datafile import read_data_file
    from tests.server.conftest import EXAMPLES

    response = client.post("/games", json=read_data_file(EXAMPLES / "t9a-turns.yaml"))
    assert response.status_code == 201, response.text
    game = response.json()
    assert set(game["seats"]) == {"red", "blue", "judge"}
    tokens = [*game["seats"].values(), game["spectator"]]
    assert len(set(tokens)) == 4 and all(len(t) >= 43 for t in tokens)
    stored = sqlite3.connect(f"{db}.seats").execute(
        "SELECT token_hash FROM warledger_seats").fetchall()
    assert {row[0] for row in stored} == {hashlib.sha256(t.encode()).hexdigest()
                                          for t in tokens}
    raw = Path(f"{db}.seats").read_bytes() + Path(db).read_bytes()
    assert not any(t.encode() in raw for t in tokens)
    assert game["steps_not_played"] == 5


def test_the_acting_seat_is_the_tokens_and_a_missing_by_is_filled_in(
        client: TestClient) -> None:
    game = create(client)
    url = f"/games/{game['game']}/commands"
    response = client.post(url, json={"do": "next_phase"}, headers=auth(game["seats"]["red"]))
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["accepted"] is True and body["events"][:2] == ["StepTaken", "PhaseStarted"]
    assert set(body["receipt"]) == {"n", "view_hash"}
    judge = client.post(url, json={"do": "ruling", "text": "fine"},
                        headers=auth(game["seats"]["judge"]))
    assert judge.status_code == 200, judge.text
    assert set(judge.json()["receipt"]) == {"event", "head_hash"}


def test_no_seat_can_act_for_another(client: TestClient) -> None:
    game = create(client)
    url = f"/games/{game['game']}/commands"
    before = client.get(f"/games/{game['game']}/export", headers=auth(game["seats"]["judge"]))
    for token, by in ((game["seats"]["blue"], "red"), (game["seats"]["red"], "blue"),
                      (game["seats"]["judge"], "red"), (game["seats"]["red"], "judge"),
                      (game["seats"]["red"], "red\u200b"), (game["seats"]["red"], "Red")):
        response = client.post(url, json={"by": by, "do": "next_phase"}, headers=auth(token))
        assert response.status_code == 403, (by, response.text)
        assert response.json()["error"] == "not_your_seat"
    spectator = client.post(url, json={"do": "next_phase"}, headers=auth(game["spectator"]))
    assert spectator.status_code == 403
    after = client.get(f"/games/{game['game']}/export", headers=auth(game["seats"]["judge"]))
    assert after.text == before.text  # nothing was written


def test_a_request_with_two_different_tokens_names_no_seat(client: TestClient) -> None:
    """Principle 6: the seat is the token's. A header and a query, or the query twice,
    with different tokens are refused (400), never one of them picked; the same token
    twice is one token."""
    game = create(client)
    red, blue = game["seats"]["red"], game["seats"]["blue"]
    base = f"/games/{game['game']}"
    before = client.get(f"{base}/export", headers=auth(game["seats"]["judge"])).text
    for url, headers in ((f"{base}/state?token={red}&token={blue}", {}),
                         (f"{base}/state?token={blue}", auth(red)),
                         (f"{base}/commands?token={blue}", auth(red))):
        response = (client.post(url, headers=headers, json={"do": "next_phase"})
                    if "/commands" in url else client.get(url, headers=headers))
        assert response.status_code == 400, response.text
        assert response.json() == {"error": "two_tokens", "message": "send one seat's token: "
                                   "this request carries 2 different tokens"}
    assert client.get(f"{base}/export", headers=auth(game["seats"]["judge"])).text == before
    same = client.get(f"{base}?token={red}", headers=auth(red))
    assert same.status_code == 200 and same.json()["seat"] == "red"


def test_the_server_draws_each_game_s_seed_and_the_creator_s_is_not_used(
        client: TestClient, db: str) -> None:
    """CORE-DICE, principle 5: a seed someone at the table chose (or the default 0, or a
    small one found from its public commitment) would let them foresee every digital
    die. The server seals a seed of its own; the game verifies and reveals as any."""
    from uuid import UUID

    from domain.dice import seed_commitment
    from replay.service import GameService
    from replay.verify import verify_game

    chosen = {**setup_of("t9a-turns.yaml"), "seed": 7}
    games = [client.post("/games", json=body).json()["game"]
             for body in (chosen, chosen, {k: v for k, v in chosen.items() if k != "seed"})]
    service = GameService(db)
    seeds = [service.load(UUID(game)).state.seed for game in games]
    assert len(set(seeds)) == 3 and not {7, 0} & set(seeds), seeds
    for game, seed in zip(games, seeds, strict=True):
        assert seed is not None and seed.bit_length() > 32
        state = service.load(UUID(game)).state
        assert state.seed_commitment == seed_commitment(seed) != seed_commitment(7)
        assert verify_game(service, UUID(game)).ok
    service.close()


def test_an_operator_with_the_database_but_no_token_cannot_act(
        client: TestClient, db: str) -> None:
    """Reading every stored hash gives no token: a hash is no token, nor is no token."""
    game = create(client)
    url = f"/games/{game['game']}/commands"
    hashes = [row[0] for row in sqlite3.connect(f"{db}.seats").execute(
        "SELECT token_hash FROM warledger_seats")]
    for stolen in hashes:
        response = client.post(url, json={"by": "red", "do": "next_phase"},
                               headers=auth(stolen))
        assert response.status_code == 401 and response.json()["error"] == "bad_token"
    assert client.post(url, json={"by": "red", "do": "next_phase"}).status_code == 401
    # A token of another game holds no seat in this one: as if the game did not exist.
    other = create(client)
    response = client.post(url, json={"do": "next_phase"}, headers=auth(other["seats"]["red"]))
    assert (response.status_code, response.json()["error"]) == (404, "unknown_game")
    state = client.get(f"/games/{game['game']}/state", headers=auth(game["seats"]["judge"]))
    assert state.json()["phase"] == "deployment"  # nobody moved the game on


def test_a_refused_command_writes_nothing_and_is_kept_as_an_attempt(
        client: TestClient) -> None:
    game = create(client)
    gid, seats = game["game"], game["seats"]
    start = client.get(f"/games/{gid}", headers=auth(seats["judge"])).json()["head"]
    refused = client.post(f"/games/{gid}/commands", json={"do": "next_phase"},
                          headers=auth(seats["blue"]))
    assert refused.status_code == 422
    assert refused.json()["accepted"] is False
    assert refused.json()["rule"] == "CORE-NOT-YOUR-TURN"
    head = client.get(f"/games/{gid}", headers=auth(seats["judge"])).json()["head"]
    assert head == start  # nothing was written
    judge = client.get(f"/games/{gid}/attempts", headers=auth(seats["judge"])).json()
    assert [(a["seat"], a["rule"], a["command"]["do"]) for a in judge] == [
        ("blue", "CORE-NOT-YOUR-TURN", "next_phase")]
    assert client.get(f"/games/{gid}/attempts", headers=auth(seats["red"])).json() == []
    assert client.get(f"/games/{gid}/attempts", headers=auth(game["spectator"])).json() == []
    audit = client.get(f"/games/{gid}/audit", headers=auth(seats["blue"])).json()
    assert audit["attempts"][0]["message"] == judge[0]["message"]
    page = client.get(f"/games/{gid}/viewer", headers=auth(seats["judge"]))
    assert page.status_code == 200 and "refused: CORE-NOT-YOUR-TURN" in page.text


def test_a_stale_if_match_is_409_with_the_head_and_writes_nothing(client: TestClient) -> None:
    game = create(client)
    gid, red = game["game"], game["seats"]["red"]
    state = client.get(f"/games/{gid}/state", headers=auth(red))
    etag = state.headers["etag"]
    first = client.post(f"/games/{gid}/commands", json={"do": "next_phase"},
                        headers=auth(red) | {"If-Match": etag})
    assert first.status_code == 200, first.text
    stale = client.post(f"/games/{gid}/commands", json={"do": "next_phase"},
                        headers=auth(red) | {"If-Match": etag})
    assert stale.status_code == 409 and stale.json()["error"] == "stale"
    assert stale.json()["head"] == first.json()["receipt"]
    fresh = client.post(f"/games/{gid}/commands", json={"do": "next_phase"},
                        headers=auth(red) | {"If-Match": str(first.json()["receipt"]["n"])})
    assert fresh.status_code == 200, fresh.text
    judge = game["seats"]["judge"]
    head = client.get(f"/games/{gid}", headers=auth(judge)).json()["head"]
    late = client.post(f"/games/{gid}/commands", json={"do": "ruling", "text": "x"},
                       headers=auth(judge) | {"If-Match": str(head["event"] - 1)})
    assert late.status_code == 409 and late.json()["head"] == head


def test_bad_input_is_one_json_error_with_its_status(client: TestClient) -> None:
    game = create(client)
    gid, red = game["game"], game["seats"]["red"]
    url = f"/games/{gid}/commands"
    start = client.get(f"/games/{gid}", headers=auth(game["seats"]["judge"])).json()["head"]
    cases = [
        (client.post(url, json={"do": "next_phase"}, headers=auth("nope")), 401),
        (client.post(url, content=b"{not json", headers=auth(red)), 400),
        (client.post(url, content=b'{"do": "a", "do": "b"}', headers=auth(red)), 400),
        (client.post(url, content=b"[1]", headers=auth(red)), 400),
        (client.post(url, content=b"x" * (65 * 1024), headers=auth(red)), 413),
        (client.post("/games", content=b"x" * (65 * 1024)), 413),
        (client.post(f"/games/{'0' * 8}-0000-0000-0000-{'0' * 12}/commands",
                     json={"do": "next_phase"}, headers=auth(red)), 404),
        (client.get("/games/not-a-uuid/state", headers=auth(red)), 404),
        (client.post(url, json={"do": "next_phase"},
                     headers=auth(red) | {"If-Match": "soon"}), 400),
        (client.post(url, json={"do": "next_phase", "dice": "six"}, headers=auth(red)), 400),
        (client.post(url, json={"do": "next_phase", "by": None}, headers=auth(red)), 400),
        (client.post("/games", json={"ruleset": "chess"}), 400),
        (client.get("/nowhere"), 404),
    ]
    for response, status in cases:
        assert response.status_code == status, response.text
        body = response.json()
        assert set(body) >= {"error", "message"} and "Traceback" not in response.text
    head = client.get(f"/games/{gid}", headers=auth(game["seats"]["judge"])).json()["head"]
    assert head == start


def test_a_command_may_be_sent_as_yaml_as_a_game_may(client: TestClient) -> None:
    game = create(client)
    gid, red = game["game"], game["seats"]["red"]
    sent = client.post(f"/games/{gid}/commands", content=b"do: next_phase\n",
                       headers=auth(red) | {"Content-Type": "application/yaml"})
    assert sent.status_code == 200, sent.text
    assert sent.json()["accepted"] is True
    by_null = client.post(f"/games/{gid}/commands", json={"do": "next_phase", "by": None},
                          headers=auth(red))
    assert (by_null.status_code, by_null.json()["error"]) == (400, "malformed")
    assert "None" not in by_null.json()["message"]


def test_look_alike_player_ids_are_refused_at_set_up(client: TestClient) -> None:
    for players in (["red", "red\u200b"], ["red", "Judge"], ["red", "RED"],
                    ["red", "r\u0435d"], ["red", "abc\u05d0"], ["\u202ered", "blue"]):
        setup = setup_of("t9a-turns.yaml") | {"players": players}
        response = client.post("/games", json=setup)
        assert response.status_code == 400, players
        assert response.json()["error"] == "bad_setup"


def test_views_export_and_streams_hold_only_what_the_seat_may_know(
        client: TestClient) -> None:
    game = create(client, "infinity-cautious-aro.yaml")
    gid, seats = game["game"], game["seats"]
    client.post(f"/games/{gid}/commands", json={"do": "next_phase"},
                headers=auth(seats["panoceania"]))
    moved = client.post(f"/games/{gid}/commands",
                        json={"do": "cautious_move", "trooper": "fusilier",
                              "path": [[13.5, 11]]}, headers=auth(seats["panoceania"]))
    assert moved.status_code == 200, moved.text
    for token in (seats["panoceania"], game["spectator"]):
        texts = [client.get(f"/games/{gid}/{what}", headers=auth(token)).text
                 for what in ("state", "export", "audit", "viewer")]
        texts.append(orjson.dumps(stream_lines(client, gid, token)).decode())
        for text in texts:
            assert "hidden-hacker" not in text and "SeedSealed" not in text
    judge = client.get(f"/games/{gid}/state", headers=auth(seats["judge"])).text
    assert "hidden-hacker" in judge


def test_a_stream_numbers_as_the_export_does_and_resumes_with_last_event_id(
        client: TestClient) -> None:
    game = create(client)
    gid, seats = game["game"], game["seats"]
    for by in ("red", "red", "red"):
        client.post(f"/games/{gid}/commands", json={"do": "next_phase"},
                    headers=auth(seats[by]))
    export = [orjson.loads(line) for line in client.get(
        f"/games/{gid}/export", headers=auth(seats["blue"])).text.splitlines()]
    lines = stream_lines(client, gid, seats["blue"])
    assert [n for n, _ in lines] == [line["n"] for line in export]
    assert [data for _, data in lines] == export
    resumed = stream_lines(client, gid, seats["blue"], last=4)
    assert [n for n, _ in resumed] == [line["n"] for line in export if line["n"] > 4]
    judge = stream_lines(client, gid, seats["judge"])
    assert [n for n, _ in judge] == list(range(1, len(judge) + 1))


def test_warledger_audit_attempts_shows_what_the_server_refused(
        client: TestClient, db: str, capsys: pytest.CaptureFixture[str]) -> None:
    from warledger.cli import main

    game = create(client)
    gid, seats = game["game"], game["seats"]
    client.post(f"/games/{gid}/commands", json={"do": "end_turn"}, headers=auth(seats["blue"]))
    assert main(["audit", db, gid, "--attempts"]) == 0
    out = capsys.readouterr().out
    assert "refused attempts (kept beside the game, not facts of it; every seat's): 1" in out
    assert "refused after step 0, " in out and "blue: end turn -> refused CORE-NOT-YOUR-TURN" in out
    assert main(["audit", db, gid, "--attempts", "--as", "red", "--json"]) == 0
    assert orjson.loads(capsys.readouterr().out)["attempts"] == []


def test_bad_reads_are_one_json_error_and_no_seat_reads_anothers(client: TestClient) -> None:
    game = create(client, "infinity-cautious-aro.yaml")
    gid, seats = game["game"], game["seats"]
    unknown = f"{'0' * 8}-0000-0000-0000-{'0' * 12}"
    other = create(client)
    cases = [
        (client.get(f"/games/{gid}/state", headers=auth("nope")), 401, "bad_token"),
        (client.get(f"/games/{gid}/stream?follow=0"), 401, "no_token"),
        (client.get(f"/games/{gid}/export", headers=auth(other["seats"]["red"])), 404,
         "unknown_game"),  # another game's seat reads nothing of this one
        (client.get(f"/games/{unknown}/stream", headers=auth(seats["panoceania"])), 404,
         "unknown_game"),
        (client.get(f"/games/{gid}/stream?follow=0",
                    headers=auth(seats["panoceania"]) | {"Last-Event-ID": "x1"}), 400,
         "malformed"),
        (client.post(f"/games/{gid}/state", headers=auth(seats["judge"])), 405,
         "method_not_allowed"),
    ]
    for response, status, code in cases:
        assert response.status_code == status, response.text
        assert response.json()["error"] == code and "Traceback" not in response.text
    # The spectator's link reads the viewer, and only what is public.
    spectate = client.get(game["links"]["spectate"])
    assert spectate.status_code == 200 and "hidden-hacker" not in spectate.text
