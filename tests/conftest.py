"""Shared fixtures: services on each backend, and a script runner.

Backends: `memory` always, `sqlite` in a temp file always, `postgres` when
WARLEDGER_TEST_POSTGRES holds a postgresql:// URL (`.ci/run` sets it).
"""

from __future__ import annotations

import os
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
settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

POSTGRES_URL = os.environ.get("WARLEDGER_TEST_POSTGRES")
BACKENDS = ["memory", "sqlite", *(["postgres"] if POSTGRES_URL else [])]


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


@pytest.fixture(params=BACKENDS)
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
