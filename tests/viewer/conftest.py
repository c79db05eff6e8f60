"""Viewer fixtures: stored games (every example, a long game), the HTML files, and a
real Chromium from Debian's packages driven by Playwright.

The browser tests need /usr/bin/chromium (`make test` and `.ci/run` install it with
apt). Without it they fail, naming the fix, unless WARLEDGER_TEST_BROWSER=skip.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from replay.service import GameService
from warledger.script import load_script, run_script

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))
#: Screenshots the browser tests take, kept for people to look at.
ARTEFACTS = ROOT / "out" / "viewer"
CHROMIUM = os.environ.get("WARLEDGER_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
#: Flags that keep a headless Chromium off the network and quiet on this machine.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]


def store_example(service: GameService, path: Path) -> UUID:
    """Play an example script into the service; its game id."""
    result = run_script(service, load_script(path))
    return UUID(result["game_id"])


def example_db(folder: Path, name: str) -> Path:
    """An SQLite store in `folder` holding the example script `name`'s game."""
    db = folder / "games.db"
    service = GameService(str(db))
    store_example(service, ROOT / "examples" / name)
    service.close()
    return db


def long_game(service: GameService, events: int = 2000) -> UUID:
    """A Mage Knight game of at least `events` events: moves, undone by consent,
    now and then redone, with turns passing."""
    script = load_script(ROOT / "examples" / "mageknight-turns.yaml")
    game_id = service.start(script.setup())
    spots = ([10, 12], [11, 12], [10, 13])

    def play(command: dict[str, Any]) -> None:
        outcome = service.handle(game_id, command)
        assert outcome.accepted, (command, outcome)

    play({"by": "red", "do": "next_phase"})
    cycle = 0
    while service.load(game_id).version < events:
        play({"by": "red", "do": "move", "figure": "r1", "path": [spots[cycle % 3]]})
        play({"by": "red", "do": "request_undo", "steps": 1})
        play({"by": "blue", "do": "consent", "accept": True})
        if cycle % 5 == 4:
            play({"by": "red", "do": "request_redo"})
            play({"by": "blue", "do": "consent", "accept": True})
            play({"by": "red", "do": "request_undo", "steps": 1})
            play({"by": "blue", "do": "consent", "accept": True})
        cycle += 1
    return game_id


@pytest.fixture(scope="session")
def long_game_events() -> list[Any]:
    """The events of a 2,000-event game (made once for the session)."""
    service = GameService(":memory:")
    return service.stored_events(long_game(service, 2000))


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """A headless Chromium (the system's), for the whole session."""
    if not Path(CHROMIUM).exists():
        if os.environ.get("WARLEDGER_TEST_BROWSER") == "skip":
            pytest.skip("browser tests skipped (WARLEDGER_TEST_BROWSER=skip)")
        pytest.fail(f"no Chromium at {CHROMIUM}: install Debian's chromium "
                    "(`make test` does), or set WARLEDGER_TEST_BROWSER=skip")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        chromium = driver.chromium.launch(executable_path=CHROMIUM, headless=True,
                                          args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


class Page:
    """A viewer page in the browser, failing the test on any console error."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.errors: list[str] = []
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))

    def open(self, html: Path, anchor: str = "") -> Page:
        self.page.goto(html.as_uri() + anchor)
        self.page.wait_for_selector("#log li.current")
        return self

    def step(self) -> int:
        return int(self.page.evaluate("document.body.dataset.step"))

    def current_row(self) -> str:
        return str(self.page.inner_text("#log li.current"))

    def shot(self, name: str) -> Path:
        ARTEFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTEFACTS / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=True)
        return path


@pytest.fixture
def page(browser: Any) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1400, "height": 950})
    viewer = Page(context.new_page())
    yield viewer
    context.close()
    assert viewer.errors == [], f"the page logged errors: {viewer.errors}"
