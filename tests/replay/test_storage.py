"""Storage contract, run on every backend: start, decide, time travel, snapshots,
determinism, and optimistic concurrency."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from domain.ruleset import Setup
from projections.state_view import canonical_json, state_hash, state_view
from replay.service import GameService, Outcome
from replay.storage import postgres_env, storage_env
from tests.conftest import BACKENDS, backend_params, make_service
from warledger.script import load_script, run_script

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SETUP = Setup(ruleset="w40k-10", board={"width": 44, "height": 60}, players=("red", "blue"))


def turns(service: GameService, game_id: UUID, count: int) -> list[Outcome]:
    """Play `count` end_turn commands, alternating players."""
    outcomes = []
    for _ in range(count):
        player = service.load(game_id).state.active_player
        outcomes.append(service.handle(game_id, {"do": "end_turn", "by": player}))
    return outcomes


def test_a_refused_command_writes_nothing(backend_service: GameService) -> None:
    game_id = backend_service.start(SETUP)
    before = backend_service.stored_events(game_id)

    outcome = backend_service.handle(game_id, {"do": "end_turn", "by": "blue"})

    assert (outcome.accepted, outcome.rule) == (False, "CORE-NOT-YOUR-TURN")
    assert backend_service.stored_events(game_id) == before


def test_time_travel_gives_the_state_after_event_n(backend_service: GameService) -> None:
    game_id = backend_service.start(SETUP)
    outcomes = turns(backend_service, game_id, 3)

    at_first = backend_service.game_at(game_id, version=outcomes[0].version)

    assert (at_first.state.round, at_first.state.active_player) == (1, "blue")
    assert backend_service.load(game_id).state.round == 2


def test_snapshots_give_the_same_state_as_a_full_replay(tmp_path: Path) -> None:
    service = GameService(str(tmp_path / "long.db"))
    service.snapshot_interval = 7
    game_id = service.start(SETUP)
    outcomes = turns(service, game_id, 9)
    assert service.snapshots is not None
    assert list(service.snapshots.get(game_id))  # snapshots were taken

    for outcome in outcomes:
        with_snapshots = service.game_at(game_id, version=outcome.version)
        no_snapshots = GameService(str(tmp_path / "long.db"), env={"IS_SNAPSHOTTING_ENABLED": "n"})
        plain = no_snapshots.game_at(game_id, version=outcome.version)
        assert state_hash(with_snapshots.state) == state_hash(plain.state)
        assert with_snapshots.head_hash == plain.head_hash


def test_replaying_twice_gives_the_same_state_hash(backend_service: GameService) -> None:
    result = run_script(backend_service, load_script(EXAMPLES / "t9a-turns.yaml"))
    game_id = UUID(result["game_id"])

    first = state_hash(backend_service.game_at(game_id).state)
    second = state_hash(backend_service.game_at(game_id).state)

    assert first == second == state_hash(backend_service.load(game_id).state)


@pytest.mark.parametrize("example", sorted(p.name for p in EXAMPLES.glob("*.yaml")))
def test_every_backend_gives_byte_identical_state_json(example: str, tmp_path: Path) -> None:
    outputs = set()
    for backend in BACKENDS:
        service = make_service(backend, tmp_path)
        result = run_script(service, load_script(EXAMPLES / example))
        replayed = service.game_at(UUID(result["game_id"])).state
        outputs.add(canonical_json(result["state"]))
        outputs.add(canonical_json(state_view(replayed)))
        service.close()

    assert len(outputs) == 1


def race(monkeypatch: pytest.MonkeyPatch, interloper: Callable[[], Outcome]) -> list[Outcome]:
    """Make `interloper` write while the next decision is being made."""
    import replay.service

    real_settle = replay.service.settle
    done: list[Outcome] = []
    started: list[bool] = []

    def decide_while_someone_writes(*args: Any, **kwargs: Any) -> Any:
        decided = real_settle(*args, **kwargs)
        if not started:
            started.append(True)
            done.append(interloper())
        return decided

    monkeypatch.setattr(replay.service, "settle", decide_while_someone_writes)
    return done


WRITER_BACKENDS = backend_params("sqlite", "postgres")


@pytest.mark.parametrize("backend", WRITER_BACKENDS)
def test_two_writers_conflict_and_the_loser_retries_on_fresh_state(
    backend: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice, bob = make_service(backend, tmp_path), make_service(backend, tmp_path)
    game_id = alice.start(SETUP)
    interlopers = race(
        monkeypatch, lambda: alice.handle(game_id, {"do": "next_phase", "by": "red"})
    )

    second = bob.handle(game_id, {"do": "next_phase", "by": "red"})
    first = interlopers[0]

    assert first.accepted and not first.retried
    assert second.accepted and second.retried
    assert alice.load(game_id).state.phase == "shooting"
    assert len(alice.stored_events(game_id)) == second.version


@pytest.mark.parametrize("backend", WRITER_BACKENDS)
def test_the_retry_decides_again_and_may_refuse(
    backend: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice, bob = make_service(backend, tmp_path), make_service(backend, tmp_path)
    game_id = alice.start(SETUP)
    race(monkeypatch, lambda: alice.handle(game_id, {"do": "end_turn", "by": "red"}))

    late = bob.handle(game_id, {"do": "end_turn", "by": "red"})

    assert (late.accepted, late.rule, late.retried) == (False, "CORE-NOT-YOUR-TURN", True)


def test_storage_selection_from_db_values() -> None:
    assert storage_env(":memory:") == {"PERSISTENCE_MODULE": "eventsourcing.popo"}
    assert storage_env("x.db")["SQLITE_DBNAME"] == "x.db"
    env = postgres_env("postgresql://u:p%40ss@db.example:6543/games")
    assert (env["POSTGRES_USER"], env["POSTGRES_PASSWORD"], env["POSTGRES_HOST"],
            env["POSTGRES_PORT"], env["POSTGRES_DBNAME"]) == (
        "u", "p@ss", "db.example", "6543", "games")


@pytest.mark.parametrize("example", sorted(p.name for p in EXAMPLES.glob("*.yaml")))
def test_snapshots_of_every_rule_set_restore_the_exact_state(example: str, tmp_path: Path) -> None:
    db = str(tmp_path / "snap.db")
    service = GameService(db)
    service.snapshot_interval = 3
    result = run_script(service, load_script(EXAMPLES / example))
    game_id = UUID(result["game_id"])
    plain = GameService(db, env={"IS_SNAPSHOTTING_ENABLED": "n"})

    for version in range(1, service.load(game_id).version + 1):
        restored = service.game_at(game_id, version=version).state
        replayed = plain.game_at(game_id, version=version).state
        assert restored.model_dump(mode="json") == replayed.model_dump(mode="json"), version


@pytest.mark.parametrize("backend", WRITER_BACKENDS)
def test_a_writer_with_a_stale_copy_conflicts_and_decides_again(
    backend: str, tmp_path: Path
) -> None:
    alice, bob = make_service(backend, tmp_path), make_service(backend, tmp_path)
    game_id = alice.start(SETUP)
    bob.handle(game_id, {"do": "next_phase", "by": "red"})  # bob caches the game
    alice.handle(game_id, {"do": "next_phase", "by": "red"})  # bob's copy is now stale

    outcome = bob.handle(game_id, {"do": "next_phase", "by": "red"})

    assert outcome.accepted and outcome.retried
    assert alice.load(game_id).state.phase == "charge"
    assert [e.originator_version for e in alice.stored_events(game_id)] == list(
        range(1, outcome.version + 1))


@pytest.mark.parametrize("backend", WRITER_BACKENDS)
def test_a_refusal_on_a_stale_copy_is_decided_again_on_fresh_state(
    backend: str, tmp_path: Path
) -> None:
    alice, bob = make_service(backend, tmp_path), make_service(backend, tmp_path)
    game_id = alice.start(SETUP)
    bob.handle(game_id, {"do": "next_phase", "by": "red"})  # bob caches the game
    alice.handle(game_id, {"do": "end_turn", "by": "red"})  # now it is blue's turn

    outcome = bob.handle(game_id, {"do": "next_phase", "by": "blue"})

    assert outcome.accepted and outcome.retried
    assert alice.load(game_id).state.active_player == "blue"


def test_a_refusal_on_a_fresh_copy_is_final(tmp_path: Path) -> None:
    service = GameService(str(tmp_path / "g.db"))
    game_id = service.start(SETUP)

    outcome = service.handle(game_id, {"do": "end_turn", "by": "blue"})

    assert (outcome.accepted, outcome.rule, outcome.retried) == (
        False, "CORE-NOT-YOUR-TURN", False)


def test_threads_sharing_one_service_never_break_the_chain(backend_service: GameService) -> None:
    """Commands through one service are decided one at a time: every accepted step
    gets its own events, and the stored chain verifies."""
    import threading

    from replay.verify import verify_game

    game_id = backend_service.start(SETUP)
    versions: list[int] = []

    def play() -> None:
        for _ in range(15):
            state = backend_service.load(game_id).state
            do = "end_turn" if state.phase == "fight" else "next_phase"
            outcome = backend_service.handle(game_id, {"do": do, "by": state.active_player})
            if outcome.accepted and outcome.version is not None:
                versions.append(outcome.version)

    threads = [threading.Thread(target=play) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert versions and len(versions) == len(set(versions))
    assert verify_game(backend_service, game_id).ok


def test_database_urls_are_checked_and_passwords_never_shown() -> None:
    from domain.errors import ScriptError
    from replay.storage import redact

    with pytest.raises(ScriptError, match=r"bad database URL postgresql://u:\*\*\*@h:x/g"):
        storage_env("postgresql://u:secret@h:x/g")
    assert redact("at postgresql://u:secret@h:5432/g now") == "at postgresql://u:***@h:5432/g now"
    assert postgres_env("postgresql://u:p@h/g")["POSTGRES_CONNECT_TIMEOUT"] == "5"


def test_each_postgresql_database_has_its_own_views_file() -> None:
    from warledger.cli import views_path

    one = views_path("postgresql://u:p@db1:5432/games")
    other = views_path("postgresql://u:p@db2:5432/games")

    assert one != other and one.endswith(".views") and "p@" not in one
    assert views_path("g.db") == "g.db.views"
