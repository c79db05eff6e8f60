"""`warledger --help` starts fast: building the parser loads no heavy library
(issue 12 item 3). Each handler imports what it needs when it runs."""

from __future__ import annotations

import subprocess
import sys

import orjson

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
