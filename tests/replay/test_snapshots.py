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

from domain.game import project_events_only
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


# -- a snapshot with events after it, and the rebuild window's edge ---------------------
def folded(service: GameService, game_id: UUID, version: int | None = None) -> dict[str, Any]:
    """The state the events alone build, up to event `version`, as JSON."""
    events = [e for e in service.stored_events(game_id)
              if version is None or e.originator_version <= version]
    game = project_events_only(None, events)
    assert game is not None
    return game.state.model_dump(mode="json")


@pytest.fixture
def snapped_behind(snapped: tuple[str, UUID, int]) -> tuple[str, UUID, int, int]:
    """The grenade game with its last snapshot behind the head: red goes on to the
    Charge and Fight phases after it, with no snapshot taken (the interval is far)."""
    db, game_id, version = snapped
    service = GameService(db)
    service.snapshot_interval = 10_000
    for _ in range(2):
        outcome = service.handle(game_id, {"by": "red", "do": "next_phase"})
        assert outcome.accepted, outcome
    head = service.load(game_id).version
    service.close()
    assert latest_snapshot(db)[0] == version < head
    return db, game_id, version, head


def test_a_snapshot_behind_the_head_is_used_and_the_events_after_it_applied(
    snapped_behind: tuple[str, UUID, int, int],
) -> None:
    db, game_id, _, head = snapped_behind
    service, warnings = fresh(db)

    game = service.game_at(game_id)

    assert (game.version, game.state.phase) == (head, "fight")
    assert game.head_hash == service.stored_events(game_id)[-1].hash
    assert game.state.model_dump(mode="json") == folded(service, game_id)
    assert warnings == []


def test_a_resealed_snapshot_behind_the_head_steers_the_head_past_the_rebuild_window(
    snapped_behind: tuple[str, UUID, int, int],
) -> None:
    """The documented limit, with events after the snapshot: beyond the window the
    seal is all that is checked, so the edit is carried to the head; `verify`
    names the snapshot."""
    db, game_id, version, head = snapped_behind
    edit_snapshot(db, move_b1_into_range, reseal=True)
    service, warnings = fresh(db)
    service.snapshot_recheck_events = 0

    game = service.game_at(game_id)
    verdict = verify_game(GameService(db), game_id)

    assert (game.version, game.state.phase, game.state.units["b1"].y) == (head, "fight", 14.0)
    assert warnings == []
    assert (verdict.ok, verdict.bad_version) == (False, version)


def test_a_snapshot_the_next_event_does_not_link_to_is_not_used(
    snapped_behind: tuple[str, UUID, int, int],
) -> None:
    db, game_id, version, _ = snapped_behind
    with sqlite3.connect(db) as conn:
        raw = conn.execute("select state from stored_events where originator_version = ?",
                           (version + 1,)).fetchone()[0]
        body = orjson.loads(raw)
        body["prev_hash"] = "0" * 64
        conn.execute("update stored_events set state = ? where originator_version = ?",
                     (orjson.dumps(body), version + 1))
    service, warnings = fresh(db)

    service.game_at(game_id)

    assert warnings == [f"the snapshot at event {version} does not link to event "
                        f"{version + 1}; the game is rebuilt from its events instead"]


@pytest.mark.parametrize("behind", [0, 1, 3])
def test_time_travel_before_the_latest_snapshot_opens_the_one_at_or_before_it(
    snapped: tuple[str, UUID, int], behind: int,
) -> None:
    """Snapshots stand at every event: the game after event `version - behind` is
    that snapshot's, equal to what the events build to there."""
    db, game_id, version = snapped
    service, warnings = fresh(db)

    game = service.game_at(game_id, version - behind)

    assert game.version == version - behind
    assert game.state.model_dump(mode="json") == folded(service, game_id, version - behind)
    assert warnings == []


@pytest.mark.parametrize("window, caught", [(0, True), (1, False)],
                         ids=["at-the-limit", "one-past-the-limit"])
def test_a_resealed_snapshot_at_the_rebuild_window_limit_is_still_compared(
    snapped: tuple[str, UUID, int], window: int, caught: bool,
) -> None:
    """`snapshot_recheck_events`: a snapshot standing exactly that many events from
    the start is compared with the game its events build; one event further it is
    trusted on its seal (the documented limit)."""
    db, game_id, version = snapped
    edit_snapshot(db, move_b1_into_range, reseal=True)
    service, warnings = fresh(db)
    service.snapshot_recheck_events = version - window

    game = service.game_at(game_id)

    assert game.state.units["b1"].y == (28.75 if caught else 14.0)
    assert warnings == ([f"the snapshot at event {version} differs from the game its events "
                         "build; the game is rebuilt from its events instead"] if caught else [])


@pytest.mark.parametrize("key", [None, b"a server key nobody else holds"],
                         ids=["unkeyed", "keyed"])
def test_an_edit_of_a_snapshots_data_under_its_old_seal_is_caught_outside_the_window(
    tmp_path: Path, key: bytes | None,
) -> None:
    """Past the rebuild window, the seal's state hash is what catches an edit that
    leaves the seal (and its MAC) as they were."""
    script = tmp_path / "grenade.yaml"
    script.write_text(GRENADE_GAME)
    db = str(tmp_path / "game.db")
    service = GameService(db, key=key)
    service.snapshot_interval = 1
    game_id = UUID(run_script(service, load_script(str(script)))["game_id"])
    service.close()
    version = edit_snapshot(db, move_b1_into_range, reseal=False)
    service = GameService(db, key=key)
    service.snapshot_recheck_events = 0
    warnings = Warnings()
    service.warn = warnings

    game = service.game_at(game_id)
    outcome = service.handle(game_id, GRENADE)

    assert game.state.units["b1"].y == 28.75
    assert (outcome.accepted, outcome.rule) == (False, "STR-16")
    assert warnings[0] == (f"the snapshot at event {version} does not match its own state "
                           "hash; the game is rebuilt from its events instead")


def test_a_seal_with_its_state_hash_gone_is_no_seal(snapped: tuple[str, UUID, int]) -> None:
    db, game_id, version = snapped
    edit_snapshot(db, lambda s: [s.pop("__state_hash__"), move_b1_into_range(s)],
                  reseal=False)
    service, warnings = fresh(db)
    service.snapshot_recheck_events = 0

    game = service.game_at(game_id)

    assert game.state.units["b1"].y == 28.75
    assert warnings == [f"the snapshot at event {version} is of the old format (no seal); "
                        "the game is rebuilt from its events instead"]


def test_a_sealed_state_the_rule_set_cannot_read_is_not_used(
    snapped: tuple[str, UUID, int],
) -> None:
    """Resealed, so its seal holds; but no 40k state has a unit at y "far". The
    warning gives the first line of what the rule set said."""
    db, game_id, version = snapped
    edit_snapshot(db, lambda s: s["units"]["b1"].update(y="far"), reseal=True)
    service, warnings = fresh(db)
    service.snapshot_recheck_events = 0

    game = service.game_at(game_id)

    assert game.state.units["b1"].y == 28.75
    assert warnings == [f"the snapshot at event {version} cannot be read: 1 validation error "
                        "for W40KState; the game is rebuilt from its events instead"]


def test_a_service_that_keeps_no_snapshots_folds_the_events(tmp_path: Path) -> None:
    script = tmp_path / "grenade.yaml"
    script.write_text(GRENADE_GAME)
    service = GameService(str(tmp_path / "game.db"), env={"IS_SNAPSHOTTING_ENABLED": "n"})
    warnings = Warnings()
    service.warn = warnings
    game_id = UUID(run_script(service, load_script(str(script)))["game_id"])

    game = service.game_at(game_id)

    assert service.snapshots is None and warnings == []
    assert game.state.model_dump(mode="json") == folded(service, game_id)


def test_without_a_key_the_events_are_read_as_stored_and_a_snapshot_that_differs_is_set_aside(
    snapped: tuple[str, UUID, int],
) -> None:
    """An event edited in place (its hash left stale) is believed by a service without
    the key, which reads events as stored: the snapshot that disagrees with it is set
    aside, not the event. `verify` is what names the event."""
    db, game_id, version = snapped
    with sqlite3.connect(db) as conn:
        found = conn.execute("select originator_version, state from stored_events").fetchall()
        for number, raw in found:
            body = orjson.loads(raw)
            fact = body["fact"]
            if fact["type"] == "UnitFielded" and fact["unit"]["id"] == "b1":
                fact["unit"]["y"] = 14.0
                conn.execute("update stored_events set state = ? where originator_version = ?",
                             (orjson.dumps(body), number))
                edited = int(number)
    service, warnings = fresh(db)

    game = service.game_at(game_id)
    verdict = verify_game(GameService(db), game_id)

    assert game.state.units["b1"].y == 14.0
    assert warnings == [f"the snapshot at event {version} differs from the game its events "
                        "build; the game is rebuilt from its events instead"]
    assert (verdict.ok, verdict.bad_version) == (False, edited)
