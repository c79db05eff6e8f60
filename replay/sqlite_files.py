"""Opening SQLite files: one busy timeout everywhere, and WAL set without a race.

Every SQLite file warledger opens (the game store, its views file, the server's seats
file) waits up to `BUSY_SECONDS` for another connection's lock instead of failing at
once. Two things fail at once whatever the timeout, and both happen when many clients
open a new, empty store together:

- switching a new file to WAL (`PRAGMA journal_mode=WAL`): SQLite answers `database is
  locked` without waiting when another connection is switching it too;
- a transaction that has read (`CREATE TABLE IF NOT EXISTS` finding a table there) and
  then writes after another client committed: its snapshot is stale, so waiting could
  not help and SQLite answers `database is locked` at once.

`use_wal` retries the first; `is_cold_start_race` names the second for the code that
sets up the tables again (`GameService`), finding what the other client made.
"""

from __future__ import annotations

import sqlite3
import time
from typing import Any

#: How long any SQLite connection waits for another's lock (its busy timeout).
BUSY_SECONDS = 30
#: How often switching to WAL is tried when another connection is switching too.
WAL_ATTEMPTS = 20


def connect(path: str, **options: Any) -> sqlite3.Connection:
    """A connection to an SQLite file (or a `file:` URI with `uri=True`) that waits
    `BUSY_SECONDS` for locks; `sqlite3.connect`'s other options as given."""
    connection: sqlite3.Connection = sqlite3.connect(path, timeout=BUSY_SECONDS, **options)
    return connection


def use_wal(connection: sqlite3.Connection) -> None:
    """Put the connection's file in WAL mode (readers never wait for a writer),
    trying again while another connection is switching the same new file."""
    for attempt in range(WAL_ATTEMPTS):
        try:
            connection.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            if not is_cold_start_race(error) or attempt == WAL_ATTEMPTS - 1:
                raise
            time.sleep(0.01 * (attempt + 1))


def prepare_store(path: str) -> None:
    """Switch a store file to WAL before a library opens it: the library switches it
    itself, once, with no retry (`use_wal`). A memory database is left alone."""
    if not path or ":memory:" in path or "mode=memory" in path:
        return
    connection = connect(path, uri=True, isolation_level=None)
    try:
        use_wal(connection)
    finally:
        connection.close()


def is_cold_start_race(error: BaseException) -> bool:
    """Is this SQLite's at-once `database is locked` (above)?"""
    return "database is locked" in str(error)
