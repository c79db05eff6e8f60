"""Storage contract, run on every backend: start, decide, time travel, snapshots,
determinism, and optimistic concurrency."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from domain.ruleset import Setup
from projections.state_view import canonical_json, state_hash, state_view
from replay.service import GameConflictError, GameService, Outcome
from replay.storage import postgres_env, storage_env
from tests.accepting import accept
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
def test_a_concurrent_double_next_phase_advances_the_phase_once(
    backend: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two writers both decide `next_phase` in the Command phase: the loser's retry
    would move the phase again (Shooting), so it is a conflict that writes nothing."""
    alice, bob = make_service(backend, tmp_path), make_service(backend, tmp_path)
    game_id = alice.start(SETUP)
    interlopers = race(
        monkeypatch, lambda: alice.handle(game_id, {"do": "next_phase", "by": "red"})
    )
    before = len(alice.stored_events(game_id)) + 2  # the interloper's two events

    with pytest.raises(GameConflictError, match=r"'next_phase' .* would record other facts"):
        bob.handle(game_id, {"do": "next_phase", "by": "red"})

    assert interlopers[0].accepted and not interlopers[0].retried
    assert alice.load(game_id).state.phase == "movement"
    assert len(alice.stored_events(game_id)) == before


@pytest.mark.parametrize("backend", WRITER_BACKENDS)
def test_a_retry_with_the_same_facts_is_recorded(
    backend: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A judge's ruling means the same whatever step the other writer took."""
    alice, bob = make_service(backend, tmp_path), make_service(backend, tmp_path)
    game_id = alice.start(SETUP)
    race(monkeypatch, lambda: alice.handle(game_id, {"do": "next_phase", "by": "red"}))

    ruled = bob.handle(game_id, {"do": "ruling", "by": "judge", "text": "fine"})

    assert ruled.accepted and ruled.retried
    assert alice.load(game_id).state.phase == "movement"
    assert [e.originator_version for e in alice.stored_events(game_id)] == list(
        range(1, ruled.version + 1))


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
def test_a_turn_command_on_a_stale_copy_is_a_conflict_not_a_second_move(
    backend: str, tmp_path: Path
) -> None:
    alice, bob = make_service(backend, tmp_path), make_service(backend, tmp_path)
    game_id = alice.start(SETUP)
    accept(bob, game_id, {"do": "next_phase", "by": "red"})  # bob caches the game
    alice.load(game_id)
    accept(alice, game_id, {"do": "next_phase", "by": "red"})  # bob's copy is now stale
    head = alice.load(game_id)

    with pytest.raises(GameConflictError) as conflict:
        bob.handle(game_id, {"do": "next_phase", "by": "red"})

    # Red is a player: the head is named in red's numbering (the events red may see:
    # not the sealed seed), with the hash of red's own view.
    from replay.export import numbered_for

    seen, red_view = len(numbered_for(alice.stored_events(game_id), "red")), state_hash(
        head.state, "red")
    assert (conflict.value.version, conflict.value.head_hash) == (seen, red_view)
    assert f"red has seen {seen} events of the game (view hash {red_view})" in str(
        conflict.value)
    assert alice.load(game_id).state.phase == "shooting"
    assert len(alice.stored_events(game_id)) == head.version


@pytest.mark.parametrize("backend", WRITER_BACKENDS)
def test_a_refusal_on_a_stale_copy_is_decided_again_on_fresh_state(
    backend: str, tmp_path: Path
) -> None:
    """A move refused on a stale copy (still the Command phase) is decided on fresh
    state (the Movement phase): it names its unit and spot, so it means the same."""
    setup = SETUP.model_copy(update={"units": ({"id": "r1", "owner": "red", "x": 10, "y": 10},)})
    alice, bob = make_service(backend, tmp_path), make_service(backend, tmp_path)
    game_id = alice.start(setup)
    bob.load(game_id)  # bob caches the game in the Command phase
    alice.handle(game_id, {"do": "next_phase", "by": "red"})  # now the Movement phase

    outcome = bob.handle(game_id, {"do": "move", "by": "red", "unit": "r1", "x": 12, "y": 10})

    assert outcome.accepted and outcome.retried
    assert alice.load(game_id).state.units["r1"].x == 12


@pytest.mark.parametrize("backend", WRITER_BACKENDS)
def test_a_turn_command_refused_on_a_stale_copy_is_a_conflict(
    backend: str, tmp_path: Path
) -> None:
    alice, bob = make_service(backend, tmp_path), make_service(backend, tmp_path)
    game_id = alice.start(SETUP)
    accept(bob, game_id, {"do": "next_phase", "by": "red"})  # bob caches the game
    alice.load(game_id)
    accept(alice, game_id, {"do": "end_turn", "by": "red"})  # now it is blue's turn

    with pytest.raises(GameConflictError):
        bob.handle(game_id, {"do": "next_phase", "by": "blue"})

    assert alice.load(game_id).state.phase == "command"


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


@pytest.mark.parametrize("backend", WRITER_BACKENDS)
def test_writers_racing_next_phase_move_the_phase_exactly_once(
    backend: str, tmp_path: Path
) -> None:
    """Four clients, each with its own copy of the game in the Command phase, send
    `next_phase` at once: one moves the phase, the others are conflicts (or refusals),
    never a second move."""
    import threading

    from replay.service import ConcurrentWriteError

    clients = [make_service(backend, tmp_path) for _ in range(4)]
    game_id = clients[0].start(SETUP)
    for client in clients:
        client.load(game_id)
    go = threading.Barrier(len(clients))
    accepted: list[bool] = []

    def send(client: GameService) -> None:
        go.wait()
        try:
            accepted.append(client.handle(game_id, {"do": "next_phase", "by": "red"}).accepted)
        except ConcurrentWriteError:  # GameConflictError included
            accepted.append(False)

    threads = [threading.Thread(target=send, args=(client,)) for client in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(accepted) == [False, False, False, True]
    assert clients[0].load(game_id).state.phase == "movement"


@pytest.mark.parametrize("backend", WRITER_BACKENDS)
def test_an_expected_event_overtaken_while_deciding_is_a_conflict(
    backend: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob decides at the event he expects, but Alice saves first: no retry, a conflict
    naming Alice's head, nothing of Bob's written."""
    alice, bob = make_service(backend, tmp_path), make_service(backend, tmp_path)
    game_id = alice.start(SETUP)
    expected = bob.load(game_id).version
    race(monkeypatch, lambda: alice.handle(game_id, {"do": "ruling", "by": "judge", "text": "a"}))

    with pytest.raises(GameConflictError, match=f"the game changed after {expected} events; "
                       f"the game is at event {expected + 2}"):
        bob.handle(game_id, {"do": "ruling", "by": "judge", "text": "b"}, expect_event=expected)

    head = alice.load(game_id)
    assert len(alice.stored_events(game_id)) == head.version == expected + 2


@pytest.mark.parametrize("backend", WRITER_BACKENDS)
def test_a_refusal_on_a_copy_behind_the_expected_event_is_a_conflict(
    backend: str, tmp_path: Path
) -> None:
    """Bob's copy is at the event he names, but the game has moved on: his refusal
    would be on old news, so it is a conflict, not a rule's refusal."""
    alice, bob = make_service(backend, tmp_path), make_service(backend, tmp_path)
    game_id = alice.start(SETUP)
    expected = bob.load(game_id).version
    alice.load(game_id)
    alice.handle(game_id, {"do": "end_turn", "by": "red"})  # now blue's turn

    with pytest.raises(GameConflictError):
        bob.handle(game_id, {"do": "end_turn", "by": "blue"}, expect_event=expected)


def test_snapshots_are_stored_compressed_and_plain_ones_still_read(tmp_path: Path) -> None:
    """Storage: a snapshot is zlib-compressed JSON under its own topic (a fraction of
    the bytes); a snapshot stored plain, as before, restores the same game."""
    import zlib

    import orjson

    from replay.mapper import COMPRESSED_SNAPSHOT_TOPIC, SNAPSHOT_TOPIC

    service = GameService(str(tmp_path / "z.db"))
    service.snapshot_interval = 5
    game_id = service.start(SETUP)
    turns(service, game_id, 6)
    assert service.snapshots is not None
    stored = service.snapshots.recorder.select_events(game_id, desc=True, limit=1)[0]
    plain = zlib.decompress(stored.state)

    assert stored.topic == COMPRESSED_SNAPSHOT_TOPIC
    assert len(stored.state) < len(plain) / 2
    old_style = replace(stored, topic=SNAPSHOT_TOPIC, state=plain)
    restored = service.mapper.to_domain_event(old_style)
    now = service.mapper.to_domain_event(stored)
    assert restored == now and orjson.loads(plain)["ruleset"] == now.ruleset


def test_a_game_is_found_by_its_id_a_prefix_or_last(backend_service: GameService) -> None:
    """The CLI's GAME argument (CONTRACT): a full id, a unique prefix or `last`, found
    the same way on every backend (on SQLite by one indexed query)."""
    from replay.service import GameNotFoundError

    ids = [backend_service.start(SETUP) for _ in range(3)]

    assert backend_service.find_game("last") == ids[-1] == backend_service.game_ids()[-1]
    assert [backend_service.find_game(str(i)) for i in ids] == ids
    assert [backend_service.find_game(str(i)[:18]) for i in ids] == ids
    for text, error in [("", "no game named"), ("zz", "no game 'zz'"),
                        (str(ids[0])[:9] + "x", "no game")]:
        with pytest.raises(GameNotFoundError, match=error):
            backend_service.find_game(text)


def test_the_direct_sqlite_read_gives_the_events_the_library_reads(tmp_path: Path) -> None:
    """`replay.event_store.GameEventStore` reads SQLite rows itself: for every range,
    order and limit it gives exactly the events the library's own reader gives."""
    from eventsourcing.persistence import EventStore

    service = GameService(str(tmp_path / "g.db"))
    game_id = service.start(SETUP)
    turns(service, game_id, 6)
    library: EventStore[UUID] = EventStore(service.mapper, service.recorder)
    assert type(service.events).__name__ == "GameEventStore"
    version = service.load(game_id).version
    assert version > 10
    for gt, lte, desc, limit in [(None, None, False, None), (3, None, False, None),
                                 (None, 7, False, None), (2, 9, True, 3), (None, None, True, 1),
                                 (version, None, False, None)]:
        ours = list(service.events.get(game_id, gt=gt, lte=lte, desc=desc, limit=limit))
        theirs = list(library.get(game_id, gt=gt, lte=lte, desc=desc, limit=limit))
        assert ours == theirs, (gt, lte, desc, limit)
    assert [e.originator_version for e in service.events.get(game_id, gt=2, lte=9, desc=True,
                                                              limit=3)] == [9, 8, 7]
