"""Refused attempts: kept beside the game whatever the front door, never in it."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from uuid import UUID

import orjson
import pytest

from projections.state_view import state_hash
from replay.attempts import NOBODY
from replay.service import GameService
from tests.conftest import backend_params, make_service
from warledger.cli import main
from warledger.script import load_script, run_script

ROOT = Path(__file__).resolve().parents[2]
TOO_FAR = ROOT / "examples" / "t9a-ambush-too-far.yaml"
ARRIVE = {"by": "red", "do": "arrive", "unit": "red-scouts", "point": [60, 0],
          "x": 60, "y": 6, "facing": 90}


def played(service: GameService) -> UUID:
    return UUID(run_script(service, load_script(TOO_FAR))["game_id"])


@pytest.mark.parametrize("backend", backend_params("memory", "sqlite", "postgres"))
def test_a_script_runs_refusal_is_kept_after_its_log_step(backend: str, tmp_path: Path) -> None:
    service = make_service(backend, tmp_path)
    try:
        game_id = played(service)
        [attempt] = service.attempts(game_id)
        assert (attempt.seat, attempt.after_step, attempt.rule) == ("red", 6, "AMB-13")
        assert attempt.command == ARRIVE
        assert attempt.label == "refused after step 6"
        assert service.load(game_id).state.step == 6  # the log's last step is step 6
    finally:
        service.close()


@pytest.mark.parametrize("backend", backend_params("memory", "sqlite", "postgres"))
def test_a_rejection_writes_nothing_to_the_game(backend: str, tmp_path: Path) -> None:
    service = make_service(backend, tmp_path)
    try:
        game_id = played(service)
        before = service.stored_events(game_id)
        game = service.load(game_id)
        head, view = game.head_hash, state_hash(game.state)
        outcome = service.handle(game_id, ARRIVE)
        assert not outcome.accepted and outcome.rule == "AMB-13" and outcome.step == 6
        service._cache.clear()  # read back from the store, not the cache
        after = service.load(game_id)
        assert service.stored_events(game_id) == before
        assert (after.version, after.head_hash, state_hash(after.state)) == (
            len(before), head, view)
        assert [a.rule for a in service.attempts(game_id)] == ["AMB-13", "AMB-13"]
    finally:
        service.close()


def test_each_seat_sees_only_its_own_attempts(service: GameService) -> None:
    game_id = played(service)
    blue = service.handle(game_id, {"by": "blue", "do": "next_phase"})
    assert blue.rule == "CORE-NOT-YOUR-TURN"
    malformed = service.handle(game_id, {"by": "red", "do": "arrive", "unit": 7})
    assert malformed.rule == "INPUT"
    assert [a.seat for a in service.attempts(game_id)] == ["red", "blue", "red"]
    assert [a.rule for a in service.attempts(game_id, "blue")] == ["CORE-NOT-YOUR-TURN"]
    assert [a.rule for a in service.attempts(game_id, "red")] == ["AMB-13", "INPUT"]
    assert service.attempts(game_id, NOBODY) == []


def test_a_step_that_is_not_a_mapping_is_kept_too(service: GameService) -> None:
    from warledger.script import parse_script

    script = load_script(TOO_FAR)
    script = parse_script({**script.model_dump(exclude={"steps", "expect", "expect_state"},
                                               exclude_none=True),
                           "steps": ["not a step", *script.steps[:1]]})
    result = run_script(service, script)
    [attempt] = service.attempts(UUID(result["game_id"]))
    assert (attempt.rule, attempt.after_step, attempt.seat) == ("INPUT", 0, "")
    assert result["steps"][0]["index"] == 0  # the CONTRACT's index is unchanged


def test_a_command_too_big_to_keep_is_kept_as_its_name(service: GameService) -> None:
    game_id = played(service)
    outcome = service.handle(game_id, {"by": "red", "do": "ruling", "text": "x" * 100_000})
    assert outcome.rule == "INPUT"
    assert service.attempts(game_id)[-1].command == {"by": "red", "do": "ruling"}


def test_a_simulation_keeps_no_attempts(tmp_path: Path) -> None:
    from warledger.simulate import simulate_games

    db = str(tmp_path / "sim.db")
    run = simulate_games("t9a", 2, 5, db)
    service = GameService(db)
    assert all(service.attempts(game_id) == [] for game_id in run.game_ids)
    with sqlite3.connect(db) as connection:  # not even the table was made
        tables = {row[0] for row in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "warledger_attempts" not in tables


def test_an_older_servers_attempts_are_moved_into_the_game_store(tmp_path: Path) -> None:
    db = str(tmp_path / "games.db")
    service = GameService(db)
    game_id = played(service)
    service.close()
    with sqlite3.connect(f"{db}.seats") as old:  # as `warledger serve` kept them before
        old.execute("CREATE TABLE warledger_attempts (id INTEGER PRIMARY KEY AUTOINCREMENT,"
                    " game_id TEXT NOT NULL, seat TEXT NOT NULL, at TEXT NOT NULL, step"
                    " INTEGER NOT NULL, command TEXT NOT NULL, rule TEXT, message TEXT)")
        old.execute("INSERT INTO warledger_attempts (game_id, seat, at, step, command, rule,"
                    " message) VALUES (?, 'blue', '2026-01-01T00:00:00+00:00', 4, ?, "
                    "'CORE-NOT-YOUR-TURN', 'not your turn')",
                    (str(game_id), orjson.dumps({"by": "blue", "do": "end_turn"}).decode()))
    again = GameService(db)
    kept = again.attempts(game_id)
    assert [(a.seat, a.after_step, a.rule) for a in kept] == [
        ("blue", 3, "CORE-NOT-YOUR-TURN"), ("red", 6, "AMB-13")]
    with sqlite3.connect(f"{db}.seats") as old:
        assert old.execute("SELECT name FROM sqlite_master WHERE name = "
                           "'warledger_attempts'").fetchall() == []
    assert len(GameService(db).attempts(game_id)) == 2  # moved once, not twice


def test_the_cli_keeps_and_shows_refusals_of_run_and_step(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "g.db")
    assert main(["run", str(TOO_FAR), "--db", db]) == 0
    run = capsys.readouterr().out
    assert "  refused after step 6: red arrive red-scouts at (60, 6) facing 90°, point " \
        "(60, 0) -> REFUSED AMB-13" in run
    assert "  step 6: red roll for Ambush with dice 4 -> " in run
    assert main(["step", db, "last", '{"by": "blue", "do": "end_turn"}']) == 1
    capsys.readouterr()
    assert main(["audit", db, "last", "--attempts"]) == 0
    audit = capsys.readouterr().out
    assert "refused attempts (kept beside the game, not facts of it; every seat's): 2" in audit
    assert "  refused after step 6, " in audit and ", red: arrive red-scouts" in audit
    assert "-> refused CORE-NOT-YOUR-TURN" in audit
    timeline = audit.split("refused attempts (")[0]
    assert timeline.count("   -  refused after step 6") == 2  # shown in the plain audit too
    assert main(["audit", db, "last", "--attempts", "--as", "blue", "--json"]) == 0
    mine = orjson.loads(capsys.readouterr().out)["attempts"]
    assert [(a["seat"], a["rule"], a["after_step"]) for a in mine] == [
        ("blue", "CORE-NOT-YOUR-TURN", 6)]


def test_the_viewer_file_holds_the_refusal_frame(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db, page = str(tmp_path / "g.db"), tmp_path / "game.html"
    assert main(["run", str(TOO_FAR), "--db", db]) == 0
    assert main(["viewer", db, "last", "-o", str(page)]) == 0
    html = page.read_text()
    assert "refused after step 6" in html and "refused: AMB-13" in html
    assert main(["viewer", db, "last", "-o", str(page), "--as", "blue"]) == 0
    assert "AMB-13" not in page.read_text()  # red's attempt is red's


def test_a_players_attempt_is_placed_among_the_steps_they_may_see(
        service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    """No label may count a step hidden from its reader: were step 6 hidden from red,
    red's refusal after it reads "after step 5", as red's audit ends at step 5."""
    import replay.export

    game_id = played(service)
    seen_by = replay.export.seen_by
    monkeypatch.setattr(replay.export, "seen_by", lambda events, player: [
        e for e in seen_by(events, player) if e.step != 6])
    assert [a.after_step for a in service.attempts(game_id, "red")] == [5]
    assert [a.after_step for a in service.attempts(game_id)] == [6]  # the judge sees all


@pytest.mark.parametrize("backend", backend_params("postgres"))
def test_an_older_servers_postgresql_attempts_are_read_where_they_are(
        backend: str, tmp_path: Path) -> None:
    """The older server kept them in this same table of the game database."""
    service = make_service(backend, tmp_path)
    try:
        game_id = played(service)
        with service.recorder.datastore.transaction(commit=True) as cursor:  # type: ignore[attr-defined]
            cursor.execute("INSERT INTO warledger_attempts (game_id, seat, at, step, command, "
                           "rule, message) VALUES (%s, 'blue', '2026-01-01T00:00:00+00:00', 4, "
                           "%s, 'CORE-NOT-YOUR-TURN', 'not your turn')",
                           (str(game_id), '{"by": "blue", "do": "end_turn"}'))
        assert [(a.seat, a.after_step) for a in service.attempts(game_id)] == [
            ("blue", 3), ("red", 6)]
    finally:
        service.close()


@pytest.mark.parametrize("backend", backend_params("memory", "sqlite", "postgres"))
def test_a_refusal_of_text_no_store_can_hold_is_kept_escaped(backend: str,
                                                             tmp_path: Path) -> None:
    service = make_service(backend, tmp_path)
    try:
        game_id = played(service)
        odd = {"by": "r\udc00d\x00", "do": "next\udc00phase", "unit": "\udc00"}
        for dice in (None, False, [1]):
            assert service.handle(game_id, odd, dice).rule == "INPUT"
        kept = service.attempts(game_id)[1:]
        assert {a.seat for a in kept} == {"r\\udc00d\\x00"}
        assert all(a.command == {"by": "r\\udc00d\\x00", "do": "next\\udc00phase"}
                   for a in kept)
    finally:
        service.close()
