"""Many processes opening one new, empty SQLite store at the same moment: every one
opens the game store, the server's seats file and the views file (`replay.sqlite_files`).

Before the busy timeout and the retries, a few of them failed with `database is
locked`: switching a new file to WAL, and creating tables in a transaction whose
snapshot another process had just made stale, both fail at once, whatever the timeout.
"""

from __future__ import annotations

import os
import sqlite3
import traceback
from pathlib import Path
from typing import Any

import pytest
from eventsourcing.persistence import OperationalError, PersistenceError

from replay.service import GameService, is_setup_race, set_up_tables
from replay.sqlite_files import BUSY_SECONDS, connect, use_wal
from replay.views import Views
from warledger.server.seats import SeatStore

PROCESSES = 32


def open_everything(db: str) -> None:
    """What a server and a `views` run open on a store: its tables made if missing."""
    service = GameService(db)
    seats = SeatStore(db)
    views = Views(service, f"{db}.views")
    try:
        assert service.game_ids() == []
        assert seats.seats_held("no such token") == []
    finally:
        views.close()
        seats.close()
        service.close()


def child(db: str, go: int, report: int) -> None:
    """In a forked process: wait for the word, open the store, report any error."""
    os.read(go, 1)
    try:
        open_everything(db)
        message = b""
    except BaseException:
        message = traceback.format_exc().strip().splitlines()[-1].encode()
    os.write(report, message[:500] + b"\n")
    os._exit(0)


def open_together(db: str, count: int) -> list[str]:
    """Fork `count` processes, start them at once, and gather their errors."""
    go_read, go_write = os.pipe()
    report_read, report_write = os.pipe()
    pids = []
    for _ in range(count):
        pid = os.fork()
        if pid == 0:
            child(db, go_read, report_write)
        pids.append(pid)
    os.close(report_write)
    os.write(go_write, b"x" * count)  # every child is waiting: all start together
    with os.fdopen(report_read, "rb") as reports:
        lines = reports.read().decode().splitlines()
    for pid in pids:
        os.waitpid(pid, 0)
    os.close(go_read)
    os.close(go_write)
    assert len(lines) == count
    return [line for line in lines if line]


def test_thirty_two_processes_open_one_empty_store_together(tmp_path: Path) -> None:
    db = str(tmp_path / "games.db")
    assert open_together(db, PROCESSES) == []
    for name in (db, f"{db}.seats", f"{db}.views"):
        mode = sqlite3.connect(name).execute("PRAGMA journal_mode").fetchone()[0]
        assert mode == "wal", name


def busy_timeout(connection: Any) -> int:
    return int(connection.execute("PRAGMA busy_timeout").fetchone()[0])


def test_every_sqlite_connection_waits_for_a_lock(tmp_path: Path) -> None:
    """The game store, the seats file, the views file and the views' reader of the
    store all wait `BUSY_SECONDS`, not sqlite3's 5 s default (nor 10 s here, 5 s there)."""
    db = str(tmp_path / "games.db")
    service = GameService(db)
    seats = SeatStore(db)
    views = Views(service, f"{db}.views")
    try:
        with service.recorder.datastore.transaction(commit=False) as cursor:  # type: ignore[attr-defined]
            cursor.execute("PRAGMA busy_timeout")
            store = int(cursor.fetchone()[0])
        with seats._sqlite() as connection:
            seated = busy_timeout(connection)
        assert views.events is not None
        found = [store, seated, busy_timeout(views.conn), busy_timeout(views.events)]
    finally:
        views.close()
        seats.close()
        service.close()
    assert found == [BUSY_SECONDS * 1000] * 4


def stale_snapshot_error(db: str) -> PersistenceError:
    """SQLite's at-once `database is locked`, as the library reports it: a transaction
    read the schema, another client then committed a table, and the first one writes."""
    first = connect(db, isolation_level=None)
    use_wal(first)
    other = connect(db, isolation_level=None)
    first.execute("BEGIN")
    first.execute("SELECT count(*) FROM sqlite_master").fetchall()
    other.execute("CREATE TABLE made_by_the_other (x)")
    try:
        first.execute("CREATE TABLE IF NOT EXISTS mine (x)")
    except sqlite3.OperationalError as error:
        return OperationalError(error)
    finally:
        first.close()
        other.close()
    raise AssertionError("the stale write was not refused")


def test_a_set_up_that_lost_the_cold_start_race_is_tried_again(tmp_path: Path) -> None:
    """The table set-up that met the stale snapshot runs again, and finds the tables."""
    error = stale_snapshot_error(str(tmp_path / "race.db"))
    assert "database is locked" in str(error)
    assert is_setup_race(error)
    tries: list[int] = []

    def set_up() -> None:
        tries.append(1)
        if len(tries) == 1:
            raise error

    set_up_tables(set_up)
    assert len(tries) == 2

    def broken() -> None:
        raise OperationalError("no such table: x")

    with pytest.raises(OperationalError):  # any other failure is not tried again
        set_up_tables(broken)
