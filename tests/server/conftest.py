"""An app server on a fresh SQLite file, driven through Starlette's TestClient."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
# Starlette 1.x would rather have httpx2; httpx still drives its TestClient.
warnings.filterwarnings("ignore", message=".*httpx.*", category=Warning)

from starlette.testclient import TestClient  # noqa: E402

from domain.datafile import read_data_file  # noqa: E402
from warledger.server.app import create_app  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def setup_of(name: str) -> dict[str, Any]:
    """An example script's set-up (its steps left out)."""
    data = read_data_file(EXAMPLES / name)
    return {k: v for k, v in data.items() if k not in ("steps", "expect", "expect_state")}


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "games.db")


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with TestClient(create_app(db, max_body=64 * 1024)) as test_client:
        yield test_client


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client: TestClient, name: str = "t9a-turns.yaml") -> dict[str, Any]:
    response = client.post("/games", json=setup_of(name))
    assert response.status_code == 201, response.text
    return dict(response.json())


def stream_lines(client: TestClient, game: str, token: str,
                 last: int | None = None) -> list[tuple[int, dict[str, Any]]]:
    """The seat's stream up to now (`follow=0` ends it when caught up): (id, data)."""
    import orjson

    headers = auth(token) | ({"Last-Event-ID": str(last)} if last is not None else {})
    response = client.get(f"/games/{game}/stream?follow=0", headers=headers)
    assert response.status_code == 200, response.text
    out = []
    for block in response.text.split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line
                      and not line.startswith(":"))
        if "id" in fields:
            out.append((int(fields["id"]), orjson.loads(fields["data"])))
    return out
