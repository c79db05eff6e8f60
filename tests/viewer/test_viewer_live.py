"""The viewer a server serves updates live from the seat's stream, and shows
the seat's refused attempts (Debian's Chromium, driven by Playwright)."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import pytest

from .conftest import Page

pytest.importorskip("starlette")


def count_rows(page: Page) -> int:
    try:
        return int(page.page.evaluate("document.querySelectorAll('#log li').length"))
    except Exception:  # the page is reloading
        return 0


def test_the_served_viewer_follows_the_game_and_shows_refusals(
        tmp_path: Path, page: Page) -> None:
    from tests.server.conftest import setup_of
    from tests.server.live import ServeProcess

    server = ServeProcess(str(tmp_path / "games.db"))
    try:
        game = httpx.post(f"{server.url}/games", json=setup_of("t9a-turns.yaml")).json()
        gid, seats = game["game"], game["seats"]

        def play(by: str, do: str) -> int:
            return httpx.post(f"{server.url}/games/{gid}/commands", json={"do": do},
                              headers={"Authorization": f"Bearer {seats[by]}"}).status_code

        assert play("red", "next_phase") == 200
        assert play("blue", "next_phase") == 422  # refused: kept as blue's attempt
        page.page.goto(f"{server.url}/games/{gid}/viewer?token={seats['blue']}#step=99")
        page.page.wait_for_selector("#log li.current")
        rows = count_rows(page)
        log = page.page.inner_text("#log")
        assert "refused: CORE-NOT-YOUR-TURN" in log
        assert log.index("red next phase") < log.index("blue next phase")  # in its order
        page.shot("served-viewer-refusal")

        assert play("red", "next_phase") == 200
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and count_rows(page) <= rows:
            time.sleep(0.1)  # the page reloads itself when the new fact comes
        page.page.wait_for_selector("#log li.current")
        assert count_rows(page) == rows + 1
        assert page.step() == 2  # it was at the last step, so it follows to the new one
        page.shot("served-viewer-live")
        page.page.goto("about:blank")  # close the page's stream before the server stops
    finally:
        server.stop()
