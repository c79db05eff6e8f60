"""What `warledger stats` shows a reader: every digit when piped, the same columns
with or without rows, only the figures that apply to the games' rule sets, small
dice samples flagged, games and player-games apart, pictures that hide nothing,
and one line naming the extra a command needs."""

from __future__ import annotations

import json
import re
import sqlite3
import sys
from pathlib import Path
from typing import Any

import pytest

from domain.ruleset import Setup
from events.results import GameMetadata
from replay.service import GameService
from replay.stats import SPECS, Filters, Source, applying, dice_fit, figure
from tests.analytics_data import synthetic_views
from tests.cli.test_stats import published, stats
from tests.replay.test_analytics import accepted, play_examples
from warledger.cli import main
from warledger.cmd_stats import FIGURES


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = tmp_path / "games.db"
    path.touch()
    synthetic_views(f"{path}.views", games=40)
    return str(path)


def test_the_figures_are_the_same_list_here_and_in_the_command() -> None:
    assert tuple(SPECS) == FIGURES


def test_piped_stats_keep_every_digit_of_every_cell(
    db: str, capsys: pytest.CaptureFixture[str],
) -> None:
    """Not a terminal (capsys): no cell is cut short, whatever the width."""
    figures = published(capsys, db)
    code, out, _ = stats(capsys, db)
    assert code == 0 and "…" not in out
    for name, shown in figures.items():
        for row in shown["rows"]:
            for column, value in row.items():
                if isinstance(value, float):
                    assert re.search(rf"(?<![\d.]){re.escape(str(value))}(?![\d])", out), (
                        name, column, value)


def test_a_figure_without_rows_shows_the_columns_of_one_with_rows(
    db: str, capsys: pytest.CaptureFixture[str],
) -> None:
    source = Source(sqlite3.connect(f"{db}.views"))
    for name in FIGURES:
        rows = figure(source, name, Filters()).rows
        if rows:
            assert SPECS[name].columns([]) == list(rows[0]), name
    empty = published(capsys, db, "--since", "2999-01-01")
    for name, shown in empty.items():
        assert shown["rows"] == [] and shown["columns"] == SPECS[name].columns([]), name
    _, out, _ = stats(capsys, db, "results", "--since", "2999-01-01")
    assert "win_rate  ci_low  ci_high" in out


def test_without_rich_in_a_terminal_stats_prints_plain_tables(
    db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "rich", None)
    monkeypatch.setitem(sys.modules, "rich.console", None)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    code, out, err = stats(capsys, db, "cp")
    assert (code, err) == (0, "") and out.startswith("cp: 40k CP gained")


def test_in_a_terminal_rich_cells_fold_rather_than_cut(db: str) -> None:
    pytest.importorskip("rich")
    from warledger.cmd_stats import rich_table

    shown = figure(Source(sqlite3.connect(f"{db}.views")), "results", Filters())
    table = rich_table(shown)
    assert {column.overflow for column in table.columns[1:]} == {"fold"}
    from rich.console import Console

    from warledger.cmd_stats import fitted

    assert "wider than the terminal's 80 columns" in fitted(table, Console(width=80)).caption
    wide = fitted(rich_table(shown), Console(width=400))
    assert "wider" not in wide.caption


def test_a_dice_group_too_small_for_the_chi_square_test_is_flagged() -> None:
    """Fewer than 5 rolls expected per face: the p-value is flagged, not trusted."""
    few = [{"player": "red", "source": "digital", "sides": 6, "value": v, "count": c}
           for v, c in ((1, 2), (3, 3), (4, 2), (5, 1), (6, 2))]
    enough = [{**row, "player": "blue", "count": row["count"] * 3} for row in few]
    fitted = {row["player"]: row for row in dice_fit(few + enough)}
    assert fitted["red"]["dice"] == 10 and fitted["red"]["small_sample"] is True
    assert fitted["blue"]["dice"] == 30 and fitted["blue"]["small_sample"] is False
    assert fitted["red"]["expected_per_face"] == round(10 / 6, 4)
    assert "small_sample" in SPECS["dice"].note


def test_the_dice_picture_says_which_groups_are_too_small(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from warledger.stats_plot import dice_faces

    few = [{"player": "red", "source": "digital", "sides": 6, "value": v, "count": 2}
           for v in range(1, 6)]
    _, axes = plt.subplots()
    dice_faces(axes, dice_fit(few))
    labels = [text.get_text() for text in axes.get_legend().get_texts()]
    assert any("N=10" in label and "too few dice" in label for label in labels)
    plt.close("all")


def test_no_players_cp_line_hides_another_players() -> None:
    """Equal CP for red and blue: their lines are drawn apart, each in its own style."""
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from warledger.stats_plot import cp_per_round

    rows = [{"player": p, "round": r, "gained": 2, "spent": 1, "games": 1}
            for p in ("red", "blue") for r in (1, 2)]
    _, axes = plt.subplots()
    cp_per_round(axes, rows)
    lines = {line.get_label(): line for line in axes.get_lines()}
    red, blue = lines["red gained"], lines["blue gained"]
    assert list(red.get_xdata()) != list(blue.get_xdata())
    assert (red.get_color(), red.get_marker()) != (blue.get_color(), blue.get_marker())
    plt.close("all")


def test_the_stratagem_picture_draws_what_its_title_promises(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("matplotlib")
    import matplotlib.pyplot as plt

    titles: list[str] = []
    close = plt.close

    def keep_titles(fig: Any = None) -> None:
        if fig is not None and hasattr(fig, "axes"):
            titles.extend(a.get_title() for a in fig.axes)
            titles.append(fig.get_suptitle())
        close(fig)

    monkeypatch.setattr(plt, "close", keep_titles)
    code, _, err = stats(capsys, db, "stratagems", "--plot", str(tmp_path / "s.png"))
    assert code == 0, err
    assert "per stratagem, phase and round" in SPECS["stratagems"].title
    assert {"per stratagem", "per phase", "per round"} <= set(titles)


def test_results_count_games_player_games_and_mirror_games_apart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """A mirror match is one game, two player-games of its faction (a win and a loss)."""
    db = str(tmp_path / "g.db")
    service = GameService(db)
    orcs = {"faction": "Orcs"}
    setup = Setup(ruleset="t9a", board={"width": 72, "height": 48}, players=("red", "blue"),
                  metadata=GameMetadata.model_validate({"players": {"red": orcs,
                                                                    "blue": orcs}}))
    game_id = service.start(setup)
    accepted(service, game_id, {"by": "red", "do": "end_game", "result": {
        "winner": "red", "points": {"red": 12, "blue": 8}}})
    accepted(service, game_id, {"by": "blue", "do": "consent", "accept": True})
    assert main(["views", db]) == 0
    capsys.readouterr()
    rows = published(capsys, db, "results")["results"]["rows"]
    (orc,) = [r for r in rows if r["dimension"] == "faction"]
    assert (orc["games"], orc["player_games"], orc["mirror_games"]) == (1, 2, 1)
    assert (orc["wins"], orc["losses"], orc["win_rate"]) == (1, 1, 0.5)
    assert "mirror" in SPECS["results"].note


def test_only_the_figures_of_the_games_rule_sets_are_shown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """Infinity games have no CP, stratagems, Ambush or Mage Knight tables: the rule
    set's wiring table names none of their facts. JSON keeps every figure."""
    db = str(tmp_path / "g.db")
    play_examples(GameService(db), ["infinity-cautious-aro.yaml"])
    assert main(["views", db]) == 0
    capsys.readouterr()
    code, out, _ = stats(capsys, db)
    shown = set(re.findall(r"^(\w+): ", out, flags=re.M))
    assert code == 0 and shown == {"results", "aro", "rules", "dice"}
    _, out, _ = stats(capsys, db, "cp")
    assert out.startswith("cp: ")  # asked for by name: shown, with no rows
    assert set(published(capsys, db)) == set(FIGURES)
    assert applying(FIGURES, ["w40k-10"]) == ["results", "stratagems", "cp", "rules", "dice"]
    assert applying(FIGURES, []) == list(FIGURES)


def test_no_output_names_an_issue_number(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    _, text, _ = stats(capsys, db)
    _, data, _ = stats(capsys, db, "--json")
    assert not re.search(r"\bissue \d", text + data, flags=re.I)
    assert json.loads(data)


def test_a_missing_extra_is_one_line_naming_it(
    db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    for args in (("results", "--plot", "r.png"), ("--export", str(Path(db).parent / "x"))):
        code, _, err = stats(capsys, db, *args)
        lines = err.strip().splitlines()
        assert code == 2 and len(lines) == 1, err
        assert "pip install 'warledger[analytics]'" in lines[0] and "make extras" in lines[0]


def test_an_extras_module_missing_anywhere_is_one_line_naming_its_extra(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    from warledger import cli
    from warledger.extras import extra_of

    assert (extra_of("rich.console"), extra_of("starlette"), extra_of("psycopg_pool"),
            extra_of("yaml")) == ("analytics", "serve", "postgres", None)

    def missing(args: Any) -> int:
        raise RuntimeError("wrapped") from ModuleNotFoundError(
            "No module named 'uvicorn'", name="uvicorn")

    monkeypatch.setattr(cli, "build_parser", lambda: _parser_with(missing))
    assert main(["games"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "needs the serve extra" in err[0] and "uvicorn" in err[0]


def _parser_with(handler: Any) -> Any:
    import argparse

    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("games").set_defaults(handler=handler)
    return parser
