"""The analytic projections: rows per counted fact, rebuild == catch-up,
undo flags, and a hard stop on a fact they do not know."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path
from typing import Any
from uuid import UUID

import orjson
import pytest

from domain.ruleset import Setup
from events.registry import every_fact_type
from replay.analytics import TABLES, UnknownFactError, known_fact_types
from replay.service import GameService
from replay.views import Views
from tests.dice_game import DICE  # noqa: F401  (registers the test-dice rule set)
from warledger.script import load_script, run_script

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
DICE_SETUP = Setup(ruleset="test-dice", board={"width": 10, "height": 10},
                   players=("red", "blue"), seed=7)


def dump(conn: Any) -> dict[str, list[tuple[Any, ...]]]:
    """Every analytic table and the state views, rows sorted (tracking left out)."""
    tables = [t.name for t in TABLES] + ["state_views"]
    return {name: sorted(conn.execute(f"select * from {name}").fetchall(), key=repr)
            for name in tables}


def accepted(service: GameService, game_id: UUID, command: dict[str, Any]) -> None:
    outcome = service.handle(game_id, command)
    assert outcome.accepted, outcome


def play_examples(service: GameService, names: list[str]) -> list[UUID]:
    ids = []
    for name in names:
        result = run_script(service, load_script(EXAMPLES / name))
        ids.append(UUID(result["game_id"]))
    return ids


def dice_game_with_undo(service: GameService) -> UUID:
    game_id = service.start(DICE_SETUP)
    accepted(service, game_id, {"do": "roll", "by": "red"})
    accepted(service, game_id, {"do": "roll", "by": "red"})
    accepted(service, game_id, {"do": "request_undo", "by": "red", "steps": 1})
    accepted(service, game_id, {"do": "consent", "by": "blue", "accept": True})
    accepted(service, game_id, {"do": "ruling", "by": "judge", "clause": "CORE-DICE", "text": "ok"})
    return game_id


def test_every_fact_type_is_known_to_the_analytic_projections() -> None:
    assert set(every_fact_type()) <= known_fact_types()


def test_examples_give_a_row_per_counted_fact(tmp_path: Path) -> None:
    service = GameService(str(tmp_path / "g.db"))
    play_examples(service, ["w40k-battle-round.yaml", "t9a-ambush-legal.yaml",
                            "infinity-cautious-aro.yaml", "infinity-cautious-no-aro.yaml",
                            "mageknight-benefits.yaml"])
    views = Views(service, str(tmp_path / "g.db.views"))
    views.run()
    c = views.conn

    strats = c.execute("select stratagem, cost, phase, round, player from w40k_stratagems "
                       "order by event_no").fetchall()
    assert strats[0] == ("rapid-ingress", 1, "movement", 1, "blue")  # STR-02
    assert len(strats) == 5
    lost = c.execute("select player, amount, lost from w40k_cp where lost > 0").fetchall()
    assert lost == [("blue", 1, 1)]  # CORE-CP-CAP: 2 asked, 1 gained, 1 lost
    arrival = c.execute("select unit, game_turn, roll, point_x, point_y, scoring "
                        "from t9a_ambush").fetchall()
    assert arrival == [("red-scouts", 2, 4, 36.0, 0.0, "kept")]  # AMB-09, AMB-18
    aro = c.execute("select skill, generated, rule, eligible, declared from n4_aro "
                    "order by rule").fetchall()
    assert aro == [("cautious_move", 0, "CAU-10", "[]", "{}"),
                   ("cautious_move", 1, "CAU-13", '["zero"]', '{"zero":"dodge"}')]
    assert c.execute("select count(*) from mk_dismounts").fetchone()[0] > 0
    games = c.execute("select ruleset, first_player, events from games order by ruleset")
    assert [g[0] for g in games] == ["infinity-n4", "infinity-n4", "mageknight-2", "t9a",
                                     "w40k-10"]


def test_a_charge_rolled_as_the_defenders_window_closes_is_the_chargers_roll(
        tmp_path: Path) -> None:
    """w40k rules version 2: red's charge waits for blue's Fire Overwatch window and is
    rolled in blue's `pass_stratagem` step, with the dice red's step carried: the dice
    rows are red's (CORE-CHARGE), as any die rolled for a unit is its owner's."""
    service = GameService(str(tmp_path / "g.db"))
    play_examples(service, ["w40k-reactive.yaml"])
    views = Views(service, str(tmp_path / "g.db.views"))
    views.run()

    rows = views.conn.execute("select player, value, step from dice where purpose = 'charge' "
                              "order by event_no, die").fetchall()
    steps = views.conn.execute("select step, player from steps").fetchall()
    assert [(p, v) for p, v, _ in rows] == [("red", 3), ("red", 2)]
    assert dict(steps)[rows[0][2]] == "blue"  # rolled in blue's step


def test_undone_steps_are_flagged_and_contested_clauses_counted(tmp_path: Path) -> None:
    service = GameService(str(tmp_path / "g.db"))
    game_id = dice_game_with_undo(service)
    views = Views(service, str(tmp_path / "g.db.views"))
    views.run()
    c = views.conn

    dice = c.execute("select step, undone from dice order by step").fetchall()
    assert dice == [(1, 0), (2, 1)]  # CORE-UNDO-CONSENT: the second roll no longer counts
    contests = c.execute("select kind, rule, step from contests order by kind").fetchall()
    assert contests == [("ruling", "CORE-DICE", 5), ("undo", "TEST", 2)]
    row = c.execute("select steps, undos, rulings from games where game_id = ?",
                    (str(game_id),)).fetchone()
    assert row == (4, 1, 1)  # 5 steps accepted, one of them undone


@pytest.mark.parametrize("batch", [1, 3, 1000])
def test_a_fresh_rebuild_equals_an_incremental_catch_up(tmp_path: Path, batch: int) -> None:
    service = GameService(str(tmp_path / "g.db"))
    incremental = Views(service, str(tmp_path / "inc.views"), batch=batch)
    play_examples(service, ["w40k-battle-round.yaml", "t9a-ambush-legal.yaml"])
    incremental.run()
    game_id = dice_game_with_undo(service)
    incremental.run()
    accepted(service, game_id, {"do": "request_redo", "by": "red"})
    incremental.run()
    accepted(service, game_id, {"do": "consent", "by": "blue", "accept": True})
    play_examples(service, ["infinity-cautious-aro.yaml", "mageknight-benefits.yaml"])
    incremental.run()

    fresh = Views(service, str(tmp_path / "fresh.views"), batch=7)
    fresh.run()

    assert dump(fresh.conn) == dump(incremental.conn)
    assert dump(fresh.conn)["dice"]
    fresh.drop()
    fresh.run()
    assert dump(fresh.conn) == dump(incremental.conn)


def test_an_unknown_fact_stops_the_projection_and_writes_nothing_of_its_batch(
    tmp_path: Path,
) -> None:
    service = GameService(str(tmp_path / "g.db"))
    game_id = service.start(DICE_SETUP)
    accepted(service, game_id, {"do": "roll", "by": "red"})
    views = Views(service, str(tmp_path / "g.db.views"))
    views.run()
    accepted(service, game_id, {"do": "roll", "by": "red"})
    version = service.load(game_id).version
    raw = sqlite3.connect(str(tmp_path / "g.db"))
    body = {"timestamp": "2026-01-01T00:00:00+00:00", "step": 9, "prev_hash": "0", "hash": "0",
            "fact": {"type": "MysteryHappened", "class_version": 1}}
    raw.execute("insert into stored_events values (?, ?, ?, ?)",
                (game_id.hex, version + 1, "warledger:GameEvent", orjson.dumps(body)))
    raw.commit()
    before = dump(views.conn), views.position()

    with pytest.raises(UnknownFactError, match="MysteryHappened"):
        views.run()

    assert (dump(views.conn), views.position()) == before  # the roll before it too


POSTGRES_URL = os.environ.get("WARLEDGER_TEST_POSTGRES")


def pg_dump(views: Any) -> dict[str, list[tuple[Any, ...]]]:
    tables = [t.name for t in TABLES] + ["state_views"]
    with views.recorder.datastore.transaction(commit=False) as curs:
        out = {}
        for name in tables:
            curs.execute(f"select * from {name}")
            out[name] = sorted((tuple(r.values()) for r in curs.fetchall()), key=repr)
    return out


@pytest.mark.postgres
@pytest.mark.skipif(POSTGRES_URL is None, reason="needs WARLEDGER_TEST_POSTGRES")
def test_on_postgresql_a_fresh_rebuild_equals_an_incremental_catch_up() -> None:
    from replay.pg_views import PgViews

    assert POSTGRES_URL is not None
    service = GameService(POSTGRES_URL)
    views = PgViews(POSTGRES_URL, service)
    views.drop()
    play_examples(service, ["w40k-battle-round.yaml"])
    views.run()
    game_id = dice_game_with_undo(service)
    views.run()
    accepted(service, game_id, {"do": "request_redo", "by": "red"})
    accepted(service, game_id, {"do": "consent", "by": "blue", "accept": True})
    ids = play_examples(service, ["t9a-ambush-legal.yaml", "infinity-cautious-aro.yaml"])
    assert views.run() > 0
    incremental = pg_dump(views)

    views.drop()
    views.run()

    assert pg_dump(views) == incremental
    assert views.position() == views.recorder.head()
    with views.recorder.datastore.transaction(commit=False) as curs:
        curs.execute("select count(*) as n from t9a_ambush where game_id = %s", (str(ids[0]),))
        assert curs.fetchone()["n"] == 1  # AMB-09: the arrival, in the same database
    view = views.view(ids[1])
    assert view is not None and view[0] == service.load(ids[1]).version
    views.close()


@pytest.mark.postgres
@pytest.mark.skipif(POSTGRES_URL is None, reason="needs WARLEDGER_TEST_POSTGRES")
def test_views_and_stats_commands_work_on_postgresql(capsys: pytest.CaptureFixture[str]) -> None:
    from warledger.cli import main

    assert POSTGRES_URL is not None
    service = GameService(POSTGRES_URL)
    play_examples(service, ["w40k-battle-round.yaml"])
    service.close()

    assert main(["views", POSTGRES_URL]) == 0
    assert "PostgreSQL" in capsys.readouterr().out
    assert main(["stats", POSTGRES_URL, "stratagems", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["stratagems"]["rows"]
    assert any(r["grp"] == "Rapid Ingress" for r in rows)  # STR-02, from the tables in PG
