"""Choosing the event store: SQLite (default), PostgreSQL, or memory for tests.

`--db PATH` (default `warledger.db`) is an SQLite file. `--db postgresql://…`
selects PostgreSQL. With no `--db` and `PERSISTENCE_MODULE=eventsourcing.postgres`
in the environment, eventsourcing's own `POSTGRES_*` variables are used.
`--db :memory:` keeps events in memory (unit tests).
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any
from urllib.parse import unquote, urlparse

from domain.errors import ScriptError
from replay.sqlite_files import BUSY_SECONDS

DEFAULT_DB = "warledger.db"
#: The service's application name (`GameService.name`): its tables and tracking names.
APPLICATION = "warledger"
#: The PostgreSQL recorders: the notification log read and written in commit order.
COMMIT_ORDER = {"APPLICATION_RECORDER_TOPIC": "replay.postgres:CommitOrderRecorder",
                "PROCESS_RECORDER_TOPIC": "replay.postgres:CommitOrderProcessRecorder"}
#: The analytic projection's tracking name after `APPLICATION:` (`replay.views`).
ANALYTICS = "analytics"


def storage_env(db: str | None) -> dict[str, str]:
    """The eventsourcing environment for a `--db` value."""
    if db is None:
        if os.environ.get("PERSISTENCE_MODULE", "").endswith("postgres"):
            return {"PERSISTENCE_MODULE": "eventsourcing.postgres", **COMMIT_ORDER}
        db = DEFAULT_DB
    if db == ":memory:":
        return {"PERSISTENCE_MODULE": "eventsourcing.popo"}
    if db.startswith(("postgresql://", "postgres://")):
        return postgres_env(db)
    if "://" in db:
        raise ScriptError(f"cannot use {db.split('://')[0]}:// databases; give a SQLite file "
                          "path or a postgresql:// URL")
    return {
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": db,
        "SQLITE_LOCK_TIMEOUT": str(BUSY_SECONDS),
    }


def postgres_env(url: str) -> dict[str, str]:
    """eventsourcing's POSTGRES_* settings from a postgresql:// URL."""
    parts = urlparse(url)
    try:
        port = parts.port
    except ValueError as error:
        raise ScriptError(f"bad database URL {redact(url)}: {error}") from None
    env = {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_DBNAME": parts.path.lstrip("/") or "warledger",
        "POSTGRES_HOST": parts.hostname or "127.0.0.1",
        "POSTGRES_PORT": str(port or 5432),
        "POSTGRES_USER": unquote(parts.username or "postgres"),
        "POSTGRES_PASSWORD": unquote(parts.password or ""),
        "POSTGRES_ENABLE_DB_FUNCTIONS": "y",
        # The notification log read and written in commit order (`replay.postgres`).
        **COMMIT_ORDER,
        # A server that does not answer is reported after 5 s, not the library's 30.
        "POSTGRES_CONNECT_TIMEOUT": "5",
        # One connection opened at start, up to five in use: a command needs one or
        # two, and 32 clients starting together fit a default server's 100
        # connections (the library opens all five of its default pool at once).
        "POSTGRES_POOL_SIZE": os.environ.get("POSTGRES_POOL_SIZE", "1"),
        "POSTGRES_MAX_OVERFLOW": os.environ.get("POSTGRES_MAX_OVERFLOW", "4"),
    }
    return env


#: The PostgreSQL advisory lock (per database) that warledger's schema set-up holds.
SCHEMA_LOCK_KEY = int.from_bytes(
    hashlib.sha256(b"warledger: schema set-up").digest()[:8], "big", signed=True)


@contextmanager
def schema_setup_lock(env: Mapping[str, str]) -> Iterator[None]:
    """Run the body (a service creating its tables) holding `SCHEMA_LOCK_KEY`, when
    `env` selects PostgreSQL; elsewhere it just runs.

    Clients opening an empty database together would all create the tables, their
    row types and functions at once, and PostgreSQL's catalogue lets all but one
    fail (`duplicate key value violates unique constraint
    "pg_type_typname_nsp_index"`, "tuple concurrently updated"). Under the lock
    they set up one after another; each after the first finds everything there.
    The lock is held on a connection of its own and is released when it closes.
    If that connection cannot be made, the body runs without it (and the library
    reports why the server cannot be used).
    """
    connection = _lock_connection(env) if env.get(
        "PERSISTENCE_MODULE", "").endswith("postgres") else None
    try:
        yield
    finally:
        if connection is not None:
            connection.close()  # ending the session releases its advisory locks


def _lock_connection(env: Mapping[str, str]) -> Any:
    """A plain connection holding the schema set-up lock, or None if it cannot be had."""
    try:
        import psycopg
    except ImportError:
        return None

    def setting(name: str, default: str) -> str:
        return env.get(name) or os.environ.get(name) or default

    try:
        connection = psycopg.connect(
            dbname=setting("POSTGRES_DBNAME", "warledger"),
            host=setting("POSTGRES_HOST", "127.0.0.1"),
            port=int(setting("POSTGRES_PORT", "5432")),
            user=setting("POSTGRES_USER", "postgres"),
            password=setting("POSTGRES_PASSWORD", ""),
            connect_timeout=int(setting("POSTGRES_CONNECT_TIMEOUT", "5")),
            autocommit=True,
        )
    except (psycopg.Error, ValueError):
        return None
    try:
        connection.execute("SET lock_timeout = '60s'")
        connection.execute("SELECT pg_advisory_lock(%s)", (SCHEMA_LOCK_KEY,))
    except psycopg.Error:
        connection.close()
        return None
    return connection


def describe(db: str | None) -> str:
    """A short human description of the store, for messages."""
    env = storage_env(db)
    module = env["PERSISTENCE_MODULE"].rsplit(".", 1)[-1]
    if module == "sqlite":
        return f"SQLite file {env['SQLITE_DBNAME']}"
    if module == "postgres":
        return f"PostgreSQL database {env.get('POSTGRES_DBNAME', '(from environment)')}"
    return "memory"


def redact(text: str) -> str:
    """`text` with the password of any postgresql:// URL in it replaced by `***`."""
    return re.sub(r"(postgres(?:ql)?://[^:/@\s]+:)[^@\s]*@", r"\1***@", text)


def check_reachable(url: str) -> str | None:
    """Why a PostgreSQL server cannot be used (the server's own words), or None.

    The library's connection pool reports every failure as a timeout; one plain
    connection first names the real cause (wrong password, no such database).
    """
    try:
        import psycopg
    except ImportError:
        return "the postgres extra is not installed (pip install 'warledger[postgres]')"
    env = postgres_env(url)
    try:
        psycopg.connect(
            dbname=env["POSTGRES_DBNAME"], host=env["POSTGRES_HOST"],
            port=int(env["POSTGRES_PORT"]), user=env["POSTGRES_USER"],
            password=env["POSTGRES_PASSWORD"], connect_timeout=5,
        ).close()
    except psycopg.Error as error:
        lines = [line.strip() for line in str(error).splitlines() if line.strip()]
        return lines[0] if lines else type(error).__name__
    return None
