"""32 processes opening an empty PostgreSQL store together all succeed:
the schema is set up under an advisory lock, so no two create it at once."""

from __future__ import annotations

import multiprocessing
import os
import uuid
from collections.abc import Iterator

import pytest

POSTGRES_URL = os.environ.get("WARLEDGER_TEST_POSTGRES", "")

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(not POSTGRES_URL, reason="WARLEDGER_TEST_POSTGRES is not set"),
]

PROCESSES = 32


@pytest.fixture
def empty_schema() -> Iterator[str]:
    """A fresh, empty schema of the test database (dropped afterwards)."""
    import psycopg

    name = f"cold_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {name}")
    yield name
    with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA {name} CASCADE")


def open_and_play(schema: str, go: multiprocessing.synchronize.Event,  # type: ignore[name-defined]
                  results: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    """One client: wait for the start signal, open the store, start a game."""
    from domain.ruleset import Setup
    from replay.service import GameService

    go.wait()
    try:
        service = GameService(POSTGRES_URL, env={"POSTGRES_SCHEMA": schema})
        game_id = service.start(Setup(ruleset="w40k-10", board={"width": 44, "height": 60},
                                      players=("red", "blue")))
        service.close()
        results.put("ok" if game_id else "no game")
    except Exception as error:  # the test reports every failure by its class and words
        results.put(f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}")


def test_32_processes_open_an_empty_store_together(empty_schema: str) -> None:
    import replay.service  # noqa: F401  (imported once, before the fork)
    from domain.ruleset import load_rulesets

    load_rulesets()

    context = multiprocessing.get_context("fork")
    go = context.Event()
    results = context.Queue()
    clients = [context.Process(target=open_and_play, args=(empty_schema, go, results))
               for _ in range(PROCESSES)]
    for client in clients:
        client.start()
    go.set()
    outcomes = [results.get(timeout=120) for _ in clients]
    for client in clients:
        client.join(timeout=30)

    assert outcomes == ["ok"] * PROCESSES, sorted(set(outcomes))
