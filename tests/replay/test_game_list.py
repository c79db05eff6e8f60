"""`warledger games` tells games apart, read from a few rows of each, never a replay."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from uuid import UUID

import orjson
import pytest

from replay.game_list import game_summaries
from replay.service import GameService
from tests.conftest import backend_params, make_service
from tests.domain.test_results import T9A, WIN
from warledger.cli import main


def accepted(service: GameService, game_id: UUID, by: str, do: str, **arguments: Any) -> None:
    outcome = service.handle(game_id, {"by": by, "do": do, **arguments})
    assert outcome.accepted, outcome


def confirmed(service: GameService) -> UUID:
    game_id = service.start(T9A)
    accepted(service, game_id, "red", "end_game", reason="time", result=WIN)
    accepted(service, game_id, "blue", "consent", accept=True)
    return game_id


def stored_games(service: GameService) -> tuple[UUID, UUID, UUID]:
    """A game with a confirmed result, one whose result was undone by consent, a plain one."""
    won = confirmed(service)
    undone = confirmed(service)
    accepted(service, undone, "red", "request_undo")
    accepted(service, undone, "blue", "consent", accept=True)
    plain = service.start(T9A.model_copy(update={"metadata": None, "players": (
        "red", "blue", "green")}))
    return won, undone, plain


@pytest.mark.parametrize("backend", backend_params("memory", "sqlite", "postgres"))
def test_each_game_shows_its_rule_set_players_metadata_events_and_result(
        backend: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    service = make_service(backend, tmp_path)
    try:
        won, undone, plain = stored_games(service)
        versions = {g: service.load(g).version for g in (won, undone, plain)}

        def no_replay(*_: object, **__: object) -> None:
            raise AssertionError("a game was replayed")
        monkeypatch.setattr(service, "load", no_replay)
        monkeypatch.setattr(service, "game_at", no_replay)
        listed = {s.game_id: s for s in game_summaries(service)}
    finally:
        service.close()
    assert list(listed)[-3:] == [won, undone, plain]  # in the order they were started
    assert listed[won].result is not None and listed[won].result["winner"] == "red"
    assert listed[undone].result is None and listed[plain].result is None
    assert {g: listed[g].events for g in versions} == versions
    assert listed[won].metadata == {"event": "Club Open", "round": "2", "table": "7"}
    assert listed[plain].metadata == {} and listed[plain].players == ("red", "blue", "green")
    line = listed[won].line()
    assert "t9a" in line and "red v blue" in line and f"{versions[won]:>6} events" in line
    assert "confirmed: red wins (red 15, blue 5)" in line
    assert "[Club Open, round 2, table 7]" in line
    assert "no confirmed result" in listed[undone].line()


def test_warledger_games_prints_a_line_or_a_json_object_per_game(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "g.db")
    service = GameService(db)
    won = confirmed(service)
    service.close()
    assert main(["games", db]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{won}  ") and "confirmed: red wins" in out
    assert "{" not in out and "None" not in out  # words, not reprs
    assert main(["games", db, "--json"]) == 0
    [game] = [orjson.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert (game["game_id"], game["ruleset"], game["players"]) == (str(won), "t9a",
                                                                  ["red", "blue"])
    assert game["result"]["confirmed_by"] == "blue"
