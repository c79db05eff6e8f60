"""The analytic tables count where each fact happened, and only what still stands:
set-up facts in the game's first phase, a first player from the first moment of
round 1, and nothing of a step undone by consent (results, AROs, rounds),
on SQLite and PostgreSQL, after `views` and after `views --rebuild`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from domain.ruleset import Setup
from projections.state_view import state_view
from replay.service import GameService
from replay.views import Views
from tests.conftest import POSTGRES_SKIP_REASON, POSTGRES_URL
from tests.domain.test_results import T9A, WIN
from tests.replay.test_analytics import accepted, play_examples
from warledger.cli import main

W40K = Setup(ruleset="w40k-10", board={"width": 48, "height": 48}, players=("red", "blue"),
             seed=3, units=({"id": "r1", "owner": "red", "x": 10, "y": 10, "facing": 90},
                            {"id": "b1", "owner": "blue", "x": 30, "y": 40, "facing": 270}))


def do(service: GameService, game_id: UUID, by: str, what: str, **arguments: Any) -> None:
    accepted(service, game_id, {"by": by, "do": what, **arguments})


def results_rows(capsys: pytest.CaptureFixture[str], db: str) -> list[dict[str, Any]]:
    capsys.readouterr()
    assert main(["stats", db, "results", "--json"]) == 0
    return list(json.loads(capsys.readouterr().out)["results"]["rows"])


def test_the_cp_of_round_1s_command_phase_count_in_round_1(tmp_path: Path) -> None:
    """RULINGS 40k: the game starts in round 1's Command phase, whose CP come with the
    set-up (step 0); they are round 1's, in the Command phase, not a 'round 0'."""
    service = GameService(str(tmp_path / "g.db"))
    play_examples(service, ["w40k-battle-round.yaml"])
    views = Views(service, str(tmp_path / "g.db.views"))
    views.run()

    setup_cp = views.conn.execute(
        "select round, phase, player, amount from w40k_cp where step = 0 order by player"
    ).fetchall()
    assert setup_cp == [(1, "command", "blue", 1), (1, "command", "red", 1)]
    rounds = {r for (r,) in views.conn.execute("select distinct round from w40k_cp")}
    assert 0 not in rounds
    gained = views.conn.execute("select sum(amount) from w40k_cp where round = 1 and "
                                "kind = 'gained' and player = 'red'").fetchone()
    assert gained == (2,)  # red's CP of round 1: one in each player's Command phase


def test_a_game_ended_before_any_phase_change_has_its_first_player(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """CORE-TURNS: round 1 starts with the first seat's turn, so a 40k game ended at
    once has red first; a T9A game ended in its deployment (round 0) has no first
    player, and nobody is counted as having gone second."""
    db = str(tmp_path / "g.db")
    service = GameService(db)
    for setup in (W40K, T9A):
        game_id = service.start(setup)
        do(service, game_id, "red", "end_game", reason="time", result=WIN)
        do(service, game_id, "blue", "consent", accept=True)
    assert main(["views", db]) == 0

    views = Views(service, f"{db}.views")
    firsts = views.conn.execute("select g.ruleset, p.player, p.went_first from players p "
                                "join games g using (game_id) order by 1, 2").fetchall()
    assert firsts == [("t9a", "blue", None), ("t9a", "red", None),
                      ("w40k-10", "blue", 0), ("w40k-10", "red", 1)]
    first = {(r["ruleset"], r["grp"]): r["player_games"]
             for r in results_rows(capsys, db) if r["dimension"] == "first"}
    assert first == {("t9a", "first player unknown"): 2, ("w40k-10", "went first"): 1,
                     ("w40k-10", "went second"): 1}


def confirmed_then_undone(service: GameService) -> UUID:
    """A T9A game whose confirmed result is undone by consent."""
    game_id = service.start(T9A)
    do(service, game_id, "red", "end_game", reason="time", result=WIN)
    do(service, game_id, "blue", "consent", accept=True)
    do(service, game_id, "red", "request_undo")
    do(service, game_id, "blue", "consent", accept=True)
    assert "result" not in state_view(service.load(game_id).state)
    return game_id


def redo(service: GameService, game_id: UUID) -> None:
    """A redo of the step that proposed the result: the proposal waits for its answer
    again (the answer, a `consent`, is no step of play, so it is not redone)."""
    do(service, game_id, "red", "request_redo")
    do(service, game_id, "blue", "consent", accept=True)
    assert state_view(service.load(game_id).state)["reaction_window"]["kind"] == "result"


def confirm(service: GameService, game_id: UUID) -> None:
    do(service, game_id, "blue", "consent", accept=True)
    assert state_view(service.load(game_id).state)["result"]["winner"] == "red"


def standing_result(db: str) -> tuple[Any, ...]:
    views = Views(GameService(db), f"{db}.views")
    row = views.conn.execute("select g.result, g.winner, p.outcome from games g join players p "
                             "using (game_id) where p.player = 'red'").fetchone()
    return tuple(row)


def test_a_result_undone_by_consent_leaves_the_tables_and_a_redo_brings_it_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """CORE-UNDO-CONSENT, docs/results.md: an undone result is no result; the win
    rates no longer count it, after `views` and `views --rebuild`; a redo restores it."""
    db = str(tmp_path / "g.db")
    service = GameService(db)
    game_id = service.start(T9A)
    do(service, game_id, "red", "end_game", reason="time", result=WIN)
    do(service, game_id, "blue", "consent", accept=True)
    assert main(["views", db]) == 0  # the result counted, then undone in a later batch
    assert standing_result(db) == ("confirmed", "red", "win")
    do(service, game_id, "red", "request_undo")
    do(service, game_id, "blue", "consent", accept=True)

    assert main(["views", db]) == 0
    assert standing_result(db) == (None, None, None)
    assert results_rows(capsys, db) == []
    steps = Views(GameService(db), f"{db}.views").conn.execute(
        "select step, command, undone from steps order by step").fetchall()
    assert steps[:2] == [(1, "end_game", 1), (2, "consent", 1)]  # the answer went with it
    assert main(["views", db, "--rebuild"]) == 0
    assert standing_result(db) == (None, None, None)
    assert results_rows(capsys, db) == []

    redo(service, game_id)
    assert main(["views", db]) == 0
    assert standing_result(db) == ("proposed", "red", None)
    confirm(service, game_id)
    assert main(["views", db]) == 0
    assert standing_result(db) == ("confirmed", "red", "win")
    assert main(["views", db, "--rebuild"]) == 0
    assert standing_result(db) == ("confirmed", "red", "win")
    wins = {r["grp"]: r["wins"] for r in results_rows(capsys, db) if r["dimension"] == "faction"}
    assert wins == {"Highborn Elves": 1, "Orcs and Goblins": 0}


def test_an_undone_refusal_of_a_result_is_no_longer_a_contested_result(
    tmp_path: Path,
) -> None:
    """A refused result counts in `rules` (result_refused) only while the step that
    proposed it stands: an undo of that step undoes its answer too."""
    db = str(tmp_path / "g.db")
    service = GameService(db)
    game_id = service.start(T9A)
    do(service, game_id, "red", "end_game", reason="time", result=WIN)
    do(service, game_id, "blue", "consent", accept=False)
    views = Views(service, f"{db}.views", batch=1)
    views.run()
    refused = "select count(*) from contests where kind = 'result_refused'"
    assert views.conn.execute(refused).fetchone() == (1,)
    do(service, game_id, "red", "request_undo")
    do(service, game_id, "blue", "consent", accept=True)
    views.run()
    assert views.conn.execute(refused).fetchone() == (0,)
    assert views.conn.execute("select result from games").fetchone() == (None,)
    redo(service, game_id)
    views.run()
    assert views.conn.execute(refused).fetchone() == (0,)  # the proposal waits again
    assert views.conn.execute("select result from games").fetchone() == ("proposed",)
    do(service, game_id, "blue", "consent", accept=False)
    views.run()
    assert views.conn.execute(refused).fetchone() == (1,)
    assert views.conn.execute("select result from games").fetchone() == ("refused",)


def test_undone_rounds_are_not_rounds_the_game_reached(tmp_path: Path) -> None:
    db = str(tmp_path / "g.db")
    service = GameService(db)
    game_id = service.start(W40K)
    do(service, game_id, "red", "end_turn")
    do(service, game_id, "blue", "end_turn")  # round 2
    views = Views(service, f"{db}.views")
    views.run()
    assert views.conn.execute("select rounds from games").fetchone() == (2,)
    do(service, game_id, "blue", "request_undo")
    do(service, game_id, "red", "consent", accept=True)
    views.run()
    assert views.conn.execute("select rounds from games").fetchone() == (1,)


@pytest.mark.postgres
@pytest.mark.skipif(POSTGRES_URL is None, reason=POSTGRES_SKIP_REASON)
def test_on_postgresql_an_undone_result_leaves_the_tables(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from replay.pg_views import PgViews

    assert POSTGRES_URL is not None
    service = GameService(POSTGRES_URL)
    views = PgViews(POSTGRES_URL, service)
    views.drop()
    game_id = service.start(T9A)
    do(service, game_id, "red", "end_game", reason="time", result=WIN)
    do(service, game_id, "blue", "consent", accept=True)
    views.run()
    do(service, game_id, "red", "request_undo")
    do(service, game_id, "blue", "consent", accept=True)

    def outcome() -> tuple[Any, ...]:
        with views.recorder.datastore.transaction(commit=False) as curs:
            curs.execute("select g.result, p.outcome from games g join players p using "
                         "(game_id) where g.game_id = %s and p.player = 'red'", (str(game_id),))
            return tuple(curs.fetchone().values())

    views.run()
    assert outcome() == (None, None)
    views.rebuild()
    assert outcome() == (None, None)
    redo(service, game_id)
    confirm(service, game_id)
    views.run()
    assert outcome() == ("confirmed", "win")
    views.rebuild()
    assert outcome() == ("confirmed", "win")
    views.close()


def test_an_aro_declared_in_an_undone_step_leaves_its_skills_row(tmp_path: Path) -> None:
    """CAU-13: the Cautious Movement's row keeps its window; the dodge declared in the
    step undone by consent is no longer one of its AROs; a redo brings it back."""
    db = str(tmp_path / "g.db")
    service = GameService(db)
    (game_id,) = play_examples(service, ["infinity-cautious-aro.yaml"])
    views = Views(service, f"{db}.views")
    aro = "select generated, declared, undone from n4_aro"
    views.run()
    assert views.conn.execute(aro).fetchone() == (1, '{"zero":"dodge"}', 0)

    do(service, game_id, "nomads", "request_undo")
    do(service, game_id, "panoceania", "consent", accept=True)
    views.run()
    assert views.conn.execute(aro).fetchone() == (1, "{}", 0)

    do(service, game_id, "nomads", "request_redo")
    do(service, game_id, "panoceania", "consent", accept=True)
    views.run()
    assert views.conn.execute(aro).fetchone() == (1, '{"zero":"dodge"}', 0)
    fresh = Views(service, str(tmp_path / "fresh.views"), batch=2)
    fresh.run()
    assert fresh.conn.execute(aro).fetchall() == views.conn.execute(aro).fetchall()
