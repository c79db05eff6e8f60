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
from replay.keyed import seat_mac
from tests.conftest import POSTGRES_URL, backend_params
from warledger.server.seats import SPECTATOR, Seat, SeatStore, main, token_hash


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


# -- with a server key: every seat row carries a MAC -------------------------------------
KEY = b"a server key nobody else holds"


@pytest.fixture(params=backend_params("memory", "sqlite", "postgres"))
def keyed(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[SeatStore]:
    db = {"memory": ":memory:", "sqlite": str(tmp_path / "games.db"),
          "postgres": POSTGRES_URL}[request.param]
    assert db is not None
    seats = SeatStore(db, KEY)
    yield seats
    seats.close()


def forge_seat(store: SeatStore, game: UUID, role: str, seat: str,
               mac: str | None = None) -> str:
    """What a database writer does: a token of their own, its hash stored as a seat."""
    token = f"forged-{uuid4()}"
    store._run("INSERT INTO warledger_seats (token_hash, game_id, role, seat, mac) "
               "VALUES (?, ?, ?, ?, ?)", (token_hash(token), str(game), role, seat, mac))
    return token


def test_a_keyed_store_signs_each_seat_it_issues(keyed: SeatStore) -> None:
    game = uuid4()
    issued = keyed.issue(game, ["red"])
    tokens = {**issued["seats"], "": issued["spectator"]}
    stored = dict(((role, seat), (hashed, mac)) for hashed, role, seat, mac in keyed._run(
        "SELECT token_hash, role, seat, mac FROM warledger_seats WHERE game_id = ?",
        (str(game),)))
    assert stored == {
        ("player", "red"): (token_hash(tokens["red"]), seat_mac(
            KEY, token_hash(tokens["red"]), str(game), "player", "red")),
        ("judge", "judge"): (token_hash(tokens["judge"]), seat_mac(
            KEY, token_hash(tokens["judge"]), str(game), "judge", "judge")),
        ("spectator", ""): (token_hash(tokens[""]), seat_mac(
            KEY, token_hash(tokens[""]), str(game), "spectator", "")),
    }
    assert keyed.seats_held(tokens["judge"]) == [Seat(game, "judge", "judge")]
    assert keyed.seat_in(game, tokens[""]) == Seat(game, "spectator", "")


def test_a_seat_row_a_database_writer_added_holds_no_seat_on_a_keyed_store(
        keyed: SeatStore) -> None:
    """No MAC, another key's MAC, or the MAC of another row (red's, moved onto a judge's
    row; the judge's own, with its game or role changed): the token holds nothing, as
    an unknown token holds nothing."""
    game, other = uuid4(), uuid4()
    issued = keyed.issue(game, ["red"])
    red_hash = token_hash(issued["seats"]["red"])
    red_mac = seat_mac(KEY, red_hash, str(game), "player", "red")
    forged = [
        forge_seat(keyed, game, "judge", "judge"),
        forge_seat(keyed, game, "judge", "judge", ""),
        forge_seat(keyed, game, "judge", "judge", red_mac),
        forge_seat(keyed, game, "player", "red", red_mac),
        forge_seat(keyed, game, "judge", "judge", seat_mac(b"the attacker's own key!!", "x",
                                                           str(game), "judge", "judge")),
    ]
    moved = f"forged-{uuid4()}"
    forged.append(forge_seat(keyed, game, "judge", "judge", seat_mac(
        KEY, token_hash(moved), str(other), "judge", "judge")))
    forged.append(forge_seat(keyed, game, "judge", "judge", seat_mac(
        KEY, token_hash(moved), str(game), "player", "judge")))
    forged.append(forge_seat(keyed, game, "player", "red", seat_mac(
        KEY, token_hash(moved), str(game), "player", "blue")))
    for token in forged:
        assert keyed.seats_held(token) == [] and keyed.seat_in(game, token) is None
    assert len(keyed._known) == 0
    assert keyed.seats_held(issued["seats"]["red"]) == [Seat(game, "player", "red")]
    # Without the key, the same store holds what is in its rows (as before seats had MACs).
    if keyed._memory is None:
        plain = SeatStore(keyed._db)
        try:
            assert plain.seats_held(forged[0]) == [Seat(game, "judge", "judge")]
        finally:
            plain.close()


def test_a_judge_s_further_table_a_database_writer_added_is_not_judged(
        keyed: SeatStore) -> None:
    first, second, third = uuid4(), uuid4(), uuid4()
    judge = keyed.issue(first, ["red"])["seats"]["judge"]
    keyed.issue(second, ["red"], judge=judge)
    hashed = token_hash(judge)
    assert keyed._run("SELECT mac FROM warledger_tables WHERE game_id = ?",
                      (str(second),)) == [(seat_mac(KEY, hashed, str(second), "table", "judge"),)]
    keyed._run("INSERT INTO warledger_tables (token_hash, game_id, mac) VALUES (?, ?, ?)",
               (hashed, str(third), seat_mac(KEY, hashed, str(third), "judge", "judge")))
    assert keyed.seat_in(third, judge) is None
    assert keyed.seats_held(judge) == [Seat(first, "judge", "judge"),
                                       Seat(second, "judge", "judge")]


def test_sealing_signs_the_seats_stored_without_the_key_and_no_forged_mac(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "games.db")
    game, second = uuid4(), uuid4()
    plain = SeatStore(db)
    issued = plain.issue(game, ["red"])
    plain.issue(second, ["red"], judge=issued["seats"]["judge"])
    keyed = SeatStore(db, KEY)
    bad = forge_seat(keyed, game, "player", "blue", "0" * 64)
    every = [*issued["seats"].values(), issued["spectator"]]
    assert [keyed.seats_held(token) for token in every] == [[], [], []]
    assert main(["seal", db], {"WARLEDGER_KEY": KEY.decode()}) == 0
    seats = [(game, "judge", "judge"), (game, "player", "red"), (game, "spectator", ""),
             (second, "player", "red"), (second, "spectator", "")]
    assert capsys.readouterr().out.splitlines() == [
        f"sealed {g} {role} {seat}".rstrip() for g, role, seat in sorted(seats, key=str)] + [
        f"sealed {second} table judge"]
    assert keyed.seats_held(issued["seats"]["red"]) == [Seat(game, "player", "red")]
    assert keyed.seats_held(issued["seats"]["judge"]) == [Seat(game, "judge", "judge"),
                                                          Seat(second, "judge", "judge")]
    assert keyed.seats_held(bad) == []  # a wrong MAC is never sealed
    assert keyed.seal() == []  # nothing left without one
    keyed.close()
    plain.close()


@pytest.mark.parametrize("argv, environ", [
    ([], {"WARLEDGER_KEY": KEY.decode()}), (["seal"], {"WARLEDGER_KEY": KEY.decode()}),
    (["open", "x.db"], {"WARLEDGER_KEY": KEY.decode()}), (["seal", "x.db"], {}),
    (["seal", "x.db", "y.db"], {"WARLEDGER_KEY": KEY.decode()}),
])
def test_sealing_needs_the_key_and_one_store(
        argv: list[str], environ: dict[str, str], capsys: pytest.CaptureFixture[str],
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(argv, environ) == 2
    assert capsys.readouterr().out == (
        "usage: WARLEDGER_KEY=... python -m warledger.server.seats seal DB\n")
    assert not (tmp_path / "x.db.seats").exists()


def test_a_store_made_before_seats_had_macs_gains_the_column(tmp_path: Path) -> None:
    import sqlite3

    db = str(tmp_path / "games.db")
    with sqlite3.connect(f"{db}.seats") as old:
        old.execute("CREATE TABLE warledger_seats (token_hash TEXT PRIMARY KEY, game_id "
                    "TEXT NOT NULL, role TEXT NOT NULL, seat TEXT NOT NULL)")
        old.execute("CREATE TABLE warledger_tables (token_hash TEXT NOT NULL, game_id TEXT "
                    "NOT NULL, PRIMARY KEY (token_hash, game_id))")
        old.execute("INSERT INTO warledger_seats VALUES (?, ?, 'player', 'red')",
                    (token_hash("old red"), str(uuid4())))
    old.close()
    store = SeatStore(db, KEY)
    for table in ("warledger_seats", "warledger_tables"):
        assert [row[1] for row in store._run(f"PRAGMA table_info({table})", ())][-1] == "mac"
    assert store.seats_held("old red") == []
    assert [role for _, role, _ in store.seal()] == ["player"]
    assert [seat.seat for seat in store.seats_held("old red")] == ["red"]
    store.close()
    SeatStore(db, KEY).close()  # opened again: the column is there already


@pytest.mark.parametrize("backend", backend_params("postgres"))
def test_a_postgres_store_made_before_seats_had_macs_gains_the_column(backend: str) -> None:
    import psycopg

    assert POSTGRES_URL is not None
    with psycopg.connect(POSTGRES_URL, autocommit=True) as admin:
        for table in ("warledger_seats", "warledger_tables"):
            admin.execute(f"ALTER TABLE IF EXISTS {table} DROP COLUMN IF EXISTS mac")
    store = SeatStore(POSTGRES_URL, KEY)
    try:
        found = store._run("SELECT table_name FROM information_schema.columns WHERE "
                           "column_name = 'mac' AND table_name IN "
                           "('warledger_seats', 'warledger_tables')", ())
        assert sorted(row[0] for row in found) == ["warledger_seats", "warledger_tables"]
        game = uuid4()
        red = store.issue(game, ["red"])["seats"]["red"]
        assert store.seats_held(red) == [Seat(game, "player", "red")]
    finally:
        store.close()


def test_sealing_closes_the_store_it_opened(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    closed: list[SeatStore] = []
    close = SeatStore.close

    def counted(self: SeatStore) -> None:
        closed.append(self)
        close(self)

    monkeypatch.setattr(SeatStore, "close", counted)
    assert main(["seal", str(tmp_path / "games.db")], {"WARLEDGER_KEY": KEY.decode()}) == 0
    assert len(closed) == 1 and closed[0].key == KEY
