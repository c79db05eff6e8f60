"""Pinned game logs: stored rows of games played on 2026-12-01, checked in for ever.

Each file in tests/fixtures/pinned/ holds one game's raw stored rows (event and
snapshot bodies exactly as the store holds them) and what they must give: the
seed, every die rolled, the head hash and the state hash. tests/replay/
test_pinned.py loads them into every backend and checks that they still
replay to that state hash and verify. A change that breaks them (to the dice,
the hash, a fact's serialised form, an applier or a decision) changes how
stored games replay: fix the change, or upcast, never the fixture.

`python -m tests.pinned` writes the fixtures that are missing (never overwrites).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any
from uuid import UUID

import orjson
from eventsourcing.persistence import StoredEvent

from domain.ruleset import Setup
from projections.state_view import state_hash
from replay.mapper import EVENT_TOPIC, SNAPSHOT_TOPIC
from replay.service import GameService
from tests.dice_game import DICE  # noqa: F401  (registers the test-dice rule set)
from warledger.script import load_script, run_script

ROOT = Path(__file__).resolve().parents[1]
FOLDER = Path(__file__).resolve().parent / "fixtures" / "pinned"
#: Fixture name → the example it plays (each rule set), or None for the dice game.
SOURCES: dict[str, str | None] = {
    "t9a-ambush-legal": "examples/t9a-ambush-legal.yaml",
    "w40k-battle-round": "examples/w40k-battle-round.yaml",
    "infinity-cautious-aro": "examples/infinity-cautious-aro.yaml",
    "mageknight-dark-riders": "examples/mageknight-dark-riders.yaml",
    "test-dice-undo-redo": None,
}
#: The dice game: digital dice, an undo, a redo, and snapshots every 4 events.
DICE_SETUP = Setup(ruleset="test-dice", board={"width": 10, "height": 10},
                   players=("red", "blue"), seed=20261201)
DICE_STEPS: list[dict[str, Any]] = [
    {"do": "roll", "by": "red"},
    {"do": "roll", "by": "red"},
    {"do": "next_phase", "by": "red"},
    {"do": "request_undo", "by": "red"},
    {"do": "consent", "by": "blue", "accept": True},
    {"do": "request_redo", "by": "red"},
    {"do": "consent", "by": "blue", "accept": True},
    {"do": "end_turn", "by": "red"},
    {"do": "roll", "by": "blue"},
    {"do": "request_undo", "by": "blue"},
    {"do": "consent", "by": "red", "accept": True},
    {"do": "roll", "by": "blue"},
]


def fixture_paths() -> list[Path]:
    """Every pinned fixture file."""
    return sorted(FOLDER.glob("*.json"))


def read_fixture(path: Path) -> dict[str, Any]:
    """A fixture's manifest and rows."""
    data: dict[str, Any] = orjson.loads(path.read_bytes())
    return data


def load_rows(service: GameService, fixture: dict[str, Any]) -> UUID:
    """Insert a fixture's stored rows into a service's store, as they were stored."""
    game_id = UUID(fixture["game_id"])
    service.recorder.insert_events([stored(game_id, row, EVENT_TOPIC) for row in
                                    fixture["events"]])
    if service.snapshots is not None and fixture["snapshots"]:
        service.snapshots.recorder.insert_events(
            [stored(game_id, row, SNAPSHOT_TOPIC) for row in fixture["snapshots"]])
    return game_id


def stored(game_id: UUID, row: dict[str, Any], topic: str) -> StoredEvent:
    return StoredEvent(originator_id=game_id, originator_version=row["version"], topic=topic,
                       state=orjson.dumps(row["body"]))


def play(name: str, db: str) -> tuple[GameService, UUID]:
    """Play a fixture's game into a fresh SQLite file; every step must be as expected."""
    service = GameService(db)
    service.snapshot_interval = 4 if SOURCES[name] is None else 25
    source = SOURCES[name]
    if source is None:
        game_id = service.start(DICE_SETUP)
        for step in DICE_STEPS:
            outcome = service.handle(game_id, step)
            assert outcome.accepted, (step, outcome)
        return service, game_id
    result = run_script(service, load_script(str(ROOT / source)))
    return service, UUID(result["game_id"])


def raw_rows(service: GameService, game_id: UUID, snapshots: bool) -> list[dict[str, Any]]:
    recorder = service.snapshots.recorder if snapshots and service.snapshots else service.recorder
    return [{"version": row.originator_version, "body": orjson.loads(row.state)}
            for row in recorder.select_events(game_id)]


def write_fixture(name: str, scratch: Path) -> Path:
    """Play one fixture's game and write its rows and expectations."""
    service, game_id = play(name, str(scratch / f"{name}.db"))
    game = service.load(game_id)
    events = raw_rows(service, game_id, snapshots=False)
    fixture = {
        "about": "pinned stored rows of a game played on 2026-12-01 (tests/pinned.py)",
        "source": SOURCES[name] or "tests/pinned.py DICE_STEPS",
        "ruleset": game.state.ruleset,
        "game_id": str(game_id),
        "seed": game.state.seed,
        "dice": [row["body"]["fact"]["values"] for row in events
                 if row["body"]["fact"]["type"] == "DiceRolled"],
        "event_count": game.version,
        "head_hash": game.head_hash,
        "state_hash": state_hash(game.state),
        "events": events,
        "snapshots": raw_rows(service, game_id, snapshots=True),
    }
    service.close()
    path = FOLDER / f"{name}.json"
    lines = [f'  "{k}": {orjson.dumps(v).decode()}' for k, v in fixture.items()
             if k not in ("events", "snapshots")]
    for key in ("events", "snapshots"):
        rows = ",\n".join(f"    {orjson.dumps(r).decode()}" for r in fixture[key])
        lines.append(f'  "{key}": [\n{rows}\n  ]' if rows else f'  "{key}": []')
    path.write_text("{\n" + ",\n".join(lines) + "\n}\n")
    return path


def main() -> int:
    import tempfile

    FOLDER.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        for name in SOURCES:
            if (FOLDER / f"{name}.json").exists():
                print(f"kept {name} (pinned fixtures are never rewritten)")
                continue
            print(f"wrote {write_fixture(name, Path(scratch))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
