"""The analytics stay current from the subscription: `warledger
views URL --follow` beside `warledger serve` on one PostgreSQL. A command played
through HTTP shows in the analytic tables and the state views within seconds; a
follower killed with kill -9 and restarted counts nothing twice; two followers at
once are safe (the advisory lock and the tracking check, `replay.pg_views`)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from tests.conftest import POSTGRES_SKIP_REASON, POSTGRES_URL
from tests.server.conftest import setup_of
from tests.server.live import ROOT, ServeProcess

pytestmark = [pytest.mark.postgres,
              pytest.mark.skipif(POSTGRES_URL is None, reason=POSTGRES_SKIP_REASON)]
#: How long a committed command may take to reach the tables (the goal is well under 1 s).
WITHIN = 10.0


#: `warledger views URL --follow`, in a process that also knows the test-only rule set
#: (other tests leave test-dice games in the shared test database).
FOLLOW = ("import sys; import tests.dice_game; from warledger.cli import main; "
          "sys.exit(main(['views', sys.argv[1], '--follow']))")


class Follower:
    """One `warledger views URL --follow` process."""

    def __init__(self, url: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", FOLLOW, url],
            cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert self.process.stdout is not None
        for _ in range(2):  # "projected N new events …", then "following: …"
            line = self.process.stdout.readline()
            assert line, self.process.stderr.read()  # type: ignore[union-attr]
        assert line.startswith("following"), line

    def kill(self) -> None:
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> str:
        """SIGTERM: a clean stop; the follower's last words."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        out, err = self.process.communicate(timeout=30)
        assert self.process.returncode == 0, err
        return out


@pytest.fixture
def pg_views() -> Iterator[Any]:
    from replay.pg_views import PgViews

    assert POSTGRES_URL is not None
    views = PgViews(POSTGRES_URL)
    views.drop()
    yield views
    views.close()


@pytest.fixture
def server() -> Iterator[ServeProcess]:
    assert POSTGRES_URL is not None
    serve = ServeProcess(POSTGRES_URL)
    yield serve
    serve.stop()


def query(views: Any, sql: str, *params: Any) -> list[dict[str, Any]]:
    with views.recorder.datastore.transaction(commit=False) as curs:
        curs.execute(sql, params)
        return list(curs.fetchall())


def eventually(check: Callable[[], bool], within: float = WITHIN) -> float:
    """Seconds until `check` holds (fails after `within`)."""
    began = time.monotonic()
    while not check():
        assert time.monotonic() - began < within, "the views did not catch up in time"
        time.sleep(0.02)
    return time.monotonic() - began


class Table:
    """A game created over HTTP, and its red player's commands."""

    def __init__(self, server: ServeProcess) -> None:
        self.url = server.url
        created = httpx.post(f"{self.url}/games", json=setup_of("t9a-turns.yaml"), timeout=10)
        assert created.status_code == 201, created.text
        self.game, self.seats = created.json()["game"], created.json()["seats"]

    def next_phase(self, views: Any) -> int:
        """red's `next_phase`, accepted; the game's last event number after it."""
        response = httpx.post(f"{self.url}/games/{self.game}/commands", json={"do": "next_phase"},
                              headers={"Authorization": f"Bearer {self.seats['red']}"},
                              timeout=10)
        assert response.status_code == 200, response.text
        assert response.json()["accepted"] is True, response.text
        rows = query(views, "select max(originator_version) as v from warledger_events "
                     "where originator_id = %s", self.game)
        return int(rows[0]["v"])


def steps_of(views: Any, game: str) -> tuple[int, int, int]:
    """(rows in `steps`, distinct event numbers among them, the games row's count)."""
    rows = query(views, "select count(*) as n, count(distinct event_no) as d from steps "
                 "where game_id = %s", game)
    games = query(views, "select steps from games where game_id = %s", game)
    return int(rows[0]["n"]), int(rows[0]["d"]), int(games[0]["steps"]) if games else 0


def state_version(views: Any, game: str) -> int:
    rows = query(views, "select version from state_views where game_id = %s", game)
    return int(rows[0]["version"]) if rows else 0


def test_a_command_through_http_reaches_the_followed_views_and_kill_9_counts_nothing_twice(
    pg_views: Any, server: ServeProcess,
) -> None:
    follower = Follower(str(POSTGRES_URL))
    try:
        table = Table(server)
        head = table.next_phase(pg_views)
        took = eventually(lambda: steps_of(pg_views, table.game)[0] == 1
                          and state_version(pg_views, table.game) == head)
        assert took < WITHIN
        assert steps_of(pg_views, table.game) == (1, 1, 1)

        follower.kill()  # kill -9: whatever it held in memory is gone
        for _ in range(3):
            head = table.next_phase(pg_views)
        assert steps_of(pg_views, table.game)[0] == 1  # nobody follows now
        follower = Follower(str(POSTGRES_URL))  # resumes from the tables' tracking
        eventually(lambda: steps_of(pg_views, table.game)[0] == 4
                   and state_version(pg_views, table.game) == head)
        assert steps_of(pg_views, table.game) == (4, 4, 4)
        head = table.next_phase(pg_views)
        eventually(lambda: state_version(pg_views, table.game) == head)
        assert steps_of(pg_views, table.game) == (5, 5, 5)
    finally:
        last_words = follower.stop()
    assert "stopped at position" in last_words
    assert pg_views.position() == pg_views.recorder.head()


def test_two_followers_at_once_count_each_event_once(pg_views: Any, server: ServeProcess) -> None:
    from tests.replay.test_analytics import pg_dump

    followers = [Follower(str(POSTGRES_URL)), Follower(str(POSTGRES_URL))]
    try:
        tables = [Table(server), Table(server)]
        head = 0
        for _ in range(4):
            for table in tables:
                head = table.next_phase(pg_views)
        for table in tables:
            eventually(lambda t=table: steps_of(pg_views, t.game)[0] == 4)  # type: ignore[misc]
            assert steps_of(pg_views, table.game) == (4, 4, 4)
        eventually(lambda: state_version(pg_views, tables[-1].game) == head)
        assert all(f.process.poll() is None for f in followers)  # both still following
    finally:
        for follower in followers:
            follower.stop()
    followed = pg_dump(pg_views)
    pg_views.drop()
    pg_views.run()
    assert pg_dump(pg_views) == followed  # exactly what a rebuild from scratch writes
