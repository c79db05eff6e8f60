"""Over HTTP, a player naming a unit hidden from them is answered exactly as one naming
an id no unit has: the same status and the same body, byte for byte, for every command
type of every rule set, in every position probed (`tests/hidden_probes.py`; principle
5, INTERPRETATIONS CORE-OWNER). Both games are played through the server, with the
seats' tokens; a probe that is accepted is answered on a fresh copy of the store, so
the next probe finds the same position."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

import warledger.server.app
from tests.hidden_probes import (
    OWNER,
    PROBER,
    RULE_SETS,
    SPY,
    Probe,
    comparable,
    games_of_engine_version_1,
    positions,
    probes,
    setup,
)
from tests.server.conftest import auth
from warledger.server.app import create_app


@pytest.fixture(autouse=True)
def engine_version_1(monkeypatch: pytest.MonkeyPatch) -> None:
    games_of_engine_version_1(monkeypatch)


@pytest.fixture(autouse=True)
def same_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Both games roll the same digital dice: the server keeps the set-up's seed."""
    monkeypatch.setattr(warledger.server.app, "with_secret_seed", lambda setup: setup)


@contextmanager
def serving(db: Path) -> Iterator[TestClient]:
    with TestClient(create_app(str(db))) as client:
        yield client


Game = tuple[str, dict[str, str]]  # the game's id, each seat's token


def started(client: TestClient, ruleset: str, hidden_id: str,
            steps: list[dict[str, Any]]) -> Game:
    """Game A (`spy` hidden) or B (the hidden unit under another id), at a position."""
    response = client.post("/games", json=setup(ruleset, hidden_id=hidden_id))
    assert response.status_code == 201, response.text
    created = response.json()
    game, tokens = created["game"], created["seats"]
    for step in steps:
        done = client.post(f"/games/{game}/commands", json=step,
                           headers=auth(tokens[step["by"]]))
        assert done.status_code == 200, (step, done.text)
    return game, tokens


def answer(client: TestClient, game: Game, probe: Probe, ruleset: str) -> tuple[int, str]:
    game_id, tokens = game
    response = client.post(f"/games/{game_id}/commands", json=probe.data,
                           headers=auth(tokens[PROBER]))
    return response.status_code, comparable(ruleset, response.text)


def copy_store(db: Path, to: Path) -> None:
    """A copy of a server's store: the games and the seats' file, with their logs."""
    for path in db.parent.glob(f"{db.name}*"):
        shutil.copyfile(path, to.parent / (to.name + path.name[len(db.name):]))


class Fresh:
    """A server on a copy of a stored position, served again from a new copy after
    each accepted probe."""

    def __init__(self, pristine: Path, work: Path) -> None:
        self.pristine, self.work = pristine, work
        self.client = self._open()

    def _open(self) -> TestClient:
        copy_store(self.pristine, self.work)
        client = TestClient(create_app(str(self.work)))
        client.__enter__()
        return client

    def again(self) -> None:
        self.close()
        self.client = self._open()

    def close(self) -> None:
        self.client.__exit__(None, None, None)


@pytest.mark.parametrize("ruleset", RULE_SETS)
def test_http_answers_a_hidden_unit_as_no_unit(ruleset: str, tmp_path: Path) -> None:
    no_unit = f"there is no unit '{SPY}' in this game"
    told_no_unit = 0
    for number, (position, steps) in enumerate(positions(ruleset).items()):
        pristine = tmp_path / f"{number}.db"
        with serving(pristine) as client:
            games = [started(client, ruleset, hidden_id, steps)
                     for hidden_id in (SPY, f"{SPY}-b")]
        server = Fresh(pristine, tmp_path / f"{number}-work.db")
        try:
            for probe in probes(ruleset):
                hidden, absent = (answer(server.client, game, probe, ruleset) for game in games)
                assert hidden == absent, f"{ruleset}, {position}: {probe.name} tells them apart"
                told_no_unit += hidden[0] == 422 and no_unit in hidden[1]
                if hidden[0] == 200:
                    server.again()
        finally:
            server.close()
    assert told_no_unit >= len(positions(ruleset)), "no probe named the hidden unit"


def test_the_owner_is_told_of_their_own_hidden_unit(tmp_path: Path) -> None:
    """The probes can fail: blue, who owns `spy`, is not told it is missing."""
    with serving(tmp_path / "g.db") as client:
        game_id, tokens = started(client, "infinity-n4", SPY, [])
        response = client.post(f"/games/{game_id}/commands",
                               json={"do": "pass", "trooper": SPY},
                               headers=auth(tokens[OWNER]))
    assert response.status_code == 422
    assert response.json()["rule"] == "CORE-NO-WINDOW"
