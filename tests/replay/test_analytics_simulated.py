"""Analytics over simulated games: a fresh rebuild equals an
incremental catch-up, and stats see every rule set's facts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from replay.service import GameService
from replay.views import Views
from tests.replay.test_analytics import dump
from warledger.cli import main

RULESETS = ("t9a", "infinity-n4", "mageknight-2", "w40k-10")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_simulated_games_rebuild_to_the_tables_caught_up_game_by_game(
    tmp_path: Path, ruleset: str,
) -> None:
    simulate = pytest.importorskip("warledger.simulate").simulate
    db = str(tmp_path / "g.db")
    simulate(ruleset, 1, 1, db)
    service = GameService(db)
    incremental = Views(service, str(tmp_path / "inc.views"), batch=50)
    incremental.run()
    for seed in (2, 3):
        simulate(ruleset, 1, seed, db)
        incremental.run()

    fresh = Views(service, str(tmp_path / "fresh.views"))
    fresh.run()

    tables = dump(fresh.conn)
    assert tables == dump(incremental.conn)
    assert len(tables["games"]) == 3 and tables["steps"] and tables["state_views"]
    results = [row for row in tables["games"] if row[14] == "confirmed"]  # games.result
    assert results or any(row[14] == "refused" for row in tables["games"])


def test_stats_over_simulated_games_show_each_rule_set(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    simulate = pytest.importorskip("warledger.simulate").simulate
    db = str(tmp_path / "g.db")
    for ruleset in RULESETS:
        simulate(ruleset, 3, 5, db)
    assert main(["views", db]) == 0
    capsys.readouterr()
    assert main(["stats", db, "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert {r["ruleset"] for r in figures["results"]["rows"]} <= set(RULESETS)
    assert figures["dice"]["rows"] and figures["stratagems"]["rows"]
