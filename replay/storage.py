"""Choosing the event store: SQLite (default), PostgreSQL, or memory for tests.

`--db PATH` (default `warledger.db`) is an SQLite file. `--db postgresql://…`
selects PostgreSQL. With no `--db` and `PERSISTENCE_MODULE=eventsourcing.postgres`
in the environment, eventsourcing's own `POSTGRES_*` variables are used.
`--db :memory:` keeps events in memory (unit tests).
"""

from __future__ import annotations

import os
from urllib.parse import unquote, urlparse

from domain.errors import ScriptError

DEFAULT_DB = "warledger.db"


def storage_env(db: str | None) -> dict[str, str]:
    """The eventsourcing environment for a `--db` value."""
    if db is None:
        if os.environ.get("PERSISTENCE_MODULE", "").endswith("postgres"):
            return {"PERSISTENCE_MODULE": "eventsourcing.postgres"}
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
        "SQLITE_LOCK_TIMEOUT": "10",
    }


def postgres_env(url: str) -> dict[str, str]:
    """eventsourcing's POSTGRES_* settings from a postgresql:// URL."""
    parts = urlparse(url)
    env = {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_DBNAME": parts.path.lstrip("/") or "warledger",
        "POSTGRES_HOST": parts.hostname or "127.0.0.1",
        "POSTGRES_PORT": str(parts.port or 5432),
        "POSTGRES_USER": unquote(parts.username or "postgres"),
        "POSTGRES_PASSWORD": unquote(parts.password or ""),
        "POSTGRES_ENABLE_DB_FUNCTIONS": "y",
    }
    return env


def describe(db: str | None) -> str:
    """A short human description of the store, for messages."""
    env = storage_env(db)
    module = env["PERSISTENCE_MODULE"].rsplit(".", 1)[-1]
    if module == "sqlite":
        return f"SQLite file {env['SQLITE_DBNAME']}"
    if module == "postgres":
        return f"PostgreSQL database {env.get('POSTGRES_DBNAME', '(from environment)')}"
    return "memory"
