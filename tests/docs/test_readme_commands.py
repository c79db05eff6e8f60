"""Every command the README shows runs after its first set-up command (`make demo`,
which installs the base package only), or exits 2 with a one-line hint naming the
extra it needs: never a traceback.

The base install is simulated: a `warledger` on PATH whose interpreter cannot
import any module of an extra (the modules pyproject.toml lists under
`[project.optional-dependencies]`, read from the installed package's metadata).
Commands marked as needing a PostgreSQL server are exempt. Two commands are made
smaller (the sense is the same): `simulate` plays 2 games, not 100 or 1,000,
and `--explain` asks for row 1 of the small corpus.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from warledger.extras import extras

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
#: The mark of a command that needs a PostgreSQL server (exempt).
NEEDS_POSTGRES = "needs a PostgreSQL server"
#: Modules only the dev extra brings, besides the other extras' (never needed by the CLI).
DEV_ONLY = ("pandas", "httpx", "playwright", "hypothesis")
BASE_CLI = """
import importlib.abc, sys
BLOCKED = frozenset(sys.argv.pop(1).split(","))
class NotInstalled(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, NotInstalled())
from warledger.cli import main
sys.exit(main(sys.argv[1:]))
"""


def sh_lines() -> list[str]:
    """The lines of the README's `sh` blocks."""
    lines, inside = [], False
    for line in README.read_text().splitlines():
        if line.startswith("```"):
            inside = line.strip() == "```sh"
            continue
        if inside:
            lines.append(line)
    return lines


def with_options(line: str) -> str | None:
    """The command with its optional flags given (those that take no placeholder,
    e.g. `[--in-progress]`); None when it has none."""
    given = re.sub(r"\[(--[a-z-]+)\]", r"\1", line)
    return None if given == line else re.sub(r"\s*\[[^\]]*\]", "", given)


def commands() -> list[str]:
    """Every `warledger` command of the README after `make demo`, made runnable:
    comments dropped, optional `[...]` parts left out, `A|B` choices as A, SCRIPT
    as an example script, a `for` loop's body once per value, /tmp/ as the test's
    own folder."""
    return [command for command, _ in command_pairs()]


def command_pairs() -> list[tuple[str, str | None]]:
    """Each command, and the same with its optional flags given (`with_options`)."""
    found: list[tuple[str, str | None]] = []
    loop: list[str] | None = None
    for raw in sh_lines():
        line = raw.strip()
        if match := re.match(r"for (\w+) in (.+); do$", line):
            loop = [match.group(1), *match.group(2).split()]
            continue
        if line == "done":
            loop = None
            continue
        if not line.startswith("warledger ") or NEEDS_POSTGRES in line:
            continue
        line = re.sub(r"\s+#\s.*$", "", line)
        line = re.sub(r"\b([a-z]+)\|[a-z]+\b", r"\1", line)
        line = line.replace("SCRIPT", "examples/t9a-turns.yaml")
        line = re.sub(r"--games \d+", "--games 2", line).replace("--explain 5", "--explain 1")
        given = with_options(line)
        line = re.sub(r"\s*\[[^\]]*\]", "", line)
        if loop is None:
            found.append((line, given))
        else:
            found += [(line.replace(f"${loop[0]}", value), given) for value in loop[1:]]
    return found


def test_the_readme_marks_every_postgresql_command() -> None:
    for line in sh_lines():
        if line.strip().startswith("warledger ") and "postgresql://" in line:
            assert NEEDS_POSTGRES in line, line


def test_the_command_list_covers_the_readme() -> None:
    found = commands()
    assert len(found) >= 40
    for needle in ("warledger stats games.db", "warledger serve --db games.db",
                   "--plot docs/img/simulated-results.png", "warledger simulate w40k-10",
                   "warledger schema script"):
        assert any(needle in command for command in found), needle
    assert not any("[" in c or "SCRIPT" in c or "$r" in c for c in found)


@pytest.fixture
def base_install(tmp_path: Path) -> dict[str, str]:
    """A folder with the README's files at hand, and a PATH whose `warledger` has
    only the base install's modules."""
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    (tmp_path / "docs" / "img").mkdir(parents=True)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    blocked = ",".join(sorted({*extras(), *DEV_ONLY}))
    program = bin_dir / "warledger"
    program.write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} -c "
                       f"{shlex.quote(BASE_CLI)} {blocked} \"$@\"\n")
    program.chmod(0o755)
    return {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
            "PYTHONPATH": str(ROOT), "COLUMNS": "80"}


def test_every_readme_command_runs_or_names_its_extra(
    tmp_path: Path, base_install: dict[str, str],
) -> None:
    """After `make demo` (`warledger demo`): each command exits 0 (or 1, a refused
    step), or 2 with one line naming the extra to install."""
    def run(command: str) -> subprocess.CompletedProcess[str]:
        command = command.replace("/tmp/", f"{tmp_path}/")
        return subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=tmp_path,
                              env=base_install, capture_output=True, text=True, timeout=300)

    assert run("warledger demo").returncode == 0
    hinted = []
    for command, given in command_pairs():
        done = run(command)
        assert "Traceback" not in done.stderr and "unexpected" not in done.stderr, (
            command, done.stderr)
        lines = done.stderr.strip().splitlines()
        if done.returncode == 2 and "pip install 'warledger[" in "".join(lines[:1]):
            assert len(lines) == 1, (command, lines)
            hinted.append((command, lines[0]))
        elif done.returncode == 2 and given is not None:  # e.g. reveal: [--in-progress]
            assert len(lines) == 1 and run(given).returncode in (0, 1), (command, lines)
        else:
            assert done.returncode in (0, 1), (command, done.returncode, done.stderr)
    extras_named = {re.search(r"warledger\[(\w+)\]", line).group(1)  # type: ignore[union-attr]
                    for _, line in hinted}
    assert extras_named == {"analytics", "serve"}, hinted
    shown = run("warledger stats games.db")
    assert shown.returncode == 0 and "results: Win rate" in shown.stdout  # plain, no Rich
