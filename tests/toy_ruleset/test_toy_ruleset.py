"""A fifth rule set, installed as its own distribution, is played, verified, replayed,
audited, viewed, counted and asked for options with no edit outside its folder.

The distribution's metadata (its `warledger.rule_sets` entry point, as pip would
install it from tests/toy_ruleset/pyproject.toml) is written to a folder on the
path of a fresh `warledger` process, beside the package itself."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment of a process that has the toy distribution installed."""
    site = tmp_path_factory.mktemp("site")
    info = site / "warledger_toy-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: warledger-toy\n"
                                   "Version: 0.1.0\n")
    (info / "entry_points.txt").write_text("[warledger.rule_sets]\n"
                                           "pawns = warledger_toy:ENTRY\n")
    return {**os.environ, "PYTHONPATH": os.pathsep.join((str(HERE), str(site), str(ROOT)))}


def warledger(env: dict[str, str], *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "warledger.cli", *argv], env=env,
                          capture_output=True, text=True, timeout=120, check=False)


@pytest.fixture(scope="module")
def db(env: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("games") / "pawns.db")
    played = warledger(env, "run", str(HERE / "game.yaml"), "--db", path)
    assert played.returncode == 0, played.stderr  # a script may hold refused steps
    assert "REFUSED PAWN-1: r1 has already stepped this round" in played.stdout
    return path


def test_a_game_of_it_is_played_and_verified(env: dict[str, str], db: str) -> None:
    checked = warledger(env, "verify", db, "last")

    assert checked.returncode == 0, checked.stderr
    assert checked.stdout.startswith("ok: 12 events, 4 steps")


def test_it_is_replayed_audited_and_exported(env: dict[str, str], db: str) -> None:
    replayed = warledger(env, "replay", db, "last", "--step", "1", "--json")
    audit = warledger(env, "audit", db, "last", "--attempts")
    export = warledger(env, "export", db, "last", "--as", "blue")

    assert replayed.returncode == audit.returncode == export.returncode == 0
    view = orjson.loads(replayed.stdout)
    assert (view["ruleset"], view["units"]["r1"]["x"], view["units"]["r1"]["y"]) == (
        "pawns", 3.5, 3.0)
    assert "refused PAWN-1" in audit.stdout
    assert [orjson.loads(line)["fact"]["type"] for line in export.stdout.splitlines()
            ].count("PawnStepped") == 2


def test_it_is_viewed_and_counted(env: dict[str, str], db: str, tmp_path: Path) -> None:
    page = tmp_path / "pawns.html"
    viewed = warledger(env, "viewer", db, "last", "-o", str(page))
    views = warledger(env, "views", db)
    games = warledger(env, "games", db)

    assert viewed.returncode == 0, viewed.stderr
    html = page.read_text()
    assert "pawns: red v blue" in html and "step r1 at (3.5, 3)" in html
    assert views.returncode == 0, views.stderr
    assert "projected 12 new events" in views.stdout
    assert games.returncode == 0 and " pawns " in games.stdout


def test_its_options_come_from_its_own_gate(env: dict[str, str], db: str) -> None:
    asked = warledger(env, "options", db, "last", "--as", "red", "--json")

    assert asked.returncode == 0, asked.stderr
    steps = [o for o in orjson.loads(asked.stdout)["options"] if o["do"] == "step"]
    assert [(o["command"]["unit"], o["geometry"]["constraint"]["max_length"],
             o["geometry"]["remaining"]) for o in steps] == [("r1", 2.0, ["PAWN-1"])]


def test_nothing_outside_its_folder_names_it() -> None:
    """No file of warledger's own (code, tests, configuration) names the toy rule set:
    everything above came through its entry point. (docs/extending.md walks through
    this folder, and names it.)"""
    named = []
    for path in ROOT.rglob("*"):
        if (not path.is_file() or HERE in path.parents or ".venv" in path.parts
                or ".git" in path.parts or path.suffix not in {".py", ".toml", ".yaml",
                                                             ".cfg", ".json", ".txt"}):
            continue
        text = path.read_text(errors="ignore")
        if "warledger_toy" in text or "pawns" in text.lower():
            named.append(str(path.relative_to(ROOT)))

    assert named == []
