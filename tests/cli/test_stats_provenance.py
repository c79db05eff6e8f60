"""Every `warledger stats` figure, over simulated games of every rule set, is
traceable and reproducible:

- `--explain ROW` of every row of every figure lists exactly the games and the
  number of facts the row counts, and each event it names is a fact of the kind
  the figure counts;
- the figures not covered by `test_stats.py`'s synthetic games (aro, rules,
  mageknight) are recomputed from the Parquet export with pandas, exactly.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any
from uuid import UUID

import orjson
import pytest

from replay.stats import Filters, Source, explain, figure
from warledger.cli import main
from warledger.cmd_stats import FIGURES

RULESETS = ("t9a", "infinity-n4", "mageknight-2", "w40k-10")
#: The fact types each figure's rows are made of (the events `--explain` names).
COUNTED = {
    "results": {"ResultConfirmed"},
    "stratagems": {"StratagemUsed"},
    "cp": {"CommandPointsGained", "CommandPointsSpent"},
    "ambush": {"UnitArrivedFromAmbush"},
    "aro": {"OrderSkillDeclared"},
    "rules": {"StepsUndone", "StepsRedone", "RequestRefused", "RulingRecorded",
              "ResultRefused"},
    "mageknight": {"ActionAssigned", "AttackResolved", "RiderDismounted"},
    "dice": {"DiceRolled"},
}
#: The column of a figure's row that counts its facts (None: no such column).
FACTS = {"results": "player_games", "stratagems": "uses", "cp": None, "ambush": "arrivals",
         "aro": "count", "rules": "count", "mageknight": "count", "dice": "dice"}


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Four simulated games of each rule set, with their analytic views."""
    simulate = pytest.importorskip("warledger.simulate").simulate
    path = str(tmp_path_factory.mktemp("provenance") / "games.db")
    for ruleset in RULESETS:
        simulate(ruleset, 4, 21, path)
    assert main(["views", path]) == 0
    return path


def fact_types(db: str) -> dict[tuple[str, int], str]:
    """(game id, event number) → the stored fact's type, for every event."""
    conn = sqlite3.connect(db)
    rows = conn.execute("select originator_id, originator_version, state from stored_events")
    return {(str(UUID(g)), v): orjson.loads(s)["fact"]["type"] for g, v, s in rows}


def test_every_figure_has_rows_over_simulated_games(db: str) -> None:
    source = Source(sqlite3.connect(f"{db}.views"))
    for name in FIGURES:
        assert figure(source, name, Filters()).rows, name


@pytest.mark.parametrize("name", FIGURES)
def test_explain_traces_every_row_to_the_facts_it_counts(db: str, name: str) -> None:
    source = Source(sqlite3.connect(f"{db}.views"))
    types = fact_types(db)
    rows = figure(source, name, Filters()).rows
    for index, row in enumerate(rows, start=1):
        found = explain(source, name, Filters(), index)
        assert len(found["games"]) == row.get("games", len(found["games"])), (name, index)
        if FACTS[name] is not None:
            assert found["facts"] == row[FACTS[name]], (name, index)
        named = {types[(game, event)] for game, events in found["games"].items()
                 for event in events}
        assert named and named <= COUNTED[name], (name, index, named)


def test_explain_on_the_command_line_names_the_row(
    db: str, capsys: pytest.CaptureFixture[str],
) -> None:
    capsys.readouterr()
    assert main(["stats", db, "mageknight", "--explain", "1", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["table"] == "mageknight" and set(found["key"]) == {"player", "measure", "kind"}
    assert main(["stats", db, "mageknight", "--explain", "1"]) == 0
    assert capsys.readouterr().out.startswith("row 1 of mageknight (player=")


def published(db: str, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    capsys.readouterr()
    assert main(["stats", db, "--json"]) == 0
    return dict(json.loads(capsys.readouterr().out))


def test_aro_rules_and_mageknight_are_reproduced_from_the_parquet_export(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    pd = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    assert main(["stats", db, "--export", str(tmp_path)]) == 0
    figures = published(db, capsys)

    # aro: per skill, generated or not and why (CAU-10 / CAU-13), with its share.
    aro = pd.read_parquet(tmp_path / "n4_aro.parquet")
    aro = aro[aro.undone == 0].copy()
    opened = aro.generated.map({1: "window opened", 0: "no enemy eligible"})
    aro["why"] = aro.rule.fillna(opened)
    rows = figures["aro"]["rows"]
    assert len(rows) == aro.groupby(["skill", "generated", "why"]).ngroups
    for (skill, generated, why), group in aro.groupby(["skill", "generated", "why"]):
        row = next(r for r in rows if (r["skill"], r["generated"], r["why"])
                   == (skill, generated, why))
        share = round(len(group) / int((aro.skill == skill).sum()), 4)
        assert (row["count"], row["games"], row["share"]) == (
            len(group), group.game_id.nunique(), share)

    # rules: the clauses contested, by kind.
    contests = pd.read_parquet(tmp_path / "contests.parquet")
    contests["rule"] = contests.rule.replace("", "(none cited)")
    rows = figures["rules"]["rows"]
    assert len(rows) == contests.groupby(["rule", "kind"]).ngroups
    for (rule, kind), group in contests.groupby(["rule", "kind"]):
        row = next(r for r in rows if (r["rule"], r["kind"]) == (rule, kind))
        assert (row["count"], row["games"]) == (len(group), group.game_id.nunique())

    # mageknight: actions by kind; damage dealt and taken; dismounts by cause.
    actions = pd.read_parquet(tmp_path / "mk_actions.parquet")
    attacks = pd.read_parquet(tmp_path / "mk_attacks.parquet")
    dismounts = pd.read_parquet(tmp_path / "mk_dismounts.parquet")
    rows = figures["mageknight"]["rows"]
    expected = []
    for measure, table, player, kind in (
        ("action", actions, "player", "action"),
        ("damage dealt", attacks, "attacker_owner", "kind"),
        ("damage taken", attacks, "target_owner", "kind"),
        ("dismount", dismounts, "owner", "cause"),
    ):
        live = table[table.undone == 0]
        for (who, what), group in live.groupby([player, kind]):
            hits = int(group.hit.sum()) if "hit" in group else None
            damage = int(group.damage.sum()) if "damage" in group else None
            expected.append({"player": who, "measure": measure, "kind": what,
                             "count": len(group), "hits": hits, "damage": damage,
                             "games": group.game_id.nunique()})
    key = lambda r: (r["measure"], r["player"], r["kind"])  # noqa: E731
    assert sorted(rows, key=key) == sorted(expected, key=key)
    assert any(r["measure"] == "damage taken" and r["damage"] > 0 for r in rows)


def test_mageknight_figure_counts_dismounts_and_unhorses_of_the_examples(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """MNT-60 (red dismounts its three riders) and MNT-101 … MNT-107 (red unhorses
    blue's rider v1r): each counted for the rider's owner, by cause."""
    examples = Path(__file__).resolve().parents[2] / "examples"
    db = str(tmp_path / "mk.db")
    for name in ("mageknight-intelligence", "mageknight-benefits"):
        assert main(["run", str(examples / f"{name}.yaml"), "--db", db]) == 0
    assert main(["views", db]) == 0
    rows = published(db, capsys)["mageknight"]["rows"]
    dismounts = {(r["player"], r["kind"]): r["count"] for r in rows if r["measure"] == "dismount"}
    assert dismounts == {("red", "dismount"): 3, ("blue", "unhorsed"): 1}
