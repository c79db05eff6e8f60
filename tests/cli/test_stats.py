"""`warledger stats`: figures, filters, bad input, provenance,
and every published figure recomputed exactly from the export with pandas."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from replay.stats import chi_square_p, wilson
from replay.storage import redact
from tests.analytics_data import synthetic_views
from tests.conftest import POSTGRES_SKIP_REASON, POSTGRES_URL
from warledger.cli import main


@pytest.fixture
def db(tmp_path: Path) -> str:
    """A store path whose analytic views hold 40 synthetic games."""
    path = tmp_path / "games.db"
    path.touch()
    synthetic_views(f"{path}.views", games=40)
    return str(path)


def stats(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["stats", *args])
    out, err = capsys.readouterr()
    return code, out, err


def published(capsys: pytest.CaptureFixture[str], db: str, *args: str) -> dict[str, Any]:
    code, out, err = stats(capsys, db, *args, "--json")
    assert code == 0, err
    return dict(json.loads(out))


def test_wilson_and_chi_square_match_textbook_values() -> None:
    low, high = wilson(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    assert round(chi_square_p(11.0705, 5), 4) == 0.05  # the 95% point of χ²(5)
    assert round(chi_square_p(1.0, 1), 4) == 0.3173


def test_every_figure_of_the_games_rule_sets_prints_as_a_table(
    db: str, capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = stats(capsys, db)  # 40k and T9A games: no AROs, no Mage Knight
    assert code == 0
    for name in ("results:", "stratagems:", "cp:", "ambush:", "rules:", "dice:"):
        assert name in out
    assert "aro:" not in out and "mageknight:" not in out


def test_results_count_confirmed_results_only(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    rows = published(capsys, db, "results")["results"]["rows"]
    first = [r for r in rows if r["dimension"] == "first"]
    # 40 games, every fifth refused: 32 confirmed, each counted once per player.
    assert sum(r["player_games"] for r in first) == 64
    for row in rows:
        assert row["player_games"] == row["wins"] + row["draws"] + row["losses"]
        assert row["ci_low"] <= row["win_rate"] <= row["ci_high"]


def test_filters_narrow_the_games(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    everything = published(capsys, db, "stratagems")["stratagems"]["rows"]
    red = published(capsys, db, "stratagems", "--player", "red")["stratagems"]["rows"]
    cup = published(capsys, db, "stratagems", "--event", "Cup")["stratagems"]["rows"]
    late = published(capsys, db, "stratagems", "--since", "2026-05-01")["stratagems"]["rows"]
    uses = {name: sum(r["uses"] for r in rows if r["dimension"] == "stratagem")
            for name, rows in (("all", everything), ("red", red), ("cup", cup), ("late", late))}
    assert uses["all"] == 20 * 6  # 20 w40k games, 6 player turns, one stratagem each
    assert uses["red"] == uses["all"] // 2
    assert 0 < uses["cup"] < uses["all"] and 0 < uses["late"] < uses["all"]
    t9a = published(capsys, db, "stratagems", "--ruleset", "t9a")["stratagems"]["rows"]
    assert t9a == []


@pytest.mark.parametrize(("args", "expected"), [
    (("--ruleset", "chess"), "no rule set 'chess'"),
    (("--player", "green"), "no player 'green'"),
    (("--event", "Worlds"), "no event 'Worlds'"),
    (("--since", "yesterday"), "is not a date"),
])
def test_bad_filters_are_one_clear_line_with_a_hint(
    db: str, capsys: pytest.CaptureFixture[str], args: tuple[str, ...], expected: str,
) -> None:
    code, out, err = stats(capsys, db, *args)
    assert code == 2 and out == "" and expected in err and len(err.splitlines()) == 1
    if "--since" not in args:
        assert f"warledger views {db}" in err


def test_a_database_without_analytics_says_to_run_views(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    bare = tmp_path / "bare.db"
    bare.touch()
    code, _, err = stats(capsys, str(bare))
    assert code == 2 and f"run `warledger views {bare}` first" in err
    assert len(err.splitlines()) == 1


def test_explain_lists_the_games_and_events_behind_a_row(
    db: str, capsys: pytest.CaptureFixture[str],
) -> None:
    rows = published(capsys, db, "ambush")["ambush"]["rows"]
    index = next(i for i, r in enumerate(rows, start=1) if r["game_turn"] == 6)
    found = published(capsys, db, "ambush", "--explain", str(index))
    assert found["key"] == {"game_turn": 6}
    assert found["facts"] == rows[index - 1]["arrivals"] == rows[index - 1]["scoring_lost"]
    assert len(found["games"]) == rows[index - 1]["games"]
    code, out, _ = stats(capsys, db, "ambush", "--explain", str(index))
    assert code == 0 and out.startswith(f"row {index} of ambush (game_turn=6)")
    code, _, err = stats(capsys, db, "ambush", "--explain", "99")
    assert code == 2 and "has" in err and "rows" in err


def test_csv_has_one_line_per_row_with_the_table_named(
    db: str, capsys: pytest.CaptureFixture[str],
) -> None:
    rows = published(capsys, db, "dice")["dice"]["rows"]
    code, out, _ = stats(capsys, db, "dice", "--csv")
    lines = out.splitlines()
    assert code == 0 and len(lines) == len(rows) + 1
    assert lines[0].startswith("table,player,source,sides,dice,mean,chi2,p_value,"
                               "expected_per_face,small_sample,face_1")


def test_every_published_figure_is_reproduced_from_the_parquet_export(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    pd = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    out = tmp_path / "export"
    code, _, err = stats(capsys, db, "--export", str(out))
    assert code == 0, err
    figures = published(capsys, db)
    games = pd.read_parquet(out / "games.parquet")
    players = pd.read_parquet(out / "players.parquet")

    # results: wins / games and the Wilson interval, by rule set and faction.
    confirmed = players.merge(games[games.result == "confirmed"], on="game_id")
    confirmed["faction"] = confirmed.faction.fillna("(no faction)")
    for (ruleset, faction), group in confirmed.groupby(["ruleset", "faction"]):
        n, wins = len(group), int((group.outcome == "win").sum())
        z = 1.959963984540054
        centre = (wins / n + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(wins / n * (1 - wins / n) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        row = next(r for r in figures["results"]["rows"]
                   if (r["ruleset"], r["dimension"], r["grp"]) == (ruleset, "faction", faction))
        assert (row["player_games"], row["wins"]) == (n, wins)
        assert row["games"] == group.game_id.nunique()
        assert row["win_rate"] == round(wins / n, 4)
        assert (row["ci_low"], row["ci_high"]) == (round(centre - half, 4),
                                                   round(centre + half, 4))
        assert row["avg_points"] == round(group.points_x.mean(), 4)

    # stratagems: uses and CP per stratagem.
    strats = pd.read_parquet(out / "w40k_stratagems.parquet")
    strats = strats[strats.undone == 0]
    for name, group in strats.groupby("name"):
        row = next(r for r in figures["stratagems"]["rows"]
                   if (r["dimension"], r["grp"]) == ("stratagem", name))
        assert (row["uses"], row["cp"], row["games"]) == (
            len(group), int(group.cost.sum()), group.game_id.nunique())

    # cp: gained, spent and lost per player per round.
    cp = pd.read_parquet(out / "w40k_cp.parquet")
    cp = cp[cp.undone == 0]
    for (player, round_), group in cp.groupby(["player", "round"]):
        row = next(r for r in figures["cp"]["rows"]
                   if (r["player"], r["round"]) == (player, round_))
        assert row["gained"] == int(group[group.kind == "gained"].amount.sum())
        assert row["spent"] == int(group[group.kind == "spent"].amount.sum())
        assert row["lost_to_cap"] == int(group.lost.sum())

    # ambush: arrivals per Game Turn, and those that lost Scoring.
    ambush = pd.read_parquet(out / "t9a_ambush.parquet")
    for turn, group in ambush.groupby("game_turn"):
        row = next(r for r in figures["ambush"]["rows"] if r["game_turn"] == turn)
        assert (row["arrivals"], row["scoring_lost"]) == (
            len(group), int((group.scoring == "lost").sum()))

    # dice: the faces per player and source, and the chi-square p-value.
    dice = pd.read_parquet(out / "dice.parquet")
    for (player, source), group in dice.groupby(["player", "source"]):
        row = next(r for r in figures["dice"]["rows"]
                   if (r["player"], r["source"]) == (player, source))
        counts = group.value.value_counts()
        faces = {str(f): int(counts.get(f, 0)) for f in range(1, 7)}
        expected = len(group) / 6
        statistic = sum((c - expected) ** 2 / expected for c in faces.values())
        assert row["faces"] == faces and row["chi2"] == round(statistic, 4)
        assert row["p_value"] == round(chi_square_p(statistic, 5), 4)


def test_plots_are_written_for_each_pictured_figure(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    pytest.importorskip("matplotlib")
    for name in ("results", "cp", "ambush", "dice", "stratagems"):
        picture = tmp_path / f"{name}.png"
        code, out, err = stats(capsys, db, name, "--plot", str(picture))
        assert code == 0, err
        assert picture.read_bytes().startswith(b"\x89PNG") and "wrote" in out
    code, _, err = stats(capsys, db, "rules", "--plot", str(tmp_path / "r.png"))
    assert code == 2 and "no picture of rules" in err


# -- views behind the log: a warning on stderr -----------------------------------------------
SMALL_GAME = """\
ruleset: w40k-10
board: {width: 48, height: 48}
players: [red, blue]
units:
  - {id: r1, owner: red, name: Intercessors, x: 10, y: 10, models: 10, keywords: [infantry]}
  - {id: b1, owner: blue, name: Guardsmen, x: 10, y: 30, models: 10, keywords: [infantry]}
steps:
  - {by: red, do: next_phase}
"""


def behind_warning(capsys: pytest.CaptureFixture[str], db: str) -> str:
    code, out, err = stats(capsys, db, "dice", "--json")
    assert code == 0, err
    assert "dice" in json.loads(out)  # the figures still print, from the tables as they are
    return err


def play_and_catch_up(tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "small.yaml"
    script.write_text(SMALL_GAME)
    assert main(["run", str(script), "--db", db]) == 0
    assert main(["views", db]) == 0
    capsys.readouterr()


def check_warns_when_behind(tmp_path: Path, db: str,
                            capsys: pytest.CaptureFixture[str]) -> None:
    play_and_catch_up(tmp_path, db, capsys)
    assert behind_warning(capsys, db) == ""  # caught up: not a word

    assert main(["step", db, "last", '{"by": "red", "do": "next_phase"}']) == 0
    assert main(["run", str(tmp_path / "small.yaml"), "--db", db]) == 0  # a second game
    capsys.readouterr()
    err = behind_warning(capsys, db)
    assert "the analytic tables are " in err and "events (2 games) behind the log" in err
    assert err.startswith("warledger: warning: the analytic tables are ")
    assert f"run `warledger views {redact(db)}` to catch up" in err and "Traceback" not in err

    assert main(["views", db]) == 0
    capsys.readouterr()
    assert behind_warning(capsys, db) == ""


def test_stats_warns_when_events_were_stored_after_the_last_views_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    check_warns_when_behind(tmp_path, str(tmp_path / "games.db"), capsys)


@pytest.mark.postgres
@pytest.mark.skipif(POSTGRES_URL is None, reason=POSTGRES_SKIP_REASON)
def test_stats_warns_when_the_postgresql_views_are_behind(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.dice_game import DICE  # noqa: F401  (the shared database holds other tests'
    #                                                  games of the test-dice rule set)

    assert POSTGRES_URL is not None
    check_warns_when_behind(tmp_path, POSTGRES_URL, capsys)


def test_an_unwritable_export_or_plot_is_one_clear_line(
        db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    for args in (["--export", str(blocker / "out")], ["dice", "--plot", str(blocker / "d.png")]):
        code, _, err = stats(capsys, db, *args)
        assert code == 2 and err.startswith(f"warledger: cannot write {blocker}/"), err
        assert "Not a directory" in err and "unexpected" not in err and err.count("\n") == 1


def test_explain_of_a_figure_without_rows_says_there_is_none(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "games.db")
    play_and_catch_up(tmp_path, db, capsys)  # one game: no refusals, no undos

    code, _, err = stats(capsys, db, "rules", "--explain", "1")
    assert (code, err) == (2, "warledger: rules has no rows in these games: there is no row "
                              "to explain\n")
    code, _, err = stats(capsys, db, "results", "--explain", "1")
    assert code == 2 and "results has no rows in these games" in err


def test_views_rebuild_projects_every_event_again(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`warledger views DB --rebuild`: every event again, the same position."""
    db = str(tmp_path / "games.db")
    play_and_catch_up(tmp_path, db, capsys)
    assert main(["views", db]) == 0
    assert "projected 0 new events" in capsys.readouterr().out
    assert main(["views", db, "--rebuild"]) == 0
    out = capsys.readouterr().out
    count = int(out.split("projected ")[1].split()[0])
    assert count > 0 and f"(position {count})" in out
