"""Many app servers on one PostgreSQL: a command sent to server A shows
on a stream held on server B; kill -9 of a server loses nothing, and a client that
reconnects to the other with Last-Event-ID misses and repeats nothing."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import orjson
import pytest

from tests.conftest import POSTGRES_SKIP_REASON, POSTGRES_URL
from tests.server.conftest import setup_of
from tests.server.live import ServeProcess, StreamClient

pytestmark = [pytest.mark.postgres,
              pytest.mark.skipif(POSTGRES_URL is None, reason=POSTGRES_SKIP_REASON)]


@pytest.fixture
def servers() -> Iterator[list[ServeProcess]]:
    assert POSTGRES_URL is not None
    started: list[ServeProcess] = []
    try:
        started = [ServeProcess(POSTGRES_URL), ServeProcess(POSTGRES_URL)]
        yield started
    finally:
        for server in started:
            server.stop()


def post(url: str, token: str, body: dict[str, object]) -> httpx.Response:
    return httpx.post(url, json=body, headers={"Authorization": f"Bearer {token}"},
                      timeout=10)


def test_a_command_to_a_shows_on_bs_stream_and_survives_kill_9(
        servers: list[ServeProcess]) -> None:
    a, b = servers
    created = httpx.post(f"{a.url}/games", json=setup_of("t9a-turns.yaml"), timeout=10)
    assert created.status_code == 201, created.text
    game = created.json()
    gid, seats = game["game"], game["seats"]
    blue = StreamClient(gid, seats["blue"])
    blue.follow(b.url)
    start = httpx.get(f"{b.url}/games/{gid}",
                      headers={"Authorization": f"Bearer {seats['blue']}"}).json()["head"]
    blue.wait_for(start["n"])

    moved = post(f"{a.url}/games/{gid}/commands", seats["red"], {"do": "next_phase"})
    assert moved.status_code == 200, moved.text
    seen = blue.wait_for(start["n"] + 1)  # blue's next event: red's step, via B
    assert seen["n"] == start["n"] + 1
    assert (seen["fact"]["type"], seen["fact"]["by"]) == ("StepTaken", "red")

    # kill -9 the server holding blue's stream while red keeps playing on A.
    b.kill()
    assert blue.broken.wait(10)
    for _ in range(3):
        response = post(f"{a.url}/games/{gid}/commands", seats["red"], {"do": "next_phase"})
        assert response.status_code == 200, response.text
    blue.follow(a.url)  # reconnects to the other server, Last-Event-ID = the last id seen
    export = httpx.get(f"{a.url}/games/{gid}/export",
                       headers={"Authorization": f"Bearer {seats['blue']}"}).text
    lines = [orjson.loads(line) for line in export.splitlines()]
    blue.wait_for(lines[-1]["n"])
    assert blue.ids == [line["n"] for line in lines]  # nothing missed, nothing repeated
