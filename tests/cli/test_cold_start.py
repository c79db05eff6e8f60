"""`warledger --help` starts fast: building the parser loads no heavy library
(docs/performance.md, cold start). Each handler imports what it needs when it runs, and a
command on one game loads that game's rule set only."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson
import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

#: Modules that must not be loaded just to build the parser and print the help.
HEAVY = ("shapely", "numpy", "eventsourcing", "pydantic", "events.registry", "events.core",
         "domain.state", "domain.ruleset", "replay.service", "rich", "matplotlib",
         "starlette", "uvicorn", "pyarrow", "yaml", "transitions")

PROBE = """
import contextlib, io, sys
import orjson
from warledger.cli import build_parser
parser = build_parser()
with contextlib.redirect_stdout(io.StringIO()) as out, contextlib.suppress(SystemExit):
    parser.parse_args(["--help"])
print(orjson.dumps({"help": out.getvalue(), "modules": sorted(sys.modules)}).decode())
"""


def loaded_by_help() -> tuple[str, set[str]]:
    """The help text, and every module loaded once it was printed (a fresh process)."""
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                          check=True)
    found = orjson.loads(done.stdout)
    return found["help"], set(found["modules"])


def test_help_loads_no_heavy_module() -> None:
    text, modules = loaded_by_help()
    assert "replay" in text and "simulate" in text and "stats" in text  # the real help
    heavy = sorted(m for m in modules if any(m == h or m.startswith(f"{h}.") for h in HEAVY))
    assert heavy == []


def test_a_handler_still_loads_what_it_needs() -> None:
    """The check above can fail: running a command does load the heavy modules."""
    probe = ("import sys\nfrom warledger.cli import main\n"
             "main(['schema', 'events'])\n"
             "print(' '.join(m for m in ('pydantic', 'events.registry') if m in sys.modules),"
             " file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True)
    assert done.stderr.split() == ["pydantic", "events.registry"]


def test_finding_a_rule_set_loads_only_that_one() -> None:
    """A command on one game loads its rule set, not the others; a name no entry of
    `events.rule_sets` has still loads them all (the error lists every one)."""
    probe = ("import contextlib, sys\nfrom domain.errors import ScriptError\n"
             "from domain.ruleset import find_ruleset\n"
             "with contextlib.suppress(ScriptError):\n    find_ruleset(sys.argv[1])\n"
             "print(' '.join(p for p in ('t9a', 'infinity', 'mageknight', 'w40k') "
             "if f'domain.{p}.rules' in sys.modules))")

    def loaded(name: str) -> list[str]:
        done = subprocess.run([sys.executable, "-c", probe, name], capture_output=True,
                              text=True, check=False)
        return done.stdout.split()

    assert loaded("w40k-10") == ["w40k"]
    assert loaded("infinity") == ["infinity"]  # an alias
    assert loaded("chess") == ["t9a", "infinity", "mageknight", "w40k"]


#: Modules a replay of a T9A game must not load: the other rule sets (facts and
#: rules), geometry libraries, YAML, the Mermaid drawing.
NOT_FOR_A_T9A_REPLAY = ("events.infinity", "events.mageknight", "events.w40k",
                        "domain.infinity", "domain.mageknight", "domain.w40k", "shapely",
                        "numpy", "yaml", "transitions.extensions.diagrams")

REPLAY_PROBE = """
import sys
import orjson
if sys.argv[1] == "all":
    from events.registry import every_fact_type
    every_fact_type()
from warledger.cli import main
code = main(sys.argv[2:])
print(orjson.dumps({"code": code, "modules": sorted(sys.modules)}).decode(), file=sys.stderr)
"""


@pytest.fixture(scope="module")
def t9a_db(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A store holding a T9A example game (24 events, an ambush among them),
    snapshotted every 5 events."""
    from replay.service import GameService
    from warledger.script import load_script, run_script

    class Snapshotting(GameService):
        snapshot_interval = 5

    db = tmp_path_factory.mktemp("cold") / "t9a.db"
    service = Snapshotting(str(db))
    result = run_script(service, load_script(EXAMPLES / "t9a-ambush-legal.yaml"))
    assert service.load(service.game_ids()[-1]).version == 24, result
    assert service.snapshots is not None and len(list(service.snapshots.get(
        service.game_ids()[-1], lte=24))) == 4
    service.close()
    return str(db)


def replayed(db: str, *args: str, preload: str = "none") -> tuple[str, set[str]]:
    """`warledger replay DB last ARGS` in a fresh process: its output and every module
    loaded by the end (`preload="all"` loads every fact module first)."""
    done = subprocess.run([sys.executable, "-c", REPLAY_PROBE, preload, "replay", db, "last",
                           *args], capture_output=True, text=True, check=True)
    found = orjson.loads(done.stderr.splitlines()[-1])
    assert found["code"] == 0
    return done.stdout, set(found["modules"])


def loaded(modules: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if any(m == n or m.startswith(f"{n}.") for n in names))


@pytest.mark.parametrize("at", ["3", "23"])  # before the first snapshot (at 5), after them
def test_replay_of_a_t9a_game_loads_only_its_rule_set(t9a_db: str, at: str) -> None:
    """`replay --at` reads the game's rule set's facts and rules only,
    and no shapely, numpy or YAML; the state shown is the one shown with every fact
    module loaded."""
    out, modules = replayed(t9a_db, "--at", at, "--json")
    assert loaded(modules, NOT_FOR_A_T9A_REPLAY) == []
    assert {"events.t9a", "domain.t9a.rules"} <= modules  # the check above can fail
    full, everything = replayed(t9a_db, "--at", at, "--json", preload="all")
    assert {"events.w40k", "events.infinity", "events.mageknight"} <= everything
    assert out == full and orjson.loads(out)["ruleset"] == "t9a"


def test_stats_as_json_loads_no_game_model(tmp_path: Path) -> None:
    """`stats --json` reads the analytic tables: no pydantic model, no pyarrow,
    matplotlib or Rich (docs/performance.md, cold start)."""
    from tests.analytics_data import synthetic_views

    db = tmp_path / "games.db"
    db.touch()
    synthetic_views(f"{db}.views", games=5)
    probe = ("import sys\nfrom warledger.cli import main\n"
             "code = main(['stats', sys.argv[1], '--ruleset', 'w40k-10', '--json'])\n"
             "print(code, ' '.join(sorted(sys.modules)), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", probe, str(db)], capture_output=True,
                          text=True, check=True)
    code, *modules = done.stderr.split()
    assert code == "0" and "results" in orjson.loads(done.stdout)
    assert loaded(set(modules), ("pydantic", "domain.state", "events", "shapely", "numpy",
                                 "pyarrow", "matplotlib", "rich", "eventsourcing")) == []


DECODE_PROBE = """
import sqlite3, sys
from replay.mapper import OrjsonTranscoder, PydanticMapper, as_uuid
rows = sqlite3.connect(sys.argv[1]).execute(
    f"select originator_id, originator_version, topic, state from {sys.argv[2]} "
    "order by originator_version desc").fetchall()
mapper = PydanticMapper(OrjsonTranscoder())
decoded = [mapper.decode_stored(as_uuid(i), v, t, s) for i, v, t, s in rows
           if sys.argv[2] == "stored_snapshots" or b"UnitArrivedFromAmbush" in s][:1]
print(type(getattr(decoded[0], "fact", decoded[0])).__name__)
print(" ".join(m for m in ("events.t9a", "events.w40k", "events.infinity")
               if m in sys.modules))
"""


@pytest.mark.parametrize(("table", "expected"), [
    # a snapshot names its rule set: the facts after it are of that rule set only
    ("stored_snapshots", ["GameSnapshot", "events.t9a"]),
    # a fact no loaded module defines, read with no GameStarted before it, loads
    # every rule set's facts: it is still read as its own class
    ("stored_events", ["UnitArrivedFromAmbush", "events.t9a events.w40k events.infinity"]),
])
def test_a_stored_event_is_decoded_with_the_fact_modules_it_needs(
        t9a_db: str, table: str, expected: list[str]) -> None:
    done = subprocess.run([sys.executable, "-c", DECODE_PROBE, t9a_db, table],
                          capture_output=True, text=True, check=True)
    assert done.stdout.splitlines() == expected


@pytest.mark.parametrize(("example", "ruleset"), [("infinity-cautious-aro.yaml", "infinity-n4"),
                                                   ("mageknight-benefits.yaml", "mageknight-2")])
def test_replay_of_an_infinity_or_mage_knight_game_loads_no_geometry_library(
        tmp_path: Path, example: str, ruleset: str) -> None:
    """Their sight and room searches import shapely on first use (`domain.deferred`):
    reading a game's state back needs none of it."""
    from replay.service import GameService
    from warledger.script import load_script, run_script

    db = str(tmp_path / "game.db")
    service = GameService(db)
    result = run_script(service, load_script(EXAMPLES / example))
    assert result["steps"] and result["steps"][0]["accepted"], result["steps"][:1]
    service.close()
    out, modules = replayed(db, "--at", "9", "--json")
    assert loaded(modules, ("shapely", "numpy")) == []
    assert orjson.loads(out)["ruleset"] == ruleset and orjson.loads(out)["units"]
