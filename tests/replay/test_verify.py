"""`verify` passes an honest log and names the first event of a tampered one.

The tampering is done the way an attacker would: by editing the SQLite file.
"""

from __future__ import annotations

import sqlite3
import zlib
from collections.abc import Callable
from pathlib import Path
from uuid import UUID

import orjson
import pytest

from replay.service import GameService
from replay.verify import verify_game
from warledger.script import load_script, run_script

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "t9a-turns.yaml"


@pytest.fixture
def stored_game(tmp_path: Path) -> tuple[str, UUID]:
    db = str(tmp_path / "game.db")
    service = GameService(db)
    result = run_script(service, load_script(EXAMPLE))
    service.close()
    return db, UUID(result["game_id"])


def tamper(db: str, sql: str, *params: object) -> None:
    with sqlite3.connect(db) as conn:
        conn.execute(sql, params)


def rows(db: str) -> list[tuple[int, bytes]]:
    with sqlite3.connect(db) as conn:
        return list(conn.execute(
            "select originator_version, state from stored_events order by originator_version"))


def verdict_of(db: str, game_id: UUID) -> tuple[bool, int | None, str]:
    verdict = verify_game(GameService(db), game_id)
    return verdict.ok, verdict.bad_version, verdict.reason


def edit_body(db: str, version: int, change: Callable[[dict], None]) -> None:
    body = orjson.loads(dict(rows(db))[version])
    change(body)
    tamper(db, "update stored_events set state = ? where originator_version = ?",
           orjson.dumps(body), version)


def test_an_honest_log_verifies(stored_game: tuple[str, UUID]) -> None:
    db, game_id = stored_game

    ok, _, reason = verdict_of(db, game_id)

    assert ok, reason


def test_changing_a_fact_is_caught_at_that_event(stored_game: tuple[str, UUID]) -> None:
    db, game_id = stored_game
    version = 6  # a PhaseStarted of the first steps

    edit_body(db, version, lambda b: b["fact"].update(phase="magic"))

    assert verdict_of(db, game_id)[:2] == (False, version)


def test_changing_a_fact_and_its_hash_is_caught_by_the_next_link(
    stored_game: tuple[str, UUID],
) -> None:
    db, game_id = stored_game
    from events.envelope import chain_hash

    def forge(body: dict) -> None:
        body["fact"]["phase"] = "magic"
        hashed = {"originator_id": str(game_id), "originator_version": 6,
                  **{k: body[k] for k in ("timestamp", "step", "prev_hash", "fact")}}
        body["hash"] = chain_hash(hashed)

    edit_body(db, 6, forge)

    assert verdict_of(db, game_id)[:2] == (False, 7)


def test_deleting_an_event_is_caught_where_the_gap_is(stored_game: tuple[str, UUID]) -> None:
    db, game_id = stored_game

    tamper(db, "delete from stored_events where originator_version = 5")

    assert verdict_of(db, game_id)[:2] == (False, 5)


def test_reordering_two_events_is_caught(stored_game: tuple[str, UUID]) -> None:
    db, game_id = stored_game
    states = dict(rows(db))

    tamper(db, "update stored_events set state = ? where originator_version = 6", states[8])
    tamper(db, "update stored_events set state = ? where originator_version = 8", states[6])

    assert verdict_of(db, game_id)[:2] == (False, 6)


def test_deleting_the_last_event_of_a_step_is_caught_by_re_deciding(
    stored_game: tuple[str, UUID],
) -> None:
    db, game_id = stored_game
    last = rows(db)[-1][0]

    tamper(db, "delete from stored_events where originator_version = ?", last)

    ok, bad, reason = verdict_of(db, game_id)
    assert (ok, bad) == (False, last)
    assert "incomplete" in reason


def test_editing_the_version_column_is_caught(stored_game: tuple[str, UUID]) -> None:
    db, game_id = stored_game
    last = rows(db)[-1][0]

    tamper(db, "update stored_events set originator_version = ? where originator_version = ?",
           last + 1, last)

    assert verdict_of(db, game_id)[:2] == (False, last)


def test_garbage_in_a_row_is_named_not_raised(stored_game: tuple[str, UUID]) -> None:
    db, game_id = stored_game

    tamper(db, "update stored_events set state = ? where originator_version = 3", b"\x00{nope")

    ok, bad, reason = verdict_of(db, game_id)
    assert (ok, bad) == (False, 3)
    assert "cannot be read" in reason


def test_dropping_whole_steps_at_the_end_is_caught_with_a_receipt(
    stored_game: tuple[str, UUID],
) -> None:
    db, game_id = stored_game
    receipt = verify_game(GameService(db), game_id).head_hash
    last = rows(db)[-1][0]

    tamper(db, "delete from stored_events where originator_version >= ?", last - 1)

    assert verify_game(GameService(db), game_id).ok  # the chain alone cannot tell
    verdict = verify_game(GameService(db), game_id, expect_head=receipt)
    assert not verdict.ok and "receipt" in verdict.reason


@pytest.mark.parametrize("change", [
    lambda b: b.update(fact=5),
    lambda b: b["fact"].update(class_version=-1),
    lambda b: b["fact"].update(class_version=99),
    lambda b: b.update(timestamp="yesterday"),
])
def test_any_malformed_row_is_named_not_a_crash(
    stored_game: tuple[str, UUID], change: Callable[[dict], None]
) -> None:
    db, game_id = stored_game

    edit_body(db, 6, change)

    ok, bad, reason = verdict_of(db, game_id)
    assert (ok, bad) == (False, 6) and "cannot be read" in reason


def test_relabelling_steps_as_set_up_is_caught(stored_game: tuple[str, UUID]) -> None:
    db, game_id = stored_game

    edit_body(db, 5, lambda b: b.update(step=0))

    assert verdict_of(db, game_id)[:2] == (False, 5)


def test_a_tampered_snapshot_is_caught_and_not_used_when_it_does_not_link(
    tmp_path: Path,
) -> None:
    db = str(tmp_path / "snap.db")
    service = GameService(db)
    service.snapshot_interval = 3
    game_id = UUID(run_script(service, load_script(EXAMPLE))["game_id"])
    with sqlite3.connect(db) as conn:
        version, state = conn.execute(
            "select originator_version, state from stored_snapshots order by originator_version"
        ).fetchone()
        body = orjson.loads(zlib.decompress(state))  # snapshots are stored compressed
        body["state"]["round"] = 99
        body["state"]["__head_hash__"] = "f" * 64
        conn.execute("update stored_snapshots set state = ? where originator_version = ?",
                     (zlib.compress(orjson.dumps(body)), version))

    fresh = GameService(db)
    verdict = verify_game(fresh, game_id)

    assert (verdict.ok, verdict.bad_version) == (False, version)
    assert "snapshot" in verdict.reason
    assert fresh.game_at(game_id, version + 1).state.round != 99  # not used: it does not link


def test_a_failed_verdict_counts_nothing_and_names_its_event(
    stored_game: tuple[str, UUID],
) -> None:
    db, game_id = stored_game
    tamper(db, "delete from stored_events where originator_version = 5")

    verdict = verify_game(GameService(db), game_id)

    assert (verdict.ok, verdict.events, verdict.steps, verdict.head_hash) == (False, 0, 0, "")
    assert verdict.line() == f"BAD event 5: {verdict.reason}"


def test_verify_works_on_a_service_that_keeps_no_snapshots(
    stored_game: tuple[str, UUID],
) -> None:
    db, game_id = stored_game
    service = GameService(db, env={"IS_SNAPSHOTTING_ENABLED": "no"})
    assert service.snapshots is None

    verdict = verify_game(service, game_id)

    assert verdict.ok, verdict.line()


def test_a_changed_timestamp_is_caught_by_its_hash_at_that_event(
    stored_game: tuple[str, UUID],
) -> None:
    """Re-deciding never looks at a timestamp: only the event's own hash can tell."""
    db, game_id = stored_game

    edit_body(db, 6, lambda b: b.update(timestamp="2020-01-01T00:00:00+00:00"))

    ok, bad, reason = verdict_of(db, game_id)
    assert (ok, bad) == (False, 6) and "does not match its hash" in reason


def test_a_missing_event_is_named_as_missing(stored_game: tuple[str, UUID]) -> None:
    db, game_id = stored_game

    tamper(db, "delete from stored_events where originator_version = 5")

    ok, bad, reason = verdict_of(db, game_id)
    assert (ok, bad) == (False, 5)
    assert reason == "event 5 is missing or out of order (found version 6)"


def test_a_row_of_another_topic_is_named(stored_game: tuple[str, UUID]) -> None:
    db, game_id = stored_game

    tamper(db, "update stored_events set topic = ? where originator_version = 4",
           "warledger:GameSnapshot")

    ok, bad, reason = verdict_of(db, game_id)
    assert (ok, bad) == (False, 4) and reason == "unexpected topic 'warledger:GameSnapshot'"


def test_an_unknown_game_has_no_events_to_verify(tmp_path: Path) -> None:
    from uuid import uuid4

    game_id = uuid4()
    verdict = verify_game(GameService(str(tmp_path / "empty.db")), game_id)

    assert (verdict.ok, verdict.bad_version) == (False, 0)
    assert verdict.reason == f"no events stored for game {game_id}"


def test_a_malformed_row_is_named_by_the_first_line_of_its_error(
    stored_game: tuple[str, UUID],
) -> None:
    db, game_id = stored_game

    edit_body(db, 6, lambda b: b.update(fact={"type": "PhaseStarted", "class_version": 1}))

    ok, bad, reason = verdict_of(db, game_id)
    assert (ok, bad) == (False, 6)
    assert "validation error" in reason and "\n" not in reason


def test_a_game_of_set_up_only_verifies(tmp_path: Path) -> None:
    service = GameService(str(tmp_path / "setup.db"))
    script = load_script(EXAMPLE)
    game_id = service.start(script.setup())

    verdict = verify_game(service, game_id)

    assert verdict.ok, verdict.line()
    assert (verdict.steps, verdict.events) == (0, service.load(game_id).version)
