"""`options` answers on every front door, for the seat that asks: the CLI, HTTP (the
token's seat) and `GameService.options`; and the same gate decides what each offers."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from replay.service import GameService
from tests.cli_helpers import run_cli, stored_game


@pytest.fixture
def db(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    return stored_game(tmp_path, capsys)  # T9A: red's charge phase, round 2


def kinds(data: dict[str, object]) -> list[str]:
    options = data["options"]
    assert isinstance(options, list)
    return [o["do"] for o in options]


def test_the_active_player_may_move_play_on_and_the_other_may_not(
        db: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "options", db, "last", "--as", "red", "--json")
    red = orjson.loads(out)
    code_blue, out_blue, _ = run_cli(capsys, "options", db, "last", "--as", "blue", "--json")
    blue = orjson.loads(out_blue)

    assert code == code_blue == 0
    assert (red["seat"], red["phase"], red["active_player"]) == ("red", "charge", "red")
    assert {"next_phase", "end_turn", "end_game"} <= set(kinds(red))
    assert "next_phase" not in kinds(blue) and "end_turn" not in kinds(blue)
    assert "step" not in red  # a player's step count could count hidden steps


def test_each_offered_undo_depth_is_one_the_gate_accepts(db: str) -> None:
    service = GameService(db)
    game_id = service.game_ids()[0]
    depths = [o.command["steps"] for o in service.options(game_id, "blue").of_kind(
        "request_undo")]
    deeper = max(depths) + 1

    assert depths == list(range(1, len(depths) + 1))
    refused = service.handle(game_id, {"by": "blue", "do": "request_undo", "steps": deeper})
    assert not refused.accepted and refused.rule is not None
    assert service.handle(game_id, {"by": "blue", "do": "request_undo",
                                    "steps": max(depths)}).accepted


def test_the_readable_answer_names_the_seat_and_each_option(
        db: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "options", db, "last", "--as", "red")

    assert code == 0
    assert out.splitlines()[0] == ("what red may do now (charge phase, red's turn): "
                                   "3 options")
    assert "  next phase" in out.splitlines()


def test_a_seat_nobody_holds_is_one_clear_error(
        db: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "options", db, "last", "--as", "green")

    assert (code, out) == (2, "")
    assert err == "warledger: 'green' is not a player in this game\n"


def test_the_judge_may_rule_and_end_the_game_but_not_play(
        db: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "options", db, "last", "--as", "judge", "--json")

    assert code == 0 and set(kinds(orjson.loads(out))) == {"end_game", "ruling"}


def test_http_answers_for_the_token_seat_only() -> None:
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from tests.server.conftest import auth, create
    from warledger.server.app import create_app

    with TestClient(create_app(":memory:", max_body=64 * 1024)) as client:
        created = create(client)
        game, tokens = created["game"], created["seats"]
        red = client.get(f"/games/{game}/options", headers=auth(tokens["red"]))
        blue = client.get(f"/games/{game}/options", headers=auth(tokens["blue"]))
        judge = client.get(f"/games/{game}/options", headers=auth(tokens["judge"]))
        nobody = client.get(f"/games/{game}/options")

    assert red.status_code == blue.status_code == judge.status_code == 200
    assert set(kinds(judge.json())) == {"end_game", "ruling"}
    assert red.json()["seat"] == "red" and blue.json()["seat"] == "blue"
    assert "next_phase" in kinds(red.json()) and "next_phase" not in kinds(blue.json())
    assert nobody.status_code == 401
