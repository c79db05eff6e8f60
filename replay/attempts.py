"""Refused attempts: every command the rules refused, kept beside the game, never in it.

A rejection writes nothing to the game (its log, head hash and state hash stay as
they were), and is still kept here as an attempt, whatever the front door (a script
run, `warledger step`, the API, HTTP): who issued it (its seat), when it arrived,
the command as given, the verdict (a clause ID, a CORE-* rule or INPUT, and its
message) and where it happened: after which log step (0: the set-up), as every
human output numbers steps (docs/CONTRACT.md, "Extensions").

The attempts live in the game store itself, in one table `warledger_attempts`
(SQLite and PostgreSQL alike; in memory for an in-memory store). Its `step` column
holds the step the command would have been (the step it came after, plus one), as
the server's own attempts table held it before the attempts moved here: an older
PostgreSQL table is read as it is, and an older SQLite `DB.seats` file's attempts
are moved into the game file the first time a service writes one (`adopt_seat_file`).

Who sees what (docs/server.md): the judge every attempt, a player their own only,
a spectator none. A refusal's message may name what others may not know.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from uuid import UUID

import orjson
from eventsourcing.persistence import OperationalError

from domain.datafile import is_plain
from projections.wording import refusal_label, say_command
from replay.sqlite_files import connect

#: Nobody's attempts: what a spectator is shown.
NOBODY = "\x00nobody"

TABLE = "warledger_attempts"
SCHEMA = (
    f"CREATE TABLE IF NOT EXISTS {TABLE} ("
    " id {serial}, game_id TEXT NOT NULL, seat TEXT NOT NULL, at TEXT NOT NULL,"
    " step INTEGER NOT NULL, command TEXT NOT NULL, rule TEXT, message TEXT)",
    f"CREATE INDEX IF NOT EXISTS {TABLE}_game ON {TABLE} (game_id, id)",
)
SERIAL = {"postgres": "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
          "sqlite": "INTEGER PRIMARY KEY AUTOINCREMENT"}
COLUMNS = "seat, at, step, command, rule, message"
#: The longest `by` or `do` kept of a command too malformed to keep whole.
SHORT = 64


@dataclass(frozen=True)
class Attempt:
    """One refused command: never a fact of the game."""

    seat: str
    at: str
    #: The log step it came after (0: the set-up): "refused after step 5".
    after_step: int
    command: dict[str, Any]
    rule: str | None
    message: str | None

    @property
    def label(self) -> str:
        return refusal_label(self.after_step)

    def line(self) -> str:
        """One line of `audit --attempts`: where, when, who, what, and the verdict."""
        verdict = f"{self.rule}: {self.message}" if self.message else str(self.rule)
        return (f"{self.label}, {self.at[:19]}, {self.seat or '?'}: "
                f"{say_command(self.command)} -> refused {verdict}")

    def as_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "at": self.at, "after_step": self.after_step,
                "label": self.label, "said": say_command(self.command),
                "command": self.command, "rule": self.rule, "message": self.message}


def kept_command(command: object, dice: object = None) -> dict[str, Any]:
    """The command as an attempt keeps it: whole (with its physical dice) when it is
    data a game could hold; of a malformed one only its `by` and `do`, when short text."""
    record = command.record() if hasattr(command, "record") else command
    if isinstance(record, dict) and is_plain(record, tuples=True) and encodes(record):
        kept = dict(record)
        if isinstance(dice, list | tuple) and is_plain(list(dice)) and encodes(list(dice)):
            kept["dice"] = list(dice)
        return kept
    if not isinstance(record, dict):
        return {}
    return {key: clean(record[key]) for key in ("by", "do")
            if isinstance(record.get(key), str) and len(record[key]) <= SHORT}


def encodes(data: object) -> bool:
    """Can `data` be stored as JSON (no lone surrogate in a string, say)?"""
    try:
        orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS)
    except TypeError:
        return False
    return True


def clean(text: str) -> str:
    """Text as every store can hold it: a lone surrogate or a NUL kept as its escape
    (`\\udc00`, `\\x00`)."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8").replace("\x00", "\\x00")


def seat_of(command: object) -> str:
    """Who issued a command: its `by` (the server sets it from the seat's token)."""
    by = getattr(command, "by", None) if not isinstance(command, dict) else command.get("by")
    return clean(by) if isinstance(by, str) and len(by) <= SHORT else ""


class AttemptLog:
    """The refused attempts of every game in one store (`recorder`: the game store's)."""

    def __init__(self, recorder: Any, sqlite_path: str | None = None) -> None:
        self.recorder = recorder
        module = type(recorder).__module__
        self.kind = ("postgres" if module.endswith("postgres")
                     else "sqlite" if module.endswith("sqlite") else "memory")
        self.sqlite_path = sqlite_path
        self.memory: list[tuple[str, tuple[Any, ...]]] = []
        self.lock = threading.Lock()
        self.installed = False

    def install(self) -> None:
        """Create the table (on PostgreSQL at start-up, under the schema set-up lock;
        on SQLite only once an attempt is written, so that readers never write)."""
        if self.kind == "postgres":
            self._create()

    def _create(self) -> None:
        with self.recorder.datastore.transaction(commit=True) as cursor:
            for statement in SCHEMA:
                cursor.execute(statement.format(serial=SERIAL[self.kind]))
        self.installed = True
        if self.kind == "sqlite" and self.sqlite_path is not None:
            adopt_seat_file(self, Path(f"{self.sqlite_path}.seats"))

    # -- writing ----------------------------------------------------------------------
    def keep(self, game_id: UUID, seat: str, at: str, after_step: int,
             command: dict[str, Any], rule: str | None, message: str | None) -> None:
        """Keep one refused attempt."""
        self.keep_rows(game_id, [(clean(seat), at, after_step + 1, orjson.dumps(
            command, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS).decode(),
            None if rule is None else clean(rule), None if message is None else clean(message))])

    def keep_rows(self, game_id: UUID, rows: Sequence[tuple[Any, ...]]) -> None:
        """Keep rows as the table holds them (seat, at, step, command, rule, message)."""
        if self.kind == "memory":
            with self.lock:
                self.memory.extend((str(game_id), tuple(row)) for row in rows)
            return
        if not self.installed:
            self._create()
        mark = "%s" if self.kind == "postgres" else "?"
        insert = (f"INSERT INTO {TABLE} (game_id, {COLUMNS}) VALUES "
                  f"({', '.join([mark] * 7)})")
        with self.recorder.datastore.transaction(commit=True) as cursor:
            for row in rows:
                cursor.execute(insert, (str(game_id), *row))

    # -- reading ----------------------------------------------------------------------
    def attempts(self, game_id: UUID, seat: str | None = None) -> list[Attempt]:
        """A game's refused attempts in the order they were made (by time; moved ones
        among them): every one (the
        judge's), or one seat's only (a player's own; `NOBODY`: none)."""
        if seat == NOBODY:
            return []
        if not self.installed and self.kind == "sqlite" and self.sqlite_path is not None \
                and Path(f"{self.sqlite_path}.seats").is_file():
            self._create()  # an older server's attempts, moved here once
        return [attempt_of(row) for row in self._rows(game_id)
                if seat is None or row[0] == seat]

    def _rows(self, game_id: UUID) -> list[tuple[Any, ...]]:
        if self.kind == "memory":
            with self.lock:
                return sorted((row for game, row in self.memory if game == str(game_id)),
                              key=lambda row: str(row[1]))
        mark = "%s" if self.kind == "postgres" else "?"
        select = f"SELECT {COLUMNS} FROM {TABLE} WHERE game_id = {mark} ORDER BY at, id"
        try:
            with self.recorder.datastore.transaction(commit=False) as cursor:
                cursor.execute(select, (str(game_id),))
                rows = cursor.fetchall()
        except (sqlite3.OperationalError, OperationalError) as error:
            if "no such table" in str(error):
                return []  # no attempt was ever kept in this store
            raise
        return [tuple(r[c] for c in COLUMNS.split(", ")) if isinstance(r, Mapping)
                else tuple(r) for r in rows]


def attempt_of(row: Sequence[Any]) -> Attempt:
    seat, at, step, command, rule, message = row
    data = orjson.loads(command) if isinstance(command, str | bytes) else command
    return Attempt(str(seat), str(at), int(step) - 1, data if isinstance(data, dict) else {},
                   None if rule is None else str(rule),
                   None if message is None else str(message))


def adopt_seat_file(log: AttemptLog, seats: Path) -> None:
    """Move the attempts an older `warledger serve` kept in `DB.seats` into the game
    store (their one place now), once: the old table is dropped in the same lock."""
    if not seats.is_file():
        return
    old = connect(str(seats), isolation_level=None)  # waits BUSY_SECONDS, as every file
    try:
        old.execute("BEGIN IMMEDIATE")  # one process moves them
        try:
            rows = old.execute(f"SELECT game_id, {COLUMNS} FROM {TABLE} ORDER BY id").fetchall()
        except sqlite3.OperationalError:  # no such table: nothing to move
            old.execute("ROLLBACK")
            return
        by_game: dict[str, list[tuple[Any, ...]]] = {}
        for game, *row in rows:
            by_game.setdefault(str(game), []).append(tuple(row))
        for game, kept in by_game.items():
            log.keep_rows(UUID(game), kept)
        old.execute(f"DROP TABLE {TABLE}")
        old.execute("COMMIT")
    finally:
        old.close()
