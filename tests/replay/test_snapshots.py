"""Snapshots are a cache: checked against the chain before use, and set aside when wrong.

Each test edits the SQLite file the way someone with the file would, then shows
that time travel, `step` and `verify` decide on the events, and say so.
"""

from __future__ import annotations

import sqlite3
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any
from uuid import UUID

import orjson
import pytest

from events.envelope import chain_hash
from replay.service import GameService
from replay.verify import verify_game
from warledger.cli import main
from warledger.script import load_script, run_script

GRENADE_GAME = """
ruleset: w40k-10
seed: 7
board: {width: 48, height: 48}
players: [red, blue]
options: {cp: 3}
units:
  - {id: r1, owner: red, x: 10, y: 10, models: 4, starting_strength: 10,
     keywords: [infantry, grenades]}
  - {id: b1, owner: blue, x: 10, y: 28.75, models: 10, keywords: [infantry]}
steps:
  - {by: red, do: next_phase}
  - {by: red, do: next_phase}
"""
GRENADE = {"by": "red", "do": "use_stratagem", "stratagem": "grenade", "targets": ["r1"],
           "enemy": "b1"}


class Warnings(list[str]):
    """Collects what a service says about the snapshots it set aside."""

    def __call__(self, message: str) -> None:
        self.append(message)


@pytest.fixture
def snapped(tmp_path: Path) -> tuple[str, UUID, int]:
    """A w40k game in the shooting phase with a snapshot at its last event."""
    script = tmp_path / "grenade.yaml"
    script.write_text(GRENADE_GAME)
    db = str(tmp_path / "game.db")
    service = GameService(db)
    service.snapshot_interval = 1
    result = run_script(service, load_script(str(script)))
    assert all(step["accepted"] for step in result["steps"]), result["steps"]
    version = service.load(UUID(result["game_id"])).version
    service.close()
    assert latest_snapshot(db)[0] == version
    return db, UUID(result["game_id"]), version


def latest_snapshot(db: str) -> tuple[int, bytes]:
    """The latest snapshot row's event number and JSON (snapshots are stored compressed)."""
    with sqlite3.connect(db) as conn:
        row = conn.execute("select originator_version, state from stored_snapshots "
                           "order by originator_version desc limit 1").fetchone()
    return int(row[0]), zlib.decompress(bytes(row[1]))


def write_snapshot(db: str, version: int, state: bytes, *, compress: bool = True) -> None:
    with sqlite3.connect(db) as conn:
        conn.execute("update stored_snapshots set state = ? where originator_version = ?",
                     (zlib.compress(state) if compress else state, version))


def edit_snapshot(db: str, change: Callable[[dict[str, Any]], None], *, reseal: bool) -> int:
    """Edit the latest snapshot's state; with `reseal`, recompute its state hash too."""
    version, raw = latest_snapshot(db)
    body = orjson.loads(raw)
    change(body["state"])
    if reseal:
        state = {k: v for k, v in body["state"].items() if not k.startswith("__")}
        body["state"]["__state_hash__"] = chain_hash(state)
    write_snapshot(db, version, orjson.dumps(body))
    return version


def move_b1_into_range(state: dict[str, Any]) -> None:
    state["units"]["b1"]["y"] = 14.0


def fresh(db: str) -> tuple[GameService, Warnings]:
    service = GameService(db)
    warnings = Warnings()
    service.warn = warnings
    return service, warnings


def test_an_honest_snapshot_is_used_without_a_word(snapped: tuple[str, UUID, int]) -> None:
    db, game_id, version = snapped
    service, warnings = fresh(db)

    game = service.game_at(game_id, version)

    assert game.state.units["b1"].y == 28.75
    assert warnings == []


@pytest.mark.parametrize("reseal", [False, True], ids=["naive-edit", "resealed-edit"])
def test_an_edited_snapshot_changes_neither_time_travel_nor_a_decision(
    snapped: tuple[str, UUID, int], reseal: bool,
) -> None:
    db, game_id, version = snapped
    edit_snapshot(db, move_b1_into_range, reseal=reseal)
    service, warnings = fresh(db)

    shown = service.game_at(game_id, version)
    outcome = service.handle(game_id, GRENADE)

    assert shown.state.units["b1"].y == 28.75  # the events' b1, not the snapshot's
    assert (outcome.accepted, outcome.rule) == (False, "STR-16")  # 17.50" away: refused
    assert warnings and f"snapshot at event {version}" in warnings[0]
    assert "rebuilt from its events" in warnings[0]


def test_an_edited_snapshot_is_caught_by_verify(snapped: tuple[str, UUID, int]) -> None:
    db, game_id, version = snapped
    edit_snapshot(db, move_b1_into_range, reseal=True)

    verdict = verify_game(GameService(db), game_id)

    assert (verdict.ok, verdict.bad_version) == (False, version)
    assert "snapshot" in verdict.reason


def test_a_snapshot_whose_seal_names_another_event_is_not_used(
    snapped: tuple[str, UUID, int],
) -> None:
    db, game_id, version = snapped
    edit_snapshot(db, lambda s: s.update(__version__=version - 1), reseal=False)
    service, warnings = fresh(db)

    service.game_at(game_id)

    assert warnings and f"says it stands at event {version - 1}" in warnings[0]
    assert not verify_game(GameService(db), game_id).ok


def test_a_snapshot_off_the_chain_is_not_used(snapped: tuple[str, UUID, int]) -> None:
    db, game_id, _ = snapped
    edit_snapshot(db, lambda s: s.update(__head_hash__="f" * 64), reseal=False)
    service, warnings = fresh(db)

    game = service.game_at(game_id)

    assert game.head_hash != "f" * 64
    assert warnings and "does not stand at that event of the hash chain" in warnings[0]


def test_a_resealed_snapshot_beyond_the_recheck_is_caught_by_its_link_only_if_the_head_differs(
    snapped: tuple[str, UUID, int],
) -> None:
    """Beyond `snapshot_recheck_events`, a snapshot is trusted on its seal and its link:
    that is the documented limit (verify still catches the forgery)."""
    db, game_id, version = snapped
    edit_snapshot(db, move_b1_into_range, reseal=True)
    service, warnings = fresh(db)
    service.snapshot_recheck_events = 0

    game = service.game_at(game_id, version)

    assert game.state.units["b1"].y == 14.0 and warnings == []
    assert not verify_game(service, game_id).ok


def test_an_old_snapshot_without_a_seal_is_not_trusted(snapped: tuple[str, UUID, int]) -> None:
    db, game_id, version = snapped
    edit_snapshot(db, lambda s: [s.pop("__version__"), s.pop("__state_hash__"),
                                 move_b1_into_range(s)], reseal=False)
    service, warnings = fresh(db)

    game = service.game_at(game_id, version)

    assert game.state.units["b1"].y == 28.75
    assert warnings and "old format" in warnings[0]


@pytest.mark.parametrize("garbage", [b"\x00{nope", b'{"timestamp": 5}', b"[]"])
def test_an_unreadable_snapshot_falls_back_to_the_events(
    snapped: tuple[str, UUID, int], garbage: bytes,
) -> None:
    """Once, an undecodable latest snapshot made every replay, step and verify exit 2."""
    db, game_id, version = snapped
    write_snapshot(db, version, garbage)
    service, warnings = fresh(db)

    game = service.game_at(game_id)
    outcome = service.handle(game_id, GRENADE)
    verdict = verify_game(GameService(db), game_id)

    assert game.version == version and game.state.units["b1"].y == 28.75
    assert (outcome.accepted, outcome.rule) == (False, "STR-16")
    assert "cannot be read" in warnings[0]
    assert verdict.ok, verdict.line()
    assert verdict.notes and f"snapshot at event {version} cannot be read" in verdict.notes[0]


def test_the_cli_warns_on_stderr_and_goes_on(
    snapped: tuple[str, UUID, int], capsys: pytest.CaptureFixture[str],
) -> None:
    db, game_id, version = snapped
    write_snapshot(db, version, b"\x00{nope", compress=False)

    codes = [
        main(["replay", db, str(game_id), "--at", str(version), "--json"]),
        main(["verify", db, str(game_id)]),
        main(["step", db, str(game_id), orjson.dumps(GRENADE).decode()]),
    ]
    captured = capsys.readouterr()

    assert codes[:2] == [0, 0]
    assert codes[2] in (0, 1)  # refused (exit 1)
    assert '"STR-16"' in captured.out and "unexpected JSONDecodeError" not in captured.err
    warnings = [line for line in captured.err.splitlines() if "warning:" in line]
    assert len(warnings) >= 3 and all("snapshot at event" in line for line in warnings)


def test_a_game_whose_result_is_confirmed_is_snapshotted_at_its_last_event(
        tmp_path: Path) -> None:
    """`snapshot_due`: the save that confirms a result takes a snapshot, so a closed
    game is read as one snapshot and no events; ending the game (the result only
    proposed) takes none, and the interval rule stays for the rest (none is due here:
    the interval is far away)."""
    service = GameService(str(tmp_path / "game.db"))
    service.snapshot_interval = 10_000
    result = run_script(service, load_script("examples/w40k-turns.yaml"))
    assert [s["accepted"] for s in result["steps"]][:2] == [True, True]
    game_id = UUID(result["game_id"])
    assert service.snapshots is not None

    def snapshots_at() -> list[int]:
        assert service.snapshots is not None
        return [s.originator_version for s in service.snapshots.get(game_id)]

    # the example's end_game already ended it (no result claimed): no snapshot yet
    assert service.load(game_id).state.finished and snapshots_at() == []
    claim = {"winner": "red", "draw": False, "points": {"red": 15, "blue": 5}}
    proposed = service.handle(game_id, {"by": "red", "do": "end_game", "result": claim})
    assert proposed.accepted, proposed
    assert snapshots_at() == []
    confirmed = service.handle(game_id, {"by": "blue", "do": "consent", "accept": True})
    assert confirmed.accepted, confirmed
    game = service.load(game_id)
    assert game.state.result is not None and snapshots_at() == [game.version]
