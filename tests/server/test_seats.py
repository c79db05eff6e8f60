"""The seat store (`warledger.server.seats`) on each backend it runs on, in this
process: memory, an SQLite file beside the game file, and PostgreSQL (the table
`warledger_seats` in the game database) when the tests have a server.

Tokens are stored only as their SHA-256 hashes; a token holds exactly the seat it was
issued for; a server remembers the seats it found, and never a wrong token."""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

import pytest

import warledger.server.seats as seats_module
from tests.conftest import POSTGRES_URL, backend_params
from warledger.server.seats import SPECTATOR, Seat, SeatStore, token_hash


@pytest.fixture(params=backend_params("memory", "sqlite", "postgres"))
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[SeatStore]:
    db = {"memory": ":memory:", "sqlite": str(tmp_path / "games.db"),
          "postgres": POSTGRES_URL}[request.param]
    assert db is not None
    seats = SeatStore(db)
    yield seats
    seats.close()


def rows_of(store: SeatStore, game_id: UUID) -> set[tuple[Any, ...]]:
    return set(store._run("SELECT token_hash, game_id, role, seat FROM warledger_seats "
                          "WHERE game_id = ?", (str(game_id),)))


def test_each_seat_gets_its_own_token_stored_only_as_its_hash(store: SeatStore) -> None:
    game = uuid4()
    issued = store.issue(game, ["red", "blue"])
    assert set(issued) == {"seats", "spectator"}
    tokens = issued["seats"]
    assert list(tokens) == ["red", "blue", "judge"]
    every = [*tokens.values(), issued["spectator"]]
    assert len(set(every)) == 4 and all(len(t) == 43 for t in every)  # 32 random bytes
    assert rows_of(store, game) == {
        (hashlib.sha256(tokens["red"].encode()).hexdigest(), str(game), "player", "red"),
        (hashlib.sha256(tokens["blue"].encode()).hexdigest(), str(game), "player", "blue"),
        (hashlib.sha256(tokens["judge"].encode()).hexdigest(), str(game), "judge", "judge"),
        (hashlib.sha256(issued["spectator"].encode()).hexdigest(), str(game), "spectator", ""),
    }


def test_a_token_holds_exactly_the_seat_it_was_issued_for(store: SeatStore) -> None:
    game, other = uuid4(), uuid4()
    issued = store.issue(game, ["red", "blue"])
    store.issue(other, ["red", "blue"])
    red, judge = issued["seats"]["red"], issued["seats"]["judge"]
    assert store.seats_held(red) == [Seat(game, "player", "red")]
    assert store.seats_held(issued["seats"]["blue"]) == [Seat(game, "player", "blue")]
    assert store.seats_held(judge) == [Seat(game, "judge", "judge")]
    assert store.seats_held(issued["spectator"]) == [Seat(game, "spectator", "")]
    for wrong in ("", red[:-1], red + "x", token_hash(red), red.upper()):
        assert store.seats_held(wrong) == []
    assert store.seats_held(red) == [Seat(game, "player", "red")]  # again, remembered


def test_what_each_role_is_asked_for() -> None:
    game = uuid4()
    red, judge = Seat(game, "player", "red"), Seat(game, "judge", "judge")
    spectator = Seat(game, "spectator", "")
    assert (red.player, red.name) == ("red", "red")
    assert (judge.player, judge.name) == (None, "judge")
    assert (spectator.player, spectator.name) == (SPECTATOR, "spectator")


def test_a_token_hash_is_the_sha256_of_its_utf8_even_for_a_lone_surrogate() -> None:
    assert token_hash("abc") == hashlib.sha256(b"abc").hexdigest()
    assert token_hash("\ud800") == hashlib.sha256(b"\xed\xa0\x80").hexdigest()


def test_a_found_seat_is_remembered_and_a_wrong_token_never(
        store: SeatStore, monkeypatch: pytest.MonkeyPatch) -> None:
    game, other = uuid4(), uuid4()
    red = store.issue(game, ["red", "blue"])["seats"]["red"]
    assert store.seat_in(game, "not a token") is None
    assert len(store._known) == 0
    assert store.seat_in(game, red) == Seat(game, "player", "red")
    assert dict(store._known) == {token_hash(red): (Seat(game, "player", "red"),)}
    asked: list[str] = []
    run = store._run

    def counted(sql: str, params: Any) -> Any:
        asked.append(sql)
        return run(sql, params)

    monkeypatch.setattr(store, "_run", counted)
    assert store.seat_in(game, red) == Seat(game, "player", "red")
    assert asked == []  # from memory
    assert store.seat_in(other, red) is None  # not among them: looked up again
    assert store.seat_in(game, "not a token") is None  # looked up every time
    assert len(asked) == 4 and len(store._known) == 1


def test_a_judge_s_token_judges_every_table_created_with_it(store: SeatStore) -> None:
    first, second, third = uuid4(), uuid4(), uuid4()
    judge = store.issue(first, ["red", "blue"])["seats"]["judge"]
    assert store.seat_in(first, judge) == Seat(first, "judge", "judge")  # remembered
    again = store.issue(second, ["red", "blue"], judge=judge)
    assert again["seats"]["judge"] == judge
    assert len({*again["seats"].values(), again["spectator"]}) == 4
    store.issue(third, ["red", "blue"], judge=judge)
    tables = sorted([second, third], key=str)
    assert store.seats_held(judge) == [Seat(g, "judge", "judge") for g in [first, *tables]]
    # Found although the token was remembered holding the first table only.
    assert store.seat_in(second, judge) == Seat(second, "judge", "judge")
    assert store.seat_in(third, judge) == Seat(third, "judge", "judge")
    assert rows_of(store, second) == {
        (token_hash(again["seats"][p]), str(second), "player", p) for p in ("red", "blue")
    } | {(token_hash(again["spectator"]), str(second), "spectator", "")}
    # The players of the second table hold only their own seats.
    assert store.seats_held(again["seats"]["red"]) == [Seat(second, "player", "red")]
    assert store.seat_in(first, again["seats"]["red"]) is None


def test_the_remembered_seats_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(seats_module, "KNOWN_SEATS", 2)
    store = SeatStore(":memory:")
    tokens = [store.issue(uuid4(), ["red"])["seats"]["red"] for _ in range(3)]
    for token in tokens:
        assert store.seats_held(token)
    assert list(store._known) == [token_hash(t) for t in tokens[1:]]


def test_every_server_on_a_store_sees_the_same_seats(
        store: SeatStore, tmp_path: Path) -> None:
    """Another store on the same database (another app server) finds the seats."""
    if store._memory is not None:
        pytest.skip("a memory store is one process's own")
    game = uuid4()
    red = store.issue(game, ["red"])["seats"]["red"]
    other = SeatStore(store._db)
    try:
        assert other.seats_held(red) == [Seat(game, "player", "red")]
    finally:
        other.close()


def test_an_sqlite_store_is_a_file_beside_the_game_file_one_connection_a_thread(
        tmp_path: Path) -> None:
    db = str(tmp_path / "games.db")
    store = SeatStore(db)
    red = store.issue(uuid4(), ["red"])["seats"]["red"]
    assert (tmp_path / "games.db.seats").exists() and not (tmp_path / "games.db").exists()
    with store._sqlite() as first, store._sqlite() as again:
        assert first is again
        assert first.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    found: list[Any] = []

    def in_a_thread() -> None:
        with store._sqlite() as connection:
            found.append(connection)
        found.append(store.seats_held(red))

    thread = threading.Thread(target=in_a_thread)
    thread.start()
    thread.join()
    assert found[0] is not first and found[1] and found[1][0].seat == "red"
    store.close()


def test_a_memory_store_is_one_connection_behind_a_lock_for_every_thread() -> None:
    store = SeatStore(":memory:")
    assert store._memory is not None and not store.postgres and store._pool is None
    with store._sqlite() as connection:
        assert connection is store._memory
        assert store._memory_lock.locked()
    assert not store._memory_lock.locked()
    game = uuid4()
    red = store.issue(game, ["red"])["seats"]["red"]
    found: list[Any] = []
    thread = threading.Thread(target=lambda: found.append(store.seats_held(red)))
    thread.start()
    thread.join()
    assert found == [[Seat(game, "player", "red")]]


def test_a_server_remembers_the_last_4096_tokens_that_held_a_seat() -> None:
    assert SeatStore(":memory:")._known.size == 4096


@pytest.mark.parametrize("backend", backend_params("postgres"))
def test_a_postgres_store_is_a_table_of_the_game_database(backend: str) -> None:
    """Set up by many servers at once (the advisory lock lets one create the table at a
    time), it is one table that all of them see; closing closes the pool."""
    import psycopg

    assert POSTGRES_URL is not None
    with psycopg.connect(POSTGRES_URL, autocommit=True) as admin:
        admin.execute("DROP TABLE IF EXISTS warledger_seats")  # set up from nothing
    stores: list[SeatStore] = []
    errors: list[BaseException] = []

    def open_one() -> None:
        try:
            stores.append(SeatStore(POSTGRES_URL or ""))
        except BaseException as error:  # pragma: no cover - the failure is reported
            errors.append(error)

    threads = [threading.Thread(target=open_one) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == [] and len(stores) == 8
    first = stores[0]
    assert first.postgres and first._memory is None
    game = uuid4()
    judge = first.issue(game, ["red"])["seats"]["judge"]
    assert all(s.seats_held(judge) == [Seat(game, "judge", "judge")] for s in stores)
    held = first._run("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'", ())
    assert held == [(0,)]  # the set-up lock was let go
    assert (first._pool.min_size, first._pool.max_size) == (1, 8)
    for store in stores:
        store.close()
    assert first._pool.closed
