"""Shared fixtures: services on each backend, and a script runner.

Backends: `memory` and `sqlite` (a temp file) always, and `postgres` on the
server WARLEDGER_TEST_POSTGRES names (a postgresql:// URL; `make test` and
`.ci/run` start a throwaway one and set it). The PostgreSQL tests are always
collected: with the variable unset, or set to `skip` (the explicit opt-out),
they are skipped, and the summary says how many were.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from hypothesis import settings

from domain.game import Game
from replay.service import GameService
from warledger.script import parse_script, run_script

# CI runs the property tests with a fixed derandomised seed, so a run is
# repeatable and cannot turn red by chance; locally they explore at random.
# No property test has a deadline: how fast is a benchmark's question (bench/), and
# on a shared machine a first example's 200 ms limit fails a correct test at random.
settings.register_profile("default", deadline=None)
settings.register_profile("ci", derandomize=True, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "default")

# A keyed service lists the games it signs in the key's signed-games record
# (`replay.signed_games`): the tests keep theirs in a throwaway folder, never in $HOME
# (a test that needs its own sets WARLEDGER_SIGNED_GAMES itself).
os.environ.setdefault("WARLEDGER_SIGNED_GAMES", os.path.join(
    tempfile.mkdtemp(prefix="warledger-signed-games-"), "signed-games.jsonl"))

#: The PostgreSQL server of the tests, or None (no variable, or the opt-out `skip`).
POSTGRES_URL: str | None = os.environ.get("WARLEDGER_TEST_POSTGRES") or None
POSTGRES_OPT_OUT = POSTGRES_URL == "skip"
if POSTGRES_OPT_OUT:
    # Test modules read the variable too: to them the opt-out is "no server".
    del os.environ["WARLEDGER_TEST_POSTGRES"]
    POSTGRES_URL = None
POSTGRES_SKIP_REASON = (
    "WARLEDGER_TEST_POSTGRES=skip (opted out of the PostgreSQL tests)" if POSTGRES_OPT_OUT
    else "WARLEDGER_TEST_POSTGRES is not set (`make test` starts a server itself)"
)
#: The backends with a store to test on (plain names).
BACKENDS = ["memory", "sqlite", *(["postgres"] if POSTGRES_URL else [])]


def backend_params(*names: str) -> list[Any]:
    """Test parameters for these backends: `postgres` is always collected, marked
    `postgres`, and skipped (counted in the summary) when there is no server."""
    skip = [] if POSTGRES_URL else [pytest.mark.skip(reason=POSTGRES_SKIP_REASON)]
    return [pytest.param(name, marks=[pytest.mark.postgres, *skip]) if name == "postgres"
            else name for name in names]


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Say how many PostgreSQL tests were skipped, and why (never silently)."""
    skipped = [r for r in terminalreporter.stats.get("skipped", [])
               if "postgres" in getattr(r, "keywords", {})]
    if skipped:
        terminalreporter.write_line(
            f"{len(skipped)} PostgreSQL tests skipped: {POSTGRES_SKIP_REASON}", yellow=True)


def make_service(backend: str, tmp_path: Path) -> GameService:
    """A fresh service on the named backend."""
    if backend == "memory":
        return GameService(":memory:")
    if backend == "sqlite":
        return GameService(str(tmp_path / "games.db"))
    assert POSTGRES_URL is not None
    return GameService(POSTGRES_URL)


@pytest.fixture
def service() -> Iterator[GameService]:
    """An in-memory service (unit tests)."""
    svc = GameService(":memory:")
    yield svc
    svc.close()


@pytest.fixture(params=backend_params("memory", "sqlite", "postgres"))
def backend_service(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[GameService]:
    """A service on every available backend (contract tests)."""
    svc = make_service(request.param, tmp_path)
    yield svc
    svc.close()


Play = Callable[[dict[str, Any]], dict[str, Any]]


@pytest.fixture
def play(service: GameService) -> Play:
    """Run a script given as a dict; the CONTRACT result (state included)."""

    def run(script: dict[str, Any]) -> dict[str, Any]:
        return run_script(service, parse_script(script))

    return run


@pytest.fixture
def game_of(service: GameService) -> Callable[[dict[str, Any]], Game]:
    """The Game object of a result returned by `play`."""

    def get(result: dict[str, Any]) -> Game:
        return service.load(UUID(result["game_id"]))

    return get
